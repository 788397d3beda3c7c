/*
 * ground.c: grounds a GDL program (see ground.h).
 *
 * Rules are evaluated bottom-up and semi-naively: after a first full pass,
 * each round joins only with what the round before derived.  Each rule's
 * body is joined in a planned order (the literal with the fewest unbound
 * variables next, tests as soon as their variables are bound), looking
 * atoms up by their first bound argument.
 */
#include "postgres.h"

#include <limits.h>

#include "common/hashfn.h"
#include "gdl/ground.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* How often (in atoms and rules made) grounding checks its memory. */
#define MEMORY_CHECK_INTERVAL 4096

static inline uint32
hash_id(int32 id)
{
	return murmurhash32((uint32) id);
}

static void
check_memory(Grounding *g)
{
	if (++g->allocations < MEMORY_CHECK_INTERVAL)
		return;
	g->allocations = 0;
	CHECK_FOR_INTERRUPTS();
	if (MemoryContextMemAllocated(g->cxt, true) > g->memory_limit)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": grounding its rules needs more than gametree.gdl_memory (%zu kB)",
						g->program->game, g->memory_limit / 1024),
				 errdetail("So far %d ground rules over %d terms.", g->nrules, g->terms->nterms),
				 errhint("Raise gametree.gdl_memory, or simplify the rules.")));
}

static int32 *
new_slots(int n)
{
	int32	   *s = palloc_extended(n * sizeof(int32), MCXT_ALLOC_HUGE);

	memset(s, 0xff, n * sizeof(int32));
	return s;
}

/* The slot of key in an open-addressing table of size (a power of two). */
static inline int
find_slot(const int32 *keys, int size, int32 key)
{
	int			i = hash_id(key) & (size - 1);

	while (keys[i] != key && keys[i] != -1)
		i = (i + 1) & (size - 1);
	return i;
}

int
tuples_find(const Tuples *t, TermId atom)
{
	int			i;

	if (t->set_size == 0)
		return -1;
	i = find_slot(t->set_keys, t->set_size, atom);
	return t->set_keys[i] == atom ? t->set_values[i] : -1;
}

static void
index_atom(const TermStore *ts, Tuples *t, int arity, int idx)
{
	TermId		atom = t->atoms[idx];
	int			i = find_slot(t->set_keys, t->set_size, atom);

	t->set_keys[i] = atom;
	t->set_values[i] = idx;
	for (int a = 0; a < arity; a++)
	{
		TermId		key = term_arg(ts, atom, a);
		int			s = find_slot(t->arg_keys[a], t->arg_size, key);

		t->arg_previous[a][idx] = t->arg_keys[a][s] == key ? t->arg_last[a][s] : -1;
		t->arg_keys[a][s] = key;
		t->arg_last[a][s] = idx;
	}
}

/* Grows the tables of t for one more atom, rebuilding the hash tables. */
static void
make_room(const TermStore *ts, Tuples *t, int arity)
{
	if (t->n == t->room)
	{
		t->room = Max(64, 2 * t->room);
		t->atoms = t->atoms == NULL ? palloc_extended(t->room * sizeof(TermId), MCXT_ALLOC_HUGE) :
			repalloc_huge(t->atoms, t->room * sizeof(TermId));
		if (arity > 0 && t->arg_previous == NULL)
			t->arg_previous = palloc0(arity * sizeof(int32 *));
		for (int a = 0; a < arity; a++)
			t->arg_previous[a] = t->arg_previous[a] == NULL ?
				palloc_extended(t->room * sizeof(int32), MCXT_ALLOC_HUGE) :
				repalloc_huge(t->arg_previous[a], t->room * sizeof(int32));
	}
	if (2 * (t->n + 1) > t->set_size)
	{
		t->set_size = Max(128, 2 * t->set_size);
		t->arg_size = t->set_size;
		if (t->set_keys != NULL)
		{
			pfree(t->set_keys);
			pfree(t->set_values);
		}
		t->set_keys = new_slots(t->set_size);
		t->set_values = new_slots(t->set_size);
		if (arity > 0 && t->arg_keys == NULL)
		{
			t->arg_keys = palloc0(arity * sizeof(int32 *));
			t->arg_last = palloc0(arity * sizeof(int32 *));
		}
		for (int a = 0; a < arity; a++)
		{
			if (t->arg_keys[a] != NULL)
			{
				pfree(t->arg_keys[a]);
				pfree(t->arg_last[a]);
			}
			t->arg_keys[a] = new_slots(t->arg_size);
			t->arg_last[a] = new_slots(t->arg_size);
		}
		for (int i = 0; i < t->n; i++)
			index_atom(ts, t, arity, i);
	}
}

