/*
 * catalog.h: writing a tree's rows in gametree's catalogs, gametree.trees
 * and gametree.grow_progress (catalog.c); counts.c writes its counts.
 * Callers are connected to SPI.
 */
#ifndef GAMETREE_CATALOG_H
#define GAMETREE_CATALOG_H

#include "store/counts.h"
#include "store/tree.h"

/* The counts of what an expansion (a batch, expand(), create_tree's root) stored. */
typedef struct ExpansionCounts
{
	int64		taken;			/* frontier states a batch took */
	bool		deepened;		/* and went on in memory below them */
	bool		settled;		/* its values are final: nothing above it to propagate */
	double		write_seconds;	/* writing them took */
	int64		expanded;
	int64		states;
	int64		frontier;		/* new states still to expand */
	int64		edges;
	int64		pending;		/* what tree_add_counts added to gametree.trees.pending */
	int64		moves;			/* new rows of _moves */
	TreeCounts	counts;			/* per depth and proven value, for tree_add_counts */
} ExpansionCounts;

/*
 * The row of a new tree, owned by the caller, with its root (root_id) as
 * the counts say, and its counts.
 */
extern void catalog_insert_tree(const Tree *tree, int64 root_id, ExpansionCounts *root);
/* Deletes the tree's row in gametree.trees and its counts. */
extern void catalog_delete_tree(const Tree *tree);
/* The rows of a sharded tree's nodes (shard.h) in gametree.tree_nodes. */
extern void catalog_insert_nodes(const Tree *tree, const TreeNode *nodes, int n);
/* Deletes the rows of grows of the tree in gametree.grow_progress. */
extern void catalog_forget_progress(const Tree *tree);

/*
 * Adds what an expansion stored to the tree's counters in gametree.trees
 * and its counts (counts.h), counts it as pending propagation (gametree.trees.pending, and
 * stored->pending), and as one more write (gametree.trees.writes).  The
 * caller holds the tree lock.  Writers only ever add to pending: the one
 * that takes back is a propagation, of what it read (catalog_settle_pending), or
 * the writer itself, of what it counted and then propagated in the same
 * transaction under the lock (tree_uncount).
 */
extern void tree_add_counts(const Tree *tree, ExpansionCounts *stored);
/* Takes back the expansions this transaction counted and has propagated itself. */
extern void tree_uncount(const Tree *tree, int64 pending);
/*
 * After a complete propagation of what the tree held when gametree.trees.writes
 * was writes: sets pending, unless an expansion was stored since (then
 * returns false, and pending stays).
 */
extern bool catalog_settle_pending(const Tree *tree, int64 writes, int64 pending);

/*
 * This session's row in gametree.grow_progress for a grow of the tree,
 * replacing rows of sessions that have ended (killed ones included) and an
 * earlier one of this session.
 */
extern void catalog_start_progress(const Tree *tree);
/* Updates it: states expanded by this session, states stored per second. */
extern void catalog_update_progress(const Tree *tree, int64 expanded, double rate, bool done);

#endif
