/*
 * split.c: cuts a rule's body into parts that share no variable but the
 * head's (see split.h).
 *
 * Literals are joined into parts through the variables the head does not
 * have (union-find); a literal with none of those stays in the main body.
 */
#include "postgres.h"

#include "gdl/split.h"

/* The variables of a body literal into seen[]. */
static void
mark_literal(const Program *p, const Literal *lit, bool *seen)
{
	term_mark_variables(p->terms, lit->atom, seen);
	if (lit->kind == LIT_DISTINCT)
		term_mark_variables(p->terms, lit->other, seen);
}

/* The variables of rule's body into seen[] (nv entries), cleared first. */
static void
mark_body(const Program *p, const Rule *rule, bool *seen, int nv)
{
	memset(seen, 0, nv * sizeof(bool));
	for (int k = 0; k < rule->nbody; k++)
		mark_literal(p, &rule->body[k], seen);
}

static int
find_root(int *parent, int k)
{
	while (parent[k] != k)
		k = parent[k] = parent[parent[k]];
	return k;
}

/*
 * Moves into the main body (part[k] = -1) the parts needed to bind every
 * head variable by a positive literal there; false when the main body
 * then holds the whole rule.
 */
static bool
keep_binding_parts(const Program *p, const Rule *rule, const bool *in_head, int *part)
{
	int			nv = Max(1, rule->nvariables);
	bool	   *bound = palloc(nv * sizeof(bool));
	bool	   *uses = palloc(nv * sizeof(bool));
	bool		split = false;

	for (;;)
	{
		int			unbound = -1,
					binder = -1;

		memset(bound, 0, nv * sizeof(bool));
		for (int k = 0; k < rule->nbody; k++)
			if (part[k] < 0 && rule->body[k].kind == LIT_POSITIVE)
				mark_literal(p, &rule->body[k], bound);
		for (int v = 0; v < rule->nvariables && unbound < 0; v++)
			if (in_head[v] && !bound[v])
				unbound = v;
		if (unbound < 0)
			break;
		/* a part with a positive literal that binds it (the rule is safe: there is one) */
		for (int k = 0; k < rule->nbody && binder < 0; k++)
		{
			if (part[k] < 0 || rule->body[k].kind != LIT_POSITIVE)
				continue;
			memset(uses, 0, nv * sizeof(bool));
			mark_literal(p, &rule->body[k], uses);
			if (uses[unbound])
				binder = part[k];
		}
		/* none: an unsafe rule, which program.c refuses; no split rather than no end */
		if (binder < 0)
			return false;
		for (int k = 0; k < rule->nbody; k++)
			if (part[k] == binder)
				part[k] = -1;
	}
	for (int k = 0; k < rule->nbody; k++)
		split |= part[k] >= 0;
	pfree(bound);
	pfree(uses);
	return split;
}

RuleSplit *
rule_split(Program *p, const Rule *rule, int number)
{
	int			nv = Max(1, rule->nvariables);
	int			nbody = rule->nbody;
	bool	   *in_head = palloc0(nv * sizeof(bool));
	bool	   *seen = palloc(nv * sizeof(bool));
	int		   *first_literal = palloc(nv * sizeof(int));	/* per variable not in the head */
	int		   *parent = palloc(Max(1, nbody) * sizeof(int));
	int		   *part = palloc(Max(1, nbody) * sizeof(int));
	int		   *part_number = palloc(Max(1, nbody) * sizeof(int));
	RuleSplit  *s;
	int			nmain = 0;
	int			head_variables_used = 0;
	int			nhead_variables = 0;

	term_mark_variables(p->terms, rule->head, in_head);
	for (int v = 0; v < nv; v++)
		first_literal[v] = -1;
	for (int k = 0; k < nbody; k++)
		parent[k] = k;
	for (int k = 0; k < nbody; k++)
	{
		memset(seen, 0, nv * sizeof(bool));
		mark_literal(p, &rule->body[k], seen);
		part[k] = -1;
		for (int v = 0; v < rule->nvariables; v++)
		{
			if (!seen[v] || in_head[v])
				continue;
			part[k] = k;
			if (first_literal[v] < 0)
				first_literal[v] = k;
			else
				parent[find_root(parent, k)] = find_root(parent, first_literal[v]);
		}
	}
	for (int k = 0; k < nbody; k++)
		if (part[k] >= 0)
			part[k] = find_root(parent, k);

	if (!keep_binding_parts(p, rule, in_head, part))
		return NULL;

	s = palloc0(sizeof(RuleSplit));
	s->main = *rule;
	s->main.body = palloc(nbody * sizeof(Literal));
	s->parts = palloc(nbody * sizeof(Rule));
	for (int k = 0; k < nbody; k++)
		part_number[k] = -1;
	for (int k = 0; k < nbody; k++)
	{
		Rule	   *r;

		if (part[k] < 0)
		{
			s->main.body[nmain++] = rule->body[k];
			continue;
		}
		if (part_number[part[k]] < 0)
		{
			r = &s->parts[part_number[part[k]] = s->nparts++];
			*r = *rule;
			r->relation = -1;
			r->nbody = 0;
			r->body = palloc(nbody * sizeof(Literal));
		}
		r = &s->parts[part_number[part[k]]];
		r->body[r->nbody++] = rule->body[k];
	}
	s->main.nbody = nmain;

	/*
	 * One part over all the head's variables is asked once per instance of
	 * the rule, by that instance alone: a node more for nothing shared
	 * (chineseCheckers3's jumps made the network 14% larger).
	 */
	for (int v = 0; v < rule->nvariables; v++)
		nhead_variables += in_head[v];
	if (s->nparts == 1)
	{
		mark_body(p, &s->parts[0], seen, nv);
		for (int v = 0; v < rule->nvariables; v++)
			head_variables_used += seen[v] && in_head[v];
		if (head_variables_used == nhead_variables)
			return NULL;
	}

	for (int i = 0; i < s->nparts; i++)
	{
		Rule	   *r = &s->parts[i];
		TermId	   *args = palloc(nv * sizeof(TermId));
		int			nargs = 0;
		/* spaces: no KIF symbol, so no relation of the game, has this name */
		char	   *name = psprintf("part %d of rule %d", i + 1, number);
		SymbolId	sym = term_symbol_id(p->terms, name, strlen(name));

		mark_body(p, r, seen, nv);
		for (int v = 0; v < rule->nvariables; v++)
			if (seen[v] && in_head[v])
				args[nargs++] = term_variable(p->terms, v);
		r->head = nargs == 0 ? term_symbol(p->terms, sym) : term_function(p->terms, sym, nargs, args);
	}
	return s;
}