/* Adds atom to relation r; false when it was there. */
static bool
tuples_add(Grounding *g, int r, TermId atom)
{
	Tuples	   *t = &g->tuples[r];
	int			arity = g->program->relations[r].arity;

	if (tuples_find(t, atom) >= 0)
		return false;
	make_room(g->terms, t, arity);
	t->atoms[t->n] = atom;
	index_atom(g->terms, t, arity, t->n);
	t->n++;
	check_memory(g);
	return true;
}

/* One join of a rule's body. */
typedef struct Join
{
	Grounding  *g;
	const Rule *rule;
	const int  *order;			/* body literals in join order */
	TermId	   *binding;		/* per variable, NO_TERM while unbound */
	int		   *trail;			/* variables bound, to undo */
	int			ntrail;
	int		   *lo;				/* per position in order: atoms [lo, hi) of the relation */
	int		   *hi;
	TermId	   *matched;		/* per position: the ground atom of the literal */
	bool		relaxed;		/* negations of state-dependent relations hold */
	bool		instantiate;	/* emit ground rules, not atoms */
	bool		changed;
} Join;

static bool
unify(Join *j, TermId pattern, TermId ground)
{
	const TermStore *ts = j->g->terms;
	const TermNode *p = term_node(ts, pattern);
	const TermNode *q;

	if (pattern == ground)
		return true;
	if (p->ground)
		return false;
	if (p->kind == TERM_VARIABLE)
	{
		if (j->binding[p->name] != NO_TERM)
			return j->binding[p->name] == ground;
		j->binding[p->name] = ground;
		j->trail[j->ntrail++] = p->name;
		return true;
	}
	q = term_node(ts, ground);
	if (q->kind != TERM_FUNCTION || q->name != p->name || q->nargs != p->nargs)
		return false;
	check_stack_depth();
	for (int i = 0; i < p->nargs; i++)
		if (!unify(j, term_arg(ts, pattern, i), term_arg(ts, ground, i)))
			return false;
	return true;
}

static void
undo(Join *j, int mark)
{
	while (j->ntrail > mark)
		j->binding[j->trail[--j->ntrail]] = NO_TERM;
}

/*
 * The ground term pattern stands for under the bindings.  insert false:
 * NO_TERM when that term is not in the store (so no relation holds it) or
 * a variable is unbound.
 */
static TermId
substitute(Join *j, TermId pattern, bool insert)
{
	TermStore  *ts = j->g->terms;
	const TermNode *p = term_node(ts, pattern);
	/* not p: inserting terms moves the nodes */
	SymbolId	name = p->name;
	int			nargs = p->nargs;
	TermId		args[64];
	TermId	   *argv = args;
	TermId		result;

	if (p->ground)
		return pattern;
	if (p->kind == TERM_VARIABLE)
		return j->binding[p->name];
	check_stack_depth();
	if (nargs > lengthof(args))
		argv = palloc(nargs * sizeof(TermId));
	for (int i = 0; i < nargs; i++)
	{
		argv[i] = substitute(j, term_arg(ts, pattern, i), insert);
		if (argv[i] == NO_TERM)
			return NO_TERM;
	}
	result = insert ? term_function(ts, name, nargs, argv) :
		term_function_lookup(ts, name, nargs, argv);
	if (argv != args)
		pfree(argv);
	return result;
}

static void emit(Join *j);

static void join_from(Join *j, int k);

static void
try_atom(Join *j, int k, TermId pattern, TermId atom)
{
	int			mark = j->ntrail;

	if (unify(j, pattern, atom))
	{
		j->matched[k] = atom;
		join_from(j, k + 1);
	}
	undo(j, mark);
}

