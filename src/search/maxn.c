/*
 * maxn.c: max^n search for any number of roles (search.h).
 *
 * Depth-first to a depth that grows by one each iteration: every node's
 * value follows from its moves' values by the rules propagation uses
 * (values.c): the role in control takes the move best for itself, with the
 * same ties; at simultaneous moves, the mean.  Ends of the game are their
 * goals, proven; the horizon is the game's heuristic, or unknown where it
 * has none.  Without pruning it is slower than alpha-beta, but it needs no
 * zero-sum game and no two roles.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "search/frame.h"

typedef struct MaxnSearch
{
	SearchFrame frame;
	Value	   *values[SEARCH_MAX_PLY]; /* of the moves at each ply */
} MaxnSearch;

/* The value of the state at ply searched depth plies deep; false when the clock stopped it. */
static bool
maxn(MaxnSearch *s, int ply, int depth, Value *out)
{
	SearchFrame *f = &s->frame;
	const Game *game = f->game;
	const GameState *state = f->states[ply];
	Value	   *values = s->values[ply];
	Value		best;
	int			n;
	int			mover;

	f->pv[ply].length = 0;
	if (!search_frame_look(f))
		return false;
	check_stack_depth();
	n = search_frame_legal(f, ply);
	if (n < 0)
		return false;
	if (n == 0 || depth <= 0 || ply >= SEARCH_MAX_PLY - 1)
	{
		value_of_state(game, state, n == 0, out);
		return true;
	}
	mover = gt_mover(game, state);
	value_unknown(game, &best);
	for (int i = 0; i < n; i++)
	{
		game->next(game, state, f->moves[ply][i], f->states[ply + 1]);
		if (!maxn(s, ply + 1, depth - 1, &values[i]))
			return false;
		values[i].move_id = i;
		/* The choice value_evaluate makes, made as the moves come: its line is kept. */
		if (mover != GT_NO_ROLE && values[i].known && value_better(game, &values[i], &best, mover))
		{
			best = values[i];
			search_frame_update_pv(f, ply, f->moves[ply][i]);
		}
	}
	value_evaluate(game, mover, values, n, out);
	return true;
}

/* Is root move a better than b for the root's mover by the max^n rules?  (arg: the SearchFrame) */
static bool
maxn_ahead(const RootMove *a, const RootMove *b, const void *arg)
{
	const SearchFrame *f = arg;

	return a->value.known && value_better(f->game, &a->value, &b->value, f->root_role);
}

bool
search_maxn_applies(const Game *game, const GameState *state)
{
	return game->control(game, state) != GT_NO_ROLE;
}

/*
 * One iteration: the root's moves searched depth plies deep into scored, a
 * copy of moves, and their values into values.  False when the clock
 * stopped it.
 */
static bool
search_root(MaxnSearch *s, RootMove *scored, Value *values, int n, int depth)
{
	SearchFrame *f = &s->frame;

	for (int i = 0; i < n && !f->stopped; i++)
	{
		f->game->next(f->game, f->states[0], scored[i].move, f->states[1]);
		if (!maxn(s, 1, depth - 1, &scored[i].value))
			break;
		scored[i].value.move_id = i;
		scored[i].proven = scored[i].value.proven;
		scored[i].depth = depth;
		search_frame_root_pv(f, &scored[i]);
		values[i] = scored[i].value;
	}
	return !f->stopped;
}

void
search_maxn(const Game *game, const GameState *root, const SearchLimits *limits, SearchResult *result)
{
	MaxnSearch *s = palloc0(sizeof(MaxnSearch));
	SearchFrame *f = &s->frame;
	int			n;
	RootMove   *moves;
	Value	   *values;

	int			mover = game->control(game, root);

	Assert(mover != GT_NO_ROLE);
	search_frame_init(f, game, root, mover, limits);
	for (int p = 0; p < SEARCH_MAX_PLY; p++)
		s->values[p] = palloc(game->max_moves * sizeof(Value));
	n = search_frame_start(f);
	moves = palloc0(n * sizeof(RootMove));
	values = palloc(n * sizeof(Value));
	for (int i = 0; i < n; i++)
	{
		moves[i].move = f->moves[0][i];
		moves[i].visits = -1;
		value_unknown(game, &moves[i].value);
	}
	/* A stored tree's utilities first: the first iteration tries its best move first. */
	search_order_by_prior(limits, moves, n, mover);
	result->moves = moves;
	result->nmoves = n;
	result->depth = 0;

	for (int depth = 1; depth <= f->max_depth; depth++)
	{
		RootMove   *scored = palloc(n * sizeof(RootMove));
		Value		root_value;

		memcpy(scored, moves, n * sizeof(RootMove));
		if (!search_root(s, scored, values, n, depth))
			break;				/* an unfinished iteration: the last one's result stands */
		search_order_root_moves(scored, n, maxn_ahead, f);
		memcpy(moves, scored, n * sizeof(RootMove));
		result->depth = depth;
		value_evaluate(game, mover, values, n, &root_value);
		if (root_value.proven)
			break;
		pfree(scored);
	}
	gt_clock_stop();
	for (int i = 0; i < n; i++)
		moves[i].value.move_id = 0;
	result->nodes = f->nodes;
}
