/*
 * chess.c: the chess game of gametree, FIDE rules with the facts of GGP's
 * chess.kif (see README.md, section chess).  This file fills the vtable; the rules live
 * in position.c and movegen.c, the edge formats in facts.c and fen.c.
 */
#include "postgres.h"

#include "chess.h"
#include "lib/stringinfo.h"

const char *const chess_roles[2] = {"white", "black"};

static void
chess_initial(const Game *game, GameState *out)
{
	chess_startpos(GT_STATE_AS(out, Position));
	out->size = sizeof(Position);
}

/* legal() order: from-square, then to-square (a1, b1, ..., h8), then q, r, b, n. */
static inline int
order_key(Move m)
{
	return MOVE_FROM(m) << 8 | MOVE_TO(m) << 2 | (MOVE_PROMO(m) ? QUEEN - MOVE_PROMO(m) : 0);
}

static int
legal_moves(const GameState *state, GameMove *out, bool draw_rules)
{
	const Position *pos = GT_STATE_AS(state, Position);
	Move		moves[MAX_MOVES];
	int			n;

	if (draw_rules && drawn_by_rule(pos))
		return 0;
	n = chess_generate(pos, moves);
	/* Insertion sort: short lists, and this is not the perft path. */
	for (int i = 0; i < n; i++)
	{
		Move		m = moves[i];
		int			j = i;

		for (; j > 0 && order_key(out[j - 1]) > order_key(m); j--)
			out[j] = out[j - 1];
		out[j] = m;
	}
	return n;
}

static int
chess_legal(const Game *game, const GameState *state, GameMove *out)
{
	return legal_moves(state, out, true);
}

/* The fifty-move rule and dead positions aside: what perft tables count. */
static int
chess_legal_by_move_rules(const Game *game, const GameState *state, GameMove *out)
{
	return legal_moves(state, out, false);
}

static void
chess_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	gt_state_copy(out, state);
	chess_do_move(GT_STATE_AS(out, Position), (Move) move);
}

static bool
chess_terminal(const Game *game, const GameState *state)
{
	const Position *pos = GT_STATE_AS(state, Position);
	Move		moves[MAX_MOVES];

	return drawn_by_rule(pos) || chess_generate(pos, moves) == 0;
}

/* Checkmate wins even on the hundredth halfmove; everything else is a draw. */
static void
chess_goals(const Game *game, const GameState *state, int *goals)
{
	const Position *pos = GT_STATE_AS(state, Position);
	Move		moves[MAX_MOVES];

	if (chess_generate(pos, moves) == 0 && checking_pieces(pos))
	{
		goals[pos->side] = GT_GOAL_MIN;
		goals[pos->side ^ 1] = GT_GOAL_MAX;
	}
	else
		goals[WHITE] = goals[BLACK] = (GT_GOAL_MIN + GT_GOAL_MAX) / 2;
}

static int
chess_control(const Game *game, const GameState *state)
{
	return chess_terminal(game, state) ? GT_NO_ROLE : GT_STATE_AS(state, Position)->side;
}

static int
chess_mover(const Game *game, const GameState *state)
{
	return GT_STATE_AS(state, Position)->side;
}

/* Zobrist key of the position plus the clocks, which are part of the state. */
static uint64
chess_hash(const Game *game, const GameState *state)
{
	const Position *pos = GT_STATE_AS(state, Position);
	uint64		words[2];

	words[0] = chess_zobrist(pos);
	words[1] = (uint64) pos->halfmove | (uint64) pos->fullmove << 16;
	return gt_hash_words(words, 2);
}

/* ASCII, FEN letters (white upper case), so psql aligns it in any terminal. */
static char *
chess_board(const Game *game, const GameState *state)
{
	const Position *pos = GT_STATE_AS(state, Position);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int r = 7; r >= 0; r--)
	{
		appendStringInfo(&buf, "%d |", r + 1);
		for (int f = 0; f < 8; f++)
		{
			int			p = pos->board[SQ(f, r)];

			appendStringInfo(&buf, " %c", p == EMPTY ? '.' : piece_letter(p));
		}
		appendStringInfoChar(&buf, '\n');
	}
	appendStringInfo(&buf, "  +----------------\n    a b c d e f g h\n%s to move\n",
					 chess_roles[pos->side]);
	return buf.data;
}

/* SAN, the notation of PGN. */
static char *
chess_notation(const Game *game, const GameState *state, GameMove move)
{
	return chess_san(GT_STATE_AS(state, Position), (Move) move);
}

/* A record starting in a position numbers its moves from the position's fullmove number. */
static int
chess_turn(const Game *game, const GameState *state)
{
	return GT_STATE_AS(state, Position)->fullmove;
}

static const GameRecordFormat pgn = {
	.name = "PGN",
	.tags = "",
	.first_wins = "1-0",
	.second_wins = "0-1",
	.draw = "1/2-1/2",
	.unfinished = "*",
	.turn = chess_turn,
};

const Game	chess_game = {
	.name = "chess",
	.description = "Chess, FIDE rules; facts and names as in GGP's chess.kif, FEN and UCI accepted",
	.nroles = 2,
	.roles = chess_roles,
	.init = chess_init_tables,
	.state_bytes = sizeof(Position),
	.max_moves = MAX_MOVES,
	.initial = chess_initial,
	.legal = chess_legal,
	.legal_by_move_rules = chess_legal_by_move_rules,
	.next = chess_next,
	.terminal = chess_terminal,
	.goals = chess_goals,
	.control = chess_control,
	.mover = chess_mover,
	.tactical = chess_tactical,
	.hash = chess_hash,
	.packed_bytes = CHESS_PACKED_BYTES,
	.pack = chess_pack,
	.unpack = chess_unpack,
	.heuristic = chess_heuristic,
	.perft = chess_perft,
	.encode_state = chess_encode_state,
	.decode_state = chess_decode_state,
	.encode_action = chess_encode_action,
	.parse_action = chess_parse_action,
	.notation = chess_notation,
	.format_action = chess_format_action,
	.read_action = chess_read_action,
	.action_syntax = "a move in SAN or UCI, such as Nf3, exd5, O-O, e8=Q or e2e4",
	.action_hint = "SAN or UCI, such as Nf3, O-O, e4 or e2e4",
	.centipawns = chess_centipawns,
	.board = chess_board,
	.record_format = &pgn,
	.from_fen = chess_from_fen,
	.to_fen = chess_to_fen,
};
