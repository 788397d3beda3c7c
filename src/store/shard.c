/*
 * shard.c: the coordinator of a sharded tree (shard.h tells the design):
 * creating and dropping it on its nodes, growing it level by level, and
 * propagating it in waves, with the catalog counts summed from the nodes'.
 *
 * Rows between nodes pass through the coordinator as arrays, a few
 * thousand rows per statement: read from one node with dblink, written to
 * another as the arguments of a gametree function there.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "pg/remote.h"
#include "store/catalog.h"
#include "store/settings.h"
#include "store/shard.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

/* Rows per statement shipping states or values from one node to another. */
#define SHIP_ROWS 5000
/* Waves of propagation before giving up on values that do not settle (cycles over nodes). */
#define MAX_WAVES 1000

/* The columns of _states a new state is shipped with, as read on its node. */
#define SHIPPED_STATE_COLUMNS \
	"array_agg(id ORDER BY id), array_agg(state::bytea ORDER BY id), array_agg(goal ORDER BY id), " \
	"array_agg(depth ORDER BY id), array_agg(control ORDER BY id), array_agg(expanded ORDER BY id), " \
	"array_agg(utility ORDER BY id), array_agg(mobility ORDER BY id), array_agg(proven ORDER BY id)"
#define SHIPPED_STATE_ARRAYS 9

static const char *const shipped_state_casts[SHIPPED_STATE_ARRAYS] = {
	"bigint[]", "bytea[]", "jsonb[]", "integer[]", "text[]", "boolean[]", "jsonb[]", "jsonb[]", "boolean[]"
};

/* The nodes of a tree, with a link to each. */
typedef struct Nodes
{
	const Tree *tree;
	int			n;
	RemoteLink *links;
	/*
	 * Links that receive what others send, each statement committed
	 * there at once, while the senders' links keep their marks
	 * uncommitted until everything is delivered.
	 */
	RemoteLink *receiving;
	const char *name_literal;	/* the tree's qualified name, as an SQL literal for the nodes' calls */
	int64		bytes_shipped;	/* in the arrays the coordinator passed from node to node */
} Nodes;

static const char *
node_label(const Tree *tree, const TreeNode *node)
{
	return psprintf("node %d of tree %s (server %s)", node->number, tree->qualified,
					quote_identifier(node->server));
}

static Nodes
open_nodes(const Tree *tree)
{
	Nodes		nodes = {tree, tree->nnodes};

	nodes.links = palloc0(nodes.n * sizeof(RemoteLink));
	nodes.receiving = palloc0(nodes.n * sizeof(RemoteLink));
	nodes.name_literal = quote_literal_cstr(tree->qualified);
	for (int i = 0; i < nodes.n; i++)
	{
		const char *label = node_label(tree, &tree->nodes[i]);

		remote_open(&nodes.links[i], tree->nodes[i].server, "main", label);
		remote_open(&nodes.receiving[i], tree->nodes[i].server, "receiving", label);
	}
	return nodes;
}

/*
 * The statement on every node at once; returns when all are done, with
 * their rows (typed by columns) in results when it is not NULL.  A failure
 * or a cancel while sending leaves none of them running.
 */
static void
run_on_all(Nodes *nodes, const char *sql, const char *columns, SPITupleTable **results)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		for (int i = 0; i < nodes->n; i++)
			remote_send(&nodes->links[i], sql);
	}
	PG_CATCH();
	{
		remote_fail(nodes->links, NULL, nodes->n, cxt);
	}
	PG_END_TRY();
	remote_wait(nodes->links, nodes->n, columns, results);
}

/* A bigint column of a row of rows, 0 when NULL. */
static int64
int8_or_zero_of(SPITupleTable *rows, uint64 row, int column)
{
	bool		isnull;
	Datum		d = SPI_getbinval(rows->vals[row], rows->tupdesc, column, &isnull);

	return isnull ? 0 : DatumGetInt64(d);
}

static int64
int8_or_zero(uint64 row, int column)
{
	return int8_or_zero_of(SPI_tuptable, row, column);
}

/* A column definition list of n text columns, for dblink. */
static char *
text_columns(int n)
{
	StringInfoData list;

	initStringInfo(&list);
	for (int c = 0; c < n; c++)
		appendStringInfo(&list, "%sc%d text", c > 0 ? ", " : "", c);
	return list.data;
}

