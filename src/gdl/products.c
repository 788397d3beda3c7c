/*
 * products.c: rules that are every pairing of some bodies with some
 * literals, factored (propnet.h).
 *
 * A counter that GDL increments under a condition grounds to a rule per
 * value of the counter and per way the condition holds: pacman3p.kif's
 *   (<= (next (collected ?n1)) (true (location pacman ?x1 ?y1))
 *       (does pacman (move ?dir)) (nextCell ?dir ?x1 ?y1 ?x2 ?y2)
 *       (true (location pellet ?x2 ?y2)) (true (collected ?n)) (succ ?n ?n1))
 * is a rule for each of 101 counts and each of 195 ways pacman moves onto
 * a pellet, 19,695 rules (its rule for a move onto no pellet 14,900 more),
 * and a change of the count reaches 195 of them.  Rules h_j :- B_i, l_j
 * for every body B_i of a set and every pair (h_j, l_j) of another become
 *   X :- B_i     (one rule per body)
 *   h_j :- X, l_j (one rule per pair)
 * where X is a new node: the same logic in |B| + |pairs| rules, not their
 * product (pacman3p.kif: 48,737 rules, 14,289 after).
 *
 * Found from the rules' literals alone: each rule, one literal left out,
 * is a body; bodies equal as sets of literals are one body, with the pairs
 * (head, literal left out) of the rules it came from; bodies with the
 * same pairs are one product.  Products are taken largest first, a rule
 * in one product at most.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "gdl/propnet.h"
#include "miscadmin.h"


/* A product is worth a new node when it saves this many rules and halves them. */
#define PRODUCTS_MIN_SAVED 8

/* A rule with one literal left out (skip: its position among the rule's sorted literals). */
typedef struct Body
{
	uint64		hash;			/* of the literals but the one left out */
	int32		rule;
	int32		skip;
	int32		head;
	int32		left_out;		/* the literal */
	int32		body;			/* the distinct body it is, once numbered */
} Body;

/* A distinct body, and its pairs: bodies [first, end) of the sorted array. */
typedef struct BodyGroup
{
	uint64		pairs_hash;
	int32		first;
	int32		end;
	bool		taken;
} BodyGroup;

static const int32 *sorted_literals;
static const int32 *sorted_start;

static int
compare_int32(const void *a, const void *b)
{
	int32		x = *(const int32 *) a,
				y = *(const int32 *) b;

	return x < y ? -1 : x > y;
}

/* Compares the literals of two bodies, each less its left-out literal. */
static int
compare_literals(const Body *x, const Body *y)
{
	int			lx = sorted_start[x->rule],
				ly = sorted_start[y->rule],
				ex = sorted_start[x->rule + 1],
				ey = sorted_start[y->rule + 1];

	if (ex - lx != ey - ly)
		return ex - lx < ey - ly ? -1 : 1;
	for (int i = 0, j = 0;; i++, j++)
	{
		if (i == x->skip)
			i++;
		if (j == y->skip)
			j++;
		if (lx + i >= ex)
			return 0;
		if (sorted_literals[lx + i] != sorted_literals[ly + j])
			return sorted_literals[lx + i] < sorted_literals[ly + j] ? -1 : 1;
	}
}

/* By body, then by pair: a body's pairs in order. */
static int
compare_bodies(const void *a, const void *b)
{
	const Body *x = a,
			   *y = b;
	int			c;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if ((c = compare_literals(x, y)) != 0)
		return c;
	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return x->left_out < y->left_out ? -1 : x->left_out > y->left_out;
}

static const Body *group_bodies;

/* Whether two distinct bodies have the same pairs. */
static int
compare_pairs(const BodyGroup *x, const BodyGroup *y)
{
	if (x->pairs_hash != y->pairs_hash)
		return x->pairs_hash < y->pairs_hash ? -1 : 1;
	if (x->end - x->first != y->end - y->first)
		return x->end - x->first < y->end - y->first ? -1 : 1;
	for (int k = 0; k < x->end - x->first; k++)
	{
		const Body *p = &group_bodies[x->first + k],
				   *q = &group_bodies[y->first + k];

		if (p->head != q->head)
			return p->head < q->head ? -1 : 1;
		if (p->left_out != q->left_out)
			return p->left_out < q->left_out ? -1 : 1;
	}
	return 0;
}

