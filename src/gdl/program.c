/*
 * program.c: turns the sentences of a GDL description into checked rules.
 *
 * GDL as the GGP specification has it: role, init, true, next, legal,
 * does, goal, terminal, distinct, not, or (and "and" inside bodies), base
 * and input (read like any relation, not needed), recursion and
 * stratified negation.  Refused, with the line of the rule: keywords as
 * rule heads, unsafe variables, recursion through negation, legal, goal
 * or terminal that depend on does, init that depends on the state, roles
 * that are not facts, no roles, no init.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "gdl/program.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"

/* Most rules one sentence may become once its "or"s are multiplied out. */
#define MAX_DISJUNCTS 4096
/* Message excerpts of the KIF text. */
#define EXCERPT_BYTES 100

static void
intern_keywords(TermStore *ts, Keywords *kw)
{
#define KW(field, text) kw->field = term_symbol_id(ts, text, strlen(text))
	KW(role, "role");
	KW(init, "init");
	KW(true_, "true");
	KW(next, "next");
	KW(legal, "legal");
	KW(does, "does");
	KW(goal, "goal");
	KW(terminal, "terminal");
	KW(distinct, "distinct");
	KW(not_, "not");
	KW(or_, "or");
	KW(and_, "and");
	KW(rule, "<=");
	KW(base, "base");
	KW(input, "input");
	KW(noop, "noop");
	KW(control, "control");
#undef KW
}

char *
program_rule_text(const Program *p, int sentence)
{
	const KifSentence *s = &p->sentences[sentence];
	int			len = s->end - s->start;
	StringInfoData out;
	bool		space = false;

	initStringInfo(&out);
	/* the sentence on one line, runs of white space as one blank */
	for (int i = 0; i < len && out.len < EXCERPT_BYTES; i++)
	{
		char		c = p->text[s->start + i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			space = true;
		else
		{
			if (space && out.len > 0 && out.data[out.len - 1] != '(')
				appendStringInfoChar(&out, ' ');
			space = false;
			appendStringInfoChar(&out, c);
		}
	}
	if (out.len >= EXCERPT_BYTES)
		appendStringInfoString(&out, " ...");
	return out.data;
}

static void pg_attribute_noreturn()
rule_error(const Program *p, int sentence, const char *fmt,...)
pg_attribute_printf(3, 4);

static void
rule_error(const Program *p, int sentence, const char *fmt,...)
{
	char		message[512];
	va_list		args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("game \"%s\", line %d: %s", p->game, p->sentences[sentence].line, message),
			 errdetail("The rule: %s", program_rule_text(p, sentence))));
}

static inline uint32
relation_hash(SymbolId name, int arity)
{
	return murmurhash32((uint32) name ^ ((uint32) arity << 24));
}

/* The slot of (name, arity) in p->relation_slots: its relation's, or an empty one. */
static int
relation_slot(const Program *p, SymbolId name, int arity)
{
	int			mask = p->nrelation_slots - 1;
	int			i = relation_hash(name, arity) & mask;

	for (;; i = (i + 1) & mask)
	{
		int32		r = p->relation_slots[i];

		if (r < 0 || (p->relations[r].name == name && p->relations[r].arity == arity))
			return i;
	}
}

int
program_relation(const Program *p, SymbolId name, int arity)
{
	return p->nrelation_slots == 0 ? -1 : p->relation_slots[relation_slot(p, name, arity)];
}

