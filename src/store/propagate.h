/*
 * propagate.h: propagation of values up a tree's tables (propagate.c).
 */
#ifndef GAMETREE_PROPAGATE_H
#define GAMETREE_PROPAGATE_H

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
 * Re-evaluates the states at depth from their edges (children at other
 * depths count by their stored values), in one pass; the caller holds the
 * tree lock.  A sharded tree is propagated depth by depth from the
 * deepest before any wave (shard.h): on a graph whose edges all go one
 * depth deeper, that alone leaves every value final.
 */
extern void tree_propagate_depth(const Tree *tree, int32 depth);

/*
 * A node's part of a sharded tree, kept in memory between the calls of a
 * propagation (read by the first, valid until the part stores states):
 * evaluates the states at depth (depth >= 0), or all of them until they
 * settle (-1, and then nothing is pending), and writes what changed.
 * Takes the tree lock.
 */
extern void tree_propagate_kept(const Tree *tree, int32 depth);
/* Frees the part kept in memory, if any. */
extern void tree_forget_kept(void);

/* Takes one batch of packed values for node (a number of gametree.tree_nodes). */
typedef void (*KeptValuesSink) (void *arg, int32 node, int64 count, bytea *payload);

/*
 * The values of the kept part's states that other nodes hold edges into
 * (its _refs), for those nodes: of the states the last call of
 * tree_propagate_kept wrote, or of all of them when that call read the
 * part (the other nodes' edges may hold older values).  Packed, at most
 * batch per payload, each payload given to sink.
 */
extern void tree_kept_values(const Tree *tree, int batch, KeptValuesSink sink, void *arg);

/*
 * Values tree_kept_values packed on another node: onto the kept part's
 * edges to those states, for the next call of tree_propagate_kept.
 * Returns the edges whose value changed.  Ereports when no part is kept
 * or the payload is not such values.
 */
extern int64 tree_kept_take_values(const Tree *tree, const bytea *payload);

/*
 * propagate(tree, from_scratch): tree_propagate without a deadline, and
 * from scratch a recount; returns the evaluations.
 */
extern int64 propagate_tree(text *name, bool from_scratch);

#endif
