/*
 * propagate.h: propagation of values up a tree's tables (propagate.c).
 */
#ifndef GAMETREE_PROPAGATE_H
#define GAMETREE_PROPAGATE_H

#include "pg/packed_rows.h"
#include "store/tree.h"
#include "utils/timestamp.h"

typedef struct PropagateControl
{
	TimestampTz deadline;		/* 0: none; past it, propagation stops between chunks */
	/* Called after each chunk of rows is written (grow commits there); may be NULL. */
	void		(*between_chunks) (void *arg);
	void	   *arg;
} PropagateControl;

typedef struct PropagateResult
{
	int64		evaluations;	/* of expanded states, re-evaluations on cycles included */
	int64		states_written;
	int64		rows_read;		/* states and edges */
	double		read_seconds;	/* reading and evaluating */
	double		write_seconds;
	int64		skipped;		/* states other transactions had locked, left pending */
	bool		superseded;		/* stopped: another session stored an expansion meanwhile */
} PropagateResult;

/*
 * Re-evaluates the whole tree when expansions are pending (or always, from
 * scratch: then what rests on no propagation, goals and the game's
 * estimates, is recomputed too) and writes what changed.  Takes the tree
 * lock.  Returns false when the deadline came first, or (when
 * between_chunks commits) another session stored an expansion meanwhile
 * (result->superseded): what was written stays, the expansions stay
 * pending, and the next call finishes the work.
 */
extern bool tree_propagate(const Tree *tree, bool from_scratch, PropagateControl *control,
						   PropagateResult *result);

/*
 * Re-evaluates states just expanded and their ancestors (expand(), a
 * search's write-back), in one pass.  The caller holds the tree lock and
 * counted the expansions as pending; when this returns true, before the
 * deadline (0: none), it may take them back (tree_uncount).
 */
extern bool tree_propagate_up(const Tree *tree, const int64 *ids, int n, TimestampTz deadline);

/*
 * A node's part of a sharded tree, kept in memory for the steps of one
 * propagation (shard.h), in this order:
 * - tree_keep_part reads it (from scratch: nothing that propagation
 *   computes is taken from the rows, and the counts are taken again at the
 *   end); edges to other nodes' states know no value yet;
 * - tree_kept_wanted packs the ids of the other nodes' states its edges
 *   lead to, for their holders, whose tree_kept_take_wanted notes them;
 * - then, in turn, tree_kept_values packs the values the nodes with edges
 *   into the part's states want (all of them the first time, then those
 *   the last step wrote), tree_kept_take_values takes such values onto the
 *   edges, and tree_propagate_kept evaluates the states at depth
 *   (depth >= 0), or all of them until they settle (-1: then nothing is
 *   pending), and writes what changed;
 * - tree_end_kept ends it.
 * Each ereports when no part of the tree is kept in the session, or when
 * the part stored states since it was read.  All take the tree lock.
 */
extern void tree_keep_part(const Tree *tree, bool from_scratch);
extern void tree_kept_wanted(const Tree *tree, const TreeNode *holders, int nholders, PayloadSink sink,
							 void *arg);
/* Returns how many of the ids are of states held here. */
extern int64 tree_kept_take_wanted(const Tree *tree, int32 node, const bytea *payload);
extern void tree_kept_values(const Tree *tree, PayloadSink sink, void *arg);
/* Returns the edges whose value changed. */
extern int64 tree_kept_take_values(const Tree *tree, const bytea *payload);
extern void tree_propagate_kept(const Tree *tree, int32 depth);
extern void tree_end_kept(const Tree *tree);
/* Frees the part kept in memory, if any. */
extern void tree_forget_kept(void);

/*
 * propagate(tree, from_scratch): tree_propagate without a deadline, and
 * from scratch a recount; returns the evaluations.
 */
extern int64 propagate_tree(text *name, bool from_scratch);

#endif
