/*
 * compact.h: states as stored, the values of the gametree.state type: a
 * game's number, then the game's packing of the state (Game.pack).  The
 * number names the game in a few bytes that stay the same wherever and
 * whenever the game is loaded, so a stored value outlives the backend, the
 * server and a dump; the SQL type (sql/state_type.c) reads and writes these.
 */
#ifndef GAMETREE_COMPACT_H
#define GAMETREE_COMPACT_H

#include "core/game.h"

/*
 * A game's number: a hash of its name, in 0 .. 2^31 - 1 so that it is also
 * a type modifier.  Two names of one number cannot both be loaded
 * (gt_check_game_number).
 */
extern int32 gt_game_number(const char *name);

/* The game of a number, or NULL when no game of that number is loaded. */
extern const Game *gt_find_game_by_number(int32 number);

/*
 * Refuses name, a game about to be loaded, when a loaded game of another
 * name has its number.
 */
extern void gt_check_game_number(const char *name);

/*
 * The number of JSON of no game yet, a value that gametree.state's text
 * input makes when it is not told the game (sql/state_type.c): no game has
 * a negative number.
 */
#define GT_NO_GAME (-1)

/* The bytes of the number that begins every value. */
#define GT_STATE_NUMBER_BYTES ((int) sizeof(int32))

/* A state as a gametree.state value (palloc'd varlena). */
extern struct varlena *gt_state_value(const Game *game, const GameState *state);

/* The number of the game of a value (any header, not detoasted). */
extern int32 gt_state_value_number(const struct varlena *value);

/* The loaded game of a value's number, else an ERROR. */
extern const Game *gt_state_value_game(const struct varlena *value);

/*
 * The state of a value of game, as stored by gametree (a table's column):
 * unpacked, not checked beyond its packing, which gametree wrote.
 */
extern GameState *gt_state_of_value(const Game *game, const struct varlena *value);

/*
 * A value made by hand (binary input, a cast from bytea): the number
 * first, then the packing.  Returned when it is the packing of a position
 * of a loaded game exactly as the game packs it, else an ERROR.
 */
extern struct varlena *gt_state_value_from_bytes(const uint8 *bytes, int len);

#endif
