/*
 * show.c: the command show, the explored part of a tree as a picture.
 *
 * The subgraph is what gametree.subtree gives, a breadth-first walk along
 * the stored edges from the root (or --root) of at most --depth plies:
 * every state within that distance, and every edge out of a state nearer
 * than it; the client reads no table itself.  Nodes and edges are read in
 * one snapshot (a read-only repeatable read transaction), so a grow running
 * meanwhile cannot leave an edge without its node.  Out come Graphviz DOT
 * (for `dot -Tsvg`) or JSON.
 *
 * In DOT, a node is labelled with the game's short board
 * (gametree.short_board: tic-tac-toe, connect four), else with its id and
 * depth; its colour is its proven result: a win
 * for the first role, a draw, a win for the second, or no fill while not
 * proven.  Dashed nodes are not expanded yet.  An edge is labelled with its
 * move in the game's notation, drawn in red when it is the state's best
 * move, and the wider the more Monte Carlo visits went through it (log
 * scale).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"
#include "notation.h"
#include "query.h"
#include "report.h"
#include "util.h"

#define DEFAULT_DEPTH "3"

#define COLOUR_FIRST "#9ecae1"	/* proven win for the first role: blue */
#define COLOUR_DRAW "#d9d9d9"	/* proven draw: grey */
#define COLOUR_SECOND "#fdae6b"	/* proven win for the second role: orange */
#define COLOUR_UNKNOWN "#ffffff"
#define COLOUR_BEST "#c0392b"	/* the edge of the state's best move */
#define COLOUR_EDGE "#555555"

/* Node columns */
enum
{
	N_ID, N_PLY, N_DEPTH, N_STATE, N_EXPANDED, N_TERMINAL, N_CONTROL, N_UTILITY, N_MOBILITY, N_PROVEN,
	N_BOARD						/* gametree.short_board: rows of text, NULL for most games */
};

/* Edge columns */
enum
{
	E_FROM, E_TO, E_MOVE, E_UTILITY, E_PROVEN, E_VISITS, E_BEST, E_NOTATION
};

/* $1 the tree, $2 the root's id, $3 the plies, $4 the game; nearest first, as subtree gives them */
static PGresult *
read_nodes(PGconn *conn, const char *const params[4])
{
	return db_query(conn, "SELECT id, ply, depth, state, expanded, terminal, control, utility, mobility, proven, "
					"gametree.short_board($4, state) "
					"FROM gametree.subtree($1, $2::bigint, $3::integer) ORDER BY ply, id", 4, params);
}

/* The same: the edges grouped by their state, in subtree's order (of the moves) */
static PGresult *
read_edges(PGconn *conn, const char *const params[4])
{
	return db_query(conn, "SELECT s.id, e.edge ->> 'to', e.edge -> 'move', nullif(e.edge -> 'utility', 'null'), "
					"(e.edge ->> 'proven')::boolean, e.edge ->> 'visits', (e.edge ->> 'best')::boolean, "
					SHORT_NOTATION_SQL("$4", "e.edge -> 'move'") " "
					"FROM gametree.subtree($1, $2::bigint, $3::integer) s, "
					"jsonb_array_elements(s.moves) WITH ORDINALITY e(edge, n) ORDER BY s.id, e.n", 4, params);
}

/* A jsonb column as json-c; NULL for SQL NULL. */
static json_object *
column_json(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : json_tokener_parse(PQgetvalue(res, row, col));
}

/*
 * The proven result of a node: the role that wins (its index in the game),
 * -1 for a draw, -2 when not proven.  Two roles: the first wins when its
 * utility is above the second's.
 */
