/*
 * shard_node.c: a node's side of a sharded tree (shard.h): its part, the
 * states it ships and stores, and the steps of its propagation.  Each call is one
 * transaction on the node, run by the coordinator over libpq; storing
 * what was stored already changes nothing, so a batch shipped again after
 * a failure is harmless.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "core/compact.h"
#include "core/idindex.h"
#include "miscadmin.h"
#include "pg/packed_rows.h"
#include "pg/spi.h"
#include "port/pg_bswap.h"
#include "store/catalog.h"
#include "store/create.h"
#include "store/propagate.h"
#include "store/rowvalues.h"
#include "store/schema.h"
#include "store/shard.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

int64
shard_create_part(text *name, text *game, int32 node, int64 low, int64 high, Jsonb *root, bool *holds_root)
{
	TreeNode	part = {node, NULL, low, high};

	if (node < 1 || low > high)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid part of a sharded tree: node %d, ids %lld to %lld", node, (long long) low,
						(long long) high),
				 errhint("The coordinator of a sharded tree calls gametree.shard_create.")));
	return create_tree(name, game, root, (Datum) 0, &part, holds_root);
}

/*
 * The node's part, open for writing, with its tables held and, when
 * locked, the tree lock.
 */
static Tree *
open_part_locked(text *name, bool locked)
{
	Tree	   *tree = tree_open(name, TREE_WRITE);

	if (tree->shard == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("tree \"%s\" is not a node's part of a sharded tree", tree->qualified),
				 errhint("The coordinator of a sharded tree ships its states to its nodes.")));
	tree_hold_tables(tree);
	if (locked)
		tree_lock(tree);
	return tree;
}

static Tree *
open_part(text *name)
{
	return open_part_locked(name, true);
}

/* The shipped columns, by where they are in a packed row (shard_shipped_columns). */
typedef enum ShippedColumn
{
	SHIPPED_ID,
	SHIPPED_STATE,
	SHIPPED_GOAL,
	SHIPPED_DEPTH,
	SHIPPED_CONTROL,
	SHIPPED_EXPANDED,
	SHIPPED_UTILITY,
	SHIPPED_MOBILITY,
	SHIPPED_PROVEN,
	SHIPPED_COLUMNS
} ShippedColumn;

StaticAssertDecl(SHIPPED_COLUMNS == SHARD_SHIPPED_COLUMNS, "one count of the shipped columns");

const int	shard_shipped_columns[SHARD_SHIPPED_COLUMNS] = {
	[SHIPPED_ID] = STATES_ID, [SHIPPED_STATE] = STATES_STATE, [SHIPPED_GOAL] = STATES_GOAL,
	[SHIPPED_DEPTH] = STATES_DEPTH, [SHIPPED_CONTROL] = STATES_CONTROL, [SHIPPED_EXPANDED] = STATES_EXPANDED,
	[SHIPPED_UTILITY] = STATES_UTILITY, [SHIPPED_MOBILITY] = STATES_MOBILITY, [SHIPPED_PROVEN] = STATES_PROVEN
};

/* The other nodes, as the coordinator names them: numbers[i] holds lows[i]..highs[i]. */
static TreeNode *
holders_of(Datum numbers, Datum lows, Datum highs, int *n)
{
	Datum	   *number,
			   *low,
			   *high;
	bool	   *nulls;
	int			nlows,
				nhighs;
	TreeNode   *holders;

	deconstruct_array(DatumGetArrayTypeP(numbers), INT4OID, 4, true, TYPALIGN_INT, &number, &nulls, n);
	deconstruct_array(DatumGetArrayTypeP(lows), INT8OID, 8, true, TYPALIGN_DOUBLE, &low, &nulls, &nlows);
	deconstruct_array(DatumGetArrayTypeP(highs), INT8OID, 8, true, TYPALIGN_DOUBLE, &high, &nulls, &nhighs);
	if (nlows != *n || nhighs != *n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("the nodes, their lows and their highs are arrays of one length"),
				 errhint("The coordinator of a sharded tree makes these calls.")));
	holders = palloc0(Max(*n, 1) * sizeof(TreeNode));
	for (int i = 0; i < *n; i++)
	{
		holders[i].number = DatumGetInt32(number[i]);
		holders[i].low = DatumGetInt64(low[i]);
		holders[i].high = DatumGetInt64(high[i]);
		if (holders[i].number < 1 || holders[i].number > TREE_SHARDS || holders[i].low > holders[i].high)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid node of a sharded tree: node %d, ids %lld to %lld", holders[i].number,
							(long long) holders[i].low, (long long) holders[i].high)));
	}
	return holders;
}

