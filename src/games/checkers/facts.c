/*
 * facts.c: the JSON edge format of checkers states and actions.
 *
 * Facts: ["cell", square, role, "man"|"king"] for occupied squares,
 * ["control", role] (kept in terminal states: the pieces alone do not tell
 * who is to move) and ["clock", n], the draw counter.  Actions:
 * ["move", from, to] and ["jump", from, landing, ...] with every landing
 * square, so that two multi-jumps over different paths stay distinct (PDN
 * moves are read by pdn.c).  See README.md, section checkers.
 */
#include "postgres.h"

#include "checkers.h"
#include "core/jsonfacts.h"

static const char *const kinds[] = {"man", "king"};

void
checkers_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	for (int s = 0; s < SQUARES; s++)
	{
		int			side = side_on(c, s);

		if (side < 0)
			continue;
		jo_begin_array(out);
		jo_string(out, "cell");
		jo_int(out, s + 1);
		jo_string(out, checkers_roles[side]);
		jo_string(out, kinds[c->king >> BIT(s) & 1]);
		jo_end_array(out);
	}
	jo_begin_array(out);
	jo_string(out, "control");
	jo_string(out, checkers_roles[c->mover]);
	jo_end_array(out);
	jo_begin_array(out);
	jo_string(out, "clock");
	jo_int(out, c->clock);
	jo_end_array(out);
}

/*
 * What is wrong with a position no game reaches (palloc'd), or NULL: shared
 * by the facts, PDN FEN and the storage format (pack.c), which needs no
 * ERROR.
 */
const char *
checkers_position_error(const Checkers *c)
{
	for (int side = CK_BLACK; side <= CK_WHITE; side++)
	{
		uint64		men = c->piece[side] & ~c->king & crown_row[side];

		if (gt_popcount64(c->piece[side]) > MAX_PIECES)
			return psprintf("%s has %d pieces, but a side has at most %d",
							checkers_roles[side], gt_popcount64(c->piece[side]), MAX_PIECES);
		if (men)
			return psprintf("a %s man on square %d would have been crowned",
							checkers_roles[side], SQUARE_OF(first_bit(men)) + 1);
	}
	if (c->piece[c->mover ^ 1] == 0)
		return psprintf("%s moved last but has no pieces", checkers_roles[c->mover ^ 1]);
	return NULL;
}

void
checkers_check_position(const Game *game, const Checkers *c)
{
	const char *error = checkers_position_error(c);

	if (error != NULL)
		gt_invalid_state(game, "%s", error);
}

void
checkers_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);
	bool		have_control = false;
	bool		have_clock = false;

	memset(c, 0, sizeof(Checkers));
	out->size = sizeof(Checkers);
	for (int i = 0; i < nfacts; i++)
	{
		Fact	   *f = &facts[i];

		if (strcmp(f->relation, "cell") == 0)
		{
			int			sq,
						side,
						kind;
			uint64		bit;

			fact_expect_arity(f, 3);
			sq = fact_int(f, 0, 1, SQUARES);
			side = fact_choice(f, 1, checkers_roles, 2);
			kind = fact_choice(f, 2, kinds, 2);
			bit = UINT64CONST(1) << BIT(sq - 1);
			if ((c->piece[CK_BLACK] | c->piece[CK_WHITE]) & bit)
				gt_invalid_state(game, "square %d is given twice", sq);
			c->piece[side] |= bit;
			if (kind == 1)
				c->king |= bit;
		}
		else if (strcmp(f->relation, "control") == 0)
		{
			fact_expect_arity(f, 1);
			if (have_control)
				gt_invalid_state(game, "control is given twice");
			c->mover = fact_choice(f, 0, checkers_roles, 2);
			have_control = true;
		}
		else if (strcmp(f->relation, "clock") == 0)
		{
			fact_expect_arity(f, 1);
			if (have_clock)
				gt_invalid_state(game, "clock is given twice");
			c->clock = fact_int(f, 0, 0, DRAW_PLIES);
			have_clock = true;
		}
		else
			fact_unknown(f);
	}
	if (!have_control)
		gt_invalid_state(game, "the control fact is missing");
	checkers_check_position(game, c);
}

void
checkers_encode_action(const Game *game, const GameState *state, GameMove move, int role,
					   JsonOut *out)
{
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = checkers_follow_move(move, path, &captured);

	jo_begin_array(out);
	jo_string(out, captured ? "jump" : "move");
	for (int i = 0; i < len; i++)
		jo_int(out, SQUARE_OF(path[i]) + 1);
	jo_end_array(out);
}
