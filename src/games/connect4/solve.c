/*
 * solve.c: connect four's exact solver, the game's solve hook
 * (game.h), for search to value the root's moves exactly where it can.
 *
 * The solver of Pascal Pons's description.  Negamax over scores that count
 * how soon the game ends: when the winner's winning disc is its k-th, the
 * winner scores 22 - k, the loser the negation, a draw 0.  The position is
 * two bitboards (the mover's discs and all discs, connect4.h); the score is
 * found by null-window searches that narrow its range, the first ones
 * around 0 so that who wins is known early.  Moves that hand the opponent a
 * four are never tried and forced blocks are the only moves tried; the
 * others go by the threats they make, then centre first, and a move whose
 * position the table already bounds low enough cuts off before any is
 * searched (enhanced transposition cutoff).  The transposition table keeps
 * a lower or an upper bound per position, keyed by the position (unique
 * with the sentinel row), in the first SYMMETRY_DISCS plies by the position
 * or its mirror image, whichever key is smaller.  It lives in the caller's
 * memory context (GameSolveCall.workspace): the calls of one search share
 * it, and it goes with the search.  Once the score is exact, null windows
 * at each move find the principal line to the end of the game.
 */
#include "postgres.h"

#include "connect4.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#define CELLS (C4_COLS * C4_ROWS)
/* Table entries: at most 2^MAX_TABLE_BITS, 64 MB (tools/c4solve ran slower with larger ones). */
#define MAX_TABLE_BITS 23
#define MIN_TABLE_BITS 16
/* A position and its mirror image share an entry up to this many discs. */
#define SYMMETRY_DISCS 12
/* Nodes between looks at the clock and at interrupts (about a millisecond). */
#define SOLVE_CHECK_INTERVAL 4096

/* Entries: key << 8 | lower bound << 7 | score + SCORE_OFFSET; 0 is empty. */
#define SCORE_OFFSET 64

typedef struct SolveTable
{
	uint64	   *entries;
	int			bits;
} SolveTable;

typedef struct Solver
{
	uint64		mover;			/* discs of the side to move */
	uint64		all;
	int			discs;
	const SolveTable *table;
	TimestampTz deadline;
	int64		nodes;
	bool		stopped;
} Solver;

static const int centre_first[C4_COLS] = {3, 2, 4, 1, 5, 0, 6};

static uint64
column_cells(int col)
{
	return UINT64CONST(0x3F) << (C4_H * col);
}

static int
column_of(uint64 cell)
{
	return pg_rightmost_one_pos64(cell) / C4_H;
}

/* The bitboard seen in a mirror: column c becomes column 6 - c. */
static uint64
mirrored(uint64 b)
{
	uint64		m = 0;

	for (int col = 0; col < C4_COLS; col++)
		m |= ((b >> (C4_H * col)) & UINT64CONST(0x7F)) << (C4_H * (C4_COLS - 1 - col));
	return m;
}

/*
 * The position's key: mover + all sets the bit above each column's top
 * disc and keeps the mover's discs, so it tells positions apart; the sum
 * stays within each column's 7 bits, so the mirror's key is the mirrored
 * key.
 */
static uint64
position_key(const Solver *s)
{
	uint64		key = s->mover + s->all;

	if (s->discs <= SYMMETRY_DISCS)
	{
		uint64		mirror = mirrored(key);

		if (mirror < key)
			return mirror;
	}
	return key;
}

static uint64 *
table_slot(const SolveTable *t, uint64 key)
{
	return &t->entries[(key * UINT64CONST(0x9e3779b97f4a7c15)) >> (64 - t->bits)];
}

/* Applies the stored bound of key to (*alpha, *beta). */
static void
table_get(const SolveTable *t, uint64 key, int *alpha, int *beta)
{
	uint64		entry = *table_slot(t, key);
	int			score;

	if (entry == 0 || (entry >> 8) != key)
		return;
	score = (int) (entry & 0x7F) - SCORE_OFFSET;
	if (entry & 0x80)
		*alpha = Max(*alpha, score);
	else
		*beta = Min(*beta, score);
}

static void
table_put(const SolveTable *t, uint64 key, int score, bool lower)
{
	*table_slot(t, key) = key << 8 | (lower ? 0x80 : 0) | (uint64) (score + SCORE_OFFSET);
}

/* Empty cells where a disc may land next. */
static uint64
playable(const Solver *s)
{
	return (s->all + C4_BOTTOM_ROW) & C4_BOARD_MASK;
}

