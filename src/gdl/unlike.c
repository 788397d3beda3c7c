/*
 * unlike.c: rules read through a static inequality, rewritten through
 * projections (see unlike.h).
 */
#include "postgres.h"

#include "gdl/join.h"
#include "gdl/unlike.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "port/pg_bitutils.h"

/* Literal positions as bits: an inequality of more than 64 arguments is left alone. */
#define MAX_UNLIKE_ARITY 64

/* What is known of a static relation as an inequality. */
typedef struct Inequality
{
	int8		known;			/* 0: not looked at; 1: an inequality; -1: not one */
	int		   *first;			/* per rule of the relation, the positions its distinct compares */
	int		   *second;
	int			most_filters;	/* the most unary literals of one rule */
} Inequality;

/* The rules of a relation that read one inequality the same way, and what they share. */
typedef struct Group
{
	int			relation;		/* of their heads */
	int			inequality;		/* the static relation */
	uint64		apart;			/* positions of the inequality literal with head-only variables */
	int			head_of[MAX_UNLIKE_ARITY];	/* per such position, where the head has its variable */
	int		   *members;		/* rule indexes */
	int			nmembers;
	int		   *some;			/* per rule of the inequality: relation A, some body value */
	int		   *unlike;			/* relation N, some body value unlike the head's */
} Group;

/* A reading of an inequality: its literal in the rule, and the positions C of unlike.h. */
typedef struct Reading
{
	int			literal;
	uint64		apart;
} Reading;

typedef struct Rewrite
{
	Program    *p;
	Inequality *inequalities;	/* per relation */
	int		   *position;		/* per variable: its head position, or -1 */
	int			nvariables;		/* room of position[] */
} Rewrite;

/*
 * Whether atom's arguments are distinct variables; position[v] is then
 * variable v's argument (-1 for the others).
 */
static bool
distinct_variable_args(const TermStore *ts, TermId atom, int *position, int nvariables)
{
	for (int v = 0; v < nvariables; v++)
		position[v] = -1;
	for (int a = 0; a < term_arity(ts, atom); a++)
	{
		const TermNode *n = term_node(ts, term_arg(ts, atom, a));

		if (n->kind != TERM_VARIABLE || n->name >= nvariables || position[n->name] >= 0)
			return false;
		position[n->name] = a;
	}
	return true;
}

/* The head position of variable term t under position[], or -1. */
static int
position_of(const TermStore *ts, TermId t, const int *position)
{
	const TermNode *n = term_node(ts, t);

	return n->kind == TERM_VARIABLE ? position[n->name] : -1;
}

/* Whether static relation s is an inequality (unlike.h), its pairs filed. */
static bool
is_inequality(Rewrite *w, int s)
{
	Program    *p = w->p;
	Inequality *q = &w->inequalities[s];
	const Relation *rel = &p->relations[s];

	if (q->known != 0)
		return q->known > 0;
	q->known = -1;
	if (rel->dynamic || rel->nrules == 0 || rel->arity < 2 || rel->arity > MAX_UNLIKE_ARITY)
		return false;
	q->first = palloc(rel->nrules * sizeof(int));
	q->second = palloc(rel->nrules * sizeof(int));
	for (int i = 0; i < rel->nrules; i++)
	{
		const Rule *rule = &p->rules[rel->rules[i]];
		int			ndistinct = 0;

		if (!distinct_variable_args(p->terms, rule->head, w->position, rule->nvariables))
			return false;
		for (int k = 0; k < rule->nbody; k++)
		{
			const Literal *lit = &rule->body[k];

			if (lit->kind == LIT_DISTINCT)
			{
				q->first[i] = position_of(p->terms, lit->atom, w->position);
				q->second[i] = position_of(p->terms, lit->other, w->position);
				if (q->first[i] < 0 || q->second[i] < 0 || q->first[i] == q->second[i] || ndistinct++ > 0)
					return false;
			}
			else if (lit->kind != LIT_POSITIVE || p->relations[lit->relation].dynamic ||
					 p->relations[lit->relation].arity != 1 ||
					 position_of(p->terms, term_arg(p->terms, lit->atom, 0), w->position) < 0)
				return false;
		}
		if (ndistinct != 1)
			return false;
		q->most_filters = Max(q->most_filters, rule->nbody - 1);
	}
	q->known = 1;
	return true;
}

/* How often variable v occurs in term t. */
static int
occurrences(const TermStore *ts, TermId t, int v)
{
	const TermNode *n = term_node(ts, t);
	int			count = 0;

	check_stack_depth();
	if (n->ground)
		return 0;
	if (n->kind == TERM_VARIABLE)
		return n->name == v ? 1 : 0;
	for (int i = 0; i < n->nargs; i++)
		count += occurrences(ts, term_arg(ts, t, i), v);
	return count;
}

