/*
 * propagate.c: upward propagation of n-player utility and non-losing
 * mobility (the rules are in search/values.c) over an in-memory copy of the
 * graph, written back in bulk.
 *
 * A state's value follows from its out-edges, whose values are those of
 * the states they lead to (the graph view shows them so; no edge row keeps
 * a copy).  Propagation reads the states and edges of a region once (the
 * whole tree, or the ancestors of one expanded state, with the values of
 * their other children), evaluates every expanded state after its children
 * (depth-first post-order, no recursion), iterates what lies on cycles
 * until it settles, and writes only the states whose values changed, in
 * chunks of one statement each.
 *
 * No queue is kept in the tables: gametree.trees.pending counts the
 * expansions since the last complete propagation, so a propagation cut short
 * (time limit, cancel, crash) is simply run again; the chunks it committed
 * are not written twice, since they no longer differ.  Writers only add to
 * pending; a complete propagation clears it when no expansion was stored
 * since it read the tree (gametree.trees.writes unchanged), so that what it
 * read is all there was.  grow's propagation commits between chunks, when
 * other sessions may write: it stops as soon as one stored an expansion
 * since it read the tree, since what it would write next may be older than
 * what is there, and leaves pending as it was.
 */
#include "postgres.h"

#include "core/compact.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "core/idindex.h"
#include "store/settings.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "lib/stringinfo.h"
#include "store/catalog.h"
#include "store/propagate.h"
#include "pg/packed_rows.h"
#include "store/shard.h"
#include "store/rowvalues.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#define MAX_ROUNDS 1000			/* of re-evaluation on cycles that do not settle */
#define FETCH_ROWS 10000		/* rows read per cursor fetch */

/*
 * Values are kept packed, in the form they are stored in: utilities in
 * hundredths (int16), mobility (int32, -1 unknown), flags.  Two packed
 * values are equal exactly when value_same() says so.
 */
#define PACKED_KNOWN 1
#define PACKED_PROVEN 2

typedef struct Layout
{
	int			nroles;
	int			utility_at;
	int			mobility_at;
	int			size;
} Layout;

/* GraphNode flags. */
#define NODE_EVALUATE 1			/* expanded and not terminal: valued from its edges */
#define NODE_ESTIMATE 2			/* unexpanded: valued by the game's estimate, which its row does not keep */
#define NODE_DONE 4
#define NODE_ON_STACK 8
#define NODE_CYCLIC 16			/* rests on a value of a cycle still settling */

typedef struct GraphNode
{
	int64		id;
	int64		best_move;		/* 0: none */
	int64		stored_best_move;	/* as in its row */
	int32		depth;
	int8		mover;
	uint8		flags;
	/* the packed value follows (NODE_VALUE), then the packed value as in its row (NODE_ROW_VALUE) */
} GraphNode;

typedef struct GraphEdge
{
	int32		init;			/* node index */
	int32		child;			/* node index, -1 when not loaded: the value read counts */
	int64		move_id;
	/* the child's value as read with the edge, packed, follows */
} GraphEdge;

typedef struct RemoteEdge
{
	int64		state;			/* the id of the state it leads to, another node's */
	int64		edge;			/* its index */
} RemoteEdge;

typedef struct Graph
{
	const Tree *tree;
	const Game *game;
	Layout		layout;
	MemoryContext cxt;
	Size		node_size,
				edge_size;
	char	   *nodes;
	int64		nnodes,
				maxnodes;
	char	   *edges;
	int64		nedges,
				maxedges;
	int32	   *edge_start;		/* CSR: node i's edges are edge_start[i] .. edge_start[i+1]-1 */
	IdIndex		node_ids;		/* id -> node index */
	Size		memory;			/* bytes held, against max_memory */
	Size		max_memory;		/* what gametree.work_memory gives the propagation */
	ValueCodec *codec;
	char	   *unknown;		/* the packed unknown value */
	int64		evaluations;
	PropagateControl *control;
	int64		writes_seen;	/* gametree.trees.writes when the tree was read */
	bool		superseded;		/* an expansion was stored since */
	TimestampTz noticed;
	/*
	 * On a node of a sharded tree whose part is kept in memory: the edges
	 * to other nodes' states, in order of those states' ids, so that the
	 * values those nodes send reach them.
	 */
	bool		keep_remote_edges;
	RemoteEdge *remote_edges;
	int64		nremote_edges,
				maxremote_edges;
} Graph;

#define NODE(g, i) ((GraphNode *) ((g)->nodes + (Size) (i) * (g)->node_size))
#define NODE_VALUE(g, i) ((char *) NODE(g, i) + MAXALIGN(sizeof(GraphNode)))
#define NODE_ROW_VALUE(g, i) (NODE_VALUE(g, i) + MAXALIGN((g)->layout.size))
#define EDGE(g, i) ((GraphEdge *) ((g)->edges + (Size) (i) * (g)->edge_size))
#define EDGE_VALUE(g, i) ((char *) EDGE(g, i) + MAXALIGN(sizeof(GraphEdge)))

static Layout
layout_of(const Game *game)
{
	Layout		l;

	l.nroles = game->nroles;
	l.utility_at = sizeof(int16);
	l.mobility_at = TYPEALIGN(sizeof(int32), l.utility_at + game->nroles * sizeof(int16));
	l.size = l.mobility_at + game->nroles * sizeof(int32);
	return l;
}

static void
pack(const Layout *l, const Value *v, char *p)
{
	memset(p, 0, l->size);
	p[0] = (v->known ? PACKED_KNOWN : 0) | (v->proven ? PACKED_PROVEN : 0);
	for (int r = 0; r < l->nroles; r++)
	{
		int16		u = v->known ? (int16) rint(v->utility[r] * GT_HUNDREDTHS) : 0;

		memcpy(p + l->utility_at + r * sizeof(int16), &u, sizeof(int16));
		memcpy(p + l->mobility_at + r * sizeof(int32), &v->mobility[r], sizeof(int32));
	}
}

static void
unpack(const Layout *l, const char *p, int64 move_id, Value *v)
{
	memset(v, 0, sizeof(Value));
	v->known = (p[0] & PACKED_KNOWN) != 0;
	v->proven = (p[0] & PACKED_PROVEN) != 0;
	v->move_id = move_id;
	for (int r = 0; r < l->nroles; r++)
	{
		int16		u;

		memcpy(&u, p + l->utility_at + r * sizeof(int16), sizeof(int16));
		v->utility[r] = u / (double) GT_HUNDREDTHS;
		memcpy(&v->mobility[r], p + l->mobility_at + r * sizeof(int32), sizeof(int32));
	}
}