/*
 * The moves (landing cells) that do not let the opponent complete a four
 * next: none when the opponent has two threats to fill at once or one we
 * cannot fill, and only the block when it has one.
 */
static uint64
safe_cells(const Solver *s)
{
	uint64		possible = playable(s);
	uint64		theirs = c4_winning_cells(s->mover ^ s->all, s->all);
	uint64		forced = possible & theirs;

	if (forced)
	{
		if (forced & (forced - 1))
			return 0;
		possible = forced;
	}
	/* Never under a cell where the opponent would complete a four. */
	return possible & ~(theirs >> 1);
}

static void
play(Solver *s, uint64 cell)
{
	s->mover ^= s->all;			/* the opponent becomes the mover */
	s->all |= cell;
	s->discs++;
}

static void
unplay(Solver *s, uint64 cell)
{
	s->discs--;
	s->all ^= cell;
	s->mover ^= s->all;
}

/*
 * The score of the position within (alpha, beta): exact inside, at most
 * alpha when the score is, at least beta when the score is.  The mover has
 * no four to complete at once.
 */
static int
solver_negamax(Solver *s, int alpha, int beta)
{
	uint64		next = safe_cells(s);
	uint64		key;
	int			lowest,
				highest,
				child_alpha,
				child_beta;
	uint64		cells[C4_COLS];
	int			threats[C4_COLS];
	int			n = 0;

	if (++s->nodes % SOLVE_CHECK_INTERVAL == 0)
	{
		CHECK_FOR_INTERRUPTS();
		if (s->deadline != 0 && GetCurrentTimestamp() >= s->deadline)
			s->stopped = true;
	}
	if (s->stopped)
		return 0;
	check_stack_depth();
	if (next == 0)
		return -(CELLS - s->discs) / 2;
	if (s->discs >= CELLS - 2)
		return 0;				/* neither side can win with the last two discs */
	/* Bounds: the opponent cannot win at once, nor we with this disc. */
	lowest = -(CELLS - 2 - s->discs) / 2;
	highest = (CELLS - 1 - s->discs) / 2;
	key = position_key(s);
	table_get(s->table, key, &lowest, &highest);
	alpha = Max(alpha, lowest);
	beta = Min(beta, highest);
	if (alpha >= beta)
		return alpha;

	/* Most threats made first, centre first among equals (insertion sort). */
	for (int i = 0; i < C4_COLS; i++)
	{
		uint64		cell = next & column_cells(centre_first[i]);
		int			made;
		int			j = n;

		if (cell == 0)
			continue;
		/* A child already known to score low enough cuts off without a search. */
		play(s, cell);
		child_alpha = -CELLS;
		child_beta = CELLS;
		table_get(s->table, position_key(s), &child_alpha, &child_beta);
		unplay(s, cell);
		if (-child_beta >= beta)
			return -child_beta;
		made = gt_popcount64(c4_winning_cells(s->mover | cell, s->all | cell));
		for (; j > 0 && threats[j - 1] < made; j--)
		{
			cells[j] = cells[j - 1];
			threats[j] = threats[j - 1];
		}
		cells[j] = cell;
		threats[j] = made;
		n++;
	}
	for (int i = 0; i < n; i++)
	{
		int			score;

		play(s, cells[i]);
		score = -solver_negamax(s, -beta, -alpha);
		unplay(s, cells[i]);
		if (s->stopped)
			return 0;
		if (score >= beta)
		{
			table_put(s->table, key, score, true);
			return score;
		}
		alpha = Max(alpha, score);
	}
	table_put(s->table, key, alpha, false);
	return alpha;
}

/* Plies from a position of discs discs to the end of a game whose score for its mover is score. */
static int
plies_of_score(int score, int discs)
{
	bool		red_wins;
	int			k;

	if (score == 0)
		return CELLS - discs;
	/* Red moves when the discs are even; red's k-th disc is the (2k - 1)-th, black's the 2k-th. */
	red_wins = (score > 0) == (discs % 2 == 0);
	k = (CELLS + 2) / 2 - Abs(score);
	return 2 * k - (red_wins ? 1 : 0) - discs;
}

/*
 * The principal line from a position whose exact score for its mover is
 * score, into line (at most max moves, columns); its length.  At each move
 * a null window finds a child whose score is the negation (every child
 * scores at least that, the table makes it quick).  Stops short with the
 * clock.
 */