static int
body_occurrences(const TermStore *ts, const Rule *rule, int v)
{
	int			count = 0;

	for (int k = 0; k < rule->nbody; k++)
	{
		count += occurrences(ts, rule->body[k].atom, v);
		if (rule->body[k].kind == LIT_DISTINCT)
			count += occurrences(ts, rule->body[k].other, v);
	}
	return count;
}

/*
 * Whether the rest of rule's body (all but literal skip) binds the head's
 * variables outside apart and the arguments of the inequality outside it.
 */
static bool
rest_binds(const Program *p, const Rule *rule, int skip, uint64 apart)
{
	const TermStore *ts = p->terms;
	const Literal *ineq = &rule->body[skip];
	bool	   *bound = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	bool	   *in_apart = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	bool		binds = true;

	for (int k = 0; k < rule->nbody; k++)
		if (k != skip && rule->body[k].kind == LIT_POSITIVE)
			term_mark_variables(ts, rule->body[k].atom, bound);
	for (int a = 0; a < term_arity(ts, ineq->atom); a++)
		if (apart & ((uint64) 1 << a))
			in_apart[term_node(ts, term_arg(ts, ineq->atom, a))->name] = true;
		else
			binds &= term_unbound_variable(ts, term_arg(ts, ineq->atom, a), bound) < 0;
	for (int a = 0; a < term_arity(ts, rule->head); a++)
	{
		int			v = term_node(ts, term_arg(ts, rule->head, a))->name;

		binds &= in_apart[v] || bound[v];
	}
	pfree(bound);
	pfree(in_apart);
	return binds;
}

/* Whether rule reads an inequality so that unlike.h rewrites it; how, in *reading. */
static bool
reads_inequality(Rewrite *w, const Rule *rule, Reading *reading)
{
	Program    *p = w->p;
	const TermStore *ts = p->terms;

	if (!p->relations[rule->relation].dynamic || term_arity(ts, rule->head) == 0 ||
		term_arity(ts, rule->head) > MAX_UNLIKE_ARITY ||
		!distinct_variable_args(ts, rule->head, w->position, rule->nvariables))
		return false;
	/* recursive rules are left as they are */
	for (int k = 0; k < rule->nbody; k++)
		if (rule->body[k].relation == rule->relation)
			return false;
	for (int k = 0; k < rule->nbody; k++)
	{
		const Literal *lit = &rule->body[k];
		uint64		apart = 0;
		bool		pairs = true;

		/* A's body: the rule's less the inequality, and filters; N's: two literals and filters */
		if (lit->kind != LIT_POSITIVE || p->relations[lit->relation].dynamic ||
			!is_inequality(w, lit->relation) ||
			Max(rule->nbody - 1, 2) + w->inequalities[lit->relation].most_filters > MAX_BODY)
			continue;
		/* is_inequality used position[]: the head's again */
		distinct_variable_args(ts, rule->head, w->position, rule->nvariables);
		for (int a = 0; a < term_arity(ts, lit->atom); a++)
		{
			TermId		t = term_arg(ts, lit->atom, a);
			const TermNode *n = term_node(ts, t);

			if (n->kind == TERM_VARIABLE && w->position[n->name] >= 0 &&
				body_occurrences(ts, rule, n->name) == 1)
				apart |= (uint64) 1 << a;
		}
		for (int i = 0; i < p->relations[lit->relation].nrules && apart != 0; i++)
		{
			const Inequality *q = &w->inequalities[lit->relation];
			bool		first = (apart & ((uint64) 1 << q->first[i])) != 0;
			bool		second = (apart & ((uint64) 1 << q->second[i])) != 0;

			pairs &= first != second;
		}
		if (apart != 0 && pairs && rest_binds(p, rule, k, apart))
		{
			reading->literal = k;
			reading->apart = apart;
			return true;
		}
	}
	return false;
}

/*
 * The unary literals of inequality rule srule on its argument at position,
 * applied to term, appended to out; how many.
 */
static int
filters(Program *p, const Rule *srule, int position, TermId term, Literal *out)
{
	TermId		variable = term_arg(p->terms, srule->head, position);
	int			n = 0;

	for (int k = 0; k < srule->nbody; k++)
	{
		const Literal *lit = &srule->body[k];

		if (lit->kind != LIT_POSITIVE || term_arg(p->terms, lit->atom, 0) != variable)
			continue;
		out[n] = *lit;
		out[n++].atom = term_function(p->terms, p->relations[lit->relation].name, 1, &term);
	}
	return n;
}

