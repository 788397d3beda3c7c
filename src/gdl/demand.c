/*
 * demand.c: the asked relations of a program (see demand.h).
 *
 * Which arguments a reader binds depends on the order it joins its
 * literals in; the rewrite fixes one for the question alone (the joins
 * still choose their own): the literals of static relations first, then
 * the others in the rule's order, then distinct and negations, whose
 * variables are all bound by then (rules are safe).  True and does are not
 * read: what can ever hold of them is nearly every fact and move, so the
 * values they bind narrow little and multiply what is asked (chess.kif's
 * blocks of a check, asked by every king square, checker and move, 262,144
 * atoms asked of a relation of a few thousand, 7.6 of 36 s).  A relation's
 * asked arguments are the positions every reader binds; a reader binds a
 * position of its head only when that position is asked of the head too,
 * so the positions are found by shrinking them from all of them until no
 * reader binds fewer.
 */
#include "postgres.h"

#include "gdl/demand.h"
#include "gdl/join.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"

/* Argument positions of a relation, as bits: relations of more than 64 arguments are read whole. */
typedef uint64 Positions;

#define MAX_DEMAND_ARITY 64

/* Whether rules may ask for relation r: derived, of the state, and not read whole by GDL. */
static bool
demandable(const Program *p, int r)
{
	const Relation *rel = &p->relations[r];

	if (!rel->dynamic || rel->asked || rel->nrules == 0 || rel->arity == 0 ||
		rel->arity > MAX_DEMAND_ARITY || r == p->rel_true || r == p->rel_does ||
		r == p->rel_legal || r == p->rel_next || r == p->rel_goal || r == p->rel_terminal)
		return false;
	/* its rules take the asked literal first */
	for (int i = 0; i < rel->nrules; i++)
		if (p->rules[rel->rules[i]].nbody >= MAX_BODY)
			return false;
	return true;
}

static Positions
all_positions(int arity)
{
	return arity == 64 ? ~(Positions) 0 : ((Positions) 1 << arity) - 1;
}

/*
 * The literals the question reads of rule, in its order (order[]; how
 * many): see the file's comment.
 */
static int
reading_order(const Program *p, const Rule *rule, const bool *may_ask, int *order)
{
	int			n = 0;

	for (int pass = 0; pass < 3; pass++)
		for (int k = 0; k < rule->nbody; k++)
		{
			const Literal *lit = &rule->body[k];
			int			stage = lit->kind != LIT_POSITIVE ? 2 : may_ask[lit->relation] ? 1 : 0;

			if (stage == pass && lit->relation != p->rel_true && lit->relation != p->rel_does)
				order[n++] = k;
		}
	return n;
}

/* The positions of atom whose arguments have no variable outside bound[]. */
static Positions
bound_positions(const TermStore *ts, TermId atom, Positions of, const bool *bound)
{
	Positions	result = 0;

	for (int a = 0; a < term_arity(ts, atom); a++)
		if ((of & ((Positions) 1 << a)) && term_unbound_variable(ts, term_arg(ts, atom, a), bound) < 0)
			result |= (Positions) 1 << a;
	return result;
}

/* The variables of rule's head at the positions asked of it, into bound[] (cleared first). */
static void
bind_head(const Program *p, const Rule *rule, Positions asked, bool *bound)
{
	memset(bound, 0, Max(1, rule->nvariables) * sizeof(bool));
	for (int a = 0; a < p->relations[rule->relation].arity; a++)
		if (asked & ((Positions) 1 << a))
			term_mark_variables(p->terms, term_arg(p->terms, rule->head, a), bound);
}

/*
 * Narrows asked[] by what each reader binds; true when some relation lost
 * a position.
 */
static bool
narrow(const Program *p, const bool *may_ask, Positions *asked, int *order, bool *bound)
{
	bool		changed = false;

	for (int i = 0; i < p->nrules; i++)
	{
		const Rule *rule = &p->rules[i];
		int			nread;

		if (!p->relations[rule->relation].dynamic)
			continue;
		CHECK_FOR_INTERRUPTS();
		nread = reading_order(p, rule, may_ask, order);
		bind_head(p, rule, asked[rule->relation], bound);
		for (int k = 0; k < nread; k++)
		{
			const Literal *lit = &rule->body[order[k]];

			if (lit->kind == LIT_DISTINCT)
				continue;
			if (asked[lit->relation] != 0)
			{
				Positions	now = bound_positions(p->terms, lit->atom, asked[lit->relation], bound);

				changed |= now != asked[lit->relation];
				asked[lit->relation] = now;
			}
			if (lit->kind == LIT_POSITIVE)
				term_mark_variables(p->terms, lit->atom, bound);
		}
	}
	return changed;
}

/* The atom of relation r's asked relation (asked_relation) that atom asks. */
static TermId
asked_atom(Program *p, int asked_relation, TermId atom, Positions positions)
{
	TermId		args[MAX_DEMAND_ARITY];
	int			n = 0;

	for (int a = 0; a < term_arity(p->terms, atom); a++)
		if (positions & ((Positions) 1 << a))
			args[n++] = term_arg(p->terms, atom, a);
	return term_function(p->terms, p->relations[asked_relation].name, n, args);
}

