/*
 * copies.c: nodes that copy another, read through (propnet.h).
 *
 * Grounding leaves many derived nodes whose one rule reads one literal:
 * (<= (pawn_moved ?p) (piece_moved ?p)) gives a node per atom that only
 * repeats another, or negates it.  A flip of the original then takes two
 * steps of forward propagation, one to the copy and one to its readers.
 * Each reader of a copy reads the original instead (its negation composed):
 * a copy that is no output is then read by nothing, and pruning drops it;
 * one that is (a legal, next, terminal or goal node) stays, read by no
 * rule.  Copies of a fact or an action stay: read through, the fact gains
 * their readers, and forward propagation then picks other literals to
 * trigger rules by (forward.c); pacman3p.kif's perft was 2-3% slower.
 *
 * A node whose rules are those of a node before it (its literals read
 * through first) is a copy of that node too.  Grounding makes them where
 * an argument changes nothing: chess.kif's line walks that ignore a square
 * are ground once per square ignored, (clear_row_ig a 1 h 1 c 5) and
 * (clear_row_ig a 1 h 1 d 5) have the same rules, and so, read through,
 * do the threats and legal moves built on them; a move then flips one node
 * of each, not one per square ignored.
 */
#include "postgres.h"

#include "gdl/intsets.h"
#include "gdl/propnet.h"
#include "miscadmin.h"

/* The literal (node << 1 | negated) that literal reads through copies. */
static inline int32
through(const int32 *original, int32 literal)
{
	int32		alias = original[literal >> 1];

	return alias < 0 ? literal : alias ^ (literal & 1);
}

/* Room for n int32 in *buffer of *room, grown by doubling. */
static int32 *
room_for(int32 **buffer, int *room, int n)
{
	if (n > *room)
	{
		*room = Max(2 * *room, n);
		*buffer = repalloc_huge(*buffer, *room * sizeof(int32));
	}
	return *buffer;
}

/* Scratch arrays of definition_of, grown as needed. */
typedef struct Scratch
{
	int32	   *rule_ids;
	int			rule_ids_room;
	int32	   *literals;
	int			literals_room;
} Scratch;

/*
 * The number of node's rules as a set (in definitions): each rule a set of
 * literals (in rules), so that two nodes of the same rules in any order,
 * with any repeats, are one definition.  rule_set[r]: the number of rule
 * r's set.
 */
static int32
definition_of(const Propnet *net, int32 node, IntSets *rules, IntSets *definitions,
			  int32 *rule_set, Scratch *scratch)
{
	int			n = 0;

	room_for(&scratch->rule_ids, &scratch->rule_ids_room,
			 net->rule_start[node + 1] - net->rule_start[node]);
	for (int r = net->rule_start[node]; r < net->rule_start[node + 1]; r++)
	{
		int			nliterals = net->literal_start[r + 1] - net->literal_start[r];
		int32	   *literals = room_for(&scratch->literals, &scratch->literals_room, nliterals);

		memcpy(literals, net->literals + net->literal_start[r], nliterals * sizeof(int32));
		rule_set[r] = intsets_add(rules, literals, intsets_sort_unique(literals, nliterals));
		scratch->rule_ids[n++] = rule_set[r];
	}
	return intsets_add(definitions, scratch->rule_ids, intsets_sort_unique(scratch->rule_ids, n));
}

/*
 * Lays the rules out again, in place, without the rules of a node that
 * repeat one before them (of the same set: rule_set, -1 for a rule of a
 * cycle group or a copy, kept as it is) and the literals of a rule that
 * repeat one before them: read through, a rule may repeat either, which
 * forward propagation would count twice for nothing.  The literals keep
 * their order, which forward.c's choice of a rule's trigger reads.
 */
