/*
 * searchtree.h: bestmove and analyse with a stored tree (searchtree.c): the
 * tables before and after a search (search/search.h).
 */
#ifndef GAMETREE_SEARCHTREE_H
#define GAMETREE_SEARCHTREE_H

#include "search/search.h"
#include "store/tree.h"

/*
 * A search (bestmove, analyse) from state, a state of tree name, with the
 * tree as its memory (searchtree.c says how): a proven value with a best
 * move answers bestmove at once; otherwise the stored edges are the
 * search's limits->prior, the search leaves part of time_limit
 * (microseconds) to writing back what it learned, and the write-back
 * stops by limits->deadline, the call's (0: none).  Ereports when the tree
 * plays another game or the state is not stored in it.  Connects to SPI
 * itself; the result is in the caller's memory context.
 */
extern void tree_search(text *name, SearchMethod method, const Game *game, const GameState *state,
						SearchLimits *limits, int64 time_limit, SearchResult *result);

#endif
