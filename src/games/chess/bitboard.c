/*
 * bitboard.c: the attack tables, computed once per backend (a few
 * milliseconds).
 */
#include "postgres.h"

#include "bitboard.h"

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

/*
 * Magic numbers, found once by trial among sparse random numbers: a magic
 * works when the products of all occupancies of the square's mask never send
 * two different attack sets to the same index.  init_magics checks that.
 */
static const uint64 rook_magics[64] = {
	UINT64CONST(0x0080002080400018), UINT64CONST(0x2440100320004001),
	UINT64CONST(0x0900200100084110), UINT64CONST(0x2080041001808800),
	UINT64CONST(0x1100030008000410), UINT64CONST(0x2100010004000802),
	UINT64CONST(0x0480020000802100), UINT64CONST(0x108000518004a900),
	UINT64CONST(0x2805800140008120), UINT64CONST(0x1902402010004000),
	UINT64CONST(0x2404802000801008), UINT64CONST(0x0000800800801001),
	UINT64CONST(0x0206000408120060), UINT64CONST(0x0400808002000400),
	UINT64CONST(0x0204000810212284), UINT64CONST(0x1224800442800300),
	UINT64CONST(0x2080004000402009), UINT64CONST(0x0040520021008200),
	UINT64CONST(0x0890010100402000), UINT64CONST(0x4098090010010024),
	UINT64CONST(0x2720050008001100), UINT64CONST(0x0412008080040002),
	UINT64CONST(0x0800040008014210), UINT64CONST(0x4051060001044584),
	UINT64CONST(0x0520800080204000), UINT64CONST(0x0850200080400080),
	UINT64CONST(0x220a008200102240), UINT64CONST(0x8041002100100008),
	UINT64CONST(0x2011000500080011), UINT64CONST(0x2440020080800400),
	UINT64CONST(0x0001002100440200), UINT64CONST(0x0200048600040841),
	UINT64CONST(0x0040204000800090), UINT64CONST(0x2040200040401000),
	UINT64CONST(0x80100804012001a1), UINT64CONST(0x0100100101000824),
	UINT64CONST(0x8400080080800402), UINT64CONST(0x0032000802001004),
	UINT64CONST(0x2210020104000890), UINT64CONST(0x00000c0442000491),
	UINT64CONST(0x0000400224838000), UINT64CONST(0x0080850040030020),
	UINT64CONST(0x0032028020120040), UINT64CONST(0x0000c200208a0010),
	UINT64CONST(0x0046002008120004), UINT64CONST(0x1210040002008080),
	UINT64CONST(0x0614010002008080), UINT64CONST(0x0180210040a20004),
	UINT64CONST(0x1040400020800180), UINT64CONST(0x0060008040002080),
	UINT64CONST(0x8004200085100880), UINT64CONST(0x3010021021000900),
	UINT64CONST(0x0020800800040080), UINT64CONST(0x2000800400060180),
	UINT64CONST(0x0000810802300400), UINT64CONST(0x2002090400408a00),
	UINT64CONST(0x1010201040800101), UINT64CONST(0x2604208100104206),
	UINT64CONST(0x090011402aa00101), UINT64CONST(0x0000082004100101),
	UINT64CONST(0x0242000811200402), UINT64CONST(0x0151000400080201),
	UINT64CONST(0x0020008802011004), UINT64CONST(0x28000c8c08402102),
};
static const uint64 bishop_magics[64] = {
	UINT64CONST(0x0088080800802201), UINT64CONST(0x02b04411440020d0),
	UINT64CONST(0x0108208102000898), UINT64CONST(0x0204040c92895804),
	UINT64CONST(0x1804042200022002), UINT64CONST(0x041a019088080200),
	UINT64CONST(0x4110410821100910), UINT64CONST(0x1000a02310186010),
	UINT64CONST(0x0802881001880100), UINT64CONST(0x0800180898035042),
	UINT64CONST(0x4408041104010601), UINT64CONST(0x405011040088e023),
	UINT64CONST(0xa000011040040900), UINT64CONST(0x0000011002501008),
	UINT64CONST(0x000840480248a088), UINT64CONST(0x0080302104104488),
	UINT64CONST(0x0010422002023800), UINT64CONST(0x0110000244110410),
	UINT64CONST(0xc211081010420040), UINT64CONST(0x0054080240108000),
	UINT64CONST(0x00c2040402110001), UINT64CONST(0x0002000820842010),
	UINT64CONST(0x0004808410941080), UINT64CONST(0x0060428882009008),
	UINT64CONST(0x0044040020e04401), UINT64CONST(0x0002310822042800),
	UINT64CONST(0x0004300008008020), UINT64CONST(0x0002080004004208),
	UINT64CONST(0x0d59010000104000), UINT64CONST(0x00020580041004a0),
	UINT64CONST(0x808888861a025001), UINT64CONST(0x6002002040440200),
	UINT64CONST(0x0444202300080200), UINT64CONST(0x0080900420880840),
	UINT64CONST(0x60c1040210810800), UINT64CONST(0x8000280800020a00),
	UINT64CONST(0x05c2008400060020), UINT64CONST(0x0191304200b10100),
	UINT64CONST(0x90b0808110820104), UINT64CONST(0x1888012048030440),
	UINT64CONST(0x1038480848000448), UINT64CONST(0x000a0110c2000820),
	UINT64CONST(0x0082201410000202), UINT64CONST(0x2001022214000800),
	UINT64CONST(0x004206200b020a00), UINT64CONST(0x6004012052000902),
	UINT64CONST(0x0810108200802042), UINT64CONST(0x4004482081009420),
	UINT64CONST(0x1209008220a08200), UINT64CONST(0x0180405208200900),
	UINT64CONST(0x0980002208120002), UINT64CONST(0x0122000020880000),
	UINT64CONST(0x048c001002022000), UINT64CONST(0x0000406314010821),
	UINT64CONST(0x0021842400a400c0), UINT64CONST(0x0520480a00822202),
	UINT64CONST(0x0008808088014050), UINT64CONST(0x0508042421080830),
	UINT64CONST(0x0120100100411090), UINT64CONST(0x2002800020208800),
	UINT64CONST(0x8042004240082880), UINT64CONST(0x0000804002440104),
	UINT64CONST(0x2020204801210400), UINT64CONST(0x01021004480b4040),
};

