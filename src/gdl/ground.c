/*
 * ground.c: grounds a GDL program (see ground.h).
 *
 * Rules are evaluated bottom-up and semi-naively: after a first full pass,
 * each round joins only with what the round before derived.  A body is
 * joined literal by literal, choosing at each step the positive literal
 * that the bindings so far leave the fewest atoms for (looked up by a bound
 * argument, or an argument of one), and running the tests (negations,
 * distinct) as soon as their variables are bound.
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

static inline uint32
hash_key(int64 key)
{
	return murmurhash32((uint32) key ^ murmurhash32((uint32) (key >> 32)));
}

static int
index_slot(const Tuples *t, int64 key)
{
	int			i = hash_key(key) & (t->index_size - 1);

	while (t->index_keys[i] != key && t->index_keys[i] != -1)
		i = (i + 1) & (t->index_size - 1);
	return i;
}

static inline int64
path_key(int path, TermId value)
{
	return ((int64) path << 32) | (uint32) value;
}

/* Links atom idx into the chain of (path, value). */
static void
index_path(const TermStore *ts, Tuples *t, int idx, int path, TermId value)
{
	int64		key = path_key(path, value);
	int			s;

	s = index_slot(t, key);
	if (t->previous[path] == NULL)
		t->previous[path] = palloc_extended(t->room * sizeof(int32), MCXT_ALLOC_HUGE);
	if (t->index_keys[s] == key)
	{
		t->previous[path][idx] = t->index_last[s];
		t->index_count[s]++;
	}
	else
	{
		t->previous[path][idx] = -1;
		t->index_keys[s] = key;
		t->index_count[s] = 1;
		t->index_used++;
	}
	t->index_last[s] = idx;
}

static void
index_atom(const TermStore *ts, Tuples *t, int idx)
{
	TermId		atom = t->atoms[idx];
	int			arity = term_arity(ts, atom);

	for (int a = 0; a < arity; a++)
	{
		TermId		arg = term_arg(ts, atom, a);
		const TermNode *n = term_node(ts, arg);

		index_path(ts, t, idx, a * PATH_STRIDE, arg);
		if (n->kind == TERM_FUNCTION)
			for (int b = 0; b < n->nargs && b < PATH_STRIDE - 1; b++)
				index_path(ts, t, idx, a * PATH_STRIDE + 1 + b, term_arg(ts, arg, b));
	}
}

/* A larger index, with the atoms linked again in order. */
static void
rebuild_index(const TermStore *ts, Tuples *t)
{
	int			n = t->n;

	t->index_size = Max(256, 4 * t->index_size);
	if (t->index_keys != NULL)
	{
		pfree(t->index_keys);
		pfree(t->index_last);
		pfree(t->index_count);
	}
	t->index_keys = palloc_extended(t->index_size * sizeof(int64), MCXT_ALLOC_HUGE);
	memset(t->index_keys, 0xff, t->index_size * sizeof(int64));
	t->index_last = palloc_extended(t->index_size * sizeof(int32), MCXT_ALLOC_HUGE);
	t->index_count = palloc_extended(t->index_size * sizeof(int32), MCXT_ALLOC_HUGE);
	t->index_used = 0;
	for (int i = 0; i < n; i++)
		index_atom(ts, t, i);
}

/* Adds atom to relation r; false when it was there. */
static bool
tuples_add(Grounding *g, int r, TermId atom)
{
	Tuples	   *t = &g->tuples[r];
	int			i;

	if (tuples_find(t, atom) >= 0)
		return false;
	if (t->n == t->room)
	{
		t->room = Max(64, 2 * t->room);
		t->atoms = t->atoms == NULL ? palloc_extended(t->room * sizeof(TermId), MCXT_ALLOC_HUGE) :
			repalloc_huge(t->atoms, t->room * sizeof(TermId));
		if (t->previous == NULL)
		{
			t->npaths = Max(1, g->program->relations[r].arity) * PATH_STRIDE;
			t->previous = palloc0(t->npaths * sizeof(int32 *));
		}
		for (int p = 0; p < t->npaths; p++)
			if (t->previous[p] != NULL)
				t->previous[p] = repalloc_huge(t->previous[p], t->room * sizeof(int32));
	}
	if (2 * (t->n + 1) > t->set_size)
	{
		t->set_size = Max(128, 2 * t->set_size);
		if (t->set_keys != NULL)
		{
			pfree(t->set_keys);
			pfree(t->set_values);
		}
		t->set_keys = new_slots(t->set_size);
		t->set_values = new_slots(t->set_size);
		for (int k = 0; k < t->n; k++)
		{
			i = find_slot(t->set_keys, t->set_size, t->atoms[k]);
			t->set_keys[i] = t->atoms[k];
			t->set_values[i] = k;
		}
	}
	/* room for every path of the atom, before any is linked */
	if (2 * (t->index_used + t->npaths) > t->index_size)
		rebuild_index(g->terms, t);
	t->atoms[t->n] = atom;
	i = find_slot(t->set_keys, t->set_size, atom);
	t->set_keys[i] = atom;
	t->set_values[i] = t->n;
	index_atom(g->terms, t, t->n);
	t->n++;
	check_memory(g);
	return true;
}

