/*
 * search.h: choosing a move by search over the game interface (alphabeta.c,
 * tt.c).  Search never knows which game it plays: it calls the vtable and
 * the optional hooks (mover, tactical, heuristic).
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
	Size		memory;			/* bytes the search may hold (gametree.search_memory) */
	int			max_depth;		/* iterations of deepening; 0: until the deadline */
	bool		exact_moves;	/* every root move's value exact (analyse), not only the best's */
	int			nprior;			/* root moves a stored tree knows */
	const SearchPrior *prior;
} SearchLimits;

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
	int			pv_length;
	GameMove	pv[SEARCH_MAX_PLY]; /* the expected line, this move first */
} RootMove;

typedef struct SearchResult
{
	int			nmoves;
	RootMove   *moves;			/* best first */
	int			depth;			/* deepest iteration completed */
	int64		nodes;			/* alpha-beta and max^n: positions; MCTS: iterations */
} SearchResult;

/* The prior of a root move, or NULL. */
extern const SearchPrior *search_prior(const SearchLimits *limits, GameMove move);
/*
 * Root moves in the order of their stored utility for role, best first
 * (insertion sort: equal ones, and moves the tree does not know, keep their
 * order, counted halfway between the goals).
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

/* Can search_alphabeta play this state's game from here: two roles, one in control? */
extern bool search_alphabeta_applies(const Game *game, const GameState *state);

#endif
