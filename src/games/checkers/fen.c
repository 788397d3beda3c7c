/*
 * fen.c: positions in PDN FEN, the from_fen and to_fen hooks.
 */
#include "postgres.h"

#include "checkers.h"
#include "lib/stringinfo.h"

static void
bad_fen(const char *fen, const char *problem)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid PDN FEN \"%s\": %s", gt_abbreviate(fen), problem),
			 errhint("An example is B:W21-32:B1-12 (side to move, then each side's squares, K for kings).")));
}

static int
fen_number(const char *fen, const char **p, const char *what)
{
	int			value = 0;
	int			digits = 0;

	while (**p >= '0' && **p <= '9')
	{
		if (++digits > 3)
			bad_fen(fen, psprintf("%s is too long", what));
		value = value * 10 + (*(*p)++ - '0');
	}
	if (digits == 0)
		bad_fen(fen, psprintf("expected %s at position %d", what, (int) (*p - fen) + 1));
	return value;
}

/*
 * PDN FEN: the side to move (B or W), then ":W" and ":B" sections (either
 * order) listing squares, K before a king, ranges such as 1-12 allowed; an
 * optional ":H<n>" gives the draw clock (":F<n>", a move number, is
 * ignored) and a final '.' is allowed.
 */
void
checkers_from_fen(const Game *game, const char *fen, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);
	const char *p = fen;
	bool		seen[2] = {false, false};
	bool		have_clock = false;

	memset(c, 0, sizeof(Checkers));
	out->size = sizeof(Checkers);
	while (*p == ' ')
		p++;
	if (*p != 'B' && *p != 'W')
		bad_fen(fen, "it must start with the side to move, B or W");
	c->mover = (*p++ == 'B') ? CK_BLACK : CK_WHITE;
	while (*p == ':')
	{
		char		tag = *++p;
		int			side;

		if (tag == '\0')
			bad_fen(fen, "it ends with ':'");
		p++;
		if (tag == 'H' || tag == 'F')
		{
			int			value = fen_number(fen, &p, tag == 'H' ? "the draw clock" : "the move number");

			if (tag == 'H')
			{
				if (have_clock)
					bad_fen(fen, "the draw clock is given twice");
				if (value > DRAW_PLIES)
					gt_invalid_state(game, "the draw clock %d exceeds %d", value, DRAW_PLIES);
				c->clock = value;
				have_clock = true;
			}
			continue;
		}
		if (tag != 'B' && tag != 'W')
			bad_fen(fen, psprintf("expected W or B after ':' at position %d", (int) (p - fen)));
		side = (tag == 'B') ? CK_BLACK : CK_WHITE;
		if (seen[side])
			bad_fen(fen, psprintf("the %s pieces are given twice", checkers_roles[side]));
		seen[side] = true;
		/* an empty list, or squares separated by commas */
		while (*p != ':' && *p != '.' && *p != '\0' && *p != ' ')
		{
			bool		king = (*p == 'K');
			int			lo,
						hi;

			if (king)
				p++;
			lo = hi = fen_number(fen, &p, "a square number");
			if (*p == '-')
			{
				p++;
				hi = fen_number(fen, &p, "a square number");
				if (hi < lo)
					bad_fen(fen, psprintf("the range %d-%d runs backwards", lo, hi));
			}
			for (int sq = lo; sq <= hi; sq++)
			{
				uint64		bit;

				if (sq < 1 || sq > SQUARES)
					gt_invalid_state(game, "square %d does not exist (squares are numbered 1 to 32)", sq);
				bit = UINT64CONST(1) << BIT(sq - 1);
				if ((c->piece[CK_BLACK] | c->piece[CK_WHITE]) & bit)
					gt_invalid_state(game, "square %d is given twice", sq);
				c->piece[side] |= bit;
				if (king)
					c->king |= bit;
			}
			if (*p != ',')
				break;
			/* after a comma another square must follow */
			if (*++p == ':' || *p == '.' || *p == '\0' || *p == ' ')
				bad_fen(fen, psprintf("expected a square number at position %d", (int) (p - fen) + 1));
		}
		if (*p != ':' && *p != '.' && *p != '\0' && *p != ' ')
			bad_fen(fen, psprintf("unexpected '%c' at position %d", *p, (int) (p - fen) + 1));
	}
	if (*p == '.')
		p++;
	while (*p == ' ')
		p++;
	if (*p != '\0')
		bad_fen(fen, psprintf("unexpected '%c' at position %d", *p, (int) (p - fen) + 1));
	if (!seen[CK_WHITE] || !seen[CK_BLACK])
		bad_fen(fen, psprintf("the %s pieces are missing (a section such as :%c1,2)",
							  checkers_roles[seen[CK_WHITE] ? CK_BLACK : CK_WHITE], seen[CK_WHITE] ? 'B' : 'W'));
	checkers_check_position(game, c);
}

/* Canonical: W before B, squares ascending, ":H<n>" only when the clock runs. */
char *
checkers_to_fen(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, c->mover == CK_BLACK ? 'B' : 'W');
	for (int side = CK_WHITE; side >= CK_BLACK; side--)
	{
		bool		first = true;

		appendStringInfo(&buf, ":%c", side == CK_BLACK ? 'B' : 'W');
		for (int s = 0; s < SQUARES; s++)
			if (c->piece[side] >> BIT(s) & 1)
			{
				appendStringInfo(&buf, "%s%s%d", first ? "" : ",",
								 (c->king >> BIT(s) & 1) ? "K" : "", s + 1);
				first = false;
			}
	}
	if (c->clock != 0)
		appendStringInfo(&buf, ":H%d", c->clock);
	return buf.data;
}
