/*
 * bitboard.h: squares, bitboards and attack tables of chess.
 *
 * Square s = 8 * rank + file with a1 = 0, b1 = 1, ..., h8 = 63; bit s of a
 * bitboard is that square.  Sliding attacks come from "fancy" magic tables:
 * the occupied squares on a slider's rays, multiplied by a per-square magic
 * number, index a table of precomputed attack sets.
 */
#ifndef CHESS_BITBOARD_H
#define CHESS_BITBOARD_H

#include "postgres.h"

#include "port/pg_bitutils.h"

typedef uint64 Bitboard;

enum
{
	WHITE, BLACK
};
enum
{
	PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING
};

#define SQ(file, rank) (8 * (rank) + (file))
#define SQ_FILE(s) ((s) & 7)
#define SQ_RANK(s) ((s) >> 3)
#define BB(s) (UINT64CONST(1) << (s))

#define RANK_1 UINT64CONST(0x00000000000000FF)
#define RANK_3 (RANK_1 << 16)
#define RANK_6 (RANK_1 << 40)
#define RANK_8 (RANK_1 << 56)
#define FILE_A UINT64CONST(0x0101010101010101)
#define FILE_H (FILE_A << 7)
#define DARK_SQUARES UINT64CONST(0xAA55AA55AA55AA55)

typedef struct Magic
{
	Bitboard	mask;			/* the squares whose occupancy matters */
	uint64		magic;
	const Bitboard *attacks;	/* 2^(64 - shift) entries */
	int			shift;
} Magic;

extern Magic chess_rook_magic[64];
extern Magic chess_bishop_magic[64];
extern Bitboard chess_knight_attacks[64];
extern Bitboard chess_king_attacks[64];
extern Bitboard chess_pawn_attacks[2][64];
/* Squares strictly between a and b on a line, else empty. */
extern Bitboard chess_between[64][64];
/* The whole line through a and b (both included), else empty. */
extern Bitboard chess_line[64][64];

/* Fills the tables: the chess game's init hook, called once by _PG_init. */
extern void chess_init_tables(void);

static inline int
lsb(Bitboard b)
{
	return pg_rightmost_one_pos64(b);
}

static inline int
pop_lsb(Bitboard *b)
{
	int			s = lsb(*b);

	*b &= *b - 1;
	return s;
}

static inline int
popcount(Bitboard b)
{
	return __builtin_popcountll(b);
}

static inline Bitboard
slider_attacks(const Magic *m, Bitboard occupied)
{
	return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}

static inline Bitboard
rook_attacks(int s, Bitboard occupied)
{
	return slider_attacks(&chess_rook_magic[s], occupied);
}

static inline Bitboard
bishop_attacks(int s, Bitboard occupied)
{
	return slider_attacks(&chess_bishop_magic[s], occupied);
}

#endif
