/*
 * mcts.c: Monte Carlo tree search (mcts.h).
 *
 * Each iteration walks down from the root: where a role is in control, to
 * the child with the largest upper confidence bound (UCT) of that role's
 * mean result; at a simultaneous-move state, each role picks its own action
 * by the bound over its own actions' results, and the joint move of those
 * actions is taken (decoupled UCT).  At the first node not yet expanded it
 * adds the node's children, then plays one random game on from it: to the
 * end, or, where the game has a heuristic, for at most PLAYOUT_PLIES plies
 * and then takes the heuristic's estimate.  The result, one goal per role,
 * is added to every node on the way.
 *
 * Ends of the game are proven values, and a node whose children decide its
 * value under the max^n rules (values.c) is proven too (MCTS-solver): it is
 * not searched below again, and its proven goals count as its result.
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "common/pg_prng.h"
#include "core/clock.h"
#include "miscadmin.h"
#include "search/actions.h"
#include "search/mcts.h"
#include "search/playout.h"
#include "utils/memutils.h"

/* The exploration constant of UCT, for results scaled to 0..1. */
#define UCT_EXPLORATION 0.7

/*
 * The search's arrays grow within memory: everything the search's context
 * holds (the tree, the buffers below, the numbering of actions) and the
 * result to come count; when an expansion does not fit, the tree stops
 * growing and iterations play out from its leaves.  The root's expansion
 * is the least a search needs: it is made even past the budget, and then
 * the tree grows no further.
 */
typedef struct Mcts
{
	const Game *game;
	const SearchLimits *limits;
	MctsTree   *tree;
	MemoryContext json_cxt;		/* one joint move's JSON, reset after each */
	Size		memory;			/* limits->memory; unbounded while the root expands */
	Size		node_bytes;		/* of one node in the tree's arrays */
	Size		result_bytes;	/* what the result will take, held back from the budget */
	bool		full;			/* an expansion did not fit: the tree grows no more */
	int32		capacity;		/* nodes the arrays have room for */
	int32		nactions,
				max_actions;
	uint64	   *action_keys;	/* per role, action_slots: the actions' keys (number_actions) */
	int32	   *action_first;	/* per role, action_slots: the base plus the first child */
	int32		action_slots;	/* a power of two, at least twice game->max_moves */
	GameMove   *legal;
	Value	   *values;			/* room for max_moves */
	GameState  *state;
	GameState  *scratch;
	int32	   *path;			/* nodes of this iteration's walk */
	int			max_path;
	pg_prng_state prng;
	GtClock		clock;			/* of limits->deadline; looks adapt to what iterations cost */
} Mcts;

/*
 * The capacity, at least need, that an array of elements of elem_bytes
 * (now of capacity) grows to, doubling while the search's memory allows
 * (extra bytes more are about to be taken too); -1 when need does not fit.
 */
static int64
grown_capacity(const Mcts *m, int64 capacity, int64 need, Size elem_bytes, Size extra)
{
	Size		held = MemoryContextMemAllocated(m->tree->cxt, true) + m->result_bytes + extra;
	int64		most;

	if (held >= m->memory)
		return -1;
	most = Min(capacity + (int64) ((m->memory - held) / elem_bytes), PG_INT32_MAX / 2);
	if (need > most)
		return -1;
	return Min(Max(capacity * 2, need), most);
}

/* Room in the node arrays for n more nodes; false if the memory does not hold them. */
static bool
reserve_nodes(Mcts *m, int32 n)
{
	MctsTree   *t = m->tree;
	int64		capacity;

	if ((int64) t->nnodes + n <= m->capacity)
		return true;
	capacity = grown_capacity(m, m->capacity, (int64) t->nnodes + n, m->node_bytes, 0);
	if (capacity < 0)
		return false;
	t->nodes = repalloc_huge(t->nodes, (Size) capacity * sizeof(MctsNode));
	t->total = repalloc_huge(t->total, (Size) capacity * t->nroles * sizeof(double));
	t->proven = repalloc_huge(t->proven, (Size) capacity * t->nroles * sizeof(double));
	m->capacity = (int32) capacity;
	return true;
}

