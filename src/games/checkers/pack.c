/*
 * pack.c: checkers' storage format (Game.pack, game.h), 5 to 11 bytes.
 *
 *   byte 0       the mover (bit 7: 1 for white) and the draw clock (0..80)
 *   bytes 1-4    the occupied squares, bit s - 1 for square s, low byte first
 *   then         per occupied square, in square order, two bits: white,
 *                king; from the low bit of each byte up, the last byte's
 *                unused bits zero
 *
 * One packing per position: unpack takes exactly the length the squares
 * call for, refuses set unused bits and a clock past the draw, and refuses
 * what checkers_position_error does (more than 12 pieces a side, an
 * uncrowned man on its crowning row, a side that moved last without
 * pieces), so that the move generator's bounds hold for what it accepts.
 */
#include "postgres.h"

#include "checkers.h"

#define HEADER_BYTES 5
#define WHITE_TO_MOVE 0x80

/* Bytes of the two bits per piece of n pieces. */
static int
piece_bytes(int n)
{
	return (2 * n + 7) / 8;
}

int
checkers_pack(const Game *game, const GameState *state, uint8 *out)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	uint32		occupied = 0;
	int			n = 0;

	/* Stored states come from play under the draw rule: the clock stops at 80. */
	Assert(c->clock <= DRAW_PLIES);
	out[0] = (c->mover == CK_WHITE ? WHITE_TO_MOVE : 0) | c->clock;
	for (int s = 0; s < SQUARES; s++)
		if (side_on(c, s) >= 0)
			occupied |= (uint32) 1 << s;
	for (int i = 0; i < 4; i++)
		out[1 + i] = occupied >> (8 * i) & 0xFF;
	memset(out + HEADER_BYTES, 0, CK_PACKED_BYTES - HEADER_BYTES);
	for (int s = 0; s < SQUARES; s++)
	{
		int			side = side_on(c, s);

		if (side < 0)
			continue;
		out[HEADER_BYTES + n / 4] |= (side | (c->king >> BIT(s) & 1) << 1) << (2 * (n % 4));
		n++;
	}
	return HEADER_BYTES + piece_bytes(n);
}

bool
checkers_unpack(const Game *game, const uint8 *in, int len, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);
	uint32		occupied = 0;
	int			n;
	int			clock;

	if (len < HEADER_BYTES)
		return false;
	for (int i = 0; i < 4; i++)
		occupied |= (uint32) in[1 + i] << (8 * i);
	n = gt_popcount64(occupied);
	clock = in[0] & ~WHITE_TO_MOVE;
	if (len != HEADER_BYTES + piece_bytes(n) || clock > DRAW_PLIES ||
		(n % 4 != 0 && in[len - 1] >> (2 * (n % 4)) != 0))
		return false;
	/* as the game's decode_state() leaves it */
	memset(c, 0, sizeof(Checkers));
	out->size = sizeof(Checkers);
	c->mover = (in[0] & WHITE_TO_MOVE) ? CK_WHITE : CK_BLACK;
	c->clock = clock;
	n = 0;
	for (int s = 0; s < SQUARES; s++)
	{
		int			bits;

		if (!(occupied >> s & 1))
			continue;
		bits = in[HEADER_BYTES + n / 4] >> (2 * (n % 4)) & 3;
		c->piece[bits & 1] |= UINT64CONST(1) << BIT(s);
		if (bits & 2)
			c->king |= UINT64CONST(1) << BIT(s);
		n++;
	}
	return checkers_position_error(c) == NULL;
}
