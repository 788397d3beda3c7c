/*
 * ground.c: grounds a GDL program (see ground.h).
 *
 * Rules are evaluated bottom-up and semi-naively (join.c): after a first
 * full pass, each round joins only with what the round before derived.
 */
#include "postgres.h"

#include "gdl/demand.h"
#include "gdl/ground.h"
#include "gdl/implied.h"
#include "gdl/split.h"
#include "gdl/unlike.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/* "name/arity (n atoms), ..." of the three relations with the most atoms. */
static char *
largest_relations(const Grounding *g)
{
	const Program *p = g->program;
	StringInfoData out;
	int			shown[3] = {-1, -1, -1};

	initStringInfo(&out);
	for (int k = 0; k < 3; k++)
	{
		for (int r = 0; r < p->nrelations; r++)
			if (r != shown[0] && r != shown[1] &&
				(shown[k] < 0 || g->tuples[r].n > g->tuples[shown[k]].n))
				shown[k] = r;
		if (shown[k] >= 0 && g->tuples[shown[k]].n > 0)
			appendStringInfo(&out, "%s%s/%d (%d atoms)", k > 0 ? ", " : "",
							 p->terms->names[p->relations[shown[k]].name],
							 p->relations[shown[k]].arity, g->tuples[shown[k]].n);
	}
	return out.data;
}

/*
 * Called before an allocation of more bytes (0: after a small one): the
 * limit holds for what grounding holds once they are made, so a doubling
 * array is refused before it doubles, not noticed after.  Cheap enough for
 * every atom and rule: the context keeps its total.
 */
static void
check_memory(Grounding *g, Size more)
{
	CHECK_FOR_INTERRUPTS();
	if (g->clock != NULL && gt_clock_expired(g->clock))
		g->over_budget = g->over_time = true;
	if (MemoryContextMemAllocated(g->cxt, true) + more <= g->memory_limit)
		return;
	if (g->network)
		g->over_budget = true;
	else
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": grounding its rules needs more than gametree.gdl_memory (%zu kB)",
						g->program->game, g->memory_limit / 1024),
				 errdetail("So far %d ground rules over %d terms; the largest relations: %s.",
						   g->nrules, g->terms->nterms, largest_relations(g)),
				 errhint("Raise gametree.gdl_memory, or simplify the rules.")));
}

/* Adds atom to relation r; false when it was there. */
static bool
tuples_add(Grounding *g, int r, TermId atom)
{
	Tuples	   *t = &g->tuples[r];

	if (tuples_find(t, atom) >= 0)
		return false;
	check_memory(g, tuples_growth(t));
	if (g->over_budget)
		return false;
	tuples_insert(g->terms, t, g->program->relations[r].arity, atom);
	return true;
}

/*
 * Marks atom read (Grounding.read), the array grown with the store:
 * checked against the limit like the store it follows.
 */
static void
mark_read(Grounding *g, TermId atom)
{
	if (atom >= g->read_room)
	{
		int			room = Max(g->terms->nterms, 2 * g->read_room);

		check_memory(g, room);
		if (g->over_budget)
			return;
		g->read = g->read == NULL ? palloc_extended(room, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO) :
			repalloc_huge(g->read, room);
		memset(g->read + g->read_room, 0, room - g->read_room);
		g->read_room = room;
	}
	g->read[atom] = true;
}

static bool
is_read(const Grounding *g, TermId atom)
{
	return atom < g->read_room && g->read[atom];
}

static void
add_ground_rule(Grounding *g, TermId head, const int32 *literals, int n)
{
	GroundRule *r;
	Size		more = 0;

	if (g->nrules == g->rule_room)
		more += Max(1024, g->rule_room) * sizeof(GroundRule);
	if (g->nliterals + n > g->literal_room)
		more += Max(4096, g->literal_room) * sizeof(int32);
	check_memory(g, more);
	if (g->over_budget)
		return;
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
	for (int i = 0; i < n; i++)
		mark_read(g, literals[i] >> 1);
}

void
ground_release_rules(Grounding *g)
{
	if (g->rules != NULL)
		pfree(g->rules);
	if (g->literals != NULL)
		pfree(g->literals);
	if (g->read != NULL)
		pfree(g->read);
	g->rules = NULL;
	g->literals = NULL;
	g->read = NULL;
	g->nrules = g->rule_room = 0;
	g->nliterals = g->literal_room = 0;
	g->read_room = 0;
}

