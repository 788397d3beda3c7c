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
 */
#include "postgres.h"

#include "gdl/propnet.h"
#include "miscadmin.h"

/* The literal (node << 1 | negated) that literal reads through copies. */
static inline int32
through(const int32 *original, int32 literal)
{
	int32		alias = original[literal >> 1];

	return alias < 0 ? literal : alias ^ (literal & 1);
}

void
propnet_fold_copies(Propnet *net)
{
	int			first_derived = net->nbase + net->ninputs;
	int32	   *original = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	bool	   *in_group = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	memset(original, 0xff, Max(1, net->nnodes) * sizeof(int32));
	for (int k = 0; k < (net->ngroups > 0 ? net->group_start[net->ngroups] : 0); k++)
		in_group[net->group_nodes[k]] = true;

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

			for (int r = rule; r < net->rule_start[node + 1]; r++)
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					net->literals[l] = through(original, net->literals[l]);
			if (!in_group[node] && net->rule_start[node + 1] == rule + 1 &&
				net->literal_start[rule + 1] == net->literal_start[rule] + 1 &&
				(net->literals[net->literal_start[rule]] >> 1) >= first_derived)
				original[node] = net->literals[net->literal_start[rule]];
		}
	}
	pfree(original);
	pfree(in_group);
}
