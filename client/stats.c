/*
 * stats.c: the command stats, a tree at a glance: its counts and root value
 * (tree_stats), the disk its tables take, states per depth (depth_stats)
 * and who wins where (outcomes).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "query.h"
#include "table.h"
#include "util.h"

/* The tables' sizes come from the tree's row, so that a schema-qualified name works too. */
static const char summary_sql[] =
"SELECT quote_ident(t.schema) || '.' || quote_ident(t.name), s.game, s.states, s.expanded, "
"       s.terminal, s.frontier, s.proven, t.pending, s.edges, s.moves, s.branching, s.max_depth, "
"       s.root_utility, s.root_mobility, s.root_proven, "
"       pg_size_pretty(z.st + z.mv + z.gr), pg_size_pretty(z.st), pg_size_pretty(z.mv), pg_size_pretty(z.gr) "
"FROM gametree.tree_info($1) t, gametree.tree_stats($1) s, "
"     LATERAL (SELECT pg_total_relation_size(to_regclass(format('%I.%I', t.schema, t.name || '_states'))) st, "
"                     pg_total_relation_size(to_regclass(format('%I.%I', t.schema, t.name || '_moves'))) mv, "
"                     pg_total_relation_size(to_regclass(format('%I.%I', t.schema, t.name || '_edges'))) gr) z";

static void
print_summary(const PGresult *res)
{
#define V(col) PQgetvalue(res, 0, col)
	printf("tree      %s (%s)\n", V(0), V(1));
	printf("states    %s: %s expanded, %s terminal, %s frontier, %s proven; %s pending propagation\n",
		   V(2), V(3), V(4), V(5), V(6), V(7));
	printf("edges     %s, %s distinct moves", V(8), V(9));
	if (!PQgetisnull(res, 0, 10))
		printf("; branching %s edges per expanded state", V(10));
	putchar('\n');
	printf("depth     %s plies\n", V(11));
	if (PQgetisnull(res, 0, 12))
		printf("root      no value yet\n");
	else
		printf("root      %s %s, mobility %s\n", strcmp(V(14), "t") == 0 ? "proven" : "estimate",
			   V(12), PQgetisnull(res, 0, 13) ? "unknown" : V(13));
	if (PQgetisnull(res, 0, 15))
		printf("tables    missing\n");
	else
		printf("tables    %s: states %s, moves %s, edges %s\n", V(15), V(16), V(17), V(18));
#undef V
}

/* Prints a result whole, under headers, in aligned columns. */
static void
print_result(const PGresult *res, const char *const *headers, const char *align)
{
	Table	   *table = table_new(PQnfields(res), headers, align);

	for (int row = 0; row < PQntuples(res); row++)
		for (int col = 0; col < PQnfields(res); col++)
			table_cell(table, PQgetvalue(res, row, col));
	putchar('\n');
	table_print(table, stdout);
	table_free(table);
}

static int
run_stats(PGconn *conn, Args *args)
{
	static const char *const depth_headers[] = {"depth", "states", "expanded", "terminal", "proven", "edges", "branching"};
	static const char *const outcome_headers[] = {"role", "wins", "draws", "losses", "unproven"};
	const char *const *params = (const char *const *) args->arg;
	PGresult   *res;

	if (!(res = db_query(conn, summary_sql, 1, params)))
		return EXIT_FAILED;
	print_summary(res);
	PQclear(res);
	if (!(res = db_query(conn, "SELECT * FROM gametree.depth_stats($1) ORDER BY depth", 1, params)))
		return EXIT_FAILED;
	print_result(res, depth_headers, "rrrrrrr");
	PQclear(res);
	if (!(res = db_query(conn, "SELECT * FROM gametree.outcomes($1)", 1, params)))
		return EXIT_FAILED;
	print_result(res, outcome_headers, "lrrrr");
	PQclear(res);
	return 0;
}

const Command cmd_stats = {
	"stats", "TREE",
	"counts, depths, outcomes, sizes and root value of a tree",
	"Shows the tree TREE: its states (expanded, terminal, frontier, proven,\n"
	"pending propagation), edges and branching factor (edges per expanded\n"
	"state), depth, the value of its root, and the disk its tables take;\n"
	"then the states per depth (depth_stats) and, per role, the positions\n"
	"proven won, drawn and lost (outcomes).\n",
	0, 1, run_stats
};
