/*
 * factor.c: rules that differ only in their action, merged (propnet.h).
 *
 * GDL writes what a move leaves alone once per move: breakthrough.kif's
 *   (<= (next (cellHolds ?x3 ?y3 ?state)) (true (cellHolds ?x3 ?y3 ?state))
 *       (does ?player (move ?x1 ?y1 ?x2 ?y2)) (distinctCell ...) ...)
 * grounds to a rule per cell and per move that does not touch the cell,
 * 38,500 rules, and a change of a cell reaches hundreds of them.  The rules
 * of one head whose other literals are the same become one rule,
 *   head :- others, A
 * where A is a new node that holds when one of their actions is done
 * (A :- does ...; one rule per action), shared by every head that has the
 * same set of actions.  The same logic in far fewer rules (checkers.kif:
 * 264,881 ground rules, 51,037 after), and a move touches the A nodes of
 * its action.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "gdl/propnet.h"
#include "miscadmin.h"

/* A rule of one head, and the action it is split on. */
typedef struct SplitRule
{
	int32		rule;
	int32		action;			/* where its action literal is in net->literals, or -1: none */
} SplitRule;

/* The action-set nodes made, by their sorted actions (open addressing). */
typedef struct ActionSets
{
	int32	   *slots;			/* per slot: a set, or -1 */
	int			size;
	int			n;
	int32	   *start;			/* per set + 1, into actions */
	int32	   *actions;		/* input nodes */
	int			nactions;
	int			capacity;		/* of actions */
	int			sets_capacity;	/* of start */
} ActionSets;

static const Propnet *sort_net;

/* The first positive action literal of a rule, or -1. */
static int32
action_literal(const Propnet *net, int32 rule)
{
	for (int l = net->literal_start[rule]; l < net->literal_start[rule + 1]; l++)
	{
		int32		node = net->literals[l] >> 1;

		if ((net->literals[l] & 1) == 0 && node >= net->nbase && node < net->nbase + net->ninputs)
			return l;
	}
	return -1;
}

/*
 * Orders rules by whether they have an action, then by their literals
 * other than it; 0 for rules that differ in their action alone.
 */
static int
compare_others(const Propnet *net, const SplitRule *x, const SplitRule *y)
{
	int			lx = net->literal_start[x->rule],
				ly = net->literal_start[y->rule];
	int			ex = net->literal_start[x->rule + 1],
				ey = net->literal_start[y->rule + 1];

	if ((x->action < 0) != (y->action < 0))
		return x->action < 0 ? -1 : 1;
	if (ex - lx != ey - ly)
		return ex - lx < ey - ly ? -1 : 1;
	/* the same length, one literal skipped in each: they stay in step */
	for (;; lx++, ly++)
	{
		if (lx == x->action)
			lx++;
		if (ly == y->action)
			ly++;
		if (lx >= ex)
			return 0;
		if (net->literals[lx] != net->literals[ly])
			return net->literals[lx] < net->literals[ly] ? -1 : 1;
	}
}

static int
compare_split_rules(const void *a, const void *b)
{
	const SplitRule *x = a,
			   *y = b;
	int			c = compare_others(sort_net, x, y);

	return c != 0 ? c : x->rule < y->rule ? -1 : x->rule > y->rule;
}

static int
compare_int32(const void *a, const void *b)
{
	int32		x = *(const int32 *) a,
				y = *(const int32 *) b;

	return x < y ? -1 : x > y;
}

/* The index of the set of n sorted actions, made if new. */
static int32
action_set(ActionSets *sets, const int32 *actions, int n)
{
	uint32		hash = hash_bytes((const unsigned char *) actions, n * sizeof(int32));
	int			i = hash & (sets->size - 1);

	for (; sets->slots[i] >= 0; i = (i + 1) & (sets->size - 1))
	{
		int32		s = sets->slots[i];

		if (sets->start[s + 1] - sets->start[s] == n &&
			memcmp(sets->actions + sets->start[s], actions, n * sizeof(int32)) == 0)
			return s;
	}
	if (sets->nactions + n > sets->capacity)
	{
		sets->capacity = Max(2 * sets->capacity, sets->nactions + n);
		sets->actions = repalloc_huge(sets->actions, sets->capacity * sizeof(int32));
	}
	if (sets->n + 2 > sets->sets_capacity)
	{
		sets->sets_capacity *= 2;
		sets->start = repalloc_huge(sets->start, sets->sets_capacity * sizeof(int32));
	}
	memcpy(sets->actions + sets->nactions, actions, n * sizeof(int32));
	sets->nactions += n;
	sets->start[sets->n + 1] = sets->nactions;
	sets->slots[i] = sets->n;
	return sets->n++;
}

