/*
 * expand.c: expand(tree, state_id) and grow_step(tree, batch_size,
 * max_depth), which add the successors of states to a tree's tables.
 * Each expansion is counted as pending propagation (gametree.trees.pending);
 * expand() propagates up from the state at once, grow in bulk (propagate.c).
 *
 * Children are generated in C, deduplicated in memory, and written with one
 * set-based statement per table (unnest of arrays) in ascending key order,
 * so that concurrent sessions never wait on each other in a cycle.  A state
 * id is the game's stable 64-bit state hash; a different position with the
 * same hash is detected and reported, never merged.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "core/jsonfacts.h"
#include "miscadmin.h"
#include "store/propagate.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

/* The new rows of one expansion batch, as parallel arrays. */
typedef struct Batch
{
	const Tree *tree;
	HTAB	   *children;		/* id -> ChildEntry */
	HTAB	   *move_ids;		/* (role, move) -> MoveEntry */
	int			nchildren,
				maxchildren;
	Datum	   *child_id,
			   *child_state,
			   *child_goal,
			   *child_depth,
			   *child_control,
			   *child_expanded,
			   *child_utility,
			   *child_mobility,
			   *child_proven;
	bool	   *goal_null,
			   *control_null,
			   *utility_null,
			   *mobility_null;
	int			nmoves,
				maxmoves;
	Datum	   *move_id,
			   *move_json;
	int			nedges,
				maxedges;
	int64	   *edge_init,
			   *edge_move;
	int		   *edge_child;		/* index in the child arrays */
} Batch;

typedef struct ChildEntry
{
	int64		id;
	GameState  *state;
	int			index;			/* in the child arrays */
} ChildEntry;

typedef struct MoveKey
{
	int32		role;
	int32		unused;			/* zeroed: keys are compared as bytes */
	GameMove	move;
} MoveKey;

typedef struct MoveEntry
{
	MoveKey		key;
	int64		id;
} MoveEntry;

#define GROW(arr, n) ((arr) = repalloc((arr), (n) * sizeof(*(arr))))

static void
batch_init(Batch *b, const Tree *tree)
{
	HASHCTL		ctl = {0};

	memset(b, 0, sizeof(Batch));
	b->tree = tree;
	ctl.keysize = sizeof(int64);
	ctl.entrysize = sizeof(ChildEntry);
	ctl.hcxt = CurrentMemoryContext;
	b->children = hash_create("gametree expand children", 1024, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	ctl.keysize = sizeof(MoveKey);
	ctl.entrysize = sizeof(MoveEntry);
	b->move_ids = hash_create("gametree expand moves", 256, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	b->maxchildren = b->maxmoves = b->maxedges = 64;
	b->child_id = palloc(64 * sizeof(Datum));
	b->child_state = palloc(64 * sizeof(Datum));
	b->child_goal = palloc(64 * sizeof(Datum));
	b->child_depth = palloc(64 * sizeof(Datum));
	b->child_control = palloc(64 * sizeof(Datum));
	b->child_expanded = palloc(64 * sizeof(Datum));
	b->child_utility = palloc(64 * sizeof(Datum));
	b->child_mobility = palloc(64 * sizeof(Datum));
	b->child_proven = palloc(64 * sizeof(Datum));
	b->goal_null = palloc(64 * sizeof(bool));
	b->control_null = palloc(64 * sizeof(bool));
	b->utility_null = palloc(64 * sizeof(bool));
	b->mobility_null = palloc(64 * sizeof(bool));
	b->move_id = palloc(64 * sizeof(Datum));
	b->move_json = palloc(64 * sizeof(Datum));
	b->edge_init = palloc(64 * sizeof(int64));
	b->edge_move = palloc(64 * sizeof(int64));
	b->edge_child = palloc(64 * sizeof(int));
}

static void
grow_children(Batch *b)
{
	b->maxchildren *= 2;
	GROW(b->child_id, b->maxchildren);
	GROW(b->child_state, b->maxchildren);
	GROW(b->child_goal, b->maxchildren);
	GROW(b->child_depth, b->maxchildren);
	GROW(b->child_control, b->maxchildren);
	GROW(b->child_expanded, b->maxchildren);
	GROW(b->child_utility, b->maxchildren);
	GROW(b->child_mobility, b->maxchildren);
	GROW(b->child_proven, b->maxchildren);
	GROW(b->goal_null, b->maxchildren);
	GROW(b->control_null, b->maxchildren);
	GROW(b->utility_null, b->maxchildren);
	GROW(b->mobility_null, b->maxchildren);
}

static void
hash_collision(const Tree *tree, int64 id)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("state hash collision in tree \"%s\": two positions hash to %lld",
					tree->qualified, (long long) id),
			 errdetail("The tree cannot store both under one id; nothing of this batch was stored."),
			 errhint("Please report the game and the two positions.")));
}