static void
join_positive(Join *j, int k, const Literal *lit)
{
	const TermStore *ts = j->g->terms;
	Tuples	   *t = &j->g->tuples[lit->relation];
	int			lo = j->lo[k],
				hi = j->hi[k];
	TermId		atom = substitute(j, lit->atom, false);
	int			arity = term_arity(ts, lit->atom);

	if (lo >= hi)
		return;
	if (atom != NO_TERM || term_node(ts, lit->atom)->ground)
	{
		int			idx = atom == NO_TERM ? -1 : tuples_find(t, atom);

		if (idx >= lo && idx < hi)
			try_atom(j, k, lit->atom, atom);
		return;
	}
	/* look atoms up by the first argument that is bound */
	for (int a = 0; a < arity; a++)
	{
		TermId		key = substitute(j, term_arg(ts, lit->atom, a), false);
		int			s;

		if (key == NO_TERM)
			continue;
		s = find_slot(t->arg_keys[a], t->arg_size, key);
		if (t->arg_keys[a][s] != key)
			return;
		for (int idx = t->arg_last[a][s]; idx >= lo; idx = t->arg_previous[a][idx])
			if (idx < hi)
				try_atom(j, k, lit->atom, t->atoms[idx]);
		return;
	}
	for (int idx = lo; idx < hi; idx++)
		try_atom(j, k, lit->atom, t->atoms[idx]);
}

static void
join_from(Join *j, int k)
{
	const Rule *rule = j->rule;
	const Literal *lit;

	if (k == rule->nbody)
	{
		emit(j);
		return;
	}
	check_stack_depth();
	lit = &rule->body[j->order[k]];
	switch (lit->kind)
	{
		case LIT_POSITIVE:
			join_positive(j, k, lit);
			break;
		case LIT_NEGATIVE:
			{
				TermId		atom = substitute(j, lit->atom, false);
				bool		holds = atom != NO_TERM &&
					tuples_find(&j->g->tuples[lit->relation], atom) >= 0;

				if (holds && !(j->relaxed && j->g->program->relations[lit->relation].dynamic))
					return;
				j->matched[k] = holds ? atom : NO_TERM;
				join_from(j, k + 1);
				break;
			}
		case LIT_DISTINCT:
			if (substitute(j, lit->atom, true) != substitute(j, lit->other, true))
				join_from(j, k + 1);
			break;
	}
}

static void
add_ground_rule(Grounding *g, TermId head, const int32 *literals, int n)
{
	GroundRule *r;

	if (g->nrules == g->rule_room)
	{
		g->rule_room = Max(1024, 2 * g->rule_room);
		g->rules = g->rules == NULL ? palloc_extended(g->rule_room * sizeof(GroundRule), MCXT_ALLOC_HUGE) :
			repalloc_huge(g->rules, g->rule_room * sizeof(GroundRule));
	}
	while (g->nliterals + n > g->literal_room)
	{
		g->literal_room = Max(4096, 2 * g->literal_room);
		g->literals = g->literals == NULL ? palloc_extended(g->literal_room * sizeof(int32), MCXT_ALLOC_HUGE) :
			repalloc_huge(g->literals, g->literal_room * sizeof(int32));
	}
	r = &g->rules[g->nrules++];
	r->head = head;
	r->first = g->nliterals;
	r->nliterals = n;
	memcpy(&g->literals[g->nliterals], literals, n * sizeof(int32));
	g->nliterals += n;
	check_memory(g);
}

static void
emit(Join *j)
{
	Grounding  *g = j->g;
	const Rule *rule = j->rule;
	TermId		head = substitute(j, rule->head, true);
	int32		literals[256];
	int			n = 0;

	if (!j->instantiate)
	{
		if (tuples_add(g, rule->relation, head))
			j->changed = true;
		return;
	}
	/* static literals hold (they were joined exactly); so do negations of atoms that never hold */
	for (int k = 0; k < rule->nbody; k++)
	{
		const Literal *lit = &rule->body[j->order[k]];

		if (lit->kind == LIT_DISTINCT || !g->program->relations[lit->relation].dynamic ||
			j->matched[k] == NO_TERM)
			continue;
		literals[n++] = (j->matched[k] << 1) | (lit->kind == LIT_NEGATIVE ? 1 : 0);
	}
	add_ground_rule(g, head, literals, n);
}

/* Marks the variables of t in bound[]; returns how many were unbound. */
static int
bind_variables(const TermStore *ts, TermId t, bool *bound, bool mark)
{
	const TermNode *n = term_node(ts, t);
	int			count = 0;

	if (n->ground)
		return 0;
	if (n->kind == TERM_VARIABLE)
	{
		count = bound[n->name] ? 0 : 1;
		if (mark)
			bound[n->name] = true;
		return count;
	}
	for (int i = 0; i < n->nargs; i++)
		count += bind_variables(ts, term_arg(ts, t, i), bound, mark);
	return count;
}

