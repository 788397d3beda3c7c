/*
 * counts.h: what tree_stats, depth_stats and outcomes report, kept current
 * in gametree.tree_depths (per depth: states, expanded, terminal, proven,
 * edges out) and gametree.tree_values (proven states per utility), so that
 * they read a few catalog rows instead of counting the tree's tables.
 *
 * Every writer of a tree's rows adds what it changed, in its own
 * transaction and under the tree lock: create_tree (the root), a batch
 * (store_batch: new states, taken states, edges) and a propagation (the
 * values it writes, old and new as the UPDATE saw them).  A cancel or a
 * crash undoes both together; tree_recount counts them again from the
 * tables (after an upgrade from 0.1.0, or rows written by hand).
 */
#ifndef GAMETREE_COUNTS_H
#define GAMETREE_COUNTS_H

#include "executor/spi.h"
#include "utils/jsonb.h"

struct Tree;

typedef struct DepthCount
{
	int64		states;
	int64		expanded;		/* expanded and not terminal */
	int64		terminal;
	int64		proven;
	int64		edges;			/* out of its states */
} DepthCount;

typedef struct ValueCount
{
	Jsonb	   *utility;
	int64		states;
} ValueCount;

/* Changes to a tree's counts, to be added to the catalogs. */
typedef struct TreeCounts
{
	DepthCount *depths;			/* indexed by depth */
	int32		ndepths;
	ValueCount *values;			/* few: the proven utilities are the games' goal vectors */
	int			nvalues,
				maxvalues;
} TreeCounts;

extern void counts_init(TreeCounts *counts);
/* The counts of depth, made room for. */
extern DepthCount *counts_at(TreeCounts *counts, int32 depth);
/* n states at depth become proven with utility (n < 0: stop being). */
extern void counts_proven(TreeCounts *counts, int32 depth, Jsonb *utility, int64 n);

/*
 * The rows of an UPDATE of states ... RETURNING depth, the old proven and
 * utility, the new proven and utility (COUNTS_RETURNING) in SPI_tuptable:
 * adds what changed in them and frees SPI_tuptable.
 */
#define COUNTS_RETURNING "RETURNING s.depth, o.proven, o.utility, s.proven, s.utility"
extern void counts_value_changes(TreeCounts *counts);

/* Adds them to the tree's rows in the catalogs and clears them; the caller holds the tree lock. */
extern void counts_write(const struct Tree *tree, TreeCounts *counts);
/* Counts the tree's tables and replaces its counters with what they hold (takes the tree lock). */
extern void tree_recount(const struct Tree *tree);
/* The same for a tree opened by name: recount(tree). */
extern void recount_tree(text *name);
/* Removes a tree's counts from the catalogs. */
extern void counts_forget(const struct Tree *tree);

#endif