/* Counts memory the graph takes, within gametree.work_memory. */
static void
graph_charge(Graph *g, Size old_size, Size new_size)
{
	if ((double) g->memory - old_size + new_size > (double) g->max_memory)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("propagating tree \"%s\" needs more than gametree.work_memory (%d MB)",
						g->tree->qualified, gt_work_memory.kb / 1024),
				 errdetail("Propagation holds the states and edges it evaluates in memory: "
						   "%lld states and %lld edges read so far.",
						   (long long) g->nnodes, (long long) g->nedges),
				 errhint("Raise it for this session, e.g. SET gametree.work_memory = '%dMB';",
						 Max(2 * (gt_work_memory.kb / 1024), 64))));
	g->memory = g->memory - old_size + new_size;
}

/* Memory for the graph: huge allocations past 1 GB, within gametree.work_memory. */
static void *
graph_resize(Graph *g, void *old, Size old_size, Size new_size)
{
	graph_charge(g, old_size, new_size);
	if (old == NULL)
		return MemoryContextAllocExtended(g->cxt, Max(new_size, 1), MCXT_ALLOC_HUGE);
	return repalloc_huge(old, Max(new_size, 1));
}

/* Room for one more record of size in an array of max that holds n. */
static void
make_room(Graph *g, char **array, int64 *max, int64 n, Size size, const char *what)
{
	int64		more = Max(1024, *max * 2);

	if (n < *max)
		return;
	/* Indexes are int32. */
	if (more > PG_INT32_MAX / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("tree \"%s\" has too many %s to propagate at once", g->tree->qualified, what)));
	*array = graph_resize(g, *array, *max * size, more * size);
	*max = more;
}

static void
graph_free(Graph *g, void *p, Size size)
{
	if (p != NULL)
		pfree(p);
	g->memory -= size;
}

/* A NOTICE naming the phase, at most once per gametree.progress_interval. */
static void
report(Graph *g, const char *phase, int64 done, int64 of)
{
	if (!TimestampDifferenceExceeds(g->noticed, GetCurrentTimestamp(), gt_progress_interval))
		return;
	g->noticed = GetCurrentTimestamp();
	if (of > 0)
		ereport(NOTICE,
				(errmsg("propagate %s: %s, %lld of %lld", g->tree->qualified, phase,
						(long long) done, (long long) of)));
	else
		ereport(NOTICE,
				(errmsg("propagate %s: %s, %lld so far", g->tree->qualified, phase, (long long) done)));
}

static bool
past_deadline(const Graph *g)
{
	return g->control->deadline != 0 && GetCurrentTimestamp() >= g->control->deadline;
}

static int
role_of(const Game *game, Datum control, bool isnull)
{
	char	   *name;

	if (isnull)
		return GT_NO_ROLE;
	name = TextDatumGetCString(control);
	for (int r = 0; r < game->nroles; r++)
		if (strcmp(game->roles[r], name) == 0)
			return r;
	return GT_NO_ROLE;
}

/*
 * The value a state rests on when it is not valued from edges: its goals
 * when terminal, else the game's estimate (or nothing), computed from the
 * state (an unexpanded state's row keeps no value).
 */
static void
leaf_value(Graph *g, Datum goal, bool goal_null, Datum state, bool state_null, Value *v)
{
	const Game *game = g->game;

	value_unknown(game, v);
	if (!goal_null)
	{
		value_read(g->codec, goal, false, (Datum) 0, true, true, v);
		for (int r = 0; r < game->nroles; r++)
			v->mobility[r] = 0;
	}
	else if (!state_null && game->heuristic != NULL)
	{
		GameState  *s = gt_state_of_value(game, PG_DETOAST_DATUM_PACKED(state));

		if (!game->terminal(game, s))
			value_of_state(game, s, false, v);
	}
}

/*
 * The columns of the states and edges propagation reads, named once: the
 * SELECT lists are made of these (select_list), and the rows are read by
 * these positions.
 */
typedef enum NodeColumn
{
	NODE_COL_ID,
	NODE_COL_CONTROL,
	NODE_COL_GOAL,
	NODE_COL_EXPANDED,
	NODE_COL_UTILITY,
	NODE_COL_MOBILITY,
	NODE_COL_PROVEN,
	NODE_COL_BEST_MOVE,
	NODE_COL_STATE,
	NODE_COL_DEPTH,
	NODE_COL_SOLVED,
	NODE_COLS
} NodeColumn;

static const char *const node_columns[NODE_COLS] = {
	[NODE_COL_ID] = "s.id",
	[NODE_COL_CONTROL] = "s.control",
	[NODE_COL_GOAL] = "s.goal",
	[NODE_COL_EXPANDED] = "s.expanded",
	[NODE_COL_UTILITY] = "s.utility",
	[NODE_COL_MOBILITY] = "s.mobility",
	[NODE_COL_PROVEN] = "s.proven",
	[NODE_COL_BEST_MOVE] = "s.best_move",
	/* Only leaf_value reads it, of a state valued by the game's estimate. */
	[NODE_COL_STATE] = "CASE WHEN s.goal IS NULL AND NOT s.expanded THEN s.state END",
	[NODE_COL_DEPTH] = "s.depth",
	/* Whether solve proved its value: node_select's, which knows the tree. */
	[NODE_COL_SOLVED] = NULL,
};

/*
 * An edge, then the value of its child (c, joined on next_id), which only a
 * region without that child needs: reading the whole tree, the first
 * EDGE_KEY_COLS suffice.
 */
typedef enum EdgeColumn
{
	EDGE_COL_INIT_ID,
	EDGE_COL_MOVE_ID,
	EDGE_COL_NEXT_ID,
	EDGE_KEY_COLS,
	EDGE_COL_UTILITY = EDGE_KEY_COLS,
	EDGE_COL_MOBILITY,
	EDGE_COL_PROVEN,
	EDGE_COL_STATE,
	EDGE_COLS
} EdgeColumn;

static const char *const edge_columns[EDGE_COLS] = {
	[EDGE_COL_INIT_ID] = "g.init_id",
	[EDGE_COL_MOVE_ID] = "g.move_id",
	[EDGE_COL_NEXT_ID] = "g.next_id",
	[EDGE_COL_UTILITY] = "c.utility",
	[EDGE_COL_MOBILITY] = "c.mobility",
	[EDGE_COL_PROVEN] = "coalesce(c.proven, false)",
	/* An unexpanded child is valued by the game's estimate of its state. */
	[EDGE_COL_STATE] = "CASE WHEN c.goal IS NULL AND NOT c.expanded THEN c.state END",
};

/* "SELECT columns FROM from": the columns joined with commas. */
static char *
select_list(const char *const *columns, int n, const char *from)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (int c = 0; c < n; c++)
		appendStringInfo(&sql, "%s%s", c > 0 ? ", " : "", columns[c]);
	appendStringInfo(&sql, " FROM %s", from);
	return sql.data;
}

