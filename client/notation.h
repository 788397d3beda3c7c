/*
 * notation.h: joint moves written the way players of each game write them.
 */
#ifndef GT_NOTATION_H
#define GT_NOTATION_H

#include <json-c/json.h>
#include <stdbool.h>

#include "util.h"

json_object *move_action(json_object *joint, const char **role);
void		move_notation(const char *game, json_object *joint, StrBuf *out);

/*
 * A move typed in the game's notation, as JSON that next() takes; false
 * when it cannot be read, with *expected saying what was expected.
 */
bool		parse_move(const char *game, const char *text, StrBuf *json, const char **expected);

#endif