/*
 * Adds a child position (once per batch) with the values a leaf starts with;
 * returns its index in the child arrays.
 */
static int
add_child(Batch *b, const GameState *state, int depth)
{
	const Game *game = b->tree->game;
	int64		id = (int64) gt_state_hash(game, state);
	bool		found;
	ChildEntry *entry = hash_search(b->children, &id, HASH_ENTER, &found);
	int			i;
	bool		terminal;

	if (found)
	{
		if (entry->state->size != state->size ||
			memcmp(entry->state->data, state->data, state->size) != 0)
			hash_collision(b->tree, id);
		return entry->index;
	}
	entry->state = gt_state_alloc(game);
	gt_state_copy(entry->state, state);

	if (b->nchildren == b->maxchildren)
		grow_children(b);
	i = entry->index = b->nchildren++;
	terminal = game->terminal(game, state);
	b->child_id[i] = Int64GetDatum(id);
	b->child_state[i] = JsonbPGetDatum(gt_encode_state(game, state));
	b->child_depth[i] = Int32GetDatum(depth);
	b->child_expanded[i] = BoolGetDatum(terminal);	/* nothing to expand */
	b->child_proven[i] = BoolGetDatum(terminal);
	b->goal_null[i] = b->mobility_null[i] = !terminal;
	b->utility_null[i] = !terminal && game->heuristic == NULL;
	b->control_null[i] = true;
	if (terminal)
	{
		double		zeros[GT_MAX_ROLES] = {0};
		Datum		goal = JsonbPGetDatum(gt_encode_goals(game, state));

		b->child_goal[i] = goal;
		b->child_utility[i] = goal;
		b->child_mobility[i] = JsonbPGetDatum(gt_encode_role_values(game, zeros, NULL));
	}
	else
	{
		int			mover = game->control(game, state);

		if (mover != GT_NO_ROLE)
		{
			b->control_null[i] = false;
			b->child_control[i] = CStringGetTextDatum(game->roles[mover]);
		}
		if (game->heuristic != NULL)
		{
			double		estimate[GT_MAX_ROLES];

			game->heuristic(game, state, estimate);
			b->child_utility[i] = JsonbPGetDatum(gt_encode_role_values(game, estimate, NULL));
		}
	}
	return i;
}

/* The id of a joint move, adding its row to the batch the first time. */
static int64
move_id(Batch *b, const GameState *state, GameMove move)
{
	const Game *game = b->tree->game;
	MoveKey		key = {0};
	MoveEntry  *entry;
	bool		found;
	Jsonb	   *json;
	char	   *text;

	key.role = game->control(game, state);
	key.move = move;
	entry = hash_search(b->move_ids, &key, HASH_ENTER, &found);
	if (found)
		return entry->id;
	json = gt_encode_move(game, state, move);
	text = JsonbToCString(NULL, &json->root, VARSIZE(json));
	entry->id = (int64) gt_hash_bytes((const uint8 *) text, strlen(text));
	if (b->nmoves == b->maxmoves)
	{
		b->maxmoves *= 2;
		GROW(b->move_id, b->maxmoves);
		GROW(b->move_json, b->maxmoves);
	}
	b->move_id[b->nmoves] = Int64GetDatum(entry->id);
	b->move_json[b->nmoves] = JsonbPGetDatum(json);
	b->nmoves++;
	return entry->id;
}

