/*
 * bitboard.c: the attack tables, computed once per backend.
 *
 * Magic numbers are found at start-up by trial with a fixed-seed generator,
 * so every backend builds the same tables in a few milliseconds without a
 * table of constants in the source.
 */
#include "postgres.h"

#include "bitboard.h"
#include "chess.h"

Magic		chess_rook_magic[64];
Magic		chess_bishop_magic[64];
Bitboard	chess_knight_attacks[64];
Bitboard	chess_king_attacks[64];
Bitboard	chess_pawn_attacks[2][64];
Bitboard	chess_between[64][64];
Bitboard	chess_line[64][64];

/* 4096 entries per rook square at most, 512 per bishop square; shared. */
static Bitboard rook_table[0x19000];
static Bitboard bishop_table[0x1480];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Attacks by walking the rays: slow, used to fill the tables. */
static Bitboard
ray_attacks(int s, Bitboard occupied, const int dirs[4][2])
{
	Bitboard	att = 0;

	for (int d = 0; d < 4; d++)
	{
		int			f = SQ_FILE(s) + dirs[d][0];
		int			r = SQ_RANK(s) + dirs[d][1];

		for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1])
		{
			att |= BB(SQ(f, r));
			if (occupied & BB(SQ(f, r)))
				break;
		}
	}
	return att;
}

/* Bitboard of the squares (file + df, rank + dr) that are on the board. */
static Bitboard
step(int s, const int (*deltas)[2], int n)
{
	Bitboard	b = 0;

	for (int i = 0; i < n; i++)
	{
		int			f = SQ_FILE(s) + deltas[i][0];
		int			r = SQ_RANK(s) + deltas[i][1];

		if (f >= 0 && f < 8 && r >= 0 && r < 8)
			b |= BB(SQ(f, r));
	}
	return b;
}

static void
init_magics(Magic *magics, Bitboard *table, const int dirs[4][2], uint64 *seed)
{
	Bitboard	occupancy[4096];
	Bitboard	reference[4096];
	int			epoch[4096] = {0};
	int			attempt = 0;
	Bitboard   *next = table;

	for (int s = 0; s < 64; s++)
	{
		Magic	   *m = &magics[s];
		/* Edge squares never block a ray beyond them, unless the slider is on that edge. */
		Bitboard	edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * SQ_RANK(s)))) |
			((FILE_A | FILE_H) & ~(FILE_A << SQ_FILE(s)));
		Bitboard	b = 0;
		int			size = 0;

		m->mask = ray_attacks(s, 0, dirs) & ~edges;
		m->shift = 64 - popcount(m->mask);
		m->attacks = next;
		/* Every subset of the mask (carry-rippler enumeration). */
		do
		{
			occupancy[size] = b;
			reference[size++] = ray_attacks(s, b, dirs);
			b = (b - m->mask) & m->mask;
		} while (b);

		for (int i = 0; i < size;)
		{
			/* Sparse candidates make good magics. */
			do
				m->magic = chess_splitmix64(seed) & chess_splitmix64(seed) & chess_splitmix64(seed);
			while (popcount((m->magic * m->mask) >> 56) < 6);
			attempt++;
			for (i = 0; i < size; i++)
			{
				int			idx = (int) ((occupancy[i] * m->magic) >> m->shift);

				if (epoch[idx] < attempt)
				{
					epoch[idx] = attempt;
					next[idx] = reference[i];
				}
				else if (next[idx] != reference[i])
					break;
			}
		}
		next += size;
	}
}

void
chess_init_tables(void)
{
	static bool done = false;
	static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
	static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
	static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
	uint64		seed = UINT64CONST(0x67616d6574726565);

	if (likely(done))
		return;
	for (int s = 0; s < 64; s++)
	{
		chess_knight_attacks[s] = step(s, knight, 8);
		chess_king_attacks[s] = step(s, king, 8);
		chess_pawn_attacks[WHITE][s] = step(s, white_pawn, 2);
		chess_pawn_attacks[BLACK][s] = step(s, black_pawn, 2);
	}
	init_magics(chess_rook_magic, rook_table, rook_dirs, &seed);
	init_magics(chess_bishop_magic, bishop_table, bishop_dirs, &seed);
	for (int a = 0; a < 64; a++)
		for (int b = 0; b < 64; b++)
		{
			chess_between[a][b] = chess_line[a][b] = 0;
			if (a == b)
				continue;
			if (bishop_attacks(a, 0) & BB(b))
			{
				chess_between[a][b] = bishop_attacks(a, BB(b)) & bishop_attacks(b, BB(a));
				chess_line[a][b] = (bishop_attacks(a, 0) & bishop_attacks(b, 0)) | BB(a) | BB(b);
			}
			else if (rook_attacks(a, 0) & BB(b))
			{
				chess_between[a][b] = rook_attacks(a, BB(b)) & rook_attacks(b, BB(a));
				chess_line[a][b] = (rook_attacks(a, 0) & rook_attacks(b, 0)) | BB(a) | BB(b);
			}
		}
	done = true;
}
