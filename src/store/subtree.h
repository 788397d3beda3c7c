/*
 * subtree.h: the part of a tree within some plies of a state, for pictures
 * of it (the client's show).
 */
#ifndef GAMETREE_SUBTREE_H
#define GAMETREE_SUBTREE_H

#include "postgres.h"

#include "utils/tuplestore.h"

/*
 * Adds to result (whose columns are those of gametree.subtree) a row per
 * state that a breadth-first walk along the tree's edges reaches from
 * state_id in at most plies plies, nearest first, with the edges out of it
 * when it is nearer than plies.  No rows when state_id is not in the tree.
 * Ereports when the tree is not there, or plies is negative.
 */
extern void tree_subtree(text *tree_name, int64 state_id, int32 plies,
						 Tuplestorestate *result, TupleDesc desc);

#endif