static int
node_result(const Game *game, const PGresult *res, int row)
{
	json_object *utility;
	json_object *v0 = NULL,
			   *v1 = NULL;
	int			result = -2;

	if (strcmp(PQgetvalue(res, row, N_PROVEN), "t") != 0 || game->nroles < 2 ||
		(utility = column_json(res, row, N_UTILITY)) == NULL)
		return -2;
	if (json_object_object_get_ex(utility, game->roles[0], &v0) &&
		json_object_object_get_ex(utility, game->roles[1], &v1))
	{
		double		a = json_object_get_double(v0),
					b = json_object_get_double(v1);

		result = a > b ? 0 : a < b ? 1 : -1;
	}
	json_object_put(utility);
	return result;
}

/* Text inside a DOT string: quotes and backslashes escaped. */
static void
dot_escape(StrBuf *out, const char *text)
{
	char		c[2] = {0, 0};

	for (; *text; text++)
	{
		if (*text == '"' || *text == '\\')
			sb_append(out, "\\");
		if (*text == '\n')
		{
			sb_append(out, "\\n");
			continue;
		}
		c[0] = *text;
		sb_append(out, c);
	}
}

/*
 * The order nodes and edges are printed in: breadth first from the root,
 * the moves of a state in the order of their JSON text, so that dot draws
 * siblings in move order (it places the nodes of a rank as they come).
 */
typedef struct NodeRef
{
	const char *id;
	int			row;			/* in the nodes' result */
	int			first_edge;		/* its out-edges: rows first_edge.. of the edges' result */
	int			nedges;
	bool		placed;
} NodeRef;

typedef struct Order
{
	int		   *nodes;			/* node rows, in order */
	int		   *edges;			/* edge rows, in order */
	int			nnodes;
	int			nedges;
} Order;

static int
compare_ref(const void *a, const void *b)
{
	return strcmp(((const NodeRef *) a)->id, ((const NodeRef *) b)->id);
}

static NodeRef *
find_ref(NodeRef *refs, int n, const char *id)
{
	NodeRef		key = {id, 0, 0, 0, false};

	return bsearch(&key, refs, n, sizeof(NodeRef), compare_ref);
}

static void
order_graph(const PGresult *nodes, const PGresult *edges, const char *root, Order *order)
{
	int			n = PQntuples(nodes);
	int			m = PQntuples(edges);
	NodeRef    *refs = xmalloc((n ? n : 1) * sizeof(NodeRef));
	NodeRef   **queue = xmalloc((n ? n : 1) * sizeof(NodeRef *));
	int			head = 0,
				tail = 0;
	NodeRef    *ref;

	for (int i = 0; i < n; i++)
		refs[i] = (NodeRef) {PQgetvalue(nodes, i, N_ID), i, 0, 0, false};
	qsort(refs, n, sizeof(NodeRef), compare_ref);
	/* the edges come grouped by their state */
	for (int e = 0; e < m; e++)
		if ((ref = find_ref(refs, n, PQgetvalue(edges, e, E_FROM))) != NULL)
		{
			if (ref->nedges == 0)
				ref->first_edge = e;
			ref->nedges++;
		}
	order->nodes = xmalloc((n ? n : 1) * sizeof(int));
	order->edges = xmalloc((m ? m : 1) * sizeof(int));
	order->nnodes = order->nedges = 0;
	for (int pass = 0; pass < 2; pass++)
	{
		/* from the root; then anything left (nothing, unless the tables changed under us) */
		for (int i = -1; i < (pass ? n : 0); i++)
		{
			ref = i < 0 ? find_ref(refs, n, root) : &refs[i];
			if (ref == NULL || ref->placed)
				continue;
			ref->placed = true;
			queue[tail++] = ref;
			while (head < tail)
			{
				NodeRef    *node = queue[head++];

				order->nodes[order->nnodes++] = node->row;
				for (int e = node->first_edge; e < node->first_edge + node->nedges; e++)
				{
					NodeRef    *child = find_ref(refs, n, PQgetvalue(edges, e, E_TO));

					order->edges[order->nedges++] = e;
					if (child && !child->placed)
					{
						child->placed = true;
						queue[tail++] = child;
					}
				}
			}
		}
	}
	free(queue);
	free(refs);
}