/*
 * What a node sends in an exchange: a statement marking rows sent, in a
 * transaction the coordinator commits once they are delivered, and
 * returning them grouped by the node they go to (its number), in batches:
 * the node, the count, then the arrays, in their text forms.  The
 * coordinator passes those on without parsing them, and the receiving node
 * reads them as the types of casts.
 */
typedef struct Exchange
{
	const char *(*sending) (const Nodes *nodes, int from);
	/* A statement that marks what was sent, run before the sender commits, or NULL: sending marks. */
	const char *(*marking) (const Nodes *nodes, int from);
	const char *function;		/* gametree's function that receives a batch */
	bool		with_sender;	/* it takes the sender's number after the tree */
	const char *const *casts;
	int			arrays;
} Exchange;

/* The call of the exchange's function on a node with batch r of what node from sends. */
static char *
receiving_call(const Nodes *nodes, const Exchange *x, int from, SPITupleTable *rows, uint64 r)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfo(&sql, "SELECT gametree.%s(%s", x->function, nodes->name_literal);
	if (x->with_sender)
		appendStringInfo(&sql, ", %d", nodes->tree->nodes[from].number);
	for (int c = 0; c < x->arrays; c++)
	{
		char	   *array = SPI_getvalue(rows->vals[r], rows->tupdesc, c + 3);

		appendStringInfo(&sql, ", %s::%s", array == NULL ? "NULL" : quote_literal_cstr(array), x->casts[c]);
	}
	appendStringInfoChar(&sql, ')');
	return sql.data;
}

/*
 * Every node sends at once; the batches are delivered, each receiving
 * node taking one batch at a time, all of them at once; then the senders
 * commit their marks.  A failure before leaves every mark undone (the
 * senders' sessions are closed), and the batches delivered, delivered
 * again next time, change nothing.  Returns the rows delivered.
 */
static int64
exchange(Nodes *nodes, const Exchange *x)
{
	int			n = nodes->n;
	SPITupleTable **sent = palloc0(n * sizeof(SPITupleTable *));
	uint64	   *next = palloc0(n * sizeof(uint64));	/* per sender: its next batch */
	int64		delivered = 0;
	MemoryContext cxt = CurrentMemoryContext;

	/* A node alone finds no state another holds. */
	if (n == 1)
		return 0;
	PG_TRY();
	{
		for (int from = 0; from < n; from++)
		{
			/* One snapshot for what it sends and what it marks sent. */
			remote_exec(&nodes->links[from], "BEGIN ISOLATION LEVEL REPEATABLE READ");
			remote_send(&nodes->links[from], x->sending(nodes, from));
		}
		remote_wait(nodes->links, n, text_columns(x->arrays + 2), sent);
		for (;;)
		{
			bool		any = false;
			bool	   *taken = palloc0(n * sizeof(bool));

			CHECK_FOR_INTERRUPTS();
			/* A round: each receiver one batch, from the first sender with one for it. */
			for (int from = 0; from < n; from++)
				for (; next[from] < sent[from]->numvals; next[from]++)
				{
					uint64		r = next[from];
					char	   *call;
					int			to = pg_strtoint32(SPI_getvalue(sent[from]->vals[r], sent[from]->tupdesc, 1)) - 1;

					if (to < 0 || to >= n || to == from)
						ereport(ERROR,
								(errcode(ERRCODE_DATA_EXCEPTION),
								 errmsg("%s sent rows for node %d", nodes->links[from].label, to + 1),
								 errdetail("Rows of its tables were written outside gametree.")));
					if (taken[to])
						break;
					taken[to] = any = true;
					delivered += pg_strtoint64(SPI_getvalue(sent[from]->vals[r], sent[from]->tupdesc, 2));
					call = receiving_call(nodes, x, from, sent[from], r);
					nodes->bytes_shipped += strlen(call);
					remote_send(&nodes->receiving[to], call);
					pfree(call);
				}
			if (!any)
				break;
			remote_wait(nodes->receiving, n, "received text", NULL);
		}
		for (int from = 0; from < n; from++)
		{
			if (x->marking != NULL)
				remote_exec(&nodes->links[from], x->marking(nodes, from));
			remote_exec(&nodes->links[from], "COMMIT");
		}
	}
	PG_CATCH();
	{
		remote_fail(nodes->links, nodes->receiving, n, cxt);
	}
	PG_END_TRY();
	for (int from = 0; from < n; from++)
		SPI_freetuptable(sent[from]);
	return delivered;
}