/* Most literals in a rule's body. */
#define MAX_BODY 256

/* One join of a rule's body. */
typedef struct Join
{
	Grounding  *g;
	const Rule *rule;
	TermId	   *binding;		/* per variable, NO_TERM while unbound */
	int		   *trail;			/* variables bound, to undo */
	int			ntrail;
	const int  *lo;				/* per body literal: atoms [lo, hi) of its relation */
	const int  *hi;
	TermId	   *matched;		/* per body literal: its ground atom */
	bool	   *done;			/* per body literal: joined or tested on this path */
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

static bool
all_bound(const Join *j, TermId t)
{
	const TermStore *ts = j->g->terms;
	const TermNode *n = term_node(ts, t);

	if (n->ground)
		return true;
	if (n->kind == TERM_VARIABLE)
		return j->binding[n->name] != NO_TERM;
	for (int i = 0; i < n->nargs; i++)
		if (!all_bound(j, term_arg(ts, t, i)))
			return false;
	return true;
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

/* Where a positive literal's atoms are found under the bindings so far. */
typedef struct Candidates
{
	int			count;			/* how many (an estimate when looked up by a path) */
	int			slot;			/* index slot of the path, or -1 */
	int			path;
	bool		exact;			/* all bound: the atom itself */
	TermId		atom;
} Candidates;

/* Keeps the path with the fewest atoms that hold key there (none: a count of 0). */
static void
consider_path(const Tuples *t, int path, TermId key, Candidates *c)
{
	int			s;

	if (t->index_size == 0)
	{
		c->count = 0;
		return;
	}
	s = index_slot(t, path_key(path, key));
	if (t->index_keys[s] != path_key(path, key))
		c->count = 0;
	else if (t->index_count[s] < c->count)
	{
		c->count = t->index_count[s];
		c->slot = s;
		c->path = path;
	}
}

static Candidates
candidates(Join *j, int i)
{
	const TermStore *ts = j->g->terms;
	const Literal *lit = &j->rule->body[i];
	const Tuples *t = &j->g->tuples[lit->relation];
	int			arity = term_arity(ts, lit->atom);
	Candidates	c = {.count = j->hi[i] - j->lo[i],.slot = -1};

	if (c.count <= 0)
	{
		c.count = 0;
		return c;
	}
	if (all_bound(j, lit->atom))
	{
		int			idx;

		c.exact = true;
		c.atom = substitute(j, lit->atom, false);
		idx = c.atom == NO_TERM ? -1 : tuples_find(t, c.atom);
		c.count = idx >= j->lo[i] && idx < j->hi[i] ? 1 : 0;
		return c;
	}
	for (int a = 0; a < arity && c.count > 0; a++)
	{
		TermId		arg = term_arg(ts, lit->atom, a);
		TermId		key = substitute(j, arg, false);

		if (key != NO_TERM)
			consider_path(t, a * PATH_STRIDE, key, &c);
		else if (term_node(ts, arg)->kind == TERM_FUNCTION)
			for (int b = 0; b < term_node(ts, arg)->nargs && b < PATH_STRIDE - 1; b++)
				if ((key = substitute(j, term_arg(ts, arg, b), false)) != NO_TERM)
					consider_path(t, a * PATH_STRIDE + 1 + b, key, &c);
	}
	return c;
}

/* A negation or distinct whose variables are bound. */
static bool
test_holds(Join *j, int i)
{
	const Literal *lit = &j->rule->body[i];
	TermId		atom;
	bool		holds;

	if (lit->kind == LIT_DISTINCT)
		return substitute(j, lit->atom, true) != substitute(j, lit->other, true);
	atom = substitute(j, lit->atom, false);
	holds = atom != NO_TERM && tuples_find(&j->g->tuples[lit->relation], atom) >= 0;
	if (holds && !(j->relaxed && j->g->program->relations[lit->relation].dynamic))
		return false;
	j->matched[i] = holds ? atom : NO_TERM;
	return true;
}

static void emit(Join *j);

static void join_from(Join *j, int remaining);

static void
try_atom(Join *j, int i, int remaining, TermId atom)
{
	int			mark = j->ntrail;

	if (unify(j, j->rule->body[i].atom, atom))
	{
		j->matched[i] = atom;
		join_from(j, remaining);
	}
	undo(j, mark);
}

/* Joins the literals not done yet (remaining of them). */
static void
join_from(Join *j, int remaining)
{
	const Rule *rule = j->rule;
	int			tested[MAX_BODY];
	int			ntested = 0;
	int			best = -1;
	Candidates	c = {.count = INT_MAX};
	const Tuples *t;

	if (remaining == 0)
	{
		emit(j);
		return;
	}
	check_stack_depth();
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *lit = &rule->body[i];

		if (j->done[i] || lit->kind == LIT_POSITIVE || !all_bound(j, lit->atom) ||
			(lit->kind == LIT_DISTINCT && !all_bound(j, lit->other)))
			continue;
		if (!test_holds(j, i))
		{
			while (ntested > 0)
				j->done[tested[--ntested]] = false;
			return;
		}
		j->done[i] = true;
		tested[ntested++] = i;
	}
	if (ntested > 0)
	{
		join_from(j, remaining - ntested);
		while (ntested > 0)
			j->done[tested[--ntested]] = false;
		return;
	}
	for (int i = 0; i < rule->nbody; i++)
	{
		Candidates	ci;

		if (j->done[i] || rule->body[i].kind != LIT_POSITIVE)
			continue;
		ci = candidates(j, i);
		if (ci.count < c.count)
		{
			c = ci;
			best = i;
		}
		if (c.count == 0)
			return;
	}
	Assert(best >= 0);			/* rules are safe */
	t = &j->g->tuples[rule->body[best].relation];
	j->done[best] = true;
	if (c.exact)
		try_atom(j, best, remaining - 1, c.atom);
	else if (c.slot >= 0)
	{
		for (int idx = t->index_last[c.slot]; idx >= j->lo[best]; idx = t->previous[c.path][idx])
			if (idx < j->hi[best])
				try_atom(j, best, remaining - 1, t->atoms[idx]);
	}
	else
		for (int idx = j->lo[best]; idx < j->hi[best]; idx++)
			try_atom(j, best, remaining - 1, t->atoms[idx]);
	j->done[best] = false;
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
	int32		literals[MAX_BODY];
	int			n = 0;

	if (!j->instantiate)
	{
		if (tuples_add(g, rule->relation, head))
			j->changed = true;
		return;
	}
	/* static literals hold (they were joined exactly); so do negations of atoms that never hold */
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *lit = &rule->body[i];

		if (lit->kind == LIT_DISTINCT || !g->program->relations[lit->relation].dynamic ||
			j->matched[i] == NO_TERM)
			continue;
		literals[n++] = (j->matched[i] << 1) | (lit->kind == LIT_NEGATIVE ? 1 : 0);
	}
	add_ground_rule(g, head, literals, n);
}