static void
order_free(Order *order)
{
	free(order->nodes);
	free(order->edges);
}

static void
print_dot(const Game *game, const TreeRef *tree, const char *root, const char *depth,
		  const PGresult *nodes, const PGresult *edges, const Order *order)
{
	StrBuf		out;

	sb_init(&out);
	sb_append(&out, "digraph \"");
	dot_escape(&out, tree->name);
	sb_append(&out, "\" {\n");
	sb_append(&out, "  graph [fontname=\"monospace\", labelloc=t, label=\"");
	sb_printf(&out, "%s.%s (%s): %d states, %d edges, %s %s from %s\\n", tree->schema, tree->name,
			  game->name, PQntuples(nodes), PQntuples(edges), depth, strcmp(depth, "1") == 0 ? "ply" : "plies", root);
	if (game->nroles >= 2)
		sb_printf(&out, "blue: %s wins, grey: draw, orange: %s wins, no fill: not proven; ",
				  game->roles[0], game->roles[1]);
	sb_append(&out, "dashed: not expanded; red edge: the best move\"];\n");
	sb_append(&out, "  node [shape=box, style=filled, fontname=\"monospace\", fontsize=10, fillcolor=\"" COLOUR_UNKNOWN "\"];\n");
	sb_printf(&out, "  edge [fontname=\"monospace\", fontsize=9, color=\"%s\"];\n", COLOUR_EDGE);
	for (int k = 0; k < order->nnodes; k++)
	{
		int			row = order->nodes[k];

		int			result = node_result(game, nodes, row);
		bool		expanded = strcmp(PQgetvalue(nodes, row, N_EXPANDED), "t") == 0;
		bool		is_root = strcmp(PQgetvalue(nodes, row, N_ID), root) == 0;
		StrBuf		label;

		sb_init(&label);
		if (!PQgetisnull(nodes, row, N_BOARD))
			sb_append(&label, PQgetvalue(nodes, row, N_BOARD));
		else
			sb_printf(&label, "%s\ndepth %s", PQgetvalue(nodes, row, N_ID), PQgetvalue(nodes, row, N_DEPTH));
		sb_printf(&out, "  \"s%s\" [label=\"", PQgetvalue(nodes, row, N_ID));
		dot_escape(&out, label.data);
		sb_printf(&out, "\", fillcolor=\"%s\"",
				  result == 0 ? COLOUR_FIRST : result == 1 ? COLOUR_SECOND : result == -1 ? COLOUR_DRAW : COLOUR_UNKNOWN);
		if (!expanded)
			sb_append(&out, ", style=\"filled,dashed\"");
		if (strcmp(PQgetvalue(nodes, row, N_TERMINAL), "t") == 0)
			sb_append(&out, ", peripheries=2");
		if (is_root)
			sb_append(&out, ", penwidth=2.5");
		sb_append(&out, "];\n");
		sb_free(&label);
	}
	for (int k = 0; k < order->nedges; k++)
	{
		int			row = order->edges[k];

		double		visits = strtod(PQgetvalue(edges, row, E_VISITS), NULL);
		bool		best = strcmp(PQgetvalue(edges, row, E_BEST), "t") == 0;

		sb_printf(&out, "  \"s%s\" -> \"s%s\" [label=\"", PQgetvalue(edges, row, E_FROM), PQgetvalue(edges, row, E_TO));
		dot_escape(&out, PQgetvalue(edges, row, E_NOTATION));
		sb_printf(&out, "\", penwidth=%.2f", 1.0 + 1.5 * log10(1.0 + (visits > 0 ? visits : 0)));
		if (best)
			sb_append(&out, ", color=\"" COLOUR_BEST "\", fontcolor=\"" COLOUR_BEST "\"");
		sb_append(&out, "];\n");
	}
	sb_append(&out, "}\n");
	fputs(out.data, stdout);
	sb_free(&out);
}

