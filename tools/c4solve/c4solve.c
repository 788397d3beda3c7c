/*
 * c4solve: exact solver for connect four (7 columns x 6 rows), written for
 * the gametree test data (tools/c4_positions.sh).
 *
 * Usage
 *   c4solve [-e] [-v] [-m LOG2]     solve positions read from stdin
 *   c4solve -g SEED COUNT MIN MAX   print COUNT random plausible positions
 *   c4solve -t SEED COUNT MIN MAX   self-test against a plain minimax
 *   c4solve -n                      solve stdin by the plain minimax only
 *
 * Solving: each input line is a move sequence, digits 1-7 (1 = leftmost
 * column), empty for the initial position.  For each line it prints, tab-
 * separated:
 *   moves  value  columns
 * value is +1, 0 or -1 for the side to move (win, draw, loss); columns is
 * seven comma-separated entries win/draw/loss, or x for a full column: the
 * value for the side to move of dropping a disc in that column.  With -e it
 * adds two fields: the exact score of the position and the exact score of
 * each column, in the convention of Pascal Pons's solver (a win with the
 * winner's k-th disc scores 22 - k, a loss the negative, a draw 0).  Without
 * -e only the sign is searched (a null window around 0), which is faster.
 * A line that is not a legal sequence, or that reaches a position where a
 * player has four in a row, gets "error" and a reason instead.
 * -m sets the transposition table to 2^LOG2 entries of 8 bytes (default 27,
 * 1 GiB); the table is kept from one line to the next.  -v reports the nodes
 * and the time of each column and line on stderr.
 *
 * Technique: bitboards with one 7-bit stride per column (6 rows and a
 * sentinel bit), negamax with alpha-beta, null-window searches narrowing on
 * the score, a transposition table of lower and upper bounds keyed by the
 * whole position (in the first 12 plies a position and its mirror image
 * share an entry), immediate wins and forced blocks played at once, moves
 * that give the opponent an immediate win skipped, moves ordered by the
 * number of threats they create, centre columns first on ties.
 *
 * Generating (-g): COUNT distinct positions (mirror images count as the same)
 * with ply counts spread evenly over MIN..MAX.  Each comes from a random game
 * in which no player ever lets the opponent win at once (forced blocks are
 * played, moves under an opponent threat avoided) and none has an immediate
 * win on the way (such a game would end: it is discarded).  The final
 * position has no four, the side to move has no immediate win and at least
 * one move that does not lose at once.  The same SEED gives the same output.
 *
 * Self-test (-t): positions made as for -g (without removing duplicates),
 * each solved by this solver and by an independent plain minimax over an
 * array board (alpha-beta on the sign only: no bitboards, no table, no move
 * ordering or pruning); any difference in the value or a column value is
 * reported and the exit status is 1.  The plain minimax is slow: keep MIN at
 * 20 or more.  -n solves input lines with it alone (values, no -e scores).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 7
#define H 6
#define CELLS (W * H)
#define MIN_SCORE (-(CELLS) / 2 + 3)
#define MAX_SCORE ((CELLS + 1) / 2 - 3)
#define SYM_PLIES 12 /* up to this ply, mirror images share a table entry */

typedef uint64_t bb;

static bb bottom_row;   /* bit 0 of each column */
static bb board_cells;  /* the 42 playable bits */

static bb col_cells(int c) { return ((((bb) 1) << H) - 1) << (c * (H + 1)); }
static bb col_bottom(int c) { return ((bb) 1) << (c * (H + 1)); }
static bb col_top(int c) { return ((bb) 1) << (H - 1 + c * (H + 1)); }

static void init_masks(void)
{
	bottom_row = board_cells = 0;
	for (int c = 0; c < W; c++) {
		bottom_row |= col_bottom(c);
		board_cells |= col_cells(c);
	}
}

/* A position: cur = discs of the side to move, all = all discs. */
typedef struct {
	bb cur, all;
	int plies;
} pos_t;

static int popcount(bb x) { return __builtin_popcountll(x); }

/* Does this set of discs hold four in a row? */
static int has_four(bb p)
{
	static const int dirs[4] = {1, H + 1, H, H + 2};
	for (int i = 0; i < 4; i++) {
		int s = dirs[i];
		bb m = p & (p >> s);
		if (m & (m >> (2 * s)))
			return 1;
	}
	return 0;
}

