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
 *
 * Such a set is most of a role's moves (a cell's set: every move that
 * leaves the cell alone), so a move is in dozens of sets and a change of
 * move reaches them all.  Exactly one action of a role is done when a move
 * is made, so a set's actions of role R are also "one of U is done and
 * none of U minus the set", U the union of R's large sets: the node reads
 * a node for U and one for the few actions left out, and a change between
 * two moves of R reaches the sets of the cells they touch alone
 * (breakthrough.kif: 4 sets, not 124).
 */
#include "postgres.h"

#include "gdl/intsets.h"
#include "gdl/propnet.h"
#include "miscadmin.h"

/* A rule of one head, and the action it is split on. */
typedef struct SplitRule
{
	int32		rule;
	int32		action;			/* where its action literal is in net->literals, or -1: none */
} SplitRule;

/* Rules as they are written out: literals per rule, growing. */
typedef struct RuleArrays
{
	int32	   *literal_start;	/* per rule + 1 */
	int32	   *literals;
	int			nrules;
	int			nliterals;
	int			rule_room;		/* of literal_start, less the end */
	int			literal_room;
} RuleArrays;

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

/* Appends a rule of n literals. */
static void
add_rule(RuleArrays *rules, const int32 *literals, int n)
{
	if (rules->nrules + 1 > rules->rule_room)
	{
		rules->rule_room = 2 * rules->rule_room + 1;
		rules->literal_start = repalloc_huge(rules->literal_start, (rules->rule_room + 1) * sizeof(int32));
	}
	if (rules->nliterals + n > rules->literal_room)
	{
		rules->literal_room = Max(2 * rules->literal_room, rules->nliterals + n);
		rules->literals = repalloc_huge(rules->literals, rules->literal_room * sizeof(int32));
	}
	rules->literal_start[rules->nrules++] = rules->nliterals;
	memcpy(rules->literals + rules->nliterals, literals, n * sizeof(int32));
	rules->nliterals += n;
}

/* The role whose action input node is. */
static int
input_role(const Propnet *net, int32 node)
{
	int			role = 0;

	while (node - net->nbase >= net->role_inputs[role + 1])
		role++;
	return role;
}

/* Where the run of one role's actions that starts at first ends (a set is sorted: a role's actions are a run). */
static int
role_run_end(const Propnet *net, const int32 *actions, int first, int end)
{
	int			role = input_role(net, actions[first]);
	int			k = first;

	while (k < end && actions[k] - net->nbase < net->role_inputs[role + 1])
		k++;
	return k;
}

/* Whether a run of n of a role's actions is large: more than half its inputs. */
static bool
large_run(const Propnet *net, int role, int n)
{
	return 2 * n > net->role_inputs[role + 1] - net->role_inputs[role];
}

/* Per input: in a large run of some set (for each role, U in the comment above). */
static bool *
union_of_large_sets(const Propnet *net, const IntSets *sets)
{
	bool	   *in_union = palloc0(Max(1, net->ninputs) * sizeof(bool));

	for (int s = 0; s < sets->n; s++)
		for (int k = sets->start[s], end; k < sets->start[s + 1]; k = end)
		{
			end = role_run_end(net, sets->members, k, sets->start[s + 1]);
			if (large_run(net, input_role(net, sets->members[k]), end - k))
				for (int i = k; i < end; i++)
					in_union[sets->members[i] - net->nbase] = true;
		}
	return in_union;
}

/*
 * The rules of set s's node: per role, a rule per action, or, for a large
 * run (in_union not NULL), U and not the actions of U outside the run,
 * when those are fewer; *complemented: some run was.
 */
