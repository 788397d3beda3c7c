/*
 * games.c: the one list of the compiled-in games.  Adding a game is a new
 * folder src/games/<game>/ defining its Game and a line here (README.md,
 * section Adding a game); nothing below this layer names a game.
 */
#include "postgres.h"

#include "core/game.h"
#include "games/games.h"

extern const Game tictactoe_game;
extern const Game connect4_game;
extern const Game chess_game;
extern const Game checkers_game;

void
games_register(void)
{
	gt_register_game(&tictactoe_game);
	gt_register_game(&connect4_game);
	gt_register_game(&chess_game);
	gt_register_game(&checkers_game);
}