/* Twice as many slots, the relations filed again (at most half of the slots are used). */
static void
grow_relation_slots(Program *p)
{
	p->nrelation_slots = Max(256, 2 * p->nrelation_slots);
	if (p->relation_slots != NULL)
		pfree(p->relation_slots);
	p->relation_slots = palloc_extended(p->nrelation_slots * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(p->relation_slots, 0xff, p->nrelation_slots * sizeof(int32));
	for (int r = 0; r < p->nrelations; r++)
		p->relation_slots[relation_slot(p, p->relations[r].name, p->relations[r].arity)] = r;
}

/* The relation of an atom, added when new: one hash probe, so that reading n facts is linear. */
static int
relation_of(Program *p, TermId atom)
{
	SymbolId	name = term_functor(p->terms, atom);
	int			arity = term_arity(p->terms, atom);
	int			r = program_relation(p, name, arity);
	Relation   *rel;

	if (r >= 0)
		return r;
	if (2 * (p->nrelations + 1) > p->nrelation_slots)
		grow_relation_slots(p);
	if (p->nrelations == p->relation_room)
	{
		p->relation_room = Max(64, 2 * p->relation_room);
		p->relations = p->relations == NULL ?
			palloc_extended(p->relation_room * sizeof(Relation), MCXT_ALLOC_HUGE) :
			repalloc_huge(p->relations, p->relation_room * sizeof(Relation));
	}
	r = p->nrelations++;
	rel = &p->relations[r];
	memset(rel, 0, sizeof(Relation));
	rel->name = name;
	rel->arity = arity;
	p->relation_slots[relation_slot(p, name, arity)] = r;
	return r;
}

static bool
is_keyword_not_relation(const Keywords *kw, SymbolId s)
{
	return s == kw->distinct || s == kw->not_ || s == kw->or_ || s == kw->and_ || s == kw->rule;
}

/* The name of relation r, with its arity when that is not what GDL's is. */
static const char *
relation_name(const Program *p, int r)
{
	return psprintf("%s/%d", p->terms->names[p->relations[r].name], p->relations[r].arity);
}

/* A conjunction of literals: a List of Literal pointers. */
static List *
conjoin(List *a, List *b)
{
	return list_concat_copy(a, b);
}

static void
check_disjuncts(const Program *p, int sentence, int64 n)
{
	if (n > MAX_DISJUNCTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\", line %d: the rule's \"or\"s multiply out to more than %d rules",
						p->game, p->sentences[sentence].line, MAX_DISJUNCTS)));
}

/* Every pairing of a conjunction of a with one of b. */
static List *
product(const Program *p, int sentence, List *a, List *b)
{
	List	   *result = NIL;
	ListCell   *ca,
			   *cb;

	check_disjuncts(p, sentence, (int64) list_length(a) * list_length(b));
	foreach(ca, a)
		foreach(cb, b)
		result = lappend(result, conjoin(lfirst(ca), lfirst(cb)));
	return result;
}

/*
 * A body formula in disjunctive normal form: a List of conjunctions.
 * negated: the formula appears under an odd number of "not"s.
 */
static List *
body_dnf(Program *p, int sentence, TermId f, bool negated)
{
	TermStore  *ts = p->terms;
	const Keywords *kw = &p->kw;
	const TermNode *n = term_node(ts, f);
	Literal    *lit;

	check_stack_depth();
	if (n->kind == TERM_VARIABLE)
		rule_error(p, sentence, "a variable cannot be a literal of a rule's body");
	if (n->name == kw->not_ && n->kind == TERM_FUNCTION)
	{
		if (n->nargs != 1)
			rule_error(p, sentence, "\"not\" takes one literal, not %d", n->nargs);
		return body_dnf(p, sentence, term_arg(ts, f, 0), !negated);
	}
	if ((n->name == kw->or_ || n->name == kw->and_) && n->kind == TERM_FUNCTION)
	{
		bool		any = (n->name == kw->or_) != negated;
		List	   *result = NIL;

		if (n->nargs == 0)
			rule_error(p, sentence, "\"%s\" without literals", ts->names[n->name]);
		for (int i = 0; i < n->nargs; i++)
		{
			List	   *part = body_dnf(p, sentence, term_arg(ts, f, i), negated);

			if (any)
			{
				result = list_concat(result, part);
				check_disjuncts(p, sentence, list_length(result));
			}
			else
				result = i == 0 ? part : product(p, sentence, result, part);
		}
		return result;
	}
	lit = palloc0(sizeof(Literal));
	if (n->name == kw->distinct)
	{
		if (n->kind != TERM_FUNCTION || n->nargs != 2)
			rule_error(p, sentence, "\"distinct\" takes two terms");
		if (negated)
			rule_error(p, sentence, "\"distinct\" under \"not\" is not supported");
		lit->kind = LIT_DISTINCT;
		lit->relation = -1;
		lit->atom = term_arg(ts, f, 0);
		lit->other = term_arg(ts, f, 1);
		return list_make1(list_make1(lit));
	}
	if (n->name == kw->rule)
		rule_error(p, sentence, "\"<=\" inside a rule");
	if (n->name == kw->true_ && term_arity(ts, f) != 1)
		rule_error(p, sentence, "\"true\" takes one fact, not %d", term_arity(ts, f));
	if (n->name == kw->does && term_arity(ts, f) != 2)
		rule_error(p, sentence, "\"does\" takes a role and an action");
	lit->kind = negated ? LIT_NEGATIVE : LIT_POSITIVE;
	lit->atom = f;
	lit->relation = relation_of(p, f);
	return list_make1(list_make1(lit));
}

