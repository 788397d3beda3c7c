/*
 * prover.c: goal-directed evaluation of a GDL program (see prover.h).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "core/clock.h"
#include "gdl/passthrough.h"
#include "gdl/prover.h"
#include "gdl/unfold.h"
#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

typedef enum CallStatus
{
	CALL_RUNNING,
	CALL_COMPLETE,
	CALL_INCOMPLETE				/* used answers of a running call: ask again */
} CallStatus;

/* A query: a relation with some arguments bound, and its answers. */
typedef struct Call
{
	int			relation;
	TermId	   *args;			/* per argument: the bound term, or NO_TERM */
	uint32		hash;
	CallStatus	status;
	bool		reentered;		/* asked again while running */
	bool		tainted;		/* used the answers of a call still running */
	Tuples		answers;
	struct Call *next;			/* in its bucket */
} Call;

/*
 * A ground query of a relation of the state (not of does), compiled the
 * first time it is asked: its rules (unfolded, unfold.h) joined once with
 * the static relations and with every fact that can ever hold, which
 * leaves instances, each a conjunction of facts and other ground queries,
 * negated or not.  In every state after, its value is the disjunction of
 * its instances, read off the state's facts: no join, no term built.
 * chess.kif asks ~4,000 queries a state, three quarters of them ground
 * walks along a line ((clear_diagonal_ne_ig ...)), each the same join
 * state after state.
 */
typedef enum CompiledStatus
{
	COMPILED_NOT_YET,
	COMPILED,
	COMPILED_NOT,				/* not compilable: answered by the join */
	COMPILED_OPEN,				/* arguments unbound: its candidates, each compiled (OPEN_MAX_CANDIDATES) */
} CompiledStatus;

/*
 * A query with arguments unbound, of a relation whose atoms the grounding
 * over-approximated (what can ever hold), is answered by its candidates
 * there when they are this few: each is a ground query, compiled, and the
 * answers are those that hold.  chess.kif's (rook_move ?u ?v ?x ?y), ?u ?v
 * bound by a rook's square, has 28 candidates, most of them blocked after
 * a square or two; the join walked each line as a recursive query, a memo
 * entry and a set of answers a square.
 */
#define OPEN_MAX_CANDIDATES 64

/* Queries of relations with more arguments are left to the joins. */
#define COMPILED_MAX_ARITY 8

/* A compiled query's key, read when it is looked up. */
typedef struct Compiled
{
	int			relation;
	TermId		args[COMPILED_MAX_ARITY];	/* beside the rest: a lookup reads one entry */
	TermId		atom;			/* NO_TERM until wanted */
} Compiled;

/*
 * What evaluating a compiled query reads, apart from its key (16 bytes, by
 * the same index): chess.kif compiles close to a million queries before the
 * cache is dropped, and an evaluation reaches some of them at random (perf:
 * three quarters of compiled_value's time was waiting for the stamp of a
 * query's entry, 64 bytes then, and the start of its instances, another
 * array).
 */
typedef struct CompiledEval
{
	uint32		stamp;			/* value holds for the state of this stamp */
	int32		first;			/* its instances' codes: [first, end) of codes, each instance
								 * ended by CODE_END; COMPILED_OPEN: its candidates, of candidates */
	int32		end;
	uint8		status;			/* CompiledStatus */
	bool		value;
	bool		running;
} CompiledEval;

/* A query's place in the table: its hash beside, so a probe reads an entry only when they match. */
typedef struct CompiledSlot
{
	uint32		hash;
	int32		query;			/* index in compiled, -1: empty */
} CompiledSlot;

/* The compiled queries of a game are dropped past this share of gametree.gdl_memory. */
#define COMPILED_SHARE 4

/*
 * An instance's literal: a fact (base node), a compiled query or a lazy
 * one, and whether negated.  A query is written out lazily (LazyQuery) and
 * found or added among the compiled ones when an evaluation first reaches
 * it, which most never do: chess.kif's (threatened_with_capture ...) has an
 * instance per square, a piece there and the line to the king, and only
 * the squares that hold the piece reach the line.
 */
#define CODE_QUERY 1
#define CODE_NEGATED 2
#define CODE_LAZY 4
#define CODE_SHIFT 3
#define CODE_END (-1)			/* after an instance's literals */

typedef struct LazyQuery
{
	int			relation;
	TermId		args[COMPILED_MAX_ARITY];
} LazyQuery;

/*
 * The values of a relation's group (passthrough.h) that some rule reads,
 * for a query with its other arguments given: from its rules joined with
 * the group left unbound, the values the active ones fix, and those the
 * queries the transparent ones pass the group to read.  Every other value
 * gives the same answer in every state, so the queries with one share the
 * compiled query of the first seen.  Instances that no state can satisfy
 * are left out: a literal of the state asked of a query that is not
 * possible (none of its own instances is).  chess.kif: (rook_move_ig ...)
 * of a line reads the squares strictly between its ends, of two squares on
 * no line none; a state asks (threatened ...) of the king's square
 * ignoring each square a piece leaves, most of them on no line to the king.
 * A ground query's possibility is kept the same way, its group empty.
 */
#define REACH_MAX_VALUES 64		/* past this many: nothing shared (any) */

typedef struct ReachKey
{
	int32		relation;
	int32		group;			/* the positions left unbound: the group, or none */
	TermId		args[COMPILED_MAX_ARITY];	/* NO_TERM at the group's positions */
} ReachKey;

typedef struct GroupReach
{
	ReachKey	key;			/* first: the entry of a dynahash table */
	bool		possible;		/* some instance may hold */
	bool		any;			/* any value may be read: nothing shared */
	bool		known;			/* any, or possible without a group: its rules' join stops */
	bool		computing;
	int			nvalues;		/* the values read, each as many terms as the group */
	int			room;
	TermId	   *values;
	TermId		shared[PASSTHROUGH_MAX_ARITY];	/* NO_TERM until a value is seen */
} GroupReach;

/* The queries answered for one state, or one joint move. */
typedef struct Memo
{
	MemoryContext cxt;
	Call	  **buckets;
	int			nbuckets;
	int			ncalls;
} Memo;

struct Prover
{
	Grounding  *g;
	Program    *p;
	const Rule *unfolded;		/* p's rules unfolded (unfold.h), for compiling */
	Tuples		state;			/* (true fact) atoms of the state */
	Tuples		move;			/* (does role action) atoms of the joint move */
	MemoryContext state_cxt;
	MemoryContext move_cxt;
	Memo		static_memo;	/* static relations that grounding left out, for good */
	Memo		state_memo;		/* relations that do not depend on does */
	Memo		move_memo;
	bool	   *uses_does;		/* per relation */
	bool		terminal_reads_legal;	/* terminal depends on legal */
	bool	   *joined_only;	/* per relation: its ground queries are joined, not compiled */
	Call	  **stack;			/* running calls */
	int			depth;
	int			stack_room;
	uint64		additions;		/* answers added so far */
	Size		memory_limit;	/* of the queries of a state and its grounding's terms */
	uint32		calls;			/* since memory was last checked */
	uint32		asked;			/* queries asked, for looks at the clock */
	bool		gave_up;		/* past the clock's deadline: the run is abandoned */
	bool		in_run;			/* a run is under way (at the start of one: the last ended in an error) */
	Call		nothing;		/* the answer of every query once the run gave up */
	/* terms of the output nodes */
	TermId	   *base_atom;		/* per base node: (true X) */
	Tuples		next_atoms;		/* (next X) of every base node, in their order */
	TermId	   *input_atom;		/* per input: (does R A) */
	Tuples		legal_inputs;	/* (legal R A) of every input, in their order */
	TermId	   *roles;
	/* compiled ground queries (kept across states, dropped when large) */
	MemoryContext compiled_cxt;
	Compiled   *compiled;
	CompiledEval *eval;			/* beside compiled, by the same index */
	int			ncompiled;
	int			compiled_room;
	CompiledSlot *compiled_slots;	/* by hash of relation and arguments */
	int			nslots;
	int32	   *codes;
	int			ncodes;
	int			code_room;
	LazyQuery  *lazy;			/* CODE_LAZY's queries */
	int			nlazy;
	int			lazy_room;
	int32	   *candidates;		/* COMPILED_OPEN's ground queries */
	int			ncandidates;
	int			candidate_room;
	bool		compiling_failed;	/* the query being compiled cannot be */
	bool		compile_off;	/* a cycle went through a compiled query: joins alone from then on */
	bool		cycle;			/* ... seen in this run */
	int			compiled_depth; /* compiled queries being evaluated */
	uint32		stamp;			/* of the state */
	uint8	   *facts;			/* per base node: in the state */
	Tuples		domain;			/* (true X) of every base node, in their order */
	Call		yes;			/* a compiled query's answer when it holds: its atom */
	/* groups of arguments passed on (GroupReach), their reach kept with the compiled queries */
	PassThrough passing;
	Tuples	   *filter_values;	/* per filter of passing: the values it holds for */
	HTAB	   *reach;			/* ReachKey to GroupReach, in compiled_cxt */
	GroupReach *reaching;		/* being computed */
};

