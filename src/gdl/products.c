/*
 * products.c: rules that are every pairing of some bodies with some
 * literals, or that differ in one literal, factored (propnet.h).
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
 * in one product at most.  Of the rules left, those of one head whose
 * bodies are one body and one literal of a set become one rule that reads
 * a node for the set (see the disjunctions below).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "gdl/intsets.h"
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
} Body;

/* A distinct body, and its pairs: bodies [first, end) of the sorted array. */
typedef struct BodyGroup
{
	uint64		pairs_hash;
	int32		first;
	int32		end;
} BodyGroup;

static const int32 *sorted_literals;
static const int32 *sorted_start;

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

/* Orders two distinct bodies by their pairs: 0 when they have the same. */
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

/* Rules written anew: a head and literals each, growing. */
typedef struct AddedRules
{
	int32	   *head;
	int32	   *literal_start;	/* per rule + 1 */
	int32	   *literals;
	int			nrules;
	int			nliterals;
	int			rule_room;
	int			literal_room;
} AddedRules;

static void
add_rule(AddedRules *a, int32 head, const int32 *literals, int n)
{
	if (a->nrules + 1 >= a->rule_room)
	{
		a->rule_room = Max(64, 2 * a->rule_room);
		a->head = a->head == NULL ? palloc(a->rule_room * sizeof(int32)) :
			repalloc_huge(a->head, a->rule_room * sizeof(int32));
		a->literal_start = a->literal_start == NULL ? palloc(a->rule_room * sizeof(int32)) :
			repalloc_huge(a->literal_start, a->rule_room * sizeof(int32));
	}
	if (a->nliterals + n > a->literal_room)
	{
		a->literal_room = Max(2 * a->literal_room, Max(256, a->nliterals + n));
		a->literals = a->literals == NULL ? palloc(a->literal_room * sizeof(int32)) :
			repalloc_huge(a->literals, a->literal_room * sizeof(int32));
	}
	a->head[a->nrules] = head;
	a->literal_start[a->nrules++] = a->nliterals;
	memcpy(a->literals + a->nliterals, literals, n * sizeof(int32));
	a->nliterals += n;
	a->literal_start[a->nrules] = a->nliterals;
}

/* The body of b as literals (the one left out skipped), into out: how many. */
static int
body_literals(const Body *b, int32 *out)
{
	int			first = sorted_start[b->rule],
				n = sorted_start[b->rule + 1] - first,
				m = 0;

	for (int i = 0; i < n; i++)
		if (i != b->skip)
			out[m++] = sorted_literals[first + i];
	return m;
}

/*
 * The network again: each old node its rules not consumed and the rules
 * added for it, then the new nodes [nold, nold + nnew) with theirs, each
 * placed in the order before the first step of a head whose added rule
 * reads it (the new nodes read old nodes only, which every such head read
 * too, so those come before).
 */