/* The other nodes' ranges, as (node, low, high) rows of a VALUES list. */
static char *
ranges_values(const Nodes *nodes, int except)
{
	StringInfoData list;

	initStringInfo(&list);
	for (int i = 0; i < nodes->n; i++)
		if (i != except)
			appendStringInfo(&list, "%s(%d, '%lld'::bigint, '%lld'::bigint)", list.len > 0 ? ", " : "",
							 nodes->tree->nodes[i].number, (long long) nodes->tree->nodes[i].low,
							 (long long) nodes->tree->nodes[i].high);
	return list.data;
}

/* A node's new ghosts (those in its outbox), for the nodes that hold them. */
static const char *
sending_states(const Nodes *nodes, int from)
{
	const Tree *tree = nodes->tree;

	return psprintf("SELECT node, count(*), " SHIPPED_STATE_COLUMNS " FROM (SELECT s.*, h.node, "
					"(row_number() OVER (PARTITION BY h.node ORDER BY s.id) - 1) / %d AS batch "
					"FROM %s o JOIN %s s ON s.id = o.id JOIN (VALUES %s) h(node, low, high) "
					"ON s.id BETWEEN h.low AND h.high) b GROUP BY node, batch",
					SHIP_ROWS, tree->outbox, tree->ghosts, ranges_values(nodes, from));
}

/* The sender's snapshot is the one its rows were read in: it deletes what it sent, nothing newer. */
static const char *
marking_states(const Nodes *nodes, int from)
{
	return psprintf("DELETE FROM %s", nodes->tree->outbox);
}

static const Exchange states_exchange = {
	sending_states, marking_states, "shard_accept", true, shipped_state_casts, SHIPPED_STATE_ARRAYS
};

/*
 * The values each node's last step of a propagation wrote, relayed to the
 * nodes with edges into those states, onto their parts kept in memory
 * (the same sessions: the links that ran the step), each node taking one
 * batch at a time, all of them at once.  Nothing is written on the nodes:
 * a relay cut short is made good by the next propagation, whose first
 * step sends every value.  Returns the edges whose value changed.
 */
static int64
relay_values(Nodes *nodes)
{
	int			n = nodes->n;
	SPITupleTable **sent = palloc0(n * sizeof(SPITupleTable *));
	SPITupleTable **taken_rows = palloc0(n * sizeof(SPITupleTable *));
	uint64	   *next = palloc0(n * sizeof(uint64));	/* per sender: its next batch */
	int64		changed = 0;

	/* A node alone has no edges to other nodes' states. */
	if (n == 1)
		return 0;
	run_on_all(nodes, psprintf("SELECT node, states, payload FROM gametree.shard_values(%s)", nodes->name_literal),
			   "node integer, states bigint, payload text", sent);
	for (;;)
	{
		bool	   *taken = palloc0(n * sizeof(bool));
		bool		any = false;
		MemoryContext cxt = CurrentMemoryContext;

		CHECK_FOR_INTERRUPTS();
		PG_TRY();
		{
			for (int from = 0; from < n; from++)
				for (; next[from] < sent[from]->numvals; next[from]++)
				{
					HeapTuple	row = sent[from]->vals[next[from]];
					int			to = pg_strtoint32(SPI_getvalue(row, sent[from]->tupdesc, 1)) - 1;
					char	   *call;

					if (to < 0 || to >= n || to == from)
						ereport(ERROR,
								(errcode(ERRCODE_DATA_EXCEPTION),
								 errmsg("%s sent values for node %d", nodes->links[from].label, to + 1),
								 errdetail("Rows of its tables were written outside gametree.")));
					if (taken[to])
						break;
					taken[to] = any = true;
					call = psprintf("SELECT gametree.shard_take_values(%s, %s::bytea)", nodes->name_literal,
									quote_literal_cstr(SPI_getvalue(row, sent[from]->tupdesc, 3)));
					nodes->bytes_shipped += strlen(call);
					remote_send(&nodes->links[to], call);
					pfree(call);
				}
		}
		PG_CATCH();
		{
			remote_fail(nodes->links, NULL, n, cxt);
		}
		PG_END_TRY();
		if (!any)
			break;
		remote_wait(nodes->links, n, "changed bigint", taken_rows);
		for (int to = 0; to < n; to++)
			if (taken[to])
			{
				changed += int8_or_zero_of(taken_rows[to], 0, 1);
				SPI_freetuptable(taken_rows[to]);
			}
	}
	for (int from = 0; from < n; from++)
		SPI_freetuptable(sent[from]);
	return changed;
}

