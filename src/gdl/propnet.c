/*
 * propnet.c: compiles a ground GDL program into a propositional network
 * and evaluates it (see propnet.h).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "core/game.h"
#include "gdl/prover.h"
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

/* The literals of ground rule r as nodes; false when the rule can never hold. */
static bool
rule_literals(const Builder *b, const GroundRule *r, int32 *out, int *n)
{
	*n = 0;
	for (int i = 0; i < r->nliterals; i++)
	{
		int32		lit = b->g->literals[r->first + i];
		int32		node = map_get(&b->nodes, lit >> 1);

		if (node < 0)
		{
			/* an atom no rule derives never holds */
			if ((lit & 1) == 0)
				return false;
			continue;
		}
		out[(*n)++] = (node << 1) | (lit & 1);
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

/* Marks in cone[] the derived nodes that the nodes marked already depend on. */
static void
close_cone(const Propnet *net, const Builder *b, bool *cone)
{
	/* steps are in dependency order: walk them backwards */
	for (int s = b->norder - 1; s >= 0; s--)
	{
		int32		step = b->order[s];
		bool		marked = false;

		CHECK_FOR_INTERRUPTS();
		if (step >= 0)
			marked = cone[step];
		else
			for (int i = net->group_start[-step - 1]; i < net->group_start[-step]; i++)
				marked |= cone[net->group_nodes[i]];
		if (!marked)
			continue;
		for (int k = 0; k < (step >= 0 ? 1 : net->group_start[-step] - net->group_start[-step - 1]); k++)
		{
			int			node = step >= 0 ? step : net->group_nodes[net->group_start[-step - 1] + k];

			cone[node] = true;
			for (int r = net->rule_start[node]; r < net->rule_start[node + 1]; r++)
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					cone[net->literals[l] >> 1] = true;
		}
	}
}

static int32
step_node(const Propnet *net, int32 step)
{
	return step >= 0 ? step : net->group_nodes[net->group_start[-step - 1]];
}

/* The steps of a phase: those in cone and not in done, with or without inputs. */
static void
make_phase(Propnet *net, const Builder *b, NetPhase phase, const bool *cone, const bool *done,
		   const bool *uses_input, int want_input)
{
	net->steps[phase] = palloc(Max(1, b->norder) * sizeof(int32));
	net->nsteps[phase] = 0;
	for (int s = 0; s < b->norder; s++)
	{
		int32		node = step_node(net, b->order[s]);

		if (!cone[node] || (done != NULL && done[node]))
			continue;
		if (want_input >= 0 && uses_input[node] != (want_input == 1))
			continue;
		net->steps[phase][net->nsteps[phase]++] = b->order[s];
	}
}

/* The input that rule r needs, when nothing else it needs changes with the move; or -1. */
static int32
trigger_of(const Propnet *net, int r, const bool *uses_input)
{
	int32		trigger = -1;

	for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
	{
		int32		node = net->literals[l] >> 1;
		bool		input = node >= net->nbase && node < net->nbase + net->ninputs;

		if (input && trigger < 0 && (net->literals[l] & 1) == 0)
			trigger = node;
		else if (uses_input[node] && !input)
			return -1;
	}
	return trigger;
}

/*
 * The trigger of each rule (trigger_of) of the move phase's nodes, -1 for
 * the other rules; net->trigger_start gets where each input's triggered
 * rules start, *ntriggered their number.
 */
static int32 *
find_triggers(Propnet *net, const bool *uses_input, int *ntriggered)
{
	int32	   *trigger = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	bool	   *in_move = palloc0(net->nnodes * sizeof(bool));

	*ntriggered = 0;
	for (int s = 0; s < net->nsteps[PHASE_MOVE]; s++)
		if (net->steps[PHASE_MOVE][s] >= 0)
			in_move[net->steps[PHASE_MOVE][s]] = true;
	net->trigger_start = palloc0((net->ninputs + 1) * sizeof(int32));
	for (int v = 0; v < net->nnodes; v++)
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
		{
			trigger[r] = in_move[v] ? trigger_of(net, r, uses_input) : -1;
			if (trigger[r] >= 0)
			{
				net->trigger_start[trigger[r] - net->nbase + 1]++;
				(*ntriggered)++;
			}
		}
	for (int i = 0; i < net->ninputs; i++)
		net->trigger_start[i + 1] += net->trigger_start[i];
	return trigger;
}

/*
 * Moves the triggered rules of the move phase's nodes after each node's
 * own (rule_end) and files them by input.
 */
static void
file_triggered_rules(Propnet *net, const bool *uses_input)
{
	int			ntriggered;
	int32	   *trigger = find_triggers(net, uses_input, &ntriggered);
	int32	   *rule_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literal_start = palloc_extended((net->nrules + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *literals = palloc_extended(Max(1, net->literal_start[net->nrules]) * sizeof(int32),
										   MCXT_ALLOC_HUGE);
	int			nrules = 0,
				nliterals = 0;

	net->rule_end = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	net->trigger_rule = palloc(Max(1, ntriggered) * sizeof(int32));
	net->trigger_head = palloc(Max(1, ntriggered) * sizeof(int32));
	for (int v = 0; v < net->nnodes; v++)
	{
		CHECK_FOR_INTERRUPTS();
		rule_start[v] = nrules;
		/* the node's own rules, then its triggered ones */
		for (int pass = 0; pass < 2; pass++)
		{
			for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			{
				int			n = net->literal_start[r + 1] - net->literal_start[r];

				if ((trigger[r] >= 0) != (pass == 1))
					continue;
				if (pass == 1)
				{
					int			slot = net->trigger_start[trigger[r] - net->nbase]++;

					net->trigger_rule[slot] = nrules;
					net->trigger_head[slot] = v;
				}
				literal_start[nrules++] = nliterals;
				memcpy(literals + nliterals, net->literals + net->literal_start[r], n * sizeof(int32));
				nliterals += n;
			}
			if (pass == 0)
				net->rule_end[v] = nrules;
		}
	}
	rule_start[net->nnodes] = nrules;
	literal_start[nrules] = nliterals;
	/* trigger_start was advanced past each input's rules: shift it back */
	for (int i = net->ninputs; i > 0; i--)
		net->trigger_start[i] = net->trigger_start[i - 1];
	net->trigger_start[0] = 0;
	net->rule_start = rule_start;
	net->literal_start = literal_start;
	net->literals = literals;
}

static bool *
new_flags(const Propnet *net)
{
	return palloc0(net->nnodes * sizeof(bool));
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
	net->rule_end = palloc0(net->nnodes * sizeof(int32));
	net->trigger_start = palloc0((net->ninputs + 1) * sizeof(int32));
	net->trigger_rule = palloc0(sizeof(int32));
	net->trigger_head = palloc0(sizeof(int32));
	net->literal_start = palloc0(sizeof(int32));
	net->literals = palloc0(sizeof(int32));
	net->group_start = palloc0(sizeof(int32));
	net->group_nodes = palloc0(sizeof(int32));
	for (int phase = 0; phase < NUM_PHASES; phase++)
		net->steps[phase] = palloc0(sizeof(int32));
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

	map_init(&b->nodes, base->n + inputs->n + g->nrules);
	b->node_atom = palloc_extended((base->n + inputs->n + g->nrules + 1) * sizeof(TermId), MCXT_ALLOC_HUGE);
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

/*
 * The nodes whose value depends on the move: the inputs, and each step
 * (a cycle group as a whole) with a rule that reads one of them.
 */
static bool *
mark_input_users(const Builder *b)
{
	const Propnet *net = b->net;
	bool	   *uses_input = new_flags(net);

	for (int i = net->nbase; i < net->nbase + net->ninputs; i++)
		uses_input[i] = true;
	for (int s = 0; s < b->norder; s++)
	{
		int32		step = b->order[s];
		int			first = step >= 0 ? 0 : net->group_start[-step - 1];
		int			last = step >= 0 ? 1 : net->group_start[-step];
		bool		any = false;

		CHECK_FOR_INTERRUPTS();
		for (int k = first; k < last; k++)
		{
			int			node = step >= 0 ? step : net->group_nodes[k];

			for (int r = net->rule_start[node]; r < net->rule_start[node + 1]; r++)
				for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
					any |= uses_input[net->literals[l] >> 1];
		}
		for (int k = first; k < last; k++)
			uses_input[step >= 0 ? step : net->group_nodes[k]] = any;
	}
	return uses_input;
}

/*
 * The steps of each phase: the cone of the nodes its outputs depend on,
 * less what a phase run before it on the same state has computed (legal
 * after terminal, goal after terminal alone, the state's part of next
 * after both), with the part of next's cone that depends on the move
 * apart (PHASE_MOVE).
 */
static void
make_phases(Builder *b, const bool *uses_input)
{
	Propnet    *net = b->net;
	bool	   *done = new_flags(net);
	bool	   *cone,
			   *terminal_cone;

	cone = new_flags(net);
	if (net->terminal >= 0)
		cone[net->terminal] = true;
	close_cone(net, b, cone);
	make_phase(net, b, PHASE_TERMINAL, cone, NULL, uses_input, -1);
	memcpy(done, cone, net->nnodes * sizeof(bool));
	terminal_cone = cone;

	cone = new_flags(net);
	for (int i = 0; i < net->ninputs; i++)
		if (net->input_legal[i] >= 0)
			cone[net->input_legal[i]] = true;
	close_cone(net, b, cone);
	make_phase(net, b, PHASE_LEGAL, cone, done, uses_input, -1);
	for (int v = 0; v < net->nnodes; v++)
		done[v] |= cone[v];

	/* goal runs after terminal alone */
	cone = new_flags(net);
	for (int i = 0; i < net->ngoals; i++)
		cone[net->goals[i].node] = true;
	close_cone(net, b, cone);
	make_phase(net, b, PHASE_GOAL, cone, terminal_cone, uses_input, -1);

	cone = new_flags(net);
	for (int i = 0; i < net->nbase; i++)
		if (net->base_next[i] >= 0)
			cone[net->base_next[i]] = true;
	close_cone(net, b, cone);
	make_phase(net, b, PHASE_STATE, cone, done, uses_input, 0);
	make_phase(net, b, PHASE_MOVE, cone, NULL, uses_input, 1);
}

/* The phases of building: each one reads what the ones before it made. */
Propnet *
propnet_build(Grounding *g, const TermId *roles, int nroles)
{
	Propnet    *net = palloc0(sizeof(Propnet));
	Builder		b = {.g = g,.net = net};
	TermId	   *facts = layout_inputs(net, g, roles, nroles);
	bool	   *uses_input;

	number_nodes(&b, facts, roles, nroles);
	list_rules_by_head(&b);
	order_nodes(&b);
	lay_out_rules(&b);
	lay_out_groups(&b);
	find_outputs(&b, roles, nroles);
	find_goals(&b, roles, nroles);
	uses_input = mark_input_users(&b);
	make_phases(&b, uses_input);
	file_triggered_rules(net, uses_input);
	return net;
}


/* A literal fails when its node's value equals its negation bit. */
static inline bool
rule_holds(const Propnet *net, const uint8 *values, int32 r)
{
	int			l = net->literal_start[r],
				end = net->literal_start[r + 1];

	while (l < end && values[net->literals[l] >> 1] != (net->literals[l] & 1))
		l++;
	return l == end;
}

static inline bool
node_holds(const Propnet *net, const uint8 *values, int32 node)
{
	for (int r = net->rule_start[node]; r < net->rule_end[node]; r++)
		if (rule_holds(net, values, r))
			return true;
	return false;
}

/* A cycle group: from false (or what triggered rules set, keep) to its fixpoint. */
static void
run_group(const Propnet *net, int group, uint8 *values, bool keep)
{
	int			first = net->group_start[group],
				last = net->group_start[group + 1];
	bool		changed = true;

	if (!keep)
		for (int k = first; k < last; k++)
			values[net->group_nodes[k]] = 0;
	while (changed)
	{
		changed = false;
		for (int k = first; k < last; k++)
		{
			int32		node = net->group_nodes[k];

			if (!values[node] && node_holds(net, values, node))
			{
				values[node] = 1;
				changed = true;
			}
		}
	}
}

/*
 * Runs the code of a phase.  keep: nodes keep what triggered rules set
 * (the move phase); otherwise each step sets its node.
 */
static void
run_steps(const Propnet *net, NetPhase phase, uint8 *values, bool keep)
{
	const int32 *pc = net->code[phase];
	const int32 *end = pc + net->ncode[phase];

	while (pc < end)
	{
		int32		node = pc[0];
		const int32 *next_step;
		bool		holds;

		if (unlikely(node < 0))
		{
			run_group(net, -node - 1, values, keep);
			pc++;
			continue;
		}
		next_step = pc + 2 + pc[1];
		holds = keep && values[node];
		pc += 2;
		while (!holds && pc < next_step)
		{
			const int32 *literal = pc + 1;
			const int32 *last = literal + pc[0];

			/* a literal fails when its node's value equals its negation bit */
			while (literal < last && values[*literal >> 1] != (*literal & 1))
				literal++;
			holds = literal == last;
			pc = last;
		}
		values[node] = holds;
		pc = next_step;
	}
}

void
propnet_lay_out(Propnet *net)
{
	for (int phase = 0; phase < NUM_PHASES; phase++)
	{
		int			n = 0;
		int32	   *code;

		for (int s = 0; s < net->nsteps[phase]; s++)
		{
			int32		v = net->steps[phase][s];

			if (v < 0)
			{
				n++;
				continue;
			}
			n += 2 + (net->rule_end[v] - net->rule_start[v]) +
				(net->literal_start[net->rule_end[v]] - net->literal_start[net->rule_start[v]]);
		}
		code = palloc_extended(Max(1, n) * sizeof(int32), MCXT_ALLOC_HUGE);
		n = 0;
		for (int s = 0; s < net->nsteps[phase]; s++)
		{
			int32		v = net->steps[phase][s];
			int			start;

			code[n++] = v;
			if (v < 0)
				continue;
			start = n++;
			for (int r = net->rule_start[v]; r < net->rule_end[v]; r++)
			{
				int			count = net->literal_start[r + 1] - net->literal_start[r];

				code[n++] = count;
				memcpy(code + n, net->literals + net->literal_start[r], count * sizeof(int32));
				n += count;
			}
			code[start] = n - start - 1;
		}
		if (net->code[phase] != NULL)
			pfree(net->code[phase]);
		net->code[phase] = code;
		net->ncode[phase] = n;
	}
}

bool
propnet_run(const Propnet *net, NetPhase phase, uint8 *values)
{
	if (net->prover != NULL)
		return prover_run(net->prover, net, phase, values);
	run_steps(net, phase, values, false);
	return true;
}

bool
propnet_run_move(const Propnet *net, uint8 *values, const int32 *inputs, int ninputs)
{
	const int32 *steps = net->steps[PHASE_MOVE];

	if (net->prover != NULL)
		return prover_run(net->prover, net, PHASE_MOVE, values);
	/* nodes start false, then true where a triggered rule of the move's actions holds */
	for (int s = 0; s < net->nsteps[PHASE_MOVE]; s++)
	{
		if (steps[s] >= 0)
			values[steps[s]] = 0;
		else
			for (int k = net->group_start[-steps[s] - 1]; k < net->group_start[-steps[s]]; k++)
				values[net->group_nodes[k]] = 0;
	}
	for (int i = 0; i < ninputs; i++)
	{
		int			input = inputs[i] - net->nbase;

		for (int t = net->trigger_start[input]; t < net->trigger_start[input + 1]; t++)
			if (rule_holds(net, values, net->trigger_rule[t]))
				values[net->trigger_head[t]] = 1;
	}
	run_steps(net, PHASE_MOVE, values, true);
	return true;
}