static json_object *
bool_column(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : json_object_new_boolean(strcmp(PQgetvalue(res, row, col), "t") == 0);
}

static void
print_json(const Game *game, const TreeRef *tree, const char *root, const char *depth,
		   const PGresult *nodes, const PGresult *edges, const Order *order)
{
	json_object *top = json_object_new_object();
	json_object *roles = json_object_new_array();
	json_object *nodes_json = json_object_new_array();
	json_object *edges_json = json_object_new_array();
	StrBuf		name;

	sb_init(&name);
	sb_printf(&name, "%s.%s", tree->schema, tree->name);
	for (int i = 0; i < game->nroles; i++)
		json_object_array_add(roles, json_object_new_string(game->roles[i]));
	json_object_object_add(top, "tree", json_object_new_string(name.data));
	json_object_object_add(top, "game", json_object_new_string(game->name));
	json_object_object_add(top, "roles", roles);
	json_object_object_add(top, "root", json_object_new_string(root));
	json_object_object_add(top, "plies", json_object_new_int(atoi(depth)));
	for (int k = 0; k < order->nnodes; k++)
	{
		int			row = order->nodes[k];

		json_object *node = json_object_new_object();
		json_object *state = column_json(nodes, row, N_STATE);
		int			result = node_result(game, nodes, row);

		/* ids as strings: 64-bit integers lose digits as JavaScript numbers */
		json_object_object_add(node, "id", json_object_new_string(PQgetvalue(nodes, row, N_ID)));
		json_object_object_add(node, "ply", json_object_new_int(atoi(PQgetvalue(nodes, row, N_PLY))));
		json_object_object_add(node, "depth", json_object_new_int(atoi(PQgetvalue(nodes, row, N_DEPTH))));
		if (!PQgetisnull(nodes, row, N_BOARD))
		{
			json_object *board = json_object_new_array();
			const char *line = PQgetvalue(nodes, row, N_BOARD);

			/* one string per row */
			for (;;)
			{
				size_t		len = strcspn(line, "\n");

				json_object_array_add(board, json_object_new_string_len(line, (int) len));
				if (line[len] == '\0')
					break;
				line += len + 1;
			}
			json_object_object_add(node, "board", board);
		}
		json_object_object_add(node, "state", state);
		json_object_object_add(node, "control", PQgetisnull(nodes, row, N_CONTROL) ? NULL :
							   json_object_new_string(PQgetvalue(nodes, row, N_CONTROL)));
		json_object_object_add(node, "expanded", bool_column(nodes, row, N_EXPANDED));
		json_object_object_add(node, "terminal", bool_column(nodes, row, N_TERMINAL));
		json_object_object_add(node, "utility", column_json(nodes, row, N_UTILITY));
		json_object_object_add(node, "mobility", column_json(nodes, row, N_MOBILITY));
		json_object_object_add(node, "proven", bool_column(nodes, row, N_PROVEN));
		json_object_object_add(node, "result", result >= 0 ? json_object_new_string(game->roles[result]) :
							   result == -1 ? json_object_new_string("draw") : NULL);
		json_object_array_add(nodes_json, node);
	}
	for (int k = 0; k < order->nedges; k++)
	{
		int			row = order->edges[k];

		json_object *edge = json_object_new_object();
		json_object *move = column_json(edges, row, E_MOVE);
		json_object_object_add(edge, "from", json_object_new_string(PQgetvalue(edges, row, E_FROM)));
		json_object_object_add(edge, "to", json_object_new_string(PQgetvalue(edges, row, E_TO)));
		json_object_object_add(edge, "move", move);
		json_object_object_add(edge, "notation", json_object_new_string(PQgetvalue(edges, row, E_NOTATION)));
		json_object_object_add(edge, "utility", column_json(edges, row, E_UTILITY));
		json_object_object_add(edge, "proven", bool_column(edges, row, E_PROVEN));
		json_object_object_add(edge, "visits", json_object_new_int64(strtoll(PQgetvalue(edges, row, E_VISITS), NULL, 10)));
		json_object_object_add(edge, "best", bool_column(edges, row, E_BEST));
		json_object_array_add(edges_json, edge);
	}
	json_object_object_add(top, "nodes", nodes_json);
	json_object_object_add(top, "edges", edges_json);
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(top);
	sb_free(&name);
}

