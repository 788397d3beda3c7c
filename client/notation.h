/*
 * notation.h: joint moves written the way players of each game write them.
 */
#ifndef GT_NOTATION_H
#define GT_NOTATION_H

#include <json-c/json.h>

#include "util.h"

json_object *move_action(json_object *joint, const char **role);
void		move_notation(const char *game, json_object *joint, StrBuf *out);

#endif
