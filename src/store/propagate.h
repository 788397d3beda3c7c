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
	int64		edges_written;
	int64		rows_read;		/* states and edges */
	double		read_seconds;	/* reading and evaluating */
	double		write_seconds;
} PropagateResult;

/*
 * Re-evaluates the whole tree when expansions are pending (or always, from
 * scratch: then what rests on no propagation, goals and the game's
 * estimates, is recomputed too) and writes what changed.  Takes the tree
 * lock.  Returns false when the deadline came first: what was written stays,
 * the expansions stay pending, and the next call finishes the work.
 */
extern bool tree_propagate(const Tree *tree, bool from_scratch, PropagateControl *control,
						   PropagateResult *result);

/*
 * Re-evaluates a state just expanded and its ancestors (expand()).  The
 * caller holds the tree lock and counted the expansion as pending.
 */
extern void tree_propagate_up(const Tree *tree, int64 state_id);

#endif