/* What a join of the grounding works with. */
typedef struct GroundJoin
{
	Grounding  *g;
	bool		relaxed;		/* negations of state-dependent relations hold */
	bool		instantiate;	/* emit ground rules, not atoms */
	bool		count_only;		/* instantiating: count the solutions, emit nothing */
	bool		changed;
	const RuleSplit *split;		/* instantiating a split rule's main body: its parts */
	int			made;			/* instantiating: the ground rules made */
	bool		part_always;	/* instantiating a part: one of them without a literal */
	int			most;			/* instantiating, when not 0: halt once made this many */
	bool		read_heads_only;	/* instantiating: a solution whose head nothing reads makes no rule */
	bool		halt;			/* set when the join is to stop (the grounding over budget too) */
} GroundJoin;

/* What a part of a split rule is, once instantiated for the values of its head variables. */
typedef enum PartHolds
{
	PART_NEVER,					/* no ground rule: the rule's instance never holds */
	PART_ALWAYS,				/* a ground rule without literals: the literal is left out */
	PART_NODE					/* its own ground rules: the rule's instance asks its atom */
} PartHolds;

static PartHolds part_holds(Grounding *g, const Rule *part, TermId atom);

static const Tuples *
ground_source(Join *j, int i, bool choosing)
{
	GroundJoin *gj = j->context;

	return &gj->g->tuples[j->rule->body[i].relation];
}

static bool
ground_negation_holds(Join *j, int i)
{
	GroundJoin *gj = j->context;
	const Literal *lit = &j->rule->body[i];
	bool		dynamic = gj->g->program->relations[lit->relation].dynamic;
	TermId		atom;
	bool		present;

	/* a state-dependent negation holds at will: only instantiation reads its atom */
	if (gj->relaxed && dynamic && !gj->instantiate)
		return true;
	atom = join_substitute(j, lit->atom, false);
	present = atom != NO_TERM && tuples_find(&gj->g->tuples[lit->relation], atom) >= 0;
	if (present && !(gj->relaxed && dynamic))
		return false;
	j->matched[i] = present ? atom : NO_TERM;
	return true;
}

/* A solution: its head atom added (evaluate), or its ground rule made (instantiate). */
static void
emit_solution(Join *j)
{
	GroundJoin *gj = j->context;
	Grounding  *g = gj->g;
	const Rule *rule = j->rule;
	TermId		head = NO_TERM;
	int32		literals[MAX_BODY];
	int			n = 0;

	if (gj->count_only)
	{
		gj->made++;
		return;
	}
	if (gj->read_heads_only)
	{
		/* a head that is read is a term already: looked up, never made (once, when bound early) */
		head = j->head_bound ? j->head_atom : join_substitute(j, rule->head, false);
		if (head == NO_TERM || !is_read(g, head))
		{
			/* counted all the same: the choice to split a rule is made on its solutions */
			gj->made++;
			return;
		}
	}
	check_memory(g, term_store_growth(g->terms));
	if (g->over_budget)
		return;
	if (head == NO_TERM)
		head = j->head_bound && j->head_atom != NO_TERM ? j->head_atom : join_substitute(j, rule->head, true);
	if (!gj->instantiate)
	{
		if (tuples_add(g, rule->relation, head))
			gj->changed = true;
		return;
	}
	/* static literals hold (they were joined exactly); so do negations of atoms that never hold */
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *lit = &rule->body[i];

		if (lit->kind == LIT_DISTINCT || !g->program->relations[lit->relation].dynamic ||
			g->program->relations[lit->relation].asked || j->matched[i] == NO_TERM)
			continue;
		literals[n++] = (j->matched[i] << 1) | (lit->kind == LIT_NEGATIVE ? 1 : 0);
	}
	for (int k = 0; gj->split != NULL && k < gj->split->nparts; k++)
	{
		const Rule *part = &gj->split->parts[k];
		TermId		atom;

		check_memory(g, term_store_growth(g->terms));
		if (g->over_budget)
			return;
		atom = join_substitute(j, part->head, true);
		switch (part_holds(g, part, atom))
		{
			case PART_NEVER:
				return;
			case PART_ALWAYS:
				break;
			case PART_NODE:
				literals[n++] = atom << 1;
				break;
		}
	}
	gj->part_always |= n == 0;
	add_ground_rule(g, head, literals, n);
	gj->made++;
}

static void
ground_emit(Join *j)
{
	GroundJoin *gj = j->context;

	emit_solution(j);
	gj->halt = gj->g->over_budget || (gj->most > 0 && gj->made == gj->most);
}

static bool
ground_head_known(Join *j, TermId head)
{
	GroundJoin *gj = j->context;

	return !gj->instantiate && head != NO_TERM &&
		tuples_find(&gj->g->tuples[j->rule->relation], head) >= 0;
}