/* The coordinator's _moves: every node's. */
static void
gather_moves(Nodes *nodes)
{
	const Tree *tree = nodes->tree;

	for (int i = 0; i < nodes->n; i++)
	{
		remote_query(&nodes->links[i], psprintf("SELECT array_agg(id), array_agg(move) FROM %s", tree->moves),
					 "ids bigint[], moves jsonb[]");
		if (SPI_processed == 1)
		{
			bool		isnull;
			Datum		ids = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
			Datum		moves = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);

			if (!isnull)
				spi_run(psprintf("INSERT INTO %s (id, move) SELECT * FROM unnest($1, $2) ORDER BY 1 "
								 "ON CONFLICT DO NOTHING", tree->moves),
						2, (Oid[]) {INT8ARRAYOID, JSONBARRAYOID}, (Datum[]) {ids, moves}, SPI_OK_INSERT);
		}
	}
}

/*
 * The coordinator's catalog rows: the sums of its nodes' counts (their
 * rows in gametree.trees, tree_depths and tree_values), and its moves.
 */
static void
sum_counts(Nodes *nodes)
{
	const Tree *tree = nodes->tree;
	TreeCounts	counts,
				values;
	int64		totals[5] = {0};
	const char *key = psprintf("schema = %s AND %%s = %s", quote_literal_cstr(tree->schema),
							   quote_literal_cstr(tree->name));

	counts_init(&counts);
	counts_init(&values);
	gather_moves(nodes);
	for (int i = 0; i < nodes->n; i++)
	{
		remote_query(&nodes->links[i],
					 psprintf("SELECT states, edges, frontier, pending, writes FROM gametree.trees WHERE %s",
							  psprintf(key, "name")),
					 "states bigint, edges bigint, frontier bigint, pending bigint, writes bigint");
		for (int c = 0; c < 5 && SPI_processed == 1; c++)
			totals[c] += int8_or_zero(0, c + 1);
		remote_query(&nodes->links[i],
					 psprintf("SELECT depth, states, expanded, terminal, proven, edges FROM gametree.tree_depths "
							  "WHERE %s", psprintf(key, "tree")),
					 "depth integer, states bigint, expanded bigint, terminal bigint, proven bigint, edges bigint");
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			DepthCount *at = counts_at(&counts, DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[r],
																			 SPI_tuptable->tupdesc, 1,
																			 &(bool) {0})));

			at->states += int8_or_zero(r, 2);
			at->expanded += int8_or_zero(r, 3);
			at->terminal += int8_or_zero(r, 4);
			at->proven += int8_or_zero(r, 5);
			at->edges += int8_or_zero(r, 6);
		}
		remote_query(&nodes->links[i],
					 psprintf("SELECT utility, states FROM gametree.tree_values WHERE %s", psprintf(key, "tree")),
					 "utility jsonb, states bigint");
		for (uint64 r = 0; r < SPI_processed; r++)
			counts_proven(&values, 0,
						  DatumGetJsonbP(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1,
													   &(bool) {0})), int8_or_zero(r, 2));
	}
	/* The proven states per utility; counts_proven also counted them at depth 0, of values alone. */
	counts.values = values.values;
	counts.nvalues = values.nvalues;
	counts.maxvalues = values.maxvalues;
	tree_lock(tree);
	counts_forget(tree);
	counts_write(tree, &counts);
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 psprintf("UPDATE gametree.trees SET states = $3, edges = $4, frontier = $5, pending = $6, "
					  "writes = $7, moves = (SELECT count(*) FROM %s) WHERE " TREE_KEY(""), tree->moves),
			 5, (Oid[]) {INT8OID, INT8OID, INT8OID, INT8OID, INT8OID},
			 (Datum[]) {Int64GetDatum(totals[0]), Int64GetDatum(totals[1]), Int64GetDatum(totals[2]),
				 Int64GetDatum(totals[3]), Int64GetDatum(totals[4])}, SPI_OK_UPDATE);
}

