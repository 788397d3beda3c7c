/*
 * shard.c: the coordinator of a sharded tree (shard.h tells the design):
 * creating and dropping it on its nodes, growing it level by level, and
 * propagating it in waves, with the catalog counts summed from the nodes'.
 *
 * Rows between nodes pass through the coordinator as payloads (bytea of
 * packed rows, remote.h: binary both ways), each read from one node and
 * passed on unread as the argument of a gametree function on another.
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

/* Waves of propagation before giving up on values that do not settle (cycles over nodes). */
#define MAX_WAVES 1000

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
	int64		bytes_shipped;	/* in the payloads the coordinator passed from node to node */
	int64		states_shipped;
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
 * Statement sqls[i] on node i, all at once; returns when all are done,
 * with their rows in results when it is not NULL.  A failure or a cancel
 * while sending leaves none of them running.
 */
static void
run_each(Nodes *nodes, const char *const *sqls, RemoteResult **results)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		for (int i = 0; i < nodes->n; i++)
			remote_send(&nodes->links[i], sqls[i], NULL, 0);
	}
	PG_CATCH();
	{
		remote_fail(nodes->links, NULL, nodes->n, cxt);
	}
	PG_END_TRY();
	remote_wait(nodes->links, nodes->n, results);
}

/* The same statement on every node at once (run_each). */
static void
run_on_all(Nodes *nodes, const char *sql, RemoteResult **results)
{
	const char **sqls = palloc(nodes->n * sizeof(char *));

	for (int i = 0; i < nodes->n; i++)
		sqls[i] = sql;
	run_each(nodes, sqls, results);
}

/* A bigint column of the coordinator's SPI rows, 0 when NULL. */
static int64
int8_or_zero(uint64 row, int column)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column, &isnull);

	return isnull ? 0 : DatumGetInt64(d);
}

/*
 * The other nodes than except, as the arguments of a node's call that
 * names them: their numbers, lows and highs, three arrays.
 */
static char *
others_arguments(const Nodes *nodes, int except)
{
	StringInfoData numbers,
				lows,
				highs;

	initStringInfo(&numbers);
	initStringInfo(&lows);
	initStringInfo(&highs);
	for (int i = 0; i < nodes->n; i++)
	{
		const TreeNode *node = &nodes->tree->nodes[i];
		const char *sep = numbers.len > 0 ? "," : "";

		if (i == except)
			continue;
		appendStringInfo(&numbers, "%s%d", sep, node->number);
		appendStringInfo(&lows, "%s%lld", sep, (long long) node->low);
		appendStringInfo(&highs, "%s%lld", sep, (long long) node->high);
	}
	return psprintf("'{%s}'::integer[], '{%s}'::bigint[], '{%s}'::bigint[]", numbers.data, lows.data,
					highs.data);
}

/* A function's statement per node, naming the other nodes after the tree and what comes before. */
static const char **
calls_naming_others(const Nodes *nodes, const char *function, const char *before)
{
	const char **sqls = palloc(nodes->n * sizeof(char *));

	for (int i = 0; i < nodes->n; i++)
		sqls[i] = psprintf("SELECT node, states, payload FROM gametree.%s(%s%s, %s)", function,
						   nodes->name_literal, before, others_arguments(nodes, i));
	return sqls;
}

/* The columns of what a node's payload function returns, a row per payload. */
enum
{
	PAYLOAD_TO,					/* the node it goes to */
	PAYLOAD_ROWS,				/* its rows */
	PAYLOAD_BYTES				/* itself */
};

/* A payload waiting for its receiver: row of what sender sent. */
typedef struct Parcel
{
	int			sender;
	int			row;
} Parcel;

/* Sends the next payload of a receiver's queue, if any, on its link: calls[i], of a payload of node i. */
static void
send_parcel(Nodes *nodes, RemoteResult **sent, RemoteLink *link, const char *const *calls, const Parcel *queue,
			int nqueued, int *next)
{
	const Parcel *p;
	const char *bytes;
	int			len;

	if (*next == nqueued)
		return;
	p = &queue[(*next)++];
	bytes = remote_bytes(sent[p->sender], p->row, PAYLOAD_BYTES, &len);
	nodes->bytes_shipped += len;
	remote_send(link, calls[p->sender], bytes, len);
}

