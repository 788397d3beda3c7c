/*
 * lazy_legal.c: random legal moves with costly legality checked on demand
 * (lazy_legal.h).
 */
#include "postgres.h"

#include "gdl/intsets.h"
#include "gdl/lazy_legal.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/*
 * A derived literal of a legal rule whose cone counts this many rules
 * (counted down the rules as though nothing were shared, nothing for what
 * next reads anyway) is left to the check of the move drawn, unless it
 * reads a clock fact (reads_clock).  chess.kif's king safety after a
 * non-capture counts 2^11 to 2^15 rules, after a capture a few dozen to a
 * few hundred: left out from 2048 on (forward.c's PREFIX_COST), random
 * playouts ran 36,700 moves per CPU second, from 32 on 49,800, from 2 on
 * about as many (the move drawn failing its check 1.1 times a move, not
 * 0.3), against 25,700 with every move listed (300 games of seed 1, builds
 * alternated three times, medians).
 */
#define LAZY_COST 32

/*
 * A literal that this many legal rules read stays in the candidates'
 * rules, unless its rules read facts alone: forward it is evaluated once
 * for all of them, backward again for each move drawn, at the cost of its
 * cone.  englishDraughts.kif's simple moves all read whether a jump is
 * anywhere to be made (5 nodes, 128 to 255 readers each, a cone of
 * derived nodes): left out, its random playouts ran 0.79 to 0.96 times as
 * fast.  chess.kif's king safety is read by the moves from one square or
 * by one capture (1 to 63 readers); its `in_check` by every move of a
 * side (2,048 to 4,095), a node of the check facts alone: left out,
 * backward it is a look at those facts, and forward no legal rule's
 * counter turns with it (13,554 entries a flip): 1.23 times as fast
 * (150 games, medians of 3 alternated).
 */
#define LAZY_READERS 64

struct LazyLegal
{
	const Propnet *net;			/* the whole rules */
	Propnet		pseudo;			/* net, its legal rules without their costly literals */
	Forward    *forward;		/* pseudo's evaluation, made on first use */
	MemoryContext context;		/* its own, where forward is made too */
	const uint8 *values;		/* forward's */
	bool	   *lazy;			/* per node: a legal node that lost a literal in pseudo */
	bool	   *tainted;		/* per node: a lazy node, or one that depends on one */
	int32	   *needs_fact;		/* per node: a fact every rule of it reads, or -1 */
	uint32	   *seen;			/* per node: epoch << 1 | its value then, once evaluated */
	uint32		epoch;			/* of the state set, below 2^31 */
	int32	   *candidates;		/* room for the inputs of any role */
	int32	   *any;			/* the nodes that read lazy legal nodes, "any of these moves" */
	int			nany;
	int32	   *any_start;		/* per node + 1, into any_of */
	int32	   *any_of;			/* the any nodes (indexes into any) that read each legal node */
	uint32	   *confirmed;		/* per any node: the epoch a move drawn showed it holds */
	bool		exact;			/* the forward values of the state set are the whole rules' */
	int32		first_derived;
};

/* Per node: the rules its cone counts, nothing for what next reads anyway. */
static double *
cone_costs(const Propnet *net)
{
	bool	   *counted = propnet_cone(net, CONE_NEXT);
	double	   *cost;

	for (int32 v = 0; v < net->nnodes; v++)
		counted[v] = !counted[v];
	cost = propnet_cone_costs(net, counted);
	pfree(counted);
	return cost;
}

/*
 * Per node: a fact that each of its rules reads positively, or -1; looked
 * for in nodes of at most NEEDS_FACT_RULES rules.  chess.kif's threats are
 * a node per attacker square, each reading the attacker on its square: a
 * backward evaluation of a king's safety asks a hundred of them, nearly all
 * with no attacker there.
 */
#define NEEDS_FACT_RULES 16

static int32 *
needed_facts(const Propnet *net)
{
	int32	   *needs = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);

	memset(needs, 0xff, Max(1, net->nnodes) * sizeof(int32));
	for (int32 v = net->nbase + net->ninputs; v < net->nnodes; v++)
	{
		int32		first = net->rule_start[v];

		if (net->rule_start[v + 1] - first > NEEDS_FACT_RULES)
			continue;
		for (int l = net->literal_start[first]; l < net->literal_start[first + 1] && needs[v] < 0; l++)
		{
			int32		literal = net->literals[l];
			bool		everywhere = (literal & 1) == 0 && (literal >> 1) < net->nbase;

			for (int32 r = first + 1; r < net->rule_start[v + 1] && everywhere; r++)
			{
				everywhere = false;
				for (int k = net->literal_start[r]; k < net->literal_start[r + 1] && !everywhere; k++)
					everywhere = net->literals[k] == literal;
			}
			if (everywhere)
				needs[v] = literal >> 1;
		}
	}
	return needs;
}