/* Adds n nodes, for which reserve_nodes made room; the first's index. */
static int32
new_nodes(Mcts *m, int32 n)
{
	MctsTree   *t = m->tree;
	int32		first = t->nnodes;

	Assert(first + n <= m->capacity);
	for (int32 i = first; i < first + n; i++)
	{
		MctsNode   *node = &t->nodes[i];

		memset(node, 0, sizeof(MctsNode));
		node->parent = node->first_child = node->actions = -1;
		node->mover = GT_NO_ROLE;
		memset(MCTS_TOTAL(t, i), 0, t->nroles * sizeof(double));
		memset(MCTS_PROVEN(t, i), 0, t->nroles * sizeof(double));
	}
	t->nnodes += n;
	return first;
}

static void
set_proven(Mcts *m, int32 i, const double *goals)
{
	m->tree->nodes[i].proven = true;
	memcpy(MCTS_PROVEN(m->tree, i), goals, m->tree->nroles * sizeof(double));
}

/*
 * Room for the action numbers of n children of a simultaneous node, and at
 * the first such node for the tables that number them; false if the
 * memory does not hold them.
 */
static bool
reserve_actions(Mcts *m, int32 n)
{
	MctsTree   *t = m->tree;
	int64		need = (int64) m->nactions + (int64) n * t->nroles;
	Size		slots = 0;

	if (m->action_keys == NULL)
	{
		m->action_slots = 1;
		while (m->action_slots < 2 * m->game->max_moves)
			m->action_slots *= 2;
		slots = (Size) m->action_slots * t->nroles;
	}
	/* The first simultaneous node always grows the array: it is empty until then. */
	if (need > m->max_actions)
	{
		int64		capacity = grown_capacity(m, m->max_actions, need, sizeof(int32),
											  slots * (sizeof(uint64) + sizeof(int32)));

		if (capacity < 0)
			return false;
		t->actions = t->actions == NULL ?
			MemoryContextAllocExtended(t->cxt, (Size) capacity * sizeof(int32), MCXT_ALLOC_HUGE) :
			repalloc_huge(t->actions, (Size) capacity * sizeof(int32));
		m->max_actions = (int32) capacity;
	}
	if (slots > 0)
	{
		m->action_keys = MemoryContextAllocExtended(t->cxt, slots * sizeof(uint64), MCXT_ALLOC_HUGE);
		m->action_first = MemoryContextAllocExtended(t->cxt, slots * sizeof(int32), MCXT_ALLOC_HUGE);
		memset(m->action_first, -1, slots * sizeof(int32));
	}
	return true;
}

/*
 * Numbers each role's actions in the joint moves of a simultaneous node i
 * (children first .. first + n - 1), by the JSON the game writes for them:
 * an action's number is the index of the first child with that action.
 * One open-addressing table per role finds it; a slot whose first child
 * is below this node's base (m->nactions, which only grows) is free, so
 * the tables need no clearing between nodes.  reserve_actions made room.
 */
static void
number_actions(Mcts *m, int32 i, const GameState *state)
{
	MctsTree   *t = m->tree;
	MctsNode   *node = &t->nodes[i];
	int			nroles = t->nroles;
	int32		base = m->nactions;
	uint32		mask = m->action_slots - 1;

	Assert(2 * node->nchildren <= m->action_slots);
	node->actions = base;
	for (int c = 0; c < node->nchildren; c++)
	{
		MemoryContext outer = MemoryContextSwitchTo(m->json_cxt);
		uint64		role_keys[GT_MAX_ROLES];

		search_action_keys(m->game, state, t->nodes[node->first_child + c].move, role_keys);
		MemoryContextSwitchTo(outer);
		MemoryContextReset(m->json_cxt);
		for (int r = 0; r < nroles; r++)
		{
			uint64		key = role_keys[r];
			uint64	   *keys = &m->action_keys[(Size) r * m->action_slots];
			int32	   *first = &m->action_first[(Size) r * m->action_slots];
			uint32		slot = (uint32) key & mask;

			while (first[slot] >= base && keys[slot] != key)
				slot = (slot + 1) & mask;
			if (first[slot] < base)
			{
				keys[slot] = key;
				first[slot] = base + c;
			}
			t->actions[base + c * nroles + r] = first[slot] - base;
		}
		CHECK_FOR_INTERRUPTS();
	}
	m->nactions += node->nchildren * nroles;
}

