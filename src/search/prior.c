/*
 * prior.c: what a stored tree knows of the root's moves (search.h).
 */
#include "postgres.h"

#include "search/search.h"

const SearchPrior *
search_prior(const SearchLimits *limits, GameMove move)
{
	for (int i = 0; i < limits->nprior; i++)
		if (limits->prior[i].move == move)
			return &limits->prior[i];
	return NULL;
}

/* A root move's stored utility for role; halfway between the goals when none is known. */
static double
prior_utility(const SearchLimits *limits, GameMove move, int role)
{
	const SearchPrior *prior = search_prior(limits, move);

	return prior != NULL && prior->value.known ? prior->value.utility[role] :
		(GT_GOAL_MIN + GT_GOAL_MAX) / 2.0;
}

void
search_order_by_prior(const SearchLimits *limits, RootMove *moves, int n, int role)
{
	for (int i = 1; i < n && limits->nprior > 0; i++)
	{
		RootMove	m = moves[i];
		double		utility = prior_utility(limits, m.move, role);
		int			j = i;

		for (; j > 0 && prior_utility(limits, moves[j - 1].move, role) < utility; j--)
			moves[j] = moves[j - 1];
		moves[j] = m;
	}
}