/*
 * Per node: whether it reads a fact that a clock turns (control, a step
 * counter), itself or through what it reads.  Such a literal stays in the
 * candidates' rules: left out, the moves of the role not in control would
 * all be candidates, and all fail their check.
 */
static bool *
reads_clock(const Propnet *net)
{
	bool	   *moves = propnet_move_dependent(net);
	bool	   *clock = propnet_clock_facts(net, moves);
	bool	   *reads = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	memcpy(reads, clock, net->nbase * sizeof(bool));
	propnet_mark_readers(net, reads);
	pfree(moves);
	pfree(clock);
	return reads;
}

/* Whether every literal of node's rules is a fact. */
static bool
of_facts(const Propnet *net, int32 node)
{
	for (int l = net->literal_start[net->rule_start[node]]; l < net->literal_start[net->rule_start[node + 1]]; l++)
		if ((net->literals[l] >> 1) >= net->nbase)
			return false;
	return true;
}

/*
 * Rules of a lazy legal node that differed in their costly literals alone
 * are alike once those are left out, and are kept once: chess.kif's 7,620
 * lazy legal nodes have 43,012 rules in the whole network, 27,948 distinct
 * ones without their king safety, and each of the 15,064 others would
 * turn a counter more as the facts it reads flip: random playouts 1.15 to
 * 1.25 times as fast without them while that network slept in part, 1.05
 * to 1.10 times since it is kept awake (forward.c).
 */

/*
 * Writes the m rules of a lazy legal node, pseudo's from first on, each
 * distinct set of literals once (in the order first met), at *nrules and
 * *nliterals.
 */