/*
 * The states' columns read from from_where: a state solved by
 * proof-number search (an exact row in _proof, store/solve.h) is a leaf,
 * its value the one solve wrote in its row.
 */
static char *
node_select(const Tree *tree, const char *from_where)
{
	const char *columns[NODE_COLS];

	memcpy(columns, node_columns, sizeof(columns));
	columns[NODE_COL_SOLVED] = OidIsValid(tree->proof_relid) ?
		psprintf("s.id IN (SELECT p.id FROM %s p WHERE p.lo = p.hi)", tree->proof) : "false";
	return select_list(columns, NODE_COLS, from_where);
}

static void
add_node(Graph *g, HeapTuple row, TupleDesc desc, bool from_scratch)
{
	bool		null[NODE_COLS];
	Datum		col[NODE_COLS];
	GraphNode  *node;
	Value		v;
	bool		solved;

	for (int c = 0; c < NODE_COLS; c++)
		col[c] = SPI_getbinval(row, desc, c + 1, &null[c]);
	make_room(g, &g->nodes, &g->maxnodes, g->nnodes, g->node_size, "states");
	node = NODE(g, g->nnodes);
	memset(node, 0, g->node_size);
	node->id = DatumGetInt64(col[NODE_COL_ID]);
	node->depth = DatumGetInt32(col[NODE_COL_DEPTH]);
	node->mover = role_of(g->game, col[NODE_COL_CONTROL], null[NODE_COL_CONTROL]);
	node->stored_best_move = node->best_move =
		null[NODE_COL_BEST_MOVE] ? 0 : DatumGetInt64(col[NODE_COL_BEST_MOVE]);
	value_read(g->codec, col[NODE_COL_UTILITY], null[NODE_COL_UTILITY], col[NODE_COL_MOBILITY],
			   null[NODE_COL_MOBILITY], DatumGetBool(col[NODE_COL_PROVEN]), &v);
	pack(&g->layout, &v, NODE_ROW_VALUE(g, g->nnodes));
	solved = null[NODE_COL_GOAL] && DatumGetBool(col[NODE_COL_SOLVED]);
	if (null[NODE_COL_GOAL] && !solved)
		node->flags |= DatumGetBool(col[NODE_COL_EXPANDED]) ? NODE_EVALUATE : NODE_ESTIMATE;
	/* Solved: its value and best move are the row's, from scratch too. */
	if (solved)
		;
	/* From scratch, nothing that propagation computes is taken from the row. */
	else if (from_scratch)
	{
		if (node->flags & NODE_EVALUATE)
			value_unknown(g->game, &v);
		else
			leaf_value(g, col[NODE_COL_GOAL], null[NODE_COL_GOAL], col[NODE_COL_STATE], null[NODE_COL_STATE], &v);
		node->best_move = 0;
	}
	else if (node->flags & NODE_ESTIMATE)
		leaf_value(g, (Datum) 0, true, col[NODE_COL_STATE], null[NODE_COL_STATE], &v);
	pack(&g->layout, &v, NODE_VALUE(g, g->nnodes));
	g->nnodes++;
}

/* The value of an edge's child from the child's columns read with it (EDGE_COL_UTILITY on). */
static void
child_value(Graph *g, const Datum *col, const bool *null, Value *v)
{
	if (!null[EDGE_COL_STATE])
		leaf_value(g, (Datum) 0, true, col[EDGE_COL_STATE], false, v);
	else
		value_read(g->codec, col[EDGE_COL_UTILITY], null[EDGE_COL_UTILITY], col[EDGE_COL_MOBILITY],
				   null[EDGE_COL_MOBILITY], !null[EDGE_COL_PROVEN] && DatumGetBool(col[EDGE_COL_PROVEN]), v);
}

static void
add_edge(Graph *g, HeapTuple row, TupleDesc desc)
{
	bool		null[EDGE_COLS];
	Datum		col[EDGE_COLS];
	GraphEdge  *edge;
	Value		v;
	int32		init;
	int64		next;
	const TreeNode *shard = g->tree->shard;

	/* Without the child's columns its value is unknown here: the child is a node. */
	for (int c = 0; c < EDGE_COLS; c++)
	{
		col[c] = (Datum) 0;
		null[c] = true;
		if (c < desc->natts)
			col[c] = SPI_getbinval(row, desc, c + 1, &null[c]);
	}
	init = id_index_find(&g->node_ids, DatumGetInt64(col[EDGE_COL_INIT_ID]));
	if (init < 0 || !(NODE(g, init)->flags & NODE_EVALUATE))
		return;
	make_room(g, &g->edges, &g->maxedges, g->nedges, g->edge_size, "edges");
	edge = EDGE(g, g->nedges);
	memset(edge, 0, g->edge_size);
	edge->init = init;
	edge->move_id = DatumGetInt64(col[EDGE_COL_MOVE_ID]);
	next = DatumGetInt64(col[EDGE_COL_NEXT_ID]);
	/* On a node of a sharded tree, a state of another node's range is not here: no need to look. */
	edge->child = shard != NULL && (next < shard->low || next > shard->high) ? -1 :
		id_index_find(&g->node_ids, next);
	child_value(g, col, null, &v);
	pack(&g->layout, &v, EDGE_VALUE(g, g->nedges));
	if (edge->child < 0 && g->keep_remote_edges)
	{
		make_room(g, (char **) &g->remote_edges, &g->maxremote_edges, g->nremote_edges, sizeof(RemoteEdge),
				  "edges to other nodes");
		g->remote_edges[g->nremote_edges].state = next;
		g->remote_edges[g->nremote_edges++].edge = g->nedges;
	}
	g->nedges++;
}

/* Reads every row of a query through a cursor, FETCH_ROWS at a time. */
static bool
read_rows(Graph *g, const char *sql, int nargs, Oid *types, Datum *values, const char *phase,
		  int64 expected, bool from_scratch, bool edges)
{
	Portal		cursor;
	int64		read = 0;
	MemoryContext rows_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree propagation rows",
												   ALLOCSET_DEFAULT_SIZES);
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL)
		elog(ERROR, "gametree: SPI_prepare failed for: %s", sql);
	cursor = SPI_cursor_open(NULL, plan, values, NULL, false);
	for (;;)
	{
		MemoryContext outer;

		CHECK_FOR_INTERRUPTS();
		if (past_deadline(g))
		{
			SPI_cursor_close(cursor);
			SPI_freeplan(plan);
			return false;
		}
		SPI_cursor_fetch(cursor, true, FETCH_ROWS);
		if (SPI_processed == 0)
			break;
		outer = MemoryContextSwitchTo(rows_cxt);
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			if (edges)
				add_edge(g, SPI_tuptable->vals[r], SPI_tuptable->tupdesc);
			else
				add_node(g, SPI_tuptable->vals[r], SPI_tuptable->tupdesc, from_scratch);
		}
		MemoryContextSwitchTo(outer);
		MemoryContextReset(rows_cxt);
		read += SPI_processed;
		SPI_freetuptable(SPI_tuptable);
		report(g, phase, read, expected);
	}
	SPI_cursor_close(cursor);
	SPI_freeplan(plan);
	MemoryContextDelete(rows_cxt);
	return true;
}

