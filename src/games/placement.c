/*
 * placement.c: the rules that tic-tac-toe and connect four share (see
 * placement.h).
 */
#include "postgres.h"

#include "games/placement.h"
#include "port/pg_bitutils.h"

/*
 * True when some piece of the winner that may have been placed last leaves
 * no line when taken away: the line came with the last move, so play
 * stopped there.
 */
static bool
ended_by_last_move(const PlacementBoard *board, uint64 winner, uint64 occupied)
{
	for (uint64 m = winner & board->last_placed(occupied); m; m &= m - 1)
		if (!board->has_line(winner & ~(UINT64CONST(1) << pg_rightmost_one_pos64(m))))
			return true;
	return false;
}

void
placement_decode(const Game *game, const PlacementBoard *board, Fact *facts, int nfacts,
				 uint64 *pieces)
{
	uint64		seen = 0;
	int			control = GT_NO_ROLE;
	int			n[2];
	bool		won[2];

	pieces[0] = pieces[1] = 0;
	for (int i = 0; i < nfacts; i++)
	{
		Fact	   *f = &facts[i];

		if (strcmp(f->relation, "cell") == 0)
		{
			int			a,
						b,
						piece;
			uint64		bit;

			fact_expect_arity(f, 3);
			a = fact_int(f, 0, 1, board->range[0]);
			b = fact_int(f, 1, 1, board->range[1]);
			piece = fact_choice(f, 2, board->pieces, 3);
			bit = UINT64CONST(1) << board->bit(a, b);
			if (seen & bit)
				gt_invalid_state(game, "cell (%d, %d) is given twice", a, b);
			seen |= bit;
			if (piece < 2)
				pieces[piece] |= bit;
		}
		else if (strcmp(f->relation, "control") == 0)
		{
			fact_expect_arity(f, 1);
			if (control != GT_NO_ROLE)
				gt_invalid_state(game, "control is given twice");
			control = fact_choice(f, 0, game->roles, 2);
		}
		else
			fact_unknown(f);
	}

	for (int r = 0; r < 2; r++)
	{
		n[r] = gt_popcount64(pieces[r]);
		won[r] = board->has_line(pieces[r]);
	}
	if (n[0] != n[1] && n[0] != n[1] + 1)
		gt_invalid_state(game, "%s cannot arise, since %s moves first and they alternate",
						 psprintf(board->counts, n[0], n[1]), game->roles[0]);
	if ((won[0] && (won[1] || n[0] == n[1] || !ended_by_last_move(board, pieces[0], pieces[0] | pieces[1]))) ||
		(won[1] && (n[0] != n[1] || !ended_by_last_move(board, pieces[1], pieces[0] | pieces[1]))))
		gt_invalid_state(game, "play went on after the game had ended");
	gt_check_control(game, control, placement_control(board, pieces));
}

void
placement_board_status(const Game *game, const PlacementBoard *board, const uint64 *pieces,
					   StringInfo buf)
{
	int			mover = placement_control(board, pieces);
	int			goals[2];

	if (mover != GT_NO_ROLE)
	{
		appendStringInfo(buf, "%s to move\n", game->roles[mover]);
		return;
	}
	placement_goals(board, pieces, goals);
	if (goals[0] == goals[1])
		appendStringInfoString(buf, "draw\n");
	else
		appendStringInfo(buf, "%s wins\n", game->roles[goals[0] > goals[1] ? 0 : 1]);
}

char *
placement_short_board(const uint64 *pieces, int nrows, int ncols, int (*bit) (int row, int col),
					  const char letters[2])
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int row = 0; row < nrows; row++)
	{
		if (row > 0)
			appendStringInfoChar(&buf, '\n');
		for (int col = 0; col < ncols; col++)
		{
			int			b = bit(row, col);

			appendStringInfoChar(&buf, (pieces[0] >> b & 1) ? letters[0] :
								 (pieces[1] >> b & 1) ? letters[1] : '.');
		}
	}
	return buf.data;
}