/* The children of node i as values for values.c: proven ones known, the others unknown. */
static void
children_values(Mcts *m, int32 i)
{
	MctsTree   *t = m->tree;
	const MctsNode *node = &t->nodes[i];

	for (int c = 0; c < node->nchildren; c++)
	{
		int32		child = node->first_child + c;
		Value	   *v = &m->values[c];

		value_unknown(m->game, v);
		v->move_id = c;
		if (t->nodes[child].proven)
		{
			v->known = v->proven = true;
			memcpy(v->utility, MCTS_PROVEN(t, child), t->nroles * sizeof(double));
		}
	}
}

/* Tries to prove node i from its children's proven values; true if it is now proven. */
static bool
prove(Mcts *m, int32 i)
{
	MctsNode   *node = &m->tree->nodes[i];
	Value		out;

	if (node->proven)
		return true;
	if (node->first_child < 0)
		return false;
	children_values(m, i);
	value_evaluate(m->game, node->mover, m->values, node->nchildren, &out);
	if (out.known && out.proven)
		set_proven(m, i, out.utility);
	return node->proven;
}

/*
 * Adds the children of node i, whose state is m->state; an end of the game
 * among them is proven at once, so that a win in one move is seen.  False,
 * and the node left a leaf, when the search's memory does not hold them.
 * When a game call gives up (core/clock.h), the node is left a leaf, or
 * its children from there on untested for the end of the game (the search
 * stops: they are never searched).
 */
static bool
expand(Mcts *m, int32 i)
{
	const Game *game = m->game;
	MctsTree   *t = m->tree;
	int			n = game->legal(game, m->state, m->legal);
	bool		simultaneous = t->nodes[i].mover == GT_NO_ROLE;
	int32		first;
	bool		any_terminal = false;

	if (gt_clock_abandoned())
		return true;
	Assert(n > 0);
	if (!reserve_nodes(m, n) || (simultaneous && !reserve_actions(m, n)))
		return false;
	first = new_nodes(m, n);
	t->nodes[i].first_child = first;
	t->nodes[i].nchildren = n;
	for (int c = 0; c < n; c++)
	{
		MctsNode   *child = &t->nodes[first + c];

		child->parent = i;
		child->move = m->legal[c];
	}
	for (int c = 0; c < n; c++)
	{
		MctsNode   *child = &t->nodes[first + c];
		GameMove   *scratch_moves = m->legal + n;

		int			nchild;

		game->next(game, m->state, child->move, m->scratch);
		nchild = game->legal(game, m->scratch, scratch_moves);
		if (gt_clock_abandoned())
			break;
		if (nchild == 0)
		{
			int			goals[GT_MAX_ROLES];
			double		proven[GT_MAX_ROLES];

			child->terminal = true;
			game->goals(game, m->scratch, goals);
			for (int r = 0; r < t->nroles; r++)
				proven[r] = goals[r];
			set_proven(m, first + c, proven);
			any_terminal = true;
		}
		else
			child->mover = gt_mover(game, m->scratch);
		CHECK_FOR_INTERRUPTS();
	}
	if (simultaneous)
		number_actions(m, i, m->state);
	if (any_terminal)
		prove(m, i);
	return true;
}

static double
uct(const MctsTree *t, int32 child, int role, double log_parent)
{
	const MctsNode *node = &t->nodes[child];

	if (node->proven)
		return MCTS_PROVEN(t, child)[role] / GT_GOAL_MAX;
	if (node->visits == 0)
		return DBL_MAX;
	return MCTS_TOTAL(t, child)[role] / (GT_GOAL_MAX * (double) node->visits) +
		UCT_EXPLORATION * sqrt(log_parent / (double) node->visits);
}

/*
 * Role r's actions at simultaneous node i: visits[a] and total[a] (of r's
 * results) over the joint moves with action a, counted at a's first joint
 * move.
 */
static void
action_stats(const MctsTree *t, int32 i, int r, int64 *visits, double *total)
{
	const MctsNode *node = &t->nodes[i];
	const int32 *actions = &t->actions[node->actions];

	memset(visits, 0, node->nchildren * sizeof(int64));
	memset(total, 0, node->nchildren * sizeof(double));
	for (int c = 0; c < node->nchildren; c++)
	{
		int32		child = node->first_child + c;
		int			a = actions[c * t->nroles + r];

		visits[a] += t->nodes[child].visits;
		total[a] += t->nodes[child].proven ?
			MCTS_PROVEN(t, child)[r] * t->nodes[child].visits : MCTS_TOTAL(t, child)[r];
	}
}