static void
index_nodes(Graph *g)
{
	graph_charge(g, 0, id_index_size(g->nnodes));
	id_index_init(&g->node_ids, g->nnodes, g->cxt);
	for (int32 i = 0; i < g->nnodes; i++)
		id_index_add(&g->node_ids, NODE(g, i)->id, i);
}

/* Puts the edges in order of their init node (counting sort), for edge_start. */
static void
sort_edges(Graph *g)
{
	Size		bytes = Max(g->nedges, 1) * g->edge_size;
	char	   *sorted = graph_resize(g, NULL, 0, bytes);
	int32	   *next;

	g->edge_start = graph_resize(g, NULL, 0, (g->nnodes + 1) * sizeof(int32));
	memset(g->edge_start, 0, (g->nnodes + 1) * sizeof(int32));
	for (int64 e = 0; e < g->nedges; e++)
		g->edge_start[EDGE(g, e)->init + 1]++;
	for (int64 i = 0; i < g->nnodes; i++)
		g->edge_start[i + 1] += g->edge_start[i];
	next = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int32));
	memcpy(next, g->edge_start, g->nnodes * sizeof(int32));
	for (int64 e = 0, k = 0; e < g->nedges; e++)
	{
		int64		to = next[EDGE(g, e)->init]++;

		/* The edges to other nodes' states were recorded in the order of the edges. */
		if (k < g->nremote_edges && g->remote_edges[k].edge == e)
			g->remote_edges[k++].edge = to;
		memcpy(sorted + (Size) to * g->edge_size, EDGE(g, e), g->edge_size);
	}
	graph_free(g, next, Max(g->nnodes, 1) * sizeof(int32));
	graph_free(g, g->edges, g->maxedges * g->edge_size);
	g->edges = sorted;
	g->maxedges = Max(g->nedges, 1);
}

/*
 * Evaluates node i from its edges; returns whether its value changed.  Marks
 * it cyclic when it rests on a value that is not final yet.
 */
static bool
evaluate_node(Graph *g, int32 i, Value *moves)
{
	const Game *game = g->game;
	GraphNode  *node = NODE(g, i);
	int32		first = g->edge_start[i];
	int32		n = g->edge_start[i + 1] - first;
	Value		old,
				now;

	if (n > game->max_moves)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("state %lld of tree \"%s\" has more edges than a %s state can have (%d)",
						(long long) node->id, g->tree->qualified, game->name, game->max_moves),
				 errdetail("Rows of %s were written outside gametree.", g->tree->edges),
				 errhint("Delete the rows that gametree did not write, or drop the tree.")));
	for (int32 k = 0; k < n; k++)
	{
		GraphEdge  *edge = EDGE(g, first + k);

		if (edge->child < 0)
			unpack(&g->layout, EDGE_VALUE(g, first + k), edge->move_id, &moves[k]);
		else
		{
			GraphNode  *child = NODE(g, edge->child);

			unpack(&g->layout, NODE_VALUE(g, edge->child), edge->move_id, &moves[k]);
			if ((child->flags & NODE_EVALUATE) &&
				(!(child->flags & NODE_DONE) || (child->flags & NODE_CYCLIC)))
				node->flags |= NODE_CYCLIC;
		}
	}
	unpack(&g->layout, NODE_VALUE(g, i), node->best_move, &old);
	value_evaluate(game, node->mover, moves, n, &now);
	g->evaluations++;
	if (value_same(game, &old, &now))
		return false;
	pack(&g->layout, &now, NODE_VALUE(g, i));
	node->best_move = now.move_id;
	return true;
}

/*
 * Every expanded state after its children: depth-first post-order with an
 * explicit stack.  A state whose child is still on the stack closes a cycle:
 * it and what rests on it are re-evaluated in rounds until nothing changes.
 */
static bool
evaluate_all(Graph *g)
{
	int32	   *stack = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int32));
	int32	   *cursor = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int32));
	int32	   *cyclic = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int32));
	int64		ncyclic = 0;
	Value	   *moves = palloc(g->game->max_moves * sizeof(Value));

	for (int32 root = 0; root < g->nnodes; root++)
	{
		int64		depth = 0;

		if (!(NODE(g, root)->flags & NODE_EVALUATE) || (NODE(g, root)->flags & NODE_DONE))
			continue;
		stack[depth] = root;
		cursor[depth++] = g->edge_start[root];
		NODE(g, root)->flags |= NODE_ON_STACK;
		while (depth > 0)
		{
			int32		i = stack[depth - 1];

			if (cursor[depth - 1] < g->edge_start[i + 1])
			{
				int32		c = EDGE(g, cursor[depth - 1]++)->child;

				if (c >= 0 && (NODE(g, c)->flags & NODE_EVALUATE) &&
					!(NODE(g, c)->flags & (NODE_DONE | NODE_ON_STACK)))
				{
					NODE(g, c)->flags |= NODE_ON_STACK;
					stack[depth] = c;
					cursor[depth++] = g->edge_start[c];
				}
				continue;
			}
			evaluate_node(g, i, moves);
			NODE(g, i)->flags = (NODE(g, i)->flags & ~NODE_ON_STACK) | NODE_DONE;
			if (NODE(g, i)->flags & NODE_CYCLIC)
				cyclic[ncyclic++] = i;
			depth--;
			if ((g->evaluations & 4095) == 0)
			{
				CHECK_FOR_INTERRUPTS();
				report(g, "evaluating", g->evaluations, 0);
			}
		}
	}

	for (int round = 0; ncyclic > 0; round++)
	{
		bool		changed = false;

		CHECK_FOR_INTERRUPTS();
		if (past_deadline(g))
			return false;
		if (round == MAX_ROUNDS)
		{
			ereport(NOTICE,
					(errmsg("propagation in tree \"%s\" stopped re-evaluating cycles after %d rounds",
							g->tree->qualified, MAX_ROUNDS),
					 errdetail("Values on those cycles are estimates, not proven.")));
			break;
		}
		for (int64 k = 0; k < ncyclic; k++)
			changed |= evaluate_node(g, cyclic[k], moves);
		report(g, "settling cycles", round + 1, 0);
		if (!changed)
			break;
	}
	graph_free(g, stack, Max(g->nnodes, 1) * sizeof(int32));
	graph_free(g, cursor, Max(g->nnodes, 1) * sizeof(int32));
	graph_free(g, cyclic, Max(g->nnodes, 1) * sizeof(int32));
	return true;
}

