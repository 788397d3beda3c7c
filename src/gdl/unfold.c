/*
 * unfold.c: single-rule relations unfolded into the rules that use them
 * (see unfold.h).
 *
 * Why: a compiled query's instances name the ground queries its rules
 * leave to the state, and a literal with an unbound argument stops the
 * compiling.  chess.kif's threats, (bishop_threatens ?opponent ?u ?v ?x ?y
 * ?ignorex ?ignorey), are one rule each, (piece_owner_type ?b ?opponent
 * bishop) (true (cell ?u ?v ?b)) (bishop_move_ig ...): unfolded,
 * (threatened ...) compiles, and so does (threatened_with_capture ...)
 * into a fact and a line per square, where it named a threat query per
 * square, each compiled when first reached.  The prover's joins keep the
 * program's rules: a relation's answers, kept per state, serve every rule
 * that asks the same question (checkers.kif's single_jump_capture, in a
 * dozen legal rules: unfolded there too, its perft 5 on the prover took
 * 3.96 s instead of 0.69 s).
 */
#include "postgres.h"

#include "gdl/join.h"
#include "gdl/unfold.h"
#include "miscadmin.h"

/*
 * Relation r can stand for its rule's body: of the state (static ones are
 * tables already), not what the engine asks (legal, next, goal, terminal)
 * or reads (true, does), one rule, recursive neither through others (its
 * component has it alone) nor through itself, its head's arguments
 * distinct variables (a constant or a repeated variable would need
 * unification, not renaming).
 */
static bool
unfoldable(const Program *p, const int *component_size, int r)
{
	const Relation *rel = &p->relations[r];
	const TermStore *ts = p->terms;
	const Rule *rule;
	bool	   *seen;
	bool		distinct = true;

	if (!rel->dynamic || rel->nrules != 1 || component_size[rel->component] != 1 ||
		r == p->rel_true || r == p->rel_does || r == p->rel_legal || r == p->rel_next ||
		r == p->rel_goal || r == p->rel_terminal)
		return false;
	rule = &p->rules[rel->rules[0]];
	for (int i = 0; i < rule->nbody; i++)
		if (rule->body[i].relation == r)
			return false;
	seen = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	for (int a = 0; a < rel->arity && distinct; a++)
	{
		const TermNode *n = term_node(ts, term_arg(ts, rule->head, a));

		distinct = n->kind == TERM_VARIABLE && !seen[n->name];
		if (distinct)
			seen[n->name] = true;
	}
	pfree(seen);
	return distinct;
}

/*
 * Replaces body[i], a literal of unfoldable relation whose rule is unit,
 * by unit's body: unit's head variables become the literal's arguments,
 * its other variables new ones of the rule (*nvariables counts them).
 */
static void
splice(Program *p, Literal *body, int *n, int i, const Rule *unit, int *nvariables)
{
	TermStore  *ts = p->terms;
	TermId	   *map = palloc(Max(1, unit->nvariables) * sizeof(TermId));
	TermId		atom = body[i].atom;

	for (int v = 0; v < unit->nvariables; v++)
		map[v] = NO_TERM;
	for (int a = 0; a < term_arity(ts, unit->head); a++)
		map[term_node(ts, term_arg(ts, unit->head, a))->name] = term_arg(ts, atom, a);
	for (int v = 0; v < unit->nvariables; v++)
		if (map[v] == NO_TERM)
			map[v] = term_variable(ts, (*nvariables)++);
	memmove(&body[i + unit->nbody], &body[i + 1], (*n - i - 1) * sizeof(Literal));
	for (int k = 0; k < unit->nbody; k++)
	{
		const Literal *from = &unit->body[k];

		body[i + k] = *from;
		body[i + k].atom = term_rename(ts, from->atom, map);
		if (from->kind == LIT_DISTINCT)
			body[i + k].other = term_rename(ts, from->other, map);
	}
	*n += unit->nbody - 1;
	pfree(map);
}

/*
 * The rule with its literals unfolded, those of the bodies spliced in too
 * (each is of a relation earlier in the evaluation order, so it ends),
 * while the body stays within MAX_BODY literals.
 */
static Rule
unfold_rule(Program *p, const Rule *rule, const bool *can)
{
	Rule		out = *rule;
	Literal    *body = palloc(MAX_BODY * sizeof(Literal));
	int			n = rule->nbody;

	memcpy(body, rule->body, n * sizeof(Literal));
	for (int i = 0; i < n;)
	{
		const Literal *lit = &body[i];
		const Rule *unit;

		CHECK_FOR_INTERRUPTS();
		if (lit->kind != LIT_POSITIVE || !can[lit->relation])
		{
			i++;
			continue;
		}
		unit = &p->rules[p->relations[lit->relation].rules[0]];
		if (n - 1 + unit->nbody > MAX_BODY)
		{
			i++;
			continue;
		}
		splice(p, body, &n, i, unit, &out.nvariables);
	}
	out.nbody = n;
	out.body = palloc(Max(1, n) * sizeof(Literal));
	memcpy(out.body, body, n * sizeof(Literal));
	pfree(body);
	return out;
}

Rule *
unfolded_rules(Program *p)
{
	int		   *component_size = palloc0(Max(1, p->ncomponents) * sizeof(int));
	bool	   *can = palloc(Max(1, p->nrelations) * sizeof(bool));
	Rule	   *rules = palloc_extended(Max(1, p->nrules) * sizeof(Rule), MCXT_ALLOC_HUGE);

	for (int r = 0; r < p->nrelations; r++)
		component_size[p->relations[r].component]++;
	for (int r = 0; r < p->nrelations; r++)
		can[r] = unfoldable(p, component_size, r);
	for (int i = 0; i < p->nrules; i++)
	{
		const Rule *rule = &p->rules[i];
		bool		any = false;

		for (int k = 0; k < rule->nbody && !any; k++)
			any = rule->body[k].kind == LIT_POSITIVE && can[rule->body[k].relation];
		rules[i] = any ? unfold_rule(p, rule, can) : *rule;
	}
	pfree(component_size);
	pfree(can);
	return rules;
}