static int
compare_groups(const void *a, const void *b)
{
	const BodyGroup *x = a,
			   *y = b;
	int			c = compare_pairs(x, y);

	return c != 0 ? c : x->first < y->first ? -1 : x->first > y->first;
}

/* A product found: body groups [first, end) of the sorted groups, and what it saves. */
typedef struct Product
{
	int32		first;
	int32		end;
	int64		saved;
	int32		node;			/* its node, when taken */
	int32		place;			/* in the order: before its first head's step */
} Product;

static int
compare_saved(const void *a, const void *b)
{
	const Product *x = a,
			   *y = b;

	if (x->saved != y->saved)
		return x->saved > y->saved ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* A pair of a taken product: its head reads the product's node and the literal. */
typedef struct Pair
{
	int32		head;
	int32		literal;
	int32		node;
} Pair;

static int
compare_pair_heads(const void *a, const void *b)
{
	const Pair *x = a,
			   *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->literal < y->literal ? -1 : x->literal > y->literal;
}

/* Appends one rule to the arrays being written. */
static void
append_rule(int32 **literal_start, int32 **literals, int *nrules, int *nliterals, int *rule_room,
			int *literal_room, const int32 *lits, int n)
{
	if (*nrules + 1 >= *rule_room)
	{
		*rule_room *= 2;
		*literal_start = repalloc_huge(*literal_start, *rule_room * sizeof(int32));
	}
	if (*nliterals + n > *literal_room)
	{
		*literal_room = Max(2 * *literal_room, *nliterals + n);
		*literals = repalloc_huge(*literals, *literal_room * sizeof(int32));
	}
	(*literal_start)[(*nrules)++] = *nliterals;
	memcpy(*literals + *nliterals, lits, n * sizeof(int32));
	*nliterals += n;
}

/*
 * The network again: each head its rules in no product and its pairs' rules,
 * then a node per product taken with its bodies' rules, each node placed in
 * the order before the first of its heads (every node its bodies read
 * comes before each head, which read them too).
 */
static void
rebuild(Propnet *net, const Body *bodies, const BodyGroup *groups, const Product *products,
		int nproducts, int ntaken, const bool *consumed)
{
	int			nold = net->nnodes;
	int			npairs = 0,
				nrules = 0,
				nliterals = 0,
				rule_room = net->nrules + 1,
				literal_room = Max(1, net->literal_start[net->nrules]);
	int32	   *rule_start = palloc_extended((nold + ntaken + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literal_start = palloc_extended(rule_room * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literals = palloc_extended(literal_room * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *position = palloc_extended(Max(1, nold) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *place = palloc(ntaken * sizeof(int32));
	int32	   *order = palloc_extended((net->norder + ntaken) * sizeof(int32), MCXT_ALLOC_HUGE);
	Pair	   *pairs;
	int32	   *products_at;
	int32	   *by_place;
	int32	   *next;
	int			norder = 0;

	for (int p = 0; p < nproducts; p++)
		if (products[p].node >= 0)
			npairs += groups[products[p].first].end - groups[products[p].first].first;
	pairs = palloc_extended(npairs * sizeof(Pair), MCXT_ALLOC_HUGE);
	npairs = 0;
	for (int p = 0; p < nproducts; p++)
		if (products[p].node >= 0)
			for (int j = groups[products[p].first].first; j < groups[products[p].first].end; j++)
				pairs[npairs++] = (Pair) {.head = bodies[j].head,.literal = bodies[j].left_out,.node = products[p].node};
	qsort(pairs, npairs, sizeof(Pair), compare_pair_heads);

	/* the old nodes' rules: those in no product, then their pairs' */
	for (int v = 0, k = 0; v < nold; v++)
	{
		CHECK_FOR_INTERRUPTS();
		rule_start[v] = nrules;
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			if (!consumed[r])
				append_rule(&literal_start, &literals, &nrules, &nliterals, &rule_room, &literal_room,
							net->literals + net->literal_start[r],
							net->literal_start[r + 1] - net->literal_start[r]);
		for (; k < npairs && pairs[k].head == v; k++)
		{
			int32		lits[2] = {pairs[k].node << 1, pairs[k].literal};

			append_rule(&literal_start, &literals, &nrules, &nliterals, &rule_room, &literal_room, lits, 2);
		}
	}
	/* the products' nodes: a rule per body, its literals but the one left out */
	for (int p = 0; p < nproducts; p++)
	{
		if (products[p].node < 0)
			continue;
		rule_start[products[p].node] = nrules;
		for (int g = products[p].first; g < products[p].end; g++)
		{
			const Body *b = &bodies[groups[g].first];
			int			first = sorted_start[b->rule],
						n = sorted_start[b->rule + 1] - first;
			int32	   *lits = palloc(n * sizeof(int32));
			int			m = 0;

			for (int i = 0; i < n; i++)
				if (i != b->skip)
					lits[m++] = sorted_literals[first + i];
			append_rule(&literal_start, &literals, &nrules, &nliterals, &rule_room, &literal_room, lits, m);
			pfree(lits);
		}
	}
	rule_start[nold + ntaken] = nrules;
	literal_start[nrules] = nliterals;

	/* each product's node just before the step of its first head */
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];

		if (step >= 0)
			position[step] = s;
		else
			for (int k = net->group_start[-step - 1]; k < net->group_start[-step]; k++)
				position[net->group_nodes[k]] = s;
	}
	for (int t = 0; t < ntaken; t++)
		place[t] = net->norder;
	for (int k = 0; k < npairs; k++)
		place[pairs[k].node - nold] = Min(place[pairs[k].node - nold], position[pairs[k].head]);
	/* the products by place, counted: products_at[s] is where those placed at s start */
	products_at = palloc0((net->norder + 2) * sizeof(int32));
	by_place = palloc(ntaken * sizeof(int32));
	for (int t = 0; t < ntaken; t++)
		products_at[place[t] + 1]++;
	for (int s = 0; s <= net->norder; s++)
		products_at[s + 1] += products_at[s];
	next = palloc((net->norder + 1) * sizeof(int32));
	memcpy(next, products_at, (net->norder + 1) * sizeof(int32));
	for (int t = 0; t < ntaken; t++)
		by_place[next[place[t]]++] = t;
	pfree(next);
	for (int s = 0; s < net->norder; s++)
	{
		for (int k = products_at[s]; k < products_at[s + 1]; k++)
			order[norder++] = nold + by_place[k];
		order[norder++] = net->order[s];
	}

	net->nnodes = nold + ntaken;
	net->nrules = nrules;
	net->rule_start = rule_start;
	net->literal_start = literal_start;
	net->literals = literals;
	net->order = order;
	net->norder = norder;
	pfree(position);
	pfree(place);
	pfree(pairs);
	pfree(products_at);
	pfree(by_place);
}

void
propnet_factor_products(Propnet *net, Size memory)
{
	int			nliterals = net->literal_start[net->nrules];
	int32	   *head_of;
	bool	   *in_group;
	int32	   *literals;
	int32	   *start;
	Body	   *bodies;
	BodyGroup  *groups;
	Product    *products;
	bool	   *consumed;
	int			nbodies = 0,
				ngroups = 0,
				nproducts = 0,
				ntaken = 0;

	/* a body and a body group per literal, the literals sorted, a head per rule: past memory, as it is */
	if (net->nrules == 0 ||
		(Size) nliterals * (sizeof(Body) + sizeof(BodyGroup) + sizeof(Product) + sizeof(int32)) +
		(Size) net->nrules * (sizeof(int32) + sizeof(bool)) > memory)
		return;
	head_of = palloc_extended(net->nrules * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int v = 0; v < net->nnodes; v++)
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			head_of[r] = v;
	in_group = palloc0(Max(1, net->nnodes) * sizeof(bool));
	for (int k = 0; k < (net->ngroups > 0 ? net->group_start[net->ngroups] : 0); k++)
		in_group[net->group_nodes[k]] = true;

	/* each rule's literals sorted, so that equal bodies are equal arrays */
	literals = palloc_extended(Max(1, nliterals) * sizeof(int32), MCXT_ALLOC_HUGE);
	memcpy(literals, net->literals, nliterals * sizeof(int32));
	start = net->literal_start;
	for (int r = 0; r < net->nrules; r++)
		qsort(literals + start[r], start[r + 1] - start[r], sizeof(int32), compare_int32);
	sorted_literals = literals;
	sorted_start = start;

	/* every rule of two literals or more, of a head outside the cycle groups, each literal left out in turn */
	bodies = palloc_extended(Max(1, nliterals) * sizeof(Body), MCXT_ALLOC_HUGE);
	for (int r = 0; r < net->nrules; r++)
	{
		int			n = start[r + 1] - start[r];

		CHECK_FOR_INTERRUPTS();
		if (n < 2 || in_group[head_of[r]])
			continue;
		for (int skip = 0; skip < n; skip++)
		{
			Body	   *b = &bodies[nbodies++];
			uint32		hash = 0;

			for (int i = 0; i < n; i++)
				if (i != skip)
					hash = hash_combine(hash, murmurhash32((uint32) literals[start[r] + i]));
			b->hash = (uint64) hash << 32 | (uint32) n;
			b->rule = r;
			b->skip = skip;
			b->head = head_of[r];
			b->left_out = literals[start[r] + skip];
		}
	}
	qsort(bodies, nbodies, sizeof(Body), compare_bodies);

	/* distinct bodies, with the hash of their pairs */
	groups = palloc_extended(Max(1, nbodies) * sizeof(BodyGroup), MCXT_ALLOC_HUGE);
	for (int i = 0; i < nbodies;)
	{
		BodyGroup  *g = &groups[ngroups];
		uint32		hash = 0;
		int			k = i + 1;

		while (k < nbodies && bodies[k].hash == bodies[i].hash && compare_literals(&bodies[k], &bodies[i]) == 0)
			k++;
		g->first = i;
		g->end = k;
		g->taken = false;
		for (int j = i; j < k; j++)
			hash = hash_combine(hash, hash_combine(murmurhash32((uint32) bodies[j].head),
												   murmurhash32((uint32) bodies[j].left_out)));
		g->pairs_hash = (uint64) hash << 32 | (uint32) (k - i);
		/* a body with one pair is no product */
		if (k - i >= 2)
			ngroups++;
		i = k;
	}
	group_bodies = bodies;
	qsort(groups, ngroups, sizeof(BodyGroup), compare_groups);

	/* bodies of the same pairs: a product, worth it when it saves enough */
	products = palloc_extended(Max(1, ngroups) * sizeof(Product), MCXT_ALLOC_HUGE);
	for (int i = 0; i < ngroups;)
	{
		int			k = i + 1;
		int64		nb,
					np = groups[i].end - groups[i].first;

		while (k < ngroups && compare_pairs(&groups[k], &groups[i]) == 0)
			k++;
		nb = k - i;
		if (nb >= 2 && nb * np - (nb + np) >= PRODUCTS_MIN_SAVED && nb * np >= 2 * (nb + np))
		{
			products[nproducts].first = i;
			products[nproducts].end = k;
			products[nproducts].saved = nb * np - (nb + np);
			nproducts++;
		}
		i = k;
	}
	qsort(products, nproducts, sizeof(Product), compare_saved);

	/* largest first, each rule in one product at most */
	consumed = palloc0(net->nrules * sizeof(bool));
	for (int p = 0; p < nproducts; p++)
	{
		bool		free = true;

		for (int g = products[p].first; g < products[p].end && free; g++)
			for (int j = groups[g].first; j < groups[g].end && free; j++)
				free = !consumed[bodies[j].rule];
		if (!free)
		{
			products[p].node = -1;
			continue;
		}
		for (int g = products[p].first; g < products[p].end; g++)
			for (int j = groups[g].first; j < groups[g].end; j++)
				consumed[bodies[j].rule] = true;
		products[p].node = net->nnodes + ntaken++;
	}
	if (ntaken > 0)
		rebuild(net, bodies, groups, products, nproducts, ntaken, consumed);
	pfree(head_of);
	pfree(in_group);
	pfree(literals);
	pfree(bodies);
	pfree(groups);
	pfree(products);
	pfree(consumed);
}
