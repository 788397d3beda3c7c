/*
 * ckretro: values of checkers endgames of kings only, by backward
 * induction over the draw clock, written for the gametree test data
 * (test/data/checkers_kings.tsv) independently of the extension's move
 * generator (src/games/checkers/).
 *
 * Usage
 *   ckretro W B COUNT SEED     solve every position of at most W white and
 *                              B black kings; print COUNT positions of
 *                              exactly W against B, each side to move, drawn
 *                              at random (SEED) from each of the values win,
 *                              draw and loss, clock 0; on stderr, how many
 *                              positions of W against B have each value
 *
 * Each printed line: a PDN FEN (side to move, then the kings, "W:WK29,K30:BK1")
 * and the value for the side to move (win, draw or loss), tab-separated.
 *
 * Rules, as the README's checkers section gives them: kings step one
 * square diagonally; captures are mandatory, any capture may be chosen, a
 * multi-jump is completed and is one move; a piece cannot be jumped twice,
 * and jumped pieces stay on their squares until the move ends (so a king
 * may land again on a square it left, but not on a jumped piece's); a side
 * with no move loses; after 80 plies in a row without a capture (kings
 * only: every other move), the game is drawn, unless the side to move has
 * no move.
 *
 * Method: V(P, c), the value of position P with the clock at c, for c from
 * 80 down to 0: at 80 a loss without moves, else a draw; below, the best
 * over the moves of the opposite of the position reached, at clock c + 1
 * after a step and at clock 0 after a capture (a smaller material, solved
 * first).  No distance is needed: the clock's layers are the horizon.
 * Positions are indexed by the combinatorial rank of each side's squares.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQ 32
#define CLOCK 80
#define MAXK 3
enum { LOSS = 0, DRAW = 1, WIN = 2 };

static int neighbour[SQ][4];	/* the square one step away in each direction, -1 off the board */
static int beyond[SQ][4];		/* two steps away */
static long binom[SQ + 1][MAXK + 1];

/* Square s (0-based): row s / 4 from Black's side; dark columns 1,3,5,7 on even rows, 0,2,4,6 on odd. */
static void
board_init(void)
{
	static const int dr[4] = {-1, -1, 1, 1},
				dc[4] = {-1, 1, -1, 1};

	for (int s = 0; s < SQ; s++)
	{
		int			r = s / 4,
					c = 2 * (s % 4) + (r % 2 == 0 ? 1 : 0);

		for (int d = 0; d < 4; d++)
		{
			int			r1 = r + dr[d],
						c1 = c + dc[d],
						r2 = r + 2 * dr[d],
						c2 = c + 2 * dc[d];

			neighbour[s][d] = r1 < 0 || r1 > 7 || c1 < 0 || c1 > 7 ? -1 : r1 * 4 + c1 / 2;
			beyond[s][d] = r2 < 0 || r2 > 7 || c2 < 0 || c2 > 7 ? -1 : r2 * 4 + c2 / 2;
		}
	}
	for (int n = 0; n <= SQ; n++)
		for (int k = 0; k <= MAXK; k++)
			binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
}

/* The rank of a set of k squares (a bit mask) among all k-subsets of 32. */
static long
rank_of(uint32_t set)
{
	long		r = 0;
	int			i = 0;

	for (int s = 0; s < SQ; s++)
		if (set >> s & 1)
			r += binom[s][++i];
	return r;
}

static uint32_t
unrank(long r, int k)
{
	uint32_t	set = 0;

	for (int i = k; i >= 1; i--)
	{
		int			s = i - 1;

		while (binom[s + 1][i] <= r)
			s++;
		r -= binom[s][i];
		set |= 1u << s;
	}
	return set;
}

/* Values at clock 0 of each material [white][black][side to move], by rank of white, then black. */
static uint8_t *value0[MAXK + 1][MAXK + 1];

static long
positions(int w, int b)
{
	return binom[SQ][w] * binom[SQ][b] * 2;
}

static long
index_of(uint32_t white, uint32_t black, int side, int b)
{
	return (rank_of(white) * binom[SQ][b] + rank_of(black)) * 2 + side;
}

/* A move's result: the mover's kings and the opponent's after it, and whether it captured. */
typedef struct
{
	uint32_t	mine,
				theirs;
	int			captured;
} Result;

static int
add_result(Result *out, int n, uint32_t mine, uint32_t theirs, int captured)
{
	for (int i = 0; i < n; i++)
		if (out[i].mine == mine && out[i].theirs == theirs)
			return n;
	out[n].mine = mine;
	out[n].theirs = theirs;
	out[n].captured = captured;
	return n + 1;
}

/* Jumps on from square s; jumped: the opponent's pieces taken so far (still on the board). */
static int
jumps_from(int s, uint32_t mine, uint32_t theirs, uint32_t jumped, Result *out, int n)
{
	int			further = 0;

	for (int d = 0; d < 4; d++)
	{
		int			over = neighbour[s][d],
					to = beyond[s][d];

		if (over < 0 || to < 0 || !(theirs >> over & 1) || (jumped >> over & 1) ||
			((mine | theirs) >> to & 1))
			continue;
		further = 1;
		n = jumps_from(to, (mine & ~(1u << s)) | 1u << to, theirs, jumped | 1u << over, out, n);
	}
	if (!further && jumped != 0)
		n = add_result(out, n, mine, theirs & ~jumped, 1);
	return n;
}

