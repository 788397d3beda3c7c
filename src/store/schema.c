/*
 * schema.c: the tables of a tree (schema.h).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "store/schema.h"
#include "utils/builtins.h"

static const TreeColumn states_columns[] = {
	/* The id is the position's hash, so the key keeps positions unique. */
	{"id", INT8OID, "bigint PRIMARY KEY", true},
	{"state", JSONBOID, "jsonb NOT NULL", true},
	{"goal", JSONBOID, "jsonb", false},
	{"depth", INT4OID, "integer NOT NULL", true},
	{"control", TEXTOID, "text", false},
	{"expanded", BOOLOID, "boolean NOT NULL DEFAULT false", true},
	{"utility", JSONBOID, "jsonb", false},
	{"mobility", JSONBOID, "jsonb", false},
	{"proven", BOOLOID, "boolean NOT NULL DEFAULT false", true},
	{"best_move", INT8OID, "bigint", false},
	{NULL}
};

static const TreeColumn moves_columns[] = {
	{"id", INT8OID, "bigint PRIMARY KEY", true},
	{"move", JSONBOID, "jsonb NOT NULL UNIQUE", true},
	{NULL}
};

/*
 * No foreign keys: a batch writes an edge in the transaction that stores
 * both ends, and a lookup per row would halve the insert rate.
 */
static const TreeColumn graph_columns[] = {
	{"init_id", INT8OID, "bigint NOT NULL", true},
	{"move_id", INT8OID, "bigint NOT NULL", true},
	{"next_id", INT8OID, "bigint NOT NULL", true},
	{"utility", JSONBOID, "jsonb", false},
	{"mobility", JSONBOID, "jsonb", false},
	{"visits", INT4OID, "integer NOT NULL DEFAULT 0", true},
	{"total", JSONBOID, "jsonb", false},
	{"proven", BOOLOID, "boolean NOT NULL DEFAULT false", true},
	{NULL}
};

const TreeTable tree_tables[TREE_TABLES] = {
	{"_states", states_columns, "CHECK (id = gametree.state_hash(%1$s, state))", "",
		"CREATE INDEX ON %1$s (depth, id) WHERE NOT expanded",
	"gametree %1$s tree %2$s: one row per distinct position, id = gametree.state_hash"},
	{"_moves", moves_columns, NULL, "", NULL, "gametree %1$s tree %2$s: joint moves"},
	/* Fillfactor 80 leaves room for propagation's in-page (HOT) updates. */
	{"_graph", graph_columns, "PRIMARY KEY (init_id, move_id)", " WITH (fillfactor = 80)",
		"CREATE INDEX ON %1$s (next_id)",
	"gametree %1$s tree %2$s: edges state -> move -> state with utility, mobility, visits, total"},
};

char *
tree_table_ddl(const TreeTable *table, const char *qualified, const char *game, const char *tree)
{
	StringInfoData sql;
	char	   *game_literal = quote_literal_cstr(game);

	initStringInfo(&sql);
	appendStringInfo(&sql, "CREATE TABLE %s (", qualified);
	for (const TreeColumn *c = table->columns; c->name != NULL; c++)
		appendStringInfo(&sql, "%s%s %s", c == table->columns ? "" : ", ", c->name, c->definition);
	if (table->constraints != NULL)
		appendStringInfo(&sql, ", %s", psprintf(table->constraints, game_literal));
	appendStringInfo(&sql, ")%s;", table->options);
	if (table->indexes != NULL)
		appendStringInfo(&sql, "%s;", psprintf(table->indexes, qualified));
	appendStringInfo(&sql, "COMMENT ON TABLE %s IS %s", qualified,
					 quote_literal_cstr(psprintf(table->comment, game, tree)));
	return sql.data;
}
