/*
 * passthrough.c: the groups of arguments a relation's rules pass on (see
 * passthrough.h).
 */
#include "postgres.h"

#include "gdl/passthrough.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"

typedef enum RuleKind
{
	RULE_ACTIVE,				/* fixes every group variable from the rest */
	RULE_TRANSPARENT,			/* filters them and passes them on, nothing more */
	RULE_MIXED					/* neither: the group is refused */
} RuleKind;

static bool
is_variable(const TermStore *ts, TermId t)
{
	return term_node(ts, t)->kind == TERM_VARIABLE;
}

/* A static relation, not true or does. */
static bool
is_static(const Program *p, int relation)
{
	return relation >= 0 && !p->relations[relation].dynamic && relation != p->rel_true &&
		relation != p->rel_does;
}

bool
passthrough_is_filter(const Program *p, const Rule *rule, int i, uint8 group)
{
	const TermStore *ts = p->terms;
	const Literal *lit = &rule->body[i];
	TermId		arg;

	if (lit->kind != LIT_POSITIVE || !is_static(p, lit->relation) ||
		p->relations[lit->relation].arity != 1)
		return false;
	arg = term_arg(ts, lit->atom, 0);
	if (!is_variable(ts, arg))
		return false;
	for (int a = 0; a < p->relations[rule->relation].arity; a++)
		if ((group & (1 << a)) && term_arg(ts, rule->head, a) == arg)
			return true;
	return false;
}

/*
 * Whether literal lit (of a relation of the state) passes the group
 * variables vars (in the order of the rule's group) to the group of its
 * relation, in that order, and has none of them elsewhere.
 */
static bool
passes_on(const Program *p, const Rule *rule, const Literal *lit, uint8 callee_group,
		  const TermId *vars, int nvars)
{
	const TermStore *ts = p->terms;
	int			arity = p->relations[lit->relation].arity;
	int			k = 0;
	bool	   *seen;
	bool		clean = true;

	if (callee_group == 0 || pg_popcount32(callee_group) != nvars)
		return false;
	seen = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	for (int b = 0; b < arity; b++)
	{
		TermId		arg = term_arg(ts, lit->atom, b);

		if (callee_group & (1 << b))
		{
			if (arg != vars[k++])
				clean = false;
		}
		else
			term_mark_variables(ts, arg, seen);
	}
	for (int v = 0; v < nvars && clean; v++)
		clean = !seen[term_node(ts, vars[v])->name];
	pfree(seen);
	return clean;
}

/* How rule treats group (of its head's positions); groups[]: the relations decided before. */
static RuleKind
classify(const Program *p, const Rule *rule, uint8 group, const uint8 *groups)
{
	const TermStore *ts = p->terms;
	int			arity = p->relations[rule->relation].arity;
	int			nv = Max(1, rule->nvariables);
	bool	   *in_group = palloc0(nv * sizeof(bool));
	bool	   *fixed = palloc0(nv * sizeof(bool));
	bool	   *seen = palloc(nv * sizeof(bool));
	TermId		vars[PASSTHROUGH_MAX_ARITY];
	int			nvars = 0;
	bool		transparent = true;
	int			nfixed = 0;
	RuleKind	kind;

	for (int a = 0; a < arity; a++)
		if (group & (1 << a))
		{
			TermId		arg = term_arg(ts, rule->head, a);

			if (in_group[term_node(ts, arg)->name])
				transparent = false;	/* twice in the group: the group is not free */
			in_group[term_node(ts, arg)->name] = true;
			vars[nvars++] = arg;
		}
	/* a group variable elsewhere in the head is fixed by that argument */
	memset(seen, 0, nv * sizeof(bool));
	for (int a = 0; a < arity; a++)
		if (!(group & (1 << a)))
			term_mark_variables(ts, term_arg(ts, rule->head, a), seen);
	for (int v = 0; v < nv; v++)
		fixed[v] = in_group[v] && seen[v];
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *lit = &rule->body[i];
		bool		involved = false;

		memset(seen, 0, nv * sizeof(bool));
		term_mark_variables(ts, lit->atom, seen);
		if (lit->kind == LIT_DISTINCT)
			term_mark_variables(ts, lit->other, seen);
		for (int v = 0; v < nv; v++)
			involved |= seen[v] && in_group[v];
		if (!involved)
			continue;
		if (lit->kind == LIT_POSITIVE && (is_static(p, lit->relation) || lit->relation == p->rel_true))
		{
			/* joined: it binds them, but for a filter */
			if (!passthrough_is_filter(p, rule, i, group))
				for (int v = 0; v < nv; v++)
					fixed[v] |= seen[v] && in_group[v];
		}
		else if (lit->kind == LIT_DISTINCT || is_static(p, lit->relation) ||
				 lit->relation == p->rel_true || lit->relation == p->rel_does ||
				 !passes_on(p, rule, lit, lit->relation == rule->relation ? group : groups[lit->relation],
							vars, nvars))
			transparent = false;
	}
	for (int v = 0; v < nv; v++)
		nfixed += fixed[v];
	kind = nfixed == nvars ? RULE_ACTIVE : nfixed == 0 && transparent ? RULE_TRANSPARENT : RULE_MIXED;
	pfree(in_group);
	pfree(fixed);
	pfree(seen);
	return kind;
}

