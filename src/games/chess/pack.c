/*
 * pack.c: chess's storage format (Game.pack, game.h), 11 to 31 bytes, 27
 * for most positions of a game.
 *
 *   bytes 0-7   the occupied squares, bit s for square s (a1 = 0, h8 = 63),
 *               low byte first
 *   then        per occupied square, in square order, a 4-bit code from the
 *               low nibble of each byte up: 6 * colour + piece type (0..11),
 *               or 12 for the pawn that has just stepped two squares when
 *               its en passant square is kept (a capture there is legal);
 *               with an odd count, the last high nibble is zero
 *   then        a byte: bit 0 black to move, bits 1-4 the castling rights
 *               (white kingside, white queenside, black kingside, black
 *               queenside), bits 5-7 zero
 *   then        the halfmove clock and the fullmove number, each in 7-bit
 *               groups, the lowest first, bit 7 set on every group but the
 *               last (1 byte below 128, 3 at most)
 *
 * These are the fields of the JSON facts.  One packing per position:
 * unpack refuses unused codes and bits, longer groups than the number
 * needs, a byte more or less, and what chess_validate refuses (a side
 * without exactly one king or with too many men, a pawn on the first or
 * last rank, the side not to move in check, castling rights without their
 * king and rook, an en passant square without its pawn or that no legal
 * capture keeps), so that the move generator's bounds hold for what it
 * accepts.
 */
#include "postgres.h"

#include "chess.h"

#define OCCUPANCY_BYTES 8
#define EP_PAWN 12				/* the code of a pawn that may be taken en passant */
#define CODES 13
#define BLACK_TO_MOVE 0x01
#define CASTLING_SHIFT 1
#define FLAGS_USED 0x1F

/* The square of the pawn that stepped over the en passant square. */
static int
ep_pawn_square(const Position *pos)
{
	return pos->side == WHITE ? pos->ep - 8 : pos->ep + 8;
}

/* A number in 7-bit groups, lowest first; returns the bytes written. */
static int
put_number(uint8 *out, uint32 value)
{
	int			len = 0;

	for (; value >= 0x80; value >>= 7)
		out[len++] = 0x80 | (value & 0x7F);
	out[len++] = value;
	return len;
}

/*
 * Reads a number written by put_number into *value, from in[*pos] up to
 * in[len - 1]; false when it runs past len, has a superfluous last group
 * or exceeds MAX_CLOCK.
 */
static bool
get_number(const uint8 *in, int len, int *pos, uint32 *value)
{
	*value = 0;
	for (int shift = 0;; shift += 7)
	{
		uint8		byte;

		if (*pos >= len || shift > 14)
			return false;
		byte = in[(*pos)++];
		*value |= (uint32) (byte & 0x7F) << shift;
		if (!(byte & 0x80))
			return (byte != 0 || shift == 0) && *value <= MAX_CLOCK;
	}
}

int
chess_pack(const Game *game, const GameState *state, uint8 *out)
{
	const Position *pos = GT_STATE_AS(state, Position);
	Bitboard	occ = occupied(pos);
	int			ep_pawn = pos->ep != NO_SQUARE ? ep_pawn_square(pos) : -1;
	int			len = OCCUPANCY_BYTES;
	int			n = 0;

	for (int i = 0; i < OCCUPANCY_BYTES; i++)
		out[i] = occ >> (8 * i) & 0xFF;
	while (occ)
	{
		int			s = pop_lsb(&occ);
		int			piece = pos->board[s];
		int			code = s == ep_pawn ? EP_PAWN : 6 * PIECE_COLOR(piece) + PIECE_TYPE(piece);

		if (n % 2 == 0)
			out[len++] = code;
		else
			out[len - 1] |= code << 4;
		n++;
	}
	out[len++] = (pos->side == BLACK ? BLACK_TO_MOVE : 0) | pos->castling << CASTLING_SHIFT;
	len += put_number(out + len, pos->halfmove);
	len += put_number(out + len, pos->fullmove);
	Assert(len <= CHESS_PACKED_BYTES);
	return len;
}

bool
chess_unpack(const Game *game, const uint8 *in, int len, GameState *out)
{
	Position   *pos = GT_STATE_AS(out, Position);
	Bitboard	occ = 0;
	Bitboard	squares;
	int			n;
	int			at;
	int			ep_pawn = -1;
	uint8		flags;
	uint32		halfmove,
				fullmove;

	if (len < OCCUPANCY_BYTES)
		return false;
	for (int i = 0; i < OCCUPANCY_BYTES; i++)
		occ |= (Bitboard) in[i] << (8 * i);
	n = popcount(occ);
	/* the codes, the flags and a byte per number at least */
	if (len < OCCUPANCY_BYTES + (n + 1) / 2 + 3 ||
		(n % 2 == 1 && in[OCCUPANCY_BYTES + n / 2] >> 4 != 0))
		return false;
	at = OCCUPANCY_BYTES + (n + 1) / 2;
	flags = in[at++];
	if ((flags & ~FLAGS_USED) != 0 ||
		!get_number(in, len, &at, &halfmove) ||
		!get_number(in, len, &at, &fullmove) || fullmove == 0 || at != len)
		return false;

	/* as the game's decode_state() builds it */
	chess_clear(pos);
	out->size = sizeof(Position);
	pos->side = (flags & BLACK_TO_MOVE) ? BLACK : WHITE;
	pos->castling = flags >> CASTLING_SHIFT;
	pos->halfmove = halfmove;
	pos->fullmove = fullmove;
	squares = occ;
	for (int i = 0; squares; i++)
	{
		int			s = pop_lsb(&squares);
		int			code = in[OCCUPANCY_BYTES + i / 2] >> (4 * (i % 2)) & 0xF;

		if (code >= CODES)
			return false;
		if (code == EP_PAWN)
		{
			/* a pawn of the side not to move, on its fourth rank */
			if (ep_pawn >= 0 || SQ_RANK(s) != (pos->side == WHITE ? 4 : 3))
				return false;
			ep_pawn = s;
			code = 6 * (pos->side ^ 1) + PAWN;
		}
		chess_put(pos, s, PIECE(code / 6, code % 6));
	}
	if (ep_pawn >= 0)
		pos->ep = pos->side == WHITE ? ep_pawn + 8 : ep_pawn - 8;
	return chess_position_error(pos) == NULL && chess_ep_canonical(pos);
}
