/*
 * expand.h: expanding frontier states into a tree's tables (expand.c).
 */
#ifndef GAMETREE_EXPAND_H
#define GAMETREE_EXPAND_H

#include "store/catalog.h"
#include "utils/timestamp.h"

/* What one batch may do. */
typedef struct GrowLimits
{
	int32		batch_size;		/* frontier states it takes */
	int32		max_depth;		/* it expands states shallower than this */
	/*
	 * When it holds the whole frontier, it may go on breadth first in memory
	 * until deepen_until, while it holds less than gametree.work_memory, has
	 * found fewer than max_new_states (-1: no limit), and can still write
	 * what it holds before the deadline (0: none).
	 */
	bool		deepen;
	int64		max_new_states;
	TimestampTz deepen_until;
	TimestampTz deadline;
	double		write_seconds_per_row;	/* expected, to write what it holds */
	/* Called about every gametree.progress_interval with the states it holds; may be NULL. */
	void		(*progress) (void *arg, const char *phase, int64 states);
	void	   *progress_arg;
} GrowLimits;

/*
 * One batch: expands frontier states shallower than max_depth that no other
 * session holds, shallowest first, and stores what it found, counted as
 * pending propagation.  Adds what it stored to *stored.
 */
extern void tree_grow_batch(const Tree *tree, const GrowLimits *limits, ExpansionCounts *stored);

/*
 * Expands the states of ids that are stored and not expanded, skipping
 * those another session holds; returns how many it expanded, and adds to
 * *pending what it counted as pending propagation.  The caller holds the
 * tree lock and propagates their values up (tree_propagate_up).
 */
extern int64 tree_expand_states(const Tree *tree, const int64 *ids, int n, int64 *pending);

/* The id of a joint move in the _moves table: a stable hash of its JSON text. */
extern int64 tree_move_id(Jsonb *move);

/* Stores the root of a new tree, adding it to *stored. */
extern void tree_insert_root(const Tree *tree, const GameState *root, ExpansionCounts *stored);

/*
 * expand(tree, state_id): expands the state (a no-op when it is expanded)
 * and propagates its value up; returns the edges it stored.
 */
extern int64 expand_state(text *name, int64 state_id);
/*
 * grow_step(tree, batch_size, max_depth): one batch of at most batch_size
 * frontier states shallower than max_depth; *stored gets what it stored.
 */
extern void grow_step(text *name, int32 batch_size, int32 max_depth, ExpansionCounts *stored);

#endif