/* Room for one rule more; the new rule's place. */
static Rule *
new_rule(Program *p)
{
	if (p->nrules == p->rule_room)
	{
		p->rule_room = Max(256, 2 * p->rule_room);
		p->rules = p->rules == NULL ? palloc_extended(p->rule_room * sizeof(Rule), MCXT_ALLOC_HUGE) :
			repalloc_huge(p->rules, p->rule_room * sizeof(Rule));
	}
	return &p->rules[p->nrules++];
}

static void
add_rule(Program *p, int sentence, TermId head, List *body)
{
	Rule	   *rule = new_rule(p);
	ListCell   *c;
	int			i = 0;

	rule->head = head;
	rule->relation = relation_of(p, head);
	rule->nbody = list_length(body);
	rule->body = palloc(Max(1, rule->nbody) * sizeof(Literal));
	foreach(c, body)
		rule->body[i++] = *(Literal *) lfirst(c);
	rule->nvariables = p->sentences[sentence].nvariables;
	rule->sentence = sentence;
}

static void
read_sentence(Program *p, int sentence)
{
	TermStore  *ts = p->terms;
	TermId		t = p->sentences[sentence].term;
	const TermNode *n = term_node(ts, t);
	TermId		head = t;
	List	   *bodies = list_make1(NIL);
	const TermNode *h;
	ListCell   *c;

	if (n->kind == TERM_FUNCTION && n->name == p->kw.rule)
	{
		if (n->nargs == 0)
			rule_error(p, sentence, "a rule \"(<= head body ...)\" without a head");
		head = term_arg(ts, t, 0);
		for (int i = 1; i < n->nargs; i++)
			bodies = product(p, sentence, bodies, body_dnf(p, sentence, term_arg(ts, t, i), false));
	}
	h = term_node(ts, head);
	if (h->kind == TERM_VARIABLE)
		rule_error(p, sentence, "a variable cannot be the head of a rule");
	if (h->name == p->kw.true_ || h->name == p->kw.does || is_keyword_not_relation(&p->kw, h->name))
		rule_error(p, sentence, "the keyword \"%s\" cannot be the head of a rule",
				   ts->names[h->name]);
	foreach(c, bodies)
		add_rule(p, sentence, head, lfirst(c));
}

/* Every variable must occur in a positive literal of the body. */
static void
check_safety(const Program *p, const Rule *rule)
{
	const KifSentence *s = &p->sentences[rule->sentence];
	bool	   *bound = palloc0(Max(1, rule->nvariables) * sizeof(bool));
	int			v;

	for (int i = 0; i < rule->nbody; i++)
		if (rule->body[i].kind == LIT_POSITIVE)
			term_mark_variables(p->terms, rule->body[i].atom, bound);
	if ((v = term_unbound_variable(p->terms, rule->head, bound)) >= 0)
		rule_error(p, rule->sentence, "unsafe rule: the variable %s of the head is in no positive literal of the body",
				   s->variables[v]);
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *l = &rule->body[i];

		if (l->kind == LIT_NEGATIVE && (v = term_unbound_variable(p->terms, l->atom, bound)) >= 0)
			rule_error(p, rule->sentence, "unsafe rule: the variable %s of a negation is in no positive literal of the body",
					   s->variables[v]);
		if (l->kind == LIT_DISTINCT &&
			((v = term_unbound_variable(p->terms, l->atom, bound)) >= 0 ||
			 (v = term_unbound_variable(p->terms, l->other, bound)) >= 0))
			rule_error(p, rule->sentence, "unsafe rule: the variable %s of a \"distinct\" is in no positive literal of the body",
					   s->variables[v]);
	}
	pfree(bound);
}

