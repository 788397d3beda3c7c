/*
 * grow.c: CALL gametree.grow(tree, max_states, max_depth, time_limit), the
 * batch job.  It expands the frontier breadth first, one batch at a time
 * (expand.c), carries values upward in bulk at the end (propagate.c), and
 * reports progress in gametree.grow_progress and in NOTICEs.  time_limit
 * bounds the whole call: expansion stops in time for the propagation, which
 * itself stops at the limit, leaving what it did not write pending for the
 * next call.  A limit too short to propagate the tree goes to expansion
 * alone (decide_expand_only).
 *
 * Called by CALL at top level, it commits every batch, so a cancelled job
 * keeps what it did and the next call resumes.  Inside a transaction block or
 * a function, where it cannot commit, it does the same work in the caller's
 * transaction: others see it when the caller commits, and an error undoes it.
 *
 * Each batch allocates in a memory context reset when it ends: memory stays
 * bounded over jobs of millions of states.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "store/settings.h"
#include "executor/spi.h"
#include "gdl/gdl.h"
#include "miscadmin.h"
#include "store/expand.h"
#include "store/grow.h"
#include "store/propagate.h"
#include "store/shard.h"
#include "utils/memutils.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* Batches stay within half the progress interval, and never shrink below this. */
#define MIN_BATCH 16

/*
 * A batch that holds the whole frontier goes on in memory for at most this
 * many progress intervals: what a cancel would lose, beside its writing.
 */
#define DEEPEN_INTERVALS 10

typedef struct GrowJob
{
	Tree	   *tree;
	MemoryContext batch_cxt;	/* reset after each batch */
	bool		can_commit;
	int64		max_states;		/* -1: no limit */
	int32		max_depth;
	TimestampTz began;
	TimestampTz deadline;		/* 0: none */
	TimestampTz noticed;
	TimestampTz propagate_at;
	int64		expanded;		/* by this session */
	int64		unpropagated;	/* states it expanded since its last propagation */
	int64		stored;
	int			batch;			/* states to expand in the next batch */
	bool		expand_only;	/* time_limit leaves no room to propagate (grow_until_done) */
	bool		node_level;		/* a node's level of a sharded tree: no propagation, no deepening */
} GrowJob;

/*
 * What a propagation costs, as last measured in this backend: seconds per
 * state and edge read, and per row written.  The first guesses are on the
 * slow side.
 */
static double read_seconds_per_row = 3e-6;
static double write_seconds_per_row = 3e-5;
/* And what storing a batch costs per state and edge. */
static double insert_seconds_per_row = 1e-5;

typedef struct TreeCounters
{
	int64		states;
	int64		edges;
	int64		frontier;
} TreeCounters;

static void
commit_if_possible(const GrowJob *job)
{
	if (!job->can_commit)
		return;
	SPI_commit();
	/* The commit ended the transaction's settings, the pinned search_path among them. */
	job->tree->path_level = gt_pin_search_path();
}

/* This session's row in gametree.grow_progress. */
static void
update_progress(const GrowJob *job, bool done)
{
	double		seconds = Max((GetCurrentTimestamp() - job->began) / 1e6, 1e-6);

	catalog_update_progress(job->tree, job->expanded, job->stored / seconds, done);
}

static int64
int8_result(int column)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, column, &isnull);

	return isnull ? 0 : DatumGetInt64(d);
}

static TreeCounters
read_counters(const GrowJob *job)
{
	TreeCounters c;

	(void) tree_catalog_row(job->tree, "states, edges, frontier");
	c.states = int8_result(1);
	c.edges = int8_result(2);
	c.frontier = int8_result(3);
	SPI_freetuptable(SPI_tuptable);
	return c;
}

/* A NOTICE naming the phase, at most once per progress interval. */
static void
notice_progress(GrowJob *job, const char *phase)
{
	TreeCounters c;
	double		seconds = Max((GetCurrentTimestamp() - job->began) / 1e6, 1e-6);

	if (!TimestampDifferenceExceeds(job->noticed, GetCurrentTimestamp(), gt_progress_interval))
		return;
	c = read_counters(job);
	job->noticed = GetCurrentTimestamp();
	ereport(NOTICE,
			(errmsg("grow %s: %s, %lld states, %lld edges, frontier %lld, %.0f states/s",
					job->tree->qualified, phase, (long long) c.states, (long long) c.edges,
					(long long) c.frontier, job->stored / seconds)));
}

/*
 * The time the final propagation needs, in microseconds: it reads the whole
 * tree and writes about each state expanded since the last propagation and
 * the edges into it.
 */
static int64
propagation_reserve(const GrowJob *job, const TreeCounters *c)
{
	double		writes = job->unpropagated * (1.0 + (double) c->edges / Max(c->states, 1));

	return (int64) (1e6 * (read_seconds_per_row * (c->states + c->edges) +
						   write_seconds_per_row * writes));
}

