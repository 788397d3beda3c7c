/*
 * expand.c: expand(tree, state_id), grow_step(tree, batch_size, max_depth)
 * and the batches of grow (expand.h), which add the successors of frontier states to a
 * tree's tables.
 *
 * A batch takes frontier states shallowest first (SKIP LOCKED, so that
 * concurrent sessions share the frontier) and generates their children in
 * C.  When it holds the whole frontier, grow's batch goes on breadth first
 * in memory, level by level, within its limits: the states it expands there
 * are written once, already expanded and valued from their subtree, instead
 * of being written as frontier and rewritten later.  Values are computed in
 * the batch bottom-up (search/values.c); what changes above its first states
 * is left to propagation, counted in gametree.trees.pending.
 *
 * Rows are written with one set-based statement per table, under the tree
 * lock, in ascending key order.  A state id is the game's stable 64-bit
 * state hash; a different position with the same hash is detected and
 * reported, never merged.
 */
#include "postgres.h"

#include "core/compact.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "core/clock.h"
#include "core/idindex.h"
#include "store/settings.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pg/packed_rows.h"
#include "store/expand.h"
#include "store/propagate.h"
#include "store/rowvalues.h"
#include "store/schema.h"
#include "store/shard.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

typedef enum NodeKind
{
	NODE_TAKEN,					/* a frontier state this batch took (and locked) */
	NODE_NEW,					/* found by this batch, to be inserted */
	NODE_STORED					/* in the tables already */
} NodeKind;

typedef struct BatchNode
{
	int64		id;
	GameState  *state;
	int32		depth;
	int8		kind;
	bool		terminal;
	bool		expanded;		/* by this batch: its edges are first_edge .. + nedges - 1 */
	int			mover;
	int32		first_edge;
	int32		nedges;
	Datum		state_value;	/* NODE_NEW: the gametree.state value */
	Datum		goal_json;		/* NODE_NEW and terminal */
	Value		value;
} BatchNode;

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

typedef struct Batch
{
	const Tree *tree;
	const Game *game;
	const GrowLimits *limits;
	IdIndex		node_ids;		/* id -> index in nodes */
	HTAB	   *move_ids;		/* (role, move) -> MoveEntry */
	BatchNode  *nodes;
	int32		nnodes,
				maxnodes;
	int64	   *edge_move;
	int32	   *edge_child;
	int32		nedges,
				maxedges;
	Datum	   *move_id,
			   *move_json;
	int			nmoves,
				maxmoves;
	int64		new_nodes;		/* of kind NODE_NEW */
	bool		tables_hold_rows_only;	/* no state is stored but the batch's rows */
	MemoryContext cxt;			/* holds the batch: measured against memory */
	Size		memory;			/* bytes gametree.work_memory gives it */
	MemoryContext scratch;		/* for encoding, reset after each state */
	ValueCodec *codec;
	GameMove   *legal;			/* room for max_moves */
	GameState  *child;
	TimestampTz noticed;
	TreeCounts *counts;			/* what storing it changes (store_batch) */
	GtClock		clock;			/* of limits->deadline */
} Batch;

#define GROW(arr, n) ((arr) = repalloc_huge((arr), (Size) (n) * sizeof(*(arr))))