static void
memo_reset(Memo *m)
{
	MemoryContextReset(m->cxt);
	m->nbuckets = 256;
	m->ncalls = 0;
	m->buckets = MemoryContextAllocZero(m->cxt, m->nbuckets * sizeof(Call *));
}

static uint32
call_hash(int relation, const TermId *args, int arity)
{
	uint32		h = murmurhash32((uint32) relation);

	for (int i = 0; i < arity; i++)
		h = hash_combine(h, (uint32) args[i]);
	return h;
}

static void
memo_grow(Memo *m)
{
	int			n = m->nbuckets * 2;
	Call	  **buckets = MemoryContextAllocZero(m->cxt, n * sizeof(Call *));

	for (int b = 0; b < m->nbuckets; b++)
		for (Call *c = m->buckets[b], *next; c != NULL; c = next)
		{
			next = c->next;
			c->next = buckets[c->hash & (n - 1)];
			buckets[c->hash & (n - 1)] = c;
		}
	m->buckets = buckets;
	m->nbuckets = n;
}

/* The query of relation with args (hash: call_hash's) in m, or NULL. */
static Call *
memo_find(const Memo *m, int relation, const TermId *args, int arity, uint32 hash)
{
	Call	   *call;

	for (call = m->buckets[hash & (m->nbuckets - 1)]; call != NULL; call = call->next)
		if (call->hash == hash && call->relation == relation &&
			memcmp(call->args, args, arity * sizeof(TermId)) == 0)
			break;
	return call;
}

static Call *answer(Prover *pv, int relation, const TermId *args);
static Call *running_answers(Prover *pv, int relation, const TermId *args);

/*
 * Runaway recursion (rules that build ever larger terms) ends here, or in
 * check_stack_depth, not in the OOM killer.
 */
static void
check_memory(Prover *pv)
{
	Size		used = MemoryContextMemAllocated(pv->compiled_cxt, true) +
		MemoryContextMemAllocated(pv->state_memo.cxt, true) +
		MemoryContextMemAllocated(pv->move_memo.cxt, true) +
		MemoryContextMemAllocated(pv->static_memo.cxt, true) +
		(Size) pv->g->terms->nterms * (sizeof(TermNode) + 3 * sizeof(int32));

	CHECK_FOR_INTERRUPTS();
	if (used > pv->memory_limit)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": evaluating a state needs more than gametree.gdl_memory (%zu kB)",
						pv->p->game, pv->memory_limit / 1024),
				 errhint("The rules may recurse without end; otherwise raise gametree.gdl_memory.")));
}


/* A static relation that grounding computed: its atoms are all there. */
static inline bool
materialized(const Prover *pv, int relation)
{
	return !pv->p->relations[relation].dynamic && pv->g->computed[relation];
}

/*
 * Whether relation's ground queries are compiled: a relation of the state
 * alone (relations of does change with every joint move) with no argument
 * that only filters (filtered_relations) and few enough arguments.
 */
static inline bool
compiled_relation(const Prover *pv, int relation)
{
	const Relation *rel = &pv->p->relations[relation];

	return rel->dynamic && !pv->uses_does[relation] && !pv->joined_only[relation] &&
		relation != pv->p->rel_true && relation != pv->p->rel_does && rel->arity <= COMPILED_MAX_ARITY;
}

/* The answers to literal i's relation with the arguments bound so far (NULL: not all bound, choosing). */
static const Tuples *
prover_source(Join *j, int i, bool choosing)
{
	Prover	   *pv = j->context;
	const Literal *lit = &j->rule->body[i];
	const Relation *rel = &pv->p->relations[lit->relation];
	TermId		args[MAX_BODY];
	bool		all = true;

	if (lit->relation == pv->p->rel_true)
		return &pv->state;
	if (lit->relation == pv->p->rel_does)
		return &pv->move;
	if (materialized(pv, lit->relation))
		return &pv->g->tuples[lit->relation];
	for (int a = 0; a < rel->arity; a++)
	{
		args[a] = join_substitute(j, term_arg(j->terms, lit->atom, a), false);
		all &= args[a] != NO_TERM;
	}
	if (choosing && !all)
	{
		/* deferred, unless it is running: its answers so far cost nothing to read */
		Call	   *call = running_answers(pv, lit->relation, args);

		return call != NULL ? &call->answers : NULL;
	}
	return &answer(pv, lit->relation, args)->answers;
}

static bool
prover_negation_holds(Join *j, int i)
{
	Prover	   *pv = j->context;
	const Literal *lit = &j->rule->body[i];
	const Relation *rel = &pv->p->relations[lit->relation];
	TermId		args[MAX_BODY];
	TermId		atom;

	if (!materialized(pv, lit->relation) && lit->relation != pv->p->rel_true &&
		lit->relation != pv->p->rel_does)
	{
		/* a derived relation: asked with these arguments */
		for (int a = 0; a < rel->arity; a++)
			args[a] = join_substitute(j, term_arg(j->terms, lit->atom, a), true);
		return answer(pv, lit->relation, args)->answers.n == 0;
	}
	atom = join_substitute(j, lit->atom, false);
	if (lit->relation == pv->p->rel_true)
		return atom == NO_TERM || tuples_find(&pv->state, atom) < 0;
	if (lit->relation == pv->p->rel_does)
		return atom == NO_TERM || tuples_find(&pv->move, atom) < 0;
	return atom == NO_TERM || tuples_find(&pv->g->tuples[lit->relation], atom) < 0;
}

static void
prover_emit(Join *j)
{
	Prover	   *pv = j->context;
	Call	   *call = pv->stack[pv->depth - 1];
	/* the head's atom, made when its variables were bound (head_known) unless new then */
	TermId		head = j->head_bound && j->head_atom != NO_TERM ? j->head_atom :
		join_substitute(j, j->rule->head, true);
	MemoryContext old = MemoryContextSwitchTo(GetMemoryChunkContext(call));

	if (tuples_insert(j->terms, &call->answers, pv->p->relations[call->relation].arity, head) &&
		++pv->additions % 4096 == 0)
		check_memory(pv);
	MemoryContextSwitchTo(old);
}

static bool
prover_head_known(Join *j, TermId head)
{
	Prover	   *pv = j->context;

	return head != NO_TERM && tuples_find(&pv->stack[pv->depth - 1]->answers, head) >= 0;
}

static const JoinOps prover_ops = {
	.source = prover_source,
	.negation_holds = prover_negation_holds,
	.emit = prover_emit,
	.head_known = prover_head_known,
};

/*
 * Joins the rules (p's or unfolded) of relation with ops, their heads
 * unified with the bound arguments (NO_TERM: unbound), until *stop (when
 * not NULL) is set.
 */
