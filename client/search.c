/*
 * search.c: the commands best and analyse, over gametree.bestmove and
 * gametree.analyse.  People get moves in the game's notation; --json gives
 * the server's JSON, parsed and printed again by json-c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "notation.h"
#include "query.h"
#include "table.h"
#include "util.h"

#define JSON_OUT (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* $1 game, $2 state, $3 FEN (POSITION_SQL), $4 time limit, $5 depth, $6 method, $7 tree */
#define SEARCH_ARGS "$1, " POSITION_SQL ", $4::interval, $5::integer, $6, $7"

static void
search_params(const Args *args, const char *params[7])
{
	const char *time = args->opt[OPT_TIME] ? args->opt[OPT_TIME] : "1s";

	params[0] = args->arg[0];
	params[1] = args->opt[OPT_STATE];
	params[2] = args->opt[OPT_FEN];
	params[3] = strcmp(time, "none") == 0 ? NULL : time;
	params[4] = args->opt[OPT_DEPTH];
	params[5] = args->opt[OPT_METHOD] ? args->opt[OPT_METHOD] : "auto";
	params[6] = args->opt[OPT_TREE];
}

/* Columns of the analyse query after analyse's own seven: its move and its line in short notation. */
#define A_MOVE_NOTATION 7
#define A_LINE_NOTATION 8

/* A jsonb column as json-c; NULL (JSON null) for SQL NULL. */
static json_object *
column_json(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : json_tokener_parse(PQgetvalue(res, row, col));
}

static int
run_best(PGconn *conn, Args *args)
{
	const char *params[7];
	PGresult   *res;
	json_object *move;
	StrBuf		out;

	search_params(args, params);
	if (!(res = db_query(conn, "SELECT m, " SHORT_NOTATION_SQL("$1", "m") " FROM "
						 "(SELECT gametree.bestmove(" SEARCH_ARGS ") AS m OFFSET 0) b", 7, params)))
		return EXIT_FAILED;
	move = column_json(res, 0, 0);
	sb_init(&out);
	if (args->opt[OPT_JSON])
		sb_append(&out, json_object_to_json_string_ext(move, JSON_OUT));
	else
		sb_append(&out, PQgetvalue(res, 0, 1));
	printf("%s\n", out.data);
	sb_free(&out);
	json_object_put(move);
	PQclear(res);
	return 0;
}

/* The rows of analyse as an array of objects, one per move. */
static void
print_analysis_json(const PGresult *res)
{
	json_object *rows = json_object_new_array();

	for (int row = 0; row < PQntuples(res); row++)
	{
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "move", column_json(res, row, 0));
		json_object_object_add(obj, "utility", column_json(res, row, 1));
		json_object_object_add(obj, "proven", json_object_new_boolean(strcmp(PQgetvalue(res, row, 2), "t") == 0));
		json_object_object_add(obj, "mobility", column_json(res, row, 3));
		json_object_object_add(obj, "visits", PQgetisnull(res, row, 4) ? NULL :
							   json_object_new_int64(strtoll(PQgetvalue(res, row, 4), NULL, 10)));
		json_object_object_add(obj, "depth", PQgetisnull(res, row, 5) ? NULL :
							   json_object_new_int(atoi(PQgetvalue(res, row, 5))));
		json_object_object_add(obj, "pv", column_json(res, row, 6));
		json_object_array_add(rows, obj);
	}
	printf("%s\n", json_object_to_json_string_ext(rows, JSON_OUT));
	json_object_put(rows);
}