/* The ids of node i (0-based) of n: a run of whole shards, the last ending at the largest id. */
static void
node_range(int i, int n, TreeNode *node)
{
	int			first = i * TREE_SHARDS / n,
				end = (i + 1) * TREE_SHARDS / n;
	const int	shard_bits = 64 - 6;	/* TREE_SHARDS is 2^6 */

	StaticAssertStmt(TREE_SHARDS == 64, "shard_bits assumes 64 shards");
	node->low = (int64) (((uint64) first << shard_bits) + (uint64) PG_INT64_MIN);
	node->high = end == TREE_SHARDS ? PG_INT64_MAX :
		(int64) (((uint64) end << shard_bits) + (uint64) PG_INT64_MIN - 1);
}

/* The nodes named, checked: foreign servers of postgres_fdw, each once. */
static TreeNode *
parse_nodes(Datum array, int *n)
{
	Datum	   *names;
	bool	   *nulls;
	TreeNode   *nodes;

	deconstruct_array(DatumGetArrayTypeP(array), TEXTOID, -1, false, TYPALIGN_INT, &names, &nulls, n);
	if (*n < 1 || *n > TREE_SHARDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a sharded tree has 1 to %d nodes, not %d", TREE_SHARDS, *n),
				 errdetail("Its ids are split into %d shards, and each node holds at least one.", TREE_SHARDS)));
	if (!OidIsValid(get_extension_oid("postgres_fdw", true)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("sharded trees need the extension postgres_fdw on the coordinator"),
				 errhint("CREATE EXTENSION postgres_fdw; (it comes with PostgreSQL's contrib).")));
	nodes = palloc0(*n * sizeof(TreeNode));
	for (int i = 0; i < *n; i++)
	{
		ForeignServer *server;
		const char *name;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("node %d of the sharded tree is NULL", i + 1),
					 errhint("Name foreign servers of postgres_fdw: nodes => ARRAY['node1', 'node2'].")));
		name = TextDatumGetCString(names[i]);
		server = GetForeignServerByName(name, true);
		if (server == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("node %d of the sharded tree: foreign server \"%s\" does not exist", i + 1, name),
					 errhint("CREATE SERVER %s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...); "
							 "and a user mapping for it.", quote_identifier(name))));
		if (strcmp(GetForeignDataWrapper(server->fdwid)->fdwname, "postgres_fdw") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("node %d of the sharded tree: foreign server \"%s\" is not one of postgres_fdw",
							i + 1, name),
					 errhint("The coordinator reads its nodes' tables as foreign tables of postgres_fdw.")));
		for (int j = 0; j < i; j++)
			if (strcmp(nodes[j].server, server->servername) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("foreign server \"%s\" is named twice among the nodes", name)));
		nodes[i].number = i + 1;
		nodes[i].server = server->servername;
		node_range(i, *n, &nodes[i]);
	}
	return nodes;
}

/* The range bound after the node's ids, for FOR VALUES ... TO. */
static char *
bound_after(const TreeNode *node)
{
	return node->high == PG_INT64_MAX ? pstrdup("MAXVALUE") : psprintf("%lld", (long long) node->high + 1);
}