static void
join_rules(Prover *pv, const Rule *rules, int relation, const TermId *args, const JoinOps *ops,
		   const bool *stop)
{
	const Relation *rel = &pv->p->relations[relation];

	for (int r = 0; r < rel->nrules && (stop == NULL || !*stop); r++)
	{
		const Rule *rule = &rules[rel->rules[r]];
		Join		j = {.ops = ops,.context = pv,.terms = pv->g->terms,.rule = rule,.stop = stop};
		bool		unified = true;

		join_begin(&j);
		for (int a = 0; a < rel->arity && unified; a++)
			if (args[a] != NO_TERM)
				unified = join_unify(&j, term_arg(j.terms, rule->head, a), args[a]);
		if (unified)
			join_body(&j);
		join_end(&j);
	}
}

/*
 * A new query with some arguments bound, answered from the complete
 * answers of its relation asked with none bound, when the memo has them:
 * those whose bound arguments match.  False when it has not.
 */
static bool
answered_by_general(Prover *pv, Memo *m, Call *call)
{
	const TermStore *ts = pv->g->terms;
	int			arity = pv->p->relations[call->relation].arity;
	TermId		none[MAX_BODY];
	bool		bound = false;
	const Call *general;
	MemoryContext old;

	for (int a = 0; a < arity; a++)
	{
		none[a] = NO_TERM;
		bound |= call->args[a] != NO_TERM;
	}
	if (!bound)
		return false;
	general = memo_find(m, call->relation, none, arity, call_hash(call->relation, none, arity));
	if (general == NULL || general->status != CALL_COMPLETE)
		return false;
	old = MemoryContextSwitchTo(m->cxt);
	for (int k = 0; k < general->answers.n; k++)
	{
		TermId		atom = general->answers.atoms[k];
		bool		match = true;

		for (int a = 0; a < arity && match; a++)
			match = call->args[a] == NO_TERM || term_arg(ts, atom, a) == call->args[a];
		/* counted as prover_emit counts its answers, for gametree.gdl_memory */
		if (match && tuples_insert(ts, &call->answers, arity, atom) && ++pv->additions % 4096 == 0)
			check_memory(pv);
	}
	MemoryContextSwitchTo(old);
	return true;
}

/* The memo that holds the queries of relation. */
static Memo *
memo_of(Prover *pv, int relation)
{
	return pv->uses_does[relation] ? &pv->move_memo :
		pv->p->relations[relation].dynamic ? &pv->state_memo : &pv->static_memo;
}

/*
 * A query found in the memo: complete, or running (recursion: the calls
 * above it take its partial answers, so they are marked to be asked again).
 */
static Call *
memo_hit(Prover *pv, Call *call)
{
	if (call->status == CALL_RUNNING)
	{
		/* the calls above it used partial answers, compiled queries too */
		pv->cycle |= pv->compiled_depth > 0;
		for (int d = pv->depth - 1; d >= 0 && pv->stack[d] != call; d--)
			pv->stack[d]->tainted = true;
		call->reentered = true;
	}
	return call;
}

/*
 * The query's answers so far when it is running (asked again from inside
 * its own rules), NULL otherwise.  A join reads them as the candidates of a
 * literal it would have deferred: chess.kif's (clear_diagonal_ne ?u2 ?v2 u
 * v), the walk along a line asked from its far end, is its own recursive
 * call, and its few answers bind ?u2 ?v2 before (next_file ?x ?u2) and
 * (next_rank ?y ?v2), 49 pairs a pass otherwise (perft 3 of chess.kif on
 * the prover 1.29 times faster, its random playouts 1.11 times).  Complete
 * answers are not offered so: read early, (occupied_by_opponent ?x ?y
 * ?player) in chess.kif's legal rules binds the target square before the
 * piece, a (legal2 ...) query per square, and playouts were no faster.
 */
static Call *
running_answers(Prover *pv, int relation, const TermId *args)
{
	int			arity = pv->p->relations[relation].arity;
	Call	   *call = memo_find(memo_of(pv, relation), relation, args, arity, call_hash(relation, args, arity));

	if (pv->gave_up || call == NULL || call->status != CALL_RUNNING)
		return NULL;
	return memo_hit(pv, call);
}

/* A query added to memo m, not answered yet. */
static Call *
new_call(Memo *m, int relation, const TermId *args, int arity, uint32 hash)
{
	Call	   *call;

	if (2 * (m->ncalls + 1) > m->nbuckets)
		memo_grow(m);
	call = MemoryContextAllocZero(m->cxt, sizeof(Call));
	call->relation = relation;
	call->args = MemoryContextAlloc(m->cxt, Max(1, arity) * sizeof(TermId));
	memcpy(call->args, args, arity * sizeof(TermId));
	call->hash = hash;
	call->next = m->buckets[hash & (m->nbuckets - 1)];
	m->buckets[hash & (m->nbuckets - 1)] = call;
	m->ncalls++;
	return call;
}

static Call *
answer_joined(Prover *pv, int relation, const TermId *args)
{
	int			arity = pv->p->relations[relation].arity;
	Memo	   *m = memo_of(pv, relation);
	uint32		hash = call_hash(relation, args, arity);
	Call	   *call;
	uint64		before;

	/*
	 * Past the clock's deadline (core/clock.h) the run unwinds: every query
	 * answers nothing, without running rules, so the joins above end soon.
	 * A look every 16 queries keeps the clock's cost out of sight.
	 */
	if (pv->gave_up || ((++pv->asked & 15) == 0 && gt_game_give_up()))
	{
		pv->gave_up = true;
		return &pv->nothing;
	}
	call = memo_find(m, relation, args, arity, hash);
	if (call != NULL && call->status != CALL_INCOMPLETE)
		return memo_hit(pv, call);
	if (++pv->calls % 4096 == 0)
		check_memory(pv);
	if (call == NULL)
	{
		call = new_call(m, relation, args, arity, hash);
		if (answered_by_general(pv, m, call))
		{
			call->status = CALL_COMPLETE;
			return call;
		}
	}
	if (pv->depth == pv->stack_room)
	{
		pv->stack_room *= 2;
		pv->stack = repalloc(pv->stack, pv->stack_room * sizeof(Call *));
	}
	pv->stack[pv->depth++] = call;
	call->status = CALL_RUNNING;
	call->tainted = false;
	do
	{
		call->reentered = false;
		before = pv->additions;
		join_rules(pv, pv->p->rules, call->relation, call->args, &prover_ops, NULL);
	} while (call->reentered && pv->additions != before);
	pv->depth--;
	call->status = call->tainted ? CALL_INCOMPLETE : CALL_COMPLETE;
	return call;
}

/*
 * Compiled ground queries (see Compiled).  Compiling joins a query's rules
 * with the joins' own ops but for three: facts come from the domain (every
 * base node), and literals of state relations, positive or negated, are
 * left out of the join (residual) and recorded by emit, which gives up on
 * the query when one of them is left with an unbound variable.
 */

/* The slot of a query in compiled_slots: its own, or the empty one where it would go. */
static uint32
compiled_slot(const Prover *pv, int relation, const TermId *args, uint32 hash)
{
	uint32		mask = pv->nslots - 1;
	uint32		i = hash & mask;
	int			arity = pv->p->relations[relation].arity;

	for (; pv->compiled_slots[i].query >= 0; i = (i + 1) & mask)
	{
		const Compiled *c = &pv->compiled[pv->compiled_slots[i].query];

		if (pv->compiled_slots[i].hash == hash && c->relation == relation &&
			memcmp(c->args, args, arity * sizeof(TermId)) == 0)
			break;
	}
	return i;
}

static CompiledSlot *
new_compiled_slots(Prover *pv, int n)
{
	CompiledSlot *slots = MemoryContextAlloc(pv->compiled_cxt, n * sizeof(CompiledSlot));

	for (int i = 0; i < n; i++)
		slots[i].query = -1;
	return slots;
}