/*
 * The payloads the nodes sent (sent[i], of node i), delivered: each to
 * the node it goes to, as the argument of function there (after the tree,
 * and the sender's number when with_sender); each receiving link takes
 * one at a time, and the next as soon as it is done.  The coordinator
 * passes the payloads on as their bytes, unread.  Returns the sum of what
 * the calls returned.
 */
static int64
deliver(Nodes *nodes, RemoteResult **sent, RemoteLink *to_links, const char *function, bool with_sender)
{
	int			n = nodes->n;
	Parcel	  **queues = palloc(n * sizeof(Parcel *));
	int		   *queued = palloc0(n * sizeof(int));
	int		   *next = palloc0(n * sizeof(int));
	const char **calls = palloc(n * sizeof(char *));
	int64		sum = 0;
	MemoryContext cxt = CurrentMemoryContext;

	for (int from = 0; from < n; from++)
		calls[from] = psprintf("SELECT gametree.%s(%s%s, $1)", function, nodes->name_literal,
							   with_sender ? psprintf(", %d", nodes->tree->nodes[from].number) : "");
	for (int to = 0; to < n; to++)
	{
		int			total = 0;

		for (int from = 0; from < n; from++)
			total += remote_rows(sent[from]);
		queues[to] = palloc(Max(1, total) * sizeof(Parcel));
	}
	for (int from = 0; from < n; from++)
		for (int r = 0; r < remote_rows(sent[from]); r++)
		{
			int64		to = remote_int8(sent[from], r, PAYLOAD_TO) - 1;

			if (to < 0 || to >= n || to == from)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_EXCEPTION),
						 errmsg("%s sent rows for node %lld", nodes->links[from].label, (long long) to + 1),
						 errdetail("Rows of its tables were written outside gametree.")));
			queues[to][queued[to]++] = (Parcel) {from, r};
		}
	PG_TRY();
	{
		RemoteResult *answer;
		int			to;

		for (to = 0; to < n; to++)
			send_parcel(nodes, sent, &to_links[to], calls, queues[to], queued[to], &next[to]);
		while ((to = remote_wait_any(to_links, n, &answer)) >= 0)
		{
			sum += remote_int8(answer, 0, 0);
			remote_free(answer);
			send_parcel(nodes, sent, &to_links[to], calls, queues[to], queued[to], &next[to]);
		}
	}
	PG_CATCH();
	{
		remote_fail(nodes->links, nodes->receiving, n, cxt);
	}
	PG_END_TRY();
	for (int from = 0; from < n; from++)
		remote_free(sent[from]);
	return sum;
}

/*
 * The states the nodes' batches found for other nodes (their outboxes),
 * shipped to their holders, which store each once; then the senders
 * empty their outboxes.  Each sender reads its outbox and empties it in
 * one transaction, committed once all it sent is stored: a failure before
 * leaves every outbox as it was (the senders' sessions are closed), and
 * the states stored, stored again next time, change nothing.
 */
static void
ship_states(Nodes *nodes)
{
	int			n = nodes->n;
	RemoteResult **sent = palloc0(n * sizeof(RemoteResult *));
	MemoryContext cxt = CurrentMemoryContext;

	/* A node alone finds no state another holds. */
	if (n == 1)
		return;
	PG_TRY();
	{
		run_on_all(nodes, "BEGIN ISOLATION LEVEL REPEATABLE READ", NULL);
		run_each(nodes, calls_naming_others(nodes, "shard_outbox", ""), sent);
		for (int from = 0; from < n; from++)
			for (int r = 0; r < remote_rows(sent[from]); r++)
				nodes->states_shipped += remote_int8(sent[from], r, PAYLOAD_ROWS);
		(void) deliver(nodes, sent, nodes->receiving, "shard_accept", true);
		/* The sender's snapshot is the one its rows were read in: it deletes what it sent, nothing newer. */
		run_on_all(nodes, psprintf("DELETE FROM %s", nodes->tree->outbox), NULL);
		run_on_all(nodes, "COMMIT", NULL);
	}
	PG_CATCH();
	{
		remote_fail(nodes->links, nodes->receiving, n, cxt);
	}
	PG_END_TRY();
}

