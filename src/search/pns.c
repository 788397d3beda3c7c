/*
 * pns.c: proof-number search over the game interface (pns.h tells the
 * method).  Positions live in one growing array, found by their hash in
 * an open-addressing index and told apart by their bytes, which are kept
 * one after another in blocks; their children in one more array, as
 * indexes in the order of the moves that lead to them (the moves are
 * generated again where they are needed).  Everything is in a memory
 * context of the search's own, inside the caller's, measured against the
 * memory limit as positions are added: about 130 bytes a position of
 * connect four.
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "search/pns.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/* How much further than the second-best child a child's threshold reaches (df-pn's 1+epsilon). */
#define PNS_EPSILON 0.25

/* Bytes of the blocks that hold the positions' bytes. */
#define PNS_STATE_BLOCK (1024 * 1024)

/* Expansions between two looks at the clock. */
#define PNS_CLOCK_EVERY 256

/*
 * Memory: the search stops to collect (collect()) at three quarters of its
 * limit and keeps at most a quarter, so that the copy of what it keeps
 * fits beside what it had.
 */
#define PNS_COLLECT_AT(memory) ((memory) / 4 * 3)
#define PNS_KEEP(memory) ((memory) / 4)

/* Collections in a row that found no new bound before the search gives up. */
#define PNS_BARREN_COLLECTIONS 2

/*
 * Known bounds take at most an eighth of the memory: past it, those found
 * most cheaply are let go.  A known row keeps, above its bounds, the bits
 * of the work that found them (KNOWN_COST_MAX: the store's, kept longest).
 */
#define PNS_KNOWN_ROOM(memory) ((memory) / 8)
#define KNOWN_COST_SHIFT 16
#define KNOWN_COST_MAX 33
#define KNOWN_COST(row) ((row) >> KNOWN_COST_SHIFT)

/* A position's role to move: the first role maximizes the value, the second minimizes it. */
#define MOVER_TERMINAL (-1)

typedef struct PnsNode
{
	uint64		hash;
	GameState  *state;
	int64		first;			/* its children's place in child[]; -1: not expanded */
	int32		nchildren;
	int8		mover;			/* 0 or 1, MOVER_TERMINAL */
	int8		lo;				/* bounds on its value, the first role's goal */
	int8		hi;
	bool		on_path;		/* on the search's path now */
	int8		threshold;		/* the t its numbers are for; -1: none yet */
	uint8		nmoves;			/* its moves, at most 255 counted: its first numbers */
	uint32		proof;
	uint32		disproof;
	int32		parent;			/* the position whose moves found it first; -1: the root */
	uint32		work;			/* expansions its searches made: what letting it go would cost */
	/* What the store holds of it (PnsStore): its bounds and whether its moves' positions. */
	int8		written_lo;
	int8		written_hi;
	bool		written_expansion;
} PnsNode;

typedef struct Pns
{
	const Game *game;
	const PnsLimits *limits;
	const PnsStore *store;		/* NULL: none */
	MemoryContext cxt;			/* everything, measured against the memory limit */
	MemoryContext nodes_cxt;	/* in it, the positions, which collect() replaces */
	MemoryContext outer;		/* the caller's: changes reported to the store */
	IdIndex    *known;			/* bounds known of positions not kept: the store's, and collect()'s */
	TimestampTz next_write;
	PnsResult  *result;
	PnsNode    *nodes;
	int32		nnodes;
	int32		maxnodes;
	int32	   *slots;			/* index of nodes by hash: node + 1, 0 empty */
	int64		nslots;			/* a power of two, at least twice nnodes; 0: no index yet */
	int32	   *child;
	int64		nchild;
	int64		maxchild;
	char	   *block;			/* where the next position's bytes go */
	Size		block_left;
	GameMove   *moves;			/* room for the moves of the position expanded */
	GameMove   *counted;		/* and of a new one, counted */
	GameState  *scratch;
	int			t;				/* the search's: "the first role gets at least t" */
	int64		expanded;
	int			barren;			/* collections in a row that found no new bound */
	PnsStop		stop;
} Pns;

#define NODE(p, i) (&(p)->nodes[i])

/*
 * Ereports (0A000) unless proof-number search values game: one or two
 * roles (the checks of goals and of simultaneous moves come as positions
 * are met).
 */
static void
check_game(const Game *game)
{
	if (game->nroles > 2)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("proof-number search proves games of one or two roles, and %s has %d", game->name,
						game->nroles),
				 errdetail("With more roles a position's value is max^n's, which depends on how roles break "
						   "ties: no proof of a bound settles it."),
				 errhint("gametree.grow and gametree.propagate value such games in full.")));
}

const char *
pns_stop_name(PnsStop stop)
{
	switch (stop)
	{
		case PNS_DONE:
			return "proven";
		case PNS_TIME:
			return "time_limit";
		case PNS_MAX_STATES:
			return "max_states";
		case PNS_MEMORY:
			return "memory";
		case PNS_CYCLES:
			return "cycles";
	}
	return "?";
}

static uint32
saturating_add(uint32 a, uint32 b)
{
	return a >= PNS_INFINITE - b ? PNS_INFINITE : a + b;
}