/* The value a state's row keeps: none for an unexpanded one (NODE_ESTIMATE). */
static const char *
row_value(const Graph *g, int64 i)
{
	return (NODE(g, i)->flags & NODE_ESTIMATE) ? g->unknown : NODE_VALUE(g, i);
}

static int64
row_best_move(const Graph *g, int64 i)
{
	return (NODE(g, i)->flags & NODE_ESTIMATE) ? 0 : NODE(g, i)->best_move;
}

/* Does the state's row differ from what it keeps of its value? */
static bool
node_changed(const Graph *g, int64 i)
{
	return row_best_move(g, i) != NODE(g, i)->stored_best_move ||
		memcmp(row_value(g, i), NODE_ROW_VALUE(g, i), g->layout.size) != 0;
}

/* What the writing of changes reads: the graph, which rows, and how far it is. */
typedef struct Changes
{
	Graph	   *g;
	int64	   *rows;			/* node indexes */
	int64		done;			/* rows written by earlier statements */
	int64		total;
	TreeCounts *counts;			/* states: what their statements return changes the counts */
} Changes;

static void
fill_state(void *arg, RowChunk *c, int k, int64 index)
{
	Changes    *changes = arg;
	Graph	   *g = changes->g;
	int64		i = changes->rows[index];
	Value		v;

	unpack(&g->layout, row_value(g, i), row_best_move(g, i), &v);
	row_set(c, 0, k, Int64GetDatum(NODE(g, i)->id), false);
	row_set_value(g->codec, c, 1, k, &v, true);
}

/*
 * After each statement: progress, the caller's commit, and whether to go on:
 * not past the deadline, nor once another session stored an expansion.
 */
static bool
chunk_written(void *arg, int64 written)
{
	Changes    *changes = arg;
	Graph	   *g = changes->g;

	/* In the transaction of the rows: a commit between chunks keeps both, a cancel neither. */
	if (changes->counts != NULL)
	{
		counts_value_changes(changes->counts);
		counts_write(g->tree, changes->counts);
	}
	report(g, "writing", changes->done + written, changes->total);
	if (g->control->between_chunks != NULL)
	{
		g->control->between_chunks(g->control->arg);
		if (tree_writes(g->tree) != g->writes_seen)
		{
			g->superseded = true;
			return false;
		}
	}
	return !past_deadline(g);
}

/*
 * Writes the states of changes with sql, whose $1..$5 are their ids and
 * values, and which returns COUNTS_RETURNING; returns how many it wrote.
 */
static int64
write_states(Changes *changes, const char *sql, int64 n, bool *complete)
{
	return write_rows(sql, NULL, 5, (Oid[]) {INT8OID, JSONBOID, JSONBOID, BOOLOID, INT8OID}, n,
					  fill_state, chunk_written, changes, SPI_OK_UPDATE_RETURNING, complete);
}

/*
 * Writes the states whose values changed.  Returns false when time ran out
 * first, or another session stored an expansion.
 */
static bool
write_changes(Graph *g, PropagateResult *result)
{
	Changes		valued = {g},
				leaves = {g};
	int64		nvalued = 0,
				nleaves = 0;
	bool		complete;
	TreeCounts	counts;
	char	   *sql;

	counts_init(&counts);
	valued.counts = leaves.counts = &counts;
	valued.rows = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int64));
	leaves.rows = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(int64));
	for (int64 i = 0; i < g->nnodes; i++)
		if (!node_changed(g, i))
			continue;
		else if (NODE(g, i)->flags & NODE_EVALUATE)
			valued.rows[nvalued++] = i;
		else
			leaves.rows[nleaves++] = i;
	valued.total = leaves.total = nvalued + nleaves;
	leaves.done = nvalued;

	/*
	 * A state another transaction has locked is left as it is, and pending
	 * stays, so that the next propagation writes it:
	 * - an unexpanded one a grow batch holds, the batch is expanding (it
	 *   took it before the tree lock this propagation holds, and waits for
	 *   it), and writes it valued from its children;
	 * - an expanded one is locked only by a batch whose FOR UPDATE SKIP
	 *   LOCKED met it while it was being expanded: PostgreSQL locks the
	 *   newest version of such a row before it sees that the row no longer
	 *   qualifies, and keeps the lock.  Waiting for that batch, which waits
	 *   for the tree lock, would deadlock.
	 * An unexpanded state's row keeps no value: one that holds some
	 * (written by hand) is cleared.
	 */
	sql = psprintf("WITH free AS (SELECT f.id FROM %s f WHERE f.id = ANY ($1) FOR UPDATE SKIP LOCKED) "
				   "UPDATE %s s SET utility = u.utility, mobility = u.mobility, "
				   "proven = u.proven, best_move = u.best_move "
				   "FROM unnest($1, $2, $3, $4, $5) u(id, utility, mobility, proven, best_move), "
				   "%s o WHERE s.id = u.id AND o.id = u.id AND s.id IN (SELECT id FROM free)%s "
				   COUNTS_RETURNING, g->tree->states, g->tree->states, g->tree->states,
				   /* Solved since it was read: solve's value stays. */
				   OidIsValid(g->tree->proof_relid) ?
				   psprintf(" AND NOT EXISTS (SELECT FROM %s p WHERE p.id = s.id AND p.lo = p.hi)",
							g->tree->proof) : "");
	result->states_written = write_states(&valued, sql, nvalued, &complete);
	result->skipped = nvalued - result->states_written;
	if (complete && nleaves > 0)
	{
		int64		written = write_states(&leaves, sql, nleaves, &complete);

		result->states_written += written;
		result->skipped += nleaves - written;
	}
	/* A graph kept in memory writes again and again: its memory must not grow. */
	graph_free(g, valued.rows, Max(g->nnodes, 1) * sizeof(int64));
	graph_free(g, leaves.rows, Max(g->nnodes, 1) * sizeof(int64));
	return complete;
}