/* A rule of p: head :- body (n literals, copied), with rule's variables and sentence. */
static void
add_rule(Program *p, const Rule *like, int relation, TermId head, const Literal *body, int n,
		 int nvariables, int slot)
{
	Rule		rule = *like;

	rule.head = head;
	rule.relation = relation;
	rule.nbody = n;
	rule.body = palloc(Max(1, n) * sizeof(Literal));
	memcpy(rule.body, body, n * sizeof(Literal));
	rule.nvariables = nvariables;
	if (slot >= 0)
		p->rules[slot] = rule;
	else
		program_add_rule(p, &rule);
}

/* The atom relation(head's arguments outside the group's positions..., last). */
static TermId
context_atom(Program *p, const Group *g, int relation, TermId head, TermId last)
{
	const TermStore *ts = p->terms;
	TermId		args[MAX_UNLIKE_ARITY + 1];
	uint64		in_group = 0;
	int			n = 0;

	for (int a = 0; a < MAX_UNLIKE_ARITY; a++)
		if (g->apart & ((uint64) 1 << a))
			in_group |= (uint64) 1 << g->head_of[a];
	for (int a = 0; a < term_arity(ts, head); a++)
		if (!(in_group & ((uint64) 1 << a)))
			args[n++] = term_arg(ts, head, a);
	args[n++] = last;
	return term_function(p->terms, p->relations[relation].name, n, args);
}

/* The group of rule (read as reading), made when new. */
static Group *
group_of(Rewrite *w, List **groups, const Rule *rule, const Reading *reading)
{
	const TermStore *ts = w->p->terms;
	const Literal *ineq = &rule->body[reading->literal];
	int			head_of[MAX_UNLIKE_ARITY];
	ListCell   *c;
	Group	   *g;

	distinct_variable_args(ts, rule->head, w->position, rule->nvariables);
	for (int a = 0; a < term_arity(ts, ineq->atom); a++)
		head_of[a] = reading->apart & ((uint64) 1 << a) ?
			position_of(ts, term_arg(ts, ineq->atom, a), w->position) : -1;
	foreach(c, *groups)
	{
		g = lfirst(c);
		if (g->relation == rule->relation && g->inequality == ineq->relation &&
			g->apart == reading->apart &&
			memcmp(g->head_of, head_of, term_arity(ts, ineq->atom) * sizeof(int)) == 0)
			return g;
	}
	g = palloc0(sizeof(Group));
	g->relation = rule->relation;
	g->inequality = ineq->relation;
	g->apart = reading->apart;
	memcpy(g->head_of, head_of, term_arity(ts, ineq->atom) * sizeof(int));
	g->members = palloc(w->p->nrules * sizeof(int));
	*groups = lappend(*groups, g);
	return g;
}

/* The relations A and N of group number number, per rule of its inequality. */
static void
add_relations(Program *p, Group *g, int number)
{
	const Relation *rel = &p->relations[g->relation];
	int			nrules = p->relations[g->inequality].nrules;
	int			arity = rel->arity - pg_popcount64(g->apart) + 1;
	const char *name = p->terms->names[rel->name];
	int			rel_arity = rel->arity;

	g->some = palloc(nrules * sizeof(int));
	g->unlike = palloc(nrules * sizeof(int));
	for (int i = 0; i < nrules; i++)
	{
		/* spaces: no KIF symbol, so no relation of the game, has these names */
		char	   *some = psprintf("%s/%d: some value %d of %d", name, rel_arity, i + 1, number);
		char	   *unlike = psprintf("%s/%d: some value unlike %d of %d", name, rel_arity, i + 1, number);

		g->some[i] = program_add_relation(p, term_symbol_id(p->terms, some, strlen(some)), arity, true);
		g->unlike[i] = program_add_relation(p, term_symbol_id(p->terms, unlike, strlen(unlike)), arity, true);
	}
}

/*
 * The rules of group g, whose members' rules were kept[]: A per member
 * and inequality rule (the first in the member's place), N and the head
 * per inequality rule.
 */
