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

#include "core/clock.h"
#include "miscadmin.h"
#include "search/search.h"

typedef struct MaxnSearch
{
	const Game *game;
	const SearchLimits *limits;
	GameState  *states[SEARCH_MAX_PLY + 1];
	GameMove   *moves[SEARCH_MAX_PLY];
	Value	   *values[SEARCH_MAX_PLY];
	GameMove	pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
	int			pv_length[SEARCH_MAX_PLY];
	int64		nodes;
	GtClock		clock;			/* of limits->deadline; looks adapt to what nodes cost */
	bool		stopped;
} MaxnSearch;

/* The line at ply: move, then the line below it. */
static void
update_pv(MaxnSearch *s, int ply, GameMove move)
{
	s->pv[ply][0] = move;
	s->pv_length[ply] = 1;
	if (ply + 1 < SEARCH_MAX_PLY)
	{
		memcpy(&s->pv[ply][1], s->pv[ply + 1], s->pv_length[ply + 1] * sizeof(GameMove));
		s->pv_length[ply] += s->pv_length[ply + 1];
	}
}

/* The value of the state at ply searched depth plies deep; false when the clock stopped it. */
static bool
maxn(MaxnSearch *s, int ply, int depth, Value *out)
{
	const Game *game = s->game;
	const GameState *state = s->states[ply];
	Value	   *values = s->values[ply];
	Value		best;
	int			n;
	int			mover;

	s->pv_length[ply] = 0;
	s->nodes++;
	/* Past the deadline, or when a game call gave up (core/clock.h), the search stops. */
	if (gt_clock_expired(&s->clock))
		s->stopped = true;
	if (s->stopped)
		return false;
	check_stack_depth();
	n = game->legal(game, state, s->moves[ply]);
	if (gt_clock_abandoned())
	{
		s->stopped = true;
		return false;
	}
	if (n == 0 || depth <= 0 || ply >= SEARCH_MAX_PLY - 1)
	{
		value_of_state(game, state, n == 0, out);
		return true;
	}
	mover = gt_mover(game, state);
	value_unknown(game, &best);
	for (int i = 0; i < n; i++)
	{
		game->next(game, state, s->moves[ply][i], s->states[ply + 1]);
		if (!maxn(s, ply + 1, depth - 1, &values[i]))
			return false;
		values[i].move_id = i;
		/* The choice value_evaluate makes, made as the moves come: its line is kept. */
		if (mover != GT_NO_ROLE && values[i].known && value_better(game, &values[i], &best, mover))
		{
			best = values[i];
			update_pv(s, ply, s->moves[ply][i]);
		}
	}
	value_evaluate(game, mover, values, n, out);
	return true;
}

/* Best first for mover by the max^n rules; insertion sort, so ties keep the game's order. */
static void
sort_root_moves(const Game *game, RootMove *moves, int n, int mover)
{
	for (int i = 1; i < n; i++)
	{
		RootMove	m = moves[i];
		int			j = i;

		for (; j > 0 && m.value.known && value_better(game, &m.value, &moves[j - 1].value, mover); j--)
			moves[j] = moves[j - 1];
		moves[j] = m;
	}
}

bool
search_maxn_applies(const Game *game, const GameState *state)
{
	return game->control(game, state) != GT_NO_ROLE;
}

void
search_maxn(const Game *game, const GameState *root, const SearchLimits *limits, SearchResult *result)
{
	MaxnSearch *s = palloc0(sizeof(MaxnSearch));
	int			max_depth = limits->max_depth > 0 ? Min(limits->max_depth, SEARCH_MAX_PLY - 1) :
		SEARCH_MAX_PLY - 1;
	int			mover = game->control(game, root);
	int			n;
	RootMove   *moves;
	Value	   *values;

	Assert(mover != GT_NO_ROLE);
	s->game = game;
	s->limits = limits;
	for (int p = 0; p <= SEARCH_MAX_PLY; p++)
		s->states[p] = gt_state_alloc(game);
	for (int p = 0; p < SEARCH_MAX_PLY; p++)
	{
		s->moves[p] = palloc(game->max_moves * sizeof(GameMove));
		s->values[p] = palloc(game->max_moves * sizeof(Value));
	}
	gt_state_copy(s->states[0], root);
	n = game->legal(game, root, s->moves[0]);
	Assert(n > 0);
	/* The root's moves in hand, game calls may give up at the deadline. */
	gt_clock_start(&s->clock, limits->deadline);
	moves = palloc0(n * sizeof(RootMove));
	values = palloc(n * sizeof(Value));
	for (int i = 0; i < n; i++)
	{
		moves[i].move = s->moves[0][i];
		moves[i].visits = -1;
		value_unknown(game, &moves[i].value);
	}
	/* A stored tree's utilities first: the first iteration tries its best move first. */
	search_order_by_prior(limits, moves, n, mover);
	result->moves = moves;
	result->nmoves = n;
	result->depth = 0;

	for (int depth = 1; depth <= max_depth; depth++)
	{
		RootMove   *scored = palloc(n * sizeof(RootMove));
		Value		root_value;

		memcpy(scored, moves, n * sizeof(RootMove));
		for (int i = 0; i < n && !s->stopped; i++)
		{
			game->next(game, root, scored[i].move, s->states[1]);
			if (!maxn(s, 1, depth - 1, &scored[i].value))
				break;
			scored[i].value.move_id = i;
			scored[i].proven = scored[i].value.proven;
			scored[i].depth = depth;
			update_pv(s, 0, scored[i].move);
			scored[i].pv_length = s->pv_length[0];
			memcpy(scored[i].pv, s->pv[0], s->pv_length[0] * sizeof(GameMove));
			values[i] = scored[i].value;
		}
		if (s->stopped)
			break;				/* an unfinished iteration: the last one's result stands */
		sort_root_moves(game, scored, n, mover);
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
	result->nodes = s->nodes;
}
