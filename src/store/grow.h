/*
 * grow.h: the grow job (grow.c).
 */
#ifndef GAMETREE_GROW_H
#define GAMETREE_GROW_H

#include "postgres.h"

/*
 * grow(tree, max_states, max_depth, time_limit): expands the tree breadth
 * first until it holds max_states states (-1: no limit), its frontier
 * shallower than max_depth is expanded, or time_limit (microseconds, -1:
 * none) has passed, and propagates what it expanded.  With can_commit
 * (CALL at top level, connected to SPI non-atomic) it commits every batch.
 */
extern void grow_tree(text *name, int64 max_states, int32 max_depth, int64 time_limit,
					  bool can_commit);

/*
 * A node's part of a level of a sharded tree (shard.h): expands the states
 * held here at depth, storing at most max_states more (-1: no limit) within
 * time_limit (-1: none), committing every batch when it can; no
 * propagation, no deepening.
 */
extern void grow_node_level(text *name, int32 depth, int64 max_states, int64 time_limit,
							bool can_commit);

#endif