static void
add_edge(Batch *b, int64 init, int64 move, int child)
{
	if (b->nedges == b->maxedges)
	{
		b->maxedges *= 2;
		GROW(b->edge_init, b->maxedges);
		GROW(b->edge_move, b->maxedges);
		GROW(b->edge_child, b->maxedges);
	}
	b->edge_init[b->nedges] = init;
	b->edge_move[b->nedges] = move;
	b->edge_child[b->nedges] = child;
	b->nedges++;
}

/*
 * Children that were stored already (by an earlier batch or another
 * session): checks that they are the same positions and takes their current
 * values for the edges.
 */
static void
read_existing_children(Batch *b)
{
	const Tree *tree = b->tree;
	int			n = hash_get_num_entries(b->children);
	Datum	   *ids = palloc(n * sizeof(Datum));
	Datum		values[1];
	HASH_SEQ_STATUS scan;
	ChildEntry *child;
	int			i = 0;

	hash_seq_init(&scan, b->children);
	while ((child = hash_seq_search(&scan)) != NULL)
		ids[i++] = Int64GetDatum(child->id);
	values[0] = datum_array(ids, NULL, n, INT8OID);
	spi_run_kept(psprintf("SELECT s.id, s.state, s.utility, s.mobility, s.proven "
					 "FROM %s s WHERE s.id = ANY($1)", tree->states),
			1, (Oid[]) {INT8ARRAYOID}, values, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	row = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int64		id = DatumGetInt64(SPI_getbinval(row, desc, 1, &isnull));
		Jsonb	   *stored = DatumGetJsonbP(SPI_getbinval(row, desc, 2, &isnull));
		ChildEntry *entry = hash_search(b->children, &id, HASH_FIND, NULL);
		int			c = entry->index;
		Jsonb	   *ours = DatumGetJsonbP(b->child_state[c]);

		/*
		 * Encodings are canonical, so the same position has the same bytes;
		 * a row written by hand may differ in fact order, so decode before
		 * calling it a collision.
		 */
		if (VARSIZE(stored) != VARSIZE(ours) || memcmp(stored, ours, VARSIZE(ours)) != 0)
		{
			GameState  *theirs = gt_decode_state(tree->game, stored);

			if (theirs->size != entry->state->size ||
				memcmp(theirs->data, entry->state->data, theirs->size) != 0)
				hash_collision(tree, id);
		}
		b->child_utility[c] = SPI_getbinval(row, desc, 3, &b->utility_null[c]);
		b->child_mobility[c] = SPI_getbinval(row, desc, 4, &b->mobility_null[c]);
		b->child_proven[c] = SPI_getbinval(row, desc, 5, &isnull);
	}
}

/* Inserts the batch's new states; those another session stored first stay in b->children. */
static void
insert_children(Batch *b, Stored *stored)
{
	Oid			types[9] = {INT8OID, JSONBOID, JSONBOID, INT4OID, TEXTOID, BOOLOID, JSONBOID,
	JSONBOID, BOOLOID};
	Oid			arrays[9];
	Datum		values[9];
	bool		isnull;

	if (b->nchildren == 0)
		return;
	for (int i = 0; i < 9; i++)
		arrays[i] = get_array_type(types[i]);
	values[0] = datum_array(b->child_id, NULL, b->nchildren, INT8OID);
	values[1] = datum_array(b->child_state, NULL, b->nchildren, JSONBOID);
	values[2] = datum_array(b->child_goal, b->goal_null, b->nchildren, JSONBOID);
	values[3] = datum_array(b->child_depth, NULL, b->nchildren, INT4OID);
	values[4] = datum_array(b->child_control, b->control_null, b->nchildren, TEXTOID);
	values[5] = datum_array(b->child_expanded, NULL, b->nchildren, BOOLOID);
	values[6] = datum_array(b->child_utility, b->utility_null, b->nchildren, JSONBOID);
	values[7] = datum_array(b->child_mobility, b->mobility_null, b->nchildren, JSONBOID);
	values[8] = datum_array(b->child_proven, NULL, b->nchildren, BOOLOID);
	spi_run_kept(psprintf("INSERT INTO %s "
					 "(id, state, goal, depth, control, expanded, utility, mobility, proven) "
					 "SELECT * FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9) ORDER BY 1 "
					 "ON CONFLICT (id) DO NOTHING RETURNING id, expanded", b->tree->states),
			9, arrays, values, SPI_OK_INSERT_RETURNING);
	stored->states += SPI_processed;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		int64		id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));

		stored->frontier += !DatumGetBool(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull));
		hash_search(b->children, &id, HASH_REMOVE, NULL);
	}
}