/* An index by several paths is made only within the limit: without it the join is slower, not wrong. */
static bool
ground_may_index(Join *j, Size bytes)
{
	GroundJoin *gj = j->context;

	return MemoryContextMemAllocated(gj->g->cxt, true) + bytes <= gj->g->memory_limit;
}

static const JoinOps ground_ops = {
	.source = ground_source,
	.negation_holds = ground_negation_holds,
	.emit = ground_emit,
	.head_known = ground_head_known,
	.may_index = ground_may_index,
};

/*
 * One join of evaluate(), for atoms: rule's literals over atoms [lo, hi) of
 * their sources.
 */
static void
derive(Grounding *g, const Rule *rule, const int *lo, const int *hi, bool relaxed, bool *changed)
{
	GroundJoin	gj = {.g = g,.relaxed = relaxed};
	Join		j = {.ops = &ground_ops,.context = &gj,.terms = g->terms,.rule = rule,
	.lo = lo,.hi = hi,.stop = &g->over_budget};

	join_begin(&j);
	join_body(&j);
	join_end(&j);
	if (gj.changed)
		*changed = true;
}

/*
 * Instantiates part (its head variables the values of atom) the first time
 * the atom is asked; what it is, then as often as asked.
 */
static PartHolds
part_holds(Grounding *g, const Rule *part, TermId atom)
{
	int			known = tuples_find(&g->parts, atom);
	GroundJoin	gj = {.g = g,.relaxed = true,.instantiate = true};
	Join		j = {.ops = &ground_ops,.context = &gj,.terms = g->terms,.rule = part,.stop = &gj.halt};
	PartHolds	holds;

	if (known >= 0)
		return g->part_holds[known];
	join_begin(&j);
	if (join_unify(&j, part->head, atom))
		join_body(&j);
	join_end(&j);
	holds = gj.made == 0 ? PART_NEVER : gj.part_always ? PART_ALWAYS : PART_NODE;
	check_memory(g, tuples_growth(&g->parts) + (g->parts.n == g->part_holds_room ? g->parts.n + 16 : 0));
	if (g->over_budget)
		return PART_NEVER;
	if (g->parts.n == g->part_holds_room)
	{
		g->part_holds_room = 2 * g->parts.n + 16;
		g->part_holds = g->part_holds == NULL ? palloc_extended(g->part_holds_room, MCXT_ALLOC_HUGE) :
			repalloc_huge(g->part_holds, g->part_holds_room);
	}
	g->part_holds[g->parts.n] = holds;
	tuples_insert(g->terms, &g->parts, 0, atom);
	return holds;
}

/*
 * A rule whose body has fewer solutions than this is instantiated whole:
 * split, it would be as large but for a node per part and values, which
 * the network's factoring (factor.c, products.c) finds alike or better
 * (checkers.kif's frame rules, 31,804 solutions: 3 times the network's
 * rules when split; englishDraughts.kif's moves of a piece of any type:
 * 2.5% slower random playouts).  Past it, splitting is what makes the
 * grounding fit at all: chess.kif's frame rule, 5.9 million solutions
 * whole, 473,000 ground rules split.
 */
#define SPLIT_ABOVE 100000

/*
 * Below SPLIT_ABOVE, a rule of SPLIT_CONSIDER solutions or more that reads
 * no move is split all the same when its main body has SPLIT_SHARE times
 * fewer: then each literal of the main body is read by a ground rule per
 * instance of the main body, not per solution.  chess.kif's rules that
 * block a check by a bishop, 93,240 solutions, about 12 per move: whole,
 * each square's (occupied_by_player ?x ?y ?player) was read by 5,544 of
 * them, and its flips were half the network's fan entries in random
 * playouts.  A rule that reads a move stays whole: the network merges the
 * rules that differ in their action alone (factor.c), which a split
 * defeats (checkers.kif's frame rules, 58,616 to 88,896 solutions of 184
 * moves: its network 3.2 times the rules split).  Smaller rules stay
 * whole: chess4x4.kif's blocks by a bishop, 19,200 solutions of 704
 * moves, split, made its random playouts 0.86 times as fast.
 */
#define SPLIT_CONSIDER 50000
#define SPLIT_SHARE 8

/* Whether rule reads does. */
static bool
reads_move(const Program *p, const Rule *rule)
{
	for (int k = 0; k < rule->nbody; k++)
		if (rule->body[k].relation == p->rel_does)
			return true;
	return false;
}

/*
 * Joins rule's body (split's main body, its parts asked, when split is not
 * NULL) for ground rules, at most most of them (0: all); how many it made
 * (read_heads_only: the solutions, of which those whose head is read).
 */
