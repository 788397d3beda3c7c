/*
 * search.h: choosing a move by search over the game interface (method.c,
 * alphabeta.c, maxn.c, mcts.c, flat.c, random.c, prior.c).  Search never knows which game it
 * plays: it calls the vtable and the optional hooks (mover, tactical,
 * heuristic).  Nor does it know settings or tables: its caller gives it its
 * limits (SearchLimits: memory, deadline, depth) and what a stored tree
 * knows of the root's moves (SearchPrior).
 */
#ifndef GAMETREE_SEARCH_H
#define GAMETREE_SEARCH_H

#include "core/game.h"
#include "datatype/timestamp.h"
#include "search/values.h"

/* Plies a search goes at most, the quiescence search included. */
#define SEARCH_MAX_PLY 128

/* What a stored tree knows of a root move (store/searchtree.c). */
typedef struct SearchPrior
{
	GameMove	move;
	Value		value;			/* of the state it leads to, as stored */
	int64		visits;			/* of Monte Carlo search through it, earlier */
	double		total[GT_MAX_ROLES];	/* the sums of their results */
} SearchPrior;

typedef struct SearchLimits
{
	TimestampTz deadline;		/* 0: none */
	Size		memory;			/* bytes the search may hold */
	int			max_depth;		/* iterations of deepening; 0: until the deadline */
	bool		exact_moves;	/* every root move's value exact (analyse), not only the best's */
	int			nprior;			/* root moves a stored tree knows */
	const SearchPrior *prior;
} SearchLimits;

/* A line of play: the principal variation below a node, or a root move's. */
typedef struct SearchLine
{
	int			length;
	GameMove	moves[SEARCH_MAX_PLY];
} SearchLine;

/* One move of the root, with what search found of it. */
typedef struct RootMove
{
	GameMove	move;
	int32		score;			/* alpha-beta's, for the root's mover (see alphabeta.c); else 0 */
	bool		bounded;		/* alpha-beta's bestmove: the score only bounds the move's from
								 * above, below the best move's (it was not searched exactly) */
	bool		proven;			/* the score is the game's value, not an estimate */
	Value		value;			/* utility per role, proven, mobility (-1: unknown) */
	int			depth;			/* of the deepest iteration that valued it; MCTS: of its line */
	int64		visits;			/* MCTS: iterations through it; alpha-beta and max^n: -1 */
	SearchLine	pv;				/* the expected line, this move first */
} RootMove;

typedef struct SearchResult
{
	int			nmoves;
	RootMove   *moves;			/* best first */
	int			depth;			/* deepest iteration completed */
	int64		nodes;			/* alpha-beta and max^n: positions; MCTS: iterations */
} SearchResult;

typedef enum SearchMethod
{
	SEARCH_AUTO,
	SEARCH_ALPHABETA,
	SEARCH_MAXN,
	SEARCH_MCTS,
	SEARCH_RANDOM,				/* baselines to measure the others against */
	SEARCH_FLAT
} SearchMethod;

/*
 * The method named ('auto', 'alphabeta', 'maxn', 'mcts', 'random' or
 * 'flat') for a search from state, 'auto' resolved; ereports an unknown
 * name, and a method that cannot play the state.
 */
extern SearchMethod search_method_named(const char *name, const Game *game, const GameState *state);

struct MctsTree;					/* mcts.h */

/*
 * Runs method's search from root, a state that is not terminal, into
 * result (in the caller's memory context).  A Monte Carlo search's tree is
 * kept for *mcts when mcts is not NULL (search_mcts_free frees it; NULL
 * for the other methods), else freed.
 */
extern void search_run(SearchMethod method, const Game *game, const GameState *root,
					   const SearchLimits *limits, SearchResult *result, struct MctsTree **mcts);

/*
 * Is root move a ahead of b?  An order of root moves by such a comparison
 * (search_order_root_moves) is stable: b stays ahead of a move not ahead
 * of it.
 */
typedef bool (*RootMoveAhead) (const RootMove *a, const RootMove *b, const void *arg);

/* Orders moves by ahead, stably (insertion sort: n is a root's moves). */
extern void search_order_root_moves(RootMove *moves, int n, RootMoveAhead ahead, const void *arg);
/* order[]: the indexes 0 .. n - 1 by rank[], highest first, equal ranks by index. */
extern void search_order_by_rank(int32 *order, const double *rank, int n);

/* The prior of a root move, or NULL. */
extern const SearchPrior *search_prior(const SearchLimits *limits, GameMove move);
/*
 * Root moves in the order of their stored utility for role, best first
 * (equal ones, and moves the tree does not know, keep their order, counted
 * halfway between the goals).
 */
extern void search_order_by_prior(const SearchLimits *limits, RootMove *moves, int n, int role);

/*
 * Alpha-beta for two roles that take turns: negamax with principal
 * variation search, iterative deepening, a transposition table, and
 * quiescence where the game has tactical moves.  The state must not be
 * terminal.
 */
extern void search_alphabeta(const Game *game, const GameState *root, const SearchLimits *limits,
							 SearchResult *result);

/*
 * Max^n for any number of roles, by the value rules of propagation
 * (values.c), with iterative deepening; the root must have a role in
 * control (search_maxn_applies).
 */
extern void search_maxn(const Game *game, const GameState *root, const SearchLimits *limits,
						SearchResult *result);
extern bool search_maxn_applies(const Game *game, const GameState *state);

/*
 * A uniformly random legal joint move of root (at a simultaneous-move state
 * each role's action uniform), as the one move of the result.  It draws from
 * the backend's random numbers, which PostgreSQL seeds when the backend
 * starts: calls never repeat a sequence, not even from the same position.
 */
extern void search_random(const Game *game, const GameState *root, SearchResult *result);

/*
 * Flat Monte Carlo, as ggp-base's SampleMonteCarloGamer: depth charges
 * (random games to the end, no tree) from each joint move of the root in
 * turn, until the deadline or limits->max_depth rounds of FLAT_ROUND
 * charges; each role's action is valued by the mean of the role's goal
 * over the charges that played it, and the moves come best first (see
 * flat.c).  Seeded by the position, as Monte Carlo tree search.
 */
#define FLAT_ROUND 1000
extern void search_flat(const Game *game, const GameState *root, const SearchLimits *limits,
						SearchResult *result);

/* Can search_alphabeta play this state's game from here: two roles, one in control? */
extern bool search_alphabeta_applies(const Game *game, const GameState *state);

#endif