/* What expansion leaves for the final propagation, in microseconds (none when it is skipped). */
static int64
expansion_reserve(const GrowJob *job, const TreeCounters *c)
{
	return job->expand_only ? 0 : propagation_reserve(job, c);
}

/* Is it time to stop expanding, to leave the final propagation its time? */
static bool
time_is_up(const GrowJob *job, const TreeCounters *c)
{
	return job->deadline != 0 && GetCurrentTimestamp() + expansion_reserve(job, c) >= job->deadline;
}

/*
 * A propagation reads the whole tree: on a large tree it can take longer
 * than a short time_limit.  Reserving its time would leave expansion next
 * to nothing (a grow of 5 s on a tree of 1.5 million states stored none),
 * and the propagation would not finish anyway.  When it would take more
 * than half the limit, the job expands for all of it and leaves the
 * propagation pending, and says so; when the frontier runs out first, it
 * propagates in the time left.
 */
static void
decide_expand_only(GrowJob *job, const TreeCounters *c)
{
	int64		limit = job->deadline - job->began;
	int64		reserve = propagation_reserve(job, c);

	/* A node's level leaves propagation to the coordinator. */
	if (job->node_level)
	{
		job->expand_only = true;
		return;
	}
	if (job->deadline == 0 || 2 * reserve <= limit)
		return;
	job->expand_only = true;
	ereport(NOTICE,
			(errmsg("grow %s: time_limit %.3g s is too short to propagate the tree: expanding for all of it, "
					"propagation left pending", job->tree->qualified, limit / 1e6),
			 errdetail("Propagating %lld states and %lld edges needs about %.3g s (%.2g microseconds per row read, "
					   "as estimated in this session), more than half of time_limit.",
					   (long long) c->states, (long long) c->edges, reserve / 1e6,
					   read_seconds_per_row * 1e6),
			 errhint("Run SELECT gametree.propagate(%s, false); or a grow with a time_limit of %.0f s "
					 "or more to propagate what it expands.",
					 quote_literal_cstr(job->tree->qualified), ceil(2 * reserve / 1e6))));
}

/*
 * How many states the next batch expands: near max_states, about as many as
 * the states still allowed divided by the new states an expansion adds.
 */
static int
batch_budget(const GrowJob *job, const TreeCounters *c)
{
	double		budget = job->batch;

	if (job->max_states >= 0)
	{
		double		per_expansion = (double) Max(c->states - 1, 1) / Max(c->states - c->frontier, 1);

		budget = Min(budget, Max(250.0, (job->max_states - c->states) / per_expansion));
	}
	return (int) Max(1.0, Min(budget, (double) gt_grow_batch_size));
}

/* NOTICEs from inside a batch that goes on in memory. */
static void
batch_progress(void *arg, const char *phase, int64 states)
{
	GrowJob    *job = arg;

	job->noticed = GetCurrentTimestamp();
	ereport(NOTICE,
			(errmsg("grow %s: %s, %lld states in this batch", job->tree->qualified, phase,
					(long long) states)));
}

/*
 * One batch; returns the frontier states it took (0: none is free).  A batch
 * that holds the whole frontier goes on in memory for up to ten progress
 * intervals, and never past the time the final propagation needs.
 */
static int64
grow_batch(GrowJob *job, int budget, const TreeCounters *c)
{
	TimestampTz start = GetCurrentTimestamp();
	double		seconds;
	double		target = gt_progress_interval / 2000.0;
	GrowLimits	limits = {0};
	ExpansionCounts stored = {0};
	MemoryContext outer = MemoryContextSwitchTo(job->batch_cxt);

	limits.batch_size = budget;
	limits.max_depth = job->max_depth;
	/* A node of a sharded tree expands one level: the states below belong to all nodes (shard.h). */
	limits.deepen = !job->node_level;
	limits.max_new_states = job->max_states >= 0 ? Max(job->max_states - c->states, 0) : -1;
	limits.deepen_until = start + (int64) gt_progress_interval * 1000 * DEEPEN_INTERVALS;
	if (job->deadline != 0)
		limits.deadline = job->deadline - expansion_reserve(job, c);
	limits.write_seconds_per_row = insert_seconds_per_row;
	limits.progress = batch_progress;
	limits.progress_arg = job;
	tree_hold_tables(job->tree);
	tree_grow_batch(job->tree, &limits, &stored);
	tree_release_tables(job->tree);
	MemoryContextSwitchTo(outer);
	MemoryContextReset(job->batch_cxt);

	job->expanded += stored.expanded;
	if (!stored.settled)
		job->unpropagated += stored.expanded;
	job->stored += stored.states;
	if (stored.states + stored.edges > 1000)
		insert_seconds_per_row = stored.write_seconds / (stored.states + stored.edges);

	/* Size the next batch so that it takes about half a progress interval. */
	seconds = (GetCurrentTimestamp() - start) / 1e6;
	if (stored.taken == budget && !stored.deepened)
		job->batch = (int) Min((double) gt_grow_batch_size,
							   Max((double) MIN_BATCH,
								   seconds > 0 ? Min(2.0 * budget, budget * target / seconds) : 2.0 * budget));
	return stored.taken;
}