/* The child whose joint move is these actions of each role; the first child when none is. */
static int32
joint_child(const MctsTree *t, int32 i, const int *chosen)
{
	const MctsNode *node = &t->nodes[i];
	const int32 *actions = &t->actions[node->actions];

	for (int c = 0; c < node->nchildren; c++)
	{
		int			r = 0;

		while (r < t->nroles && actions[c * t->nroles + r] == chosen[r])
			r++;
		if (r == t->nroles)
			return node->first_child + c;
	}
	return node->first_child;
}

/* Decoupled UCT: each role's action by its own bound over its actions, then their joint move. */
static int32
select_joint(Mcts *m, int32 i)
{
	MctsTree   *t = m->tree;
	const MctsNode *node = &t->nodes[i];
	int			n = node->nchildren;
	int			chosen[GT_MAX_ROLES];
	double		log_parent = log((double) Max(node->visits, 1));
	int64	   *visits = palloc(n * sizeof(int64));
	double	   *total = palloc(n * sizeof(double));

	for (int r = 0; r < t->nroles; r++)
	{
		double		best = -1;

		action_stats(t, i, r, visits, total);
		chosen[r] = 0;
		for (int c = 0; c < n; c++)
		{
			double		bound;

			if (t->actions[node->actions + c * t->nroles + r] != c)
				continue;		/* counted at the action's first joint move */
			bound = visits[c] == 0 ? DBL_MAX :
				total[c] / (GT_GOAL_MAX * (double) visits[c]) +
				UCT_EXPLORATION * sqrt(log_parent / (double) visits[c]);
			if (bound > best)
			{
				best = bound;
				chosen[r] = c;
			}
		}
	}
	pfree(visits);
	pfree(total);
	return joint_child(t, i, chosen);
}

static int32
select_child(Mcts *m, int32 i)
{
	MctsTree   *t = m->tree;
	const MctsNode *node = &t->nodes[i];
	double		log_parent = log((double) Max(node->visits, 1));
	int32		best = node->first_child;
	double		best_bound = -1;

	if (node->mover == GT_NO_ROLE)
		return select_joint(m, i);
	for (int c = 0; c < node->nchildren; c++)
	{
		double		bound = uct(t, node->first_child + c, node->mover, log_parent);

		if (bound > best_bound)
		{
			best_bound = bound;
			best = node->first_child + c;
			if (bound == DBL_MAX)
				break;
		}
	}
	return best;
}

static void
push_path(Mcts *m, int *length, int32 node)
{
	if (*length == m->max_path)
	{
		m->max_path *= 2;
		m->path = repalloc(m->path, m->max_path * sizeof(int32));
	}
	m->path[(*length)++] = node;
}

/* One iteration from the root state root. */
static void
iterate(Mcts *m, const GameState *root)
{
	MctsTree   *t = m->tree;
	const Game *game = m->game;
	int32		i = 0;
	int			length = 0;
	double		result[GT_MAX_ROLES];

	gt_state_copy(m->state, root);
	push_path(m, &length, 0);
	while (!t->nodes[i].proven)
	{
		if (t->nodes[i].first_child < 0)
		{
			/* A leaf: expand it on its second visit (the root at once), while memory lasts. */
			if ((t->nodes[i].visits == 0 && i != 0) || m->full)
				break;
			if (!expand(m, i))
			{
				m->full = true;
				break;
			}
			if (gt_clock_abandoned())
				return;			/* the expansion gave up: the iteration has no result */
			if (t->nodes[i].proven)
				break;
		}
		i = select_child(m, i);
		game->next(game, m->state, t->nodes[i].move, m->scratch);
		gt_state_copy(m->state, m->scratch);
		push_path(m, &length, i);
	}
	if (t->nodes[i].proven)
		memcpy(result, MCTS_PROVEN(t, i), t->nroles * sizeof(double));
	else
		search_playout(game, &m->state, &m->scratch, m->legal, &m->prng, true, result);
	if (gt_clock_abandoned())
		return;					/* nor has a walk or playout that gave up */

	for (int p = length - 1; p >= 0; p--)
	{
		double	   *total = MCTS_TOTAL(t, m->path[p]);

		t->nodes[m->path[p]].visits++;
		for (int r = 0; r < t->nroles; r++)
			total[r] += result[r];
	}
	/* Carry a proof up as far as it decides values. */
	for (int p = length - 1; p > 0 && t->nodes[m->path[p]].proven; p--)
		if (!prove(m, m->path[p - 1]))
			break;
}

