/*
 * checkers.c: English draughts / American checkers on the 32 dark squares of
 * an 8x8 board, numbered 1-32 in the standard way (1-4 on Black's back row,
 * 29-32 on White's).  Roles black (moves first, men on 1-12) and white.
 * Facts: ["cell", square, role, "man"|"king"] for occupied squares,
 * ["control", role] (kept in terminal states: the pieces alone do not tell
 * who is to move) and ["clock", n], the draw counter.  Actions:
 * ["move", from, to] and ["jump", from, landing, ...] with every landing
 * square, so that two multi-jumps over different paths stay distinct; PDN
 * "9-13", "22x15x8" and the short "22x8" are accepted too.  See README.md,
 * section checkers.
 *
 * This file fills the vtable with the rules' hooks; the board layout and
 * move codes are described in checkers.h, the moves are generated and made
 * in movegen.c, the edge formats live in facts.c, pdn.c and fen.c, the
 * heuristic in eval.c.
 */
#include "postgres.h"

#include "checkers.h"
#include "lib/stringinfo.h"

const char *const checkers_roles[2] = {"black", "white"};

/* Numeric order of the codes is the documented order: origin, then path. */
static void
sort_moves(GameMove *moves, int n)
{
	for (int i = 1; i < n; i++)
	{
		GameMove	m = moves[i];
		int			j = i;

		for (; j > 0 && moves[j - 1] > m; j--)
			moves[j] = moves[j - 1];
		moves[j] = m;
	}
}

static void
ck_initial(const Game *game, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);

	memset(c, 0, sizeof(Checkers));
	for (int s = 0; s < MAX_PIECES; s++)
	{
		c->piece[CK_BLACK] |= UINT64CONST(1) << BIT(s);
		c->piece[CK_WHITE] |= UINT64CONST(1) << BIT(SQUARES - 1 - s);
	}
	out->size = sizeof(Checkers);
}

static bool
ck_terminal(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	return c->clock >= DRAW_PLIES || !checkers_can_move(c);
}

/*
 * Without draw_rules the clock may run past DRAW_PLIES, by at most perft's
 * depth (1000), far from uint32's limit; such states never leave perft.
 */
static int
legal_moves(const GameState *state, GameMove *moves, bool draw_rules)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	int			n;

	if (draw_rules && c->clock >= DRAW_PLIES)
		return 0;
	n = checkers_generate(c, moves);
	sort_moves(moves, n);
	return n;
}

static int
ck_legal(const Game *game, const GameState *state, GameMove *moves)
{
	return legal_moves(state, moves, true);
}

/* The draw clock aside: what rapid-draughts and other perft tools count. */
static int
ck_legal_by_move_rules(const Game *game, const GameState *state, GameMove *moves)
{
	return legal_moves(state, moves, false);
}

static void
ck_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	gt_state_copy(out, state);
	checkers_do_move(GT_STATE_AS(out, Checkers), move);
}

/* A side without a move loses, even when the draw clock has run out. */
static void
ck_goals(const Game *game, const GameState *state, int *goals)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	if (checkers_can_move(c))
	{
		goals[CK_BLACK] = goals[CK_WHITE] = 50;
		return;
	}
	goals[c->mover] = GT_GOAL_MIN;
	goals[c->mover ^ 1] = GT_GOAL_MAX;
}

static int
ck_control(const Game *game, const GameState *state)
{
	if (ck_terminal(game, state))
		return GT_NO_ROLE;
	return GT_STATE_AS(state, Checkers)->mover;
}

static int
ck_mover(const Game *game, const GameState *state)
{
	return GT_STATE_AS(state, Checkers)->mover;
}

static uint64
ck_hash(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	uint64		words[4] = {c->piece[CK_BLACK], c->piece[CK_WHITE], c->king,
	(uint64) c->mover << 32 | c->clock};

	return gt_hash_words(words, 4);
}

static char *
ck_board(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int row = 0; row < 8; row++)
	{
		appendStringInfo(&buf, "%d ", 8 - row);
		for (int col = 0; col < 8; col++)
		{
			int			s = row * 4 + col / 2;
			int			side = side_on(c, s);

			/* dark squares: b..h on even rows (1-4 first), a..g on odd ones */
			if ((row + col) % 2 == 0)
				appendStringInfoString(&buf, "  .");
			else if (side < 0)
				appendStringInfo(&buf, " %2d", s + 1);
			else
			{
				char		letter = side == CK_BLACK ? 'b' : 'w';

				if (c->king >> BIT(s) & 1)
					letter = pg_toupper(letter);
				appendStringInfo(&buf, "  %c", letter);
			}
		}
		appendStringInfoChar(&buf, '\n');
	}
	appendStringInfoString(&buf, "    a  b  c  d  e  f  g  h\n");
	if (!checkers_can_move(c))
		appendStringInfo(&buf, "%s cannot move: %s wins\n", checkers_roles[c->mover],
						 checkers_roles[c->mover ^ 1]);
	else if (c->clock >= DRAW_PLIES)
		appendStringInfo(&buf, "draw: %d plies without a capture or a man's move\n", c->clock);
	else
		appendStringInfo(&buf, "%s to move, clock %d\n", checkers_roles[c->mover], c->clock);
	return buf.data;
}

/* PDN's results are PGN's; its FEN has no move number, so records number from 1. */
static const GameRecordFormat pdn = {
	.name = "PDN",
	.tags = "[GameType \"21\"]\n",	/* PDN's code of English draughts */
	.first_wins = "1-0",
	.second_wins = "0-1",
	.draw = "1/2-1/2",
	.unfinished = "*",
};

const Game	checkers_game = {
	.name = "checkers",
	.description = "English draughts / American checkers, 8x8, squares 1-32; black moves first; "
	"draw after 40 moves each without a capture or a man's move",
	.nroles = 2,
	.roles = checkers_roles,
	.state_bytes = sizeof(Checkers),
	.max_moves = MAX_MOVES,
	.initial = ck_initial,
	.legal = ck_legal,
	.legal_by_move_rules = ck_legal_by_move_rules,
	.next = ck_next,
	.terminal = ck_terminal,
	.goals = ck_goals,
	.control = ck_control,
	.mover = ck_mover,
	.tactical = checkers_tactical,
	.hash = ck_hash,
	.packed_bytes = CK_PACKED_BYTES,
	.pack = checkers_pack,
	.unpack = checkers_unpack,
	.heuristic = checkers_heuristic,
	.perft = checkers_perft,
	.encode_state = checkers_encode_state,
	.decode_state = checkers_decode_state,
	.encode_action = checkers_encode_action,
	.parse_action = checkers_parse_action,
	.notation = checkers_notation,
	.format_action = checkers_format_action,
	.read_action = checkers_read_action,
	.action_syntax = "a move in PDN notation, such as 11-15 or 22x15x8",
	.action_hint = "PDN, such as 11-15 or 22x15x8",
	.board = ck_board,
	.record_format = &pdn,
	.from_fen = checkers_from_fen,
	.to_fen = checkers_to_fen,
};