void
shard_outbox_store(void *arg, int32 to, int64 rows, bytea *payload)
{
	const Tree *tree = arg;

	spi_run(psprintf("INSERT INTO %s (states, payload) VALUES ($1, $2)", tree->outbox), 2,
			(Oid[]) {INT8OID, BYTEAOID}, (Datum[]) {Int64GetDatum(rows), PointerGetDatum(payload)},
			SPI_OK_INSERT);
}

/*
 * The rows pass on as they were packed, unread but for their ids: the
 * holder's receive functions check them.
 */
void
shard_outbox(text *name, Datum numbers, Datum lows, Datum highs, PayloadSink sink, void *arg)
{
	/*
	 * Not the tree lock: the transaction that reads the outbox stays open
	 * until its rows are stored on the other nodes, whose senders store
	 * here meanwhile.  Only the coordinator's grow, one at a time, adds to
	 * the outbox.
	 */
	Tree	   *tree = open_part_locked(name, false);
	int			nholders;
	TreeNode   *holders = holders_of(numbers, lows, highs, &nholders);
	Oid		   *types = tree_column_types(TREE_STATES, shard_shipped_columns, SHIPPED_COLUMNS);
	PackedRowsWriter *out = palloc(Max(nholders, 1) * sizeof(PackedRowsWriter));
	IdIndex		sent;			/* each state once: batches of a level find the same ones */
	int32		nsent = 0;
	const char *what = psprintf("the outbox %s", tree->outbox);
	SPIPlanPtr	plan = SPI_prepare(psprintf("SELECT payload FROM %s", tree->outbox), 0, NULL);
	Portal		cursor;

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	for (int h = 0; h < nholders; h++)
		packed_rows_writer_init(&out[h], SHIPPED_COLUMNS, types);
	cursor = SPI_cursor_open(NULL, plan, NULL, NULL, true);
	id_index_init(&sent, SHARD_PAYLOAD_ROWS, CurrentMemoryContext);
	/* A payload at a time: a level's outbox may hold gigabytes. */
	for (;;)
	{
		bool		isnull;
		Datum		stored;
		bytea	   *payload;
		PackedRowsCursor rows;

		SPI_cursor_fetch(cursor, true, 1);
		if (SPI_processed == 0)
			break;
		stored = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("%s holds a NULL payload", tree->outbox),
					 errdetail("Rows of a node's tables were written outside gametree.")));
		payload = DatumGetByteaPP(stored);
		packed_rows_cursor_init(&rows, payload, SHIPPED_COLUMNS, what);
		while (packed_rows_next(&rows))
		{
			int64		id;
			int			h = 0;

			CHECK_FOR_INTERRUPTS();
			if (rows.field_len[SHIPPED_ID] != sizeof(int64))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("%s holds a row without an id", tree->outbox),
						 errdetail("Rows of a node's tables were written outside gametree.")));
			memcpy(&id, rows.field[SHIPPED_ID], sizeof(int64));
			id = (int64) pg_ntoh64(id);
			while (h < nholders && (id < holders[h].low || id > holders[h].high))
				h++;
			if (h == nholders)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("%s holds state %lld, which no other node holds", tree->outbox, (long long) id),
						 errdetail("Rows of a node's tables were written outside gametree.")));
			if (id_index_add(&sent, id, nsent) < nsent)
				continue;
			nsent++;
			packed_rows_add_packed(&out[h], rows.row, rows.len);
			if (out[h].rows == SHARD_PAYLOAD_ROWS)
				packed_rows_flush(&out[h], sink, arg, holders[h].number);
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(cursor);
	SPI_freeplan(plan);
	for (int h = 0; h < nholders; h++)
		packed_rows_flush(&out[h], sink, arg, holders[h].number);
	tree_close(tree);
}

/* The states shipped, by column, in order of their ids. */
typedef struct Shipped
{
	Datum	   *values[SHIPPED_COLUMNS];
	bool	   *nulls[SHIPPED_COLUMNS];
	int64	   *rows;			/* the rows to store, in order of id */
	int64		nrows;
} Shipped;

