/*
 * demand.c: the asked relations of a program (see demand.h).
 *
 * Which arguments a reader binds depends on the order it joins its
 * literals in; the rewrite fixes one for the question alone (the joins
 * still choose their own): the literals of static relations first, then
 * the others in the rule's order, then distinct and negations, whose
 * variables are all bound by then (rules are safe).  True and does are not
 * read for the asked relation: what can ever hold of them is nearly every
 * fact and move, so that asking the values they bind together multiplies
 * what is asked (chess.kif's blocks of a check, asked by every king
 * square, checker and move, 262,144 atoms asked of a relation of a few
 * thousand, 7.6 of 36 s).  A relation's asked arguments are the positions
 * every reader binds; a reader binds a position of its head only when that
 * position is asked of the head too, so the positions are found by
 * shrinking them from all of them until no reader binds fewer.
 *
 * The positions that every reader binds once true and does bind too are
 * asked one by one (spread): each position's values in a relation of its
 * own, asked by the literals of the reader that share a variable with it,
 * so that a square bound by (true (cell ?u ?v ?piece)) asks 64 squares,
 * not their product with the rest.  Only the rules that bind the position
 * by unary static literals alone read its ask (filtered_only): chess.kif's
 * threats with an ignored square, (coordinate ?ignorex) (coordinate
 * ?ignorey) over files and ranks alike, are asked of the squares moves
 * leave, and its atoms fall from 3.49 to 1.52 million.
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
reading_order(const Program *p, const Rule *rule, const bool *may_ask, bool state, int *order)
{
	int			n = 0;

	for (int pass = 0; pass < 3; pass++)
		for (int k = 0; k < rule->nbody; k++)
		{
			const Literal *lit = &rule->body[k];
			bool		of_state = lit->relation == p->rel_true || lit->relation == p->rel_does;
			int			stage = lit->kind != LIT_POSITIVE ? 2 : may_ask[lit->relation] || of_state ? 1 : 0;

			if (stage == pass && (state || !of_state))
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
narrow(const Program *p, const bool *may_ask, bool state, Positions *asked, int *order, bool *bound)
{
	bool		changed = false;

	for (int i = 0; i < p->nrules; i++)
	{
		const Rule *rule = &p->rules[i];
		int			nread;

		if (!p->relations[rule->relation].dynamic)
			continue;
		CHECK_FOR_INTERRUPTS();
		nread = reading_order(p, rule, may_ask, state, order);
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

	int			nread = reading_order(p, &rule, may_ask, false, order);

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

/*
 * A position asking rule reads the head's asks and literals of its
 * reader, up to 1 + MAX_DEMAND_ARITY + the reader's; a rule of the asked
 * relation gets one literal per position.  Readers longer than this (no
 * GDL written by hand) ask no position.
 */
#define MAX_POSITION_READER (MAX_BODY - MAX_DEMAND_ARITY - 1)

/* Whether atom has a variable marked in vars[] (scratch[] cleared before and after, nvariables long). */
static bool
shares_variable(const TermStore *ts, TermId atom, const bool *vars, bool *scratch, int nvariables)
{
	bool		shares = false;

	term_mark_variables(ts, atom, scratch);
	for (int v = 0; v < nvariables; v++)
	{
		shares |= scratch[v] && vars[v];
		scratch[v] = false;
	}
	return shares;
}

/*
 * Whether rule binds head argument arg, a variable, by unary static
 * literals alone ((coordinate ?x)): only there does a position's ask
 * narrow what the rule derives.  Elsewhere the literals that bind it
 * are narrowed already, or narrow it as well as the ask would, and
 * asking each candidate of the join costs a lookup (chess.kif's load
 * took 15 s with every rule of a relation asking, 11.8 s asking none).
 */
