/*
 * game.c: a game's roles (gametree.games) and a tree (gametree.tree_info).
 *
 * The tree functions find a tree along search_path; tree_info says where
 * that is and which game it is of.  The client reads no tree table itself:
 * it asks the tree functions (gametree.subtree), by the name it was given.
 */
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "report.h"
#include "util.h"

bool
game_load(PGconn *conn, const char *name, Game *game)
{
	const char *params[1] = {name};
	PGresult   *res = db_query(conn, "SELECT r.role FROM gametree.games() g, "
								"unnest(g.roles) WITH ORDINALITY r(role, n) WHERE g.game = $1 ORDER BY r.n",
								1, params);

	memset(game, 0, sizeof *game);
	if (!res)
		return false;
	if (PQntuples(res) == 0)
	{
		report("unknown game \"%s\" (SELECT * FROM gametree.games() lists them)", name);
		PQclear(res);
		return false;
	}
	game->name = xstrdup(name);
	game->nroles = PQntuples(res);
	game->roles = xmalloc(game->nroles * sizeof(char *));
	for (int i = 0; i < game->nroles; i++)
		game->roles[i] = xstrdup(PQgetvalue(res, i, 0));
	PQclear(res);
	return true;
}

int
game_role_index(const Game *game, const char *role)
{
	for (int i = 0; i < game->nroles; i++)
		if (role && strcmp(game->roles[i], role) == 0)
			return i;
	return -1;
}

void
game_free(Game *game)
{
	for (int i = 0; i < game->nroles; i++)
		free(game->roles[i]);
	free(game->roles);
	free(game->name);
	memset(game, 0, sizeof *game);
}

bool
tree_load(PGconn *conn, const char *tree, TreeRef *ref)
{
	const char *params[1] = {tree};
	PGresult   *res = db_query(conn, "SELECT schema, name, game, root_id FROM gametree.tree_info($1)",
								1, params);

	memset(ref, 0, sizeof *ref);
	if (!res)
		return false;
	ref->given = xstrdup(tree);
	ref->schema = xstrdup(PQgetvalue(res, 0, 0));
	ref->name = xstrdup(PQgetvalue(res, 0, 1));
	ref->game = xstrdup(PQgetvalue(res, 0, 2));
	ref->root_id = xstrdup(PQgetvalue(res, 0, 3));
	PQclear(res);
	return true;
}

/* 1 when the state is one of the tree's states, 0 when not, -1 on an error (reported). */
int
tree_has_state(PGconn *conn, const TreeRef *ref, const char *state)
{
	const char *params[3] = {ref->given, ref->game, state};
	PGresult   *res;
	int			has;

	/* the subtree of no plies: the state alone, when the tree has it */
	res = db_query(conn, "SELECT EXISTS (SELECT FROM gametree.subtree($1, gametree.state_hash($2, $3::jsonb), 0))",
				   3, params);
	if (!res)
		return -1;
	has = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return has;
}

void
tree_free(TreeRef *ref)
{
	free(ref->schema);
	free(ref->name);
	free(ref->game);
	free(ref->root_id);
	free(ref->given);
	memset(ref, 0, sizeof *ref);
}