/* Whether literal lit, not positive, has all its variables in bound[]: a test of what is joined before it. */
static bool
test_is_bound(const Program *p, const Literal *lit, const bool *bound)
{
	if (lit->kind == LIT_NEGATIVE && p->relations[lit->relation].dynamic)
		return false;			/* holds in the over-approximation: no test */
	return term_unbound_variable(p->terms, lit->atom, bound) < 0 &&
		(lit->kind != LIT_DISTINCT || term_unbound_variable(p->terms, lit->other, bound) < 0);
}

/*
 * The rules of the asked relations that rule number i reads: for each
 * literal with one, "asked :- the head's asked literal, the literals read
 * before".
 */
static void
add_asking_rules(Program *p, int i, const bool *may_ask, const Positions *asked,
				 const int *asked_relation, int *order, bool *bound)
{
	Rule		rule = p->rules[i];
	int			head_asked = asked_relation[rule.relation];
	Literal    *before = palloc((rule.nbody + 1) * sizeof(Literal));
	int			nbefore = 0;

	int			nread = reading_order(p, &rule, may_ask, order);

	bind_head(p, &rule, asked[rule.relation], bound);
	if (head_asked >= 0)
	{
		before[nbefore].kind = LIT_POSITIVE;
		before[nbefore].relation = head_asked;
		before[nbefore].atom = asked_atom(p, head_asked, rule.head, asked[rule.relation]);
		before[nbefore++].other = NO_TERM;
	}
	for (int k = 0; k < nread; k++)
	{
		const Literal *lit = &rule.body[order[k]];
		int			r = lit->relation;

		if (lit->kind != LIT_DISTINCT && asked_relation[r] >= 0)
		{
			Rule		ask = rule;
			TermId		head = asked_atom(p, asked_relation[r], lit->atom, asked[r]);

			/* (asked X) :- (asked X): nothing to add */
			if (!(nbefore == 1 && head_asked >= 0 && before[0].atom == head))
			{
				ask.head = head;
				ask.relation = asked_relation[r];
				ask.nbody = nbefore;
				ask.body = palloc(Max(1, nbefore) * sizeof(Literal));
				memcpy(ask.body, before, nbefore * sizeof(Literal));
				program_add_rule(p, &ask);
			}
		}
		if (lit->kind == LIT_POSITIVE)
		{
			term_mark_variables(p->terms, lit->atom, bound);
			before[nbefore++] = *lit;
		}
		else if (test_is_bound(p, lit, bound))
			before[nbefore++] = *lit;
	}
	pfree(before);
}

void
demand_rewrite(Program *p)
{
	int			nrelations = p->nrelations;
	int			nrules = p->nrules;
	bool	   *may_ask = palloc0(Max(1, nrelations) * sizeof(bool));
	Positions  *asked = palloc0(Max(1, nrelations) * sizeof(Positions));
	int		   *asked_relation = palloc(Max(1, nrelations) * sizeof(int));
	int			nv = 1;
	int			nbody = 1;
	int		   *order;
	bool	   *bound;

	for (int i = 0; i < nrules; i++)
	{
		nv = Max(nv, p->rules[i].nvariables);
		nbody = Max(nbody, p->rules[i].nbody);
	}
	order = palloc(nbody * sizeof(int));
	bound = palloc(nv * sizeof(bool));
	for (int r = 0; r < nrelations; r++)
	{
		may_ask[r] = demandable(p, r);
		asked[r] = may_ask[r] ? all_positions(p->relations[r].arity) : 0;
	}
	while (narrow(p, may_ask, asked, order, bound))
		;

	/* the asked relations: spaces in their names, which no KIF symbol has */
	for (int r = 0; r < nrelations; r++)
	{
		char	   *name;

		asked_relation[r] = -1;
		if (asked[r] == 0)
			continue;
		name = psprintf("asked %s/%d", p->terms->names[p->relations[r].name], p->relations[r].arity);
		asked_relation[r] = program_add_relation(p, term_symbol_id(p->terms, name, strlen(name)),
												 pg_popcount64(asked[r]), true);
		p->relations[asked_relation[r]].asked = true;
	}
	for (int i = 0; i < nrules; i++)
		if (p->relations[p->rules[i].relation].dynamic)
			add_asking_rules(p, i, may_ask, asked, asked_relation, order, bound);

	/* the rules of a relation asked for join their asked literal first */
	for (int i = 0; i < nrules; i++)
	{
		Rule	   *rule = &p->rules[i];
		int			a = asked_relation[rule->relation];
		Literal    *body;

		if (a < 0)
			continue;
		body = palloc((rule->nbody + 1) * sizeof(Literal));
		body[0].kind = LIT_POSITIVE;
		body[0].relation = a;
		body[0].atom = asked_atom(p, a, rule->head, asked[rule->relation]);
		body[0].other = NO_TERM;
		memcpy(&body[1], rule->body, rule->nbody * sizeof(Literal));
		rule->body = body;
		rule->nbody++;
	}
	program_file_rules(p);
}