/*
 * Empty cells (anywhere on the board, not only playable) that would complete
 * a four for the discs p.  For each direction s, a cell x completes a four
 * when three of x-3s..x+3s in one window of four are p's.
 */
static bb threats(bb p, bb all)
{
	static const int dirs[4] = {1, H + 1, H, H + 2};
	bb r = 0;
	for (int i = 0; i < 4; i++) {
		int s = dirs[i];
		bb l1 = p << s, l2 = p << (2 * s), l3 = p << (3 * s);
		bb r1 = p >> s, r2 = p >> (2 * s), r3 = p >> (3 * s);
		r |= l1 & l2 & l3;
		r |= r1 & l1 & l2;
		r |= r1 & r2 & l1;
		r |= r1 & r2 & r3;
	}
	return r & (board_cells ^ all);
}

static bb playable(const pos_t *P) { return (P->all + bottom_row) & board_cells; }

static int can_play(const pos_t *P, int c) { return (P->all & col_top(c)) == 0; }

static bb move_bit(const pos_t *P, int c) { return (P->all + col_bottom(c)) & col_cells(c); }

static int wins_now(const pos_t *P, int c)
{
	return (threats(P->cur, P->all) & move_bit(P, c)) != 0;
}

static int can_win_next(const pos_t *P)
{
	return (threats(P->cur, P->all) & playable(P)) != 0;
}

static void play_bit(pos_t *P, bb m)
{
	P->cur ^= P->all;
	P->all |= m;
	P->plies++;
}

/* Moves that do not hand the opponent an immediate win (0: none). */
static bb non_losing(const pos_t *P)
{
	bb poss = playable(P);
	bb opp = threats(P->cur ^ P->all, P->all);
	bb forced = poss & opp;
	if (forced) {
		if (forced & (forced - 1))
			return 0; /* two cells to block */
		poss = forced;
	}
	return poss & ~(opp >> 1); /* not under an opponent threat */
}

static uint64_t pos_key(const pos_t *P) { return P->cur + P->all; }

static bb mirror(bb x)
{
	bb r = 0;
	for (int c = 0; c < W; c++)
		r |= ((x >> (c * (H + 1))) & ((((bb) 1) << (H + 1)) - 1)) << ((W - 1 - c) * (H + 1));
	return r;
}

/* The key of the position or of its mirror image, whichever is smaller. */
static uint64_t canon_key(const pos_t *P)
{
	uint64_t a = pos_key(P), b = mirror(P->cur) + mirror(P->all);
	return a < b ? a : b;
}


/* ---- transposition table ------------------------------------------- */

/* entry: key << 8 | flag << 7 | (score - MIN_SCORE + 1); 0 = empty */
static uint64_t *tt;
static int tt_bits;

static void tt_init(int log2)
{
	size_t n = (size_t) 1 << log2;
	tt = calloc(n, sizeof *tt);
	if (!tt) {
		fprintf(stderr, "c4solve: cannot allocate %zu table entries\n", n);
		exit(2);
	}
	tt_bits = log2;
}

static size_t tt_index(uint64_t key)
{
	return (size_t) ((key * 0x9E3779B97F4A7C15ULL) >> (64 - tt_bits));
}

/* returns 0 when absent; *lower = 1 for a lower bound, 0 for an upper bound */
static int tt_get(uint64_t key, int *score, int *lower)
{
	uint64_t e = tt[tt_index(key)];
	if (e == 0 || (e >> 8) != key)
		return 0;
	*lower = (e >> 7) & 1;
	*score = (int) (e & 0x7f) + MIN_SCORE - 1;
	return 1;
}

static void tt_put(uint64_t key, int score, int lower)
{
	tt[tt_index(key)] = key << 8 | (uint64_t) lower << 7 | (uint64_t) (score - MIN_SCORE + 1);
}

/* ---- search -------------------------------------------------------- */

static const int col_order[W] = {3, 2, 4, 1, 5, 0, 6};
static uint64_t nodes;

/*
 * Score of P within (alpha, beta): the exact score when it lies inside, a
 * value <= alpha when the score is <= alpha, >= beta when it is >= beta.
 * P has at most 40 discs and the side to move has no immediate win.
 */
