/*
 * placement.h: what tic-tac-toe and connect four share.  Two roles take
 * turns, the first role first, placing pieces that never move or leave; a
 * line wins and a full board draws.  So the mover follows from the counts,
 * and a position is valid only if the counts alternate and no play went on
 * after a line.  Each game describes its board in a PlacementBoard.
 */
#ifndef GAMETREE_PLACEMENT_H
#define GAMETREE_PLACEMENT_H

#include "core/game.h"
#include "core/jsonfacts.h"
#include "lib/stringinfo.h"

typedef struct PlacementBoard
{
	int			range[2];		/* the cell fact's coordinates run 1..range[i] */
	/* the bit of cell (a, b), coordinates as in the cell fact */
	int			(*bit) (int a, int b);
	const char *const *pieces;	/* cell fact values: [first role's, second's, blank] */
	const char *counts;			/* printf format naming the two counts, e.g. "%d x's and %d o's" */
	uint64		full;			/* every cell */
	bool		(*has_line) (uint64 pieces);
	/* the cells that may have been filled last, given the occupied ones */
	uint64		(*last_placed) (uint64 occupied);
} PlacementBoard;

/*
 * The role to move, GT_NO_ROLE when play has ended.  Inline: the games'
 * hot loops call it with their constant board, whose calls then resolve
 * at compile time.
 */
static inline int
placement_control(const PlacementBoard *board, const uint64 *pieces)
{
	if (board->has_line(pieces[0]) || board->has_line(pieces[1]) ||
		(pieces[0] | pieces[1]) == board->full)
		return GT_NO_ROLE;
	return gt_popcount64(pieces[0]) == gt_popcount64(pieces[1]) ? 0 : 1;
}

/* Terminal states: a line wins (100 and 0), a full board draws (50/50). */
static inline void
placement_goals(const PlacementBoard *board, const uint64 *pieces, int *goals)
{
	bool		first = board->has_line(pieces[0]);
	bool		second = board->has_line(pieces[1]);

	goals[0] = first ? GT_GOAL_MAX : second ? GT_GOAL_MIN : (GT_GOAL_MIN + GT_GOAL_MAX) / 2;
	goals[1] = GT_GOAL_MAX + GT_GOAL_MIN - goals[0];
}

/*
 * Reads ["cell", a, b, piece] and ["control", role] facts into pieces[2]
 * and checks that play can reach the position.
 */
extern void placement_decode(const Game *game, const PlacementBoard *board, Fact *facts,
							 int nfacts, uint64 *pieces);

/* The last line of board(): whose turn it is, or how the game ended. */
extern void placement_board_status(const Game *game, const PlacementBoard *board,
								   const uint64 *pieces, StringInfo buf);

/*
 * For the short_board hook: nrows lines of ncols letters, the top row
 * first, letters[r] where role r has a piece and '.' where none has;
 * bit(row, col) is the bit of the picture's cell, from (0, 0) at the top
 * left.
 */
extern char *placement_short_board(const uint64 *pieces, int nrows, int ncols,
								   int (*bit) (int row, int col), const char letters[2]);

#endif