static void
batch_init(Batch *b, const Tree *tree, const GrowLimits *limits)
{
	HASHCTL		ctl = {0};

	memset(b, 0, sizeof(Batch));
	b->tree = tree;
	b->game = tree->game;
	b->limits = limits;
	b->memory = gt_memory_limit(&gt_work_memory);
	b->cxt = CurrentMemoryContext;
	b->scratch = AllocSetContextCreate(CurrentMemoryContext, "gametree batch scratch",
									   ALLOCSET_DEFAULT_SIZES);
	id_index_init(&b->node_ids, 1024, CurrentMemoryContext);
	ctl.hcxt = CurrentMemoryContext;
	ctl.keysize = sizeof(MoveKey);
	ctl.entrysize = sizeof(MoveEntry);
	b->move_ids = hash_create("gametree batch moves", 256, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	b->maxnodes = b->maxedges = b->maxmoves = 64;
	b->nodes = palloc(b->maxnodes * sizeof(BatchNode));
	b->edge_move = palloc(b->maxedges * sizeof(int64));
	b->edge_child = palloc(b->maxedges * sizeof(int32));
	b->move_id = palloc(b->maxmoves * sizeof(Datum));
	b->move_json = palloc(b->maxmoves * sizeof(Datum));
	b->codec = value_codec_create(b->game);
	b->legal = palloc(b->game->max_moves * sizeof(GameMove));
	b->child = gt_state_alloc(b->game);
	b->noticed = GetCurrentTimestamp();
}

static Datum
encoded(Batch *b, Jsonb *json)
{
	Jsonb	   *kept = MemoryContextAlloc(b->cxt, VARSIZE(json));

	memcpy(kept, json, VARSIZE(json));
	MemoryContextReset(b->scratch);
	return JsonbPGetDatum(kept);
}

/* Adds a node (once per id): returns its index. */
static int32
add_node(Batch *b, int64 id, const GameState *state, int32 depth, NodeKind kind)
{
	const Game *game = b->game;
	int32		index = id_index_add(&b->node_ids, id, b->nnodes);
	BatchNode  *node = &b->nodes[index];

	if (index < b->nnodes)
	{
		if (node->state->size != state->size || memcmp(node->state->data, state->data, state->size) != 0)
			tree_hash_collision(b->tree, id);
		return index;
	}
	if (b->nnodes == b->maxnodes)
	{
		b->maxnodes *= 2;
		GROW(b->nodes, b->maxnodes);
	}
	b->nnodes++;
	node = &b->nodes[index];
	memset(node, 0, sizeof(BatchNode));
	node->id = id;
	node->state = gt_state_alloc(game);
	gt_state_copy(node->state, state);
	node->depth = depth;
	node->kind = kind;
	node->terminal = game->terminal(game, state);
	node->mover = node->terminal ? GT_NO_ROLE : gt_mover(game, state);
	value_of_state(game, state, node->terminal, &node->value);
	if (kind == NODE_NEW)
	{
		MemoryContext outer = MemoryContextSwitchTo(b->cxt);

		node->state_value = PointerGetDatum(gt_state_value(game, state));
		MemoryContextSwitchTo(outer);
		b->new_nodes++;
		if (node->terminal)
		{
			MemoryContextSwitchTo(b->scratch);
			node->goal_json = encoded(b, gt_encode_goals(game, state));
			MemoryContextSwitchTo(outer);
		}
	}
	return index;
}

int64
tree_move_id(Jsonb *move)
{
	char	   *text = JsonbToCString(NULL, &move->root, VARSIZE(move));
	int64		id = (int64) gt_hash_bytes((const uint8 *) text, strlen(text));

	pfree(text);
	return id;
}

/* The id of a joint move, adding its row to the batch the first time. */
static int64
move_id(Batch *b, const GameState *state, int mover, GameMove move)
{
	MoveKey		key = {0};
	MoveEntry  *entry;
	bool		found;
	Jsonb	   *json;

	key.role = mover;
	key.move = move;
	entry = hash_search(b->move_ids, &key, HASH_ENTER, &found);
	if (found)
		return entry->id;
	json = gt_encode_move(b->game, state, move);
	entry->id = tree_move_id(json);
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

/*
 * Forgets what an expansion that gave up added (core/clock.h): the nodes
 * from nnodes on, the edges from nedges on.  The moves it added stay: their
 * rows are right whatever the states.
 */
static void
undo_expansion(Batch *b, int32 i, int32 nnodes, int32 nedges)
{
	for (int32 k = nnodes; k < b->nnodes; k++)
		b->new_nodes -= b->nodes[k].kind == NODE_NEW;
	b->nnodes = nnodes;
	b->nedges = nedges;
	b->nodes[i].expanded = false;
	b->nodes[i].nedges = 0;
	/* Rare (once, as the batch stops): the index is built again rather than taught to remove. */
	id_index_free(&b->node_ids);
	id_index_init(&b->node_ids, nnodes, b->cxt);
	for (int32 k = 0; k < nnodes; k++)
		(void) id_index_add(&b->node_ids, b->nodes[k].id, k);
}

/*
 * Generates the children of node i and its edges to them; false, and
 * nothing added, when a game call gave up at the deadline.
 */
static bool
expand_node(Batch *b, int32 i)
{
	const Game *game = b->game;
	GameState  *state = b->nodes[i].state;
	int32		depth = b->nodes[i].depth;
	int			mover = b->nodes[i].mover;
	int32		nnodes = b->nnodes;
	int32		nedges = b->nedges;
	int			n = game->legal(game, state, b->legal);

	b->nodes[i].expanded = true;
	b->nodes[i].first_edge = b->nedges;
	b->nodes[i].nedges = n;
	for (int m = 0; m < n; m++)
	{
		int64		move = move_id(b, state, mover, b->legal[m]);
		int32		child;

		game->next(game, state, b->legal[m], b->child);
		child = add_node(b, (int64) gt_state_hash(game, b->child), b->child, depth + 1, NODE_NEW);
		if (b->nedges == b->maxedges)
		{
			b->maxedges *= 2;
			GROW(b->edge_move, b->maxedges);
			GROW(b->edge_child, b->maxedges);
		}
		b->edge_move[b->nedges] = move;
		b->edge_child[b->nedges] = child;
		b->nedges++;
	}
	if (gt_clock_abandoned())
	{
		undo_expansion(b, i, nnodes, nedges);
		return false;
	}
	return true;
}

/*
 * New nodes from..to-1 that the tables hold already: checks that they are the same positions, takes their current
 * values, and marks them stored.
 */
static void
read_stored(Batch *b, int32 from, int32 to)
{
	const Tree *tree = b->tree;
	Datum	   *ids;
	int			n = 0;

	if (from >= to || b->tables_hold_rows_only)
		return;
	ids = palloc((to - from) * sizeof(Datum));
	for (int32 i = from; i < to; i++)
		if (b->nodes[i].kind == NODE_NEW)
			ids[n++] = Int64GetDatum(b->nodes[i].id);
	/*
	 * On a node of a sharded tree, only the states held here: one another
	 * node holds is new here each time it is found, and its holder stores
	 * it once (shard.h).
	 */
	spi_run_kept(psprintf("SELECT s.id, s.state, s.utility, s.mobility, s.proven, s.expanded "
						  "FROM %s s WHERE s.id = ANY($1)", tree->states),
				 1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {datum_array(ids, NULL, n, INT8OID)},
				 SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	row = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull,
					utility_null,
					mobility_null;
		int64		id = DatumGetInt64(SPI_getbinval(row, desc, 1, &isnull));
		struct varlena *stored = PG_DETOAST_DATUM_PACKED(SPI_getbinval(row, desc, 2, &isnull));
		BatchNode  *node = &b->nodes[id_index_find(&b->node_ids, id)];
		struct varlena *ours = (struct varlena *) DatumGetPointer(node->state_value);
		Datum		utility = SPI_getbinval(row, desc, 3, &utility_null);
		Datum		mobility = SPI_getbinval(row, desc, 4, &mobility_null);

		/* Packings are canonical: the same position has the same bytes. */
		if (VARSIZE_ANY_EXHDR(stored) != VARSIZE_ANY_EXHDR(ours) ||
			memcmp(VARDATA_ANY(stored), VARDATA_ANY(ours), VARSIZE_ANY_EXHDR(ours)) != 0)
			tree_hash_collision(tree, id);
		node->kind = NODE_STORED;
		b->new_nodes--;
		/* An unexpanded state keeps the estimate add_node computed: its row holds none. */
		if (DatumGetBool(SPI_getbinval(row, desc, 6, &isnull)))
			value_read(b->codec, utility, utility_null, mobility, mobility_null,
					   DatumGetBool(SPI_getbinval(row, desc, 5, &isnull)), &node->value);
	}
	SPI_freetuptable(SPI_tuptable);
	pfree(ids);
}

/*
 * Sorting states by id and edges by key, as the pairs and triples
 * themselves rather than indexes into the nodes: sorting a million nodes
 * through indexes was cache misses more than comparisons.
 */
#define ST_SORT sort_by_id
#define ST_ELEMENT_TYPE IdRow
#define ST_COMPARE(a, b) (((a)->id > (b)->id) - ((a)->id < (b)->id))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

typedef struct EdgeRow
{
	int64		init;
	int64		move;
	int32		child;
} EdgeRow;

#define ST_SORT sort_by_key
#define ST_ELEMENT_TYPE EdgeRow
#define ST_COMPARE(a, b) ((a)->init != (b)->init ? ((a)->init > (b)->init) - ((a)->init < (b)->init) : \
						  ((a)->move > (b)->move) - ((a)->move < (b)->move))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

/* The nodes from..to-1 that pass keep, in id order; returns how many. */
static int32
nodes_by_id(Batch *b, int32 from, int32 to, bool (*keep) (const Batch *b, const BatchNode *node),
			IdRow *out)
{
	int32		n = 0;

	for (int32 i = from; i < to; i++)
		if (keep(b, &b->nodes[i]))
		{
			out[n].id = b->nodes[i].id;
			out[n++].row = i;
		}
	sort_by_id(out, n);
	return n;
}

/*
 * May the batch go one more state deeper in memory?  The clock and the
 * memory are read only when asked to (every few hundred states).
 */
static bool
may_deepen(Batch *b, bool look)
{
	const GrowLimits *limits = b->limits;
	TimestampTz now;

	if (limits->max_new_states >= 0 && b->new_nodes >= limits->max_new_states)
		return false;
	if (!look)
		return true;
	/* Writing adds the edges' keys and the states' ids, to sort them. */
	if (MemoryContextMemAllocated(b->cxt, true) + b->nedges * sizeof(EdgeRow) +
		b->new_nodes * sizeof(IdRow) > b->memory)
		return false;
	now = GetCurrentTimestamp();
	if (now >= limits->deepen_until)
		return false;
	return limits->deadline == 0 ||
		now + (int64) (1e6 * limits->write_seconds_per_row * (b->new_nodes + b->nedges)) < limits->deadline;
}

static void
report(Batch *b, const char *phase)
{
	if (b->limits->progress == NULL ||
		!TimestampDifferenceExceeds(b->noticed, GetCurrentTimestamp(), gt_progress_interval))
		return;
	b->noticed = GetCurrentTimestamp();
	b->limits->progress(b->limits->progress_arg, phase, b->nnodes);
}

static bool
to_deepen(const Batch *b, const BatchNode *node)
{
	return node->kind == NODE_NEW && !node->terminal && node->depth < b->limits->max_depth;
}

/*
 * Breadth first in memory from the level of nodes from..to-1 (all new, and
 * not stored): expands its non-terminal states shallower than max_depth in
 * id order, as the tables' frontier order would, while the limits allow.
 */
static void
deepen(Batch *b, int32 from, int32 to)
{
	while (from < to)
	{
		IdRow	   *level = palloc_extended((to - from) * sizeof(IdRow), MCXT_ALLOC_HUGE);
		int32		n = nodes_by_id(b, from, to, to_deepen, level);
		bool		stop = false;

		for (int32 k = 0; k < n && !stop; k++)
		{
			bool		look = gt_clock_look(&b->clock);

			if (look)
				report(b, "expanding in memory");
			stop = !may_deepen(b, look) || !expand_node(b, level[k].row);
		}
		pfree(level);
		from = to;
		to = b->nnodes;
		read_stored(b, from, to);
		if (stop)
			return;
	}
}

/*
 * Values of the states this batch expanded, from their children's: deepest
 * (latest found) first.  A child the batch expanded too is valued before its
 * parent unless a cycle or a transposition upward links them; propagation
 * settles those.  Returns whether every value is final that way.
 */
static bool
evaluate(Batch *b)
{
	bool		final = true;

	Value	   *moves = palloc(b->game->max_moves * sizeof(Value));

	for (int32 i = b->nnodes - 1; i >= 0; i--)
	{
		BatchNode  *node = &b->nodes[i];

		if (!node->expanded)
			continue;
		for (int32 k = 0; k < node->nedges; k++)
		{
			int32		child = b->edge_child[node->first_edge + k];

			moves[k] = b->nodes[child].value;
			moves[k].move_id = b->edge_move[node->first_edge + k];
			final &= !(b->nodes[child].expanded && child <= i);
		}
		value_evaluate(b->game, node->mover, moves, node->nedges, &node->value);
	}
	pfree(moves);
	return final;
}

/* What the fill functions of a batch's statements read: the batch, and which of its rows, in key order. */
typedef struct BatchRows
{
	Batch	   *b;
	IdRow	   *states;
	EdgeRow    *edges;
} BatchRows;

/*
 * The columns a batch inserts (schema.h), by where its fill functions set
 * them: every column of a new state; an edge's ends and move (visits and
 * total keep their defaults).  The value columns follow one another, as
 * row_set_value sets them.
 */
enum
{
	STATE_ID, STATE_STATE, STATE_GOAL, STATE_DEPTH, STATE_CONTROL, STATE_EXPANDED,
	STATE_VALUE, STATE_MOBILITY, STATE_PROVEN, STATE_BEST_MOVE, STATE_INSERTED
};
static const int state_columns[STATE_INSERTED] = {
	[STATE_ID] = STATES_ID, [STATE_STATE] = STATES_STATE, [STATE_GOAL] = STATES_GOAL,
	[STATE_DEPTH] = STATES_DEPTH, [STATE_CONTROL] = STATES_CONTROL,
	[STATE_EXPANDED] = STATES_EXPANDED, [STATE_VALUE] = STATES_UTILITY,
	[STATE_MOBILITY] = STATES_MOBILITY, [STATE_PROVEN] = STATES_PROVEN,
	[STATE_BEST_MOVE] = STATES_BEST_MOVE,
};

enum
{
	EDGE_INIT_ID, EDGE_MOVE_ID, EDGE_NEXT_ID, EDGE_INSERTED
};
static const int edge_columns[EDGE_INSERTED] = {
	[EDGE_INIT_ID] = EDGES_INIT_ID, [EDGE_MOVE_ID] = EDGES_MOVE_ID, [EDGE_NEXT_ID] = EDGES_NEXT_ID,
};

/* A new state's row: id, state, goal, depth, control, expanded, then its value. */
static void
fill_state(void *arg, RowChunk *c, int k, int64 index)
{
	BatchRows  *rows = arg;
	Batch	   *b = rows->b;
	BatchNode  *node = &b->nodes[rows->states[index].row];
	Value		unknown;

	row_set(c, STATE_ID, k, Int64GetDatum(node->id), false);
	row_set(c, STATE_STATE, k, node->state_value, false);
	row_set(c, STATE_GOAL, k, node->goal_json, !node->terminal);
	row_set(c, STATE_DEPTH, k, Int32GetDatum(node->depth), false);
	row_set(c, STATE_CONTROL, k, node->mover == GT_NO_ROLE ? (Datum) 0 :
			CStringGetTextDatum(b->game->roles[node->mover]), node->mover == GT_NO_ROLE);
	/* A terminal state has nothing to expand. */
	row_set(c, STATE_EXPANDED, k, BoolGetDatum(node->terminal || node->expanded), false);
	/*
	 * An unexpanded state's value is the game's estimate, a function of its
	 * state: its row keeps none (NULL), and readers compute it.
	 */
	value_unknown(b->game, &unknown);
	row_set_value(b->codec, c, STATE_VALUE, k, node->terminal || node->expanded ? &node->value : &unknown,
				  true);
}

/* A new state of this server (of a sharded tree's node, in its range). */
static bool
is_new(const Batch *b, const BatchNode *node)
{
	const TreeNode *shard = b->tree->shard;

	return node->kind == NODE_NEW && (shard == NULL || (node->id >= shard->low && node->id <= shard->high));
}

/* A new state another node of a sharded tree holds: in the outbox here until it is shipped there. */
static bool
is_new_elsewhere(const Batch *b, const BatchNode *node)
{
	return node->kind == NODE_NEW && !is_new(b, node);
}

/*
 * The states a batch of a sharded tree's node found that other nodes hold,
 * into its outbox, packed as they travel: shipping passes them on as they
 * are.
 */
static void
insert_outgoing(Batch *b, BatchRows *rows)
{
	int32		n = nodes_by_id(b, 0, b->nnodes, is_new_elsewhere, rows->states);
	int			chunk_column[SHARD_SHIPPED_COLUMNS];	/* of each shipped column, as fill_state sets it */
	RowChunk   *chunk;
	PackedRowsWriter out;

	if (n == 0)
		return;
	for (int c = 0; c < SHARD_SHIPPED_COLUMNS; c++)
	{
		chunk_column[c] = -1;
		for (int i = 0; i < STATE_INSERTED; i++)
			if (state_columns[i] == shard_shipped_columns[c])
				chunk_column[c] = i;
		Assert(chunk_column[c] >= 0);
	}
	chunk = palloc(sizeof(RowChunk));
	packed_rows_writer_init(&out, SHARD_SHIPPED_COLUMNS,
							tree_column_types(TREE_STATES, shard_shipped_columns, SHARD_SHIPPED_COLUMNS));
	for (int32 k = 0; k < n; k++)
	{
		Datum		values[SHARD_SHIPPED_COLUMNS];
		bool		nulls[SHARD_SHIPPED_COLUMNS];

		fill_state(rows, chunk, 0, k);
		for (int c = 0; c < SHARD_SHIPPED_COLUMNS; c++)
		{
			values[c] = chunk->values[chunk_column[c]][0];
			nulls[c] = chunk->nulls[chunk_column[c]][0];
		}
		packed_rows_add(&out, values, nulls);
		if (out.rows == SHARD_PAYLOAD_ROWS)
			packed_rows_flush(&out, shard_outbox_store, (void *) b->tree, 0);
	}
	packed_rows_flush(&out, shard_outbox_store, (void *) b->tree, 0);
	pfree(chunk);
}

/*
 * Inserts the new states.  Under the tree lock only a session that stored
 * states since this batch looked could have stored some of them: then they
 * are looked up again, and count as stored ones.
 */
static void
insert_states(Batch *b, int64 states_seen, ExpansionCounts *stored)
{
	BatchRows	rows = {b};
	int32		n;
	RowTable	table = {b->tree->relids[TREE_STATES], b->tree->states,
		tree_column_names(TREE_STATES, state_columns, STATE_INSERTED), true};

	if (states_seen >= 0 && tree_state_count(b->tree) != states_seen)
	{
		b->tables_hold_rows_only = false;
		read_stored(b, 0, b->nnodes);
		stored->settled = false;
	}
	/* In key order: concurrent writers then never wait on each other in a cycle. */
	rows.states = palloc_extended(Max(b->nnodes, 1) * sizeof(IdRow), MCXT_ALLOC_HUGE);
	n = nodes_by_id(b, 0, b->nnodes, is_new, rows.states);
	for (int32 k = 0; k < n; k++)
	{
		BatchNode  *node = &b->nodes[rows.states[k].row];
		DepthCount *at = counts_at(&stored->counts, node->depth);

		if (!node->terminal && !node->expanded)
			stored->frontier++;
		if (node->expanded)
			stored->expanded++;
		at->states++;
		/* As fill_state writes them: goal when terminal, expanded when terminal or expanded. */
		if (node->terminal)
			at->terminal++;
		else if (node->expanded)
			at->expanded++;
		if (node->value.proven)
			counts_proven(&stored->counts, node->depth, value_utility_json(b->codec, &node->value), 1);
	}
	stored->states += write_rows(NULL, &table, STATE_INSERTED,
								 tree_column_types(TREE_STATES, state_columns, STATE_INSERTED),
								 n, fill_state, NULL, &rows, SPI_OK_INSERT, NULL);
	if (b->tree->shard != NULL)
		insert_outgoing(b, &rows);
	pfree(rows.states);
}

/* An edge's row: init_id, move_id, next_id. */
static void
fill_edge(void *arg, RowChunk *c, int k, int64 index)
{
	BatchRows  *rows = arg;
	const EdgeRow *edge = &rows->edges[index];
	const BatchNode *child = &rows->b->nodes[edge->child];

	row_set(c, EDGE_INIT_ID, k, Int64GetDatum(edge->init), false);
	row_set(c, EDGE_MOVE_ID, k, Int64GetDatum(edge->move), false);
	row_set(c, EDGE_NEXT_ID, k, Int64GetDatum(child->id), false);
}

/* Edges out of the states this batch expanded and stores. */
static void
insert_edges(Batch *b, ExpansionCounts *stored)
{
	BatchRows	rows = {b};
	int32		n = 0;
	RowTable	table = {b->tree->relids[TREE_EDGES], b->tree->edges,
		tree_column_names(TREE_EDGES, edge_columns, EDGE_INSERTED), false};

	rows.edges = palloc_extended(Max(b->nedges, 1) * sizeof(EdgeRow), MCXT_ALLOC_HUGE);
	for (int32 i = 0; i < b->nnodes; i++)
	{
		BatchNode  *node = &b->nodes[i];

		if (!node->expanded || node->kind == NODE_STORED)
			continue;
		counts_at(&stored->counts, node->depth)->edges += node->nedges;
		for (int32 k = 0; k < node->nedges; k++)
		{
			rows.edges[n].init = node->id;
			rows.edges[n].move = b->edge_move[node->first_edge + k];
			rows.edges[n++].child = b->edge_child[node->first_edge + k];
		}
	}
	/* In key order, as the states. */
	sort_by_key(rows.edges, n);
	stored->edges += write_rows(NULL, &table, EDGE_INSERTED,
								tree_column_types(TREE_EDGES, edge_columns, EDGE_INSERTED),
								n, fill_edge, NULL, &rows, SPI_OK_INSERT, NULL);
	pfree(rows.edges);
}

/* A frontier state taken: expanded, valued from its children. */
static void
fill_taken(void *arg, RowChunk *c, int k, int64 index)
{
	Batch	   *b = arg;

	row_set(c, 0, k, Int64GetDatum(b->nodes[index].id), false);
	row_set_value(b->codec, c, 1, k, &b->nodes[index].value, true);
}

/* After each statement marking taken states: how their values changed, for the counts. */
static bool
taken_written(void *arg, int64 written)
{
	counts_value_changes(((Batch *) arg)->counts);
	return true;
}

/* Writes the batch: moves, states, edges, then the frontier states it expanded. */
static void
store_batch(Batch *b, int32 nrows, int64 states_seen, ExpansionCounts *stored)
{
	const Tree *tree = b->tree;
	Oid			arrays[2] = {INT8ARRAYOID, JSONBARRAYOID};

	/*
	 * Under the tree lock no other session stores states or changes values
	 * until this transaction commits, so the values read now stay right.
	 * Taken before the first row is written: a session that inserted moves
	 * and then waited for the lock would hold rows its holder may insert
	 * too (ON CONFLICT waits for the inserter), a cycle of waits.
	 */
	tree_lock(tree);
	if (b->nmoves > 0)
	{
		Datum		values[2] = {datum_array(b->move_id, NULL, b->nmoves, INT8OID),
		datum_array(b->move_json, NULL, b->nmoves, JSONBOID)};

		spi_run_kept(psprintf("INSERT INTO %s (id, move) SELECT * FROM unnest($1, $2) ORDER BY 1 "
							  "ON CONFLICT DO NOTHING", tree->moves),
					 2, arrays, values, SPI_OK_INSERT);
		stored->moves += SPI_processed;
		spi_run_kept(psprintf("SELECT u.id FROM unnest($1, $2) u(id, move) JOIN %s m ON m.id = u.id "
							  "WHERE m.move <> u.move LIMIT 1", tree->moves),
					 2, arrays, values, SPI_OK_SELECT);
		if (SPI_processed > 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("move hash collision in tree \"%s\"", tree->qualified)));
	}

	insert_states(b, states_seen, stored);
	insert_edges(b, stored);
	/* The taken states' old values (o) as well as the new, for the counts. */
	b->counts = &stored->counts;
	write_rows(psprintf("UPDATE %s s SET expanded = true, utility = u.utility, "
						"mobility = u.mobility, proven = u.proven, best_move = u.best_move "
						"FROM unnest($1, $2, $3, $4, $5) u(id, utility, mobility, proven, best_move), %s o "
						"WHERE s.id = u.id AND o.id = u.id " COUNTS_RETURNING, tree->states, tree->states),
			   NULL, 5, (Oid[]) {INT8OID, JSONBOID, JSONBOID, BOOLOID, INT8OID}, nrows, fill_taken,
			   taken_written, b, SPI_OK_UPDATE_RETURNING, NULL);
	for (int32 r = 0; r < nrows; r++)
		counts_at(&stored->counts, b->nodes[r].depth)->expanded++;
	stored->expanded += nrows;
	stored->frontier -= nrows;
	tree_add_counts(tree, stored);
}