/* The query of relation with args (all bound), added (not compiled yet) when new. */
static int32
compiled_of(Prover *pv, int relation, const TermId *args)
{
	int			arity = pv->p->relations[relation].arity;
	uint32		hash = call_hash(relation, args, arity);
	uint32		i = compiled_slot(pv, relation, args, hash);
	Compiled   *c;

	Assert(arity <= COMPILED_MAX_ARITY);
	if (pv->compiled_slots[i].query >= 0)
		return pv->compiled_slots[i].query;
	if (2 * (pv->ncompiled + 1) > pv->nslots)
	{
		CompiledSlot *old = pv->compiled_slots;
		int			nold = pv->nslots;

		pv->nslots *= 2;
		pv->compiled_slots = new_compiled_slots(pv, pv->nslots);
		for (int k = 0; k < nold; k++)
		{
			uint32		j;

			if (old[k].query < 0)
				continue;
			for (j = old[k].hash & (pv->nslots - 1); pv->compiled_slots[j].query >= 0; j = (j + 1) & (pv->nslots - 1))
				;
			pv->compiled_slots[j] = old[k];
		}
		pfree(old);
		i = compiled_slot(pv, relation, args, hash);
	}
	if (pv->ncompiled == pv->compiled_room)
	{
		pv->compiled_room *= 2;
		pv->compiled = repalloc_huge(pv->compiled, pv->compiled_room * sizeof(Compiled));
		pv->eval = repalloc_huge(pv->eval, pv->compiled_room * sizeof(CompiledEval));
	}
	c = &pv->compiled[pv->ncompiled];
	memset(c, 0, sizeof(Compiled));
	c->relation = relation;
	memcpy(c->args, args, arity * sizeof(TermId));
	c->atom = NO_TERM;
	memset(&pv->eval[pv->ncompiled], 0, sizeof(CompiledEval));
	pv->eval[pv->ncompiled].status = COMPILED_NOT_YET;
	pv->compiled_slots[i] = (CompiledSlot) {.hash = hash,.query = pv->ncompiled};
	return pv->ncompiled++;
}

