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

double
search_prior_utility(const SearchLimits *limits, GameMove move, int role)
{
	const SearchPrior *prior = search_prior(limits, move);

	return prior != NULL && prior->value.known ? prior->value.utility[role] :
		(GT_GOAL_MIN + GT_GOAL_MAX) / 2.0;
}
