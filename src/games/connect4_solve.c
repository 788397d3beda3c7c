/*
 * connect4_solve.c: connect four's exact solver, the game's solve hook
 * (game.h), for search to value the root's moves exactly where it can.
 *
 * Negamax over win/draw/loss scores that count how soon the game ends:
 * with k discs on the board before the winning one, the winner scores
 * (43 - k) / 2, the loser the negation, a draw 0.  The score is found by
 * null-window searches that halve its range, as in Pascal Pons's solver;
 * moves that hand the opponent a four are never tried, forced blocks are
 * the only moves tried, and the others go by the threats they make, then
 * centre first.  Upper bounds are kept per backend in a table of
 * SOLVE_TABLE_BITS (they stay true across calls, so the table is never
 * cleared), keyed by the position (the mover's discs plus all discs,
 * unique with connect four's sentinel row).
 */
#include "postgres.h"

#include "games/connect4.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#define CELLS (C4_COLS * C4_ROWS)
#define SOLVE_TABLE_BITS 22		/* 4M entries of 8 bytes: 32 MB */
/* Nodes between looks at the clock and at interrupts. */
#define SOLVE_CHECK_INTERVAL 4096

typedef struct Solver
{
	uint64		mover;			/* discs of the side to move */
	uint64		all;
	int			discs;
	TimestampTz deadline;
	int64		nodes;
	bool		stopped;
} Solver;

static uint64 *table = NULL;

static const int centre_first[C4_COLS] = {3, 2, 4, 1, 5, 0, 6};

static int
table_get(uint64 key)
{
	uint64		entry = table[(key * UINT64CONST(0x9e3779b97f4a7c15)) >> (64 - SOLVE_TABLE_BITS)];

	return (entry >> 8) == key ? (int) (entry & 0xFF) - 64 : PG_INT32_MIN;
}

static void
table_put(uint64 key, int upper)
{
	table[(key * UINT64CONST(0x9e3779b97f4a7c15)) >> (64 - SOLVE_TABLE_BITS)] = key << 8 | (uint64) (upper + 64);
}

static uint64
column_cells(int col)
{
	return UINT64CONST(0x3F) << (C4_H * col);
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

static int
solver_negamax(Solver *s, int alpha, int beta)
{
	uint64		next = safe_cells(s);
	uint64		key = s->mover + s->all;
	int			lowest,
				highest,
				stored;
	int			cols[C4_COLS];
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
		return 0;
	lowest = -(CELLS - 2 - s->discs) / 2;
	if (alpha < lowest && (alpha = lowest) >= beta)
		return alpha;
	highest = (CELLS - 1 - s->discs) / 2;
	if ((stored = table_get(key)) != PG_INT32_MIN)
		highest = stored;
	if (beta > highest && alpha >= (beta = highest))
		return beta;

	/* Most threats made first, centre first among equals (insertion sort). */
	for (int i = 0; i < C4_COLS; i++)
	{
		uint64		cell = next & column_cells(centre_first[i]);
		int			made;
		int			j = n;

		if (cell == 0)
			continue;
		made = gt_popcount64(c4_winning_cells(s->mover | cell, s->all | cell));
		for (; j > 0 && threats[j - 1] < made; j--)
		{
			cols[j] = cols[j - 1];
			threats[j] = threats[j - 1];
		}
		cols[j] = centre_first[i];
		threats[j] = made;
		n++;
	}
	for (int i = 0; i < n; i++)
	{
		uint64		cell = next & column_cells(cols[i]);
		uint64		mover = s->mover;
		int			score;

		/* Play: the opponent becomes the mover. */
		s->mover ^= s->all;
		s->all |= cell;
		s->discs++;
		score = -solver_negamax(s, -beta, -alpha);
		s->discs--;
		s->all ^= cell;
		s->mover = mover;
		if (s->stopped)
			return 0;
		if (score >= beta)
			return score;
		if (score > alpha)
			alpha = score;
	}
	table_put(key, alpha);
	return alpha;
}

bool
c4_solve(const Game *game, const GameState *state, TimestampTz deadline, int *goals, int *plies)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	int			side = gt_popcount64(c->disc[C4_RED]) == gt_popcount64(c->disc[C4_BLACK]) ? C4_RED : C4_BLACK;
	Solver		s = {0};
	int			lowest,
				highest,
				score;

	if (table == NULL)
		table = MemoryContextAllocExtended(TopMemoryContext, sizeof(uint64) << SOLVE_TABLE_BITS,
										   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	s.mover = c->disc[side];
	s.all = c->disc[C4_RED] | c->disc[C4_BLACK];
	s.discs = gt_popcount64(s.all);
	s.deadline = deadline;
	if (playable(&s) & c4_winning_cells(s.mover, s.all))
		score = (CELLS + 1 - s.discs) / 2;
	else
	{
		/* Null windows that halve the range, tried near 0 first (draws and late ends are common). */
		lowest = -(CELLS - s.discs) / 2;
		highest = (CELLS + 1 - s.discs) / 2;
		while (lowest < highest && !s.stopped)
		{
			int			middle = lowest + (highest - lowest) / 2;
			int			r;

			if (middle <= 0 && lowest / 2 < middle)
				middle = lowest / 2;
			else if (middle >= 0 && highest / 2 > middle)
				middle = highest / 2;
			r = solver_negamax(&s, middle, middle + 1);
			if (r <= middle)
				highest = r;
			else
				lowest = r;
		}
		score = lowest;
	}
	if (s.stopped)
		return false;
	goals[side] = score > 0 ? GT_GOAL_MAX : score < 0 ? GT_GOAL_MIN : (GT_GOAL_MIN + GT_GOAL_MAX) / 2;
	goals[1 - side] = GT_GOAL_MAX + GT_GOAL_MIN - goals[side];
	/* The winning disc is dropped onto 43 - 2 |score| discs (to within one). */
	*plies = score == 0 ? CELLS - s.discs : CELLS + 2 - 2 * Abs(score) - s.discs;
	return true;
}