static int
instantiate_join(Grounding *g, const Rule *rule, const RuleSplit *split, int most, bool read_heads_only)
{
	GroundJoin	gj = {.g = g,.relaxed = true,.instantiate = true,.split = split,.most = most,
	.read_heads_only = read_heads_only};
	Join		j = {.ops = &ground_ops,.context = &gj,.terms = g->terms,
	.rule = split != NULL ? &split->main : rule,.stop = &gj.halt};

	join_begin(&j);
	join_body(&j);
	join_end(&j);
	return gj.made;
}

/* The solutions of rule's body, counted up to most. */
static int
count_solutions(Grounding *g, const Rule *rule, int most)
{
	GroundJoin	gj = {.g = g,.relaxed = true,.instantiate = true,.count_only = true,.most = most};
	Join		j = {.ops = &ground_ops,.context = &gj,.terms = g->terms,.rule = rule,.stop = &gj.halt};

	join_begin(&j);
	join_body(&j);
	join_end(&j);
	return gj.made;
}

/*
 * The ground rules of rule (the number-th instantiated): whole, or, when
 * that makes SPLIT_ABOVE of them (or SPLIT_CONSIDER, with a main body of
 * SPLIT_SHARE times fewer solutions), its body split into parts (split.h),
 * each part instantiated once per values of the head variables it uses.
 * The whole rule's first SPLIT_ABOVE are then taken back, but their memory
 * counts against the limit till the grounding ends (a few MB), where a
 * count first would join every rule twice.  A rule that cannot split
 * (split.h) is made whole in one join: chess.kif has eleven of 114,688 to
 * 458,752 ground rules, whose first 100,000 were made twice.
 */
static void
instantiate(Grounding *g, const Rule *rule, int number, bool read_heads_only)
{
	int			nrules = g->nrules;
	int			nliterals = g->nliterals;
	int			made;
	RuleSplit  *split;

	/* a rule that cannot split is made whole at once, not its first SPLIT_ABOVE twice */
	if (!rule_splits(g->program, rule))
	{
		instantiate_join(g, rule, NULL, 0, read_heads_only);
		return;
	}
	made = instantiate_join(g, rule, NULL, SPLIT_ABOVE, read_heads_only);

	if (made < SPLIT_CONSIDER || (made < SPLIT_ABOVE && reads_move(g->program, rule)))
		return;
	split = rule_split(g->program, rule, number);
	if (made < SPLIT_ABOVE &&
		(split == NULL || count_solutions(g, &split->main, made / SPLIT_SHARE) >= made / SPLIT_SHARE))
		return;
	/* taken back (they asked no part), and made again, split if it splits */
	g->nrules = nrules;
	g->nliterals = nliterals;
	instantiate_join(g, rule, split, 0, read_heads_only);
}

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
 * The relations that rules name, each once (g->touched, g->ntouched): a
 * round of evaluate() refreshes their counts alone, so that evaluating the
 * components of a game one by one stays linear in the number of relations.
 */
static void
touch_relations(Grounding *g, const Rule **rules, int nrules)
{
	g->stamp++;
	g->ntouched = 0;
	for (int i = 0; i < nrules; i++)
		for (int k = -1; k < rules[i]->nbody; k++)
		{
			int			r = k < 0 ? rules[i]->relation : rules[i]->body[k].relation;

			if (r >= 0 && g->touched_stamp[r] != g->stamp)
			{
				g->touched_stamp[r] = g->stamp;
				g->touched[g->ntouched++] = r;
			}
		}
}

/*
 * A rule derives no atom that it has not derived before but from an atom
 * of its cover (a positive literal in which all of its head's variables
 * occur) whose head is not known yet: the open atoms.  A round joins the
 * rule's other new atoms with the open atoms alone, one by one, when there
 * are few, and not at all when there are none.  chess.kif's legal rules,
 * whose (legal2 ?player (move ...)) covers their heads, derived nothing
 * after their first rounds but were joined again for every new batch of
 * cells and king squares (1.2 s of its 4 s of atoms); its frame rule for
 * (next (cell ?x ?y ?p)), covered by (true (cell ?x ?y ?p)), again for
 * every new action (0.33 s).
 */
typedef struct Cover
{
	int			literal;		/* -1: the rule has none */
	int			seen;			/* the cover's atoms [0, seen) are sorted into open or not */
	int32	   *open;			/* indexes among the cover's atoms */
	int			nopen;
	int			room;
} Cover;

/*
 * Whether body literal i of rule is positive and holds every variable of
 * the rule's head (within: room for a flag per variable of the rule).
 */
static bool
covers_head(const TermStore *ts, const Rule *rule, int i, bool *within)
{
	if (rule->body[i].kind != LIT_POSITIVE)
		return false;
	memset(within, 0, Max(1, rule->nvariables) * sizeof(bool));
	term_mark_variables(ts, rule->body[i].atom, within);
	return term_unbound_variable(ts, rule->head, within) < 0;
}