static void
add_group_rules(Rewrite *w, Group *g, const Rule *kept)
{
	Program    *p = w->p;
	const Inequality *q = &w->inequalities[g->inequality];
	int			nsrules = p->relations[g->inequality].nrules;
	int			arity = p->relations[g->inequality].arity;
	Rule	   *srules = palloc(nsrules * sizeof(Rule));
	Literal    *body = palloc((MAX_BODY + 1) * sizeof(Literal));
	const Rule *first = &kept[0];
	Reading		reading;
	TermId		value = term_variable(p->terms, first->nvariables);

	/* by value: the rules added move p->rules */
	for (int i = 0; i < nsrules; i++)
		srules[i] = p->rules[p->relations[g->inequality].rules[i]];
	for (int i = 0; i < nsrules; i++)
	{
		int			apart = g->apart & ((uint64) 1 << q->first[i]) ? q->first[i] : q->second[i];
		int			other = apart == q->first[i] ? q->second[i] : q->first[i];

		/* A: per member, its body without the inequality, the other positions' filters */
		for (int m = 0; m < g->nmembers; m++)
		{
			const Rule *rule = &kept[m];
			const Literal *ineq;
			int			n = 0;

			reads_inequality(w, rule, &reading);
			ineq = &rule->body[reading.literal];
			for (int k = 0; k < rule->nbody; k++)
				if (k != reading.literal)
					body[n++] = rule->body[k];
			for (int a = 0; a < arity; a++)
				if (!(g->apart & ((uint64) 1 << a)) && a != other)
					n += filters(p, &srules[i], a, term_arg(p->terms, ineq->atom, a), &body[n]);
			add_rule(p, rule, g->some[i],
					 context_atom(p, g, g->some[i], rule->head, term_arg(p->terms, ineq->atom, other)),
					 body, n, rule->nvariables, i == 0 ? g->members[m] : -1);
		}
	}

	/* N and the head, in the first member's variables and a new one for the body value */
	reads_inequality(w, first, &reading);
	for (int i = 0; i < nsrules; i++)
	{
		const Literal *ineq = &first->body[reading.literal];
		int			apart = g->apart & ((uint64) 1 << q->first[i]) ? q->first[i] : q->second[i];
		int			other = apart == q->first[i] ? q->second[i] : q->first[i];
		TermId		held = term_arg(p->terms, ineq->atom, apart);
		int			n = 0;

		body[n].kind = LIT_POSITIVE;
		body[n].relation = g->some[i];
		body[n].atom = context_atom(p, g, g->some[i], first->head, value);
		body[n++].other = NO_TERM;
		body[n].kind = LIT_DISTINCT;
		body[n].relation = -1;
		body[n].atom = held;
		body[n++].other = value;
		n += filters(p, &srules[i], apart, held, &body[n]);
		n += filters(p, &srules[i], other, value, &body[n]);
		add_rule(p, first, g->unlike[i], context_atom(p, g, g->unlike[i], first->head, held),
				 body, n, first->nvariables + 1, -1);

		n = 0;
		body[n].kind = LIT_POSITIVE;
		body[n].relation = g->unlike[i];
		body[n].atom = context_atom(p, g, g->unlike[i], first->head, held);
		body[n++].other = NO_TERM;
		for (int a = 0; a < arity; a++)
			if ((g->apart & ((uint64) 1 << a)) && a != apart)
				n += filters(p, &srules[i], a, term_arg(p->terms, ineq->atom, a), &body[n]);
		add_rule(p, first, g->relation, first->head, body, n, first->nvariables, -1);
	}
	pfree(body);
	pfree(srules);
}

void
unlike_rewrite(Program *p)
{
	Rewrite		w = {.p = p};
	int			nrules = p->nrules;
	List	   *groups = NIL;
	ListCell   *c;
	int			number = 0;

	w.inequalities = palloc0(Max(1, p->nrelations) * sizeof(Inequality));
	for (int i = 0; i < nrules; i++)
		w.nvariables = Max(w.nvariables, p->rules[i].nvariables);
	w.position = palloc(Max(1, w.nvariables) * sizeof(int));
	for (int i = 0; i < nrules; i++)
	{
		Reading		reading;

		CHECK_FOR_INTERRUPTS();
		if (reads_inequality(&w, &p->rules[i], &reading))
		{
			Group	   *g = group_of(&w, &groups, &p->rules[i], &reading);

			g->members[g->nmembers++] = i;
		}
	}
	if (groups == NIL)
		return;
	foreach(c, groups)
		add_relations(p, lfirst(c), number++);
	foreach(c, groups)
	{
		Group	   *g = lfirst(c);
		Rule	   *kept = palloc(g->nmembers * sizeof(Rule));

		CHECK_FOR_INTERRUPTS();
		/* the members' rules as they were: their slots take new rules */
		for (int m = 0; m < g->nmembers; m++)
			kept[m] = p->rules[g->members[m]];
		add_group_rules(&w, g, kept);
	}
	program_file_rules(p);
}