/*
 * Strongly connected components of the relation graph (an edge from each
 * body relation to its head's), numbered in evaluation order: a relation's
 * component comes after those of every relation it depends on.
 */
typedef struct Tarjan
{
	const Program *p;
	int		   *index;
	int		   *low;
	bool	   *on_stack;
	int		   *stack;
	int			depth;
	int			counter;
	int			ncomponents;
	int		   *component;		/* in reverse evaluation order until renumbered */
} Tarjan;

/* The edges from relation v: to the heads of the rules that use it. */
static void
tarjan_visit(Tarjan *t, int v)
{
	const Program *p = t->p;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	t->index[v] = t->low[v] = t->counter++;
	t->stack[t->depth++] = v;
	t->on_stack[v] = true;
	for (int u = p->user_start[v]; u < p->user_start[v + 1]; u++)
	{
		int			w = p->rules[p->user_rules[u]].relation;

		if (t->index[w] < 0)
		{
			tarjan_visit(t, w);
			t->low[v] = Min(t->low[v], t->low[w]);
		}
		else if (t->on_stack[w])
			t->low[v] = Min(t->low[v], t->index[w]);
	}
	if (t->low[v] == t->index[v])
	{
		int			w;

		do
		{
			w = t->stack[--t->depth];
			t->on_stack[w] = false;
			t->component[w] = t->ncomponents;
		} while (w != v);
		t->ncomponents++;
	}
}