static int
run_show(PGconn *conn, Args *args)
{
	const char *depth = args->opt[OPT_DEPTH] ? args->opt[OPT_DEPTH] : DEFAULT_DEPTH;
	const char *format = args->opt[OPT_FORMAT] ? args->opt[OPT_FORMAT] : "dot";
	TreeRef		tree;
	Game		game;
	const char *params[4];
	PGresult   *res,
			   *nodes = NULL,
			   *edges = NULL;
	int			rc = EXIT_FAILED;

	if (!tree_load(conn, args->arg[0], &tree))
		return EXIT_FAILED;
	if (!game_load(conn, tree.game, &game))
	{
		tree_free(&tree);
		return EXIT_FAILED;
	}
	params[0] = args->arg[0];
	params[1] = args->opt[OPT_ROOT] ? args->opt[OPT_ROOT] : tree.root_id;
	params[2] = depth;
	params[3] = tree.game;
	/* one snapshot for nodes and edges */
	if ((res = db_query(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL)) != NULL)
	{
		PQclear(res);
		if ((nodes = read_nodes(conn, params)) != NULL &&
			(edges = read_edges(conn, params)) != NULL &&
			(res = db_query(conn, "COMMIT", 0, NULL)) != NULL)
		{
			PQclear(res);
			rc = 0;
		}
	}
	if (rc == 0 && PQntuples(nodes) == 0)
	{
		report("state %s is not in tree %s", params[1], args->arg[0]);
		rc = EXIT_FAILED;
	}
	else if (rc == 0)
	{
		Order		order;

		order_graph(nodes, edges, params[1], &order);
		if (strcmp(format, "json") == 0)
			print_json(&game, &tree, params[1], depth, nodes, edges, &order);
		else
			print_dot(&game, &tree, params[1], depth, nodes, edges, &order);
		order_free(&order);
	}
	PQclear(nodes);
	PQclear(edges);
	game_free(&game);
	tree_free(&tree);
	return rc;
}

const Command cmd_show = {
	"show", "TREE [--root ID] [--depth D] [--format dot|json]",
	"the explored part of a tree as Graphviz DOT or JSON",
	"Prints the part of the tree TREE within D plies of its root (or of the\n"
	"state ID) as Graphviz DOT, for dot -Tsvg, or as JSON.\n"
	"\n"
	"In DOT, a node shows the board (tic-tac-toe, connect four) or its id and\n"
	"depth; its colour is its proven result: blue a win for the first role,\n"
	"grey a draw, orange a win for the second, no fill: not proven. Dashed: not\n"
	"expanded yet; a double border: the game is over. Edges show their move\n"
	"in the game's notation, the best move in red, and are the wider the more\n"
	"Monte Carlo visits went through them.\n"
	"\n"
	"JSON: {tree, game, roles, root, plies, nodes: [{id, ply, depth, board,\n"
	"state, control, expanded, terminal, utility, mobility, proven, result}],\n"
	"edges: [{from, to, move, notation, utility, proven, visits, best}]}; ids\n"
	"are strings, result is a role, \"draw\" or null.\n"
	"\n"
	"Options:\n"
	"  --root ID       start from the state ID (default: the tree's root)\n"
	"  --depth D       plies from it (default " DEFAULT_DEPTH ")\n"
	"  --format F      dot (default) or json\n"
	"\n"
	"Example: gametree show ttt --depth 2 | dot -Tsvg > ttt.svg\n",
	OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_DEPTH) | OPT_BIT(OPT_FORMAT), 1, run_show
};