static int
shipped_id_cmp(const void *a, const void *b, void *arg)
{
	const Shipped *s = arg;
	int64		x = DatumGetInt64(s->values[SHIPPED_ID][*(const int64 *) a]),
				y = DatumGetInt64(s->values[SHIPPED_ID][*(const int64 *) b]);

	return (x > y) - (x < y);
}

static void
fill_shipped(void *arg, RowChunk *c, int k, int64 index)
{
	const Shipped *s = arg;
	int64		r = s->rows[index];

	for (int col = 0; col < SHIPPED_COLUMNS; col++)
		row_set(c, col, k, s->values[col][r], s->nulls[col][r]);
}

/*
 * The states arrive in their binary forms, which their types' receive
 * functions check; a state's, which checks that its bytes are a position
 * of the tree's game and costs most, only for the states not stored yet.
 * The table's CHECK that each id is its state's hash is evaluated as they
 * are stored.  Those stored already keep their rows: they were stored at a
 * depth no greater, as levels arrive in order, and their bytes must be the
 * same (else two positions share a hash).
 */
int64
shard_accept(text *name, int32 node, const bytea *payload)
{
	Tree	   *tree = open_part(name);
	ExpansionCounts stored = {0};
	Shipped		s = {0};
	Oid		   *types = tree_column_types(TREE_STATES, shard_shipped_columns, SHIPPED_COLUMNS);
	Oid		   *arriving = tree_column_types(TREE_STATES, shard_shipped_columns, SHIPPED_COLUMNS);
	int32		typmods[SHIPPED_COLUMNS];
	ValueReceiver state_receiver;
	RowTable	table = {tree->relids[TREE_STATES], tree->states,
		tree_column_names(TREE_STATES, shard_shipped_columns, SHIPPED_COLUMNS), false};
	int64		n;
	int64		distinct = 0;
	Datum	   *ids;
	IdIndex		arrived;

	for (int c = 0; c < SHIPPED_COLUMNS; c++)
	{
		Oid			type,
					collation;

		get_atttypetypmodcoll(tree->relids[TREE_STATES], get_attnum(tree->relids[TREE_STATES], table.columns[c]),
							  &type, &typmods[c], &collation);
	}
	/* The states as their bytes, for now. */
	arriving[SHIPPED_STATE] = BYTEAOID;
	n = packed_rows_read(payload, SHIPPED_COLUMNS, arriving, typmods, s.values, s.nulls,
						 psprintf("states shipped to tree \"%s\"", tree->qualified));
	/* In order of id, each once, all of this node's range. */
	s.rows = palloc_extended(Max(n, 1) * sizeof(int64), MCXT_ALLOC_HUGE);
	for (int64 r = 0; r < n; r++)
	{
		int64		id = DatumGetInt64(s.values[SHIPPED_ID][r]);

		if (s.nulls[SHIPPED_ID][r] || s.nulls[SHIPPED_STATE][r] || s.nulls[SHIPPED_DEPTH][r] ||
			id < tree->shard->low || id > tree->shard->high)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("node %d shipped to tree \"%s\" a state it does not hold", node, tree->qualified),
					 errdetail("State %lld; this node holds the ids %lld to %lld.", (long long) id,
							   (long long) tree->shard->low, (long long) tree->shard->high)));
		s.rows[r] = r;
	}
	qsort_arg(s.rows, n, sizeof(int64), shipped_id_cmp, &s);
	ids = palloc_extended(Max(n, 1) * sizeof(Datum), MCXT_ALLOC_HUGE);
	for (int64 k = 0; k < n; k++)
		if (distinct == 0 || DatumGetInt64(s.values[SHIPPED_ID][s.rows[k]]) != DatumGetInt64(ids[distinct - 1]))
		{
			s.rows[distinct] = s.rows[k];
			ids[distinct++] = s.values[SHIPPED_ID][s.rows[k]];
		}
	/* Those stored already. */
	id_index_init(&arrived, distinct, CurrentMemoryContext);
	for (int64 k = 0; k < distinct; k++)
		(void) id_index_add(&arrived, DatumGetInt64(ids[k]), (int32) k);
	spi_run_kept(psprintf("SELECT id, state FROM %s WHERE id = ANY ($1)", tree->states), 1,
				 (Oid[]) {INT8ARRAYOID}, (Datum[]) {datum_array(ids, NULL, distinct, INT8OID)}, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		int64		id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull));
		struct varlena *held = PG_DETOAST_DATUM_PACKED(SPI_getbinval(SPI_tuptable->vals[r],
																	   SPI_tuptable->tupdesc, 2, &isnull));
		int32		k = id_index_find(&arrived, id);
		bytea	   *came = DatumGetByteaPP(s.values[SHIPPED_STATE][s.rows[k]]);

		/* The game's packings, after its number (in the byte order of each form). */
		if (VARSIZE_ANY_EXHDR(held) != VARSIZE_ANY_EXHDR(came) ||
			memcmp(VARDATA_ANY(held) + GT_STATE_NUMBER_BYTES, VARDATA_ANY(came) + GT_STATE_NUMBER_BYTES,
				   VARSIZE_ANY_EXHDR(came) - GT_STATE_NUMBER_BYTES) != 0)
			tree_hash_collision(tree, id);
		s.rows[k] = -1;
	}
	SPI_freetuptable(SPI_tuptable);
	for (int64 k = 0; k < distinct; k++)
		if (s.rows[k] >= 0)
			s.rows[s.nrows++] = s.rows[k];
	counts_init(&stored.counts);
	value_receiver_init(&state_receiver, types[SHIPPED_STATE], typmods[SHIPPED_STATE]);
	for (int64 k = 0; k < s.nrows; k++)
	{
		int64		r = s.rows[k];
		int32		depth = DatumGetInt32(s.values[SHIPPED_DEPTH][r]);
		DepthCount *at = counts_at(&stored.counts, depth);
		bytea	   *bytes = DatumGetByteaPP(s.values[SHIPPED_STATE][r]);
		bool		whole;

		CHECK_FOR_INTERRUPTS();
		s.values[SHIPPED_STATE][r] = value_receive(&state_receiver, VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes),
												   &whole);
		if (!whole)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("node %d shipped to tree \"%s\" state %lld with bytes after it", node,
							tree->qualified, (long long) DatumGetInt64(s.values[SHIPPED_ID][r]))));

		at->states++;
		/* As a batch stores them: a terminal state is expanded, with its goals as its value. */
		if (!s.nulls[SHIPPED_GOAL][r])
			at->terminal++;
		else
			stored.frontier++;
		if (!s.nulls[SHIPPED_PROVEN][r] && DatumGetBool(s.values[SHIPPED_PROVEN][r]) &&
			!s.nulls[SHIPPED_UTILITY][r])
			counts_proven(&stored.counts, depth, DatumGetJsonbP(s.values[SHIPPED_UTILITY][r]), 1);
	}
	stored.states = write_rows(NULL, &table, SHIPPED_COLUMNS, types, s.nrows, fill_shipped, NULL, &s,
							   SPI_OK_INSERT, NULL);
	tree_add_counts(tree, &stored);
	tree_close(tree);
	return stored.states;
}

