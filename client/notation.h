/*
 * notation.h: moves as players write them.  The games' notations live in
 * the extension (gametree.short_notation, gametree.parse_move); the client
 * only asks for them.
 */
#ifndef GT_NOTATION_H
#define GT_NOTATION_H

#include <json-c/json.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "util.h"

/* The action of the one role that does not "noop" (and that role), or NULL. */
json_object *move_action(json_object *joint, const char **role);

/* SQL: the jsonb move m of game g (both SQL expressions) in the game's short notation. */
#define SHORT_NOTATION_SQL(g, m) "gametree.short_notation(" g ", " m ")"

/* SQL: a line of moves (a jsonb array expression, such as analyse's pv) in it, separated by blanks. */
#define LINE_NOTATION_SQL(g, line) \
	"(SELECT string_agg(" SHORT_NOTATION_SQL(g, "p") ", ' ' ORDER BY n) " \
	"FROM jsonb_array_elements(" line ") WITH ORDINALITY e(p, n))"

/*
 * A move typed in the game's notation, or as JSON, into JSON that next()
 * takes: 1 when read, 0 when it cannot be, with expected saying what the
 * game reads, -1 on a failure (reported).
 */
int			parse_move(PGconn *conn, const char *game, const char *text, StrBuf *json, StrBuf *expected);

#endif