/*
 * The batch found no frontier state free: either the frontier is exhausted,
 * or other sessions hold what is left.  Waits until one of those states is
 * free (the holder committed it expanded, or gave it up) and returns whether
 * any is left to expand, so that parallel sessions share the tree to the end
 * instead of quitting; false once the job's time_limit comes while it
 * waits.  A job that cannot commit does not wait: its transaction holds the
 * tree lock, which the holders wait for to store them.
 */
static bool
frontier_left(const GrowJob *job)
{
	Oid			types[1] = {INT4OID};
	Datum		values[1] = {Int32GetDatum(job->max_depth)};
	bool		left;
	uint64		free_states;

	if (!job->can_commit)
		return false;

	if (!spi_run_waiting(psprintf("SELECT id FROM %s WHERE NOT expanded AND depth < $1 "
								  "ORDER BY depth, id LIMIT 1 FOR UPDATE", job->tree->states),
						 1, types, values, false, job->tree, "frontier states", job->deadline,
						 &free_states))
		return false;
	if (free_states > 0)
		return true;
	/* The states the holders stored are newer than that statement's snapshot. */
	spi_run(psprintf("SELECT EXISTS (SELECT FROM %s WHERE NOT expanded AND depth < $1)",
					 job->tree->states), 1, types, values, SPI_OK_SELECT);
	left = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &(bool) {0}));
	SPI_freetuptable(SPI_tuptable);
	return left;
}

/*
 * After each chunk a propagation writes: what is written stays written.
 * The tables are taken again before the tree lock, in the order of every
 * other call (and of drop_tree, which holds the tables while it waits for
 * the lock's row): the other order deadlocks with a drop.
 */
static void
propagation_chunk_written(void *arg)
{
	GrowJob    *job = arg;

	if (!job->can_commit)
		return;
	tree_release_tables(job->tree);
	commit_if_possible(job);
	tree_hold_tables(job->tree);
	tree_lock(job->tree);
}

/*
 * Propagates what is pending; returns false when time_limit came first.
 * *superseded (superseded may be NULL) says whether it stopped because
 * another session stored an expansion meanwhile (its commits between
 * chunks let others write).
 */
static bool
propagate_pending(GrowJob *job, bool *superseded)
{
	PropagateControl control = {job->deadline, propagation_chunk_written, job};
	PropagateResult result;
	TimestampTz start = GetCurrentTimestamp();
	bool		complete;
	double		took;
	int64		written;

	notice_progress(job, "propagating");
	tree_hold_tables(job->tree);
	complete = tree_propagate(job->tree, false, &control, &result);
	tree_release_tables(job->tree);
	took = (GetCurrentTimestamp() - start) / 1e6;
	written = result.states_written;
	if (result.rows_read > 10000)
		read_seconds_per_row = result.read_seconds / result.rows_read;
	if (written > 10000)
		write_seconds_per_row = result.write_seconds / written;
	if (complete)
		job->unpropagated = 0;
	commit_if_possible(job);
	if (superseded != NULL)
		*superseded = result.superseded;
	if (!complete && !result.superseded)
		ereport(NOTICE,
				(errmsg("grow %s: time_limit reached while propagating", job->tree->qualified),
				 errdetail("What was written stays; the values of the last expansions are not "
						   "propagated yet."),
				 errhint("The next grow or SELECT gametree.propagate(%s, false); finishes it.",
						 quote_literal_cstr(job->tree->qualified))));

	/*
	 * At least propagate_interval apart, and three times as long as this one
	 * took, so that propagation stays under a quarter of the job.
	 */
	job->propagate_at = GetCurrentTimestamp() +
		Max((int64) gt_propagate_interval * 1000, (int64) (3 * took * 1e6));
	return complete || result.superseded;
}

/*
 * The propagation that ends the job.  Another session's expansions stop it
 * (they are counted pending, for that session's own propagation or the
 * next); it tries again a few times, for a session that wrote once, such
 * as a search's write-back.
 */
#define FINAL_PROPAGATION_TRIES 3