static void
init_magics(Magic *magics, const uint64 *numbers, Bitboard *table, const int dirs[4][2])
{
	Bitboard   *next = table;

	for (int s = 0; s < 64; s++)
	{
		Magic	   *m = &magics[s];
		/* Edge squares never block a ray beyond them, unless the slider is on that edge. */
		Bitboard	edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * SQ_RANK(s)))) |
			((FILE_A | FILE_H) & ~(FILE_A << SQ_FILE(s)));
		Bitboard	b = 0;

		m->mask = ray_attacks(s, 0, dirs) & ~edges;
		m->magic = numbers[s];
		m->shift = 64 - popcount(m->mask);
		m->attacks = next;
		/* Every subset of the mask (carry-rippler enumeration). */
		do
		{
			Bitboard	attacks = ray_attacks(s, b, dirs);
			Bitboard   *slot = &next[(b * m->magic) >> m->shift];

			/* A slider attacks at least one square, so 0 marks a free slot. */
			if (*slot != 0 && *slot != attacks)
				elog(ERROR, "chess magic number of square %d collides", s);
			*slot = attacks;
			b = (b - m->mask) & m->mask;
		} while (b);
		next += UINT64CONST(1) << popcount(m->mask);
	}
}

void
chess_init_tables(void)
{
	static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
	static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
	static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
	static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};

	for (int s = 0; s < 64; s++)
	{
		chess_knight_attacks[s] = step(s, knight, 8);
		chess_king_attacks[s] = step(s, king, 8);
		chess_pawn_attacks[WHITE][s] = step(s, white_pawn, 2);
		chess_pawn_attacks[BLACK][s] = step(s, black_pawn, 2);
	}
	init_magics(chess_rook_magic, rook_magics, rook_table, rook_dirs);
	init_magics(chess_bishop_magic, bishop_magics, bishop_table, bishop_dirs);
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
}
