/*
 * create.h: making and removing a tree, its tables and its catalog rows
 * (create.c).  Callers are connected to SPI.
 */
#ifndef GAMETREE_CREATE_H
#define GAMETREE_CREATE_H

#include "store/tree.h"
#include "utils/jsonb.h"

/*
 * Creates the tree name (schema.name, or in the first schema of
 * search_path) of the game, rooted at root_state (NULL: the game's initial
 * state); returns the root's id.  Sharded (shard.h):
 * - with nodes (a text[] of foreign servers; 0: none), the coordinator's
 *   tree, after each node's part;
 * - with part, a node's part holding its range, and the root only when its
 *   id is in the range (*holds_root); an existing part of the same game
 *   and range is kept as it is.
 */
extern int64 create_tree(text *name, text *game, Jsonb *root_state, Datum nodes, const TreeNode *part,
						 bool *holds_root);
/* Drops the tree's tables and catalog rows; the caller must own them. */
extern void drop_tree(text *name);

#endif