/*
 * Join order of a rule: tests (negations, distinct) as soon as their
 * variables are bound; then the positive literal with the fewest unbound
 * variables, static relations first.
 */
static int *
plan_rule(const Grounding *g, const Rule *rule)
{
	const TermStore *ts = g->terms;
	int		   *order = palloc(Max(1, rule->nbody) * sizeof(int));
	bool	   *used = palloc0(Max(1, rule->nbody) * sizeof(bool));
	bool	   *bound = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	int			n = 0;

	if (rule->nbody > 256)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": a rule with more than 256 literals", g->program->game),
				 errdetail("The rule is %s", program_rule_text(g->program, rule->sentence))));
	while (n < rule->nbody)
	{
		int			best = -1,
					best_score = INT_MAX;

		for (int i = 0; i < rule->nbody; i++)
		{
			const Literal *lit = &rule->body[i];

			if (used[i] || lit->kind == LIT_POSITIVE)
				continue;
			if (bind_variables(ts, lit->atom, bound, false) == 0 &&
				(lit->kind != LIT_DISTINCT || bind_variables(ts, lit->other, bound, false) == 0))
			{
				order[n++] = i;
				used[i] = true;
			}
		}
		for (int i = 0; i < rule->nbody; i++)
		{
			const Literal *lit = &rule->body[i];
			int			score;

			if (used[i] || lit->kind != LIT_POSITIVE)
				continue;
			score = 2 * bind_variables(ts, lit->atom, bound, false) +
				(g->program->relations[lit->relation].dynamic ? 1 : 0);
			if (score < best_score)
			{
				best = i;
				best_score = score;
			}
		}
		if (best < 0)
			break;
		order[n++] = best;
		used[best] = true;
		bind_variables(ts, rule->body[best].atom, bound, true);
	}
	Assert(n == rule->nbody);
	return order;
}

typedef struct RulePlan
{
	const Rule *rule;
	int		   *order;
} RulePlan;

static void
run_join(Grounding *g, const RulePlan *plan, int *lo, int *hi, bool relaxed, bool instantiate,
		 bool *changed)
{
	const Rule *rule = plan->rule;
	Join		j = {.g = g,.rule = rule,.order = plan->order,.lo = lo,.hi = hi,
	.relaxed = relaxed,.instantiate = instantiate};

	j.binding = palloc(Max(1, rule->nvariables) * sizeof(TermId));
	for (int v = 0; v < rule->nvariables; v++)
		j.binding[v] = NO_TERM;
	j.trail = palloc(Max(1, rule->nvariables) * sizeof(int));
	j.matched = palloc(Max(1, rule->nbody) * sizeof(TermId));
	join_from(&j, 0);
	if (j.changed)
		*changed = true;
	pfree(j.binding);
	pfree(j.trail);
	pfree(j.matched);
}

/*
 * Evaluates rules to a fixpoint, semi-naively; in_component[r]: relation r
 * is derived by these rules (the others are complete).
 */
static void
evaluate(Grounding *g, RulePlan *plans, int nplans, const bool *in_component, bool relaxed)
{
	const Program *p = g->program;
	int		   *previous = palloc(p->nrelations * sizeof(int));
	int		   *current = palloc(p->nrelations * sizeof(int));
	int			lo[256],
				hi[256];
	bool		changed = false;

	for (int r = 0; r < p->nrelations; r++)
		previous[r] = current[r] = g->tuples[r].n;
	/* a first, full pass */
	for (int i = 0; i < nplans; i++)
	{
		for (int k = 0; k < plans[i].rule->nbody; k++)
		{
			lo[k] = 0;
			hi[k] = plans[i].rule->body[plans[i].order[k]].relation >= 0 ?
				current[plans[i].rule->body[plans[i].order[k]].relation] : 0;
		}
		run_join(g, &plans[i], lo, hi, relaxed, false, &changed);
	}
	while (changed)
	{
		changed = false;
		for (int r = 0; r < p->nrelations; r++)
		{
			previous[r] = current[r];
			current[r] = g->tuples[r].n;
		}
		for (int i = 0; i < nplans; i++)
		{
			const Rule *rule = plans[i].rule;

			for (int d = 0; d < rule->nbody; d++)
			{
				const Literal *delta = &rule->body[plans[i].order[d]];

				if (delta->kind != LIT_POSITIVE || !in_component[delta->relation] ||
					previous[delta->relation] == current[delta->relation])
					continue;
				for (int k = 0; k < rule->nbody; k++)
				{
					int			r = rule->body[plans[i].order[k]].relation;

					lo[k] = k == d ? previous[r] : 0;
					hi[k] = r < 0 ? 0 : k < d && in_component[r] ? previous[r] : current[r];
				}
				run_join(g, &plans[i], lo, hi, relaxed, false, &changed);
			}
		}
	}
	pfree(previous);
	pfree(current);
}

