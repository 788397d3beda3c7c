/*
 * pns.h: proof-number search (pns.c), which proves the value of a position
 * by growing only what a proof needs.
 *
 * Games: one role (a puzzle: the best goal the role can reach), or two
 * roles whose goals sum to 100 at every end (win, draw and loss as
 * 100/50/0, or any split), taking turns.  The value is the first role's
 * goal under perfect play; the second role's is 100 less.  Other games
 * get an error: with three or more roles, or goals that do not sum to 100,
 * a "value" is max^n's and depends on how roles break ties, which no
 * proof of a bound can settle; where roles move at once, a position's
 * value is a mixed strategy's.
 *
 * How: a series of boolean searches, each "does the first role get at
 * least t?", by depth-first proof-number search (df-pn, Nagai 2002) with
 * the 1+epsilon thresholds of Pawlewicz and Lew (2007).  Every position
 * keeps bounds lo..hi on its value, taken from its children's by minimax
 * (exact at the ends), so a search for t decides every position with
 * lo >= t or hi < t at once, and what one search proved serves the next.
 * The first search asks t = 50, each next one t = lo + 1 after a proof
 * and t = hi after a disproof, until lo = hi: for win, draw and loss at
 * most two searches run.
 *
 * Transpositions: positions are kept once, by their bytes (the hash only
 * finds them).  Proof and disproof numbers of a position with several
 * children to prove follow weak proof-number search (Ueda et al. 2008):
 * the largest child's number plus one for each other unsolved child, not
 * their sum.  On a graph the sum counts a shared descendant once per path
 * and grows exponentially with the depth of the transpositions; this rule
 * grows by at most the branching per level.  Its known weakness: it
 * underrates a position with many hard children, so the search may
 * spread out where the sum would have gone deep at once.
 *
 * Cycles: a position already on the search's path counts as neither
 * provable nor disprovable through (proof and disproof numbers infinite)
 * while it is there, so that no proof rests on going round a cycle; the
 * bounds, which come from the ends alone, stay valid.  Every proof and
 * disproof found is thus valid whatever the path.  Its known weakness:
 * numbers made infinite so are kept for the rest of that boolean search,
 * and on another path they may keep it from a proof.  A position whose
 * value depends on a cycle (the game's rules cannot end it) stays
 * unproven, and the search says so (PNS_CYCLES).
 *
 * Memory: when the positions fill three quarters of the limit, the search
 * goes back to the root and lets go of what it can best do without, as
 * df-pn's tables replace their cheapest entries (SmallTreeGC, Nagai
 * 2002): it keeps the bounds of the positions it narrowed (an eighth of
 * the memory at most, those that cost the fewest expansions let go first)
 * and, from the root down, the children of the positions whose searches
 * made the most expansions, in a quarter; a position kept without its
 * children keeps its bounds and numbers, and finds its children again by
 * the rules.  It stops (PNS_MEMORY) when two collections in a row found no
 * new bound.
 */
#ifndef GAMETREE_PNS_H
#define GAMETREE_PNS_H

#include "core/game.h"
#include "core/idindex.h"
#include "datatype/timestamp.h"

typedef struct PnsLimits
{
	TimestampTz deadline;		/* 0: none */
	int64		max_states;		/* positions kept at most; 0: none */
	Size		memory;			/* bytes the search may hold */
} PnsLimits;

/* Why a search ended before the value was proven. */
typedef enum PnsStop
{
	PNS_DONE,					/* proven */
	PNS_TIME,
	PNS_MAX_STATES,
	PNS_MEMORY,
	PNS_CYCLES					/* the value depends on a cycle of the game's graph */
} PnsStop;

typedef struct PnsResult
{
	bool		proven;			/* lo == hi: the value is exact */
	int			lo;				/* bounds on the first role's goal under perfect play */
	int			hi;
	GameMove	best_move;		/* the root mover's: one that keeps the value when proven, else the
								 * most promising; GT_NO_MOVE at a terminal root */
	int64		states;			/* positions kept */
	int64		expanded;		/* of them, with their moves generated */
	int			searches;		/* boolean searches run */
	int			threshold;		/* the last one's t */
	uint32		proof;			/* the root's proof and disproof numbers in the last one */
	uint32		disproof;
	int			collections;	/* times memory was full and the search let go of its cheapest part */
	PnsStop		stop;
} PnsResult;

/* Proof and disproof numbers: PNS_INFINITE once proven or disproven. */
#define PNS_INFINITE PG_UINT32_MAX

/*
 * A position the search reports to its store: a claim (its bounds, which
 * rest on the claims of its children reported with it or before), or a
 * position whose moves lead to a claim; and the root, a claim.
 */
typedef struct PnsChange
{
	uint64		hash;
	const GameState *state;
	int32		level;			/* its moves can be stored once those of lower levels are */
	bool		root;
	bool		claim;			/* false: only its moves are reported, its bounds are not proven here */
	bool		expanded;		/* its moves were generated: the positions they lead to are kept */
	int			lo;				/* its bounds now */
	int			hi;
	int			threshold;		/* the t of the search its numbers are for; -1: none */
	uint32		proof;
	uint32		disproof;
	GameMove	best;			/* an exact claim, expanded: a move that keeps its value; else GT_NO_MOVE */
	bool		written;		/* the store's answer; false: report it again next time */
} PnsChange;

/*
 * Where a search keeps what it finds beyond its own memory (store/solve.c
 * keeps it in a tree): the proof of the root's bounds, and the proofs of
 * the positions that cost it many expansions with the moves that first
 * led to each, not every position it went through.  It writes every
 * write_interval, before it lets positions go when its memory is full,
 * and at the end; with a store, only what the store has is kept when
 * memory is full, so that every claim written rests on claims written.
 */
typedef struct PnsStore
{
	/*
	 * Adds the bounds known before the search to known: ids are position
	 * hashes, rows PNS_KNOWN(lo, hi).
	 */
	void		(*load) (void *arg, IdIndex *known);
	/*
	 * Writes n changes; progress tells where the search is.  A write is of
	 * moves only (no claim), by level; or of every claim of the moment, of
	 * which the store keeps all (written) or none, since claims rest on
	 * one another.
	 */
	void		(*write) (void *arg, PnsChange *changes, int n, const PnsResult *progress);
	void	   *arg;
	int64		write_interval; /* microseconds between writes; the last comes at the end */
} PnsStore;

#define PNS_KNOWN(lo, hi) ((int32) (lo) | ((int32) (hi) << 8))
#define PNS_KNOWN_LO(row) ((row) & 0xff)
#define PNS_KNOWN_HI(row) (((row) >> 8) & 0xff)
/* The bounds of a row, without what the search adds above them (pns.c's cost). */
#define PNS_KNOWN_BOUNDS(row) ((row) & 0xffff)

/*
 * Proves the value of root within limits, in the caller's memory context;
 * store may be NULL (the search then ends when its memory is full).
 */
extern void pns_solve(const Game *game, const GameState *root, const PnsLimits *limits,
					  const PnsStore *store, PnsResult *result);

/* The reason a search stopped, for messages: "time_limit", "max_states", ... */
extern const char *pns_stop_name(PnsStop stop);

#endif