/*
 * The values the nodes' last step of a propagation has for other nodes,
 * delivered onto those nodes' parts kept in memory (the same sessions:
 * the links that ran the step).  Nothing is written on the nodes.
 * Returns the edges whose value changed.
 */
static int64
relay_values(Nodes *nodes)
{
	RemoteResult **sent = palloc0(nodes->n * sizeof(RemoteResult *));

	/* A node alone has no edges to other nodes' states. */
	if (nodes->n == 1)
		return 0;
	run_on_all(nodes, psprintf("SELECT node, states, payload FROM gametree.shard_values(%s)", nodes->name_literal),
			   sent);
	return deliver(nodes, sent, nodes->links, "shard_take_values", false);
}

/* The rows of a query on every node at once (results[i], of node i). */
static RemoteResult **
query_all(Nodes *nodes, const char *sql)
{
	RemoteResult **results = palloc0(nodes->n * sizeof(RemoteResult *));

	run_on_all(nodes, sql, results);
	return results;
}

/* The coordinator's _moves: every node's. */
static void
gather_moves(Nodes *nodes)
{
	const Tree *tree = nodes->tree;
	RemoteResult **moves = query_all(nodes, psprintf("SELECT array_agg(id), array_agg(move) FROM %s",
													 tree->moves));

	for (int i = 0; i < nodes->n; i++)
	{
		bool		ids_null,
					moves_null;
		Datum		ids,
					json;

		if (remote_rows(moves[i]) != 1)
			continue;
		ids = remote_value(moves[i], 0, 0, INT8ARRAYOID, &ids_null);
		json = remote_value(moves[i], 0, 1, JSONBARRAYOID, &moves_null);
		if (!ids_null && !moves_null)
			spi_run(psprintf("INSERT INTO %s (id, move) SELECT * FROM unnest($1, $2) ORDER BY 1 "
							 "ON CONFLICT DO NOTHING", tree->moves),
					2, (Oid[]) {INT8ARRAYOID, JSONBARRAYOID}, (Datum[]) {ids, json}, SPI_OK_INSERT);
	}
}

