/*
 * tree.h: a tree stored in tables <name>_states, <name>_moves and
 * <name>_graph, as recorded in gametree.trees.  Shared by expand.c and
 * propagate.c; callers are connected to SPI.
 */
#ifndef GAMETREE_TREE_H
#define GAMETREE_TREE_H

#include "core/game.h"

typedef struct Tree
{
	const Game *game;
	const char *schema;			/* its catalog key in gametree.trees */
	const char *name;
	const char *qualified;		/* schema.name as the user may write it */
	const char *states;			/* quoted, schema-qualified table names */
	const char *moves;
	const char *graph;
	int64		lock_key;		/* advisory lock serialising propagation */
} Tree;

/* Counts of what an expansion stored. */
typedef struct Stored
{
	int64		expanded;
	int64		states;
	int64		frontier;		/* new states still to expand */
	int64		edges;
} Stored;

/* Looks the tree up in gametree.trees; ereports when unknown. */
extern Tree *tree_open(text *name);

/*
 * One batch of growth (expand.c): expands up to batch_size frontier states
 * shallower than max_depth that no other session holds, shallowest first,
 * and marks them stale.  Adds what it stored to *stored.
 */
extern void tree_grow_batch(const Tree *tree, int batch_size, int max_depth, Stored *stored);

/* Serialises propagation and counters among sessions growing the tree. */
extern void tree_lock(const Tree *tree);

/* Adds deltas to the tree's counters in gametree.trees. */
extern void tree_count(const Tree *tree, int64 states, int64 edges, int64 frontier);

/*
 * Re-evaluates the stale states from their out-edges, deepest first, and
 * carries every change upward.  The caller holds the tree lock.  Returns the
 * number of evaluations.
 */
extern int64 tree_propagate_stale(const Tree *tree);

/* SPI helpers. */
/* One-dimensional SQL arrays for statement parameters (nulls may be NULL). */
extern Datum datum_array(Datum *values, bool *nulls, int n, Oid type);
extern Datum int8_array(const int64 *values, int n);
/* Runs a statement and checks its result code; keeps the caller's memory context. */
extern int	spi_run(const char *sql, int nargs, Oid *types, Datum *values, int expected);

#endif
