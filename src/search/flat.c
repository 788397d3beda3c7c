/*
 * flat.c: flat Monte Carlo (search.h), the plain Monte Carlo player of
 * ggp-base's SampleMonteCarloGamer, a baseline that the benchmarks measure
 * Monte Carlo tree search against.
 *
 * The root's joint moves take depth charges in turn (round robin): a charge
 * plays the joint move, then uniformly random joint moves to the end of the
 * game (playout.c; no heuristic, even where the game has one), and adds
 * each role's goal to the joint move's totals.  No tree is kept and nothing
 * is proven.
 *
 * Each role values its actions by the mean of its own goal over the charges
 * that played them.  Where a role is in control its actions are the joint
 * moves, and that is SampleMonteCarloGamer's search.  Where roles move at
 * once, the round robin over the joint moves, every combination of the
 * roles' actions, gives each action of a role as many charges against each
 * action of the others: the others' actions uniform, as the gamer draws
 * them, but evenly spread.  A joint move ranks by the sum over the roles of
 * its actions' values, so the first is the joint move of each role's best
 * action: whichever role the caller plays, its action in it is its best.
 * Equal ranks keep the game's move order.
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "core/clock.h"
#include "miscadmin.h"
#include "search/actions.h"
#include "search/playout.h"
#include "search/search.h"
#include "utils/memutils.h"

/*
 * actions[c * nroles + r]: role r's action in joint move c, numbered by
 * the first joint move with that action.  Found once at the root, from
 * the actions' JSON: a quadratic scan is nothing beside the charges.
 */
static int32 *
number_root_actions(const Game *game, const GameState *root, const GameMove *moves, int n)
{
	int			nroles = game->nroles;
	uint64	   *keys = palloc((Size) n * nroles * sizeof(uint64));
	int32	   *actions = palloc((Size) n * nroles * sizeof(int32));
	MemoryContext json_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree flat Monte Carlo JSON",
												   ALLOCSET_SMALL_SIZES);

	for (int c = 0; c < n; c++)
	{
		MemoryContext outer = MemoryContextSwitchTo(json_cxt);

		search_action_keys(game, root, moves[c], &keys[(Size) c * nroles]);
		MemoryContextSwitchTo(outer);
		MemoryContextReset(json_cxt);
		for (int r = 0; r < nroles; r++)
		{
			int			first = 0;

			while (keys[(Size) first * nroles + r] != keys[(Size) c * nroles + r])
				first++;
			actions[(Size) c * nroles + r] = first;
		}
		CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(json_cxt);
	pfree(keys);
	return actions;
}

/*
 * rank[c]: the sum over the roles of the mean goal of joint move c's action
 * of each (0 for an action no charge played).
 */
static void
rank_joint_moves(const Game *game, int n, const int32 *actions, const int64 *charges,
				 const double *total, double *rank)
{
	int			nroles = game->nroles;
	int64	   *action_charges = palloc((Size) n * sizeof(int64));
	double	   *action_total = palloc((Size) n * sizeof(double));

	memset(rank, 0, n * sizeof(double));
	for (int r = 0; r < nroles; r++)
	{
		memset(action_charges, 0, n * sizeof(int64));
		memset(action_total, 0, n * sizeof(double));
		for (int c = 0; c < n; c++)
		{
			int32		a = actions[(Size) c * nroles + r];

			action_charges[a] += charges[c];
			action_total[a] += total[(Size) c * nroles + r];
		}
		for (int c = 0; c < n; c++)
		{
			int32		a = actions[(Size) c * nroles + r];

			if (action_charges[a] > 0)
				rank[c] += action_total[a] / action_charges[a];
		}
	}
	pfree(action_charges);
	pfree(action_total);
}

void
search_flat(const Game *game, const GameState *root, const SearchLimits *limits, SearchResult *result)
{
	int			nroles = game->nroles;
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	GameMove   *legal = palloc(game->max_moves * sizeof(GameMove));
	GameState  *state = gt_state_alloc(game);
	GameState  *scratch = gt_state_alloc(game);
	int			n = game->legal(game, root, moves);
	int32	   *actions = number_root_actions(game, root, moves, n);
	int64	   *charges = palloc0((Size) n * sizeof(int64));
	double	   *total = palloc0((Size) n * nroles * sizeof(double));
	double	   *rank = palloc((Size) n * sizeof(double));
	int32	   *order = palloc((Size) n * sizeof(int32));
	int64		max_charges = limits->max_depth > 0 ? (int64) limits->max_depth * FLAT_ROUND : PG_INT64_MAX;
	pg_prng_state prng;
	GtClock		clock;
	int64		run = 0;

	Assert(n > 0);
	/* Seeded by the position: equal calls without a time limit search alike. */
	pg_prng_seed(&prng, gt_state_hash(game, root));
	/* The root's moves in hand, game calls may give up at the deadline. */
	gt_clock_start(&clock, limits->deadline);
	while (run < max_charges && !gt_clock_expired(&clock))
	{
		int			c = (int) (run % n);
		double		goals[GT_MAX_ROLES];

		CHECK_FOR_INTERRUPTS();
		game->next(game, root, moves[c], state);
		search_playout(game, &state, &scratch, legal, &prng, false, goals);
		if (gt_clock_abandoned())
			break;				/* a charge a game call gave up in has no result */
		charges[c]++;
		for (int r = 0; r < nroles; r++)
			total[(Size) c * nroles + r] += goals[r];
		run++;
	}
	gt_clock_stop();

	rank_joint_moves(game, n, actions, charges, total, rank);
	search_order_by_rank(order, rank, n);
	result->nmoves = n;
	result->moves = palloc0((Size) n * sizeof(RootMove));
	result->depth = (int) Min(run / FLAT_ROUND, PG_INT32_MAX);
	result->nodes = run;
	for (int i = 0; i < n; i++)
	{
		RootMove   *rm = &result->moves[i];
		int32		c = order[i];

		rm->move = moves[c];
		value_unknown(game, &rm->value);
		rm->value.known = charges[c] > 0;
		for (int r = 0; r < nroles && rm->value.known; r++)
			rm->value.utility[r] = value_round(total[(Size) c * nroles + r] / charges[c]);
		rm->visits = charges[c];
		rm->depth = 1;
		rm->pv.length = 1;
		rm->pv.moves[0] = rm->move;
	}
	pfree(moves);
	pfree(legal);
	pfree(state);
	pfree(scratch);
	pfree(actions);
	pfree(charges);
	pfree(total);
	pfree(rank);
	pfree(order);
}