/*
 * Expands the states of the current SPI result (columns id, state, depth),
 * which the caller has locked, and stores what it found.
 */
static void
expand_rows(const Tree *tree, const GrowLimits *limits, ExpansionCounts *stored)
{
	SPITupleTable *rows = SPI_tuptable;
	int32		nrows = SPI_processed;
	Batch		b;
	bool		whole_frontier = false;
	TimestampTz began;
	int64		states_seen;
	int32		taken = 0;		/* rows expanded */

	batch_init(&b, tree, limits);
	/* Past the deadline game calls give up: of the rows, those expanded by then are taken. */
	gt_clock_start(&b.clock, limits->deadline);
	for (int32 r = 0; r < nrows; r++)
	{
		bool		isnull;
		HeapTuple	row = rows->vals[r];
		int64		id = DatumGetInt64(SPI_getbinval(row, rows->tupdesc, 1, &isnull));
		struct varlena *value = PG_DETOAST_DATUM_PACKED(SPI_getbinval(row, rows->tupdesc, 2, &isnull));
		int32		depth = DatumGetInt32(SPI_getbinval(row, rows->tupdesc, 3, &isnull));

		add_node(&b, id, gt_state_of_value(tree->game, value), depth, NODE_TAKEN);
	}
	SPI_freetuptable(rows);
	/* What the tree held before this batch looked up its states. */
	states_seen = tree_state_count(tree);
	/* Then what it finds cannot be stored (a fresh tree's first batch): no lookups. */
	b.tables_hold_rows_only = states_seen == nrows && tree->shard == NULL;

	/* Going deeper keeps depths breadth first only when no other state could get there first. */
	if (limits->deepen && nrows < limits->batch_size)
	{
		spi_run_kept(psprintf("SELECT count(*) FROM %s WHERE NOT expanded AND depth < $1", tree->states),
					 1, (Oid[]) {INT4OID}, (Datum[]) {Int32GetDatum(limits->max_depth)}, SPI_OK_SELECT);
		whole_frontier = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1,
													 &(bool) {0})) == nrows;
		SPI_freetuptable(SPI_tuptable);
	}
	/*
	 * Every row, as grow sized the batch to its time; past the deadline,
	 * only a game whose calls give up (the prover) stops short.
	 */
	while (taken < nrows && expand_node(&b, taken))
	{
		CHECK_FOR_INTERRUPTS();
		taken++;
	}
	read_stored(&b, nrows, b.nnodes);
	stored->taken += taken;
	/* The rows left are not expanded: unlocked at commit, they stay in the frontier. */
	whole_frontier &= taken == nrows;
	stored->deepened = whole_frontier;
	if (whole_frontier)
		deepen(&b, nrows, b.nnodes);
	gt_clock_stop();

	/*
	 * A grow batch that expands the root with final values leaves nothing
	 * above to propagate (unless another session stores some of its states
	 * first: insert_states checks).  expand() and a search's write-back
	 * count every expansion as pending: their propagation up from the
	 * states takes it back (tree_uncount).
	 */
	stored->settled = evaluate(&b) && limits->deepen && taken == 1 &&
		b.nodes[0].id == tree->root_id;
	report(&b, "writing");
	began = GetCurrentTimestamp();
	store_batch(&b, taken, states_seen, stored);
	stored->write_seconds = (GetCurrentTimestamp() - began) / 1e6;
}