static void
graph_init(Graph *g, const Tree *tree, PropagateControl *control)
{
	memset(g, 0, sizeof(Graph));
	g->tree = tree;
	g->game = tree->game;
	g->control = control;
	g->layout = layout_of(tree->game);
	g->max_memory = gt_memory_limit(&gt_work_memory);
	g->node_size = MAXALIGN(sizeof(GraphNode)) + 2 * MAXALIGN(g->layout.size);
	g->edge_size = MAXALIGN(sizeof(GraphEdge)) + MAXALIGN(g->layout.size);
	g->cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree propagation graph",
								   ALLOCSET_DEFAULT_SIZES);
	g->noticed = GetCurrentTimestamp();
	{
		MemoryContext outer = MemoryContextSwitchTo(g->cxt);

		Value		unknown;

		g->codec = value_codec_create(g->game);
		g->unknown = palloc(g->layout.size);
		value_unknown(g->game, &unknown);
		pack(&g->layout, &unknown, g->unknown);
		MemoryContextSwitchTo(outer);
	}
}

/* Propagation over the graph read: evaluation, then writing.  Frees it. */
static bool
evaluate_and_write(Graph *g, TimestampTz began, PropagateResult *result)
{
	bool		complete;
	TimestampTz evaluated;

	sort_edges(g);
	complete = evaluate_all(g);
	evaluated = GetCurrentTimestamp();
	result->rows_read = g->nnodes + g->nedges;
	result->read_seconds = (evaluated - began) / 1e6;
	complete = complete && write_changes(g, result);
	result->write_seconds = (GetCurrentTimestamp() - evaluated) / 1e6;
	result->evaluations = g->evaluations;
	result->superseded = g->superseded;
	MemoryContextDelete(g->cxt);
	return complete;
}

bool
tree_propagate(const Tree *tree, bool from_scratch, PropagateControl *control,
			   PropagateResult *result)
{
	Graph		g;
	int64		pending;
	int64		states,
				edges,
				writes;
	bool		complete;
	TimestampTz began = GetCurrentTimestamp();

	memset(result, 0, sizeof(PropagateResult));
	tree_lock(tree);
	tree_catalog_row(tree, "pending, states, edges, writes");
	pending = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &(bool) {0}));
	states = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &(bool) {0}));
	edges = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &(bool) {0}));
	writes = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4, &(bool) {0}));
	SPI_freetuptable(SPI_tuptable);
	if (pending == 0 && !from_scratch)
		return true;

	graph_init(&g, tree, control);
	g.writes_seen = writes;
	/* Nodes first: edges are kept only from nodes that are valued from them. */
	complete = read_rows(&g, node_select(tree, psprintf("%s s", tree->states)),
						 0, NULL, NULL,
						 "reading states", states, from_scratch, false);
	if (complete)
	{
		index_nodes(&g);
		complete = read_rows(&g, select_list(edge_columns, EDGE_KEY_COLS, psprintf("%s g", tree->edges)),
							 0, NULL, NULL, "reading edges", edges, false, true);
	}
	if (!complete)
	{
		MemoryContextDelete(g.cxt);
		return false;
	}
	if (!evaluate_and_write(&g, began, result))
		return false;

	/*
	 * The last chunk's commit let go of the lock.  When no expansion was
	 * stored since the tree was read, what was pending then is propagated
	 * now, and nothing was added since: nothing is pending, unless a state
	 * was left to a batch that may yet fail.  Otherwise pending stays.
	 */
	tree_lock(tree);
	result->superseded = !catalog_settle_pending(tree, writes, result->skipped > 0 ? 1 : 0);
	return !result->superseded;
}

/*
 * States and their ancestors, as bigint[]: parents level by level through
 * the index on next_id (a recursive query is planned as a scan of the whole
 * graph per level).
 */
static Datum
ancestors(const Tree *tree, const int64 *ids, int n)
{
	HASHCTL		ctl = {0};
	HTAB	   *seen;
	int64	   *found = palloc(Max(n, 1) * sizeof(int64));
	int64		nfound = 0,
				maxfound = Max(n, 1),
				from = 0;

	ctl.keysize = ctl.entrysize = sizeof(int64);
	ctl.hcxt = CurrentMemoryContext;
	seen = hash_create("gametree ancestors", 256, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	for (int i = 0; i < n; i++)
	{
		bool		known;

		hash_search(seen, &ids[i], HASH_ENTER, &known);
		if (!known)
			found[nfound++] = ids[i];
	}
	while (from < nfound)
	{
		int64		to = nfound;

		CHECK_FOR_INTERRUPTS();
		spi_run_kept(psprintf("SELECT DISTINCT g.init_id FROM %s g WHERE g.next_id = ANY ($1)", tree->edges),
					 1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(found + from, to - from)},
					 SPI_OK_SELECT);
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			bool		isnull,
						known;
			int64		parent = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc,
															 1, &isnull));

			hash_search(seen, &parent, HASH_ENTER, &known);
			if (known)
				continue;
			if (nfound == maxfound)
			{
				maxfound *= 2;
				found = repalloc_huge(found, maxfound * sizeof(int64));
			}
			found[nfound++] = parent;
		}
		SPI_freetuptable(SPI_tuptable);
		from = to;
	}
	hash_destroy(seen);
	return int8_array(found, nfound);
}

/* The ids of the nodes read, as bigint[]. */
static Datum
node_ids(const Graph *g)
{
	Datum	   *ids = palloc(Max(g->nnodes, 1) * sizeof(Datum));

	for (int64 i = 0; i < g->nnodes; i++)
		ids[i] = Int64GetDatum(NODE(g, i)->id);
	return datum_array(ids, NULL, g->nnodes, INT8OID);
}

/*
 * Propagation over a region: the states that condition (on alias s, with
 * $1 of type argtype) selects, whose children outside it count by the
 * values read with their edges.
 */
static bool
propagate_region(const Tree *tree, const char *condition, Oid argtype, Datum arg, TimestampTz deadline,
				 const char *phase)
{
	Graph		g;
	PropagateControl control = {deadline};
	PropagateResult result;

	graph_init(&g, tree, &control);
	if (!read_rows(&g, node_select(tree, psprintf("%s s WHERE %s", tree->states, condition)),
				   1, (Oid[]) {argtype}, (Datum[]) {arg}, phase, 0, false, false))
	{
		MemoryContextDelete(g.cxt);
		return false;
	}
	index_nodes(&g);
	if (!read_rows(&g, select_list(edge_columns, EDGE_COLS,
								   psprintf("%s g LEFT JOIN %s c ON c.id = g.next_id WHERE g.init_id = ANY ($1)",
											tree->edges, tree->states)),
				   1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {node_ids(&g)}, "reading edges", 0, false, true))
	{
		MemoryContextDelete(g.cxt);
		return false;
	}
	return evaluate_and_write(&g, GetCurrentTimestamp(), &result);
}

bool
tree_propagate_up(const Tree *tree, const int64 *ids, int n, TimestampTz deadline)
{
	return propagate_region(tree, "s.id = ANY ($1)", INT8ARRAYOID, ancestors(tree, ids, n), deadline,
							"reading ancestors");
}