static void
write_distinct_rules(Propnet *pseudo, int32 first, int32 m, int32 *nrules, int32 *nliterals)
{
	int32		lits = pseudo->literal_start[first + m] - pseudo->literal_start[first];
	int32	   *copy = palloc_extended(Max(1, lits) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *start = palloc_extended((m + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	IntSets		sets;

	/* read before written: the rules written so far end at or before these */
	for (int32 r = 0; r <= m; r++)
		start[r] = pseudo->literal_start[first + r] - pseudo->literal_start[first];
	memcpy(copy, pseudo->literals + pseudo->literal_start[first], lits * sizeof(int32));
	intsets_init(&sets);
	for (int32 r = 0; r < m; r++)
	{
		int32	   *literals = copy + start[r];
		int			n = intsets_sort_unique(literals, start[r + 1] - start[r]);
		int			made = sets.n;

		intsets_add(&sets, literals, n);
		if (sets.n == made)
			continue;
		pseudo->literal_start[(*nrules)++] = *nliterals;
		memcpy(pseudo->literals + *nliterals, literals, n * sizeof(int32));
		*nliterals += n;
	}
	intsets_free(&sets);
	pfree(copy);
	pfree(start);
}

/*
 * pseudo's rules written anew in place, those of its lazy legal nodes each
 * distinct one once (above), the others as they are.
 */
static void
keep_distinct_rules(LazyLegal *lz)
{
	Propnet    *pseudo = &lz->pseudo;
	const int32 *old_start = lz->net->rule_start;
	int32	   *rule_start = palloc_extended((pseudo->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32		nrules = 0,
				nliterals = 0;

	for (int32 node = 0; node < pseudo->nnodes; node++)
	{
		int32		first = old_start[node],
					m = old_start[node + 1] - first;

		CHECK_FOR_INTERRUPTS();
		rule_start[node] = nrules;
		if (lz->lazy[node] && m > 1)
		{
			write_distinct_rules(pseudo, first, m, &nrules, &nliterals);
			continue;
		}
		for (int32 r = first; r < first + m; r++)
		{
			int32		from = pseudo->literal_start[r],
						end = pseudo->literal_start[r + 1];

			pseudo->literal_start[nrules++] = nliterals;
			memmove(pseudo->literals + nliterals, pseudo->literals + from, (end - from) * sizeof(int32));
			nliterals += end - from;
		}
	}
	rule_start[pseudo->nnodes] = nrules;
	pseudo->literal_start[nrules] = nliterals;
	pseudo->rule_start = rule_start;
	pseudo->nrules = nrules;
}

/* Per node: the role whose legal node it is, or -1. */
static int *
legal_roles(const Propnet *net)
{
	int		   *role_of = palloc_extended(Max(1, net->nnodes) * sizeof(int), MCXT_ALLOC_HUGE);

	memset(role_of, 0xff, Max(1, net->nnodes) * sizeof(int));
	for (int role = 0; role < net->nroles; role++)
		for (int i = net->role_inputs[role]; i < net->role_inputs[role + 1]; i++)
			if (net->input_legal[i] >= 0)
				role_of[net->input_legal[i]] = role;
	return role_of;
}

/* Whether v's rules are each one positive literal of a legal node: it holds when one of them does. */
static bool
any_of_legal(const Propnet *net, int32 v, const int *legal_role)
{
	for (int32 r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
	{
		int32		literal = net->literals[net->literal_start[r]];

		if (net->literal_start[r + 1] - net->literal_start[r] != 1 || (literal & 1) ||
			legal_role[literal >> 1] < 0)
			return false;
	}
	return true;
}

/*
 * Whether pseudo's forward values are those of the whole rules once the
 * nodes that read lazy legal nodes are, and only terminal and the goals
 * depend on those: each reader of a lazy legal node is "any of these legal
 * moves" (lz->any, checked at each state by lazy_legal_pick), no legal
 * node nor what next reads depends on one, and the nodes evaluated
 * backward are outside cycle groups or always awake in them.  Fills
 * lz->tainted, lz->any and lz->any_of.
 */
static bool
readers_checked(LazyLegal *lz, const int *legal_role)
{
	const Propnet *net = lz->net;
	bool	   *live = propnet_cone(&lz->pseudo, CONE_TERMINAL | CONE_LEGAL | CONE_NEXT);
	bool	   *asked = propnet_cone(net, CONE_TERMINAL | CONE_LEGAL | CONE_GOALS);
	bool	   *for_next = propnet_cone(net, CONE_NEXT);
	int32	   *fill;
	bool		exact = true;

	/* a group asked of the whole rules and not kept awake by pseudo's network would be evaluated backward */
	for (int g = 0; g < net->ngroups && exact; g++)
		for (int k = net->group_start[g]; k < net->group_start[g + 1]; k++)
			exact &= !asked[net->group_nodes[k]] || live[net->group_nodes[k]];
	lz->any = palloc(Max(1, net->nnodes) * sizeof(int32));
	for (int s = 0; s < net->norder && exact; s++)
	{
		int32		v = net->order[s];
		bool		reads_tainted = false,
					reads_lazy = false;

		CHECK_FOR_INTERRUPTS();
		if (v < 0)
		{
			/* a group reading a lazy node would be recomputed backward */
			for (int k = net->group_start[-v - 1]; k < net->group_start[-v]; k++)
				for (int32 r = net->rule_start[net->group_nodes[k]]; r < net->rule_start[net->group_nodes[k] + 1]; r++)
					for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
						exact &= !lz->tainted[net->literals[l] >> 1];
			continue;
		}
		for (int32 r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			{
				reads_tainted |= lz->tainted[net->literals[l] >> 1];
				reads_lazy |= lz->lazy[net->literals[l] >> 1];
			}
		/* a legal node is checked from its own rules: what it reads must not need other moves */
		if (legal_role[v] >= 0)
		{
			exact &= !reads_tainted;
			lz->tainted[v] = lz->lazy[v];
			continue;
		}
		lz->tainted[v] = reads_tainted;
		exact &= !reads_tainted || !for_next[v];
		if (reads_lazy)
		{
			exact &= any_of_legal(net, v, legal_role);
			lz->any[lz->nany++] = v;
		}
	}
	/* per legal node, the any-of nodes that read it */
	lz->any_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int a = 0; a < lz->nany && exact; a++)
		for (int32 r = net->rule_start[lz->any[a]]; r < net->rule_start[lz->any[a] + 1]; r++)
			lz->any_start[(net->literals[net->literal_start[r]] >> 1) + 1]++;
	for (int32 v = 0; v < net->nnodes; v++)
		lz->any_start[v + 1] += lz->any_start[v];
	lz->any_of = palloc_extended(Max(1, lz->any_start[net->nnodes]) * sizeof(int32), MCXT_ALLOC_HUGE);
	fill = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memcpy(fill, lz->any_start, net->nnodes * sizeof(int32));
	for (int a = 0; a < lz->nany && exact; a++)
		for (int32 r = net->rule_start[lz->any[a]]; r < net->rule_start[lz->any[a] + 1]; r++)
			lz->any_of[fill[net->literals[net->literal_start[r]] >> 1]++] = a;
	pfree(fill);
	pfree(live);
	pfree(asked);
	pfree(for_next);
	return exact;
}

LazyLegal *
lazy_legal_create(const Propnet *net, Size room)
{
	MemoryContext context,
				caller;
	LazyLegal  *lz;
	double	   *cost;
	bool	   *clocked;
	int		   *legal_role;
	int32	   *legal_readers;
	int64		nlazy = 0,
				n = 0;
	int			most_inputs = 0;

	if (net->prover != NULL)
		return NULL;
	context = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL lazy legality", ALLOCSET_DEFAULT_SIZES);
	caller = MemoryContextSwitchTo(context);
	lz = palloc0(sizeof(LazyLegal));
	lz->net = net;
	lz->context = context;
	lz->first_derived = net->nbase + net->ninputs;
	cost = cone_costs(net);
	clocked = reads_clock(net);
	legal_role = legal_roles(net);
	legal_readers = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	lz->lazy = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	/* how many legal rules read each node: LAZY_READERS */
	for (int32 v = 0; v < net->nnodes; v++)
		for (int32 r = net->rule_start[v]; legal_role[v] >= 0 && r < net->rule_start[v + 1]; r++)
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				legal_readers[net->literals[l] >> 1]++;
	lz->pseudo = *net;
	lz->pseudo.literal_start = palloc_extended((net->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	lz->pseudo.literals = palloc_extended(Max(1, net->literal_start[net->nrules]) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int32 v = 0; v < net->nnodes; v++)
		for (int32 r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
		{
			lz->pseudo.literal_start[r] = n;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			{
				int32		node = net->literals[l] >> 1;
				bool		costly = legal_role[v] >= 0 && v >= lz->first_derived &&
					node >= lz->first_derived && legal_role[node] < 0 && cost[node] >= LAZY_COST &&
					(legal_readers[node] < LAZY_READERS || of_facts(net, node)) &&
					!clocked[node];

				if (!costly)
					lz->pseudo.literals[n++] = net->literals[l];
				lz->lazy[v] |= costly;
				nlazy += costly;
			}
		}
	lz->pseudo.literal_start[net->nrules] = n;
	if (nlazy > 0)
		keep_distinct_rules(lz);
	lz->tainted = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	if (nlazy == 0 || !forward_fits(&lz->pseudo, room) || !readers_checked(lz, legal_role))
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(context);
		return NULL;
	}
	pfree(cost);
	pfree(clocked);
	pfree(legal_role);
	pfree(legal_readers);
	lz->seen = palloc_extended(Max(1, net->nnodes) * sizeof(uint32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int role = 0; role < net->nroles; role++)
		most_inputs = Max(most_inputs, net->role_inputs[role + 1] - net->role_inputs[role]);
	lz->candidates = palloc(Max(1, most_inputs) * sizeof(int32));
	lz->needs_fact = needed_facts(net);
	lz->confirmed = palloc0(Max(1, lz->nany) * sizeof(uint32));
	MemoryContextSwitchTo(caller);
	return lz;
}

void
lazy_legal_set_state(LazyLegal *lz, const uint64 *words)
{
	if (lz->forward == NULL)
	{
		MemoryContext caller = MemoryContextSwitchTo(lz->context);

		lz->forward = forward_create(&lz->pseudo);
		MemoryContextSwitchTo(caller);
		lz->values = forward_values(lz->forward);
	}
	forward_set_state(lz->forward, words);
	/* a new epoch forgets what was evaluated; epoch 0 is no state's */
	if (++lz->epoch > PG_INT32_MAX)
	{
		memset(lz->seen, 0, Max(1, lz->net->nnodes) * sizeof(uint32));
		memset(lz->confirmed, 0, Max(1, lz->nany) * sizeof(uint32));
		lz->epoch = 1;
	}
}

/*
 * Whether node's value under the whole rules in the state set is known
 * without its rules, into *value: a fact's; false when a fact that every
 * rule of node reads fails; the value evaluated before in this state; a
 * lazy legal node's false when its candidate fails; the forward value
 * where it is current and reads nothing lazy (asked last: it is a call).
 */
static inline bool
known(const LazyLegal *lz, int32 node, bool *value)
{
	int32		fact = lz->needs_fact[node];

	if (node < lz->first_derived)
		*value = lz->values[node];
	else if (fact >= 0 && !lz->values[fact])
		*value = false;
	else if ((lz->seen[node] >> 1) == lz->epoch)
		*value = lz->seen[node] & 1;
	else if (lz->tainted[node])
	{
		if (!lz->lazy[node] || lz->values[node])
			return false;
		*value = false;
	}
	else if (forward_current(lz->forward, node))
		*value = lz->values[node];
	else
		return false;
	return true;
}

/*
 * node's value under the whole rules in the state set; a rule's literals
 * known at once are looked at before any is evaluated from its own rules
 * (chess.kif's threats read the attacker's square before its line).
 */
static bool
holds(LazyLegal *lz, int32 node)
{
	const Propnet *net = lz->net;
	bool		result = false;

	if (known(lz, node, &result))
		return result;
	check_stack_depth();
	for (int32 r = net->rule_start[node]; r < net->rule_start[node + 1] && !result; r++)
	{
		int			first = net->literal_start[r],
					end = net->literal_start[r + 1],
					l;
		bool		value;

		for (l = first; l < end; l++)
			if (known(lz, net->literals[l] >> 1, &value) && value == (net->literals[l] & 1))
				break;
		if (l < end)
			continue;
		for (l = first; l < end; l++)
			if (holds(lz, net->literals[l] >> 1) == (net->literals[l] & 1))
				break;
		result = l == end;
	}
	lz->seen[node] = lz->epoch << 1 | result;
	return result;
}

bool
lazy_legal_pick(LazyLegal *lz, pg_prng_state *prng, int32 *actions)
{
	const Propnet *net = lz->net;

	lz->exact = true;
	for (int role = 0; role < net->nroles; role++)
	{
		int			n = forward_legal(lz->forward, role, lz->candidates);

		actions[role] = -1;
		while (n > 0)
		{
			int			k = (int) pg_prng_uint64_range(prng, 0, n - 1);
			int32		legal = net->input_legal[net->role_inputs[role] + lz->candidates[k]];
			if (!lz->lazy[legal] || holds(lz, legal))
			{
				actions[role] = lz->candidates[k];
				break;
			}
			lz->candidates[k] = lz->candidates[--n];
		}
		lz->exact &= actions[role] >= 0;
		if (actions[role] >= 0)
		{
			int32		legal = net->input_legal[net->role_inputs[role] + actions[role]];

			for (int32 e = lz->any_start[legal]; e < lz->any_start[legal + 1]; e++)
				lz->confirmed[lz->any_of[e]] = lz->epoch;
		}
	}
	/*
	 * an any node awake and holding forward, none of whose moves was drawn,
	 * may hold by candidates alone: what reads it is evaluated backward
	 */
	for (int a = 0; a < lz->nany && lz->exact; a++)
		if (lz->confirmed[a] != lz->epoch && forward_current(lz->forward, lz->any[a]) &&
			lz->values[lz->any[a]])
			lz->exact = holds(lz, lz->any[a]);
	return net->terminal < 0 || !(lz->exact ? lz->values[net->terminal] : holds(lz, net->terminal));
}

const uint64 *
lazy_legal_next(LazyLegal *lz, const int32 *inputs)
{
	return forward_next(lz->forward, inputs, lz->net->nroles);
}

void
lazy_legal_goals(LazyLegal *lz, int *goals)
{
	const Propnet *net = lz->net;

	if (lz->exact)
		forward_goals(lz->forward);
	for (int role = 0; role < net->nroles; role++)
		goals[role] = -1;
	for (int i = 0; i < net->ngoals; i++)
	{
		bool		on = lz->exact ? lz->values[net->goals[i].node] : holds(lz, net->goals[i].node);

		if (on)
			goals[net->goals[i].role] = Max(goals[net->goals[i].role], net->goals[i].value);
	}
}
