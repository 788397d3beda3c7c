/*
 * game.h: what play, show and uci need to know about a game and a tree:
 * the game's roles, and where the tree is.
 */
#ifndef GT_GAME_H
#define GT_GAME_H

#include <libpq-fe.h>
#include <stdbool.h>

typedef struct Game
{
	char	   *name;
	int			nroles;
	char	  **roles;			/* in the game's order: the first moves first */
} Game;

bool		game_load(PGconn *conn, const char *name, Game *game);
int			game_role_index(const Game *game, const char *role);
void		game_free(Game *game);

typedef struct TreeRef
{
	char	   *given;			/* the name as given, which the tree functions take */
	char	   *schema;			/* where tree_info found it */
	char	   *name;
	char	   *game;
	char	   *root_id;
} TreeRef;

bool		tree_load(PGconn *conn, const char *tree, TreeRef *ref);
int			tree_has_state(PGconn *conn, const TreeRef *ref, const char *state);
void		tree_free(TreeRef *ref);

#endif