int64
shard_create_tree(Tree *tree, const GameState *root, Datum node_names)
{
	ExpansionCounts none = {0};
	Nodes		nodes;
	int64		root_id = (int64) gt_state_hash(tree->game, root);
	char	   *root_json = JsonbToCString(NULL, &gt_encode_state(tree->game, root)->root, 0);
	const char *partitioned[2] = {tree->states, tree->edges};
	const char *suffixes[2] = {TREE_STATES_SUFFIX, TREE_EDGES_SUFFIX};

	tree->nodes = parse_nodes(node_names, &tree->nnodes);
	nodes = open_nodes(tree);
	for (int i = 0; i < nodes.n; i++)
	{
		const TreeNode *node = &tree->nodes[i];

		remote_query(&nodes.links[i],
					 psprintf("SELECT gametree.shard_create(%s, %s, %d, %lld, %lld, %s)", nodes.name_literal,
							  quote_literal_cstr(tree->game->name), node->number, (long long) node->low,
							  (long long) node->high, quote_literal_cstr(root_json)),
					 "root bigint");
		SPI_freetuptable(SPI_tuptable);
		/* Each node's part of the tables, a partition of the coordinator's. */
		for (int t = 0; t < 2; t++)
			spi_run(psprintf("CREATE FOREIGN TABLE %s PARTITION OF %s FOR VALUES FROM (%lld) TO (%s) "
							 "SERVER %s OPTIONS (schema_name %s, table_name %s, fetch_size '10000', "
							 "async_capable 'true')",
							 quote_qualified_identifier(tree->schema,
														psprintf("%s%s_%d", tree->name, suffixes[t], node->number)),
							 partitioned[t], (long long) node->low, bound_after(node),
							 quote_identifier(node->server), quote_literal_cstr(tree->schema),
							 quote_literal_cstr(psprintf("%s%s", tree->name, suffixes[t]))),
					0, NULL, NULL, SPI_OK_UTILITY);
	}
	catalog_insert_tree(tree, root_id, &none);
	catalog_insert_nodes(tree, tree->nodes, tree->nnodes);
	sum_counts(&nodes);
	return root_id;
}

void
shard_drop_parts(const Tree *tree)
{
	Nodes		nodes = open_nodes(tree);

	for (int i = 0; i < nodes.n; i++)
	{
		/* A part never created (a create_tree that failed there) is not there to drop. */
		remote_query(&nodes.links[i],
					 psprintf("SELECT count(*) FROM gametree.trees WHERE schema = %s AND name = %s",
							  quote_literal_cstr(tree->schema), quote_literal_cstr(tree->name)),
					 "parts bigint");
		if (int8_or_zero(0, 1) > 0)
			remote_query(&nodes.links[i], psprintf("SELECT gametree.drop_tree(%s)", nodes.name_literal), "dropped text");
	}
}

/*
 * The shallowest depth of the frontier, over all nodes, that is shallower
 * than max_depth; -1 when there is none.
 */
static int32
frontier_depth(Nodes *nodes, int32 max_depth)
{
	int32		depth = -1;

	for (int i = 0; i < nodes->n; i++)
	{
		bool		isnull;
		Datum		d;

		remote_query(&nodes->links[i],
					 psprintf("SELECT min(depth) FROM %s WHERE NOT expanded AND depth < %d", nodes->tree->states,
							  max_depth),
					 "depth integer");
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (!isnull && (depth < 0 || DatumGetInt32(d) < depth))
			depth = DatumGetInt32(d);
		SPI_freetuptable(SPI_tuptable);
	}
	return depth;
}

/*
 * Propagation: from scratch, every node's part at once first; then depth
 * by depth from the deepest expanded, each followed by the values that
 * changed, which on a graph whose edges all go one depth deeper leaves
 * every value final; then in waves until no value changes (each an
 * evaluation of every part kept in memory).  Returns the waves.
 */