static void
run_join(Grounding *g, const Rule *rule, const int *lo, const int *hi, bool relaxed,
		 bool instantiate, bool *changed)
{
	Join		j = {.g = g,.rule = rule,.lo = lo,.hi = hi,.relaxed = relaxed,
	.instantiate = instantiate};

	j.binding = palloc(Max(1, rule->nvariables) * sizeof(TermId));
	for (int v = 0; v < rule->nvariables; v++)
		j.binding[v] = NO_TERM;
	j.trail = palloc(Max(1, rule->nvariables) * sizeof(int));
	j.matched = palloc(Max(1, rule->nbody) * sizeof(TermId));
	j.done = palloc0(Max(1, rule->nbody) * sizeof(bool));
	join_from(&j, rule->nbody);
	if (j.changed)
		*changed = true;
	pfree(j.binding);
	pfree(j.trail);
	pfree(j.matched);
	pfree(j.done);
}

/* Atoms [0, current) of each positive literal's relation. */
static void
full_ranges(const Rule *rule, const int *current, int *lo, int *hi)
{
	for (int i = 0; i < rule->nbody; i++)
	{
		lo[i] = 0;
		hi[i] = rule->body[i].relation >= 0 ? current[rule->body[i].relation] : 0;
	}
}

/*
 * Evaluates rules to a fixpoint, semi-naively; in_component[r]: relation r
 * is derived by these rules (the others are complete).  In each round, a
 * rule is joined once per literal d of a relation that grew in the round
 * before: d with the new atoms, literals before d with the old ones, those
 * after with all.
 */
