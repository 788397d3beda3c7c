/*
 * create.h: making and removing a tree, its tables and its catalog rows
 * (create.c).  Callers are connected to SPI.
 */
#ifndef GAMETREE_CREATE_H
#define GAMETREE_CREATE_H

#include "utils/jsonb.h"

/*
 * Creates the tree name (schema.name, or in the first schema of
 * search_path) of the game, rooted at root_state (NULL: the game's initial
 * state); returns the root's id.
 */
extern int64 create_tree(text *name, text *game, Jsonb *root_state);
/* Drops the tree's tables and catalog rows; the caller must own them. */
extern void drop_tree(text *name);

#endif