static void
order_relations(Program *p)
{
	int			n = p->nrelations;
	Tarjan		t = {.p = p};

	t.index = palloc_extended(n * sizeof(int), MCXT_ALLOC_HUGE);
	t.low = palloc_extended(n * sizeof(int), MCXT_ALLOC_HUGE);
	t.on_stack = palloc_extended(n * sizeof(bool), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	t.stack = palloc_extended(n * sizeof(int), MCXT_ALLOC_HUGE);
	t.component = palloc_extended(n * sizeof(int), MCXT_ALLOC_HUGE);
	for (int i = 0; i < n; i++)
		t.index[i] = -1;
	for (int i = 0; i < n; i++)
		if (t.index[i] < 0)
			tarjan_visit(&t, i);
	/* Tarjan finishes a component after all that depend on it. */
	for (int i = 0; i < n; i++)
		p->relations[i].component = t.ncomponents - 1 - t.component[i];
	p->ncomponents = t.ncomponents;
	pfree(t.index);
	pfree(t.low);
	pfree(t.on_stack);
	pfree(t.stack);
	pfree(t.component);
}

/* Recursion through negation: a negative literal within its head's component. */
static void
check_stratified(const Program *p)
{
	for (int r = 0; r < p->nrules; r++)
	{
		const Rule *rule = &p->rules[r];

		CHECK_FOR_INTERRUPTS();
		for (int i = 0; i < rule->nbody; i++)
		{
			const Literal *l = &rule->body[i];

			if (l->kind == LIT_NEGATIVE &&
				p->relations[l->relation].component == p->relations[rule->relation].component)
				rule_error(p, rule->sentence,
						   "not stratified: %s depends on the negation of %s, which depends on %s",
						   relation_name(p, rule->relation), relation_name(p, l->relation),
						   relation_name(p, rule->relation));
		}
	}
}

/* A worklist over the edges program_file_rules made: each relation is queued once, each use followed once. */
bool *
program_depends_on(const Program *p, int target)
{
	bool	   *depends = palloc0(Max(1, p->nrelations) * sizeof(bool));
	int		   *queue = palloc_extended(Max(1, p->nrelations) * sizeof(int), MCXT_ALLOC_HUGE);
	int			head = 0,
				tail = 0;

	depends[target] = true;
	queue[tail++] = target;
	while (head < tail)
	{
		int			v = queue[head++];

		CHECK_FOR_INTERRUPTS();
		for (int u = p->user_start[v]; u < p->user_start[v + 1]; u++)
		{
			int			w = p->rules[p->user_rules[u]].relation;

			if (!depends[w])
			{
				depends[w] = true;
				queue[tail++] = w;
			}
		}
	}
	pfree(queue);
	return depends;
}

/* The first rule of relation r whose body reaches a relation in bad[]. */
static void
refuse_dependency(const Program *p, int r, const bool *bad, const char *what)
{
	if (!bad[r])
		return;
	for (int i = 0; i < p->relations[r].nrules; i++)
	{
		const Rule *rule = &p->rules[p->relations[r].rules[i]];

		for (int j = 0; j < rule->nbody; j++)
			if (rule->body[j].relation >= 0 && bad[rule->body[j].relation])
				rule_error(p, rule->sentence, "%s must not depend on %s", relation_name(p, r), what);
	}
}

static void
check_gdl_restrictions(Program *p)
{
	bool	   *on_does = program_depends_on(p, p->rel_does);
	bool	   *on_true = program_depends_on(p, p->rel_true);
	bool	   *on_state = palloc(Max(1, p->nrelations) * sizeof(bool));

	for (int i = 0; i < p->nrelations; i++)
	{
		on_state[i] = on_does[i] || on_true[i];
		p->relations[i].dynamic = on_state[i];
	}
	refuse_dependency(p, p->rel_legal, on_does, "does");
	refuse_dependency(p, p->rel_goal, on_does, "does");
	refuse_dependency(p, p->rel_terminal, on_does, "does");
	refuse_dependency(p, p->rel_init, on_state, "true or does");
	refuse_dependency(p, p->rel_role, on_state, "true or does");
	for (int i = 0; i < p->relations[p->rel_role].nrules; i++)
	{
		const Rule *rule = &p->rules[p->relations[p->rel_role].rules[i]];

		if (rule->nbody > 0)
			rule_error(p, rule->sentence, "roles must be facts \"(role name)\"");
	}
	if (p->relations[p->rel_role].nrules == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("game \"%s\" has no roles", p->game),
				 errhint("A GDL description names its players with facts \"(role name)\".")));
	if (p->relations[p->rel_init].nrules == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("game \"%s\" has no initial state", p->game),
				 errhint("A GDL description gives the facts of its first state with \"(init fact)\".")));
}

/*
 * Files the rules by relation in two arrays counted first (a list per
 * relation grown rule by rule would copy a relation of n facts n/16 times):
 * each relation's rules (Relation.rules points into one array) and the
 * rules whose body uses it (user_start, user_rules), the edges that
 * order_relations and program_depends_on follow.
 */