int64
tree_expand_states(const Tree *tree, const int64 *ids, int n, int64 *pending)
{
	GrowLimits	limits = {0};
	ExpansionCounts stored = {0};

	/* SKIP LOCKED: a state a grow batch holds is being expanded there. */
	spi_run_kept(psprintf("SELECT id, state, depth FROM %s WHERE id = ANY ($1) AND NOT expanded "
						  "ORDER BY id FOR UPDATE SKIP LOCKED", tree->states),
				 1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(ids, n)}, SPI_OK_SELECT);
	limits.batch_size = n;
	if (SPI_processed > 0)
		expand_rows(tree, &limits, &stored);
	else
		SPI_freetuptable(SPI_tuptable);
	*pending += stored.pending;
	return stored.expanded;
}

void
tree_insert_root(const Tree *tree, const GameState *root, ExpansionCounts *stored)
{
	GrowLimits	limits = {0};
	Batch		b;

	batch_init(&b, tree, &limits);
	(void) add_node(&b, (int64) gt_state_hash(tree->game, root), root, 0, NODE_NEW);
	insert_states(&b, -1, stored);
}

int64
expand_state(text *name, int64 state_id)
{
	ExpansionCounts stored = {0};
	GrowLimits	limits = {0};
	Tree	   *tree = tree_open(name, TREE_WRITE);

	shard_refuse(tree, "expand");
	tree_hold_tables(tree);

	/*
	 * A frontier state is locked as a grow batch locks it, before the tree
	 * lock (store_batch takes that), waiting for a batch that holds it; an
	 * expanded one is not locked at all: the holder of the tree lock may
	 * write it.
	 */
	spi_run(psprintf("SELECT id, state, depth FROM %s WHERE id = $1 AND NOT expanded FOR UPDATE",
					 tree->states),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
	{
		limits.batch_size = 1;
		expand_rows(tree, &limits, &stored);
		(void) tree_propagate_up(tree, &state_id, 1, 0);
		tree_uncount(tree, stored.pending);
	}
	else
	{
		SPI_freetuptable(SPI_tuptable);
		spi_run(psprintf("SELECT FROM %s WHERE id = $1", tree->states),
				1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(state_id)}, SPI_OK_SELECT);
		if (SPI_processed == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("state %lld is not in tree \"%s\"", (long long) state_id, tree->qualified),
					 errhint("State ids are the id column of %s.", tree->states)));
	}
	tree_close(tree);
	return stored.edges;
}

