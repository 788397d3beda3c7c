/*
 * trees.c: the commands list, new and drop, over gametree.trees and
 * create_tree / drop_tree.
 */
#include <stdio.h>

#include "cli.h"
#include "query.h"
#include "table.h"
#include "util.h"

/*
 * A tree's name as the other commands take it: bare in the current schema,
 * else with its schema, quoted as identifiers (the tree functions parse
 * names as identifiers).
 */
#define TREE_NAME_SQL \
	"CASE WHEN schema = current_schema() THEN quote_ident(name) " \
	"ELSE quote_ident(schema) || '.' || quote_ident(name) END"

static int
run_list(PGconn *conn, Args *args)
{
	static const char *const headers[] = {"tree", "game", "states", "edges", "frontier", "pending", "owner"};
	PGresult   *res;
	Table	   *table;

	(void) args;
	res = db_query(conn, "SELECT " TREE_NAME_SQL ", game, states, edges, frontier, pending, owner "
				   "FROM gametree.trees ORDER BY schema, name", 0, NULL);
	if (!res)
		return EXIT_FAILED;
	if (PQntuples(res) == 0)
		printf("no trees in database %s (gametree new TREE GAME makes one)\n", PQdb(conn));
	else
	{
		table = table_new(7, headers, "llrrrrl");
		for (int row = 0; row < PQntuples(res); row++)
			for (int col = 0; col < 7; col++)
				table_cell(table, PQgetvalue(res, row, col));
		table_print(table, stdout);
		table_free(table);
	}
	PQclear(res);
	return 0;
}

static int
run_new(PGconn *conn, Args *args)
{
	const char *params[5] = {args->arg[1], args->opt[OPT_STATE], args->opt[OPT_FEN], args->arg[0],
	args->opt[OPT_NODES]};
	PGresult   *res;

	/* a NULL root is the game's initial state; NULL nodes, a tree on this server */
	res = db_query(conn, "SELECT gametree.create_tree($4, $1, COALESCE($2::jsonb, gametree.from_fen($1, $3)), "
				   "string_to_array($5, ','))", 5, params);
	if (!res)
		return EXIT_FAILED;
	printf("%s\n", PQgetvalue(res, 0, 0));
	PQclear(res);
	return 0;
}

static int
run_drop(PGconn *conn, Args *args)
{
	PGresult   *res = db_query(conn, "SELECT gametree.drop_tree($1)", 1, (const char *const *) args->arg);

	if (!res)
		return EXIT_FAILED;
	PQclear(res);
	return 0;
}

const Command cmd_list = {
	"list", "",
	"the trees of the database",
	"Lists the trees of the database (gametree.trees): name, game, states,\n"
	"edges, frontier (states not expanded yet), pending (expansions not\n"
	"propagated yet) and owner.  A tree outside the current schema is shown\n"
	"with its schema.\n",
	0, 0, run_list
};

const Command cmd_new = {
	"new", "TREE GAME [--fen FEN | --state JSON] [--nodes S1,S2,...]",
	"create a tree, print its root id",
	"Creates the tree TREE (name or schema.name) of GAME (tictactoe, connect4,\n"
	"chess, checkers) and prints the id of its root.\n"
	"\n"
	"Options:\n"
	"  --fen FEN       the root from a FEN (chess, and PDN FEN for checkers)\n"
	"  --state JSON    the root as a state, a JSON array of facts\n"
	"  --nodes LIST    a tree sharded over these servers (foreign servers of\n"
	"                  postgres_fdw, comma-separated): see the README,\n"
	"                  \"Trees on several servers\"\n"
	"Without --fen or --state, the root is the game's initial state.\n",
	OPT_BIT(OPT_FEN) | OPT_BIT(OPT_STATE) | OPT_BIT(OPT_NODES), 2, run_new
};

const Command cmd_drop = {
	"drop", "TREE",
	"drop a tree and its tables",
	"Drops the tree TREE: its three tables and its row in gametree.trees.\n",
	0, 1, run_drop
};
