/*
 * cone.c: what a network's outputs depend on (propnet.h).
 *
 * Grounding instantiates every rule over every atom that can ever hold, so
 * a network carries nodes that no output reads: chineseCheckers3.kif's
 * 1.07 million ground rules hold 3,072 that terminal, legal, next or a goal
 * depend on.  The forward evaluation keeps counters for the cones alone,
 * but the rest was kept, stored and copied; pruning drops it.
 */
#include "postgres.h"

#include "gdl/propnet.h"
#include "miscadmin.h"

/*
 * Marks what the marked nodes depend on, walking the steps backwards (each
 * step comes after those it depends on; a cycle group is marked whole).
 */
static void
close_cone(const Propnet *net, bool *cone)
{
	for (int s = net->norder - 1; s >= 0; s--)
	{
		int32		step = net->order[s];
		int			first = step >= 0 ? 0 : net->group_start[-step - 1];
		int			last = step >= 0 ? 1 : net->group_start[-step];
		bool		marked = false;

		CHECK_FOR_INTERRUPTS();
		for (int k = first; k < last; k++)
			marked |= cone[step >= 0 ? step : net->group_nodes[k]];
		if (!marked)
			continue;
		for (int k = first; k < last; k++)
		{
			int32		node = step >= 0 ? step : net->group_nodes[k];

			cone[node] = true;
			for (int r = net->rule_start[node]; r < net->rule_start[node + 1]; r++)
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					cone[net->literals[l] >> 1] = true;
		}
	}
}

bool *
propnet_cone(const Propnet *net, int outputs)
{
	bool	   *cone = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	if ((outputs & CONE_TERMINAL) && net->terminal >= 0)
		cone[net->terminal] = true;
	for (int i = 0; (outputs & CONE_LEGAL) && i < net->ninputs; i++)
		if (net->input_legal[i] >= 0)
			cone[net->input_legal[i]] = true;
	for (int b = 0; (outputs & CONE_NEXT) && b < net->nbase; b++)
		if (net->base_next[b] >= 0)
			cone[net->base_next[b]] = true;
	for (int i = 0; (outputs & CONE_GOALS) && i < net->ngoals; i++)
		cone[net->goals[i].node] = true;
	close_cone(net, cone);
	return cone;
}

static int32
renumbered(const int32 *number, int32 node)
{
	return node < 0 ? node : number[node];
}

void
propnet_renumber_outputs(Propnet *net, const int32 *number)
{
	for (int i = 0; i < net->ninputs; i++)
		net->input_legal[i] = renumbered(number, net->input_legal[i]);
	for (int b = 0; b < net->nbase; b++)
		net->base_next[b] = renumbered(number, net->base_next[b]);
	net->terminal = renumbered(number, net->terminal);
	for (int i = 0; i < net->ngoals; i++)
		net->goals[i].node = number[net->goals[i].node];
}

void
propnet_prune(Propnet *net)
{
	bool	   *keep = propnet_cone(net, CONE_TERMINAL | CONE_LEGAL | CONE_NEXT | CONE_GOALS);
	int			first_derived = net->nbase + net->ninputs;
	int32	   *number = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *group_number = palloc(Max(1, net->ngroups) * sizeof(int32));
	int			nnodes = 0,
				nrules = 0,
				nliterals = 0,
				norder = 0,
				ngroups = 0,
				ngroup_nodes = 0;

	/* the facts and actions stay: they are the state's bits and the moves */
	for (int v = 0; v < net->nnodes; v++)
		number[v] = v < first_derived || keep[v] ? nnodes++ : -1;
	if (nnodes == net->nnodes)
		return;

	/* in place: each array is written no faster than it is read */
	for (int v = 0; v < net->nnodes; v++)
	{
		int			first = net->rule_start[v],
					end = net->rule_start[v + 1];

		CHECK_FOR_INTERRUPTS();
		if (number[v] < 0)
			continue;
		net->rule_start[number[v]] = nrules;
		for (int r = first; r < end; r++)
		{
			int			lfirst = net->literal_start[r],
						lend = net->literal_start[r + 1];

			net->literal_start[nrules++] = nliterals;
			for (int l = lfirst; l < lend; l++)
				net->literals[nliterals++] = number[net->literals[l] >> 1] << 1 | (net->literals[l] & 1);
		}
	}
	net->rule_start[nnodes] = nrules;
	net->literal_start[nrules] = nliterals;

	/* a group is kept or dropped whole */
	for (int g = 0; g < net->ngroups; g++)
	{
		int			first = net->group_start[g],
					end = net->group_start[g + 1];

		group_number[g] = keep[net->group_nodes[first]] ? ngroups : -1;
		if (group_number[g] < 0)
			continue;
		net->group_start[ngroups++] = ngroup_nodes;
		for (int k = first; k < end; k++)
			net->group_nodes[ngroup_nodes++] = number[net->group_nodes[k]];
	}
	net->group_start[ngroups] = ngroup_nodes;
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];

		if (step >= 0 ? number[step] >= 0 : group_number[-step - 1] >= 0)
			net->order[norder++] = step >= 0 ? number[step] : -(group_number[-step - 1] + 1);
	}

	propnet_renumber_outputs(net, number);
	net->nnodes = nnodes;
	net->nrules = nrules;
	net->norder = norder;
	net->ngroups = ngroups;
	pfree(keep);
	pfree(number);
	pfree(group_number);
}

void
propnet_mark_readers(const Propnet *net, bool *marked)
{
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];
		int			first = step >= 0 ? 0 : net->group_start[-step - 1];
		int			last = step >= 0 ? 1 : net->group_start[-step];
		bool		any = false;

		for (int k = first; k < last; k++)
		{
			int32		node = step >= 0 ? step : net->group_nodes[k];

			for (int l = net->literal_start[net->rule_start[node]]; l < net->literal_start[net->rule_start[node + 1]]; l++)
				any |= marked[net->literals[l] >> 1];
		}
		for (int k = first; k < last; k++)
			marked[step >= 0 ? step : net->group_nodes[k]] = any;
	}
}

bool *
propnet_move_dependent(const Propnet *net)
{
	bool	   *moves = palloc0(Max(1, net->nnodes) * sizeof(bool));

	for (int i = net->nbase; i < net->nbase + net->ninputs; i++)
		moves[i] = true;
	propnet_mark_readers(net, moves);
	return moves;
}

double *
propnet_cone_costs(const Propnet *net, const bool *counted)
{
	double	   *cost = palloc_extended(Max(1, net->nnodes) * sizeof(double), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int s = 0; s < net->norder; s++)
	{
		int32		node = net->order[s];

		if (node < 0 || !counted[node])
			continue;
		for (int32 r = net->rule_start[node]; r < net->rule_start[node + 1]; r++)
		{
			cost[node] += 1;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				cost[node] += cost[net->literals[l] >> 1];
		}
	}
	return cost;
}

bool *
propnet_clock_facts(const Propnet *net, const bool *moves)
{
	bool	   *clock = palloc0(Max(1, net->nbase) * sizeof(bool));

	for (int32 b = 0; b < net->nbase; b++)
		clock[b] = net->base_next[b] >= 0 && !moves[net->base_next[b]];
	return clock;
}