/* Takes a stored tree's visits and totals of the root's moves as a start. */
static void
take_prior(Mcts *m)
{
	MctsTree   *t = m->tree;
	MctsNode   *root = &t->nodes[0];

	for (int c = 0; c < root->nchildren; c++)
	{
		int32		child = root->first_child + c;
		const SearchPrior *prior = search_prior(m->limits, t->nodes[child].move);

		if (prior == NULL || prior->visits <= 0)
			continue;
		t->nodes[child].visits += prior->visits;
		root->visits += prior->visits;
		for (int r = 0; r < t->nroles; r++)
		{
			MCTS_TOTAL(t, child)[r] += prior->total[r];
			MCTS_TOTAL(t, 0)[r] += prior->total[r];
		}
	}
}

/*
 * Root moves best first, for the role in control: proven wins, then by
 * visits (the most searched is the most trusted), then by mean result;
 * proven losses last.  When the root is proven, by the proven goals first.
 */
static double
root_rank(const MctsTree *t, int32 child, int mover, bool root_proven)
{
	const MctsNode *node = &t->nodes[child];
	double		goal = node->proven ? MCTS_PROVEN(t, child)[mover] : -1;
	double		visits = (double) Min(node->visits, (int64) 1 << 40);
	double		mean = node->visits > 0 ? MCTS_TOTAL(t, child)[mover] / node->visits : 0;

	if (root_proven)
		return goal * 1e13 + visits;
	if (node->proven && goal >= GT_GOAL_MAX)
		return 1e16 + visits;
	if (node->proven && goal <= GT_GOAL_MIN)
		return visits;
	return 1e13 + visits * 128 + mean;
}

/*
 * At a simultaneous-move root each role plays its own most visited action:
 * a joint move ranks by the sum of its actions' visits, which the joint move
 * of those actions maximises.
 */
static void
rank_joint_moves(const MctsTree *t, double *rank)
{
	const MctsNode *root = &t->nodes[0];
	int			n = root->nchildren;
	int64	   *visits = palloc(n * sizeof(int64));
	double	   *total = palloc(n * sizeof(double));

	memset(rank, 0, n * sizeof(double));
	for (int r = 0; r < t->nroles; r++)
	{
		action_stats(t, 0, r, visits, total);
		for (int c = 0; c < n; c++)
			rank[c] += (double) visits[t->actions[root->actions + c * t->nroles + r]];
	}
	pfree(visits);
	pfree(total);
}

/* Non-losing mobility (values.c) at node i from its children's proven values; -1: unknown. */
static void
node_mobility(Mcts *m, int32 i, int32 *mobility)
{
	const MctsNode *node = &m->tree->nodes[i];
	Value		out;

	for (int r = 0; r < m->tree->nroles; r++)
		mobility[r] = node->terminal ? 0 : -1;
	if (node->first_child < 0)
		return;
	children_values(m, i);
	value_evaluate(m->game, node->mover, m->values, node->nchildren, &out);
	memcpy(mobility, out.mobility, m->tree->nroles * sizeof(int32));
}

static void
describe_root_move(Mcts *m, int32 child, RootMove *rm)
{
	MctsTree   *t = m->tree;
	const MctsNode *node = &t->nodes[child];
	int32		at = child;

	value_unknown(m->game, &rm->value);
	rm->move = node->move;
	rm->visits = node->visits;
	rm->proven = node->proven;
	rm->value.proven = node->proven;
	rm->value.known = node->proven || node->visits > 0;
	for (int r = 0; r < t->nroles && rm->value.known; r++)
		rm->value.utility[r] = value_round(node->proven ? MCTS_PROVEN(t, child)[r] :
										   MCTS_TOTAL(t, child)[r] / node->visits);
	node_mobility(m, child, rm->value.mobility);
	/* The line: the most visited child, down to a leaf. */
	rm->pv.length = 0;
	while (at >= 0 && rm->pv.length < SEARCH_MAX_PLY)
	{
		const MctsNode *n = &t->nodes[at];
		int32		next = -1;

		rm->pv.moves[rm->pv.length++] = n->move;
		for (int c = 0; c < n->nchildren && n->first_child >= 0; c++)
			if (t->nodes[n->first_child + c].visits > 0 &&
				(next < 0 || t->nodes[n->first_child + c].visits > t->nodes[next].visits))
				next = n->first_child + c;
		at = next;
	}
	rm->depth = rm->pv.length;
}