/*
 * A node's part of a sharded tree, kept in memory for the steps of one
 * propagation (shard.h): each step changes a few values of other nodes'
 * states, and reading the part again for each would cost more than all
 * the steps' evaluations.  The values of other nodes' states arrive here,
 * onto the edges to them, and never touch a table, nor which nodes want
 * the values of the states held here: a propagation cut short loses them,
 * and the next one, which reads the part again, asks and sends them again.
 * It is valid while the part stores no states (its gametree.trees.writes
 * stays); a call that fails drops it, since what it wrote was not
 * committed.
 */
typedef struct KeptGraph
{
	Oid			states;			/* the part's table of states, 0: nothing kept */
	int64		writes;			/* gametree.trees.writes when it was read */
	bool		in_use;			/* a call is using it: found so, a call failed */
	bool		from_scratch;	/* read so: counts are taken again at the end */
	Graph		g;
	PropagateControl control;
	/* Per state (node index): the nodes with edges into it, bit number - 1. */
	uint64	   *wanted_by;
	/* Another node's state -> the first of the edges to it (g.remote_edges). */
	IdIndex		remote_states;
	/*
	 * The states whose values the nodes with edges into them are to be
	 * sent: those the last step wrote; every one before the first step,
	 * since the edges to them there know no value yet.
	 */
	bool		send_all;
	int32	   *written;
	int64		nwritten,
				maxwritten;
} KeptGraph;

static KeptGraph kept;

/* A batch of values sent to a node: this header, then per state its id and packed value. */
typedef struct PackedValuesHeader
{
	uint32		magic;
	int32		value_size;		/* of the packed values: the game's roles decide it */
} PackedValuesHeader;

#define PACKED_VALUES_MAGIC 0x47545631	/* "GTV1" */

void
tree_forget_kept(void)
{
	if (OidIsValid(kept.states))
		MemoryContextDelete(kept.g.cxt);
	memset(&kept, 0, sizeof(KeptGraph));
}

static int
remote_edge_cmp(const void *a, const void *b)
{
	int64		x = ((const RemoteEdge *) a)->state,
				y = ((const RemoteEdge *) b)->state;

	return (x > y) - (x < y);
}

void
tree_keep_part(const Tree *tree, bool from_scratch)
{
	Graph	   *g = &kept.g;

	tree_lock(tree);
	tree_forget_kept();
	graph_init(g, tree, &kept.control);
	MemoryContextSetParent(g->cxt, TopMemoryContext);
	kept.states = tree->relids[TREE_STATES];
	kept.writes = tree_writes(tree);
	kept.from_scratch = from_scratch;
	kept.send_all = true;
	kept.in_use = true;
	g->keep_remote_edges = true;
	(void) read_rows(g, node_select(tree, psprintf("%s s", tree->states)), 0, NULL, NULL,
					 "reading states", 0, from_scratch, false);
	index_nodes(g);
	/* An edge to another node's state knows no value until that node sends it. */
	(void) read_rows(g, select_list(edge_columns, EDGE_KEY_COLS, psprintf("%s g", tree->edges)),
					 0, NULL, NULL, "reading edges", 0, from_scratch, true);
	sort_edges(g);
	qsort(g->remote_edges, g->nremote_edges, sizeof(RemoteEdge), remote_edge_cmp);
	graph_charge(g, 0, id_index_size(g->nremote_edges));
	id_index_init(&kept.remote_states, g->nremote_edges, g->cxt);
	for (int64 k = 0; k < g->nremote_edges; k++)
		if (k == 0 || g->remote_edges[k - 1].state != g->remote_edges[k].state)
			(void) id_index_add(&kept.remote_states, g->remote_edges[k].state, (int32) k);
	kept.wanted_by = graph_resize(g, NULL, 0, Max(g->nnodes, 1) * sizeof(uint64));
	memset(kept.wanted_by, 0, Max(g->nnodes, 1) * sizeof(uint64));
	kept.in_use = false;
}

/* The kept part of tree, or an ERROR when none is, or it is stale: the propagation begins again. */
static Graph *
kept_graph_of(const Tree *tree)
{
	if (kept.states != tree->relids[TREE_STATES] || kept.in_use)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no propagation of tree \"%s\" is under way in this session", tree->qualified),
				 errdetail("The steps of a propagation of a node's part use the part its first step read."),
				 errhint("The coordinator of a sharded tree calls gametree.shard_part first.")));
	if (kept.writes != tree_writes(tree))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("tree \"%s\" stored states during its propagation", tree->qualified),
				 errhint("Propagate it again on the coordinator: SELECT gametree.propagate(%s);",
						 quote_literal_cstr(tree->qualified))));
	/* The graph outlives the call: the tree it names is this call's. */
	kept.g.tree = tree;
	return &kept.g;
}

void
tree_kept_wanted(const Tree *tree, const TreeNode *holders, int nholders, PayloadSink sink, void *arg)
{
	Graph	   *g = kept_graph_of(tree);
	PackedRowsWriter *out = palloc(nholders * sizeof(PackedRowsWriter));

	for (int h = 0; h < nholders; h++)
		packed_rows_writer_init(&out[h], 1, (Oid[]) {INT8OID});
	/* The edges are in order of the states they lead to: each state once. */
	for (int64 k = 0; k < g->nremote_edges; k++)
	{
		int64		id = g->remote_edges[k].state;
		int			h = 0;

		CHECK_FOR_INTERRUPTS();
		if (k > 0 && g->remote_edges[k - 1].state == id)
			continue;
		while (h < nholders && (id < holders[h].low || id > holders[h].high))
			h++;
		if (h == nholders)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("an edge of tree \"%s\" leads to state %lld, which no node holds", tree->qualified,
							(long long) id),
					 errdetail("Rows of %s were written outside gametree.", tree->edges)));
		packed_rows_add(&out[h], (Datum[]) {Int64GetDatum(id)}, (bool[]) {false});
		if (out[h].rows == SHARD_PAYLOAD_ROWS)
			packed_rows_flush(&out[h], sink, arg, holders[h].number);
	}
	for (int h = 0; h < nholders; h++)
		packed_rows_flush(&out[h], sink, arg, holders[h].number);
}

int64
tree_kept_take_wanted(const Tree *tree, int32 node, const bytea *payload)
{
	Graph	   *g = kept_graph_of(tree);
	Datum	   *ids;
	bool	   *nulls;
	int64		n = packed_rows_read(payload, 1, (Oid[]) {INT8OID}, NULL, &ids, &nulls,
									 "the states another node wants the values of");
	int64		found = 0;

	if (node < 1 || node > TREE_SHARDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("node %d is not one of 1 to %d", node, TREE_SHARDS)));
	for (int64 r = 0; r < n; r++)
	{
		int32		i = nulls[r] ? -1 : id_index_find(&g->node_ids, DatumGetInt64(ids[r]));

		/* A state not held here has no value to send: its edges there keep none. */
		if (i >= 0)
		{
			kept.wanted_by[i] |= UINT64CONST(1) << (node - 1);
			found++;
		}
	}
	return found;
}