static bool
filtered_only(const Program *p, const Rule *rule, TermId arg)
{
	bool	   *in = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	bool		filtered = true;
	int			variable;

	if (term_node(p->terms, arg)->kind != TERM_VARIABLE)
		return false;
	variable = term_node(p->terms, arg)->name;
	for (int k = 0; k < rule->nbody && filtered; k++)
	{
		const Literal *lit = &rule->body[k];

		if (lit->kind != LIT_POSITIVE)
			continue;
		memset(in, 0, Max(1, rule->nvariables) * sizeof(bool));
		term_mark_variables(p->terms, lit->atom, in);
		filtered = !in[variable] ||
			(!p->relations[lit->relation].dynamic && p->relations[lit->relation].arity == 1);
	}
	pfree(in);
	return filtered;
}

/* The atom (position_relation term): a position's asked value. */
static Literal
position_literal(Program *p, int position_relation, TermId term)
{
	Literal		lit = {.kind = LIT_POSITIVE,.relation = position_relation,.other = NO_TERM};

	lit.atom = term_function(p->terms, p->relations[position_relation].name, 1, &term);
	return lit;
}

/*
 * The rule asking position a of the literal read k-th (order[]) by rule:
 * "asked position :- the literals that share a variable with its term",
 * of the head's asks and the positive literals read before it.  A subset
 * of what a reader joins asks for more values than it passes, never
 * fewer; one literal on each side keeps the question small (true and does
 * bind a square, not every square with every move).
 */
static void
add_position_rule(Program *p, const Rule *rule, const int *order, int k, int a,
				  const Positions *asked, const Positions *spread, const int *asked_relation,
				  int *const *position_relation, bool *vars, bool *scratch)
{
	const Literal *read = &rule->body[order[k]];
	TermId		term = term_arg(p->terms, read->atom, a);
	Literal    *body = palloc((rule->nbody + 65) * sizeof(Literal));
	int			nbody = 0;
	int			nv = Max(1, rule->nvariables);
	Rule		ask = *rule;

	memset(vars, 0, nv * sizeof(bool));
	term_mark_variables(p->terms, term, vars);
	if (asked_relation[rule->relation] >= 0)
	{
		TermId		atom = asked_atom(p, asked_relation[rule->relation], rule->head, asked[rule->relation]);

		if (shares_variable(p->terms, atom, vars, scratch, nv))
		{
			body[nbody].kind = LIT_POSITIVE;
			body[nbody].relation = asked_relation[rule->relation];
			body[nbody].atom = atom;
			body[nbody++].other = NO_TERM;
		}
	}
	for (int b = 0; b < p->relations[rule->relation].arity; b++)
	{
		TermId		arg = term_arg(p->terms, rule->head, b);

		if ((spread[rule->relation] & ((Positions) 1 << b)) && shares_variable(p->terms, arg, vars, scratch, nv))
			body[nbody++] = position_literal(p, position_relation[rule->relation][b], arg);
	}
	for (int before = 0; before < k; before++)
	{
		const Literal *lit = &rule->body[order[before]];

		if (lit->kind == LIT_POSITIVE &&
			shares_variable(p->terms, lit->atom, vars, scratch, nv))
			body[nbody++] = *lit;
	}
	ask.head = position_literal(p, position_relation[read->relation][a], term).atom;
	ask.relation = position_relation[read->relation][a];
	ask.nbody = nbody;
	ask.body = body;
	/* (asked X) :- (asked X): nothing to add */
	if (!(nbody == 1 && body[0].atom == ask.head))
		program_add_rule(p, &ask);
	else
		pfree(body);
}

/*
 * The position asking rules that rule number i adds: one per position
 * spread[] asks of each literal it reads, in the order with true and does.
 */
static void
add_position_asking_rules(Program *p, int i, const bool *may_ask, const Positions *asked,
						  const Positions *spread, const int *asked_relation,
						  int *const *position_relation, int *order, bool *vars, bool *scratch)
{
	Rule		rule = p->rules[i];
	int			nread = reading_order(p, &rule, may_ask, true, order);

	for (int k = 0; k < nread; k++)
	{
		const Literal *lit = &rule.body[order[k]];

		if (lit->kind == LIT_DISTINCT || spread[lit->relation] == 0)
			continue;
		for (int a = 0; a < p->relations[lit->relation].arity; a++)
			if (spread[lit->relation] & ((Positions) 1 << a))
				add_position_rule(p, &rule, order, k, a, asked, spread, asked_relation,
								  position_relation, vars, scratch);
	}
}

