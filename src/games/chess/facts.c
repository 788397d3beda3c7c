/*
 * facts.c: the JSON edge format of chess states and actions.
 *
 * State facts, in this order: ["cell", file, rank, piece] for the 64 squares
 * (files a..h, ranks 1..8 within each file, as chess.kif lists them; piece
 * "b" for blank or colour + letter, "wp" .. "bk"), ["control", side to move],
 * ["castling", colour, "kingside"|"queenside"] per right held,
 * ["enpassant", file, rank] when a capture there is legal, ["halfmove", n],
 * ["fullmove", n].  Actions: ["move", "e2", "e4"] with a fourth element
 * "q", "r", "b" or "n" for promotions; UCI strings ("e7e8q") are also read.
 */
#include "postgres.h"

#include "chess.h"
#include "core/jsonfacts.h"

static const char *const files[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const piece_codes[13] = {
	"b", "wp", "wn", "wb", "wr", "wq", "wk", "bp", "bn", "bb", "br", "bq", "bk"
};
static const char *const wings[2] = {"kingside", "queenside"};
/* Indexed by piece type, KNIGHT .. QUEEN. */
static const char *const promotions[QUEEN + 1] = {NULL, "n", "b", "r", "q"};

/* Index in piece_codes of a board byte. */
static int
code_index(int piece)
{
	return piece == EMPTY ? 0 : 1 + 6 * PIECE_COLOR(piece) + PIECE_TYPE(piece);
}

static void
fact_begin(JsonOut *out, const char *relation)
{
	jo_begin_array(out);
	jo_string(out, relation);
}

void
chess_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	const Position *pos = GT_STATE_AS(state, Position);

	for (int f = 0; f < 8; f++)
		for (int r = 0; r < 8; r++)
		{
			fact_begin(out, "cell");
			jo_string(out, files[f]);
			jo_int(out, r + 1);
			jo_string(out, piece_codes[code_index(pos->board[SQ(f, r)])]);
			jo_end_array(out);
		}
	/* Kept in terminal states too: a chess position needs its side to move. */
	fact_begin(out, "control");
	jo_string(out, chess_roles[pos->side]);
	jo_end_array(out);
	for (int i = 0; i < 4; i++)
		if (pos->castling & (1 << i))
		{
			fact_begin(out, "castling");
			jo_string(out, chess_roles[i / 2]);
			jo_string(out, wings[i % 2]);
			jo_end_array(out);
		}
	if (pos->ep != NO_SQUARE)
	{
		fact_begin(out, "enpassant");
		jo_string(out, files[SQ_FILE(pos->ep)]);
		jo_int(out, SQ_RANK(pos->ep) + 1);
		jo_end_array(out);
	}
	fact_begin(out, "halfmove");
	jo_int(out, pos->halfmove);
	jo_end_array(out);
	fact_begin(out, "fullmove");
	jo_int(out, pos->fullmove);
	jo_end_array(out);
}

/* Missing cells are blank; control is required; clocks default to 0 and 1. */
void
chess_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	Position   *pos = GT_STATE_AS(out, Position);
	Bitboard	seen = 0;
	int			control = -1;
	bool		have_ep = false;

	chess_clear(pos);
	out->size = sizeof(Position);
	for (int i = 0; i < nfacts; i++)
	{
		Fact	   *f = &facts[i];

		if (strcmp(f->relation, "cell") == 0)
		{
			int			s,
						code;

			fact_expect_arity(f, 3);
			s = SQ(fact_choice(f, 0, files, 8), fact_int(f, 1, 1, 8) - 1);
			code = fact_choice(f, 2, piece_codes, 13);
			if (seen & BB(s))
				gt_invalid_state(game, "cell %s %d is given twice", files[SQ_FILE(s)], SQ_RANK(s) + 1);
			seen |= BB(s);
			if (code != 0)
				chess_put(pos, s, PIECE((code - 1) / 6, (code - 1) % 6));
		}
		else if (strcmp(f->relation, "control") == 0)
		{
			fact_expect_arity(f, 1);
			if (control >= 0)
				gt_invalid_state(game, "control is given twice");
			control = fact_choice(f, 0, chess_roles, 2);
		}
		else if (strcmp(f->relation, "castling") == 0)
		{
			fact_expect_arity(f, 2);
			pos->castling |= 1 << (2 * fact_choice(f, 0, chess_roles, 2) + fact_choice(f, 1, wings, 2));
		}
		else if (strcmp(f->relation, "enpassant") == 0)
		{
			fact_expect_arity(f, 2);
			if (have_ep)
				gt_invalid_state(game, "enpassant is given twice");
			have_ep = true;
			pos->ep = SQ(fact_choice(f, 0, files, 8), fact_int(f, 1, 1, 8) - 1);
			/* a1 stands for "none" inside; the rank check below rejects it anyway. */
			if (pos->ep == NO_SQUARE)
				gt_invalid_state(game, "en passant square a1 does not follow a double step of a pawn");
		}
		else if (strcmp(f->relation, "halfmove") == 0)
		{
			fact_expect_arity(f, 1);
			pos->halfmove = fact_int(f, 0, 0, MAX_CLOCK);
		}
		else if (strcmp(f->relation, "fullmove") == 0)
		{
			fact_expect_arity(f, 1);
			pos->fullmove = fact_int(f, 0, 1, MAX_CLOCK);
		}
		else
			fact_unknown(f);
	}
	if (control < 0)
		gt_invalid_state(game, "the control fact is missing");
	pos->side = control;
	chess_validate(game, pos);
}

void
chess_encode_action(const Game *game, const GameState *state, GameMove move, int role,
					JsonOut *out)
{
	int			from = MOVE_FROM(move);
	int			to = MOVE_TO(move);

	/* The builder keeps pointers to the strings: names are palloc'd. */
	jo_begin_array(out);
	jo_string(out, "move");
	jo_string(out, chess_square_name(from));
	jo_string(out, chess_square_name(to));
	if (MOVE_PROMO(move))
		jo_string(out, promotions[MOVE_PROMO(move)]);
	jo_end_array(out);
}

/*
 * UCI long algebraic notation ("e2e4", "e7e8q", castling as "e1g1"), else
 * SAN ("e4", "Nf3", "O-O", "e8=Q+"; see san.c).
 */
bool
chess_parse_action(const Game *game, const GameState *state, const JsonbValue *action,
				   GameMove *move)
{
	const char *s = json_cstring(action);
	int			len;
	int			promo = 0;
	Move		san;

	if (s == NULL)
		return false;
	len = strlen(s);
	if (len < 4 || len > 5 ||
		s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' ||
		s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8')
	{
		if (!chess_parse_san(GT_STATE_AS(state, Position), s, &san))
			return false;
		*move = san;
		return true;
	}
	if (len == 5)
	{
		for (int type = KNIGHT; type <= QUEEN; type++)
			if (s[4] == promotions[type][0])
				promo = type;
		if (promo == 0)
			return false;
	}
	*move = MOVE(SQ(s[0] - 'a', s[1] - '1'), SQ(s[2] - 'a', s[3] - '1'), promo);
	return true;
}
