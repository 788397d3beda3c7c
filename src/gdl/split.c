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
	bool		split = false,
				unsafe = false;

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
		{
			unsafe = true;
			break;
		}
		for (int k = 0; k < rule->nbody; k++)
			if (part[k] == binder)
				part[k] = -1;
	}
	for (int k = 0; k < rule->nbody; k++)
		split |= part[k] >= 0;
	pfree(bound);
	pfree(uses);
	return split && !unsafe;
}

/*
 * Makes a part of its own (part[k] = project) of each positive literal of
 * the main body with variables of its own (in no other literal and not in
 * the head) whose other variables the rest of the main body binds: asked
 * once per values of those, it says whether some values of its own make it
 * hold.  chess.kif's discovered checks, (next (check ?player rook ?x ?y))
 * :- (does ?opponent (move ?piece ?u ?v ?x1 ?y1)), ..., (rook_threatens
 * ?opponent ?x ?y ?kx ?ky ?u ?v): the move's piece and target are the
 * does literal's own, and whole, the rule had a ground rule per move and
 * threat (22 million for the three such rules of a chess.kif stand-in);
 * with the move asked as "some move from (?u ?v)", one per threat (372,736).
 * True when some literal was.
 */
static bool
project_literals(const Program *p, const Rule *rule, const bool *in_head, int *part, int project)
{
	int			nv = Max(1, rule->nvariables);
	int		   *uses = palloc0(nv * sizeof(int));	/* the head and the literals using each variable */
	bool	   *own = palloc0(Max(1, rule->nbody) * sizeof(bool));
	bool	   *seen = palloc(nv * sizeof(bool));
	bool	   *bound = palloc0(nv * sizeof(bool));
	bool		projected = false;

	for (int v = 0; v < rule->nvariables; v++)
		uses[v] = in_head[v];
	for (int k = 0; k < rule->nbody; k++)
	{
		memset(seen, 0, nv * sizeof(bool));
		mark_literal(p, &rule->body[k], seen);
		for (int v = 0; v < rule->nvariables; v++)
			uses[v] += seen[v];
	}
	for (int k = 0; k < rule->nbody; k++)
	{
		memset(seen, 0, nv * sizeof(bool));
		mark_literal(p, &rule->body[k], seen);
		for (int v = 0; v < rule->nvariables; v++)
			own[k] |= seen[v] && uses[v] == 1;
	}

	/*
	 * Bound by the main body's positive literals that stay there whatever
	 * is projected: those without variables of their own.
	 */
	for (int k = 0; k < rule->nbody; k++)
		if (part[k] < 0 && !own[k] && rule->body[k].kind == LIT_POSITIVE)
			mark_literal(p, &rule->body[k], bound);
	for (int k = 0; k < rule->nbody; k++)
	{
		bool		rest_bound = true;

		if (part[k] >= 0 || !own[k] || rule->body[k].kind != LIT_POSITIVE)
			continue;
		memset(seen, 0, nv * sizeof(bool));
		mark_literal(p, &rule->body[k], seen);
		for (int v = 0; v < rule->nvariables; v++)
			if (seen[v] && uses[v] > 1)
				rest_bound &= bound[v];
		if (rest_bound)
		{
			part[k] = project + k;
			projected = true;
		}
	}
	pfree(uses);
	pfree(own);
	pfree(seen);
	pfree(bound);
	return projected;
}

/*
 * Fills part[] (per body literal: its part, or -1 for the main body; in_head
 * the head's variables) and says whether the rule splits.
 */
static bool
split_parts(const Program *p, const Rule *rule, bool *in_head, int *part)
{
	int			nv = Max(1, rule->nvariables);
	int			nbody = rule->nbody;
	bool	   *seen = palloc(nv * sizeof(bool));
	int		   *first_literal = palloc(nv * sizeof(int));	/* per variable not in the head */
	int		   *parent = palloc(Max(1, nbody) * sizeof(int));
	bool		split;

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

	split = keep_binding_parts(p, rule, in_head, part);

	/*
	 * One part over all the head's variables is asked once per instance of
	 * the rule, by that instance alone: a node more for nothing shared
	 * (chineseCheckers3's jumps made the network 14% larger); it stays in
	 * the main body.
	 */
	if (split)
	{
		int			only = -1;
		bool		one = true;

		memset(seen, 0, nv * sizeof(bool));
		for (int k = 0; k < nbody; k++)
			if (part[k] >= 0)
			{
				one &= only < 0 || part[k] == only;
				only = part[k];
				mark_literal(p, &rule->body[k], seen);
			}
		for (int v = 0; v < rule->nvariables && one; v++)
			one = !in_head[v] || seen[v];
		if (one)
			split = false;
	}
	if (!split)
		for (int k = 0; k < nbody; k++)
			part[k] = -1;
	split |= project_literals(p, rule, in_head, part, nbody);
	pfree(seen);
	pfree(first_literal);
	pfree(parent);
	return split;
}

bool
rule_splits(const Program *p, const Rule *rule)
{
	bool	   *in_head = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	int		   *part = palloc(Max(1, rule->nbody) * sizeof(int));
	bool		split = split_parts(p, rule, in_head, part);

	pfree(in_head);
	pfree(part);
	return split;
}

RuleSplit *
rule_split(Program *p, const Rule *rule, int number)
{
	int			nv = Max(1, rule->nvariables);
	int			nbody = rule->nbody;
	bool	   *in_head = palloc0(nv * sizeof(bool));
	bool	   *seen = palloc(nv * sizeof(bool));
	bool	   *outside = palloc(nv * sizeof(bool));
	int		   *part = palloc(Max(1, nbody) * sizeof(int));
	int		   *part_number = palloc(Max(1, 2 * nbody) * sizeof(int));
	RuleSplit  *s;
	int			nmain = 0;

	if (!split_parts(p, rule, in_head, part))
		return NULL;

	s = palloc0(sizeof(RuleSplit));
	s->main = *rule;
	s->main.body = palloc(nbody * sizeof(Literal));
	s->parts = palloc(nbody * sizeof(Rule));
	for (int k = 0; k < 2 * nbody; k++)
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

	/* a part's head: its variables that the head or the main body has */
	memcpy(outside, in_head, nv * sizeof(bool));
	for (int k = 0; k < nmain; k++)
		mark_literal(p, &s->main.body[k], outside);
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
			if (seen[v] && outside[v])
				args[nargs++] = term_variable(p->terms, v);
		r->head = nargs == 0 ? term_symbol(p->terms, sym) : term_function(p->terms, sym, nargs, args);
	}
	return s;
}
