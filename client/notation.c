/*
 * notation.c: a joint move [["does", role, action], ...] in short form.
 *
 * In the built-in games one role moves and the others do "noop", so the
 * short form is that role's action: chess in UCI (e2e4, e7e8q), checkers in
 * PDN (11-15, 22x15x8, every landing square, as next() takes it), connect
 * four the column, tic-tac-toe "row,col".  Anything else, or a move of an
 * unexpected shape, is printed as JSON, so nothing is ever lost.
 */
#include "notation.h"

#include <stdbool.h>
#include <string.h>

/* The action of the one role that does not "noop" (and that role), or NULL. */
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

/* The action is [name, args...] with from min_args to max_args arguments of the type. */
static bool
action_is(json_object *action, const char *name, size_t min_args, size_t max_args, json_type type)
{
	size_t		n;

	if (!json_object_is_type(action, json_type_array))
		return false;
	n = json_object_array_length(action);
	if (n < 1 + min_args || n > 1 + max_args ||
		!json_object_is_type(json_object_array_get_idx(action, 0), json_type_string) ||
		strcmp(json_object_get_string(json_object_array_get_idx(action, 0)), name) != 0)
		return false;
	for (size_t i = 1; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(action, i), type))
			return false;
	return true;
}

/* The arguments of an action, each written as text after the separator (none before the first). */
static void
append_args(StrBuf *out, json_object *action, const char *separator)
{
	for (size_t i = 1; i < json_object_array_length(action); i++)
	{
		if (i > 1)
			sb_append(out, separator);
		sb_append(out, json_object_get_string(json_object_array_get_idx(action, i)));
	}
}

void
move_notation(const char *game, json_object *joint, StrBuf *out)
{
	json_object *action = move_action(joint, NULL);

	if (strcmp(game, "chess") == 0 && action_is(action, "move", 2, 3, json_type_string))
		append_args(out, action, "");
	else if (strcmp(game, "checkers") == 0 && action_is(action, "move", 2, 2, json_type_int))
		append_args(out, action, "-");
	else if (strcmp(game, "checkers") == 0 && action_is(action, "jump", 2, 32, json_type_int))
		append_args(out, action, "x");
	else if (strcmp(game, "connect4") == 0 && action_is(action, "drop", 1, 1, json_type_int))
		append_args(out, action, "");
	else if (strcmp(game, "tictactoe") == 0 && action_is(action, "mark", 2, 2, json_type_int))
		append_args(out, action, ",");
	else
		sb_append(out, json_object_to_json_string_ext(action ? action : joint,
													  JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
}