/* The position's value for the boolean search: proven, disproven, or neither. */
static bool
proven_for(const PnsNode *node, int t)
{
	return node->lo >= t;
}

static bool
disproven_for(const PnsNode *node, int t)
{
	return node->hi < t;
}

/* The limits, looked at as a position is added; sets p->stop. */
static bool
out_of_limits(Pns *p)
{
	if (p->stop != PNS_DONE)
		return true;
	if (p->limits->max_states > 0 && p->nnodes >= p->limits->max_states)
		p->stop = PNS_MAX_STATES;
	else if (MemoryContextMemAllocated(p->cxt, true) > PNS_COLLECT_AT(p->limits->memory))
		p->stop = PNS_MEMORY;
	else if (p->limits->deadline != 0 && p->expanded % PNS_CLOCK_EVERY == 0 &&
			 GetCurrentTimestamp() >= p->limits->deadline)
		p->stop = PNS_TIME;
	return p->stop != PNS_DONE;
}

static void
grow_index(Pns *p)
{
	int64		nslots = Max(1024, 2 * p->nslots);
	int32	   *slots = MemoryContextAllocHuge(p->nodes_cxt, nslots * sizeof(int32));

	memset(slots, 0, nslots * sizeof(int32));
	for (int32 i = 0; i < p->nnodes; i++)
	{
		int64		s = NODE(p, i)->hash & (nslots - 1);

		while (slots[s] != 0)
			s = (s + 1) & (nslots - 1);
		slots[s] = i + 1;
	}
	if (p->slots != NULL)
		pfree(p->slots);
	p->slots = slots;
	p->nslots = nslots;
}

/*
 * A new position: its bounds exact when it is an end, else those known of
 * it (PnsStore) or none; its numbers fresh.
 */
static void
init_node(Pns *p, PnsNode *node, int32 parent)
{
	const Game *game = p->game;
	const GameState *state = node->state;
	int32		known;

	node->first = -1;
	node->nchildren = 0;
	node->on_path = false;
	node->threshold = -1;
	node->proof = node->disproof = 1;
	node->parent = parent;
	node->work = 0;
	node->written_expansion = false;
	if (game->terminal(game, state))
	{
		int			goals[GT_MAX_ROLES];

		game->goals(game, state, goals);
		if (game->nroles == 2 && goals[0] + goals[1] != GT_GOAL_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("proof-number search proves games whose two roles' goals sum to %d, and an end "
							"of %s gives %d and %d", GT_GOAL_MAX, game->name, goals[0], goals[1]),
					 errdetail("Where the goals do not sum to %d, each role maximizes its own, and a value "
							   "is max^n's, which depends on how roles break ties.", GT_GOAL_MAX),
					 errhint("gametree.grow and gametree.propagate value such games in full.")));
		node->mover = MOVER_TERMINAL;
		node->lo = node->hi = (int8) goals[0];
		return;
	}
	known = id_index_find(p->known, (int64) node->hash);
	node->lo = known < 0 ? GT_GOAL_MIN : PNS_KNOWN_LO(known);
	node->hi = known < 0 ? GT_GOAL_MAX : PNS_KNOWN_HI(known);
	/* Known bounds are the store's, which holds their position's moves' positions too (PnsStore). */
	node->written_lo = node->lo;
	node->written_hi = node->hi;
	node->written_expansion = known >= 0;
	if (game->nroles == 1)
		node->mover = 0;
	else
	{
		int			mover = game->control(game, state);

		if (mover == GT_NO_ROLE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("proof-number search proves games whose roles take turns, and in a position of %s "
							"both move at once", game->name),
					 errdetail("Where roles move at once, a position's value is that of mixed strategies."),
					 errhint("gametree.grow and gametree.propagate value such games in full.")));
		node->mover = (int8) mover;
	}
	node->nmoves = (uint8) Min(game->legal(game, state, p->counted), PG_UINT8_MAX);
}

/* A copy of state, in the current block. */
static GameState *
keep_state(Pns *p, const GameState *state)
{
	Size		size = MAXALIGN(offsetof(GameState, data) + state->size);
	GameState  *kept;

	if (size > p->block_left)
	{
		p->block = MemoryContextAlloc(p->nodes_cxt, PNS_STATE_BLOCK);
		p->block_left = PNS_STATE_BLOCK;
	}
	kept = (GameState *) p->block;
	gt_state_copy(kept, state);
	p->block += size;
	p->block_left -= size;
	return kept;
}

/* Room for one more position, at p->nnodes (the caller counts it). */
static PnsNode *
new_node(Pns *p)
{
	if (p->nnodes == p->maxnodes)
	{
		if (p->maxnodes >= PG_INT32_MAX / 2)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("proof-number search keeps at most %d positions", PG_INT32_MAX / 2),
					 errhint("Give a max_states.")));
		p->maxnodes = Max(1024, 2 * p->maxnodes);
		p->nodes = p->nodes == NULL ?
			MemoryContextAllocHuge(p->nodes_cxt, p->maxnodes * sizeof(PnsNode)) :
			repalloc_huge(p->nodes, p->maxnodes * sizeof(PnsNode));
	}
	return NODE(p, p->nnodes);
}

