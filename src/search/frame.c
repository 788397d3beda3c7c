/*
 * frame.c: the frame of the depth-first searches (frame.h) and the orders of
 * root moves the searches sort by (search.h).
 */
#include "postgres.h"

#include "search/frame.h"

void
search_frame_init(SearchFrame *f, const Game *game, const GameState *root, int root_role,
				  const SearchLimits *limits)
{
	f->game = game;
	f->limits = limits;
	f->root_role = root_role;
	f->max_depth = limits->max_depth > 0 ? Min(limits->max_depth, SEARCH_MAX_PLY - 1) :
		SEARCH_MAX_PLY - 1;
	for (int p = 0; p <= SEARCH_MAX_PLY; p++)
		f->states[p] = gt_state_alloc(game);
	for (int p = 0; p < SEARCH_MAX_PLY; p++)
		f->moves[p] = palloc(game->max_moves * sizeof(GameMove));
	gt_state_copy(f->states[0], root);
}

int
search_frame_start(SearchFrame *f)
{
	int			n = f->game->legal(f->game, f->states[0], f->moves[0]);

	Assert(n > 0);
	/* The root's moves in hand, game calls may give up at the deadline. */
	gt_clock_start(&f->clock, f->limits->deadline);
	return n;
}

void
search_order_root_moves(RootMove *moves, int n, RootMoveAhead ahead, const void *arg)
{
	for (int i = 1; i < n; i++)
	{
		RootMove	m = moves[i];
		int			j = i;

		for (; j > 0 && ahead(&m, &moves[j - 1], arg); j--)
			moves[j] = moves[j - 1];
		moves[j] = m;
	}
}

/* Indexes by rank, best first; equal ranks in the game's move order. */
static int
compare_rank(const void *a, const void *b, void *arg)
{
	const double *rank = arg;
	int32		x = *(const int32 *) a;
	int32		y = *(const int32 *) b;

	if (rank[x] != rank[y])
		return rank[x] > rank[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
search_order_by_rank(int32 *order, const double *rank, int n)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort_arg(order, n, sizeof(int32), compare_rank, (void *) rank);
}