MctsTree *
search_mcts(const Game *game, const GameState *root, const SearchLimits *limits,
			SearchResult *result)
{
	MemoryContext caller = CurrentMemoryContext;
	MemoryContext cxt = AllocSetContextCreate(caller, "gametree Monte Carlo search",
											  ALLOCSET_DEFAULT_SIZES);
	Mcts	   *m = MemoryContextAllocZero(cxt, sizeof(Mcts));
	MctsTree   *t = MemoryContextAllocZero(cxt, sizeof(MctsTree));
	int64		rounds = 0;
	int			mover;
	int32	   *order;
	double	   *rank;
	const MctsNode *r;

	MemoryContextSwitchTo(cxt);
	m->game = game;
	m->limits = limits;
	m->tree = t;
	t->cxt = cxt;
	t->game = game;
	t->nroles = game->nroles;
	m->json_cxt = AllocSetContextCreate(cxt, "gametree Monte Carlo JSON", ALLOCSET_SMALL_SIZES);
	m->node_bytes = sizeof(MctsNode) + 2 * game->nroles * sizeof(double);
	m->capacity = 64;
	t->nodes = palloc_extended((Size) m->capacity * sizeof(MctsNode), MCXT_ALLOC_HUGE);
	t->total = palloc_extended((Size) m->capacity * t->nroles * sizeof(double), MCXT_ALLOC_HUGE);
	t->proven = palloc_extended((Size) m->capacity * t->nroles * sizeof(double), MCXT_ALLOC_HUGE);
	/* Two moves lists: expand() tests each child for the end of the game with the second. */
	m->legal = palloc_extended(2 * (Size) game->max_moves * sizeof(GameMove), MCXT_ALLOC_HUGE);
	m->values = palloc_extended((Size) game->max_moves * sizeof(Value), MCXT_ALLOC_HUGE);
	m->state = gt_state_alloc(game);
	m->scratch = gt_state_alloc(game);
	m->max_path = 64;
	m->path = palloc(m->max_path * sizeof(int32));
	/* Seeded by the position: equal calls search alike. */
	pg_prng_seed(&m->prng, gt_state_hash(game, root));

	(void) new_nodes(m, 1);
	gt_state_copy(m->state, root);
	t->nodes[0].mover = game->control(game, root);

	/*
	 * control() found the root's moves, so the root's expansion has them
	 * (GDL keeps the evaluation of the last state; the built-in games are
	 * fast): only the tests of its children may give up, at the deadline.
	 */
	gt_clock_start(&m->clock, limits->deadline);
	/* Unbounded, the root's expansion cannot fail. */
	m->memory = SIZE_MAX;
	(void) expand(m, 0);
	m->memory = limits->memory;
	m->result_bytes = (Size) t->nodes[0].nchildren * (sizeof(RootMove) + sizeof(int32) + sizeof(double));
	take_prior(m);
	result->nodes = 0;
	for (;;)
	{
		if (t->nodes[0].proven)
			break;
		if (gt_clock_expired(&m->clock))
			break;
		if (limits->max_depth > 0 && rounds >= limits->max_depth)
			break;
		CHECK_FOR_INTERRUPTS();
		iterate(m, root);
		if (++result->nodes % MCTS_ROUND == 0)
			rounds++;
	}
	gt_clock_stop();

	r = &t->nodes[0];
	mover = r->mover;
	result->nmoves = r->nchildren;
	result->moves = MemoryContextAllocZero(caller, r->nchildren * sizeof(RootMove));
	result->depth = (int) rounds;
	order = palloc(r->nchildren * sizeof(int32));
	rank = palloc(r->nchildren * sizeof(double));
	if (mover == GT_NO_ROLE)
		rank_joint_moves(t, rank);
	else
		for (int c = 0; c < r->nchildren; c++)
			rank[c] = root_rank(t, r->first_child + c, mover, r->proven);
	search_order_by_rank(order, rank, r->nchildren);
	for (int c = 0; c < r->nchildren; c++)
	{
		describe_root_move(m, r->first_child + order[c], &result->moves[c]);
		CHECK_FOR_INTERRUPTS();
	}
	MemoryContextSwitchTo(caller);
	return t;
}

void
search_mcts_free(MctsTree *tree)
{
	MemoryContextDelete(tree->cxt);
}