/* Room for n more children in child[]. */
static void
reserve_children(Pns *p, int n)
{
	if (p->nchild + n > p->maxchild)
	{
		p->maxchild = Max(Max(4096, 2 * p->maxchild), p->nchild + n);
		p->child = p->child == NULL ? MemoryContextAllocHuge(p->nodes_cxt, p->maxchild * sizeof(int32)) :
			repalloc_huge(p->child, p->maxchild * sizeof(int32));
	}
}

/* The position's index, added when it is new (a copy of state), found by parent's moves. */
static int32
find_or_add(Pns *p, const GameState *state, int32 parent)
{
	uint64		hash = gt_state_hash(p->game, state);
	int64		s;
	PnsNode    *node;

	if (2 * (p->nnodes + 1) > p->nslots)
		grow_index(p);
	for (s = hash & (p->nslots - 1); p->slots[s] != 0; s = (s + 1) & (p->nslots - 1))
	{
		node = NODE(p, p->slots[s] - 1);
		if (node->hash == hash && node->state->size == state->size &&
			memcmp(node->state->data, state->data, state->size) == 0)
			return p->slots[s] - 1;
	}
	node = new_node(p);
	node->hash = hash;
	node->state = keep_state(p, state);
	init_node(p, node, parent);
	p->slots[s] = ++p->nnodes;
	return p->nnodes - 1;
}

static void write_changes(Pns *p);

/* Generates the position's moves and finds or adds the positions they lead to. */
static void
expand(Pns *p, int32 n)
{
	const Game *game = p->game;
	int			nmoves;
	int64		first;

	if (out_of_limits(p))
		return;
	nmoves = game->legal(game, NODE(p, n)->state, p->moves);
	if (nmoves <= 0 || nmoves > game->max_moves)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("game %s gave %d moves in a position that is not an end", game->name, nmoves)));
	reserve_children(p, nmoves);
	first = p->nchild;
	for (int i = 0; i < nmoves; i++)
	{
		game->next(game, NODE(p, n)->state, p->moves[i], p->scratch);
		p->child[first + i] = find_or_add(p, p->scratch, n);
	}
	p->nchild += nmoves;
	NODE(p, n)->first = first;
	NODE(p, n)->nchildren = nmoves;
	p->expanded++;
	if (p->store != NULL && p->expanded % PNS_CLOCK_EVERY == 0 && GetCurrentTimestamp() >= p->next_write)
		write_changes(p);
}

/* A position's numbers in the search for p->t, as it stands: 1 and 1 when new to this search. */
static void
own_numbers(const Pns *p, const PnsNode *node, uint32 *proof, uint32 *disproof)
{
	if (proven_for(node, p->t))
	{
		*proof = 0;
		*disproof = PNS_INFINITE;
	}
	else if (disproven_for(node, p->t))
	{
		*proof = PNS_INFINITE;
		*disproof = 0;
	}
	else if (node->threshold == p->t)
	{
		*proof = node->proof;
		*disproof = node->disproof;
	}
	else
	{
		/*
		 * New to this search: to prove what needs all its moves, as many as
		 * it has (mobility initialization, as in Allis's proof-number
		 * search); what needs one of them, one.
		 */
		*proof = node->mover == 0 ? 1 : Max(node->nmoves, 1);
		*disproof = node->mover == 0 ? Max(node->nmoves, 1) : 1;
	}
}

/*
 * A child's numbers: on the path, neither provable nor disprovable through
 * it (infinite both), so that no proof goes round a cycle.  Numbers made
 * so are kept for the rest of the search: on another path they may keep
 * it from a proof (it then says so), never give a wrong one.
 */
static void
child_numbers(const Pns *p, const PnsNode *c, uint32 *proof, uint32 *disproof)
{
	if (c->on_path && !proven_for(c, p->t) && !disproven_for(c, p->t))
		*proof = *disproof = PNS_INFINITE;
	else
		own_numbers(p, c, proof, disproof);
}

/*
 * The number of a position that needs all its children (weak proof-number
 * search): the largest child's, plus one per other child not yet 0.
 */
static uint32
all_of(uint32 largest, int nonzero)
{
	if (nonzero == 0)
		return 0;
	return saturating_add(largest, (uint32) (nonzero - 1));
}

/*
 * The position's bounds and numbers from its children's, stored in it;
 * the child to search next (-1: none can be) with its numbers, and the
 * second-best number of the kind the position takes the least of.
 */
