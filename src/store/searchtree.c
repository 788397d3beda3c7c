/*
 * searchtree.c: the stored tree as the memory of bestmove and analyse
 * (searchtree.h).
 *
 * Before the search: the position's row (a proven value with a best move
 * answers bestmove at once) and its edges, whose values order alpha-beta's
 * first moves and whose visits and totals Monte Carlo search goes on from.
 * After it: the states it searched near the root are expanded in the tables
 * like expand() does, their values propagated up, and Monte Carlo visits
 * and totals added to the edges' own.  Writing happens under the tree lock,
 * taken before any row lock, and a state a grow batch holds is skipped, not
 * waited for: concurrent calls queue instead of deadlocking, and each adds
 * its visits to what the one before it committed.
 *
 * The search and the write-back share the call's time_limit: the search
 * leaves the write-back about what writing its states took last time
 * (tree_search_reserve), and the write-back stores a prefix of its states,
 * breadth first, in chunks, stopping in time to propagate them.  Cut short,
 * it has stored whole expansions and counted them pending; what it did not
 * store, a later call or grow does.
 */
#include "postgres.h"

#include "core/compact.h"

#include "catalog/pg_type.h"
#include "core/line.h"
#include "store/settings.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "search/mcts.h"
#include "store/expand.h"
#include "store/propagate.h"
#include "store/rowvalues.h"
#include "store/searchtree.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/* States a write-back expands with one statement, between looks at the clock. */
#define WRITE_CHUNK 256

/*
 * What a write-back costs in this backend, as last measured: seconds per
 * state in its list, and the time its propagation took for each second its
 * expansions took (measured when it finished, and taken as at least the
 * floor: an estimate too low would leave propagation no time, and then
 * never be measured again).  The first guesses are on the slow side.
 */
#define MIN_PROPAGATION_PER_EXPANSION 0.5
static double write_seconds_per_state = 1e-3;
static double propagation_per_expansion = 1.0;

/* What the tables know of the position a search starts from. */
typedef struct TreeSearch
{
	Tree	   *tree;
	int64		root_id;
	bool		root_proven;	/* and expanded, with a best move: */
	GameMove	stored_best;	/* GT_NO_MOVE when there is none */
	int			nprior;
	SearchPrior *prior;			/* one per stored edge of the position */
} TreeSearch;

/* A state the write-back visits: the search's node, its state and id. */
typedef struct Written
{
	int32		node;			/* in the MCTS tree; -1 for alpha-beta's line */
	int			level;			/* plies below the root */
	GameState  *state;
	int64		id;
} Written;

static Datum
column(int row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, isnull);
}

static void
read_edges(TreeSearch *ts, const Game *game, const GameState *state, int64 best_move)
{
	ValueCodec *codec = value_codec_create(game);
	const Tree *tree = ts->tree;

	spi_run(psprintf("SELECT g.move_id, m.move, g.visits, g.total, s.utility, s.mobility, "
					 "coalesce(s.proven, false), coalesce(s.expanded, true) FROM %s g JOIN %s m ON m.id = g.move_id "
					 "LEFT JOIN %s s ON s.id = g.next_id WHERE g.init_id = $1",
					 tree->edges, tree->moves, tree->states),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(ts->root_id)}, SPI_OK_SELECT);
	ts->nprior = (int) SPI_processed;
	ts->prior = palloc0(Max(ts->nprior, 1) * sizeof(SearchPrior));
	for (int i = 0; i < ts->nprior; i++)
	{
		SearchPrior *p = &ts->prior[i];
		bool		utility_null,
					mobility_null,
					total_null,
					isnull;
		int64		move_id = DatumGetInt64(column(i, 1, &isnull));
		Datum		utility = column(i, 5, &utility_null);
		Datum		mobility = column(i, 6, &mobility_null);
		Datum		total = column(i, 4, &total_null);

		/* What the owner may have written is checked as a user's move is. */
		p->move = gt_decode_move(game, state, DatumGetJsonbP(column(i, 2, &isnull)));
		p->visits = Max(DatumGetInt32(column(i, 3, &isnull)), 0);
		totals_read(game, total, total_null, p->visits, p->total);
		if (DatumGetBool(column(i, 8, &isnull)))
			value_read(codec, utility, utility_null, mobility, mobility_null,
					   DatumGetBool(column(i, 7, &isnull)), &p->value);
		else
		{
			/* An unexpanded state's row keeps no value: the game's estimate of it. */
			GameState  *child = gt_state_alloc(game);

			game->next(game, state, p->move, child);
			value_of_state(game, child, false, &p->value);
			pfree(child);
		}
		if (move_id == best_move)
			ts->stored_best = p->move;
	}
	SPI_freetuptable(SPI_tuptable);
}