static void
set_rules(const Propnet *net, IntSets *sets, int s, const bool *in_union, int nold,
		  RuleArrays *rules, bool *complemented)
{
	int32	   *left_out = palloc(Max(1, net->ninputs) * sizeof(int32));
	int32	   *all = palloc(Max(1, net->ninputs) * sizeof(int32));
	bool	   *in_run = palloc0(Max(1, net->ninputs) * sizeof(bool));

	/* sets->members moves as sets are made: positions, not pointers */
	for (int k = sets->start[s], end; k < sets->start[s + 1]; k = end)
	{
		int			role = input_role(net, sets->members[k]);
		int			nall = 0,
					nleft = 0;
		int32		literals[2];
		int32		u;

		end = role_run_end(net, sets->members, k, sets->start[s + 1]);
		if (in_union != NULL && large_run(net, role, end - k))
		{
			for (int i = k; i < end; i++)
				in_run[sets->members[i] - net->nbase] = true;
			for (int i = net->role_inputs[role]; i < net->role_inputs[role + 1]; i++)
				if (in_union[i])
				{
					all[nall++] = net->nbase + i;
					if (!in_run[i])
						left_out[nleft++] = net->nbase + i;
				}
			for (int i = k; i < end; i++)
				in_run[sets->members[i] - net->nbase] = false;
		}
		/* U itself, or not worth it: an action a rule */
		if (nall == 0 || nleft >= end - k ||
			(u = intsets_add(sets, all, nall)) == s)
		{
			for (int i = k; i < end; i++)
			{
				literals[0] = sets->members[i] << 1;
				add_rule(rules, literals, 1);
			}
			continue;
		}
		literals[0] = (nold + u) << 1;
		if (nleft == 0)
			add_rule(rules, literals, 1);
		else
		{
			literals[1] = (nleft == 1 ? left_out[0] : nold + intsets_add(sets, left_out, nleft)) << 1 | 1;
			add_rule(rules, literals, 2);
		}
		*complemented = true;
	}
	pfree(left_out);
	pfree(all);
	pfree(in_run);
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
	int32	   *actions;
	int			most_rules = 1;
	IntSets		sets;
	RuleArrays	rules;
	int			nrules = 0,
				nliterals = 0,
				nsets;
	bool	   *complemented;
	bool	   *in_union;
	int32	   *order;

	/*
	 * a run of rules may repeat an action (a variable of static literals
	 * alone makes copies of a rule): room for every rule of a head
	 */
	for (int v = 0; v < nold; v++)
		most_rules = Max(most_rules, net->rule_start[v + 1] - net->rule_start[v]);
	actions = palloc_extended(most_rules * sizeof(int32), MCXT_ALLOC_HUGE);
	intsets_init(&sets);
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
				/* the same action twice is one rule written twice */
				nactions = intsets_sort_unique(actions, nactions);
				/* the set's node is numbered after the others': a placeholder till then */
				literals[nliterals++] = nactions == 1 ? actions[0] << 1 :
					-(intsets_add(&sets, actions, nactions) + 1);
			}
			nrules++;
			i += run;
		}
	}
	rule_start[nold] = nrules;

	rules.literal_start = literal_start;
	rules.literals = literals;
	rules.nrules = nrules;
	rules.nliterals = nliterals;
	rules.rule_room = net->nrules;
	rules.literal_room = Max(1, net->literal_start[net->nrules]);
	for (int l = 0; l < nliterals; l++)
		if (literals[l] < 0)
			literals[l] = (nold - literals[l] - 1) << 1;

	/*
	 * Pass 2: the set nodes after the others, their rules after the
	 * others'; the sets made here (the unions and complements) come last
	 * and are never complemented themselves.
	 */
	nsets = sets.n;
	complemented = palloc0(Max(1, nsets) * sizeof(bool));
	in_union = union_of_large_sets(net, &sets);
	for (int s = 0, room = 0; s < sets.n; s++)
	{
		if (s + 1 >= room)
		{
			room = Max(2 * room, nsets + 64);
			rule_start = repalloc_huge(rule_start, (nold + room + 1) * sizeof(int32));
		}
		rule_start[nold + s] = rules.nrules;
		set_rules(net, &sets, s, s < nsets ? in_union : NULL, nold, &rules,
				  s < nsets ? &complemented[s] : NULL);
	}
	net->nnodes = nold + sets.n;
	rule_start[net->nnodes] = rules.nrules;
	rules.literal_start[rules.nrules] = rules.nliterals;

	/*
	 * the set nodes go first, those that read actions alone before those
	 * that read other sets
	 */
	order = palloc_extended(Max(1, sets.n + net->norder) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int pass = 0, k = 0; pass < 2; pass++)
		for (int s = 0; s < sets.n; s++)
			if ((s < nsets && complemented[s]) == (pass == 1))
				order[k++] = nold + s;
	memcpy(order + sets.n, net->order, net->norder * sizeof(int32));
	net->order = order;
	net->norder += sets.n;
	net->rule_start = rule_start;
	net->literal_start = rules.literal_start;
	net->literals = rules.literals;
	net->nrules = rules.nrules;
	pfree(split);
	pfree(actions);
	pfree(complemented);
	pfree(in_union);
	intsets_free(&sets);
}
