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

/* What prior_ahead compares root moves by. */
typedef struct PriorOrder
{
	const SearchLimits *limits;
	int			role;
} PriorOrder;

/* Is root move a's stored utility for the role higher than b's? */
static bool
prior_ahead(const RootMove *a, const RootMove *b, const void *arg)
{
	const PriorOrder *order = arg;

	return prior_utility(order->limits, b->move, order->role) <
		prior_utility(order->limits, a->move, order->role);
}

void
search_order_by_prior(const SearchLimits *limits, RootMove *moves, int n, int role)
{
	PriorOrder	order = {limits, role};

	if (limits->nprior > 0)
		search_order_root_moves(moves, n, prior_ahead, &order);
}
