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
													  JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* Skips blanks. */
static const char *
skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A whole number at *p (blanks before it allowed), advancing *p; false when there is none. */
static bool
read_number(const char **p, long *value)
{
	const char *q = skip_blanks(*p);
	long		n = 0;
	int			digits = 0;

	while (*q >= '0' && *q <= '9' && digits < 6)
	{
		n = n * 10 + (*q++ - '0');
		digits++;
	}
	if (digits == 0 || (*q >= '0' && *q <= '9'))
		return false;
	*p = q;
	*value = n;
	return true;
}

/* Chess in UCI: e2e4, e7e8q (upper case accepted), as the JSON string next() takes. */
static bool
parse_uci(const char *text, StrBuf *json)
{
	char		move[6];
	size_t		len = strlen(text);

	if (len != 4 && len != 5)
		return false;
	for (size_t i = 0; i < len; i++)
		move[i] = (char) (text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]);
	move[len] = '\0';
	if (move[0] < 'a' || move[0] > 'h' || move[1] < '1' || move[1] > '8' ||
		move[2] < 'a' || move[2] > 'h' || move[3] < '1' || move[3] > '8' ||
		(len == 5 && !strchr("qrbn", move[4])))
		return false;
	sb_printf(json, "\"%s\"", move);
	return true;
}

/*
 * Chess in SAN (e4, Nf3, exd5, O-O, e8=Q, Qxf7#): the text as a JSON
 * string, which next() reads against the position's legal moves (only the
 * server knows them); here only what SAN is made of is let through.
 */
static bool
parse_san(const char *text, StrBuf *json)
{
	size_t		len = strlen(text);

	if (len < 2 || len > 12 || strspn(text, "abcdefgh12345678NBRQKxO0-=+#!?") != len)
		return false;
	sb_printf(json, "\"%s\"", text);
	return true;
}

/* Checkers in PDN: 11-15, 22x15x8 (or the short 22x8), as the JSON string next() takes. */
static bool
parse_pdn(const char *text, StrBuf *json)
{
	const char *p = text;
	long		squares[16];
	char		separator = 0;
	int			n = 0;

	while (n < 16 && read_number(&p, &squares[n]))
	{
		if (squares[n] < 1 || squares[n] > 32)
			return false;
		n++;
		p = skip_blanks(p);
		if (*p == '\0')
			break;
		if ((*p != '-' && *p != 'x' && *p != 'X') || (separator && (*p == '-') != (separator == '-')))
			return false;
		separator = *p == '-' ? '-' : 'x';
		p++;
	}
	if (*p != '\0' || n < 2 || (separator == '-' && n != 2))
		return false;
	sb_append(json, "\"");
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
			sb_printf(json, "%c", separator);
		sb_printf(json, "%ld", squares[i]);
	}
	sb_append(json, "\"");
	return true;
}

/* Numbers separated by blanks or one comma each: "2 2", "2,2", "4". */
static int
parse_numbers(const char *text, long *values, int max)
{
	const char *p = text;
	int			n = 0;

	while (n < max && read_number(&p, &values[n]))
	{
		n++;
		p = skip_blanks(p);
		if (*p == ',')
			p++;
		else if (*p == '\0')
			break;
	}
	return *skip_blanks(p) == '\0' ? n : -1;
}

bool
parse_move(const char *game, const char *text, StrBuf *json, const char **expected)
{
	long		values[3];
	json_object *parsed;

	*expected = NULL;
	if (text[0] == '[' || text[0] == '"')
	{
		/* JSON as next() takes it: a joint move, an action, a string */
		parsed = json_tokener_parse(text);
		if (parsed == NULL && strcmp(text, "null") != 0)
		{
			*expected = "valid JSON";
			return false;
		}
		sb_append(json, json_object_to_json_string_ext(parsed, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(parsed);
		return true;
	}
	if (strcmp(game, "chess") == 0)
	{
		*expected = "a move in SAN or UCI, such as Nf3, exd5, O-O, e8=Q or e2e4";
		if (parse_uci(text, json))
			return true;
		return parse_san(text, json);
	}
	if (strcmp(game, "checkers") == 0)
	{
		*expected = "a move in PDN notation, such as 11-15 or 22x15x8";
		return parse_pdn(text, json);
	}
	if (strcmp(game, "connect4") == 0)
	{
		*expected = "a column from 1 to 7";
		if (parse_numbers(text, values, 1) != 1)
			return false;
		sb_printf(json, "[\"drop\", %ld]", values[0]);
		return true;
	}
	if (strcmp(game, "tictactoe") == 0)
	{
		*expected = "a row and a column, such as 2 2 or 2,2";
		if (parse_numbers(text, values, 2) != 2)
			return false;
		sb_printf(json, "[\"mark\", %ld, %ld]", values[0], values[1]);
		return true;
	}
	*expected = "the move as JSON, such as [\"mark\", 1, 1]";
	return false;
}