/* The rule head(?0, ...) :- body(?0, ...), for true :- init, next and does :- legal. */
static Rule *
copy_rule(Program *p, int head, int body)
{
	Rule	   *rule = palloc0(sizeof(Rule));
	const Relation *h = &p->relations[head];
	const Relation *b = &p->relations[body];
	TermId		args[2];

	for (int i = 0; i < h->arity; i++)
		args[i] = term_variable(p->terms, i);
	rule->head = term_function(p->terms, h->name, h->arity, args);
	rule->relation = head;
	rule->nbody = 1;
	rule->body = palloc0(sizeof(Literal));
	rule->body[0].kind = LIT_POSITIVE;
	rule->body[0].relation = body;
	rule->body[0].atom = term_function(p->terms, b->name, b->arity, args);
	rule->nvariables = h->arity;
	rule->sentence = -1;
	return rule;
}

Grounding *
ground_program(Program *p, Size memory_limit)
{
	Grounding  *g = palloc0(sizeof(Grounding));
	RulePlan   *plans = palloc((p->nrules + 3) * sizeof(RulePlan));
	bool	   *in_component = palloc0(p->nrelations * sizeof(bool));
	int			nplans;

	g->program = p;
	g->terms = p->terms;
	g->tuples = palloc0(p->nrelations * sizeof(Tuples));
	g->memory_limit = memory_limit;
	g->cxt = CurrentMemoryContext;

	/* relations that do not depend on the state, exactly, component by component */
	for (int c = 0; c < p->ncomponents; c++)
	{
		nplans = 0;
		for (int r = 0; r < p->nrelations; r++)
		{
			const Relation *rel = &p->relations[r];

			in_component[r] = rel->component == c && !rel->dynamic;
			if (in_component[r])
				for (int i = 0; i < rel->nrules; i++)
				{
					plans[nplans].rule = &p->rules[rel->rules[i]];
					plans[nplans].order = plan_rule(g, plans[nplans].rule);
					nplans++;
				}
		}
		if (nplans > 0)
			evaluate(g, plans, nplans, in_component, false);
	}

	/* what can ever hold of the others, all at once */
	nplans = 0;
	for (int r = 0; r < p->nrules; r++)
		if (p->relations[p->rules[r].relation].dynamic)
		{
			plans[nplans].rule = &p->rules[r];
			plans[nplans].order = plan_rule(g, plans[nplans].rule);
			nplans++;
		}
	plans[nplans++].rule = copy_rule(p, p->rel_true, p->rel_init);
	plans[nplans++].rule = copy_rule(p, p->rel_true, p->rel_next);
	plans[nplans++].rule = copy_rule(p, p->rel_does, p->rel_legal);
	for (int i = nplans - 3; i < nplans; i++)
		plans[i].order = plan_rule(g, plans[i].rule);
	for (int r = 0; r < p->nrelations; r++)
		in_component[r] = p->relations[r].dynamic;
	evaluate(g, plans, nplans, in_component, true);

	/* the ground rules: every rule of a state-dependent relation, instantiated */
	for (int i = 0; i < nplans - 3; i++)
	{
		int			lo[256],
					hi[256];
		bool		changed;

		for (int k = 0; k < plans[i].rule->nbody; k++)
		{
			int			r = plans[i].rule->body[plans[i].order[k]].relation;

			lo[k] = 0;
			hi[k] = r < 0 ? 0 : g->tuples[r].n;
		}
		run_join(g, &plans[i], lo, hi, true, true, &changed);
	}
	return g;
}