static int negamax(const pos_t *P, int alpha, int beta)
{
	nodes++;
	bb next = non_losing(P);
	if (next == 0)
		return -(CELLS - P->plies) / 2; /* the opponent wins with their next disc */
	if (P->plies >= CELLS - 2)
		return 0; /* neither can win with the last two discs */

	int lo = -(CELLS - 2 - P->plies) / 2; /* we cannot lose at once */
	if (alpha < lo) {
		alpha = lo;
		if (alpha >= beta)
			return alpha;
	}
	int hi = (CELLS - 1 - P->plies) / 2; /* we cannot win at once */
	/* early on, a position and its mirror image share an entry */
	uint64_t key = P->plies <= SYM_PLIES ? canon_key(P) : pos_key(P);
	int v, lower;
	if (tt_get(key, &v, &lower)) {
		if (lower) {
			if (alpha < v) {
				alpha = v;
				if (alpha >= beta)
					return alpha;
			}
		} else if (v < hi)
			hi = v;
	}
	if (beta > hi) {
		beta = hi;
		if (alpha >= beta)
			return beta;
	}

	/* order: more threats after the move first, centre first on ties */
	bb mv[W];
	int sc[W], n = 0;
	for (int i = 0; i < W; i++) {
		bb m = next & col_cells(col_order[i]);
		if (!m)
			continue;
		int s = popcount(threats(P->cur | m, P->all | m));
		int j = n++;
		while (j > 0 && sc[j - 1] < s) {
			sc[j] = sc[j - 1];
			mv[j] = mv[j - 1];
			j--;
		}
		sc[j] = s;
		mv[j] = m;
	}
	for (int i = 0; i < n; i++) {
		pos_t C = *P;
		play_bit(&C, mv[i]);
		int s = -negamax(&C, -beta, -alpha);
		if (s >= beta) {
			tt_put(key, s, 1);
			return s;
		}
		if (s > alpha)
			alpha = s;
	}
	tt_put(key, alpha, 0);
	return alpha;
}

/* Exact score of P (exact = 1) or only its sign (-1, 0, 1). P has no four. */
static int solve(const pos_t *P, int exact)
{
	if (P->plies == CELLS)
		return 0;
	if (can_win_next(P))
		return exact ? (CELLS + 1 - P->plies) / 2 : 1;
	int lo = -(CELLS - P->plies) / 2, hi = (CELLS + 1 - P->plies) / 2;
	if (!exact) {
		lo = -1;
		hi = 1;
	}
	while (lo < hi) {
		int med = lo + (hi - lo) / 2;
		if (med <= 0 && lo / 2 < med)
			med = lo / 2;
		else if (med >= 0 && hi / 2 > med)
			med = hi / 2;
		int r = negamax(P, med, med + 1);
		if (r <= med)
			hi = r;
		else
			lo = r;
	}
	if (!exact)
		return lo > 0 ? 1 : lo < 0 ? -1 : 0;
	return lo;
}

/* Score for the side to move of dropping in column c (playable). */
static int column_score(const pos_t *P, int c, int exact)
{
	if (wins_now(P, c))
		return exact ? (CELLS + 1 - P->plies) / 2 : 1;
	pos_t C = *P;
	play_bit(&C, move_bit(P, c));
	return -solve(&C, exact);
}

