/*
 * implied.c: the facts a literal implies, written beside it (see
 * implied.h).
 *
 * The relations are visited in evaluation order, so that a relation's
 * rules have their own implied facts before a reader asks what they
 * imply: chess.kif's capture rules of legal gain the piece's square from
 * legal2, and a reader of legal could gain it from them.
 */
#include "postgres.h"

#include "gdl/implied.h"
#include "gdl/join.h"
#include "miscadmin.h"

typedef enum Match
{
	MATCH_NEVER,				/* no instances of the two are equal */
	MATCH_MAPS,					/* the pattern's variables mapped, where the term fixes them */
	MATCH_UNKNOWN				/* a pattern variable meets two terms: equal in some instances only */
} Match;

/*
 * Matches pattern, a rule's head (its variables into map[], NO_TERM when
 * not met yet), against term, a literal's atom in another rule.  A
 * variable of term facing a compound of pattern leaves the variables
 * inside unmapped: what they stand for is not a term of the reader.
 */
static Match
match(const TermStore *ts, TermId pattern, TermId term, TermId *map)
{
	const TermNode *pn = term_node(ts, pattern);
	const TermNode *tn = term_node(ts, term);
	Match		result = MATCH_MAPS;

	if (pn->kind == TERM_VARIABLE)
	{
		if (map[pn->name] == NO_TERM)
			map[pn->name] = term;
		return map[pn->name] == term ? MATCH_MAPS : MATCH_UNKNOWN;
	}
	if (tn->kind == TERM_VARIABLE)
		return MATCH_MAPS;
	if (pn->kind != tn->kind || pn->name != tn->name || pn->nargs != tn->nargs)
		return MATCH_NEVER;
	check_stack_depth();
	for (int i = 0; i < term_arity(ts, pattern); i++)
	{
		Match		m = match(ts, term_arg(ts, pattern, i), term_arg(ts, term, i), map);

		if (m == MATCH_NEVER)
			return MATCH_NEVER;
		if (m == MATCH_UNKNOWN)
			result = MATCH_UNKNOWN;
	}
	return result;
}

/*
 * The facts rule's body reads positively whose variables map[] maps, as
 * the reader's atoms of (true X), into out[] (at most rule->nbody);
 * returns how many.
 */
static int
mapped_facts(Program *p, const Rule *rule, const TermId *map, TermId *out)
{
	bool	   *mapped = palloc(Max(1, rule->nvariables) * sizeof(bool));
	int			n = 0;

	for (int v = 0; v < rule->nvariables; v++)
		mapped[v] = map[v] != NO_TERM;
	for (int k = 0; k < rule->nbody; k++)
	{
		const Literal *lit = &rule->body[k];

		if (lit->kind == LIT_POSITIVE && lit->relation == p->rel_true &&
			term_unbound_variable(p->terms, lit->atom, mapped) < 0)
			out[n++] = term_rename(p->terms, lit->atom, map);
	}
	pfree(mapped);
	return n;
}

/*
 * The atoms of (true X) that literal lit of a reader implies, into out[]
 * (room for MAX_BODY); returns how many.  None when some rule that can
 * hold for it reads no fact of its own terms, or a fact of them that the
 * others do not.
 */
static int
implied_facts(Program *p, const Literal *lit, TermId *out)
{
	const Relation *rel = &p->relations[lit->relation];
	TermId	   *facts = palloc(MAX_BODY * sizeof(TermId));
	int			n = -1;			/* -1: no rule matched yet */

	for (int i = 0; i < rel->nrules && n != 0; i++)
	{
		const Rule *rule = &p->rules[rel->rules[i]];
		TermId	   *map = palloc(Max(1, rule->nvariables) * sizeof(TermId));
		Match		m;
		int			nfacts;

		for (int v = 0; v < rule->nvariables; v++)
			map[v] = NO_TERM;
		m = match(p->terms, rule->head, lit->atom, map);
		if (m == MATCH_NEVER)
		{
			pfree(map);
			continue;
		}
		nfacts = m == MATCH_MAPS ? mapped_facts(p, rule, map, facts) : 0;
		if (n < 0)
		{
			memcpy(out, facts, nfacts * sizeof(TermId));
			n = nfacts;
		}
		else
		{
			int			kept = 0;

			for (int a = 0; a < n; a++)
				for (int b = 0; b < nfacts; b++)
					if (out[a] == facts[b])
					{
						out[kept++] = out[a];
						break;
					}
			n = kept;
		}
		pfree(map);
	}
	pfree(facts);
	return Max(n, 0);
}

/* Whether the n literals of body read atom positively. */
static bool
reads(const Literal *body, int n, TermId atom)
{
	for (int k = 0; k < n; k++)
		if (body[k].kind == LIT_POSITIVE && body[k].atom == atom)
			return true;
	return false;
}

/* Whether lit reads a relation of the state that the rules derive (not true or does). */
static bool
reads_derived(const Program *p, const Literal *lit)
{
	return lit->kind != LIT_DISTINCT && p->relations[lit->relation].dynamic &&
		lit->relation != p->rel_true && lit->relation != p->rel_does;
}

/*
 * Rule with the facts its literals imply written after them, when it has
 * other derived literals for them to guard: a fact implied by a rule's
 * only derived literal guards nothing that literal does not, and costs a
 * literal (and a copy of a node, (<= q2 q1), stops being one).
 */
static void
add_implied_facts(Program *p, Rule *rule)
{
	Literal    *body;
	TermId	   *facts;
	int			n = 0,
				nderived = 0;

	for (int k = 0; k < rule->nbody; k++)
		nderived += reads_derived(p, &rule->body[k]);
	if (nderived < 2)
		return;
	body = palloc(MAX_BODY * sizeof(Literal));
	facts = palloc(MAX_BODY * sizeof(TermId));
	for (int k = 0; k < rule->nbody; k++)
	{
		const Literal *lit = &rule->body[k];
		int			nfacts;

		body[n++] = *lit;
		if (lit->kind != LIT_POSITIVE || !reads_derived(p, lit))
			continue;
		nfacts = implied_facts(p, lit, facts);
		for (int f = 0; f < nfacts && n + (rule->nbody - k - 1) < MAX_BODY; f++)
			if (!reads(rule->body, rule->nbody, facts[f]) && !reads(body, n, facts[f]))
				body[n++] = (Literal) {.kind = LIT_POSITIVE,.relation = p->rel_true,.atom = facts[f]};
	}
	if (n > rule->nbody)
	{
		rule->body = repalloc(body, n * sizeof(Literal));
		rule->nbody = n;
	}
	else
		pfree(body);
	pfree(facts);
}

void
implied_facts_rewrite(Program *p)
{
	int		   *order = program_relations_by_component(p, NULL);

	for (int k = 0; k < p->nrelations; k++)
	{
		const Relation *rel = &p->relations[order[k]];

		CHECK_FOR_INTERRUPTS();
		if (!rel->dynamic)
			continue;
		for (int i = 0; i < rel->nrules; i++)
			add_implied_facts(p, &p->rules[rel->rules[i]]);
	}
	pfree(order);
}
