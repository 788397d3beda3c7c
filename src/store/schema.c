/*
 * schema.c: the tables of a tree (schema.h).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "catalog/namespace.h"
#include "core/game.h"
#include "store/schema.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

static const TreeColumn states_columns[STATES_COLUMNS + 1] = {
	/* The id is the position's hash, so the key keeps positions unique. */
	[STATES_ID] = {"id", INT8OID, "bigint", "PRIMARY KEY", true},
	/* The position in a few bytes; the type modifier keeps the column to the tree's game. */
	[STATES_STATE] = {"state", InvalidOid, "gametree.state(%1$s) NOT NULL", NULL, true},
	[STATES_GOAL] = {"goal", JSONBOID, "jsonb", NULL, false},
	[STATES_DEPTH] = {"depth", INT4OID, "integer NOT NULL", NULL, true},
	[STATES_CONTROL] = {"control", TEXTOID, "text", NULL, false},
	[STATES_EXPANDED] = {"expanded", BOOLOID, "boolean NOT NULL DEFAULT false", NULL, true},
	[STATES_UTILITY] = {"utility", JSONBOID, "jsonb", NULL, false},
	[STATES_MOBILITY] = {"mobility", JSONBOID, "jsonb", NULL, false},
	[STATES_PROVEN] = {"proven", BOOLOID, "boolean NOT NULL DEFAULT false", NULL, true},
	[STATES_BEST_MOVE] = {"best_move", INT8OID, "bigint", NULL, false},
	[STATES_COLUMNS] = {NULL}
};

static const TreeColumn moves_columns[] = {
	{"id", INT8OID, "bigint", "PRIMARY KEY", true},
	{"move", JSONBOID, "jsonb NOT NULL", "UNIQUE", true},
	{NULL}
};

/*
 * No foreign keys: a batch writes an edge in the transaction that stores
 * both ends, and a lookup per row would halve the insert rate.  No primary
 * key either: only the batch that expands a state writes its edges, so
 * (init_id, move_id) is unique by construction, and an index on init_id
 * alone, deduplicated (a state's edges share it), takes a fifth of the
 * space.  What an edge leads to is valued in its state's row; the graph
 * view shows the two together.
 */
static const TreeColumn edges_columns[EDGES_COLUMNS + 1] = {
	[EDGES_INIT_ID] = {"init_id", INT8OID, "bigint NOT NULL", NULL, true},
	[EDGES_MOVE_ID] = {"move_id", INT8OID, "bigint NOT NULL", NULL, true},
	[EDGES_NEXT_ID] = {"next_id", INT8OID, "bigint NOT NULL", NULL, true},
	[EDGES_VISITS] = {"visits", INT4OID, "integer NOT NULL DEFAULT 0", NULL, true},
	[EDGES_TOTAL] = {"total", JSONBOID, "jsonb", NULL, false},
	[EDGES_COLUMNS] = {NULL}
};

const TreeTable tree_tables[TREE_TABLES] = {
	{TREE_STATES_SUFFIX, states_columns, "CHECK (id = gametree.state_hash(state))", "",
		"CREATE INDEX ON %1$s (depth, id) WHERE NOT expanded",
	"gametree %1$s tree %2$s: one row per distinct position, id = gametree.state_hash", "id"},
	{TREE_MOVES_SUFFIX, moves_columns, NULL, "", NULL, "gametree %1$s tree %2$s: joint moves", NULL},
	{TREE_EDGES_SUFFIX, edges_columns, NULL, "",
		"CREATE INDEX ON %1$s (init_id); CREATE INDEX ON %1$s (next_id)",
	"gametree %1$s tree %2$s: edges state -> move -> state with Monte Carlo visits and totals", "init_id"},
};

StaticAssertDecl(sizeof(TREE_MOVES_SUFFIX) - 1 <= TREE_SUFFIX_MAX &&
				 sizeof(TREE_PROOF_SUFFIX) - 1 <= TREE_SUFFIX_MAX &&
				 sizeof(TREE_OUTBOX_SUFFIX) - 1 <= TREE_SUFFIX_MAX &&
				 sizeof(TREE_EDGES_SUFFIX) - 1 <= TREE_SUFFIX_MAX &&
				 sizeof(TREE_GRAPH_SUFFIX) - 1 <= TREE_SUFFIX_MAX,
				 "TREE_SUFFIX_MAX is the longest suffix");

char *
tree_table_name(const char *tree, int table)
{
	return psprintf("%s%s", tree, tree_tables[table].suffix);
}

const char *const *
tree_column_names(int table, const int *columns, int n)
{
	const char **names = palloc(n * sizeof(char *));

	for (int c = 0; c < n; c++)
		names[c] = tree_tables[table].columns[columns[c]].name;
	return names;
}

Oid *
tree_column_types(int table, const int *columns, int n)
{
	Oid		   *types = palloc(n * sizeof(Oid));

	for (int c = 0; c < n; c++)
		types[c] = tree_column_type(&tree_tables[table].columns[columns[c]]);
	return types;
}