void
tree_grow_batch(const Tree *tree, const GrowLimits *limits, ExpansionCounts *stored)
{
	/* Breadth first; SKIP LOCKED lets concurrent sessions share the frontier. */
	spi_run_kept(psprintf("SELECT id, state, depth FROM %s WHERE NOT expanded AND depth < $1 "
						  "ORDER BY depth, id LIMIT $2 FOR UPDATE SKIP LOCKED", tree->states),
				 2, (Oid[]) {INT4OID, INT4OID},
				 (Datum[]) {Int32GetDatum(limits->max_depth), Int32GetDatum(limits->batch_size)},
				 SPI_OK_SELECT);
	if (SPI_processed > 0)
		expand_rows(tree, limits, stored);
	else
		SPI_freetuptable(SPI_tuptable);
}

void
grow_step(text *name, int32 batch_size, int32 max_depth, ExpansionCounts *stored)
{
	GrowLimits	limits = {0};
	Tree	   *tree;

	if (batch_size < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("batch_size must be positive, not %d", batch_size)));
	if (max_depth < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_depth must not be negative, not %d", max_depth)));
	limits.batch_size = batch_size;
	limits.max_depth = max_depth;
	tree = tree_open(name, TREE_WRITE);
	shard_refuse(tree, "grow_step");
	tree_hold_tables(tree);
	tree_grow_batch(tree, &limits, stored);
	tree_close(tree);
}