static void
drop_repeats(Propnet *net, const int32 *rule_set, const IntSets *rules)
{
	int32	   *last_node = palloc_extended(Max(1, rules->n) * sizeof(int32), MCXT_ALLOC_HUGE);
	/* per literal (node << 1 | negated): the last rule it was in */
	int32	   *last_rule = palloc_extended(Max(1, 2 * net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int			nrules = 0,
				nliterals = 0;

	memset(last_node, 0xff, Max(1, rules->n) * sizeof(int32));
	memset(last_rule, 0xff, Max(1, 2 * net->nnodes) * sizeof(int32));
	/* each array is written no faster than it is read */
	for (int v = 0; v < net->nnodes; v++)
	{
		int			first = net->rule_start[v],
					end = net->rule_start[v + 1];

		CHECK_FOR_INTERRUPTS();
		net->rule_start[v] = nrules;
		for (int r = first; r < end; r++)
		{
			int32		set = rule_set[r];
			int			lfirst = net->literal_start[r],
						lend = net->literal_start[r + 1];

			if (set >= 0 && last_node[set] == v)
				continue;
			if (set >= 0)
				last_node[set] = v;
			net->literal_start[nrules] = nliterals;
			for (int l = lfirst; l < lend; l++)
			{
				int32		literal = net->literals[l];

				if (last_rule[literal] == r && set >= 0)
					continue;
				last_rule[literal] = r;
				net->literals[nliterals++] = literal;
			}
			nrules++;
		}
	}
	net->rule_start[net->nnodes] = nrules;
	net->literal_start[nrules] = nliterals;
	net->nrules = nrules;
	pfree(last_node);
	pfree(last_rule);
}

void
propnet_fold_copies(Propnet *net)
{
	int			first_derived = net->nbase + net->ninputs;
	int32	   *original = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	bool	   *in_group = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	IntSets		rules,
				definitions;
	/* per definition: the first node of it */
	int32	   *defined_by = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *rule_set = palloc_extended((net->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	Scratch		scratch = {.rule_ids = palloc(64 * sizeof(int32)),.rule_ids_room = 64,
	.literals = palloc(64 * sizeof(int32)),.literals_room = 64};

	memset(original, 0xff, Max(1, net->nnodes) * sizeof(int32));
	memset(rule_set, 0xff, (net->nrules + 1) * sizeof(int32));
	for (int k = 0; k < (net->ngroups > 0 ? net->group_start[net->ngroups] : 0); k++)
		in_group[net->group_nodes[k]] = true;
	intsets_init(&rules);
	intsets_init(&definitions);

	/*
	 * In dependency order, a node's literals are read through the copies
	 * before it, so a chain of copies folds into its first original.  A
	 * cycle group's nodes read through too, but are not folded: their
	 * values are a fixpoint of the group, not a copy of a node before.
	 */
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];
		int			first = step >= 0 ? 0 : net->group_start[-step - 1];
		int			last = step >= 0 ? 1 : net->group_start[-step];

		CHECK_FOR_INTERRUPTS();
		for (int k = first; k < last; k++)
		{
			int32		node = step >= 0 ? step : net->group_nodes[k];
			int			rule = net->rule_start[node];
			int32		definition;
			int			known;

			for (int r = rule; r < net->rule_start[node + 1]; r++)
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					net->literals[l] = through(original, net->literals[l]);
			if (in_group[node])
				continue;
			if (net->rule_start[node + 1] == rule + 1 &&
				net->literal_start[rule + 1] == net->literal_start[rule] + 1)
			{
				if ((net->literals[net->literal_start[rule]] >> 1) >= first_derived)
					original[node] = net->literals[net->literal_start[rule]];
				continue;
			}
			known = definitions.n;
			definition = definition_of(net, node, &rules, &definitions, rule_set, &scratch);
			if (definition == known)
				defined_by[definition] = node;
			else
				original[node] = defined_by[definition] << 1;
		}
	}
	drop_repeats(net, rule_set, &rules);
	intsets_free(&rules);
	intsets_free(&definitions);
	pfree(rule_set);
	pfree(scratch.rule_ids);
	pfree(scratch.literals);
	pfree(defined_by);
	pfree(original);
	pfree(in_group);
}