/*
 * Opens the tree for writing and reads the position's row and edges.
 * Ereports when the tree plays another game or the state is not stored in
 * it.  The caller is connected to SPI.
 */
static TreeSearch *
tree_search_begin(text *name, const Game *game, const GameState *state)
{
	TreeSearch *ts = palloc0(sizeof(TreeSearch));
	Tree	   *tree = tree_open(name, TREE_WRITE);
	bool		isnull;
	GameState  *stored;
	int64		best_move;
	bool		expanded;

	ts->tree = tree;
	ts->stored_best = GT_NO_MOVE;
	if (tree->game != game)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tree \"%s\" plays %s, not %s", tree->qualified, tree->game->name, game->name),
				 errhint("Search with the tree's game, or give a tree of %s.", game->name)));
	tree_hold_tables(tree);
	ts->root_id = (int64) gt_state_hash(game, state);
	spi_run(psprintf("SELECT state, expanded, proven, best_move FROM %s WHERE id = $1", tree->states),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(ts->root_id)}, SPI_OK_SELECT);
	stored = SPI_processed == 0 ? NULL : gt_state_of_value(game, PG_DETOAST_DATUM_PACKED(column(0, 1, &isnull)));
	if (stored == NULL || stored->size != state->size ||
		memcmp(stored->data, state->data, state->size) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the state is not in tree \"%s\"", tree->qualified),
				 errhint("A search with a tree starts from one of its states (the state column of %s): "
						 "expand the tree to it, or leave tree NULL.", tree->states)));
	expanded = DatumGetBool(column(0, 2, &isnull)) && !isnull;
	ts->root_proven = DatumGetBool(column(0, 3, &isnull)) && !isnull;
	best_move = DatumGetInt64(column(0, 4, &isnull));
	if (isnull)
		ts->root_proven = false;
	SPI_freetuptable(SPI_tuptable);
	if (expanded)
		read_edges(ts, game, state, best_move);
	if (ts->stored_best == GT_NO_MOVE)
		ts->root_proven = false;
	return ts;
}

/* Adds a state to the list, unless the list is full; false when it is. */
static bool
add_written(const Game *game, Written *list, int *n, int32 node, int level, const GameState *state)
{
	if (*n >= gt_search_store_states)
		return false;
	list[*n].node = node;
	list[*n].level = level;
	list[*n].state = gt_state_alloc(game);
	gt_state_copy(list[*n].state, state);
	list[*n].id = (int64) gt_state_hash(game, state);
	(*n)++;
	return true;
}

/* Monte Carlo: the nodes the search expanded, breadth first, most visited first. */
static int
mcts_written(const MctsTree *mcts, const GameState *root, Written *list)
{
	const Game *game = mcts->game;
	GameState  *child = gt_state_alloc(game);
	int			n = 0;

	add_written(game, list, &n, 0, 0, root);
	for (int i = 0; i < n; i++)
	{
		const MctsNode *node = &mcts->nodes[list[i].node];
		int32		first = node->first_child;
		bool	   *taken = palloc0(Max(node->nchildren, 1) * sizeof(bool));

		CHECK_FOR_INTERRUPTS();
		for (int k = 0; k < node->nchildren; k++)
		{
			int32		best = -1;

			for (int c = 0; c < node->nchildren; c++)
				if (!taken[c] && mcts->nodes[first + c].first_child >= 0 &&
					(best < 0 || mcts->nodes[first + c].visits > mcts->nodes[first + best].visits))
					best = c;
			if (best < 0)
				break;
			taken[best] = true;
			game->next(game, list[i].state, mcts->nodes[first + best].move, child);
			if (!add_written(game, list, &n, first + best, list[i].level + 1, child))
				return n;
		}
		pfree(taken);
	}
	return n;
}

/* Alpha-beta: the root and the states along the best move's line. */
static int
line_written(const Game *game, const GameState *root, const RootMove *best, Written *list)
{
	GameLine	line;
	int			n = 0;

	gt_line_begin(&line, game, root);
	add_written(game, list, &n, -1, 0, root);
	for (int i = 0; i < best->pv.length; i++)
	{
		gt_line_play(&line, best->pv.moves[i]);
		if (game->terminal(game, line.at) || !add_written(game, list, &n, -1, i + 1, line.at))
			break;
	}
	return n;
}

/*
 * Runs sql, whose two %s are the edges table and the rows (edge keys with
 * visits of visits_type and totals) joined to it, as "unnest(...) d(init_id,
 * move_id, visits, total) WHERE <d is g's edge>".
 */