/*
 * The best group of relation r (see passthrough.h) among the subsets of
 * the positions that are a variable in every head, 0 if none will do.
 */
static uint8
choose_group(const Program *p, const Rule *rules, int r, const uint8 *groups)
{
	const Relation *rel = &p->relations[r];
	uint8		open = (uint8) ((1 << rel->arity) - 1);
	uint8		best = 0;
	int			best_transparent = 0;

	for (int k = 0; k < rel->nrules; k++)
		for (int a = 0; a < rel->arity; a++)
			if (!is_variable(p->terms, term_arg(p->terms, rules[rel->rules[k]].head, a)))
				open &= ~(1 << a);
	/* every subset of open, largest masks first */
	for (int g = open; g > 0; g = (g - 1) & open)
	{
		int			ntransparent = 0;
		bool		valid = true;

		for (int k = 0; k < rel->nrules && valid; k++)
		{
			RuleKind	kind = classify(p, &rules[rel->rules[k]], (uint8) g, groups);

			valid = kind != RULE_MIXED;
			ntransparent += kind == RULE_TRANSPARENT;
		}
		if (valid && ntransparent > 0 &&
			(ntransparent > best_transparent ||
			 (ntransparent == best_transparent && pg_popcount32(g) > pg_popcount32(best))))
		{
			best = (uint8) g;
			best_transparent = ntransparent;
		}
	}
	return best;
}

PassThrough
passthrough_groups(const Program *p, const Rule *rules, const bool *candidate)
{
	PassThrough pt;
	int		   *in_component = palloc0(Max(1, p->ncomponents) * sizeof(int));

	pt.group = palloc0(Max(1, p->nrelations) * sizeof(uint8));
	pt.filters = palloc0(Max(1, p->nrelations) * sizeof(uint32));
	pt.nfilters = 0;
	for (int r = 0; r < p->nrelations; r++)
		in_component[p->relations[r].component]++;
	/* callees first: a relation's group is chosen knowing those it passes arguments to */
	for (int c = 0; c < p->ncomponents; c++)
		for (int r = 0; r < p->nrelations; r++)
		{
			const Relation *rel = &p->relations[r];

			CHECK_FOR_INTERRUPTS();
			if (rel->component != c || !candidate[r] || in_component[c] != 1 || rel->nrules == 0 ||
				rel->arity > PASSTHROUGH_MAX_ARITY)
				continue;
			pt.group[r] = choose_group(p, rules, r, pt.group);
			for (int k = 0; k < rel->nrules && pt.group[r] != 0; k++)
			{
				const Rule *rule = &rules[rel->rules[k]];

				for (int i = 0; i < rule->nbody; i++)
				{
					int			f = rule->body[i].relation;
					int			bit = 0;

					if (!passthrough_is_filter(p, rule, i, pt.group[r]))
					{
						/* the callees' filters: a value shared must pass them alike */
						if (f >= 0 && f != r)
							pt.filters[r] |= pt.filters[f];
						continue;
					}
					while (bit < pt.nfilters && pt.filter_relation[bit] != f)
						bit++;
					if (bit == PASSTHROUGH_MAX_FILTERS)
					{
						pt.group[r] = 0;
						break;
					}
					if (bit == pt.nfilters)
						pt.filter_relation[pt.nfilters++] = f;
					pt.filters[r] |= (uint32) 1 << bit;
				}
			}
		}
	pfree(in_component);
	return pt;
}