static int sgn(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/* Parses a sequence; returns NULL on success or a reason. */
static const char *parse(const char *s, pos_t *P)
{
	memset(P, 0, sizeof *P);
	for (; *s; s++) {
		if (*s < '1' || *s > '0' + W)
			return "not a column digit 1-7";
		int c = *s - '1';
		if (!can_play(P, c))
			return "column full";
		if (P->plies > 0 && has_four(P->cur ^ P->all))
			return "move after a four";
		play_bit(P, move_bit(P, c));
	}
	if (has_four(P->cur ^ P->all))
		return "four on the board";
	return NULL;
}

static const char *word(int v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * The next line of stdin holding a position (moves as column digits) into
 * line and P; lines that are not one get an error line.  0 at the end.
 */
static int read_position(char *line, int size, pos_t *P)
{
	while (fgets(line, size, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		const char *err = strlen(line) > CELLS ? "too many moves" : parse(line, P);
		if (!err)
			return 1;
		printf("%s\terror\t%s\n", line, err);
		fflush(stdout);
	}
	return 0;
}

static void solve_lines(int exact, int verbose)
{
	char line[256];
	pos_t P;
	while (read_position(line, sizeof line, &P)) {
		int cs[W], best = -1000, any = 0;
		double t0 = now();
		uint64_t n0 = nodes;
		for (int c = 0; c < W; c++) {
			if (!can_play(&P, c))
				continue;
			double t1 = now();
			uint64_t n1 = nodes;
			cs[c] = column_score(&P, c, exact);
			if (verbose)
				fprintf(stderr, "%s column %d: %d, %llu nodes, %.1f s\n", line, c + 1, cs[c],
				        (unsigned long long) (nodes - n1), now() - t1);
			if (!any || cs[c] > best)
				best = cs[c];
			any = 1;
		}
		if (!any)
			best = 0; /* full board: a draw */
		printf("%s\t%s\t", line, best > 0 ? "+1" : best < 0 ? "-1" : "0");
		for (int c = 0; c < W; c++)
			printf("%s%s", c ? "," : "", can_play(&P, c) ? word(cs[c]) : "x");
		if (exact) {
			printf("\t%d\t", best);
			for (int c = 0; c < W; c++)
				if (can_play(&P, c))
					printf("%s%d", c ? "," : "", cs[c]);
				else
					printf("%sx", c ? "," : "");
		}
		printf("\n");
		fflush(stdout);
		if (verbose)
			fprintf(stderr, "%s: %llu nodes, %.1f s\n", line, (unsigned long long) (nodes - n0),
			        now() - t0);
	}
}

/* ---- random positions ---------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int pick(bb set) /* a random column among the columns in set */
{
	int cols[W], n = 0;
	for (int c = 0; c < W; c++)
		if (set & col_cells(c))
			cols[n++] = c;
	return cols[rng() % n];
}

/* Plays one plausible random game of n plies into seq; 0 if discarded. */
static int plausible_game(int n, char *seq, pos_t *P)
{
	memset(P, 0, sizeof *P);
	for (int i = 0; i < n; i++) {
		if (can_win_next(P))
			return 0; /* the game would end here */
		bb ok = non_losing(P);
		if (!ok)
			return 0;
		int c = pick(ok);
		seq[i] = '1' + c;
		play_bit(P, move_bit(P, c));
	}
	seq[n] = 0;
	return !can_win_next(P) && non_losing(P) != 0;
}

static void generate(int count, int minply, int maxply)
{
	uint64_t *seen = calloc((size_t) count + 1, sizeof *seen);
	int nseen = 0;
	char seq[CELLS + 1];
	for (int i = 0; i < count; i++) {
		int n = minply + i % (maxply - minply + 1);
		for (int tries = 0;; tries++) {
			pos_t P;
			if (tries > 1000000) {
				fprintf(stderr, "c4solve: no new position after %d plies\n", n);
				exit(2);
			}
			if (!plausible_game(n, seq, &P))
				continue;
			uint64_t k = canon_key(&P);
			int dup = 0;
			for (int j = 0; j < nseen && !dup; j++)
				dup = seen[j] == k;
			if (dup)
				continue;
			seen[nseen++] = k;
			printf("%s\n", seq);
			break;
		}
	}
	free(seen);
}

/* ---- self-test: plain minimax over an array board ------------------- */

typedef struct {
	signed char cell[W][H]; /* 0 empty, 1 side that moved first, 2 other */
	int height[W];
	int plies;
} arr_t;

static int arr_four_at(const arr_t *A, int c, int r)
{
	static const int d[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
	int who = A->cell[c][r];
	for (int k = 0; k < 4; k++) {
		int run = 1;
		for (int sgnd = -1; sgnd <= 1; sgnd += 2)
			for (int t = 1; t < 4; t++) {
				int cc = c + sgnd * t * d[k][0], rr = r + sgnd * t * d[k][1];
				if (cc < 0 || cc >= W || rr < 0 || rr >= H || A->cell[cc][rr] != who)
					break;
				run++;
			}
		if (run >= 4)
			return 1;
	}
	return 0;
}

/* sign of the value for the side to move, by plain alpha-beta on (-1, 1) */
static int arr_value(arr_t *A, int alpha, int beta)
{
	if (A->plies == CELLS)
		return 0;
	int best = -2;
	for (int c = 0; c < W; c++) {
		if (A->height[c] == H)
			continue;
		int r = A->height[c]++;
		A->cell[c][r] = 1 + (A->plies & 1);
		A->plies++;
		int v = arr_four_at(A, c, r) ? 1 : -arr_value(A, -beta, -alpha);
		A->plies--;
		A->cell[c][r] = 0;
		A->height[c]--;
		if (v > best)
			best = v;
		if (best > alpha)
			alpha = best;
		if (alpha >= beta)
			break;
	}
	return best;
}

static int arr_column(arr_t *A, int c)
{
	int r = A->height[c]++;
	A->cell[c][r] = 1 + (A->plies & 1);
	A->plies++;
	int v = arr_four_at(A, c, r) ? 1 : -arr_value(A, -1, 1);
	A->plies--;
	A->cell[c][r] = 0;
	A->height[c]--;
	return v;
}

static int selftest(int count, int minply, int maxply)
{
	int bad = 0;
	char seq[CELLS + 1];
	for (int i = 0; i < count; i++) {
		int n = minply + i % (maxply - minply + 1);
		pos_t P;
		arr_t A;
		while (!plausible_game(n, seq, &P))
			;
		memset(&A, 0, sizeof A);
		for (int k = 0; k < n; k++) {
			int c = seq[k] - '1';
			A.cell[c][A.height[c]++] = 1 + (A.plies++ & 1);
		}
		int root = -2, aroot = -2;
		char mine[64] = "", theirs[64] = "";
		for (int c = 0; c < W; c++) {
			if (!can_play(&P, c)) {
				strcat(mine, "x");
				strcat(theirs, "x");
				continue;
			}
			int v = sgn(column_score(&P, c, 0)), a = arr_column(&A, c);
			if (v > root)
				root = v;
			if (a > aroot)
				aroot = a;
			strcat(mine, v > 0 ? "W" : v < 0 ? "L" : "D");
			strcat(theirs, a > 0 ? "W" : a < 0 ? "L" : "D");
		}
		int s = solve(&P, 0), e = sgn(solve(&P, 1));
		int agree = !strcmp(mine, theirs) && root == aroot && s == root && e == root;
		if (!agree)
			bad++;
		printf("%s\t%s\t%+d %+d %+d\t%s\t%+d\t%s\n", agree ? "ok" : "DIFF", seq, s, e, root, mine,
		       aroot, theirs);
		fflush(stdout);
	}
	printf("%d positions, %d differences\n", count, bad);
	return bad != 0;
}

/* -n: the same output as solve_lines without -e, by the plain minimax */
static void naive_lines(void)
{
	char line[256];
	pos_t P;
	while (read_position(line, sizeof line, &P)) {
		arr_t A;
		memset(&A, 0, sizeof A);
		for (const char *q = line; *q; q++) {
			int c = *q - '1';
			A.cell[c][A.height[c]++] = 1 + (A.plies++ & 1);
		}
		int cs[W], best = A.plies == CELLS ? 0 : -2;
		for (int c = 0; c < W; c++)
			if (A.height[c] < H && (cs[c] = arr_column(&A, c)) > best)
				best = cs[c];
		printf("%s\t%s\t", line, best > 0 ? "+1" : best < 0 ? "-1" : "0");
		for (int c = 0; c < W; c++)
			printf("%s%s", c ? "," : "", A.height[c] < H ? word(cs[c]) : "x");
		printf("\n");
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	int exact = 0, verbose = 0, log2 = 27;
	init_masks();
	if (argc == 6 && (!strcmp(argv[1], "-g") || !strcmp(argv[1], "-t"))) {
		rng_state = strtoull(argv[2], NULL, 10);
		int count = atoi(argv[3]), minply = atoi(argv[4]), maxply = atoi(argv[5]);
		if (count < 1 || minply < 0 || maxply < minply || maxply > CELLS - 1) {
			fprintf(stderr, "c4solve: bad COUNT, MIN or MAX\n");
			return 2;
		}
		if (argv[1][1] == 'g') {
			generate(count, minply, maxply);
			return 0;
		}
		tt_init(24);
		return selftest(count, minply, maxply);
	}
	if (argc == 2 && !strcmp(argv[1], "-n")) {
		naive_lines();
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-e"))
			exact = 1;
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			log2 = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: c4solve [-e] [-v] [-m LOG2] < sequences\n"
			                "       c4solve -g|-t SEED COUNT MINPLY MAXPLY\n"
			                "       c4solve -n < sequences\n");
			return 2;
		}
	}
	if (log2 < 10 || log2 > 34) {
		fprintf(stderr, "c4solve: -m between 10 and 34\n");
		return 2;
	}
	tt_init(log2);
	solve_lines(exact, verbose);
	return 0;
}