static void
edge_statement(const char *sql, const char *edges, int rows, const int64 *init_ids, const int64 *move_ids,
			   Datum *visits, Oid visits_type, Datum *totals, int expected)
{
	spi_run(psprintf(sql, edges, "unnest($1, $2, $3, $4) d(init_id, move_id, visits, total) "
					 "WHERE g.init_id = d.init_id AND g.move_id = d.move_id"),
			4, (Oid[]) {INT8ARRAYOID, INT8ARRAYOID, visits_type == INT4OID ? INT4ARRAYOID : INT8ARRAYOID,
			JSONBARRAYOID},
			(Datum[]) {int8_array(init_ids, rows), int8_array(move_ids, rows),
			datum_array(visits, NULL, rows, visits_type), datum_array(totals, NULL, rows, JSONBOID)},
			expected);
}

/* Adds the visits and totals of the search's edges below the written states to the tables'. */
static void
add_visits(TreeSearch *ts, const MctsTree *mcts, const Written *list, int n)
{
	const Game *game = mcts->game;
	int			max_rows = 0,
				rows = 0;
	int64	   *init_ids,
			   *move_ids;
	Datum	   *visits,
			   *totals;

	for (int i = 0; i < n; i++)
		max_rows += mcts->nodes[list[i].node].nchildren;
	init_ids = palloc(Max(max_rows, 1) * sizeof(int64));
	move_ids = palloc(Max(max_rows, 1) * sizeof(int64));
	visits = palloc(Max(max_rows, 1) * sizeof(Datum));
	totals = palloc(Max(max_rows, 1) * sizeof(Datum));
	for (int i = 0; i < n; i++)
	{
		const MctsNode *node = &mcts->nodes[list[i].node];

		CHECK_FOR_INTERRUPTS();
		for (int c = 0; c < node->nchildren; c++)
		{
			int32		child = node->first_child + c;
			const SearchPrior *prior = NULL;
			int64		added = mcts->nodes[child].visits;
			double		total[GT_MAX_ROLES];

			for (int p = 0; p < ts->nprior && list[i].node == 0 && prior == NULL; p++)
				if (ts->prior[p].move == mcts->nodes[child].move)
					prior = &ts->prior[p];
			if (prior != NULL)
				added -= prior->visits;
			if (added <= 0)
				continue;
			for (int r = 0; r < game->nroles; r++)
				total[r] = MCTS_TOTAL(mcts, child)[r] - (prior != NULL ? prior->total[r] : 0);
			init_ids[rows] = list[i].id;
			move_ids[rows] = tree_move_id(gt_encode_move(game, list[i].state, mcts->nodes[child].move));
			visits[rows] = Int64GetDatum(added);
			totals[rows] = JsonbPGetDatum(gt_encode_role_values(game, total, NULL));
			rows++;
		}
	}
	if (rows == 0)
		return;

	/*
	 * Sums computed here from the rows as they are now: under the tree
	 * lock no other search adds to them until this transaction ends.
	 */
	edge_statement("SELECT g.init_id, g.move_id, g.visits, g.total, d.visits, d.total FROM %s g, %s",
				   ts->tree->edges, rows, init_ids, move_ids, visits, INT8OID, totals,
				   SPI_OK_SELECT);
	rows = (int) SPI_processed;
	for (int k = 0; k < rows; k++)
	{
		bool		isnull,
					total_null;
		int64		old_visits = Max(DatumGetInt32(column(k, 3, &isnull)), 0);
		int64		added = DatumGetInt64(column(k, 5, &isnull));
		Datum		old_total = column(k, 4, &total_null);
		double		sum[GT_MAX_ROLES],
					more[GT_MAX_ROLES];

		totals_read(game, old_total, total_null, old_visits, sum);
		totals_read(game, column(k, 6, &isnull), false, added, more);
		for (int r = 0; r < game->nroles; r++)
			sum[r] += more[r];
		init_ids[k] = DatumGetInt64(column(k, 1, &isnull));
		move_ids[k] = DatumGetInt64(column(k, 2, &isnull));
		/* The column is an integer: visits past its range stay at its maximum. */
		visits[k] = Int32GetDatum((int32) Min(old_visits + added, PG_INT32_MAX));
		totals[k] = JsonbPGetDatum(gt_encode_role_values(game, sum, NULL));
	}
	SPI_freetuptable(SPI_tuptable);
	edge_statement("UPDATE %s g SET visits = d.visits, total = d.total FROM %s", ts->tree->edges,
				   rows, init_ids, move_ids, visits, INT4OID, totals, SPI_OK_UPDATE);
}

/*
 * The part of a call's time_limit (microseconds) that the search leaves
 * its write-back: what writing gametree.search_store_states states took
 * last time in this backend, at most a quarter.
 */
static int64
tree_search_reserve(int64 time_limit)
{
	return Min(time_limit / 4, (int64) (1e6 * write_seconds_per_state * gt_search_store_states));
}

