/*
 * connect4.h: connect four's position, shared by the rules (connect4.c) and
 * the exact solver (solve.c).
 *
 * One bitboard per colour, bit 7 * column + row, with row 6 of every column
 * left empty so that shifting by 1, 6, 7 and 8 finds lines without wrapping.
 */
#ifndef GAMETREE_CONNECT4_H
#define GAMETREE_CONNECT4_H

#include "core/game.h"

#define C4_COLS 7
#define C4_ROWS 6
#define C4_H 7					/* bits per column */

#define C4_RED 0
#define C4_BLACK 1

#define C4_BOTTOM_ROW UINT64CONST(0x0040810204081)	/* bit 7c for c = 0..6 */
#define C4_BOARD_MASK (C4_BOTTOM_ROW * ((1 << C4_ROWS) - 1))

typedef struct Connect4
{
	uint64		disc[2];		/* [C4_RED], [C4_BLACK] */
} Connect4;

/*
 * The empty cells where a disc of own would complete a four (occupied cells
 * excluded): in each line direction, the three neighbours in line on either
 * side.
 */
extern uint64 c4_winning_cells(uint64 own, uint64 occupied);

/*
 * The solve hook (game.h): who wins, and with call->exact how soon and the
 * principal line, before call->deadline.
 */
extern bool c4_solve(const Game *game, const GameState *state, GameSolveCall *call);

/*
 * pack.c: the storage format (Game.pack, game.h), at most 7 bytes (49
 * bits: 7 per column).
 */
#define C4_PACKED_BYTES 7
extern int	c4_pack(const Game *game, const GameState *state, uint8 *out);
extern bool c4_unpack(const Game *game, const uint8 *in, int len, GameState *out);

#endif