/* Sends node's batch (0-based) of values, if any, and starts it anew. */
static void
send_values(StringInfo out, int64 *count, int node, PayloadSink sink, void *arg)
{
	if (out->data == NULL)
		return;
	SET_VARSIZE(out->data, out->len);
	sink(arg, node + 1, *count, (bytea *) out->data);
	pfree(out->data);
	out->data = NULL;
	*count = 0;
}

void
tree_kept_values(const Tree *tree, PayloadSink sink, void *arg)
{
	Graph	   *g = kept_graph_of(tree);
	StringInfoData out[TREE_SHARDS];
	int64		count[TREE_SHARDS] = {0};
	int64		n = kept.send_all ? g->nnodes : kept.nwritten;
	PackedValuesHeader header = {PACKED_VALUES_MAGIC, g->layout.size};

	for (int node = 0; node < TREE_SHARDS; node++)
		out[node].data = NULL;
	for (int64 k = 0; k < n; k++)
	{
		int32		i = kept.send_all ? (int32) k : kept.written[k];

		CHECK_FOR_INTERRUPTS();
		for (uint64 to = kept.wanted_by[i]; to != 0; to &= to - 1)
		{
			int			node = pg_rightmost_one_pos64(to);

			if (count[node] == SHARD_PAYLOAD_ROWS)
				send_values(&out[node], &count[node], node, sink, arg);
			if (out[node].data == NULL)
			{
				initStringInfo(&out[node]);
				appendBinaryStringInfo(&out[node], (char *) &(int32) {0}, VARHDRSZ);
				appendBinaryStringInfo(&out[node], (char *) &header, sizeof(header));
			}
			appendBinaryStringInfo(&out[node], (char *) &NODE(g, i)->id, sizeof(int64));
			appendBinaryStringInfo(&out[node], NODE_VALUE(g, i), g->layout.size);
			count[node]++;
		}
	}
	for (int node = 0; node < TREE_SHARDS; node++)
		send_values(&out[node], &count[node], node, sink, arg);
	kept.send_all = false;
	kept.nwritten = 0;
}

int64
tree_kept_take_values(const Tree *tree, const bytea *payload)
{
	Graph	   *g = kept_graph_of(tree);
	const char *p = VARDATA_ANY(payload);
	Size		len = VARSIZE_ANY_EXHDR(payload);
	Size		record = sizeof(int64) + g->layout.size;
	PackedValuesHeader header;
	int64		changed = 0;
	const uint8 known_flags = PACKED_KNOWN | PACKED_PROVEN;

	if (len >= sizeof(header))
		memcpy(&header, p, sizeof(header));
	if (len < sizeof(header) || header.magic != PACKED_VALUES_MAGIC || header.value_size != g->layout.size ||
		(len - sizeof(header)) % record != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("values sent to tree \"%s\" are not values of its states", tree->qualified),
				 errdetail("%zu bytes, not values of %zu bytes each of a game of %d roles.", len,
						   (Size) g->layout.size, g->layout.nroles),
				 errhint("The coordinator of a sharded tree relays what gametree.shard_values returns on "
						 "another node.")));
	for (const char *r = p + sizeof(header); r < p + len; r += record)
	{
		int64		id;
		int32		first;
		const char *value = r + sizeof(int64);

		CHECK_FOR_INTERRUPTS();
		memcpy(&id, r, sizeof(int64));
		if ((((const uint8 *) value)[0] & ~known_flags) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("the value sent to tree \"%s\" for state %lld is not a value", tree->qualified,
							(long long) id)));
		first = id_index_find(&kept.remote_states, id);
		if (first < 0)
			continue;
		for (int64 k = first; k < g->nremote_edges && g->remote_edges[k].state == id; k++)
			if (memcmp(EDGE_VALUE(g, g->remote_edges[k].edge), value, g->layout.size) != 0)
			{
				memcpy(EDGE_VALUE(g, g->remote_edges[k].edge), value, g->layout.size);
				changed++;
			}
	}
	return changed;
}

void
tree_propagate_kept(const Tree *tree, int32 depth)
{
	Graph	   *g = kept_graph_of(tree);
	PropagateResult result = {0};

	tree_lock(tree);
	kept.in_use = true;
	if (depth >= 0)
	{
		Value	   *moves = palloc(g->game->max_moves * sizeof(Value));

		for (int32 i = 0; i < g->nnodes; i++)
			if (NODE(g, i)->depth == depth && (NODE(g, i)->flags & NODE_EVALUATE))
				evaluate_node(g, i, moves);
	}
	else
	{
		for (int32 i = 0; i < g->nnodes; i++)
			NODE(g, i)->flags &= ~(NODE_DONE | NODE_ON_STACK | NODE_CYCLIC);
		(void) evaluate_all(g);
	}
	(void) write_changes(g, &result);
	/* What is written is what the rows keep now, and what the nodes with edges into them are sent. */
	for (int32 i = 0; i < g->nnodes; i++)
	{
		if (!node_changed(g, i))
			continue;
		make_room(g, (char **) &kept.written, &kept.maxwritten, kept.nwritten, sizeof(int32), "states written");
		kept.written[kept.nwritten++] = i;
		memcpy(NODE_ROW_VALUE(g, i), row_value(g, i), g->layout.size);
		NODE(g, i)->stored_best_move = row_best_move(g, i);
	}
	/* Evaluated whole, the part has nothing pending but what came after it was read. */
	if (depth < 0)
		(void) catalog_settle_pending(tree, kept.writes, 0);
	kept.in_use = false;
}

void
tree_end_kept(const Tree *tree)
{
	if (kept.states == tree->relids[TREE_STATES] && kept.from_scratch && !kept.in_use)
		tree_recount(tree);
	tree_forget_kept();
}

int64
propagate_tree(text *name, bool from_scratch)
{
	PropagateControl control = {0};
	PropagateResult result;
	Tree	   *tree = tree_open(name, TREE_WRITE);

	shard_refuse_part(tree, "SELECT gametree.propagate");
	if (tree->nnodes > 0)
	{
		shard_propagate(tree, from_scratch);
		tree_close(tree);
		return 0;
	}
	tree_hold_tables(tree);
	tree_propagate(tree, from_scratch, &control, &result);
	/* From scratch nothing is taken from the rows' values: nor from the counts (rows written by hand). */
	if (from_scratch)
		tree_recount(tree);
	tree_close(tree);
	return result.evaluations;
}