/*
 * Expands the states of the list that are stored and not expanded, breadth
 * first, in chunks: the first always (the root, whose edges Monte Carlo
 * visits are written to), the next ones while the time left exceeds what
 * propagating them would take, judged by the time since began.  Returns how
 * many states of the list it went through; adds to *expanded and *pending
 * what it expanded and counted.
 */
static int
expand_written(const Tree *tree, const Written *list, int n, TimestampTz began, TimestampTz deadline,
			   int64 *expanded, int64 *pending)
{
	int64	   *ids = palloc(WRITE_CHUNK * sizeof(int64));
	int			done = 0;

	while (done < n)
	{
		TimestampTz now = GetCurrentTimestamp();
		int			to = done;

		CHECK_FOR_INTERRUPTS();
		if (done > 0 && deadline != 0 &&
			now + (int64) ((now - began) * propagation_per_expansion) >= deadline)
			break;
		/* A level's states are stored by the expansion of the one above: a chunk stays within a level. */
		while (to < n && to - done < WRITE_CHUNK && list[to].level == list[done].level)
		{
			ids[to - done] = list[to].id;
			to++;
		}
		*expanded += tree_expand_states(tree, ids, to - done, pending);
		done = to;
	}
	pfree(ids);
	return done;
}

/*
 * Writes back what the search learned, under the tree lock: expands the
 * stored, unexpanded states among the first gametree.search_store_states
 * of its tree, breadth first (Monte Carlo: the nodes it expanded, most
 * visited first; alpha-beta: the root and the best move's line),
 * propagates their values up, and for Monte Carlo search adds the visits
 * and totals of its edges to theirs in the _edges table.  Past the
 * deadline (0: none) it stops between chunks of expansions, after the
 * first, and its propagation stops, leaving them pending.  Closes the tree.
 */
static void
tree_search_end(TreeSearch *ts, const GameState *root, const SearchResult *result,
				const MctsTree *mcts, TimestampTz deadline)
{
	const Game *game = ts->tree->game;
	TimestampTz began = GetCurrentTimestamp();
	Written    *list = palloc(gt_search_store_states * sizeof(Written));
	int			n = mcts != NULL ? mcts_written(mcts, root, list) :
		line_written(game, root, &result->moves[0], list);
	int64		expanded = 0,
				pending = 0;
	int			written;
	TimestampTz expanding,
				expansions_done;

	tree_lock(ts->tree);
	expanding = GetCurrentTimestamp();
	/*
	 * A sharded tree's coordinator stores no states: its nodes do, level by
	 * level, when it grows (shard.h).  The visits go to its edges all the same.
	 */
	written = ts->tree->nnodes > 0 ? 0 :
		expand_written(ts->tree, list, n, expanding, deadline, &expanded, &pending);
	expansions_done = GetCurrentTimestamp();
	if (expanded > 0)
	{
		int64	   *ids = palloc(written * sizeof(int64));

		for (int i = 0; i < written; i++)
			ids[i] = list[i].id;

		/*
		 * Propagated in time, those expansions are no longer pending; cut
		 * short, they stay counted, and the tree consistent.
		 */
		if (tree_propagate_up(ts->tree, ids, written, deadline))
		{
			tree_uncount(ts->tree, pending);
			propagation_per_expansion = Max(MIN_PROPAGATION_PER_EXPANSION,
											(double) (GetCurrentTimestamp() - expansions_done) /
											Max(expansions_done - expanding, 1));
		}
	}
	if (mcts != NULL)
		add_visits(ts, mcts, list, ts->tree->nnodes > 0 ? n : written);
	if (written >= 100)
		write_seconds_per_state = (GetCurrentTimestamp() - began) / 1e6 / written;
	tree_close(ts->tree);
}

void
tree_search(text *name, SearchMethod method, const Game *game, const GameState *state,
			SearchLimits *limits, int64 time_limit, SearchResult *result)
{
	MemoryContext caller = CurrentMemoryContext;
	TimestampTz deadline = limits->deadline;	/* of the call: the write-back's */
	TreeSearch *ts;
	MctsTree   *mcts = NULL;

	SPI_connect();
	ts = tree_search_begin(name, game, state);
	MemoryContextSwitchTo(caller);
	if (ts->root_proven && !limits->exact_moves)
	{
		/* The tree has solved the position: its best move is the answer. */
		result->nmoves = 1;
		result->moves = palloc0(sizeof(RootMove));
		result->moves[0].move = ts->stored_best;
		tree_close(ts->tree);
		SPI_finish();
		return;
	}
	limits->prior = ts->prior;
	limits->nprior = ts->nprior;
	/* The search leaves the write-back its share of the time. */
	if (deadline != 0)
		limits->deadline -= tree_search_reserve(time_limit);
	search_run(method, game, state, limits, result, &mcts);
	tree_search_end(ts, state, result, mcts, deadline);
	SPI_finish();
	if (mcts != NULL)
		search_mcts_free(mcts);
}