void
demand_rewrite(Program *p)
{
	int			nrelations = p->nrelations;
	int			nrules = p->nrules;
	bool	   *may_ask = palloc0(Max(1, nrelations) * sizeof(bool));
	Positions  *asked = palloc0(Max(1, nrelations) * sizeof(Positions));
	int		   *asked_relation = palloc(Max(1, nrelations) * sizeof(int));
	Positions  *spread = palloc0(Max(1, nrelations) * sizeof(Positions));
	int		  **position_relation = palloc0(Max(1, nrelations) * sizeof(int *));
	int			nv = 1;
	int			nbody = 1;
	int		   *order;
	bool	   *bound;
	bool	   *scratch;

	for (int i = 0; i < nrules; i++)
	{
		nv = Max(nv, p->rules[i].nvariables);
		nbody = Max(nbody, p->rules[i].nbody);
	}
	order = palloc(nbody * sizeof(int));
	bound = palloc(nv * sizeof(bool));
	scratch = palloc0(nv * sizeof(bool));
	for (int r = 0; r < nrelations; r++)
	{
		may_ask[r] = demandable(p, r);
		asked[r] = may_ask[r] ? all_positions(p->relations[r].arity) : 0;
		spread[r] = asked[r];
	}
	while (narrow(p, may_ask, false, asked, order, bound))
		;
	/* what true and does bind besides, asked position by position */
	while (narrow(p, may_ask, true, spread, order, bound))
		;
	for (int r = 0; r < nrelations; r++)
		spread[r] &= nbody <= MAX_POSITION_READER ? ~asked[r] : 0;

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
	for (int r = 0; r < nrelations; r++)
	{
		if (spread[r] == 0)
			continue;
		position_relation[r] = palloc(p->relations[r].arity * sizeof(int));
		for (int a = 0; a < p->relations[r].arity; a++)
		{
			char	   *name;

			if (!(spread[r] & ((Positions) 1 << a)))
				continue;
			name = psprintf("asked %s/%d #%d", p->terms->names[p->relations[r].name], p->relations[r].arity, a + 1);
			position_relation[r][a] = program_add_relation(p, term_symbol_id(p->terms, name, strlen(name)), 1, true);
			p->relations[position_relation[r][a]].asked = true;
		}
	}
	for (int i = 0; i < nrules; i++)
		if (p->relations[p->rules[i].relation].dynamic)
		{
			add_asking_rules(p, i, may_ask, asked, asked_relation, order, bound);
			add_position_asking_rules(p, i, may_ask, asked, spread, asked_relation,
									  position_relation, order, bound, scratch);
		}

	/* the rules of a relation asked for join their asked literal first */
	for (int i = 0; i < nrules; i++)
	{
		Rule	   *rule = &p->rules[i];
		int			a = asked_relation[rule->relation];
		Positions	positions = spread[rule->relation];
		Literal    *body;
		int			n = 0;

		if (a < 0 && positions == 0)
			continue;
		body = palloc((rule->nbody + 1 + pg_popcount64(positions)) * sizeof(Literal));
		if (a >= 0)
		{
			body[n].kind = LIT_POSITIVE;
			body[n].relation = a;
			body[n].atom = asked_atom(p, a, rule->head, asked[rule->relation]);
			body[n++].other = NO_TERM;
		}
		for (int k = 0; k < p->relations[rule->relation].arity; k++)
			if ((positions & ((Positions) 1 << k)) && filtered_only(p, rule, term_arg(p->terms, rule->head, k)))
				body[n++] = position_literal(p, position_relation[rule->relation][k],
											 term_arg(p->terms, rule->head, k));
		memcpy(&body[n], rule->body, rule->nbody * sizeof(Literal));
		rule->body = body;
		rule->nbody += n;
	}
	program_file_rules(p);
}