void
shard_read_part(text *name, bool from_scratch, Datum numbers, Datum lows, Datum highs, PayloadSink sink,
				void *arg)
{
	Tree	   *tree = open_part(name);
	int			nholders;
	TreeNode   *holders = holders_of(numbers, lows, highs, &nholders);

	tree_keep_part(tree, from_scratch);
	tree_kept_wanted(tree, holders, nholders, sink, arg);
	tree_close(tree);
}

int64
shard_take_wanted(text *name, int32 node, const bytea *payload)
{
	Tree	   *tree = open_part(name);
	int64		found = tree_kept_take_wanted(tree, node, payload);

	tree_close(tree);
	return found;
}

void
shard_values(text *name, PayloadSink sink, void *arg)
{
	Tree	   *tree = open_part(name);

	tree_kept_values(tree, sink, arg);
	tree_close(tree);
}

int64
shard_take_values(text *name, const bytea *payload)
{
	Tree	   *tree = open_part(name);
	int64		changed = tree_kept_take_values(tree, payload);

	tree_close(tree);
	return changed;
}

void
shard_propagate_depth(text *name, int32 depth)
{
	Tree	   *tree = open_part(name);

	tree_propagate_kept(tree, depth);
	tree_close(tree);
}

void
shard_end_propagation(text *name)
{
	Tree	   *tree = open_part(name);

	tree_end_kept(tree);
	tree_close(tree);
}
