/*
 * notation.c: moves as players write them, asked of the extension.
 *
 * The games' notations are the extension's (gametree.short_notation,
 * gametree.parse_move): chess in UCI or SAN, checkers in PDN, and so on for
 * any game that has a short form, JSON for the others.  What remains here
 * knows no game: finding the role that moves in a joint move, and reading
 * a move typed as JSON.
 */
#include "notation.h"

#include <string.h>

#include "query.h"

json_object *
move_action(json_object *joint, const char **role)
{
	json_object *found = NULL;
	size_t		n = json_object_is_type(joint, json_type_array) ? json_object_array_length(joint) : 0;

	for (size_t i = 0; i < n; i++)
	{
		json_object *does = json_object_array_get_idx(joint, i);
		json_object *action = json_object_array_get_idx(does, 2);

		if (json_object_is_type(action, json_type_string) &&
			strcmp(json_object_get_string(action), "noop") == 0)
			continue;
		if (found || !json_object_is_type(json_object_array_get_idx(does, 1), json_type_string))
			return NULL;		/* several roles move at once */
		found = action;
		if (role)
			*role = json_object_get_string(json_object_array_get_idx(does, 1));
	}
	return found;
}

int
parse_move(PGconn *conn, const char *game, const char *text, StrBuf *json, StrBuf *expected)
{
	const char *params[2] = {game, text};
	PGresult   *res;
	int			read;

	if (text[0] == '[' || text[0] == '"')
	{
		/* JSON as next() takes it: a joint move, an action, a string */
		json_object *parsed = json_tokener_parse(text);

		if (parsed == NULL && strcmp(text, "null") != 0)
		{
			sb_append(expected, "valid JSON");
			return 0;
		}
		sb_append(json, json_object_to_json_string_ext(parsed, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(parsed);
		return 1;
	}
	if (!(res = db_query(conn, "SELECT move, expected FROM gametree.parse_move($1, $2)", 2, params)))
		return -1;
	read = !PQgetisnull(res, 0, 0);
	sb_append(read ? json : expected, PQgetvalue(res, 0, read ? 0 : 1));
	PQclear(res);
	return read;
}