/*
 * The coordinator's catalog rows: the sums of its nodes' counts (their
 * rows in gametree.trees, tree_depths and tree_values), and its moves;
 * every node asked at once.
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
	RemoteResult **rows;

	counts_init(&counts);
	counts_init(&values);
	gather_moves(nodes);
	rows = query_all(nodes, psprintf("SELECT states, edges, frontier, pending, writes FROM gametree.trees WHERE %s",
									 psprintf(key, "name")));
	for (int i = 0; i < nodes->n; i++)
		for (int c = 0; c < 5 && remote_rows(rows[i]) == 1; c++)
			totals[c] += remote_int8(rows[i], 0, c);
	rows = query_all(nodes, psprintf("SELECT depth, states, expanded, terminal, proven, edges "
									 "FROM gametree.tree_depths WHERE %s", psprintf(key, "tree")));
	for (int i = 0; i < nodes->n; i++)
		for (int r = 0; r < remote_rows(rows[i]); r++)
		{
			DepthCount *at = counts_at(&counts, (int32) remote_int8(rows[i], r, 0));

			at->states += remote_int8(rows[i], r, 1);
			at->expanded += remote_int8(rows[i], r, 2);
			at->terminal += remote_int8(rows[i], r, 3);
			at->proven += remote_int8(rows[i], r, 4);
			at->edges += remote_int8(rows[i], r, 5);
		}
	rows = query_all(nodes, psprintf("SELECT utility, states FROM gametree.tree_values WHERE %s",
									 psprintf(key, "tree")));
	for (int i = 0; i < nodes->n; i++)
		for (int r = 0; r < remote_rows(rows[i]); r++)
		{
			bool		isnull;
			Datum		utility = remote_value(rows[i], r, 0, JSONBOID, &isnull);

			if (!isnull)
				counts_proven(&values, 0, DatumGetJsonbP(utility), remote_int8(rows[i], r, 1));
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

		remote_free(remote_query(&nodes.links[i],
								 psprintf("SELECT gametree.shard_create(%s, %s, %d, %lld, %lld, %s)",
										  nodes.name_literal, quote_literal_cstr(tree->game->name), node->number,
										  (long long) node->low, (long long) node->high,
										  quote_literal_cstr(root_json))));
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
		RemoteResult *parts = remote_query(&nodes.links[i],
										   psprintf("SELECT count(*) FROM gametree.trees WHERE schema = %s "
													"AND name = %s", quote_literal_cstr(tree->schema),
													quote_literal_cstr(tree->name)));

		if (remote_int8(parts, 0, 0) > 0)
			remote_free(remote_query(&nodes.links[i], psprintf("SELECT gametree.drop_tree(%s)",
															   nodes.name_literal)));
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
	RemoteResult **rows = query_all(nodes, psprintf("SELECT min(depth) FROM %s WHERE NOT expanded AND depth < %d",
													nodes->tree->states, max_depth));

	for (int i = 0; i < nodes->n; i++)
	{
		bool		isnull = true;
		Datum		d = remote_rows(rows[i]) == 1 ? remote_value(rows[i], 0, 0, INT4OID, &isnull) : 0;

		if (!isnull && (depth < 0 || DatumGetInt32(d) < depth))
			depth = DatumGetInt32(d);
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
	RemoteResult **wanted = palloc0(nodes->n * sizeof(RemoteResult *));

	/* Every node reads its part and tells the others which of their states its edges lead to. */
	run_each(nodes, calls_naming_others(nodes, "shard_part", from_scratch ? ", true" : ", false"),
			 wanted);
	(void) deliver(nodes, wanted, nodes->links, "shard_take_wanted", true);
	/* Then every such state's value, before any step. */
	(void) relay_values(nodes);
	tree_run(nodes->tree, RUN_PLAIN, "SELECT max(depth)::bigint FROM gametree.tree_depths WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_SELECT);
	deepest = SPI_processed > 0 ? (int32) int8_or_zero(0, 1) : 0;
	/* One node has no edges to other nodes' states: its first wave is final. */
	for (int32 depth = nodes->n > 1 ? deepest - 1 : -1; depth >= 0; depth--)
	{
		CHECK_FOR_INTERRUPTS();
		run_on_all(nodes, psprintf("SELECT gametree.shard_propagate(%s, %d)", nodes->name_literal, depth),
				   NULL);
		(void) relay_values(nodes);
	}
	do
	{
		CHECK_FOR_INTERRUPTS();
		run_on_all(nodes, psprintf("SELECT gametree.shard_propagate(%s, -1)", nodes->name_literal),
				   NULL);
		changed = relay_values(nodes);
		waves++;
	} while (changed > 0 && waves < MAX_WAVES);
	run_on_all(nodes, psprintf("SELECT gametree.shard_propagate(%s, NULL)", nodes->name_literal), NULL);
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
	ship_states(&nodes);
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
									time_left), NULL);
		ship_states(&nodes);
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
			(errmsg("grow %s: %lld states on %d nodes, propagated in %d waves, %lld states and %lld bytes shipped "
					"between nodes", tree->qualified, (long long) tree_state_count(tree), nodes.n, waves,
					(long long) nodes.states_shipped, (long long) nodes.bytes_shipped)));
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

void
shard_refuse_part(const Tree *tree, const char *call)
{
	if (tree->shard != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("tree \"%s\" is a node's part of a sharded tree", tree->qualified),
				 errdetail("Its states are grown and valued with those of the other nodes."),
				 errhint("Run it on the coordinator: %s(%s);", call, quote_literal_cstr(tree->qualified))));
}

void
shard_propagate(Tree *tree, bool from_scratch)
{
	Nodes		nodes = open_nodes(tree);

	ship_states(&nodes);
	(void) propagate_in_waves(&nodes, from_scratch);
	sum_counts(&nodes);
}