static void
propagate_at_end(GrowJob *job)
{
	bool		superseded = true;

	for (int tries = 0; superseded && tries < FINAL_PROPAGATION_TRIES; tries++)
		if (!propagate_pending(job, &superseded))
			return;
	if (superseded)
		ereport(NOTICE,
				(errmsg("grow %s: other sessions stored expansions while this one propagated",
						job->tree->qualified),
				 errdetail("Their values stay pending (gametree.trees.pending)."),
				 errhint("The propagation of those sessions, the next grow or "
						 "SELECT gametree.propagate(%s, false); propagates them.",
						 quote_literal_cstr(job->tree->qualified))));
}

/* The batches of a grow, then its last propagation. */
static void
grow_until_done(GrowJob *job)
{
	TreeCounters first = read_counters(job);

	decide_expand_only(job, &first);
	commit_if_possible(job);
	for (;;)
	{
		TreeCounters c;

		CHECK_FOR_INTERRUPTS();
		c = read_counters(job);
		if (time_is_up(job, &c))
			break;
		if (job->max_states >= 0 && c.states >= job->max_states)
			break;
		if (grow_batch(job, batch_budget(job, &c), &c) == 0)
		{
			bool		left = frontier_left(job);

			/* The state waited for is the next batch's to take, or another session's. */
			commit_if_possible(job);
			if (!left)
				break;
			continue;
		}
		update_progress(job, false);
		commit_if_possible(job);
		if (!job->expand_only && GetCurrentTimestamp() >= job->propagate_at &&
			!propagate_pending(job, NULL))
			break;
		notice_progress(job, "expanding");
	}
	/* A job that expanded for the whole limit propagates in what is left of it, if anything. */
	if (!job->node_level && (!job->expand_only || GetCurrentTimestamp() < job->deadline))
		propagate_at_end(job);
	update_progress(job, true);
	commit_if_possible(job);
}

/* The job on an open tree; closes it. */
static void
grow_open_tree(GrowJob *job)
{
	job->batch_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree grow batch",
										   ALLOCSET_DEFAULT_SIZES);
	/*
	 * The tables before the catalog rows start_progress writes, in the
	 * order of every call (drop_tree holds the tables while it deletes the
	 * tree's progress rows), kept until the transaction ends.
	 */
	tree_hold_tables(job->tree);
	catalog_start_progress(job->tree);
	tree_release_tables(job->tree);
	/* Its commits must not free the game if another session replaces it (load_game.c). */
	gdl_hold_game(job->tree->game);
	PG_TRY();
	{
		grow_until_done(job);
	}
	PG_FINALLY();
	{
		gdl_release_game(job->tree->game);
	}
	PG_END_TRY();
	tree_close(job->tree);
}

static void
grow_job_init(GrowJob *job, int64 max_states, int32 max_depth, int64 time_limit, bool can_commit)
{
	job->can_commit = can_commit;
	job->max_states = max_states;
	job->max_depth = max_depth;
	job->began = job->noticed = GetCurrentTimestamp();
	if (time_limit >= 0)
		job->deadline = job->began + time_limit;
	job->propagate_at = job->began + (int64) gt_propagate_interval * 1000;
	/* Start small: the first NOTICE comes within a second even for slow games. */
	job->batch = Min(MIN_BATCH * 4, gt_grow_batch_size);
}

void
grow_tree(text *name, int64 max_states, int32 max_depth, int64 time_limit, bool can_commit)
{
	GrowJob		job = {0};

	grow_job_init(&job, max_states, max_depth, time_limit, can_commit);
	job.tree = tree_open(name, TREE_WRITE);
	if (job.tree->nnodes > 0)
	{
		shard_grow(job.tree, max_states, max_depth, time_limit, can_commit);
		tree_close(job.tree);
		return;
	}
	shard_refuse_part(job.tree, "CALL gametree.grow");
	grow_open_tree(&job);
}

void
grow_node_level(text *name, int32 depth, int64 max_states, int64 time_limit, bool can_commit)
{
	GrowJob		job = {0};

	grow_job_init(&job, max_states, depth + 1, time_limit, can_commit);
	job.node_level = true;
	job.tree = tree_open(name, TREE_WRITE);
	if (job.tree->shard == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("tree \"%s\" is not a node's part of a sharded tree", job.tree->qualified),
				 errhint("CALL gametree.grow(%s); grows it.", quote_literal_cstr(job.tree->qualified))));
	/* The states it may add, beyond those it holds. */
	if (max_states >= 0)
		job.max_states = tree_state_count(job.tree) + max_states;
	/*
	 * Each level multiplies the states: planned with the statistics of the
	 * last, the batches' statements (plans kept for the session, which the
	 * coordinator keeps too) would scan what an index finds.
	 */
	spi_run(psprintf("ANALYZE %s", job.tree->states), 0, NULL, NULL, SPI_OK_UTILITY);
	grow_open_tree(&job);
}