/* One row of analyse for people: the role to move's utility, the line in short notation. */
static void
add_analysis_row(Table *table, const PGresult *res, int row)
{
	json_object *move = column_json(res, row, 0);
	json_object *utility = column_json(res, row, 1);
	json_object *value = NULL;
	const char *role = NULL;

	table_cell(table, PQgetvalue(res, row, A_MOVE_NOTATION));
	if (move_action(move, &role) && role)
		json_object_object_get_ex(utility, role, &value);
	/* json-c writes a number parsed from text as that text: 53.59 stays 53.59 */
	table_cell(table, value ? json_object_to_json_string_ext(value, JSON_OUT) : "-");
	table_cell(table, strcmp(PQgetvalue(res, row, 2), "t") == 0 ? "yes" : "no");
	table_cell(table, PQgetisnull(res, row, 4) ? "-" : PQgetvalue(res, row, 4));
	table_cell(table, PQgetisnull(res, row, 5) ? "-" : PQgetvalue(res, row, 5));
	table_cell(table, PQgetvalue(res, row, A_LINE_NOTATION));
	json_object_put(move);
	json_object_put(utility);
}

static int
run_analyse(PGconn *conn, Args *args)
{
	static const char *const headers[] = {"move", "utility", "proven", "visits", "depth", "line"};
	const char *params[7];
	PGresult   *res;
	Table	   *table;

	search_params(args, params);
	if (!(res = db_query(conn, "SELECT move, utility, proven, mobility, visits, depth, pv, "
						 SHORT_NOTATION_SQL("$1", "move") ", " LINE_NOTATION_SQL("$1", "pv") " "
						 "FROM gametree.analyse(" SEARCH_ARGS ")", 7, params)))
		return EXIT_FAILED;
	if (args->opt[OPT_JSON])
		print_analysis_json(res);
	else
	{
		table = table_new(6, headers, "lrlrrl");
		for (int row = 0; row < PQntuples(res); row++)
			add_analysis_row(table, res, row);
		table_print(table, stdout);
		table_free(table);
	}
	PQclear(res);
	return 0;
}

#define SEARCH_OPTIONS \
	(OPT_BIT(OPT_FEN) | OPT_BIT(OPT_STATE) | OPT_BIT(OPT_TIME) | OPT_BIT(OPT_DEPTH) | \
	 OPT_BIT(OPT_METHOD) | OPT_BIT(OPT_TREE) | OPT_BIT(OPT_JSON))

#define SEARCH_HELP \
	"Options:\n" \
	"  --fen FEN       the position from a FEN (chess, and PDN FEN for checkers)\n" \
	"  --state JSON    the position as a state, a JSON array of facts\n" \
	"                  (without either: the game's initial state)\n" \
	"  --time T        time limit, a PostgreSQL interval: 500ms, 2s, 1min\n" \
	"                  (default 1s); none: no limit, with --depth\n" \
	"  --depth D       deepest iteration (Monte Carlo: rounds of 1,000 iterations)\n" \
	"  --method M      auto (default), alphabeta, maxn or mcts\n" \
	"  --tree TREE     a stored tree of the game as the search's memory; the\n" \
	"                  position must be one of its states\n" \
	"  --json          print JSON instead\n" \
	"\n" \
	"Moves are written as the game's players write them: chess in UCI (e2e4),\n" \
	"checkers in PDN (11-15, 22x15x8), connect four the column, tic-tac-toe\n" \
	"row,col.\n"

const Command cmd_best = {
	"best", "GAME [--fen FEN | --state JSON] [--time T] [--depth D] [--method M] [--tree TREE] [--json]",
	"the best move in a position",
	"Searches the position (gametree.bestmove) and prints the move to play;\n"
	"with --json, the joint move as JSON.\n"
	"\n" SEARCH_HELP,
	SEARCH_OPTIONS, 1, run_best
};

const Command cmd_analyse = {
	"analyse", "GAME [--fen FEN | --state JSON] [--time T] [--depth D] [--method M] [--tree TREE] [--json]",
	"every move of a position, valued, best first",
	"Searches the position (gametree.analyse) and prints every legal move, best\n"
	"first: the utility of the role to move after it, whether that value is\n"
	"proven, Monte Carlo visits, the depth searched and the expected line.\n"
	"With --json, an array of objects: move, utility, proven, mobility,\n"
	"visits, depth, pv.\n"
	"\n" SEARCH_HELP,
	SEARCH_OPTIONS, 1, run_analyse
};