static void
evaluate(Pns *p, int32 n, int32 *best, uint32 *best_proof, uint32 *best_disproof, uint32 *second)
{
	PnsNode    *node = NODE(p, n);
	bool		maximizer = node->mover == 0;
	int			lo = maximizer ? GT_GOAL_MIN : GT_GOAL_MAX;
	int			hi = lo;
	uint32		least = PNS_INFINITE;	/* the smallest proof (maximizer) or disproof number */
	uint32		largest = 0;	/* the largest of the other kind */
	int			nonzero = 0;

	*best = -1;
	*best_proof = *best_disproof = PNS_INFINITE;
	*second = PNS_INFINITE;
	if (node->mover == MOVER_TERMINAL || node->first < 0)
	{
		uint32		proof,
					disproof;

		own_numbers(p, node, &proof, &disproof);
		node->proof = proof;
		node->disproof = disproof;
		node->threshold = (int8) p->t;
		return;
	}
	for (int32 k = 0; k < node->nchildren; k++)
	{
		const PnsNode *c = NODE(p, p->child[node->first + k]);
		uint32		proof,
					disproof,
					mine,
					other;

		/* Minimax of the bounds: the mover picks, the first role the largest. */
		lo = maximizer ? Max(lo, c->lo) : Min(lo, c->lo);
		hi = maximizer ? Max(hi, c->hi) : Min(hi, c->hi);
		child_numbers(p, c, &proof, &disproof);
		mine = maximizer ? proof : disproof;
		other = maximizer ? disproof : proof;
		if (mine < least || *best < 0)
		{
			*second = least;
			least = mine;
			*best = p->child[node->first + k];
			*best_proof = proof;
			*best_disproof = disproof;
		}
		else if (mine < *second)
			*second = mine;
		if (other != 0)
		{
			nonzero++;
			largest = Max(largest, other);
		}
	}
	/* Bounds only narrow: those it had (known before its children were found again) stay true. */
	node->lo = (int8) Max(node->lo, lo);
	node->hi = (int8) Min(node->hi, hi);
	node->threshold = (int8) p->t;
	if (proven_for(node, p->t))
	{
		node->proof = 0;
		node->disproof = PNS_INFINITE;
	}
	else if (disproven_for(node, p->t))
	{
		node->proof = PNS_INFINITE;
		node->disproof = 0;
	}
	else if (maximizer)
	{
		node->proof = least;
		node->disproof = all_of(largest, nonzero);
	}
	else
	{
		node->proof = all_of(largest, nonzero);
		node->disproof = least;
	}
	/* A child on the path is no choice. */
	if (*best >= 0 && NODE(p, *best)->on_path)
		*best = -1;
}

/* A child's threshold of the kind its parent takes the least of: a bit past the second best. */
static uint32
beyond_second(uint32 threshold, uint32 child, uint32 second)
{
	uint32		reach = second == PNS_INFINITE ? PNS_INFINITE :
		(uint32) Min((double) PNS_INFINITE - 1, ceil(second * (1.0 + PNS_EPSILON)));

	return Min(threshold, Max(saturating_add(child, 1), reach));
}

/*
 * Searches below position n until its proof number reaches proof_limit
 * or its disproof number disproof_limit (df-pn's multiple iterative
 * deepening), or a limit stops the search.
 */
static void
search(Pns *p, int32 n, uint32 proof_limit, uint32 disproof_limit)
{
	int64		expanded_before = p->expanded;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (NODE(p, n)->mover != MOVER_TERMINAL && NODE(p, n)->first < 0)
		expand(p, n);
	NODE(p, n)->on_path = true;
	for (;;)
	{
		int32		best;
		uint32		best_proof,
					best_disproof,
					second,
					proof,
					disproof;
		PnsNode    *node;

		evaluate(p, n, &best, &best_proof, &best_disproof, &second);
		node = NODE(p, n);
		if (p->stop != PNS_DONE || node->proof >= proof_limit || node->disproof >= disproof_limit ||
			best < 0)
			break;
		if (node->mover == 0)
		{
			proof = beyond_second(proof_limit, best_proof, second);
			/* The parent's disproof number is at least the child's: the difference is what others add. */
			disproof = disproof_limit - (node->disproof - best_disproof);
		}
		else
		{
			disproof = beyond_second(disproof_limit, best_disproof, second);
			proof = proof_limit - (node->proof - best_proof);
		}
		search(p, best, proof, disproof);
	}
	NODE(p, n)->on_path = false;
	NODE(p, n)->work = saturating_add(NODE(p, n)->work,
									  (uint32) Min(p->expanded - expanded_before, PNS_INFINITE));
}

/*
 * The index among its children of the mover's best: one whose position
 * keeps the position's value when it is proven (for the first role, a
 * child whose value is at least it; for the second, at most), else the
 * one with the best bounds; -1 when it has none.
 */
static int
best_child(const Pns *p, const PnsNode *node)
{
	int			chosen = -1;

	for (int32 k = 0; k < node->nchildren; k++)
	{
		const PnsNode *c = NODE(p, p->child[node->first + k]);
		const PnsNode *b = chosen < 0 ? NULL : NODE(p, p->child[node->first + chosen]);

		if (node->mover == 0 ?
			(b == NULL || c->lo > b->lo || (c->lo == b->lo && c->hi > b->hi)) :
			(b == NULL || c->hi < b->hi || (c->hi == b->hi && c->lo < b->lo)))
			chosen = k;
	}
	return chosen;
}

/* The move to a child (they are in the order of the moves); GT_NO_MOVE for -1. */
static GameMove
move_to(const Pns *p, const PnsNode *node, int k)
{
	if (k < 0)
		return GT_NO_MOVE;
	(void) p->game->legal(p->game, node->state, p->moves);
	return p->moves[k];
}

