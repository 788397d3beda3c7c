/*
 * pack.c: connect four's storage format (Game.pack, game.h).
 *
 * A column of height h (0..6) is the 7-bit number (1 << h | colours) - 1,
 * where colours has bit i set when the disc in row i + 1 is black: the
 * classic position + mask + bottom key of a column, less one, so that an
 * empty column is 0 and the numbers run 0..126.  Column c's number is
 * worth 2^(7c); the sum is written low byte first, trailing zero bytes left
 * out, so the empty board packs to nothing and the right-hand columns cost
 * nothing until they are played.  One packing per board: unpack refuses
 * the number 127 in a column, bits past the 49, and a last byte of zero.
 * It also asks that the colours alternate (red's count equals black's or
 * is one more), as every position play reaches.
 */
#include "postgres.h"

#include "connect4.h"

#define COLUMN_CODES 127		/* heights 0..6 with their colours */

int
c4_pack(const Game *game, const GameState *state, uint8 *out)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	uint64		key = 0;
	int			len = 0;

	for (int col = C4_COLS - 1; col >= 0; col--)
	{
		uint64		column = (c->disc[C4_RED] | c->disc[C4_BLACK]) >> (C4_H * col) & 0x3F;
		uint64		black = c->disc[C4_BLACK] >> (C4_H * col) & 0x3F;

		/* column + 1 is the bit above the top disc */
		key = key << C4_H | (((column + 1) | black) - 1);
	}
	for (; key != 0; key >>= 8)
		out[len++] = key & 0xFF;
	return len;
}

bool
c4_unpack(const Game *game, const uint8 *in, int len, GameState *out)
{
	Connect4   *c = GT_STATE_AS(out, Connect4);
	uint64		key = 0;
	int			reds;

	if (len > C4_PACKED_BYTES || (len > 0 && in[len - 1] == 0))
		return false;
	for (int i = len - 1; i >= 0; i--)
		key = key << 8 | in[i];
	if (key >> (C4_COLS * C4_H) != 0)
		return false;
	/* as the game's initial() and decode_state() leave it */
	memset(out->data, 0, sizeof(Connect4));
	out->size = sizeof(Connect4);
	for (int col = 0; col < C4_COLS; col++)
	{
		uint64		code = (key >> (C4_H * col) & 0x7F) + 1;
		int			height;
		uint64		column;

		if (code > COLUMN_CODES)
			return false;
		height = pg_leftmost_one_pos64(code);
		column = (UINT64CONST(1) << height) - 1;
		c->disc[C4_BLACK] |= (code & column) << (C4_H * col);
		c->disc[C4_RED] |= (~code & column) << (C4_H * col);
	}
	reds = gt_popcount64(c->disc[C4_RED]);
	return reds == gt_popcount64(c->disc[C4_BLACK]) || reds == gt_popcount64(c->disc[C4_BLACK]) + 1;
}