static int
solver_line(Solver *s, int score, GameMove *line, int max)
{
	Solver		at = *s;
	int			n = 0;

	while (n < max && !at.stopped)
	{
		uint64		possible = playable(&at);
		uint64		wins = possible & c4_winning_cells(at.mover, at.all);
		uint64		next = safe_cells(&at);
		uint64		chosen = 0;

		if (possible == 0)
			break;				/* the board is full: a draw */
		if (wins)
		{
			line[n++] = column_of(wins);
			break;
		}
		if (next == 0)
			chosen = possible & (~possible + 1);	/* every move loses: the opponent wins next */
		for (int i = 0; i < C4_COLS && chosen == 0 && !at.stopped; i++)
		{
			uint64		cell = next & column_cells(centre_first[i]);

			if (cell == 0)
				continue;
			play(&at, cell);
			if (solver_negamax(&at, -score, -score + 1) <= -score)
				chosen = cell;
			unplay(&at, cell);
		}
		if (at.stopped)
			break;
		if (chosen == 0)
			elog(ERROR, "connect four solver: no move keeps the score %d", score);
		play(&at, chosen);
		line[n++] = column_of(chosen);
		score = -score;
	}
	s->nodes = at.nodes;
	s->stopped = at.stopped;
	return n;
}

/* The table of the calls that share call->workspace, made in CurrentMemoryContext at the first. */
static SolveTable *
solve_table(GameSolveCall *call)
{
	SolveTable *t = call->workspace;

	if (t == NULL)
	{
		int			bits = MAX_TABLE_BITS;

		while (bits > MIN_TABLE_BITS && (sizeof(uint64) << bits) > call->memory)
			bits--;
		t = palloc(sizeof(SolveTable));
		t->bits = bits;
		t->entries = MemoryContextAllocExtended(CurrentMemoryContext, sizeof(uint64) << bits,
												MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		call->workspace = t;
	}
	return t;
}

bool
c4_solve(const Game *game, const GameState *state, GameSolveCall *call)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	int			side = gt_popcount64(c->disc[C4_RED]) == gt_popcount64(c->disc[C4_BLACK]) ? C4_RED : C4_BLACK;
	Solver		s = {0};
	uint64		wins;
	int			lowest,
				highest;

	s.mover = c->disc[side];
	s.all = c->disc[C4_RED] | c->disc[C4_BLACK];
	s.discs = gt_popcount64(s.all);
	s.deadline = call->deadline;
	s.table = solve_table(call);
	Assert(s.discs < CELLS);
	wins = playable(&s) & c4_winning_cells(s.mover, s.all);
	lowest = -(CELLS - s.discs) / 2;
	highest = (CELLS + 1 - s.discs) / 2;
	if (wins)
		lowest = highest;
	/*
	 * Null windows that narrow the range: first at 0 and -1 (who wins),
	 * then halving it, nearer 0 first (late ends are common).
	 */
	while (lowest < highest && (call->exact || (lowest <= 0 && highest >= 0)))
	{
		int			middle;
		int			r;

		if (lowest <= 0 && highest > 0)
			middle = 0;
		else if (lowest < 0 && highest == 0)
			middle = -1;
		else
		{
			middle = lowest + (highest - lowest) / 2;
			if (middle <= 0 && lowest / 2 < middle)
				middle = lowest / 2;
			else if (middle >= 0 && highest / 2 > middle)
				middle = highest / 2;
		}
		r = solver_negamax(&s, middle, middle + 1);
		if (s.stopped)
			break;
		if (r <= middle)
			highest = r;
		else
			lowest = r;
	}
	/* Who wins is known once the range lies on one side of 0, or is 0. */
	if (!(lowest > 0 || highest < 0 || lowest == highest))
		return false;
	call->goals[side] = lowest > 0 ? GT_GOAL_MAX : highest < 0 ? GT_GOAL_MIN :
		(GT_GOAL_MIN + GT_GOAL_MAX) / 2;
	call->goals[1 - side] = GT_GOAL_MAX + GT_GOAL_MIN - call->goals[side];
	call->plies_exact = lowest == highest;
	call->line_length = 0;
	if (call->plies_exact)
	{
		if (wins)
		{
			call->line[0] = column_of(wins);
			call->line_length = Min(1, call->max_line);
		}
		else
			call->line_length = solver_line(&s, lowest, call->line, call->max_line);
	}
	call->plies = plies_of_score(highest, s.discs);
	return true;
}
