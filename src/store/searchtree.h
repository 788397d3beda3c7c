/*
 * searchtree.h: bestmove and analyse with a stored tree (searchtree.c).
 */
#ifndef GAMETREE_SEARCHTREE_H
#define GAMETREE_SEARCHTREE_H

#include "search/mcts.h"
#include "store/tree.h"

/* What the tables know of the position a search starts from. */
typedef struct TreeSearch
{
	Tree	   *tree;
	int64		root_id;
	bool		root_proven;	/* and expanded, with a best move: */
	GameMove	stored_best;	/* GT_NO_MOVE when there is none */
	int			nprior;
	SearchPrior *prior;			/* one per stored edge of the position */
} TreeSearch;

/*
 * Opens the tree for writing and reads the position's row and edges.
 * Ereports when the tree plays another game or the state is not stored in
 * it.  The caller is connected to SPI.
 */
extern TreeSearch *tree_search_begin(text *name, const Game *game, const GameState *state);

/*
 * Writes back what the search learned, under the tree lock: expands the
 * stored, unexpanded states among the first gametree.search_store_states
 * of its tree, breadth first (Monte Carlo: the nodes it expanded, most
 * visited first; alpha-beta: the root and the best move's line),
 * propagates their values up, and for Monte Carlo search adds the visits
 * and totals of its edges to theirs in the _graph table.  Past the
 * deadline (0: none) it stops between chunks of expansions, after the
 * first, and its propagation stops, leaving them pending.  Closes the tree.
 */
extern void tree_search_end(TreeSearch *ts, const GameState *root, const SearchResult *result,
							const MctsTree *mcts, TimestampTz deadline);

/*
 * The part of a call's time_limit (microseconds) that the search leaves
 * its write-back: what writing gametree.search_store_states states took
 * last time in this backend, at most a quarter.
 */
extern int64 tree_search_reserve(int64 time_limit);

#endif