/* An empty cache, in compiled_cxt. */
static void
compiled_reset(Prover *pv)
{
	MemoryContextReset(pv->compiled_cxt);
	pv->compiled_room = 256;
	pv->compiled = MemoryContextAlloc(pv->compiled_cxt, pv->compiled_room * sizeof(Compiled));
	pv->eval = MemoryContextAlloc(pv->compiled_cxt, pv->compiled_room * sizeof(CompiledEval));
	pv->ncompiled = 0;
	pv->nslots = 512;
	pv->compiled_slots = new_compiled_slots(pv, pv->nslots);
	pv->code_room = 4096;
	pv->codes = MemoryContextAlloc(pv->compiled_cxt, pv->code_room * sizeof(int32));
	pv->ncodes = 0;
	pv->lazy_room = 256;
	pv->lazy = MemoryContextAlloc(pv->compiled_cxt, pv->lazy_room * sizeof(LazyQuery));
	pv->nlazy = 0;
	pv->candidate_room = 256;
	pv->candidates = MemoryContextAlloc(pv->compiled_cxt, pv->candidate_room * sizeof(int32));
	pv->ncandidates = 0;
	{
		HASHCTL		ctl = {.keysize = sizeof(ReachKey),.entrysize = sizeof(GroupReach),.hcxt = pv->compiled_cxt};

		pv->reach = hash_create("gametree GDL group reach", 256, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	pv->reaching = NULL;
}

static void
add_code(Prover *pv, int32 code)
{
	if (pv->ncodes == pv->code_room)
	{
		pv->code_room *= 2;
		pv->codes = repalloc_huge(pv->codes, pv->code_room * sizeof(int32));
	}
	pv->codes[pv->ncodes++] = code;
}

/* A query written out for CODE_LAZY: its index in lazy. */
static int32
add_lazy(Prover *pv, int relation, const TermId *args, int arity)
{
	if (pv->nlazy == pv->lazy_room)
	{
		pv->lazy_room *= 2;
		pv->lazy = repalloc_huge(pv->lazy, pv->lazy_room * sizeof(LazyQuery));
	}
	pv->lazy[pv->nlazy].relation = relation;
	memcpy(pv->lazy[pv->nlazy].args, args, arity * sizeof(TermId));
	return pv->nlazy++;
}

static bool
compile_residual(Join *j, int i)
{
	Prover	   *pv = j->context;
	int			r = j->rule->body[i].relation;

	return r != pv->p->rel_true && pv->p->relations[r].dynamic;
}

static const Tuples *
compile_source(Join *j, int i, bool choosing)
{
	Prover	   *pv = j->context;

	if (j->rule->body[i].relation == pv->p->rel_true)
		return &pv->domain;
	return prover_source(j, i, choosing);
}

static bool
compile_negation_holds(Join *j, int i)
{
	Prover	   *pv = j->context;
	int			r = j->rule->body[i].relation;

	/* facts and state relations: recorded by emit */
	if (r == pv->p->rel_true || pv->p->relations[r].dynamic)
		return true;
	return prover_negation_holds(j, i);
}

static GroupReach *group_reach(Prover *pv, int relation, const TermId *args, uint8 group);

/*
 * Whether a ground query of a relation with a group may hold in some
 * state, by its group's reach (the same for every value of the group):
 * chess.kif's (threatened ...) has an instance for an attacker on each
 * square, and only those on a line to the king's square are kept.  Other
 * relations are not asked (their possibility would be a reach per query).
 */
static bool
query_possible(Prover *pv, int relation, const TermId *args)
{
	uint8		group = pv->passing.group[relation];

	return group == 0 || group_reach(pv, relation, args, group)->possible;
}

/* An instance: the facts and queries the solution leaves to the state. */
static void
compile_emit(Join *j)
{
	Prover	   *pv = j->context;
	const Rule *rule = j->rule;
	int			codes = pv->ncodes;

	for (int k = 0; k < rule->nbody && !pv->compiling_failed; k++)
	{
		const Literal *lit = &rule->body[k];
		bool		negated = lit->kind == LIT_NEGATIVE;
		TermId		atom;
		int			base;

		if (lit->kind == LIT_DISTINCT || (lit->relation != pv->p->rel_true &&
										  !pv->p->relations[lit->relation].dynamic))
		{
			/* joined or tested, unless only a residual literal binds it */
			pv->compiling_failed = !j->done[k];
			continue;
		}
		if (lit->relation != pv->p->rel_true)
		{
			int			arity = pv->p->relations[lit->relation].arity;
			TermId		args[MAX_BODY];

			pv->compiling_failed = arity > COMPILED_MAX_ARITY;
			for (int a = 0; a < arity && !pv->compiling_failed; a++)
				pv->compiling_failed = (args[a] = join_substitute(j, term_arg(j->terms, lit->atom, a), true)) == NO_TERM;
			if (!pv->compiling_failed && !negated && !query_possible(pv, lit->relation, args))
			{
				/* no state satisfies the instance */
				pv->ncodes = codes;
				return;
			}
			if (!pv->compiling_failed)
				add_code(pv, add_lazy(pv, lit->relation, args, arity) << CODE_SHIFT | CODE_LAZY |
						 (negated ? CODE_NEGATED : 0));
			continue;
		}
		atom = lit->kind == LIT_POSITIVE ? j->matched[k] : join_substitute(j, lit->atom, true);
		if (atom == NO_TERM)
			pv->compiling_failed = true;
		else if ((base = tuples_find(&pv->domain, atom)) >= 0)
			add_code(pv, base << CODE_SHIFT | (negated ? CODE_NEGATED : 0));
		/* else a negated fact no state holds */
	}
	if (pv->compiling_failed)
	{
		pv->ncodes = codes;
		return;
	}
	add_code(pv, CODE_END);
}

static const JoinOps compile_ops = {
	.source = compile_source,
	.negation_holds = compile_negation_holds,
	.emit = compile_emit,
	.residual = compile_residual,
};

static void
compile(Prover *pv, int32 q)
{
	const Relation *rel = &pv->p->relations[pv->compiled[q].relation];
	TermId		args[MAX_BODY];
	int			codes = pv->ncodes;

	/* a copy: compiled moves as the instances name other queries */
	memcpy(args, pv->compiled[q].args, rel->arity * sizeof(TermId));
	check_memory(pv);
	pv->compiling_failed = false;
	/* the join asks no state relation (they are residual): the codes are q's alone, in a row */
	join_rules(pv, pv->unfolded, pv->compiled[q].relation, args, &compile_ops, &pv->compiling_failed);
	if (pv->compiling_failed)
	{
		pv->ncodes = codes;
		pv->eval[q].status = COMPILED_NOT;
		return;
	}
	pv->eval[q].first = codes;
	pv->eval[q].end = pv->ncodes;
	pv->eval[q].status = COMPILED;
}

/* Joined like a compiled query's rules, but for the filters of the group, which would bind it. */
static bool
reach_residual(Join *j, int i)
{
	Prover	   *pv = j->context;

	return compile_residual(j, i) || passthrough_is_filter(pv->p, j->rule, i, pv->reaching->key.group);
}

static void
reach_add(Prover *pv, GroupReach *r, const TermId *value, int m)
{
	for (int t = 0; t < r->nvalues; t++)
		if (memcmp(&r->values[t * m], value, m * sizeof(TermId)) == 0)
			return;
	if (r->nvalues == REACH_MAX_VALUES)
	{
		r->any = true;
		return;
	}
	if (r->nvalues == r->room)
	{
		r->room = Max(4, 2 * r->room);
		r->values = r->values == NULL ?
			MemoryContextAlloc(pv->compiled_cxt, r->room * m * sizeof(TermId)) :
			repalloc(r->values, r->room * m * sizeof(TermId));
	}
	memcpy(&r->values[r->nvalues++ * m], value, m * sizeof(TermId));
}

/*
 * A solution of a rule of the query being reached: unless a literal of the
 * state it asks is not possible, the query is, and the values it reads
 * are read.
 */
static void
reach_instance(Join *j)
{
	Prover	   *pv = j->context;
	GroupReach *r = pv->reaching;
	const TermStore *ts = j->terms;
	const Rule *rule = j->rule;
	TermId		value[PASSTHROUGH_MAX_ARITY];
	const GroupReach *passed[MAX_BODY];
	int			npassed = 0;
	int			m = 0,
				bound = 0;

	for (int a = 0; a < pv->p->relations[rule->relation].arity; a++)
		if (r->key.group & (1 << a))
		{
			value[m] = join_substitute(j, term_arg(ts, rule->head, a), true);
			bound += value[m++] != NO_TERM;
		}
	if (bound > 0 && bound < m)
	{
		r->any = true;
		return;
	}
	for (int k = 0; k < rule->nbody && !r->any; k++)
	{
		const Literal *lit = &rule->body[k];
		int			callee = lit->relation;
		int			arity;
		uint8		callee_group;
		TermId		args[COMPILED_MAX_ARITY];
		bool		open = false,
					fits = true;
		const GroupReach *sub;

		/* facts were joined over every one that can hold; negations may hold */
		if (lit->kind != LIT_POSITIVE || callee == pv->p->rel_true || !pv->p->relations[callee].dynamic)
			continue;
		arity = pv->p->relations[callee].arity;
		if (arity > COMPILED_MAX_ARITY)
		{
			r->any |= bound < m;
			continue;
		}
		callee_group = pv->passing.group[callee];
		for (int b = 0; b < arity; b++)
		{
			args[b] = join_substitute(j, term_arg(ts, lit->atom, b), true);
			open |= args[b] == NO_TERM;
			fits &= (args[b] == NO_TERM) == ((callee_group & (1 << b)) != 0);
		}
		if (!open)
			sub = group_reach(pv, callee, args, 0);
		else if (bound == m)
			continue;			/* bound by literals of the state alone: may hold */
		else if (fits)
			sub = passed[npassed++] = group_reach(pv, callee, args, callee_group);
		else
		{
			/* the group may go elsewhere */
			r->any = true;
			return;
		}
		if (sub->any && bound < m)
		{
			r->any = true;
			return;
		}
		if (!sub->possible)
			return;				/* no state satisfies this instance */
	}
	if (r->any)
		return;
	r->possible = true;
	if (m > 0 && bound == m)
		reach_add(pv, r, value, m); /* an active rule: it reads this value */
	for (int k = 0; k < npassed && !r->any; k++)
	{
		if (r->nvalues + passed[k]->nvalues > REACH_MAX_VALUES)
			r->any = true;
		for (int t = 0; t < passed[k]->nvalues && !r->any; t++)
			reach_add(pv, r, &passed[k]->values[t * m], m);
	}
}

/* An instance, then whether the join can stop: nothing shared, or a ground query found possible. */
static void
reach_emit(Join *j)
{
	GroupReach *r = ((Prover *) j->context)->reaching;

	reach_instance(j);
	r->known = r->any || (r->key.group == 0 && r->possible);
}

static const JoinOps reach_ops = {
	.source = compile_source,
	.negation_holds = compile_negation_holds,
	.emit = reach_emit,
	.residual = reach_residual,
};

/*
 * The reach of relation's group for args (its group's positions not read),
 * or the possibility of the ground query (group 0), computed when new.
 */
static GroupReach *
group_reach(Prover *pv, int relation, const TermId *args, uint8 group)
{
	int			arity = pv->p->relations[relation].arity;
	ReachKey	key;
	GroupReach *r,
			   *outer;

	memset(&key, 0, sizeof(key));	/* hashed whole */
	key.relation = relation;
	key.group = group;
	for (int a = 0; a < arity; a++)
		key.args[a] = group & (1 << a) ? NO_TERM : args[a];
	r = hash_search(pv->reach, &key, HASH_FIND, NULL);
	if (r != NULL)
	{
		/* asked again while computed, a recursion: may hold, and nothing shared */
		if (r->computing)
		{
			r->possible = true;
			r->any |= group != 0;
		}
		return r;
	}
	check_memory(pv);
	r = hash_search(pv->reach, &key, HASH_ENTER, NULL);
	memset((char *) r + sizeof(ReachKey), 0, sizeof(GroupReach) - sizeof(ReachKey));
	for (int k = 0; k < PASSTHROUGH_MAX_ARITY; k++)
		r->shared[k] = NO_TERM;

	check_stack_depth();
	r->computing = true;
	outer = pv->reaching;
	pv->reaching = r;
	join_rules(pv, pv->unfolded, relation, key.args, &reach_ops, &r->known);
	pv->reaching = outer;
	r->computing = false;
	/* a run past its deadline answers nothing: what it found is partial */
	if (pv->gave_up)
	{
		r->possible = true;
		r->any = true;
	}
	return r;
}

/* Whether value passes every filter of filters (the values shared must agree on them). */
static bool
passes_filters(const Prover *pv, uint32 filters, TermId value)
{
	for (int k = 0; k < pv->passing.nfilters; k++)
		if ((filters & ((uint32) 1 << k)) && tuples_find(&pv->filter_values[k], value) < 0)
			return false;
	return true;
}

/*
 * A ground query's arguments, its group's value replaced by the one its
 * queries share when no rule reads it (GroupReach).
 */
static void
share_group(Prover *pv, int relation, TermId *args)
{
	uint8		group = pv->passing.group[relation];
	TermId		value[PASSTHROUGH_MAX_ARITY];
	int			m = 0;
	GroupReach *r;

	if (group == 0)
		return;
	for (int a = 0; a < pv->p->relations[relation].arity; a++)
		if (group & (1 << a))
		{
			if (!passes_filters(pv, pv->passing.filters[relation], args[a]))
				return;
			value[m++] = args[a];
		}
	r = group_reach(pv, relation, args, group);
	if (r->any)
		return;
	for (int t = 0; t < r->nvalues; t++)
		if (memcmp(&r->values[t * m], value, m * sizeof(TermId)) == 0)
			return;
	if (r->shared[0] == NO_TERM)
	{
		memcpy(r->shared, value, m * sizeof(TermId));
		return;
	}
	m = 0;
	for (int a = 0; a < pv->p->relations[relation].arity; a++)
		if (group & (1 << a))
			args[a] = r->shared[m++];
}

/* The value of query q in the state. */
static bool
compiled_value(Prover *pv, int32 q)
{
	CompiledEval *e = &pv->eval[q];
	bool		value = false;

	if (e->stamp == pv->stamp)
		return e->value;
	if (e->running)
	{
		/* a cycle of ground queries: joins alone hold its fixpoint */
		pv->cycle = true;
		return false;
	}
	/* past the clock's deadline, as answer_joined */
	if (pv->gave_up || ((++pv->asked & 15) == 0 && gt_game_give_up()))
	{
		pv->gave_up = true;
		return false;
	}
	if (e->status == COMPILED_NOT_YET)
		compile(pv, q);
	e = &pv->eval[q];
	if (e->status == COMPILED_NOT)
	{
		const Relation *rel = &pv->p->relations[pv->compiled[q].relation];
		TermId		args[MAX_BODY];

		memcpy(args, pv->compiled[q].args, rel->arity * sizeof(TermId));
		pv->compiled_depth++;
		value = answer_joined(pv, pv->compiled[q].relation, args)->answers.n > 0;
		pv->compiled_depth--;
	}
	else
	{
		int			end = e->end;
		bool		holds = true;	/* the instance so far */

		check_stack_depth();
		e->running = true;
		pv->compiled_depth++;
		/* an instance holds when all its literals do; a literal that fails skips to its end */
		for (int k = e->first; k < end; k++)
		{
			int32		code = pv->codes[k];

			if (code == CODE_END)
			{
				if (holds)
				{
					value = true;
					break;
				}
				holds = true;
				continue;
			}
			if (!holds)
				continue;
			if (code & CODE_LAZY)
			{
				const LazyQuery *lazy = &pv->lazy[code >> CODE_SHIFT];
				TermId		args[COMPILED_MAX_ARITY];
				int			relation = lazy->relation;

				memcpy(args, lazy->args, sizeof(args));
				share_group(pv, relation, args);
				code = compiled_of(pv, relation, args) << CODE_SHIFT | CODE_QUERY |
					(code & CODE_NEGATED);
				pv->codes[k] = code;
			}
			holds = (code & CODE_QUERY ? compiled_value(pv, code >> CODE_SHIFT) :
					 pv->facts[code >> CODE_SHIFT]) != ((code & CODE_NEGATED) != 0);
		}
		pv->compiled_depth--;
	}
	e = &pv->eval[q];
	e->running = false;
	e->value = value;
	e->stamp = pv->stamp;
	return value;
}

/* Query q, some arguments unbound: its candidates in the grounding's atoms, each compiled (see OPEN_MAX_CANDIDATES). */
static void
compile_open(Prover *pv, int32 q)
{
	int			relation = pv->compiled[q].relation;
	int			arity = pv->p->relations[relation].arity;
	TermId		args[COMPILED_MAX_ARITY];
	TermId		atoms[OPEN_MAX_CANDIDATES];
	int			n;

	memcpy(args, pv->compiled[q].args, arity * sizeof(TermId));
	check_memory(pv);
	n = tuples_select(pv->g->terms, &pv->g->tuples[relation], args, arity, OPEN_MAX_CANDIDATES, atoms);
	if (n < 0)
	{
		pv->eval[q].status = COMPILED_NOT;
		return;
	}
	while (pv->ncandidates + n > pv->candidate_room)
	{
		pv->candidate_room *= 2;
		pv->candidates = repalloc_huge(pv->candidates, pv->candidate_room * sizeof(int32));
	}
	/* written before any candidate is added: adding moves eval */
	pv->eval[q].first = pv->ncandidates;
	pv->eval[q].end = pv->ncandidates + n;
	pv->eval[q].status = COMPILED_OPEN;
	pv->ncandidates += n;
	for (int k = 0; k < n; k++)
	{
		TermId		ground[COMPILED_MAX_ARITY];
		int32		candidate;

		for (int a = 0; a < arity; a++)
			ground[a] = term_arg(pv->g->terms, atoms[k], a);
		candidate = compiled_of(pv, relation, ground);
		pv->candidates[pv->eval[q].first + k] = candidate;
		/* the atom, which the answers hold */
		pv->compiled[candidate].atom = atoms[k];
	}
}

/*
 * Query q, compiled open: its candidates that hold, into a query of the
 * state's memo.  One asked again while this one is answered is a cycle
 * through compiled queries: the joins alone take over (prover_run).
 */
static Call *
answer_open(Prover *pv, int32 q, const TermId *args)
{
	int			relation = pv->compiled[q].relation;
	int			arity = pv->p->relations[relation].arity;
	Memo	   *m = memo_of(pv, relation);
	uint32		hash = call_hash(relation, args, arity);
	Call	   *call = memo_find(m, relation, args, arity, hash);
	MemoryContext old;

	if (call != NULL)
	{
		pv->cycle |= call->status == CALL_RUNNING;
		return call;
	}
	call = new_call(m, relation, args, arity, hash);
	call->status = CALL_RUNNING;
	pv->compiled_depth++;
	for (int k = pv->eval[q].first; k < pv->eval[q].end && !pv->gave_up; k++)
	{
		int32		candidate = pv->candidates[k];

		if (!compiled_value(pv, candidate))
			continue;
		old = MemoryContextSwitchTo(m->cxt);
		if (tuples_insert(pv->g->terms, &call->answers, arity, pv->compiled[candidate].atom) &&
			++pv->additions % 4096 == 0)
			check_memory(pv);
		MemoryContextSwitchTo(old);
	}
	pv->compiled_depth--;
	call->status = CALL_COMPLETE;
	return call;
}

/*
 * A query: compiled when of a compiled relation (compiled_relation) and
 * ground or open with few candidates (answer_open); joined otherwise.
 */
static Call *
answer(Prover *pv, int relation, const TermId *args)
{
	const Relation *rel = &pv->p->relations[relation];
	int32		q;
	Compiled   *c;
	TermId		shared[COMPILED_MAX_ARITY];
	TermId		atom;
	MemoryContext old;

	if (pv->compile_off || pv->gave_up || !compiled_relation(pv, relation))
		return answer_joined(pv, relation, args);
	for (int a = 0; a < rel->arity; a++)
		if (args[a] == NO_TERM)
		{
			/* open: by its candidates when the grounding has them, and they are few */
			if (pv->g->computed == NULL || !pv->g->computed[relation])
				return answer_joined(pv, relation, args);
			q = compiled_of(pv, relation, args);
			if (pv->eval[q].status == COMPILED_NOT_YET)
				compile_open(pv, q);
			if (pv->eval[q].status != COMPILED_OPEN)
				return answer_joined(pv, relation, args);
			return answer_open(pv, q, args);
		}
	memcpy(shared, args, rel->arity * sizeof(TermId));
	share_group(pv, relation, shared);
	q = compiled_of(pv, relation, shared);
	if (!compiled_value(pv, q))
		return &pv->nothing;
	c = &pv->compiled[q];
	if (memcmp(shared, args, rel->arity * sizeof(TermId)) != 0)
		atom = term_function(pv->g->terms, rel->name, rel->arity, args);	/* the atom asked */
	else
	{
		if (c->atom == NO_TERM)
			c->atom = rel->arity == 0 ? term_symbol(pv->g->terms, rel->name) :
				term_function(pv->g->terms, rel->name, rel->arity, args);
		atom = c->atom;
	}
	/* valid until the next query: each caller reads it at once */
	old = MemoryContextSwitchTo(GetMemoryChunkContext(pv));
	tuples_hold_one(&pv->yes.answers, atom);
	MemoryContextSwitchTo(old);
	return &pv->yes;
}

/* The answers to a relation with no argument bound. */
static const Tuples *
answer_all(Prover *pv, int relation)
{
	TermId		args[2] = {NO_TERM, NO_TERM};

	Assert(pv->p->relations[relation].arity <= 2);
	if (materialized(pv, relation))
		return &pv->g->tuples[relation];
	return &answer(pv, relation, args)->answers;
}

static void
load_atoms(Prover *pv, Tuples *t, MemoryContext cxt, const TermId *atoms, const uint8 *values,
		   int n, int arity)
{
	MemoryContext old;

	MemoryContextReset(cxt);
	memset(t, 0, sizeof(Tuples));
	old = MemoryContextSwitchTo(cxt);
	for (int i = 0; i < n; i++)
	{
		/* eight at a time past the zeros: a joint move sets two of chess.kif's 9,638 inputs */
		if (i % 8 == 0 && i + 8 <= n)
		{
			uint64		word;

			memcpy(&word, values + i, sizeof(word));
			if (word == 0)
			{
				i += 7;
				continue;
			}
		}
		if (values[i])
			tuples_insert(pv->g->terms, t, arity, atoms[i]);
	}
	MemoryContextSwitchTo(old);
}

/* Sets the n nodes to 0: at once when they are numbered one after the other (propnet_outputs numbers them so). */
static void
clear_nodes(uint8 *values, const int32 *nodes, int n)
{
	if (n > 0 && nodes[n - 1] - nodes[0] == n - 1)
		memset(values + nodes[0], 0, n);
	else
		for (int i = 0; i < n; i++)
			values[nodes[i]] = 0;
}

/*
 * A run that gave up leaves partial answers marked complete in every memo,
 * the static one included: all are forgotten, and the state and move too,
 * so that the next run starts afresh.
 */
static void
forget_run(Prover *pv)
{
	memo_reset(&pv->static_memo);
	memo_reset(&pv->state_memo);
	memo_reset(&pv->move_memo);
	MemoryContextReset(pv->state_cxt);
	MemoryContextReset(pv->move_cxt);
	memset(&pv->state, 0, sizeof(Tuples));
	memset(&pv->move, 0, sizeof(Tuples));
	pv->gave_up = false;
	pv->stamp++;
}

static void
run_phase(Prover *pv, const Propnet *net, ProverPhase phase, uint8 *values)
{
	const TermStore *ts = pv->g->terms;
	const Tuples *t;

	switch (phase)
	{
		case PHASE_TERMINAL:
			/* a new state */
			load_atoms(pv, &pv->state, pv->state_cxt, pv->base_atom, values, net->nbase, 1);
			memo_reset(&pv->state_memo);
			memcpy(pv->facts, values, net->nbase);
			pv->stamp++;
			/* a cache, dropped when it takes more than its share */
			if (MemoryContextMemAllocated(pv->compiled_cxt, true) > pv->memory_limit / COMPILED_SHARE)
				compiled_reset(pv);
			/*
			 * legal first, when terminal asks it (a player without a legal
			 * move is stuck): terminal's narrower questions are then read off
			 * its answers (answered_by_general), not joined again.  Perft on
			 * the prover: checkers.kif 1.48 times faster; chess.kif's random
			 * playouts 1.07 times
			 */
			if (pv->terminal_reads_legal)
				(void) answer_all(pv, pv->p->rel_legal);
			if (net->terminal >= 0)
				values[net->terminal] = answer_all(pv, pv->p->rel_terminal)->n > 0;
			break;
		case PHASE_LEGAL:
			/* a role has thousands of actions, a state a few dozen legal ones */
			t = answer_all(pv, pv->p->rel_legal);
			clear_nodes(values, net->input_legal, net->ninputs);
			for (int k = 0; k < t->n; k++)
			{
				int			input = tuples_find(&pv->legal_inputs, t->atoms[k]);

				if (input >= 0)
					values[net->input_legal[input]] = 1;
			}
			break;
		case PHASE_GOAL:
			t = answer_all(pv, pv->p->rel_goal);
			for (int i = 0; i < net->ngoals; i++)
				values[net->goals[i].node] = 0;
			for (int k = 0; k < t->n; k++)
			{
				TermId		role = term_arg(ts, t->atoms[k], 0);
				TermId		value = term_arg(ts, t->atoms[k], 1);
				int			number = term_node(ts, value)->kind == TERM_SYMBOL ?
					ts->number[term_functor(ts, value)] : -1;

				for (int i = 0; i < net->ngoals; i++)
					if (pv->roles[net->goals[i].role] == role && net->goals[i].value == number)
						values[net->goals[i].node] = 1;
			}
			break;
		case PHASE_MOVE:
			load_atoms(pv, &pv->move, pv->move_cxt, pv->input_atom, values + net->nbase,
					   net->ninputs, 2);
			memo_reset(&pv->move_memo);
			/* as legal: thousands of facts can hold, a state holds a few dozen */
			t = answer_all(pv, pv->p->rel_next);
			clear_nodes(values, net->base_next, net->nbase);
			for (int k = 0; k < t->n; k++)
			{
				int			base = tuples_find(&pv->next_atoms, t->atoms[k]);

				if (base >= 0)
					values[net->base_next[base]] = 1;
			}
			break;
		case NUM_PHASES:
			break;
	}
}

bool
prover_run(Prover *pv, const Propnet *net, ProverPhase phase, uint8 *values)
{
	if (gt_game_give_up())
		return false;
	if (pv->in_run)
	{
		/*
		 * The last run ended in an error (memory, stack depth, a cancel):
		 * its queries may be left running or half answered, the static
		 * ones included, and its compiled queries running.  All are
		 * forgotten, and the state is loaded again.
		 */
		forget_run(pv);
		compiled_reset(pv);
		pv->depth = 0;
		pv->compiled_depth = 0;
		pv->cycle = false;
		if (phase != PHASE_TERMINAL)
			run_phase(pv, net, PHASE_TERMINAL, values);
	}
	pv->in_run = true;
	run_phase(pv, net, phase, values);
	if (pv->cycle && !pv->gave_up)
	{
		/*
		 * A compiled query took part in a cycle, so its value may rest on
		 * partial answers: the game is evaluated by joins alone from now
		 * on, this state again from the start.
		 */
		pv->compile_off = true;
		pv->cycle = false;
		forget_run(pv);
		run_phase(pv, net, PHASE_TERMINAL, values);
		if (phase != PHASE_TERMINAL)
			run_phase(pv, net, phase, values);
	}
	pv->in_run = false;
	if (pv->gave_up)
	{
		forget_run(pv);
		return false;
	}
	return true;
}

static int
compare_term_ids(const void *a, const void *b)
{
	TermId		x = *(const TermId *) a;
	TermId		y = *(const TermId *) b;

	return x < y ? -1 : x > y;
}

/* A filtered argument with fewer values multiplies the compiled queries too little to matter. */
#define FILTER_MIN_VALUES 8

/* How many values each argument of a computed relation takes in its atoms (values[relation], made on first use). */
static const int32 *
argument_values(const Grounding *g, int relation, int32 **values)
{
	const TermStore *ts = g->terms;
	const Tuples *t = &g->tuples[relation];
	int			arity = g->program->relations[relation].arity;
	TermId	   *column;

	if (values[relation] != NULL)
		return values[relation];
	values[relation] = palloc0(Max(1, arity) * sizeof(int32));
	column = palloc(Max(1, t->n) * sizeof(TermId));
	for (int a = 0; a < arity; a++)
	{
		for (int k = 0; k < t->n; k++)
			column[k] = term_arg(ts, t->atoms[k], a);
		qsort(column, t->n, sizeof(TermId), compare_term_ids);
		for (int k = 0; k < t->n; k++)
			values[relation][a] += k == 0 || column[k] != column[k - 1];
	}
	pfree(column);
	return values[relation];
}

/*
 * Whether static literal lit, whose relation grounding computed, only
 * filters variable v, and v takes enough values for its compiled queries
 * to be many: every argument a variable of its own, three quarters of the
 * combinations of the values its arguments take hold (for a value of v,
 * most values of the others pass), and v takes FILTER_MIN_VALUES values
 * or more.  (different_cells ?cx ?cy ?u ?v) holds for all squares but
 * one, 16 values of ?cx (files and ranks); (next_file ?u ?u2) gives ?u2
 * from ?u, a generator; (opponent ?owner ?opponent) holds for half of
 * the pairs, but of two roles: one gives the other.
 */
static bool
weak_filter(const Grounding *g, const Literal *lit, int v, int32 **values)
{
	const TermStore *ts = g->terms;
	const Tuples *t = &g->tuples[lit->relation];
	int			arity = term_arity(ts, lit->atom);
	const int32 *distinct = argument_values(g, lit->relation, values);
	double		combinations = 1;
	int			values_of_v = 0;

	for (int a = 0; a < arity; a++)
	{
		const TermNode *arg = term_node(ts, term_arg(ts, lit->atom, a));

		if (arg->kind != TERM_VARIABLE)
			return false;
		for (int b = 0; b < a; b++)
			if (term_arg(ts, lit->atom, b) == term_arg(ts, lit->atom, a))
				return false;
		combinations *= distinct[a];
		if (arg->name == v)
			values_of_v = distinct[a];
	}
	return t->n >= 0.75 * combinations && values_of_v >= FILTER_MIN_VALUES;
}

/*
 * The relations with an argument that every rule reads only in weak static
 * filters (weak_filter, distinct): a variable of the head that no literal
 * of the state reads.  Compiled, each value of it is a query of its own
 * that repeats the instances of the others but for the filter, compiled
 * anew and asked in few states; joined, the questions its rules ask of the
 * state leave it out, and are answered once a state for every value.
 * chess.kif's (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ignorex
 * ?ignorey): the captured square ?cx ?cy only tells which attacker does not
 * count ((different_cells ?cx ?cy ?u ?v)); compiled, some 210 instances
 * (an attacker's square and the line from there), 50 us, for each capture
 * a state asks anew; joined, the threats to the king's square ignoring the
 * square left are asked once a state for every capture.  Its random
 * playouts (15 games of seed 1, the builds alternated three times): 3,139
 * to 3,220 moves/s against 2,460 to 2,521.  No relation of the other
 * sample files the prover takes (at the smallest gametree.gdl_memory that
 * puts them there) has such an argument.
 */
static bool *
filtered_relations(const Grounding *g)
{
	const Program *p = g->program;
	bool	   *filtered = palloc0(Max(1, p->nrelations) * sizeof(bool));
	int32	  **values = palloc0(Max(1, p->nrelations) * sizeof(int32 *));

	for (int r = 0; r < p->nrelations; r++)
	{
		const Relation *rel = &p->relations[r];

		for (int a = 0; a < rel->arity && !filtered[r] && rel->dynamic; a++)
		{
			bool		only_filters = rel->nrules > 0;

			for (int k = 0; k < rel->nrules && only_filters; k++)
			{
				const Rule *rule = &p->rules[rel->rules[k]];
				const TermNode *arg = term_node(p->terms, term_arg(p->terms, rule->head, a));
				bool	   *read = palloc(Max(1, rule->nvariables) * sizeof(bool));

				only_filters = arg->kind == TERM_VARIABLE;
				for (int i = 0; i < rule->nbody && only_filters; i++)
				{
					const Literal *lit = &rule->body[i];

					if (lit->kind == LIT_DISTINCT)
						continue;
					memset(read, 0, Max(1, rule->nvariables) * sizeof(bool));
					term_mark_variables(p->terms, lit->atom, read);
					if (!read[arg->name])
						continue;
					only_filters = lit->kind == LIT_POSITIVE && !p->relations[lit->relation].dynamic &&
						lit->relation != p->rel_true && lit->relation != p->rel_does &&
						(g->computed == NULL || g->computed[lit->relation]) &&
						weak_filter(g, lit, arg->name, values);
				}
				pfree(read);
			}
			filtered[r] = only_filters;
		}
	}
	for (int r = 0; r < p->nrelations; r++)
		if (values[r] != NULL)
			pfree(values[r]);
	pfree(values);
	return filtered;
}

/*
 * The groups of the relations whose ground queries are compiled (see
 * GroupReach), none when a filter of theirs is not in a table.
 */
static void
share_groups(Prover *pv)
{
	const Program *p = pv->p;
	bool	   *compiled = palloc0(Max(1, p->nrelations) * sizeof(bool));

	for (int r = 0; r < p->nrelations; r++)
		compiled[r] = compiled_relation(pv, r);
	pv->passing = passthrough_groups(p, pv->unfolded, compiled);
	pv->filter_values = palloc0(Max(1, pv->passing.nfilters) * sizeof(Tuples));
	for (int k = 0; k < pv->passing.nfilters; k++)
	{
		int			f = pv->passing.filter_relation[k];

		if (!materialized(pv, f))
		{
			/* its values are not in a table: the groups it filters are left alone */
			for (int r = 0; r < p->nrelations; r++)
				if (pv->passing.filters[r] & ((uint32) 1 << k))
					pv->passing.group[r] = 0;
			continue;
		}
		for (int i = 0; i < pv->g->tuples[f].n; i++)
			tuples_insert(pv->g->terms, &pv->filter_values[k], 0, term_arg(pv->g->terms, pv->g->tuples[f].atoms[i], 0));
	}
	pfree(compiled);
}

Prover *
prover_create(Grounding *g, const Propnet *net, const TermId *roles)
{
	Prover	   *pv = palloc0(sizeof(Prover));
	Program    *p = g->program;
	Size		dense_memory = 0;

	pv->g = g;
	pv->memory_limit = g->memory_limit;
	pv->p = p;
	pv->unfolded = unfolded_rules(p);
	pv->state_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL state",
										  ALLOCSET_DEFAULT_SIZES);
	pv->move_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL move",
										 ALLOCSET_DEFAULT_SIZES);
	pv->state_memo.cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL state queries",
											   ALLOCSET_DEFAULT_SIZES);
	pv->move_memo.cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL move queries",
											  ALLOCSET_DEFAULT_SIZES);
	pv->static_memo.cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL static queries",
												ALLOCSET_DEFAULT_SIZES);
	memo_reset(&pv->static_memo);
	memo_reset(&pv->state_memo);
	memo_reset(&pv->move_memo);
	pv->compiled_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree GDL compiled queries",
											 ALLOCSET_DEFAULT_SIZES);
	compiled_reset(pv);
	pv->stack_room = 64;
	pv->stack = palloc(pv->stack_room * sizeof(Call *));
	pv->roles = palloc(net->nroles * sizeof(TermId));
	memcpy(pv->roles, roles, net->nroles * sizeof(TermId));

	/*
	 * Static relations of symbols looked up whole by a dense membership
	 * (join.h), within a sixteenth of the memory: chess.kif's frame rule
	 * asks (different_cells ?x ?y ?x1 ?y1), 65,280 atoms, twice for each
	 * of 64 cells in every state.
	 */
	for (int r = 0; r < p->nrelations && dense_memory < pv->memory_limit / 16; r++)
		if (materialized(pv, r))
			dense_memory += tuples_make_dense(g->terms, &g->tuples[r], p->relations[r].arity,
											  pv->memory_limit / 16 - dense_memory);

	/* relations whose answers change with the move */
	pv->uses_does = program_depends_on(p, p->rel_does);
	pv->joined_only = filtered_relations(g);
	share_groups(pv);
	pv->terminal_reads_legal = program_depends_on(p, p->rel_legal)[p->rel_terminal];

	pv->base_atom = palloc(Max(1, net->nbase) * sizeof(TermId));
	for (int i = 0; i < net->nbase; i++)
	{
		pv->base_atom[i] = term_function(g->terms, p->kw.true_, 1, &net->base_terms[i]);
		tuples_insert(g->terms, &pv->next_atoms, 1, term_function(g->terms, p->kw.next, 1, &net->base_terms[i]));
	}
	/* base node i is atom i of the domain */
	pv->facts = palloc0(Max(1, net->nbase));
	for (int i = 0; i < net->nbase; i++)
		tuples_insert(g->terms, &pv->domain, 1, pv->base_atom[i]);
	pv->input_atom = palloc(Max(1, net->ninputs) * sizeof(TermId));
	for (int r = 0; r < net->nroles; r++)
		for (int i = net->role_inputs[r]; i < net->role_inputs[r + 1]; i++)
		{
			TermId		args[2] = {roles[r], net->input_terms[i]};

			pv->input_atom[i] = term_function(g->terms, p->kw.does, 2, args);
			tuples_insert(g->terms, &pv->legal_inputs, 2, term_function(g->terms, p->kw.legal, 2, args));
		}
	return pv;
}