/* The positions the side with kings mine can move to: captures when there are any, else steps. */
static int
moves(uint32_t mine, uint32_t theirs, Result *out)
{
	int			n = 0;

	for (int s = 0; s < SQ; s++)
		if (mine >> s & 1)
			n = jumps_from(s, mine, theirs, 0, out, n);
	if (n > 0)
		return n;
	for (int s = 0; s < SQ; s++)
		if (mine >> s & 1)
			for (int d = 0; d < 4; d++)
			{
				int			to = neighbour[s][d];

				if (to >= 0 && !((mine | theirs) >> to & 1))
					n = add_result(out, n, (mine & ~(1u << s)) | 1u << to, theirs, 0);
			}
	return n;
}

/* The value for the side to move of a position reached, with the kings of each colour. */
static int
looked_up(const uint8_t *layer, uint32_t white, uint32_t black, int side)
{
	int			w = __builtin_popcount(white),
				b = __builtin_popcount(black);

	return (layer != NULL ? layer : value0[w][b])[index_of(white, black, side, b)];
}

static void
solve(int w, int b)
{
	long		n = positions(w, b);
	uint8_t    *next = malloc(n),
			   *layer = malloc(n);
	Result		out[4096];

	for (int c = CLOCK; c >= 0; c--)
	{
		for (long i = 0; i < n; i++)
		{
			int			side = i % 2;
			uint32_t	white = unrank(i / 2 / binom[SQ][b], w),
						black = unrank(i / 2 % binom[SQ][b], b);
			int			nmoves,
						best = LOSS;

			if (white & black)
				continue;
			nmoves = side == 0 ? moves(white, black, out) : moves(black, white, out);
			if (nmoves > 0 && c == CLOCK)
				best = DRAW;
			for (int m = 0; m < nmoves && c < CLOCK; m++)
			{
				uint32_t	wa = side == 0 ? out[m].mine : out[m].theirs,
							ba = side == 0 ? out[m].theirs : out[m].mine;
				int			v = 2 - looked_up(out[m].captured ? NULL : next, wa, ba, 1 - side);

				if (v > best)
					best = v;
			}
			layer[i] = best;
		}
		memcpy(next, layer, n);
	}
	value0[w][b] = layer;
	free(next);
}

static void
print_fen(uint32_t white, uint32_t black, int side)
{
	printf("%c", side == 0 ? 'W' : 'B');
	for (int colour = 0; colour < 2; colour++)
	{
		uint32_t	set = colour == 0 ? white : black;
		int			first = 1;

		printf(":%c", colour == 0 ? 'W' : 'B');
		for (int s = 0; s < SQ; s++)
			if (set >> s & 1)
			{
				printf("%sK%d", first ? "" : ",", s + 1);
				first = 0;
			}
	}
}

int
main(int argc, char **argv)
{
	static const char *const names[3] = {"loss", "draw", "win"};
	int			w,
				b,
				count;
	unsigned	seed;

	if (argc != 5 || (w = atoi(argv[1])) < 1 || w > MAXK || (b = atoi(argv[2])) < 1 || b > MAXK ||
		(count = atoi(argv[3])) < 0)
	{
		fprintf(stderr, "usage: ckretro W B COUNT SEED   (1 <= W, B <= %d)\n", MAXK);
		return 2;
	}
	seed = (unsigned) strtoul(argv[4], NULL, 10);
	board_init();
	for (int total = 0; total <= w + b; total++)
		for (int x = 0; x <= w; x++)
			if (total - x >= 0 && total - x <= b)
				solve(x, total - x);
	for (int side = 0; side < 2; side++)
	{
		long		counts[3] = {0};

		for (long i = side; i < positions(w, b); i += 2)
			if (!(unrank(i / 2 / binom[SQ][b], w) & unrank(i / 2 % binom[SQ][b], b)))
				counts[value0[w][b][i]]++;
		fprintf(stderr, "%d white against %d black kings, %s to move: %ld wins, %ld draws, %ld losses\n",
				w, b, side == 0 ? "White" : "Black", counts[WIN], counts[DRAW], counts[LOSS]);
	}
	srand(seed);
	for (int side = 0; side < 2; side++)
		for (int v = WIN; v >= LOSS; v--)
		{
			long		n = positions(w, b);
			int			found = 0;

			for (long tries = 0; found < count && tries < 100 * n; tries++)
			{
				long		i = ((long) rand() * RAND_MAX + rand()) % (n / 2) * 2 + side;
				uint32_t	white = unrank(i / 2 / binom[SQ][b], w),
							black = unrank(i / 2 % binom[SQ][b], b);

				if ((white & black) || value0[w][b][i] != v)
					continue;
				print_fen(white, black, side);
				printf("\t%s\n", names[v]);
				found++;
			}
		}
	return 0;
}
