/*
 * propnet.c: compiles a ground GDL program into a propositional network
 * (see propnet.h).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "core/game.h"
#include "gdl/propnet.h"
#include "miscadmin.h"

/* Atom ids to nodes: open addressing over the grounding's term ids. */
typedef struct NodeMap
{
	int32	   *keys;
	int32	   *values;
	int			size;
} NodeMap;

static void
map_init(NodeMap *m, int n)
{
	m->size = 64;
	while (m->size < 2 * n)
		m->size *= 2;
	m->keys = palloc_extended(m->size * sizeof(int32), MCXT_ALLOC_HUGE);
	m->values = palloc_extended(m->size * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(m->keys, 0xff, m->size * sizeof(int32));
}

static int
map_slot(const NodeMap *m, int32 key)
{
	int			i = murmurhash32((uint32) key) & (m->size - 1);

	while (m->keys[i] != key && m->keys[i] != -1)
		i = (i + 1) & (m->size - 1);
	return i;
}

static void
map_put(NodeMap *m, int32 key, int32 value)
{
	int			i = map_slot(m, key);

	m->keys[i] = key;
	m->values[i] = value;
}

static int32
map_get(const NodeMap *m, int32 key)
{
	int			i = map_slot(m, key);

	return m->keys[i] == key ? m->values[i] : -1;
}

/* Sorting base facts and actions canonically. */
static const TermStore *sort_terms;

static int
compare_by_term(const void *a, const void *b)
{
	return term_compare(sort_terms, *(const TermId *) a, *(const TermId *) b);
}

typedef struct Builder
{
	Grounding  *g;
	Propnet    *net;
	NodeMap		nodes;			/* atom -> node */
	TermId	   *node_atom;
	/* rules by head node, before they are laid out */
	int32	   *first_rule;		/* per node: the head of a list of ground rules */
	int32	   *next_rule;		/* per ground rule */
	/* Tarjan over the derived nodes */
	int32	   *index;
	int32	   *low;
	bool	   *on_stack;
	int32	   *stack;
	int			depth;
	int			counter;
	int32	   *order;			/* steps in evaluation order */
	int			norder;
	int32	   *group_of;		/* per node: its cycle group, or -1 */
	int			ngroups;
} Builder;

static const char *
game_name(const Builder *b)
{
	return b->g->program->game;
}

/* What literals_as_nodes leaves of a literal of an atom that no rule derives, so never holds. */
#define NEVER_HOLDS (-1)		/* positive: its rule never holds */
#define ALWAYS_HOLDS (-2)		/* negated: left out */

/*
 * The ground rules' literals made node literals (node << 1 | negated), in
 * place: the rules are read three times (the order, the cycles, the
 * layout), an atom's node looked up once.
 */
static void
literals_as_nodes(Builder *b)
{
	int32	   *literals = b->g->literals;

	for (int i = 0; i < b->g->nliterals; i++)
	{
		int32		node = map_get(&b->nodes, literals[i] >> 1);

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		literals[i] = node >= 0 ? (node << 1) | (literals[i] & 1) :
			(literals[i] & 1) ? ALWAYS_HOLDS : NEVER_HOLDS;
	}
}

/* The literals of ground rule r as nodes; false when the rule can never hold. */
static bool
rule_literals(const Builder *b, const GroundRule *r, int32 *out, int *n)
{
	*n = 0;
	for (int i = 0; i < r->nliterals; i++)
	{
		int32		lit = b->g->literals[r->first + i];

		if (lit == NEVER_HOLDS)
			return false;
		if (lit != ALWAYS_HOLDS)
			out[(*n)++] = lit;
	}
	return true;
}

static void
visit(Builder *b, int v)
{
	Propnet    *net = b->net;
	int32		lits[256];
	int			n;

	check_stack_depth();
	b->index[v] = b->low[v] = b->counter++;
	b->stack[b->depth++] = v;
	b->on_stack[v] = true;
	for (int r = b->first_rule[v]; r >= 0; r = b->next_rule[r])
	{
		if (!rule_literals(b, &b->g->rules[r], lits, &n))
			continue;
		for (int i = 0; i < n; i++)
		{
			int			w = lits[i] >> 1;

			if (w < net->nbase + net->ninputs)
				continue;
			if (b->index[w] < 0)
			{
				visit(b, w);
				b->low[v] = Min(b->low[v], b->low[w]);
			}
			else if (b->on_stack[w])
				b->low[v] = Min(b->low[v], b->index[w]);
		}
	}
	if (b->low[v] == b->index[v])
	{
		int			top = b->depth;
		bool		cyclic;

		while (b->stack[--b->depth] != v)
			;
		cyclic = top - b->depth > 1;
		if (!cyclic)
		{
			/* a node that depends on itself alone is a cycle too */
			for (int r = b->first_rule[v]; r >= 0 && !cyclic; r = b->next_rule[r])
				if (rule_literals(b, &b->g->rules[r], lits, &n))
					for (int i = 0; i < n; i++)
						cyclic |= (lits[i] >> 1) == v;
		}
		for (int i = b->depth; i < top; i++)
		{
			b->on_stack[b->stack[i]] = false;
			b->group_of[b->stack[i]] = cyclic ? b->ngroups : -1;
		}
		b->order[b->norder++] = cyclic ? -(b->ngroups++ + 1) : v;
	}
}

/*
 * Base nodes (the facts of true, in canonical order) and input nodes (the
 * actions, by role, in canonical order) of net; returns the facts.
 */
static TermId *
layout_inputs(Propnet *net, Grounding *g, const TermId *roles, int nroles)
{
	Program    *p = g->program;
	TermStore  *ts = g->terms;
	const Tuples *base = &g->tuples[p->rel_true];
	const Tuples *inputs = &g->tuples[p->rel_does];
	TermId	   *facts = palloc(Max(1, base->n) * sizeof(TermId));

	net->nroles = nroles;
	for (int i = 0; i < base->n; i++)
		facts[i] = term_arg(ts, base->atoms[i], 0);
	sort_terms = ts;
	qsort(facts, base->n, sizeof(TermId), compare_by_term);
	net->nbase = base->n;
	net->role_inputs = palloc0((nroles + 1) * sizeof(int32));
	net->input_terms = palloc(Max(1, inputs->n) * sizeof(TermId));
	for (int r = 0; r < nroles; r++)
	{
		int			start = net->ninputs;

		net->role_inputs[r] = start;
		for (int i = 0; i < inputs->n; i++)
			if (term_arg(ts, inputs->atoms[i], 0) == roles[r])
				net->input_terms[net->ninputs++] = term_arg(ts, inputs->atoms[i], 1);
		qsort(net->input_terms + start, net->ninputs - start, sizeof(TermId), compare_by_term);
	}
	net->role_inputs[nroles] = net->ninputs;
	net->base_terms = facts;
	net->initial = palloc0(Max(1, net->nbase) * sizeof(bool));
	for (int i = 0; i < net->nbase; i++)
	{
		TermId		atom = term_function_lookup(ts, p->kw.init, 1, &facts[i]);

		net->initial[i] = atom != NO_TERM && tuples_find(&g->tuples[p->rel_init], atom) >= 0;
	}
	return facts;
}

Propnet *
propnet_outputs(Grounding *g, const TermId *roles, int nroles)
{
	Propnet    *net = palloc0(sizeof(Propnet));
	int			node;

	layout_inputs(net, g, roles, nroles);
	node = net->nbase + net->ninputs;
	net->input_legal = palloc(Max(1, net->ninputs) * sizeof(int32));
	for (int i = 0; i < net->ninputs; i++)
		net->input_legal[i] = node++;
	net->base_next = palloc(Max(1, net->nbase) * sizeof(int32));
	for (int i = 0; i < net->nbase; i++)
		net->base_next[i] = node++;
	net->terminal = node++;
	net->ngoals = nroles * (GT_GOAL_MAX + 1);
	net->goals = palloc(net->ngoals * sizeof(NetGoal));
	for (int r = 0; r < nroles; r++)
		for (int v = 0; v <= GT_GOAL_MAX; v++)
		{
			NetGoal    *goal = &net->goals[r * (GT_GOAL_MAX + 1) + v];

			goal->role = r;
			goal->value = v;
			goal->node = node++;
		}
	net->nnodes = node;
	net->rule_start = palloc0((net->nnodes + 1) * sizeof(int32));
	net->literal_start = palloc0(sizeof(int32));
	net->literals = palloc0(sizeof(int32));
	net->group_start = palloc0(sizeof(int32));
	net->group_nodes = palloc0(sizeof(int32));
	net->order = palloc0(sizeof(int32));
	return net;
}

/*
 * Numbers the nodes: the base and input nodes of layout_inputs, then one
 * derived node per distinct head of a ground rule; b->node_atom gets the
 * atom of each.
 */
static void
number_nodes(Builder *b, const TermId *facts, const TermId *roles, int nroles)
{
	Grounding  *g = b->g;
	Program    *p = g->program;
	TermStore  *ts = g->terms;
	Propnet    *net = b->net;
	const Tuples *base = &g->tuples[p->rel_true];
	const Tuples *inputs = &g->tuples[p->rel_does];
	/*
	 * distinct heads, at most one per ground rule and one per term of the
	 * store (chess.kif: 6.2 million ground rules of 1.5 million terms, a
	 * map sized by the rules took 150 MB more than the grounding)
	 */
	int			nheads = Min(g->nrules, ts->nterms);

	map_init(&b->nodes, base->n + inputs->n + nheads);
	b->node_atom = palloc_extended((base->n + inputs->n + nheads + 1) * sizeof(TermId), MCXT_ALLOC_HUGE);
	for (int i = 0; i < base->n; i++)
	{
		TermId		atom = term_function(ts, p->kw.true_, 1, &facts[i]);

		map_put(&b->nodes, atom, i);
		b->node_atom[i] = atom;
	}
	for (int r = 0; r < nroles; r++)
		for (int i = net->role_inputs[r]; i < net->role_inputs[r + 1]; i++)
		{
			TermId		args[2] = {roles[r], net->input_terms[i]};
			TermId		atom = term_function(ts, p->kw.does, 2, args);

			map_put(&b->nodes, atom, net->nbase + i);
			b->node_atom[net->nbase + i] = atom;
		}
	net->nnodes = net->nbase + net->ninputs;
	for (int r = 0; r < g->nrules; r++)
		if (map_get(&b->nodes, g->rules[r].head) < 0)
		{
			map_put(&b->nodes, g->rules[r].head, net->nnodes);
			b->node_atom[net->nnodes++] = g->rules[r].head;
		}
}

/* Lists the ground rules of each node (first_rule, next_rule), in rule order. */
static void
list_rules_by_head(Builder *b)
{
	Grounding  *g = b->g;
	int			nnodes = b->net->nnodes;

	b->first_rule = palloc_extended(nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(b->first_rule, 0xff, nnodes * sizeof(int32));
	b->next_rule = palloc_extended(Max(1, g->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int r = g->nrules - 1; r >= 0; r--)
	{
		int32		head = map_get(&b->nodes, g->rules[r].head);

		b->next_rule[r] = b->first_rule[head];
		b->first_rule[head] = r;
	}
}

/*
 * The evaluation order of the derived nodes (b->order), dependencies first,
 * with the cycles among them as groups (Tarjan's strongly connected
 * components, visit).
 */
static void
order_nodes(Builder *b)
{
	Propnet    *net = b->net;

	b->index = palloc_extended(net->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	b->low = palloc_extended(net->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	b->on_stack = palloc_extended(net->nnodes * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	b->stack = palloc_extended(net->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	b->order = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	b->group_of = palloc_extended(net->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int v = 0; v < net->nnodes; v++)
	{
		b->index[v] = -1;
		b->group_of[v] = -1;
	}
	for (int v = net->nbase + net->ninputs; v < net->nnodes; v++)
	{
		CHECK_FOR_INTERRUPTS();
		if (b->index[v] < 0)
			visit(b, v);
	}
}

/*
 * Lays the rules out by node (rule_start, literal_start, literals), leaving
 * out the rules that can never hold.
 */
static void
lay_out_rules(Builder *b)
{
	Grounding  *g = b->g;
	Propnet    *net = b->net;
	int			nrules = 0,
				nliterals = 0;

	net->rule_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	net->literal_start = palloc_extended((g->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	net->literals = palloc_extended(Max(1, g->nliterals) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int v = 0; v < net->nnodes; v++)
	{
		CHECK_FOR_INTERRUPTS();
		net->rule_start[v] = nrules;
		for (int r = b->first_rule[v]; r >= 0; r = b->next_rule[r])
		{
			int			n;

			if (!rule_literals(b, &g->rules[r], net->literals + nliterals, &n))
				continue;
			net->literal_start[nrules++] = nliterals;
			nliterals += n;
		}
	}
	net->rule_start[net->nnodes] = nrules;
	net->literal_start[nrules] = nliterals;
	net->nrules = nrules;
}

/* Lays the cycle groups out (group_start, group_nodes), each group's nodes in node order. */
static void
lay_out_groups(Builder *b)
{
	Propnet    *net = b->net;
	int			nderived = net->nnodes - (net->nbase + net->ninputs);
	int32	   *layout;

	net->ngroups = b->ngroups;
	net->group_start = palloc((b->ngroups + 1) * sizeof(int32));
	net->group_nodes = palloc(Max(1, nderived) * sizeof(int32));
	layout = palloc0((b->ngroups + 1) * sizeof(int32));
	for (int v = 0; v < net->nnodes; v++)
		if (b->group_of[v] >= 0)
			layout[b->group_of[v] + 1]++;
	for (int k = 0; k < b->ngroups; k++)
		layout[k + 1] += layout[k];
	memcpy(net->group_start, layout, (b->ngroups + 1) * sizeof(int32));
	for (int v = 0; v < net->nnodes; v++)
		if (b->group_of[v] >= 0)
			net->group_nodes[layout[b->group_of[v]]++] = v;
}

/* The nodes of legal, next and terminal: -1 where no rule derives them. */
static void
find_outputs(Builder *b, const TermId *roles, int nroles)
{
	Program    *p = b->g->program;
	TermStore  *ts = b->g->terms;
	Propnet    *net = b->net;

	net->input_legal = palloc(Max(1, net->ninputs) * sizeof(int32));
	for (int r = 0; r < nroles; r++)
		for (int i = net->role_inputs[r]; i < net->role_inputs[r + 1]; i++)
		{
			TermId		args[2] = {roles[r], net->input_terms[i]};
			TermId		atom = term_function_lookup(ts, p->kw.legal, 2, args);

			net->input_legal[i] = atom == NO_TERM ? -1 : map_get(&b->nodes, atom);
		}
	net->base_next = palloc(Max(1, net->nbase) * sizeof(int32));
	for (int i = 0; i < net->nbase; i++)
	{
		TermId		atom = term_function_lookup(ts, p->kw.next, 1, &net->base_terms[i]);

		net->base_next[i] = atom == NO_TERM ? -1 : map_get(&b->nodes, atom);
	}
	net->terminal = map_get(&b->nodes, term_symbol(ts, p->kw.terminal));
}

/*
 * The goal nodes: derived (goal role value) of a role of the game, whose
 * value must be a number from 0 to 100.
 */
static void
find_goals(Builder *b, const TermId *roles, int nroles)
{
	Program    *p = b->g->program;
	TermStore  *ts = b->g->terms;
	Propnet    *net = b->net;

	net->goals = palloc(Max(1, b->g->tuples[p->rel_goal].n) * sizeof(NetGoal));
	for (int v = net->nbase + net->ninputs; v < net->nnodes; v++)
	{
		TermId		atom = b->node_atom[v];
		const TermNode *n = term_node(ts, atom);
		NetGoal    *goal;
		int32		value;

		CHECK_FOR_INTERRUPTS();
		if (n->kind != TERM_FUNCTION || n->name != p->kw.goal || n->nargs != 2)
			continue;
		goal = &net->goals[net->ngoals];
		goal->role = -1;
		for (int r = 0; r < nroles; r++)
			if (term_arg(ts, atom, 0) == roles[r])
				goal->role = r;
		if (goal->role < 0)
			continue;
		value = term_node(ts, term_arg(ts, atom, 1))->kind == TERM_SYMBOL ?
			ts->number[term_functor(ts, term_arg(ts, atom, 1))] : -1;
		if (value < 0 || value > 100)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("game \"%s\": the goal %s is not a number from 0 to 100",
							game_name(b), term_text(ts, atom))));
		goal->value = value;
		goal->node = v;
		net->ngoals++;
	}
}

/* The phases of building: each one reads what the ones before it made. */
/*
 * The derived nodes numbered breadth first from the facts and actions,
 * the heads of a node's readers one after the other, and their rules laid
 * out in that order: a flip's fan entries then reach counters side by
 * side.  It pays once a network's counters and fans outgrow a core's
 * cache, RENUMBER_RULES rules (1-2 MB) and more: chess.kif's network of
 * 4.47 million rules ran 7,327-7,503 random playout moves/s as its
 * grounding numbered it, 8,524-9,550 so (in evaluation order:
 * 3,901-5,053); chess4x4.kif's, 75,337 rules, as fast either way; the
 * sample games, below 17,000 rules each, 0.90-1.02 times as fast so
 * (bench/README.md, network step 12).
 */
#define RENUMBER_RULES 65536

static void
number_by_readers(Propnet *net)
{
	int			first_derived = net->nbase + net->ninputs;
	int32	   *number = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *old_of = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *rule_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literal_start = palloc_extended((net->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literals = palloc_extended(Max(1, net->literal_start[net->nrules]) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *reader_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	int32	   *readers = palloc_extended(Max(1, net->literal_start[net->nrules]) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *head_of = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *fill = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int			next = first_derived,
				unreached = first_derived,
				nrules = 0,
				nliterals = 0;

	/* the rules that read each node */
	for (int v = 0; v < net->nnodes; v++)
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			head_of[r] = v;
	for (int l = 0; l < net->literal_start[net->nrules]; l++)
		reader_start[(net->literals[l] >> 1) + 1]++;
	for (int v = 0; v < net->nnodes; v++)
		reader_start[v + 1] += reader_start[v];
	memcpy(fill, reader_start, (net->nnodes + 1) * sizeof(int32));
	for (int r = 0; r < net->nrules; r++)
		for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			readers[fill[net->literals[l] >> 1]++] = r;

	for (int v = 0; v < net->nnodes; v++)
		number[v] = old_of[v] = v < first_derived ? v : -1;
	for (int q = 0; next < net->nnodes; q++)
	{
		int32		u;

		/* nothing numbered is left to read from (a node of constant rules): the first not reached */
		if (q == next)
		{
			while (number[unreached] >= 0)
				unreached++;
			number[unreached] = next;
			old_of[next++] = unreached;
		}
		u = old_of[q];
		for (int k = reader_start[u]; k < reader_start[u + 1]; k++)
		{
			int32		h = head_of[readers[k]];

			if (number[h] < 0)
			{
				number[h] = next;
				old_of[next++] = h;
			}
		}
	}
	pfree(reader_start);
	pfree(readers);
	pfree(head_of);
	pfree(fill);
	for (int w = 0; w < net->nnodes; w++)
	{
		int32		v = old_of[w];

		CHECK_FOR_INTERRUPTS();
		rule_start[w] = nrules;
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
		{
			literal_start[nrules++] = nliterals;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				literals[nliterals++] = number[net->literals[l] >> 1] << 1 | (net->literals[l] & 1);
		}
	}
	rule_start[net->nnodes] = nrules;
	literal_start[nrules] = nliterals;
	pfree(net->rule_start);
	pfree(net->literal_start);
	pfree(net->literals);
	net->rule_start = rule_start;
	net->literal_start = literal_start;
	net->literals = literals;
	for (int s = 0; s < net->norder; s++)
		if (net->order[s] >= 0)
			net->order[s] = number[net->order[s]];
	for (int k = 0; k < (net->ngroups > 0 ? net->group_start[net->ngroups] : 0); k++)
		net->group_nodes[k] = number[net->group_nodes[k]];
	propnet_renumber_outputs(net, number);
	pfree(number);
	pfree(old_of);
}

/*
 * Frees what only the layout reads: the ground rules, and the builder's
 * map, lists and Tarjan arrays (chess.kif's network is factored and
 * numbered again in 246 MB less).  The evaluation order stays.
 */
static void
release_builder(Builder *b)
{
	pfree(b->nodes.keys);
	pfree(b->nodes.values);
	pfree(b->node_atom);
	pfree(b->first_rule);
	pfree(b->next_rule);
	pfree(b->index);
	pfree(b->low);
	pfree(b->on_stack);
	pfree(b->stack);
	pfree(b->group_of);
	ground_release_rules(b->g);
}

Propnet *
propnet_build(Grounding *g, const TermId *roles, int nroles)
{
	Propnet    *net = palloc0(sizeof(Propnet));
	Builder		b = {.g = g,.net = net};
	TermId	   *facts = layout_inputs(net, g, roles, nroles);

	number_nodes(&b, facts, roles, nroles);
	literals_as_nodes(&b);
	list_rules_by_head(&b);
	order_nodes(&b);
	lay_out_rules(&b);
	lay_out_groups(&b);
	find_outputs(&b, roles, nroles);
	find_goals(&b, roles, nroles);
	release_builder(&b);
	net->order = b.order;
	net->norder = b.norder;
	/* the deadline is looked at between the steps, each at most a few tenths of a second (chess.kif) */
	if (ground_past_deadline(g))
		return NULL;
	propnet_factor_actions(net);
	propnet_prune(net);
	/*
	 * within a quarter of what grounding may take; a second round finds
	 * what the first made (a disjunction's rules alike but in another
	 * literal)
	 */
	for (int round = 0; round < 2 && !ground_past_deadline(g) &&
		 propnet_factor_products(net, g->memory_limit / 4); round++)
		;
	if (ground_past_deadline(g))
		return NULL;
	propnet_fold_copies(net);
	propnet_factor_fact_pairs(net, g->memory_limit / 4);
	if (ground_past_deadline(g))
		return NULL;
	propnet_prune(net);
	if (net->nrules >= RENUMBER_RULES)
		number_by_readers(net);
	return ground_past_deadline(g) ? NULL : net;
}