static void
evaluate(Grounding *g, const Rule **rules, int nrules, const bool *in_component, bool relaxed)
{
	const Program *p = g->program;
	int		   *previous = palloc(p->nrelations * sizeof(int));
	int		   *current = palloc(p->nrelations * sizeof(int));
	int			lo[MAX_BODY],
				hi[MAX_BODY];
	bool		changed = false;

	for (int r = 0; r < p->nrelations; r++)
		previous[r] = current[r] = g->tuples[r].n;
	for (int i = 0; i < nrules; i++)
	{
		full_ranges(rules[i], current, lo, hi);
		run_join(g, rules[i], lo, hi, relaxed, false, &changed);
	}
	while (changed)
	{
		changed = false;
		for (int r = 0; r < p->nrelations; r++)
		{
			previous[r] = current[r];
			current[r] = g->tuples[r].n;
		}
		for (int i = 0; i < nrules; i++)
		{
			const Rule *rule = rules[i];

			for (int d = 0; d < rule->nbody; d++)
			{
				const Literal *delta = &rule->body[d];

				if (delta->kind != LIT_POSITIVE || !in_component[delta->relation] ||
					previous[delta->relation] == current[delta->relation])
					continue;
				for (int k = 0; k < rule->nbody; k++)
				{
					int			r = rule->body[k].relation;

					lo[k] = k == d ? previous[r] : 0;
					hi[k] = r < 0 ? 0 : k < d && in_component[r] ? previous[r] : current[r];
				}
				run_join(g, rule, lo, hi, relaxed, false, &changed);
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
	const Rule **rules = palloc((p->nrules + 3) * sizeof(Rule *));
	bool	   *in_component = palloc0(p->nrelations * sizeof(bool));
	int		   *counts = palloc(p->nrelations * sizeof(int));
	int			nrules;
	int			lo[MAX_BODY],
				hi[MAX_BODY];
	bool		changed;

	g->program = p;
	g->terms = p->terms;
	g->tuples = palloc0(p->nrelations * sizeof(Tuples));
	g->memory_limit = memory_limit;
	g->cxt = CurrentMemoryContext;
	for (int r = 0; r < p->nrules; r++)
		if (p->rules[r].nbody > MAX_BODY)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("game \"%s\", line %d: a rule with more than %d literals",
							p->game, p->sentences[p->rules[r].sentence].line, MAX_BODY)));

	/* relations that do not depend on the state, exactly, component by component */
	for (int c = 0; c < p->ncomponents; c++)
	{
		nrules = 0;
		for (int r = 0; r < p->nrelations; r++)
		{
			const Relation *rel = &p->relations[r];

			in_component[r] = rel->component == c && !rel->dynamic;
			if (in_component[r])
				for (int i = 0; i < rel->nrules; i++)
					rules[nrules++] = &p->rules[rel->rules[i]];
		}
		if (nrules > 0)
			evaluate(g, rules, nrules, in_component, false);
	}

	/* what can ever hold of the others, all at once */
	nrules = 0;
	for (int r = 0; r < p->nrules; r++)
		if (p->relations[p->rules[r].relation].dynamic)
			rules[nrules++] = &p->rules[r];
	rules[nrules] = copy_rule(p, p->rel_true, p->rel_init);
	rules[nrules + 1] = copy_rule(p, p->rel_true, p->rel_next);
	rules[nrules + 2] = copy_rule(p, p->rel_does, p->rel_legal);
	for (int r = 0; r < p->nrelations; r++)
		in_component[r] = p->relations[r].dynamic;
	evaluate(g, rules, nrules + 3, in_component, true);

	/* the ground rules: every rule of a state-dependent relation, instantiated */
	for (int r = 0; r < p->nrelations; r++)
		counts[r] = g->tuples[r].n;
	for (int i = 0; i < nrules; i++)
	{
		full_ranges(rules[i], counts, lo, hi);
		run_join(g, rules[i], lo, hi, true, true, &changed);
	}
	return g;
}