/* Where the search stands, for the store's reports and the caller. */
static void
fill_result(const Pns *p, PnsResult *result)
{
	const PnsNode *root = NODE(p, 0);

	result->proven = root->lo == root->hi;
	result->lo = root->lo;
	result->hi = root->hi;
	result->states = p->nnodes;
	result->expanded = p->expanded;
	result->threshold = p->t;
	result->proof = root->threshold >= 0 ? root->proof : PNS_INFINITE;
	result->disproof = root->threshold >= 0 ? root->disproof : PNS_INFINITE;
}

/* Moves reported to the store at once, at most (claims go all at once: write_changes). */
#define PNS_WRITE_CHUNK 65536

/* What a write reports of a position. */
#define WRITE_NONE 0
#define WRITE_PATH 1			/* its moves: a claim below is reached through them */
#define WRITE_CLAIM 2			/* its moves and its bounds */

/*
 * The work (expansions) of a position whose proof a write stores before
 * the root's needs it: storing a position costs some hundred times what
 * finding it again does, so only costly proofs are kept on the way.
 */
#define PNS_WRITE_WORK 8192

/* A position whose bounds (or moves) the store lacks. */
static bool
unwritten_claim(const PnsNode *node)
{
	return node->mover != MOVER_TERMINAL && (node->lo > GT_GOAL_MIN || node->hi < GT_GOAL_MAX) &&
		(node->lo != node->written_lo || node->hi != node->written_hi || !node->written_expansion);
}

/*
 * Marks start and what its bounds rest on as claims, down to what the
 * store has: a bound the mover reaches through one child (its best),
 * that child's; a bound every child keeps, every child's.  stack has
 * room for every position.
 */
static void
mark_proof(const Pns *p, int32 start, uint8 *kinds, int32 *stack)
{
	int64		top = 0;

	kinds[start] = WRITE_CLAIM;
	stack[top++] = start;
	while (top > 0)
	{
		const PnsNode *node = NODE(p, stack[--top]);
		bool		maximizer = node->mover == 0;
		bool		through_one = maximizer ? node->lo > GT_GOAL_MIN : node->hi < GT_GOAL_MAX;
		bool		through_all = maximizer ? node->hi < GT_GOAL_MAX : node->lo > GT_GOAL_MIN;
		int			one;

		if (node->first < 0)
			continue;
		one = through_one ? best_child(p, node) : -1;
		for (int32 k = 0; k < node->nchildren; k++)
		{
			int32		c = p->child[node->first + k];

			if ((through_all || k == one) && kinds[c] != WRITE_CLAIM && unwritten_claim(NODE(p, c)))
			{
				kinds[c] = WRITE_CLAIM;
				stack[top++] = c;
			}
		}
	}
}

/*
 * Marks in kinds what a write reports: the proof of the root's bounds,
 * and the proofs of the costly positions narrowed since the last write
 * with the moves that first led to each; and the root.  Positions the
 * search only went through, or proved cheaply and needs no more, are left
 * out: the rules find them again far faster than a store writes them.
 */
static void
mark_wanted(const Pns *p, uint8 *kinds)
{
	int32	   *stack = MemoryContextAllocExtended(p->outer, p->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);

	if (NODE(p, 0)->mover != MOVER_TERMINAL)
		mark_proof(p, 0, kinds, stack);
	for (int32 i = 1; i < p->nnodes; i++)
	{
		const PnsNode *node = NODE(p, i);

		if (kinds[i] == WRITE_CLAIM || node->work < PNS_WRITE_WORK || !unwritten_claim(node))
			continue;
		mark_proof(p, i, kinds, stack);
		for (int32 j = node->parent; j >= 0 && kinds[j] == WRITE_NONE && !NODE(p, j)->written_expansion;
			 j = NODE(p, j)->parent)
			kinds[j] = WRITE_PATH;
	}
	pfree(stack);
}

/*
 * The order in which the store can expand the positions kinds marks
 * (levels): breadth first from the root and from the positions whose
 * moves it has, through those it has or is given.  A position reached no
 * other way comes last (PG_INT32_MAX).
 */
