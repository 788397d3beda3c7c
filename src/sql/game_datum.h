/*
 * game_datum.h: what the SQL entry points share of the game interface:
 * reading the (game text, state jsonb) arguments most functions open with.
 */
#ifndef GAMETREE_SQL_GAME_DATUM_H
#define GAMETREE_SQL_GAME_DATUM_H

#include "fmgr.h"
#include "core/game.h"

/* Arguments 0 and 1 of a SQL function: (game text, state jsonb). */
extern GameState *gt_state_argument(FunctionCallInfo fcinfo, const Game **game);
/*
 * The same for a function whose state defaults to NULL, the initial state;
 * ereports a NULL game.
 */
extern GameState *gt_state_argument_or_initial(FunctionCallInfo fcinfo, const Game **game);

#endif