static int
propagate_in_waves(Nodes *nodes, bool from_scratch)
{
	int			waves = 0;
	int64		changed;
	int32		deepest;

	if (from_scratch)
		run_on_all(nodes, psprintf("SELECT gametree.propagate(%s, true)", nodes->name_literal), "status text",
				   NULL);
	tree_run(nodes->tree, RUN_PLAIN, "SELECT max(depth)::bigint FROM gametree.tree_depths WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_SELECT);
	deepest = SPI_processed > 0 ? (int32) int8_or_zero(0, 1) : 0;
	/* One node has no ghosts: its first wave is final. */
	for (int32 depth = nodes->n > 1 ? deepest - 1 : -1; depth >= 0; depth--)
	{
		CHECK_FOR_INTERRUPTS();
		run_on_all(nodes, psprintf("SELECT gametree.shard_propagate(%s, %d)", nodes->name_literal, depth),
				   "status text", NULL);
		(void) relay_values(nodes);
	}
	do
	{
		CHECK_FOR_INTERRUPTS();
		run_on_all(nodes, psprintf("SELECT gametree.propagate(%s, false)", nodes->name_literal), "status text",
				   NULL);
		changed = relay_values(nodes);
		waves++;
	} while (changed > 0 && waves < MAX_WAVES);
	run_on_all(nodes, psprintf("SELECT gametree.shard_propagate(%s, NULL)", nodes->name_literal), "status text",
			   NULL);
	if (changed > 0)
		ereport(NOTICE,
				(errmsg("propagation of %s stopped after %d waves: values still change between nodes",
						nodes->tree->qualified, waves),
				 errdetail("Cycles of the game's graph that cross nodes do not settle."),
				 errhint("SELECT gametree.propagate(%s, false); goes on.",
						 quote_literal_cstr(nodes->tree->qualified))));
	return waves;
}

void
shard_grow(Tree *tree, int64 max_states, int32 max_depth, int64 time_limit, bool can_commit)
{
	Nodes		nodes = open_nodes(tree);
	TimestampTz began = GetCurrentTimestamp();
	TimestampTz deadline = time_limit >= 0 ? began + time_limit : 0;
	int32		limit_depth = max_depth >= 0 ? max_depth : PG_INT32_MAX;
	int64		states_before;
	int			waves;

	/* What a call cut short left unshipped comes first: the levels are complete before the next. */
	exchange(&nodes, &states_exchange);
	sum_counts(&nodes);
	states_before = tree_state_count(tree);
	for (;;)
	{
		int32		depth;
		int64		states;
		int64		left = -1;
		char	   *time_left;

		CHECK_FOR_INTERRUPTS();
		/* One driver at a time: a level is expanded and shipped before another session starts the next. */
		tree_lock(tree);
		states = tree_state_count(tree);
		if (max_states >= 0 && states >= max_states)
			break;
		if (deadline != 0 && GetCurrentTimestamp() >= deadline)
			break;
		depth = frontier_depth(&nodes, limit_depth);
		if (depth < 0)
			break;
		if (max_states >= 0)
			left = (max_states - states + nodes.n - 1) / nodes.n;
		time_left = deadline == 0 ? pstrdup("NULL") :
			psprintf("'%lld microseconds'", (long long) Max(deadline - GetCurrentTimestamp(), 0));
		/* Each node may store its share of what is left, beyond what it holds. */
		run_on_all(&nodes, psprintf("CALL gametree.shard_grow(%s, %d, %s, %s)", nodes.name_literal, depth,
									left < 0 ? "NULL" : psprintf("%lld", (long long) left),
									time_left), "status text", NULL);
		exchange(&nodes, &states_exchange);
		sum_counts(&nodes);
		ereport(NOTICE,
				(errmsg("grow %s: depth %d expanded on %d nodes, %lld states, %.0f states/s", tree->qualified,
						depth, nodes.n, (long long) tree_state_count(tree),
						(tree_state_count(tree) - states_before) /
						Max((GetCurrentTimestamp() - began) / 1e6, 1e-6))));
		if (can_commit)
		{
			SPI_commit();
			tree->path_level = gt_pin_search_path();
		}
	}
	waves = propagate_in_waves(&nodes, false);
	sum_counts(&nodes);
	if (can_commit)
	{
		SPI_commit();
		tree->path_level = gt_pin_search_path();
	}
	ereport(NOTICE,
			(errmsg("grow %s: %lld states on %d nodes, propagated in %d waves, %lld bytes shipped between nodes",
					tree->qualified, (long long) tree_state_count(tree), nodes.n, waves,
					(long long) nodes.bytes_shipped)));
}

void
shard_refuse(const Tree *tree, const char *call)
{
	if (tree->nnodes > 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s does not expand sharded tree \"%s\"", call, tree->qualified),
				 errdetail("The nodes of a sharded tree store its states level by level, as grow drives them."),
				 errhint("CALL gametree.grow(%s, max_depth => ...);", quote_literal_cstr(tree->qualified))));
}

int64
shard_propagate(Tree *tree, bool from_scratch)
{
	Nodes		nodes = open_nodes(tree);

	exchange(&nodes, &states_exchange);
	(void) propagate_in_waves(&nodes, from_scratch);
	sum_counts(&nodes);
	return 0;
}