/* At most this many open atoms are joined one by one; more, the rule is joined whole. */
#define COVER_JOIN_EACH 16

/* The positive literal of rule with the fewest atoms among those covering its head, or -1. */
static int
find_cover(const Grounding *g, const Rule *rule)
{
	bool	   *within = palloc(Max(1, rule->nvariables) * sizeof(bool));
	int			best = -1;

	for (int i = 0; i < rule->nbody; i++)
		if (covers_head(g->terms, rule, i, within) &&
			(best < 0 || g->tuples[rule->body[i].relation].n < g->tuples[rule->body[best].relation].n))
			best = i;
	pfree(within);
	return best;
}

/* Sorts the cover's new atoms into open ones, and drops those whose head became known. */
static void
update_cover(Grounding *g, const Rule *rule, Cover *c, Join *j)
{
	const Literal *lit = &rule->body[c->literal];
	const Tuples *cover = &g->tuples[lit->relation];
	const Tuples *heads = &g->tuples[rule->relation];
	int			kept = 0;

	if (c->nopen + cover->n - c->seen > c->room)
	{
		c->room = Max(2 * c->room, c->nopen + cover->n - c->seen);
		c->open = c->open == NULL ? palloc_extended(c->room * sizeof(int32), MCXT_ALLOC_HUGE) :
			repalloc_huge(c->open, c->room * sizeof(int32));
	}
	while (c->seen < cover->n)
		c->open[c->nopen++] = c->seen++;
	for (int k = 0; k < c->nopen; k++)
	{
		TermId		head;

		if ((k & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		if (join_unify(j, lit->atom, cover->atoms[c->open[k]]))
		{
			head = join_substitute(j, rule->head, false);
			if (head == NO_TERM || tuples_find(heads, head) < 0)
				c->open[kept++] = c->open[k];
		}
		/* an atom the literal cannot match opens nothing */
		while (j->ntrail > 0)
			j->binding[j->trail[--j->ntrail]] = NO_TERM;
	}
	c->nopen = kept;
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
	int		   *previous = g->previous;
	int		   *current = g->current;
	int			lo[MAX_BODY],
				hi[MAX_BODY];
	bool		changed = false;
	Cover	   *covers = palloc0(Max(1, nrules) * sizeof(Cover));
	Join		scratch = {.terms = g->terms};

	touch_relations(g, rules, nrules);
	for (int k = 0; k < g->ntouched; k++)
		previous[g->touched[k]] = current[g->touched[k]] = g->tuples[g->touched[k]].n;
	for (int i = 0; i < nrules; i++)
	{
		full_ranges(rules[i], current, lo, hi);
		derive(g, rules[i], lo, hi, relaxed, &changed);
		covers[i].literal = find_cover(g, rules[i]);
	}
	while (changed && !g->over_budget)
	{
		changed = false;
		for (int k = 0; k < g->ntouched; k++)
		{
			int			r = g->touched[k];

			previous[r] = current[r];
			current[r] = g->tuples[r].n;
		}
		for (int i = 0; i < nrules; i++)
		{
			const Rule *rule = rules[i];
			Cover	   *cover = &covers[i];

			CHECK_FOR_INTERRUPTS();
			if (cover->literal >= 0)
			{
				scratch.rule = rule;
				join_begin(&scratch);
				update_cover(g, rule, cover, &scratch);
				join_end(&scratch);
			}
			for (int d = 0; d < rule->nbody; d++)
			{
				const Literal *delta = &rule->body[d];
				int			c = cover->literal;

				if (delta->kind != LIT_POSITIVE || !in_component[delta->relation] ||
					previous[delta->relation] == current[delta->relation])
					continue;
				for (int k = 0; k < rule->nbody; k++)
				{
					int			r = rule->body[k].relation;

					lo[k] = k == d ? previous[r] : 0;
					hi[k] = r < 0 ? 0 : k < d && in_component[r] ? previous[r] : current[r];
				}
				if (c < 0 || cover->nopen > COVER_JOIN_EACH)
				{
					derive(g, rule, lo, hi, relaxed, &changed);
					continue;
				}
				for (int k = 0; k < cover->nopen; k++)
				{
					int			open_lo = lo[c],
								open_hi = hi[c];

					lo[c] = Max(open_lo, cover->open[k]);
					hi[c] = Min(open_hi, cover->open[k] + 1);
					if (lo[c] < hi[c])
						derive(g, rule, lo, hi, relaxed, &changed);
					lo[c] = open_lo;
					hi[c] = open_hi;
				}
			}
		}
	}
	for (int i = 0; i < nrules; i++)
		if (covers[i].open != NULL)
			pfree(covers[i].open);
	pfree(covers);
}

/* The relations GDL reads of a state: legal, next, goal and terminal. */
#define NOUTPUTS 4
static void
output_relations(const Program *p, int *outputs)
{
	outputs[0] = p->rel_legal;
	outputs[1] = p->rel_next;
	outputs[2] = p->rel_goal;
	outputs[3] = p->rel_terminal;
}

/*
 * The ground rules: every rule of a state-dependent relation instantiated
 * (rules[], nrules of them), but for the solutions whose head no output
 * depends on.  A relation's readers come after it in the components'
 * order: taken from the last component back, a head is read when a
 * ground rule made before reads it, or an output (legal, next, goal,
 * terminal) is it.  A component that a rule of its own reads (recursion),
 * or a rule of a component before it, is made whole, its heads all read.
 * The marks of a rule's ground rules taken back to split it (instantiate)
 * stay: a head they read is made, and the network's prune drops it.
 * chess.kif: 6.3 of 8.8 million ground rules made, those its network
 * keeps among them (its prune dropped the rest): the threats along lines
 * that ignore a square given by any coordinate, a file or a rank, were
 * read of squares alone.  demand.c now asks them of squares (its position
 * asks), so that they are no atoms to begin with: 6.2 million made.
 */
static void
instantiate_read(Grounding *g, const Rule **rules, int nrules)
{
	const Program *p = g->program;
	int			outputs[NOUTPUTS];
	bool	   *whole = palloc0(Max(1, p->ncomponents) * sizeof(bool));
	int		   *start = palloc0((p->ncomponents + 1) * sizeof(int));
	int		   *by_component = palloc(Max(1, nrules) * sizeof(int));

	output_relations(p, outputs);
	for (int k = 0; k < NOUTPUTS; k++)
		for (int i = 0; i < g->tuples[outputs[k]].n; i++)
			mark_read(g, g->tuples[outputs[k]].atoms[i]);
	/*
	 * the rules from the last component to the first, each component's in
	 * their order; a component read by a rule of its own or of one before
	 * it (a relation that a rewrite added is filed in the last, whatever
	 * reads it: program_add_relation) made whole
	 */
	for (int i = 0; i < nrules; i++)
	{
		int			c = p->relations[rules[i]->relation].component;

		start[p->ncomponents - c]++;
		for (int k = 0; k < rules[i]->nbody; k++)
			if (rules[i]->body[k].relation >= 0 && p->relations[rules[i]->body[k].relation].component >= c)
				whole[p->relations[rules[i]->body[k].relation].component] = true;
	}
	for (int c = 0; c < p->ncomponents; c++)
		start[c + 1] += start[c];
	for (int i = 0; i < nrules; i++)
		by_component[start[p->ncomponents - 1 - p->relations[rules[i]->relation].component]++] = i;
	for (int k = 0; k < nrules && !g->over_budget; k++)
	{
		const Rule *rule = rules[by_component[k]];

		if (!p->relations[rule->relation].asked)
			instantiate(g, rule, by_component[k], !whole[p->relations[rule->relation].component]);
	}
	pfree(whole);
	pfree(start);
	pfree(by_component);
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

/*
 * For domains only, where a superset will do, a state-dependent rule is
 * joined with part of its body.  A rule whose head's variables all occur
 * in one positive literal derives no more than that literal alone would,
 * so the rest (the costly part of chess.kif's legal rules) is left out.
 * Otherwise a positive literal of a derived relation with a variable the
 * head does not have is left out when the rest still binds the head's
 * variables (one with the head's variables alone may narrow them), and
 * the tests it alone bound with it: chess.kif's (next (check ...)) rules
 * then no longer make every (queen_threatens ...) that can ever hold,
 * about a million atoms, only to say which squares a check can come from.
 */
/* Marks in within[] (size bytes) the variables of rule's positive literals that are kept. */
static void
mark_kept_variables(const Program *p, const Rule *rule, const bool *kept, bool *within, Size size)
{
	memset(within, 0, size);
	for (int k = 0; k < rule->nbody; k++)
		if (kept[k] && rule->body[k].kind == LIT_POSITIVE)
			term_mark_variables(p->terms, rule->body[k].atom, within);
}

static const Rule *
domain_rule(Program *p, const Rule *rule)
{
	bool	   *within = palloc(Max(1, rule->nvariables) * sizeof(bool));
	bool	   *kept = palloc(Max(1, rule->nbody) * sizeof(bool));
	Rule	   *part = palloc(sizeof(Rule));
	Size		size = Max(1, rule->nvariables) * sizeof(bool);
	int			nkept = 0;

	*part = *rule;
	for (int i = 0; i < rule->nbody && rule->nbody > 1; i++)
		if (covers_head(p->terms, rule, i, within))
		{
			part->nbody = 1;
			part->body = &rule->body[i];
			return part;
		}
	for (int i = 0; i < rule->nbody; i++)
		kept[i] = true;
	for (int i = rule->nbody - 1; i >= 0; i--)
	{
		const Literal *lit = &rule->body[i];

		if (lit->kind != LIT_POSITIVE || !p->relations[lit->relation].dynamic ||
			lit->relation == p->rel_true || lit->relation == p->rel_does)
			continue;
		memset(within, 0, size);
		term_mark_variables(p->terms, rule->head, within);
		if (term_unbound_variable(p->terms, lit->atom, within) < 0)
			continue;
		kept[i] = false;
		mark_kept_variables(p, rule, kept, within, size);
		kept[i] = term_unbound_variable(p->terms, rule->head, within) >= 0;
	}
	mark_kept_variables(p, rule, kept, within, size);
	part->body = palloc(Max(1, rule->nbody) * sizeof(Literal));
	for (int k = 0; k < rule->nbody; k++)
	{
		const Literal *lit = &rule->body[k];

		if (kept[k] && lit->kind != LIT_POSITIVE &&
			(term_unbound_variable(p->terms, lit->atom, within) >= 0 ||
			 (lit->kind == LIT_DISTINCT && term_unbound_variable(p->terms, lit->other, within) >= 0)))
			kept[k] = false;
		if (kept[k])
			part->body[nkept++] = *lit;
	}
	part->nbody = nkept;
	pfree(within);
	pfree(kept);
	return part;
}

/*
 * needed[r]: relation r is needed to know what true and does can hold:
 * next and legal, the relations their rules (domain_rules[], or the
 * program's when NULL) use positively (negation only removes atoms), and
 * every relation that a static one needed depends on (static relations
 * are computed exactly).
 */
static bool *
domain_relations(const Program *p, const Rule *const *domain_rules)
{
	bool	   *needed = palloc0(p->nrelations * sizeof(bool));
	int		   *queue = palloc_extended(p->nrelations * sizeof(int), MCXT_ALLOC_HUGE);
	int			head = 0,
				tail = 0;
	const int	roots[] = {p->rel_next, p->rel_legal, p->rel_init, p->rel_role};

	/* a worklist: each relation's rules are read once, when it becomes needed */
	for (int k = 0; k < lengthof(roots); k++)
		if (!needed[roots[k]])
			needed[queue[tail++] = roots[k]] = true;
	while (head < tail)
	{
		const Relation *rel = &p->relations[queue[head++]];

		CHECK_FOR_INTERRUPTS();
		for (int r = 0; r < rel->nrules; r++)
		{
			const Rule *rule = domain_rules != NULL ? domain_rules[rel->rules[r]] :
				&p->rules[rel->rules[r]];

			for (int i = 0; i < rule->nbody; i++)
			{
				int			b = rule->body[i].relation;

				if (b >= 0 && !needed[b] &&
					(rule->body[i].kind == LIT_POSITIVE || !rel->dynamic || !p->relations[b].dynamic))
					needed[queue[tail++] = b] = true;
			}
		}
	}
	pfree(queue);
	return needed;
}

bool
ground_past_deadline(Grounding *g)
{
	if (g->clock != NULL && g->clock->deadline != 0 && GetCurrentTimestamp() >= g->clock->deadline)
		g->over_budget = g->over_time = true;
	return g->over_time;
}

Grounding *
ground_program(Program *p, Size memory_limit, bool network, GtClock *clock)
{
	Grounding  *g = palloc0(sizeof(Grounding));
	const Rule **rules;
	bool	   *in_component;
	const Rule **domain_rules = NULL;
	bool	   *needed = NULL;
	int		   *by_component;
	int		   *component_start;
	int			nrules;
	Size		dense_memory = 0;

	/* before the rewrites, which keep a rule within MAX_BODY literals and copy bodies into arrays of it */
	for (int r = 0; r < p->nrules; r++)
		if (p->rules[r].nbody > MAX_BODY)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("game \"%s\", line %d: a rule with more than %d literals",
							p->game, p->sentences[p->rules[r].sentence].line, MAX_BODY),
					 errhint("Write some of its literals as a relation of their own, which the rule reads.")));
	if (network)
	{
		unlike_rewrite(p);
		implied_facts_rewrite(p);
		demand_rewrite(p);
	}
	/* sized after the rewrites, which add rules and relations */
	rules = palloc_extended((p->nrules + 3) * sizeof(Rule *), MCXT_ALLOC_HUGE);
	in_component = palloc0(Max(1, p->nrelations) * sizeof(bool));
	g->program = p;
	g->terms = p->terms;
	g->tuples = palloc_extended(p->nrelations * sizeof(Tuples), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	g->previous = palloc_extended(p->nrelations * sizeof(int), MCXT_ALLOC_HUGE);
	g->current = palloc_extended(p->nrelations * sizeof(int), MCXT_ALLOC_HUGE);
	g->touched = palloc_extended(p->nrelations * sizeof(int), MCXT_ALLOC_HUGE);
	g->touched_stamp = palloc_extended(p->nrelations * sizeof(int), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	g->memory_limit = memory_limit;
	g->network = network;
	g->clock = network ? clock : NULL;
	g->cxt = CurrentMemoryContext;
	if (!network)
	{
		bool	   *used;

		domain_rules = palloc(Max(1, p->nrules) * sizeof(Rule *));
		for (int r = 0; r < p->nrules; r++)
			domain_rules[r] = p->relations[p->rules[r].relation].dynamic ?
				domain_rule(p, &p->rules[r]) : &p->rules[r];

		/*
		 * The state-dependent relations the domain rules need are
		 * over-approximated; the static ones any rule of theirs uses are
		 * computed all the same, so that the prover finds them in tables,
		 * not query by query in a memo that keeps them for good.
		 */
		needed = domain_relations(p, domain_rules);
		used = domain_relations(p, NULL);
		for (int r = 0; r < p->nrelations; r++)
			if (!p->relations[r].dynamic)
				needed[r] = used[r];
		pfree(used);
	}
	g->computed = needed;

	/*
	 * relations that do not depend on the state, exactly, component by
	 * component: the relations filed by component first, so that each is
	 * visited once, not once per component
	 */
	by_component = program_relations_by_component(p, &component_start);
	for (int c = 0; c < p->ncomponents && !g->over_budget; c++)
	{
		CHECK_FOR_INTERRUPTS();
		nrules = 0;
		for (int k = component_start[c]; k < component_start[c + 1]; k++)
		{
			int			r = by_component[k];
			const Relation *rel = &p->relations[r];

			in_component[r] = !rel->dynamic && (needed == NULL || needed[r]);
			if (in_component[r])
				for (int i = 0; i < rel->nrules; i++)
					rules[nrules++] = &p->rules[rel->rules[i]];
		}
		if (nrules > 0)
			evaluate(g, rules, nrules, in_component, false);
		for (int k = component_start[c]; k < component_start[c + 1]; k++)
			in_component[by_component[k]] = false;
	}

	/*
	 * Static relations of symbols looked up whole by a dense membership, as
	 * in the prover (join.h), within a sixteenth of the memory: chess.kif's
	 * (different_cells ?cx ?cy ?u ?v) is asked of every threat to every
	 * square, each a lookup of its term in the store and of that in the set
	 * otherwise.
	 */
	for (int r = 0; r < p->nrelations && network && dense_memory < memory_limit / 16; r++)
		if (!p->relations[r].dynamic && g->tuples[r].n > 0)
			dense_memory += tuples_make_dense(g->terms, &g->tuples[r], p->relations[r].arity,
											  memory_limit / 16 - dense_memory);

	/* what can ever hold of the others, all at once */
	nrules = 0;
	for (int r = 0; r < p->nrules; r++)
		if (p->relations[p->rules[r].relation].dynamic &&
			(needed == NULL || needed[p->rules[r].relation]))
			rules[nrules++] = network ? &p->rules[r] : domain_rules[r];
	rules[nrules] = copy_rule(p, p->rel_true, p->rel_init);
	rules[nrules + 1] = copy_rule(p, p->rel_true, p->rel_next);
	rules[nrules + 2] = copy_rule(p, p->rel_does, p->rel_legal);
	for (int r = 0; r < p->nrelations; r++)
		in_component[r] = p->relations[r].dynamic;
	if (!g->over_budget)
		evaluate(g, rules, nrules + 3, in_component, true);
	if (!network)
		return g;

	instantiate_read(g, rules, nrules);
	/* what GDL asks of a state but the rules fix for all states: facts */
	{
		int			outputs[NOUTPUTS];

		output_relations(p, outputs);
		for (int k = 0; k < NOUTPUTS; k++)
			if (!p->relations[outputs[k]].dynamic)
				for (int i = 0; i < g->tuples[outputs[k]].n; i++)
					add_ground_rule(g, g->tuples[outputs[k]].atoms[i], NULL, 0);
	}
	return g;
}