void
program_file_rules(Program *p)
{
	int		   *heads = palloc_extended(Max(1, p->nrules) * sizeof(int), MCXT_ALLOC_HUGE);
	int		   *fill = palloc_extended((p->nrelations + 1) * sizeof(int), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	int			nuses = 0;

	for (int k = 0; k < p->nrelations; k++)
		p->relations[k].nrules = 0;
	p->user_start = palloc_extended((p->nrelations + 1) * sizeof(int), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int r = 0; r < p->nrules; r++)
	{
		p->relations[p->rules[r].relation].nrules++;
		for (int i = 0; i < p->rules[r].nbody; i++)
			if (p->rules[r].body[i].relation >= 0)
			{
				p->user_start[p->rules[r].body[i].relation + 1]++;
				nuses++;
			}
	}
	for (int k = 0; k < p->nrelations; k++)
	{
		p->relations[k].rules = heads + fill[k];
		fill[k + 1] = fill[k] + p->relations[k].nrules;
		p->relations[k].nrules = 0;
		p->user_start[k + 1] += p->user_start[k];
	}
	p->user_rules = palloc_extended(Max(1, nuses) * sizeof(int), MCXT_ALLOC_HUGE);
	memcpy(fill, p->user_start, (p->nrelations + 1) * sizeof(int));
	for (int r = 0; r < p->nrules; r++)
	{
		Relation   *rel = &p->relations[p->rules[r].relation];

		rel->rules[rel->nrules++] = r;
		for (int i = 0; i < p->rules[r].nbody; i++)
			if (p->rules[r].body[i].relation >= 0)
				p->user_rules[fill[p->rules[r].body[i].relation]++] = r;
	}
	pfree(fill);
}

/* The atom (name ?0 ... ?arity-1), or the symbol name: stands for its relation. */
static TermId
relation_pattern(Program *p, SymbolId name, int arity)
{
	TermId	   *args;
	TermId		pattern;

	if (arity == 0)
		return term_symbol(p->terms, name);
	args = palloc(arity * sizeof(TermId));
	for (int i = 0; i < arity; i++)
		args[i] = term_variable(p->terms, i);
	pattern = term_function(p->terms, name, arity, args);
	pfree(args);
	return pattern;
}

int
program_add_relation(Program *p, SymbolId name, int arity, bool dynamic)
{
	int			r = relation_of(p, relation_pattern(p, name, arity));

	p->relations[r].dynamic = dynamic;
	p->relations[r].component = Max(0, p->ncomponents - 1);
	return r;
}

void
program_add_rule(Program *p, const Rule *rule)
{
	*new_rule(p) = *rule;
}

Program *
program_build(const char *game, const char *text)
{
	Program    *p = palloc0(sizeof(Program));

	p->game = game;
	p->text = text;
	p->terms = term_store_create();
	intern_keywords(p->terms, &p->kw);
	p->sentences = kif_parse(p->terms, text, &p->nsentences, game);
	for (int s = 0; s < p->nsentences; s++)
	{
		CHECK_FOR_INTERRUPTS();
		read_sentence(p, s);
	}

	/* The relations GDL names exist even when no rule mentions them. */
	{
		const SymbolId names[] = {p->kw.role, p->kw.init, p->kw.true_, p->kw.next,
		p->kw.legal, p->kw.does, p->kw.goal, p->kw.terminal};
		const int	arities[] = {1, 1, 1, 1, 2, 2, 2, 0};

		for (int i = 0; i < lengthof(names); i++)
			(void) relation_of(p, relation_pattern(p, names[i], arities[i]));
	}
	p->rel_role = program_relation(p, p->kw.role, 1);
	p->rel_init = program_relation(p, p->kw.init, 1);
	p->rel_true = program_relation(p, p->kw.true_, 1);
	p->rel_next = program_relation(p, p->kw.next, 1);
	p->rel_legal = program_relation(p, p->kw.legal, 2);
	p->rel_does = program_relation(p, p->kw.does, 2);
	p->rel_goal = program_relation(p, p->kw.goal, 2);
	p->rel_terminal = program_relation(p, p->kw.terminal, 0);

	program_file_rules(p);
	for (int r = 0; r < p->nrules; r++)
	{
		CHECK_FOR_INTERRUPTS();
		check_safety(p, &p->rules[r]);
	}
	order_relations(p);
	check_stratified(p);
	check_gdl_restrictions(p);
	return p;
}

int *
program_relations_by_component(const Program *p, int **component_start)
{
	int		   *order = palloc_extended(Max(1, p->nrelations) * sizeof(int), MCXT_ALLOC_HUGE);
	int		   *start = palloc_extended((p->ncomponents + 1) * sizeof(int), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);

	for (int r = 0; r < p->nrelations; r++)
		start[p->relations[r].component + 1]++;
	for (int c = 0; c < p->ncomponents; c++)
		start[c + 1] += start[c];
	for (int r = 0; r < p->nrelations; r++)
		order[start[p->relations[r].component]++] = r;
	/* each component's start again: filing moved it to the next one's */
	for (int c = p->ncomponents; c > 0; c--)
		start[c] = start[c - 1];
	start[0] = 0;
	if (component_start != NULL)
		*component_start = start;
	else
		pfree(start);
	return order;
}