static int32 *
write_levels(const Pns *p, const uint8 *kinds)
{
	int32	   *level = MemoryContextAllocExtended(p->outer, p->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *queue = MemoryContextAllocExtended(p->outer, p->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);
	int64		head = 0,
				tail = 0;

	for (int32 i = 0; i < p->nnodes; i++)
	{
		level[i] = PG_INT32_MAX;
		if (i == 0 || NODE(p, i)->written_expansion)
		{
			level[i] = 0;
			queue[tail++] = i;
		}
	}
	while (head < tail)
	{
		const PnsNode *node = NODE(p, queue[head]);
		int32		next = level[queue[head++]] + 1;

		if (node->first < 0 || (kinds[queue[head - 1]] == WRITE_NONE && !node->written_expansion))
			continue;
		for (int32 k = 0; k < node->nchildren; k++)
		{
			int32		c = p->child[node->first + k];

			if (level[c] == PG_INT32_MAX)
			{
				level[c] = next;
				queue[tail++] = c;
			}
		}
	}
	pfree(queue);
	return level;
}

/* A position to report and its write level (write_levels). */
typedef struct Wanted
{
	int32		level;
	int32		index;
} Wanted;

static int
by_write_level(const void *a, const void *b)
{
	const Wanted *x = a;
	const Wanted *y = b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Hands n changes to the store and takes its answer into their positions. */
static void
report(Pns *p, PnsChange *changes, const int32 *which, int n)
{
	if (n == 0)
		return;
	p->store->write(p->store->arg, changes, n, p->result);
	for (int k = 0; k < n; k++)
		if (changes[k].written)
		{
			PnsNode    *node = NODE(p, which[k]);

			if (changes[k].claim)
			{
				node->written_lo = (int8) changes[k].lo;
				node->written_hi = (int8) changes[k].hi;
			}
			node->written_expansion |= changes[k].expanded;
		}
}

static void
fill_change(const Pns *p, PnsChange *c, int32 i, int32 level, bool claim)
{
	const PnsNode *node = NODE(p, i);

	c->hash = node->hash;
	c->state = node->state;
	c->level = level;
	c->root = i == 0;
	c->claim = claim;
	/* A claim's moves were reported before: the store has them unless it could not take them. */
	c->expanded = node->first >= 0 && !(claim && node->written_expansion);
	c->lo = node->lo;
	c->hi = node->hi;
	c->threshold = node->threshold;
	c->proof = node->proof;
	c->disproof = node->disproof;
	c->best = claim && node->lo == node->hi && node->first >= 0 ?
		move_to(p, node, best_child(p, node)) : GT_NO_MOVE;
	c->written = false;
}

/*
 * Reports to the store the positions mark_wanted picks, as they are now
 * (PnsChange): first their moves, by write level (each report can be
 * stored once those before it are), in chunks; then every claim at once,
 * so that the store can take them all or none, and no claim it keeps
 * rests on one it could not.  Ends are the store's with the moves that
 * lead to them.
 */
static void
write_changes(Pns *p)
{
	MemoryContext old = MemoryContextSwitchTo(p->outer);
	uint8	   *kinds = MemoryContextAllocExtended(p->outer, p->nnodes, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	int32	   *level;
	Wanted	   *wanted;
	PnsChange  *changes;
	int32	   *which;
	int64		nwanted = 0;
	int64		nclaims = 0;
	int			n = 0;

	fill_result(p, p->result);
	mark_wanted(p, kinds);
	level = write_levels(p, kinds);
	for (int32 i = 0; i < p->nnodes; i++)
	{
		nwanted += kinds[i] != WRITE_NONE;
		nclaims += kinds[i] == WRITE_CLAIM;
	}
	wanted = MemoryContextAllocExtended(p->outer, Max(nwanted, 1) * sizeof(Wanted), MCXT_ALLOC_HUGE);
	nwanted = 0;
	for (int32 i = 0; i < p->nnodes; i++)
		if (kinds[i] != WRITE_NONE)
			wanted[nwanted++] = (Wanted) {level[i], i};
	qsort(wanted, nwanted, sizeof(Wanted), by_write_level);
	changes = MemoryContextAllocExtended(p->outer, Max(Max(Min(nwanted, PNS_WRITE_CHUNK), nclaims), 1) *
										 sizeof(PnsChange), MCXT_ALLOC_HUGE);
	which = MemoryContextAllocExtended(p->outer, Max(Max(Min(nwanted, PNS_WRITE_CHUNK), nclaims), 1) *
									   sizeof(int32), MCXT_ALLOC_HUGE);
	for (int64 w = 0; w < nwanted; w++)
	{
		if (n == PNS_WRITE_CHUNK)
		{
			report(p, changes, which, n);
			n = 0;
		}
		which[n] = wanted[w].index;
		fill_change(p, &changes[n++], wanted[w].index, wanted[w].level, false);
	}
	report(p, changes, which, n);
	n = 0;
	for (int64 w = 0; w < nwanted; w++)
		if (kinds[wanted[w].index] == WRITE_CLAIM)
		{
			which[n] = wanted[w].index;
			fill_change(p, &changes[n++], wanted[w].index, wanted[w].level, true);
		}
	report(p, changes, which, n);
	pfree(changes);
	pfree(which);
	pfree(kinds);
	pfree(level);
	pfree(wanted);
	MemoryContextSwitchTo(old);
	p->next_write = GetCurrentTimestamp() + p->store->write_interval;
}

/* No positions yet: arrays and index start empty, in the current nodes_cxt. */
static void
empty_nodes(Pns *p)
{
	p->nodes = NULL;
	p->nnodes = p->maxnodes = 0;
	p->slots = NULL;
	p->nslots = 0;
	p->child = NULL;
	p->nchild = p->maxchild = 0;
	p->block = NULL;
	p->block_left = 0;
}

/* A position not an end whose bounds are narrower than those known of it. */
static bool
narrowed_anew(const Pns *p, const PnsNode *node)
{
	int32		known;

	if (node->mover == MOVER_TERMINAL || (node->lo == GT_GOAL_MIN && node->hi == GT_GOAL_MAX))
		return false;
	known = id_index_find(p->known, (int64) node->hash);
	return known < 0 || PNS_KNOWN_BOUNDS(known) != PNS_KNOWN(node->lo, node->hi);
}

/* Work counted by its bits: 0 for none, b for 2^(b-1)..2^b - 1 (1..32). */
static int
work_bits(uint32 work)
{
	return work == 0 ? 0 : pg_leftmost_one_pos32(work) + 1;
}

/*
 * Keeps in known the bounds the search found most expensively: those whose
 * work has at least the fewest bits that leaves at most half the room.
 */
static void
shrink_known(Pns *p)
{
	IdIndex    *old = p->known;
	int64		rows[KNOWN_COST_MAX + 1] = {0};
	int64		kept = 0;
	int			bits;

	for (uint64 s = 0; s <= old->mask; s++)
		if (old->slots[s].row >= 0)
			rows[KNOWN_COST(old->slots[s].row)]++;
	for (bits = KNOWN_COST_MAX;
		 bits >= 0 && id_index_size(kept + rows[bits]) <= PNS_KNOWN_ROOM(p->limits->memory) / 2; bits--)
		kept += rows[bits];
	p->known = palloc(sizeof(IdIndex));
	id_index_init(p->known, kept, p->cxt);
	for (uint64 s = 0; s <= old->mask; s++)
		if (old->slots[s].row >= 0 && KNOWN_COST(old->slots[s].row) > bits)
			id_index_set(p->known, old->slots[s].id, old->slots[s].row);
	id_index_free(old);
	pfree(old);
}

/*
 * The least work (expansions made by its searches) that lets a position
 * keep its children, so that what is kept fits in keep bytes (the
 * positions' bytes measured as they are now).  Counted by powers of two.
 */
static uint64
work_to_keep(const Pns *p, Size keep)
{
	int64		children[34] = {0};	/* children of the expanded positions, by bits of work */
	double		position_bytes = (double) MemoryContextMemAllocated(p->nodes_cxt, true) / Max(p->nnodes, 1);
	int64		room = (int64) (keep / position_bytes);
	int64		kept = 1;		/* the root */
	int			bits;

	for (int32 i = 0; i < p->nnodes; i++)
		if (NODE(p, i)->first >= 0)
			children[work_bits(NODE(p, i)->work)] += NODE(p, i)->nchildren;
	/* From the costliest down, while they fit: bits b holds work in 2^(b-1)..2^b - 1. */
	for (bits = 33; bits > 0 && kept + children[bits] <= room; bits--)
		kept += children[bits];
	return (uint64) 1 << bits;
}

/* A copy of a position in the new nodes_cxt, found from parent: its index. */
static int32
copy_node(Pns *p, const PnsNode *from, int32 parent)
{
	PnsNode    *node;
	int64		s;

	if (2 * (p->nnodes + 1) > p->nslots)
		grow_index(p);
	for (s = from->hash & (p->nslots - 1); p->slots[s] != 0; s = (s + 1) & (p->nslots - 1))
		;
	node = new_node(p);
	*node = *from;
	node->state = keep_state(p, from->state);
	node->parent = parent;
	p->slots[s] = ++p->nnodes;
	return p->nnodes - 1;
}

/*
 * Keeps the root and, down from it, the children of every position whose
 * work is at least min_work; lets the rest go.  A position kept without
 * its children keeps its bounds and numbers, so that the search goes on
 * where it stood and finds its children again by the rules when it needs
 * them.
 */
static void
keep_costly(Pns *p, uint64 min_work)
{
	MemoryContext old_cxt = p->nodes_cxt;
	PnsNode    *old = p->nodes;
	const int32 *old_child = p->child;
	int32	   *copied = MemoryContextAllocExtended(old_cxt, p->nnodes * sizeof(int32), MCXT_ALLOC_HUGE);

	/* Not copied yet: -1. */
	memset(copied, 0xff, p->nnodes * sizeof(int32));
	p->nodes_cxt = AllocSetContextCreate(p->cxt, "gametree proof-number search positions", ALLOCSET_DEFAULT_SIZES);
	empty_nodes(p);
	copied[0] = copy_node(p, &old[0], -1);
	/* Breadth first: a copy holds the old place of its children until its turn comes. */
	for (int32 i = 0; i < p->nnodes; i++)
	{
		int64		old_first = NODE(p, i)->first;
		int32		nchildren = NODE(p, i)->nchildren;
		int64		first = p->nchild;

		CHECK_FOR_INTERRUPTS();
		if (old_first < 0 || NODE(p, i)->work < min_work)
		{
			NODE(p, i)->first = -1;
			NODE(p, i)->nchildren = 0;
			continue;
		}
		reserve_children(p, nchildren);
		for (int k = 0; k < nchildren; k++)
		{
			int32		c = old_child[old_first + k];

			if (copied[c] < 0)
				copied[c] = copy_node(p, &old[c], i);
			p->child[first + k] = copied[c];
		}
		p->nchild += nchildren;
		NODE(p, i)->first = first;
	}
	MemoryContextDelete(old_cxt);
}

/*
 * When memory is full, lets go of what the search can best do without, as
 * df-pn's tables replace their cheapest entries (Nagai's SmallTreeGC):
 * with a store, writes first; keeps the bounds of the positions narrowed
 * (16 bytes each, in known, at most an eighth of the memory: the cheapest
 * go first) and, down from the root, the children of the positions whose
 * searches cost the most, in what is left of a quarter of the memory.
 * Returns false, having let nothing go, when this collection and the one
 * before found no new bound (the search goes round the same positions),
 * or at max_states.  With a store, the bounds it found but did not write
 * are let go too (they were cheap to find): the search then ends by its
 * time limit if its memory is too small for any costly proof.
 */
static bool
collect(Pns *p)
{
	int64		narrowed = 0;
	uint64		min_work;

	if (p->limits->max_states > 0 && p->nnodes >= p->limits->max_states)
		return false;
	for (int32 i = 1; i < p->nnodes; i++)
		narrowed += narrowed_anew(p, NODE(p, i));
	p->barren = narrowed == 0 ? p->barren + 1 : 0;
	if (p->barren >= PNS_BARREN_COLLECTIONS)
		return false;
	if (p->store != NULL)
		write_changes(p);
	/* With a store, the bounds it has: a claim it holds rests on its own proof there. */
	for (int32 i = 1; i < p->nnodes; i++)
		if (narrowed_anew(p, NODE(p, i)) &&
			(p->store == NULL || (NODE(p, i)->lo == NODE(p, i)->written_lo &&
								  NODE(p, i)->hi == NODE(p, i)->written_hi)))
			id_index_set(p->known, (int64) NODE(p, i)->hash,
						 PNS_KNOWN(NODE(p, i)->lo, NODE(p, i)->hi) |
						 (work_bits(NODE(p, i)->work) << KNOWN_COST_SHIFT));
	if (id_index_size(p->known->count) > PNS_KNOWN_ROOM(p->limits->memory))
		shrink_known(p);
	min_work = work_to_keep(p, PNS_KEEP(p->limits->memory) - id_index_size(p->known->count));
	keep_costly(p, min_work);
	/*
	 * With a store, a position kept keeps only the bounds the store has:
	 * one kept without its children could otherwise hold a bound no claim
	 * of the store rests on, and pass it on to claims written later.
	 */
	if (p->store != NULL)
		for (int32 i = 0; i < p->nnodes; i++)
		{
			PnsNode    *node = NODE(p, i);

			if (node->mover != MOVER_TERMINAL && (node->lo != node->written_lo || node->hi != node->written_hi))
			{
				node->lo = node->written_lo;
				node->hi = node->written_hi;
				node->threshold = -1;
			}
		}
	p->stop = PNS_DONE;
	p->result->collections++;
	return true;
}

void
pns_solve(const Game *game, const GameState *root_state, const PnsLimits *limits, const PnsStore *store,
		  PnsResult *result)
{
	Pns			p = {game, limits, store};
	PnsNode    *root;
	int			t;

	check_game(game);
	memset(result, 0, sizeof(PnsResult));
	p.result = result;
	p.outer = CurrentMemoryContext;
	p.cxt = AllocSetContextCreate(p.outer, "gametree proof-number search", ALLOCSET_DEFAULT_SIZES);
	p.nodes_cxt = AllocSetContextCreate(p.cxt, "gametree proof-number search positions", ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(p.cxt);
	p.moves = palloc(game->max_moves * sizeof(GameMove));
	p.counted = palloc(game->max_moves * sizeof(GameMove));
	p.scratch = gt_state_alloc(game);
	p.stop = PNS_DONE;
	p.known = palloc(sizeof(IdIndex));
	id_index_init(p.known, 0, p.cxt);
	if (store != NULL)
	{
		store->load(store->arg, p.known);
		/* What earlier calls proved is let go last. */
		for (uint64 s = 0; s <= p.known->mask; s++)
			if (p.known->slots[s].row >= 0)
				p.known->slots[s].row |= KNOWN_COST_MAX << KNOWN_COST_SHIFT;
		p.next_write = GetCurrentTimestamp() + store->write_interval;
	}
	empty_nodes(&p);
	(void) find_or_add(&p, root_state, -1);
	/* The first search halves the range of win, draw and loss; then each closes in. */
	t = (GT_GOAL_MIN + GT_GOAL_MAX) / 2;
	while (p.stop == PNS_DONE)
	{
		root = NODE(&p, 0);
		if (root->lo >= root->hi)
			break;
		p.t = t = Max(root->lo + 1, Min(root->hi, t));
		search(&p, 0, PNS_INFINITE, PNS_INFINITE);
		/* Memory full: the same search again on what it keeps. */
		if (p.stop == PNS_MEMORY && collect(&p))
			continue;
		result->searches++;
		root = NODE(&p, 0);
		if (proven_for(root, t))
			t = root->lo + 1;
		else if (disproven_for(root, t))
			t = root->hi;
		else if (p.stop == PNS_DONE)
			p.stop = PNS_CYCLES;
	}
	if (store != NULL)
		write_changes(&p);
	root = NODE(&p, 0);
	fill_result(&p, result);
	result->best_move = move_to(&p, root, root->mover == MOVER_TERMINAL ? -1 : best_child(&p, root));
	result->stop = result->proven ? PNS_DONE : p.stop;
	MemoryContextSwitchTo(p.outer);
	MemoryContextDelete(p.cxt);
}