static void
store_batch(Batch *b, int64 *parents, int nparents, Stored *stored)
{
	const Tree *tree = b->tree;
	Oid			arrays[2] = {INT8ARRAYOID, JSONBARRAYOID};
	Datum		values[6];

	if (b->nmoves > 0)
	{
		values[0] = datum_array(b->move_id, NULL, b->nmoves, INT8OID);
		values[1] = datum_array(b->move_json, NULL, b->nmoves, JSONBOID);
		spi_run_kept(psprintf("INSERT INTO %s (id, move) SELECT * FROM unnest($1, $2) ORDER BY 1 "
						 "ON CONFLICT DO NOTHING", tree->moves),
				2, arrays, values, SPI_OK_INSERT);
		spi_run_kept(psprintf("SELECT u.id FROM unnest($1, $2) u(id, move) JOIN %s m ON m.id = u.id "
						 "WHERE m.move <> u.move LIMIT 1", tree->moves),
				2, arrays, values, SPI_OK_SELECT);
		if (SPI_processed > 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("move hash collision in tree \"%s\"", tree->qualified)));
	}

	insert_children(b, stored);

	/*
	 * An edge copies the values of its child.  Under the tree lock no other
	 * session changes values until this transaction commits, so those read
	 * now stay right.
	 */
	tree_lock(tree);
	if (hash_get_num_entries(b->children) > 0)
		read_existing_children(b);

	if (b->nedges > 0)
	{
		Datum	   *next = palloc(b->nedges * sizeof(Datum));
		Datum	   *utility = palloc(b->nedges * sizeof(Datum));
		Datum	   *mobility = palloc(b->nedges * sizeof(Datum));
		Datum	   *proven = palloc(b->nedges * sizeof(Datum));
		bool	   *utility_null = palloc(b->nedges * sizeof(bool));
		bool	   *mobility_null = palloc(b->nedges * sizeof(bool));

		for (int e = 0; e < b->nedges; e++)
		{
			int			c = b->edge_child[e];

			next[e] = b->child_id[c];
			utility[e] = b->child_utility[c];
			utility_null[e] = b->utility_null[c];
			mobility[e] = b->child_mobility[c];
			mobility_null[e] = b->mobility_null[c];
			proven[e] = b->child_proven[c];
		}
		values[0] = int8_array(b->edge_init, b->nedges);
		values[1] = int8_array(b->edge_move, b->nedges);
		values[2] = datum_array(next, NULL, b->nedges, INT8OID);
		values[3] = datum_array(utility, utility_null, b->nedges, JSONBOID);
		values[4] = datum_array(mobility, mobility_null, b->nedges, JSONBOID);
		values[5] = datum_array(proven, NULL, b->nedges, BOOLOID);
		spi_run_kept(psprintf("INSERT INTO %s (init_id, move_id, next_id, utility, mobility, proven) "
						 "SELECT * FROM unnest($1, $2, $3, $4, $5, $6) ORDER BY 1, 2", tree->graph),
				6, (Oid[]) {INT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, JSONBARRAYOID, JSONBARRAYOID,
				BOOLARRAYOID}, values, SPI_OK_INSERT);
		stored->edges += SPI_processed;
	}

	/* Their values now rest on their children: pending until propagated. */
	values[0] = int8_array(parents, nparents);
	spi_run_kept(psprintf("UPDATE %s SET expanded = true WHERE id = ANY($1)", tree->states),
				 1, (Oid[]) {INT8ARRAYOID}, values, SPI_OK_UPDATE);
	stored->expanded += nparents;
	stored->frontier -= nparents;
	tree_count(tree, stored);
}

/*
 * Expands the states of the current SPI result (columns id, state, depth),
 * which the caller has locked.
 */