void
propnet_factor_actions(Propnet *net)
{
	int			nold = net->nnodes;
	int32	   *rule_start = palloc_extended((nold + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literal_start = palloc_extended((net->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literals = palloc_extended(Max(1, net->literal_start[net->nrules]) * sizeof(int32),
										   MCXT_ALLOC_HUGE);
	SplitRule  *split = palloc_extended(Max(1, net->nrules) * sizeof(SplitRule), MCXT_ALLOC_HUGE);
	int32	   *actions = palloc(Max(1, net->ninputs) * sizeof(int32));
	ActionSets	sets = {0};
	int			nrules = 0,
				nliterals = 0;
	int32	   *order;

	/* at most one set per rule; the table stays under half full */
	sets.size = 64;
	while (sets.size < 2 * net->nrules)
		sets.size *= 2;
	sets.slots = palloc_extended(sets.size * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(sets.slots, 0xff, sets.size * sizeof(int32));
	sets.sets_capacity = 64;
	sets.start = palloc0(sets.sets_capacity * sizeof(int32));
	sets.capacity = 64;
	sets.actions = palloc(sets.capacity * sizeof(int32));
	sort_net = net;

	/*
	 * Pass 1: per head, its rules sorted by their other literals; a run of
	 * equal ones becomes one rule whose last literal stands for its actions.
	 */
	for (int v = 0; v < nold; v++)
	{
		int			first = net->rule_start[v],
					n = net->rule_start[v + 1] - first;

		CHECK_FOR_INTERRUPTS();
		rule_start[v] = nrules;
		for (int i = 0; i < n; i++)
		{
			split[i].rule = first + i;
			split[i].action = action_literal(net, first + i);
		}
		qsort(split, n, sizeof(SplitRule), compare_split_rules);
		for (int i = 0; i < n;)
		{
			int			run = 1;
			int32		r = split[i].rule;

			while (split[i].action >= 0 && i + run < n && compare_others(net, &split[i], &split[i + run]) == 0)
				run++;
			literal_start[nrules] = nliterals;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				if (run == 1 || l != split[i].action)
					literals[nliterals++] = net->literals[l];
			if (run > 1)
			{
				int			nactions = 0;

				for (int k = 0; k < run; k++)
					actions[nactions++] = net->literals[split[i + k].action] >> 1;
				qsort(actions, run, sizeof(int32), compare_int32);
				/* the same action twice is one rule written twice */
				nactions = 0;
				for (int k = 0; k < run; k++)
					if (nactions == 0 || actions[k] != actions[nactions - 1])
						actions[nactions++] = actions[k];
				/* the set's node is numbered after the others': a placeholder till then */
				literals[nliterals++] = nactions == 1 ? actions[0] << 1 :
					-(action_set(&sets, actions, nactions) + 1);
			}
			nrules++;
			i += run;
		}
	}
	rule_start[nold] = nrules;

	/* Pass 2: the set nodes after the others, their rules after the others' */
	net->nnodes = nold + sets.n;
	rule_start = repalloc_huge(rule_start, (net->nnodes + 1) * sizeof(int32));
	literal_start = repalloc_huge(literal_start, (nrules + sets.nactions + 1) * sizeof(int32));
	literals = repalloc_huge(literals, Max(1, nliterals + sets.nactions) * sizeof(int32));
	for (int l = 0; l < nliterals; l++)
		if (literals[l] < 0)
			literals[l] = (nold - literals[l] - 1) << 1;
	for (int s = 0; s < sets.n; s++)
	{
		rule_start[nold + s] = nrules;
		for (int k = sets.start[s]; k < sets.start[s + 1]; k++)
		{
			literal_start[nrules++] = nliterals;
			literals[nliterals++] = sets.actions[k] << 1;
		}
	}
	rule_start[net->nnodes] = nrules;
	literal_start[nrules] = nliterals;

	/* the set nodes read actions alone: they go first */
	order = palloc_extended(Max(1, sets.n + net->norder) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int s = 0; s < sets.n; s++)
		order[s] = nold + s;
	memcpy(order + sets.n, net->order, net->norder * sizeof(int32));
	net->order = order;
	net->norder += sets.n;
	net->rule_start = rule_start;
	net->literal_start = literal_start;
	net->literals = literals;
	net->nrules = nrules;
	pfree(split);
	pfree(actions);
}