/* Looked up each time: the extension may be dropped and created again in a session. */
Oid
tree_state_type(void)
{
	Oid			nsp = get_namespace_oid("gametree", true);

	return OidIsValid(nsp) ? GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("state"),
											 ObjectIdGetDatum(nsp)) : InvalidOid;
}

Oid
tree_column_type(const TreeColumn *column)
{
	return OidIsValid(column->type) ? column->type : tree_state_type();
}

char *
tree_table_ddl(const TreeTable *table, const char *qualified, const char *game, const char *tree,
			   bool partitioned)
{
	StringInfoData sql;
	char	   *game_literal = quote_literal_cstr(game);

	initStringInfo(&sql);
	appendStringInfo(&sql, "CREATE TABLE %s (", qualified);
	for (const TreeColumn *c = table->columns; c->name != NULL; c++)
	{
		/* A partitioned table with foreign partitions can have no key: a primary key's column stays NOT NULL. */
		const char *key = c->key == NULL ? "" :
			!partitioned ? psprintf(" %s", c->key) :
			strcmp(c->key, "PRIMARY KEY") == 0 ? " NOT NULL" : "";

		appendStringInfo(&sql, "%s%s %s%s", c == table->columns ? "" : ", ", c->name,
						 psprintf(c->definition, game_literal), key);
	}
	if (table->constraints != NULL)
		appendStringInfo(&sql, ", %s", psprintf(table->constraints, game_literal));
	if (partitioned)
		appendStringInfo(&sql, ") PARTITION BY RANGE (%s);", table->shard_key);
	else
		appendStringInfo(&sql, ")%s;", table->options);
	if (table->indexes != NULL && !partitioned)
		appendStringInfo(&sql, "%s;", psprintf(table->indexes, qualified));
	appendStringInfo(&sql, "COMMENT ON TABLE %s IS %s", qualified,
					 quote_literal_cstr(psprintf(table->comment, game, tree)));
	return sql.data;
}

char *
tree_utility_sql(const char *alias)
{
	return psprintf("CASE WHEN %1$s.expanded THEN %1$s.utility ELSE gametree.heuristic(%1$s.state) END", alias);
}

/*
 * The graph view: each edge with the value of the state it leads to, which
 * is the edge's value (propagation's rule), read from that state's row
 * rather than copied into the edge.  The left join lets the planner leave
 * the states out of a query that reads no value.  The querying role's
 * privileges on the tables decide what it may read, as for the tables.
 */
char *
tree_graph_view_ddl(const char *graph, const char *edges, const char *states, const char *game,
					const char *tree)
{
	return psprintf("CREATE VIEW %1$s WITH (security_invoker = true) AS "
					"SELECT e.init_id, e.move_id, e.next_id, %5$s AS utility, s.mobility, e.visits, e.total, "
					"coalesce(s.proven, false) AS proven "
					"FROM %2$s e LEFT JOIN %3$s s ON s.id = e.next_id; "
					"COMMENT ON VIEW %1$s IS %4$s",
					graph, edges, states,
					quote_literal_cstr(psprintf("gametree %s tree %s: edges state -> move -> state with "
												"utility, mobility, visits, total", game, tree)),
					tree_utility_sql("s"));
}

/*
 * Payloads of rows (packed_rows.h) of the columns of _states a state
 * travels with, as a batch packs them: shipping passes them on without
 * reading their values, and the holder checks each row when it arrives.
 * Stored uncompressed: they are read once, soon.
 */
char *
tree_outbox_ddl(const char *outbox, const char *game, const char *tree)
{
	return psprintf("CREATE TABLE %1$s (states bigint NOT NULL, payload bytea NOT NULL); "
					"ALTER TABLE %1$s ALTER COLUMN payload SET STORAGE EXTERNAL; COMMENT ON TABLE %1$s IS %2$s",
					outbox,
					quote_literal_cstr(psprintf("gametree %s tree %s: new states found here that other nodes "
												"hold, until they are shipped there", game, tree)));
}

/*
 * Bounds are kept as solve proves them, one row per state whose bounds it
 * narrowed or whose moves it stored; a row with lo = hi is a solved state,
 * whose value propagation leaves as it is.  The key is the state's id, as
 * in _states; no foreign key, for the reasons of _edges.
 */
char *
tree_proof_ddl(const char *proof, const char *game, const char *tree)
{
	return psprintf("CREATE TABLE %1$s (id bigint PRIMARY KEY, lo smallint NOT NULL, hi smallint NOT NULL, "
					"threshold smallint, proof bigint, disproof bigint, "
					"CHECK (%3$d <= lo AND lo <= hi AND hi <= %4$d)); COMMENT ON TABLE %1$s IS %2$s",
					proof,
					quote_literal_cstr(psprintf("gametree %s tree %s: bounds lo..hi on the first role's goal "
												"that gametree.solve proved, with its proof and disproof "
												"numbers", game, tree)),
					GT_GOAL_MIN, GT_GOAL_MAX);
}