static void
expand_rows(const Tree *tree, Stored *stored)
{
	const Game *game = tree->game;
	SPITupleTable *rows = SPI_tuptable;
	int			nrows = SPI_processed;
	int64	   *parents = palloc(Max(nrows, 1) * sizeof(int64));
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	GameState  *child = gt_state_alloc(game);
	Batch		b;

	batch_init(&b, tree);
	for (int r = 0; r < nrows; r++)
	{
		bool		isnull;
		HeapTuple	row = rows->vals[r];
		int64		id = DatumGetInt64(SPI_getbinval(row, rows->tupdesc, 1, &isnull));
		Jsonb	   *json = DatumGetJsonbP(SPI_getbinval(row, rows->tupdesc, 2, &isnull));
		int32		depth = DatumGetInt32(SPI_getbinval(row, rows->tupdesc, 3, &isnull));
		GameState  *state = gt_decode_state(game, json);
		int			n = game->legal(game, state, moves);

		CHECK_FOR_INTERRUPTS();
		parents[r] = id;
		for (int m = 0; m < n; m++)
		{
			game->next(game, state, moves[m], child);
			add_edge(&b, id, move_id(&b, state, moves[m]), add_child(&b, child, depth + 1));
		}
	}
	store_batch(&b, parents, nrows, stored);
}

void
tree_insert_root(const Tree *tree, const GameState *root, Stored *stored)
{
	Batch		b;

	batch_init(&b, tree);
	(void) add_child(&b, root, 0);
	insert_children(&b, stored);
}

PG_FUNCTION_INFO_V1(gametree_expand);
Datum
gametree_expand(PG_FUNCTION_ARGS)
{
	int64		state_id = PG_GETARG_INT64(1);
	Stored		stored = {0};
	Tree	   *tree;
	bool		isnull;

	SPI_connect();
	tree = tree_open(PG_GETARG_TEXT_PP(0), TREE_WRITE);
	tree_hold_tables(tree);
	spi_run(psprintf("SELECT id, state, depth, expanded FROM %s WHERE id = $1 FOR UPDATE",
					 tree->states),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("state %lld is not in tree \"%s\"", (long long) state_id, tree->qualified),
				 errhint("State ids are the id column of %s.", tree->states)));
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4, &isnull)))
	{
		expand_rows(tree, &stored);
		tree_propagate_up(tree, state_id);
	}
	tree_close(tree);
	SPI_finish();
	PG_RETURN_INT32((int32) stored.edges);
}

void
tree_grow_batch(const Tree *tree, int batch_size, int max_depth, Stored *stored)
{
	/* Breadth first; SKIP LOCKED lets concurrent sessions share the frontier. */
	spi_run_kept(psprintf("SELECT id, state, depth FROM %s WHERE NOT expanded AND depth < $1 "
					 "ORDER BY depth, id LIMIT $2 FOR UPDATE SKIP LOCKED", tree->states),
			2, (Oid[]) {INT4OID, INT4OID},
			(Datum[]) {Int32GetDatum(max_depth), Int32GetDatum(batch_size)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
		expand_rows(tree, stored);
}

PG_FUNCTION_INFO_V1(gametree_grow_step);
Datum
gametree_grow_step(PG_FUNCTION_ARGS)
{
	int32		batch_size = PG_GETARG_INT32(1);
	int32		max_depth = PG_ARGISNULL(2) ? PG_INT32_MAX : PG_GETARG_INT32(2);
	Stored		stored = {0};
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};
	Tree	   *tree;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	if (batch_size < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batch_size must be positive, not %d", batch_size)));
	if (max_depth < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_depth must not be negative, not %d", max_depth)));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "grow_step must return a row");

	SPI_connect();
	tree = tree_open(PG_GETARG_TEXT_PP(0), TREE_WRITE);
	tree_hold_tables(tree);
	tree_grow_batch(tree, batch_size, max_depth, &stored);
	tree_close(tree);
	SPI_finish();

	values[0] = Int64GetDatum(stored.expanded);
	values[1] = Int64GetDatum(stored.states);
	values[2] = Int64GetDatum(stored.edges);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