static void
rebuild(Propnet *net, const bool *consumed, AddedRules *added, int nnew)
{
	int			nold = net->nnodes,
				nnodes = nold + nnew,
				nrules = 0,
				nliterals = 0,
				norder = 0;
	int			total_rules = net->nrules + added->nrules,
				total_literals = net->literal_start[net->nrules] + added->nliterals;
	int32	   *rule_start = palloc_extended((nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literal_start = palloc_extended((total_rules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literals = palloc_extended(Max(1, total_literals) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *by_head = palloc_extended((nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	int32	   *added_order = palloc_extended(Max(1, added->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *position = palloc_extended(Max(1, nold) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *place = palloc(Max(1, nnew) * sizeof(int32));
	int32	   *at = palloc0((net->norder + 2) * sizeof(int32));
	int32	   *placed = palloc(Max(1, nnew) * sizeof(int32));
	int32	   *order = palloc_extended((net->norder + nnew) * sizeof(int32), MCXT_ALLOC_HUGE);

	/* the added rules by head, counted */
	for (int r = 0; r < added->nrules; r++)
		by_head[added->head[r] + 1]++;
	for (int v = 0; v < nnodes; v++)
		by_head[v + 1] += by_head[v];
	{
		int32	   *next = palloc_extended((nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);

		memcpy(next, by_head, (nnodes + 1) * sizeof(int32));
		for (int r = 0; r < added->nrules; r++)
			added_order[next[added->head[r]]++] = r;
		pfree(next);
	}
	for (int v = 0; v < nnodes; v++)
	{
		CHECK_FOR_INTERRUPTS();
		rule_start[v] = nrules;
		for (int r = v < nold ? net->rule_start[v] : 0; v < nold && r < net->rule_start[v + 1]; r++)
			if (!consumed[r])
			{
				literal_start[nrules++] = nliterals;
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					literals[nliterals++] = net->literals[l];
			}
		for (int k = by_head[v]; k < by_head[v + 1]; k++)
		{
			int			r = added_order[k];

			literal_start[nrules++] = nliterals;
			for (int l = added->literal_start[r]; l < added->literal_start[r + 1]; l++)
				literals[nliterals++] = added->literals[l];
		}
	}
	rule_start[nnodes] = nrules;
	literal_start[nrules] = nliterals;

	/* each new node before the step of the first head that reads it */
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];

		if (step >= 0)
			position[step] = s;
		else
			for (int k = net->group_start[-step - 1]; k < net->group_start[-step]; k++)
				position[net->group_nodes[k]] = s;
	}
	for (int t = 0; t < nnew; t++)
		place[t] = net->norder;
	for (int r = 0; r < added->nrules; r++)
		if (added->head[r] < nold)
			for (int l = added->literal_start[r]; l < added->literal_start[r + 1]; l++)
				if ((added->literals[l] >> 1) >= nold)
					place[(added->literals[l] >> 1) - nold] = Min(place[(added->literals[l] >> 1) - nold],
																  position[added->head[r]]);
	for (int t = 0; t < nnew; t++)
		at[place[t] + 1]++;
	for (int s = 0; s <= net->norder; s++)
		at[s + 1] += at[s];
	{
		int32	   *next = palloc((net->norder + 1) * sizeof(int32));

		memcpy(next, at, (net->norder + 1) * sizeof(int32));
		for (int t = 0; t < nnew; t++)
			placed[next[place[t]]++] = t;
		pfree(next);
	}
	for (int s = 0; s < net->norder; s++)
	{
		for (int k = at[s]; k < at[s + 1]; k++)
			order[norder++] = nold + placed[k];
		order[norder++] = net->order[s];
	}
	Assert(norder == net->norder + nnew);

	net->nnodes = nnodes;
	net->nrules = nrules;
	net->rule_start = rule_start;
	net->literal_start = literal_start;
	net->literals = literals;
	net->order = order;
	net->norder = norder;
	pfree(by_head);
	pfree(added_order);
	pfree(position);
	pfree(place);
	pfree(at);
	pfree(placed);
}

bool
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
	int32	   *body;
	int32	   *sets_of;
	int32	   *run_set;		/* per run of a head's pairs in a body group: its literal set */
	int32	   *set_uses = NULL;	/* per set: the runs of free rules that have it */
	int32	   *set_node = NULL;	/* per set: its node, or -1: not worth one */
	int			set_uses_room = 0,
				nworth = 0;
	IntSets		sets;
	AddedRules	added = {0};
	bool		changed;
	int			nbodies = 0,
				ngroups = 0,
				nproducts = 0,
				ntaken = 0,
				max_length = 1;

	/*
	 * a body and a body group per literal, the literals sorted, a head per
	 * rule, the rules written anew: past memory, as it is
	 */
	if (net->nrules == 0 ||
		(Size) nliterals * (sizeof(Body) + sizeof(BodyGroup) + sizeof(Product) + 3 * sizeof(int32)) +
		(Size) net->nrules * (3 * sizeof(int32) + sizeof(bool)) > memory)
		return false;
	for (int r = 0; r < net->nrules; r++)
		max_length = Max(max_length, net->literal_start[r + 1] - net->literal_start[r]);
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
		qsort(literals + start[r], start[r + 1] - start[r], sizeof(int32), intsets_member_order);
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
	body = palloc(Max(1, max_length) * sizeof(int32));
	for (int p = 0; p < nproducts; p++)
	{
		bool		free = true;
		int32		node = net->nnodes + ntaken;

		for (int g = products[p].first; g < products[p].end && free; g++)
			for (int j = groups[g].first; j < groups[g].end && free; j++)
				free = !consumed[bodies[j].rule];
		if (!free)
			continue;
		for (int g = products[p].first; g < products[p].end; g++)
		{
			for (int j = groups[g].first; j < groups[g].end; j++)
				consumed[bodies[j].rule] = true;
			add_rule(&added, node, body, body_literals(&bodies[groups[g].first], body));
		}
		/* the pairs are every group's: the first's */
		for (int j = groups[products[p].first].first; j < groups[products[p].first].end; j++)
		{
			int32		pair[2] = {node << 1, bodies[j].left_out};

			add_rule(&added, bodies[j].head, pair, 2);
		}
		ntaken++;
	}

	/*
	 * Then disjunctions: the rules of one head whose bodies are one body and
	 * a literal of a set, h :- B, l_i, become h :- B, D, and D :- l_i reads
	 * each literal, D shared by all that have the same set; a set is worth
	 * its node when its uses save more rules than it has (chineseCheckers3:
	 * a jump over a cell of any of three colours; a set used once, as most
	 * are in connectFour.kif, made perft 10% slower).
	 */
	intsets_init(&sets);
	sets_of = palloc_extended(Max(1, nbodies) * sizeof(int32), MCXT_ALLOC_HUGE);
	run_set = palloc_extended(Max(1, nbodies) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int pass = 0; pass < 2; pass++)
	{
		int			run = 0;

		if (pass == 1)
		{
			/* the sets worth a node, numbered in a row */
			set_node = palloc(Max(1, sets.n) * sizeof(int32));
			for (int set = 0; set < sets.n; set++)
				set_node[set] = (int64) set_uses[set] * (sets.start[set + 1] - sets.start[set] - 1) -
					(sets.start[set + 1] - sets.start[set]) >= PRODUCTS_MIN_SAVED ?
					net->nnodes + ntaken + nworth++ : -1;
		}
		for (int g = 0; g < ngroups; g++)
			for (int j = groups[g].first, k; j < groups[g].end; j = k, run++)
			{
				bool		free = true;
				int			n = 0,
							m;

				for (k = j; k < groups[g].end && bodies[k].head == bodies[j].head; k++)
					free &= !consumed[bodies[k].rule];
				if (k - j < 2)
					continue;
				if (pass == 0)
				{
					/* sorted: a literal twice (two rules alike) is one */
					for (int i = j; i < k; i++)
						if (n == 0 || sets_of[n - 1] != bodies[i].left_out)
							sets_of[n++] = bodies[i].left_out;
					run_set[run] = intsets_add(&sets, sets_of, n);
					if (set_uses_room < sets.n)
					{
						int			old_room = set_uses_room;

						set_uses_room = Max(64, 2 * set_uses_room);
						set_uses = set_uses == NULL ? palloc(set_uses_room * sizeof(int32)) :
							repalloc_huge(set_uses, set_uses_room * sizeof(int32));
						memset(set_uses + old_room, 0, (set_uses_room - old_room) * sizeof(int32));
					}
					set_uses[run_set[run]] += free;
					continue;
				}
				if (!free || set_node[run_set[run]] < 0)
					continue;
				for (int i = j; i < k; i++)
					consumed[bodies[i].rule] = true;
				m = body_literals(&bodies[j], body);
				body[m++] = set_node[run_set[run]] << 1;
				add_rule(&added, bodies[j].head, body, m);
			}
	}
	for (int set = 0; set < sets.n; set++)
		for (int l = sets.start[set]; l < sets.start[set + 1] && set_node[set] >= 0; l++)
			add_rule(&added, set_node[set], &sets.members[l], 1);
	changed = added.nrules > 0;
	if (changed)
		rebuild(net, consumed, &added, ntaken + nworth);
	pfree(head_of);
	pfree(in_group);
	pfree(literals);
	pfree(bodies);
	pfree(groups);
	pfree(products);
	pfree(consumed);
	pfree(body);
	pfree(sets_of);
	pfree(run_set);
	if (set_node != NULL)
		pfree(set_node);
	if (set_uses != NULL)
		pfree(set_uses);
	intsets_free(&sets);
	if (added.nrules > 0)
	{
		pfree(added.head);
		pfree(added.literal_start);
		pfree(added.literals);
	}
	return changed;
}

/*
 * Fact pairs.  A pair of facts that many rules read together, both read
 * alone by each, is one node: chess.kif's rules that block a check read
 * (true (check ?player rook ?tx ?ty)) and (true (cell ?kx ?ky ?king)), a
 * rule per blocking move for each checker and king square, so that the
 * king's move reached thousands of rules that hold only in check.  Read
 * through a node of the two, it reaches the node of each checker square;
 * forward.c counts a node of facts alone as a guard, like a fact.
 */

/* A pair read by this many rules is a node of its own. */
#define PAIR_READERS 16

/* A rule of more facts than this pairs none: its pairs are quadratic in them. */
#define PAIR_MOST_FACTS 64

typedef struct PairSlot
{
	uint64		pair;			/* first literal << 32 | second; 0: empty (literals differ) */
	int32		count;			/* rules that read it */
	int32		node;			/* its node once made, or 0 (a fact, no pair's) */
} PairSlot;

static PairSlot *
pair_slot(PairSlot *slots, int size, uint64 pair)
{
	for (uint32 i = murmurhash32((uint32) (pair ^ (pair >> 32))) & (size - 1);;
		 i = (i + 1) & (size - 1))
		if (slots[i].pair == pair || slots[i].pair == 0)
			return &slots[i];
}

/* The table of pairs twice as large (*size doubled), its pairs placed again; the old one freed. */
static PairSlot *
grow_pairs(PairSlot *slots, int *size)
{
	PairSlot   *grown = palloc_extended((Size) 2 * *size * sizeof(PairSlot), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int i = 0; i < *size; i++)
		if (slots[i].pair != 0)
			*pair_slot(grown, 2 * *size, slots[i].pair) = slots[i];
	pfree(slots);
	*size *= 2;
	return grown;
}

/*
 * The pairs of facts rule r reads that no clock turns, as keys (first
 * literal << 32 | second, the first the smaller), into pairs (room for
 * PAIR_MOST_FACTS of them two by two); facts is room for the rule's
 * literals.  How many.
 */
static int
rule_pairs(const Propnet *net, const bool *clock, int32 r, int32 *facts, uint64 *pairs)
{
	int			n = 0,
				npairs = 0;

	for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
		if ((net->literals[l] >> 1) < net->nbase && !clock[net->literals[l] >> 1])
			facts[n++] = net->literals[l];
	if (n > PAIR_MOST_FACTS)
		return 0;
	if (n > 1)
		qsort(facts, n, sizeof(int32), intsets_member_order);
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (facts[a] != facts[b])
				pairs[npairs++] = (uint64) facts[a] << 32 | (uint32) facts[b];
	return npairs;
}

void
propnet_factor_fact_pairs(Propnet *net, Size memory)
{
	bool	   *moves = propnet_move_dependent(net);
	bool	   *clock = propnet_clock_facts(net, moves);
	int32	   *facts;
	uint64	   *pairs;
	int32	   *literals;
	bool	   *consumed;
	PairSlot   *slots;
	AddedRules	added = {0};
	int64		npairs = 0;
	int			size = 64,
				nnew = 0,
				max_length = 1;

	/* the rules written anew: as many literals as the network at most */
	Size		rewritten = (Size) net->nrules * (sizeof(bool) + 2 * sizeof(int32)) +
		(Size) net->literal_start[net->nrules] * sizeof(int32);

	for (int r = 0; r < net->nrules; r++)
		max_length = Max(max_length, net->literal_start[r + 1] - net->literal_start[r]);
	facts = palloc(max_length * sizeof(int32));
	pairs = palloc(PAIR_MOST_FACTS * (PAIR_MOST_FACTS - 1) / 2 * sizeof(uint64));
	slots = palloc0(size * sizeof(PairSlot));
	for (int r = 0; r < net->nrules && slots != NULL; r++)
	{
		int			n = rule_pairs(net, clock, r, facts, pairs);

		CHECK_FOR_INTERRUPTS();
		for (int k = 0; k < n && slots != NULL; k++)
		{
			PairSlot   *s = pair_slot(slots, size, pairs[k]);

			if (s->pair == 0 && 2 * ++npairs > size)
			{
				/*
				 * sized by the distinct pairs, not by the rules' (chess.kif:
				 * a table for every pair each rule reads fitted at
				 * gametree.gdl_memory 4GB, not at 1536MB: no pairs there)
				 */
				if (size >= (1 << 29) || (Size) 2 * size * sizeof(PairSlot) + rewritten > memory)
				{
					pfree(slots);
					slots = NULL;
					break;
				}
				slots = grow_pairs(slots, &size);
				s = pair_slot(slots, size, pairs[k]);
			}
			s->pair = pairs[k];
			s->count++;
		}
	}
	if (npairs == 0 || slots == NULL)
	{
		pfree(moves);
		pfree(clock);
		pfree(facts);
		pfree(pairs);
		if (slots != NULL)
			pfree(slots);
		return;
	}

	/* each rule reads its most read pair through the pair's node, when PAIR_READERS read it */
	consumed = palloc_extended(Max(1, net->nrules) * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	literals = palloc(max_length * sizeof(int32));
	for (int v = 0; v < net->nnodes; v++)
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
		{
			int			n = rule_pairs(net, clock, r, facts, pairs),
						m = 0;
			PairSlot   *best = NULL;
			int32		first,
						second;

			for (int k = 0; k < n; k++)
			{
				PairSlot   *s = pair_slot(slots, size, pairs[k]);

				if (s->count >= PAIR_READERS && (best == NULL || s->count > best->count))
					best = s;
			}
			if (best == NULL)
				continue;
			first = (int32) (best->pair >> 32);
			second = (int32) best->pair;
			if (best->node == 0)
			{
				/* the pair's node and its rule, once */
				best->node = net->nnodes + nnew++;
				add_rule(&added, best->node, (int32[]) {first, second}, 2);
			}
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				if (net->literals[l] != first && net->literals[l] != second)
					literals[m++] = net->literals[l];
			literals[m++] = best->node << 1;
			add_rule(&added, v, literals, m);
			consumed[r] = true;
		}
	if (nnew > 0)
		rebuild(net, consumed, &added, nnew);
	pfree(moves);
	pfree(clock);
	pfree(facts);
	pfree(pairs);
	pfree(slots);
	pfree(consumed);
	pfree(literals);
	if (added.nrules > 0)
	{
		pfree(added.head);
		pfree(added.literal_start);
		pfree(added.literals);
	}
}
