/*
 * pack.c: tic-tac-toe's storage format (Game.pack, game.h).
 *
 * The nine cells as a number in base 3, cell 3 * (row - 1) + (col - 1)
 * worth 3^cell, digit 0 blank, 1 x, 2 o: 3^9 = 19683 < 2^16, so two bytes,
 * low byte first.  Every position has exactly one such number, and every
 * number below 19683 is a board; unpack also asks that the marks alternate
 * (x's count equals o's or is one more), as every position play reaches.
 */
#include "postgres.h"

#include "tictactoe.h"

#define CELLS 9
#define BOARDS 19683			/* 3^CELLS */

int
ttt_pack(const Game *game, const GameState *state, uint8 *out)
{
	const TicTacToe *t = GT_STATE_AS(state, TicTacToe);
	uint32		value = 0;

	for (int cell = CELLS - 1; cell >= 0; cell--)
		value = value * 3 + ((t->mark[0] >> cell & 1) ? 1 : (t->mark[1] >> cell & 1) ? 2 : 0);
	out[0] = value & 0xFF;
	out[1] = value >> 8;
	return TTT_PACKED_BYTES;
}

bool
ttt_unpack(const Game *game, const uint8 *in, int len, GameState *out)
{
	TicTacToe  *t = GT_STATE_AS(out, TicTacToe);
	uint32		value;
	int			xs;

	if (len != TTT_PACKED_BYTES)
		return false;
	value = in[0] | (uint32) in[1] << 8;
	if (value >= BOARDS)
		return false;
	/* as the game's initial() and decode_state() leave it */
	memset(out->data, 0, sizeof(TicTacToe));
	out->size = sizeof(TicTacToe);
	for (int cell = 0; cell < CELLS; cell++, value /= 3)
		if (value % 3 != 0)
			t->mark[value % 3 - 1] |= UINT64CONST(1) << cell;
	xs = gt_popcount64(t->mark[0]);
	return xs == gt_popcount64(t->mark[1]) || xs == gt_popcount64(t->mark[1]) + 1;
}
