/*
 * notation.c: moves as text without a position (notation.h).
 */
#include "postgres.h"

#include "core/jsonfacts.h"
#include "core/notation.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"

/* Writes a jsonb value as JSON without blanks: ["mark",1,1], {"a":1}. */
static void
append_compact_json(StringInfo out, const JsonbValue *value)
{
	JsonbIterator *it;
	JsonbIteratorToken token;
	JsonbValue	v;
	bool		after_value = false;	/* a comma goes before the next element or key */

	if (value->type != jbvBinary)
	{
		if (value->type == jbvString)
			escape_json(out, pnstrdup(value->val.string.val, value->val.string.len));
		else if (value->type == jbvNumeric)
			appendStringInfoString(out, DatumGetCString(DirectFunctionCall1(numeric_out,
																			 NumericGetDatum(value->val.numeric))));
		else if (value->type == jbvBool)
			appendStringInfoString(out, value->val.boolean ? "true" : "false");
		else
			appendStringInfoString(out, "null");
		return;
	}
	it = JsonbIteratorInit(value->val.binary.data);
	while ((token = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		CHECK_FOR_INTERRUPTS();
		switch (token)
		{
			case WJB_BEGIN_ARRAY:
			case WJB_BEGIN_OBJECT:
				if (token == WJB_BEGIN_ARRAY && v.val.array.rawScalar)
					continue;
				if (after_value)
					appendStringInfoChar(out, ',');
				appendStringInfoChar(out, token == WJB_BEGIN_ARRAY ? '[' : '{');
				after_value = false;
				break;
			case WJB_END_ARRAY:
			case WJB_END_OBJECT:
				if (token == WJB_END_ARRAY && v.val.array.rawScalar)
					continue;
				appendStringInfoChar(out, token == WJB_END_ARRAY ? ']' : '}');
				after_value = true;
				break;
			case WJB_KEY:
				if (after_value)
					appendStringInfoChar(out, ',');
				append_compact_json(out, &v);
				appendStringInfoChar(out, ':');
				after_value = false;
				break;
			case WJB_VALUE:
			case WJB_ELEM:
				if (after_value)
					appendStringInfoChar(out, ',');
				append_compact_json(out, &v);
				after_value = true;
				break;
			case WJB_DONE:
				break;
		}
	}
}

/* Element i of an array value, or NULL when value is no array or too short. */
static JsonbValue *
array_element(const JsonbValue *value, int i)
{
	if (value->type != jbvBinary || !JsonContainerIsArray(value->val.binary.data) ||
		JsonContainerIsScalar(value->val.binary.data))
		return NULL;
	return getIthJsonbValueFromContainer(value->val.binary.data, i);
}

/*
 * The action of the one role of a joint move [[_, role, action], ...] that
 * does not "noop"; NULL when none or several do, or when move is no joint
 * move.
 */
static JsonbValue *
mover_action(const JsonbValue *move)
{
	static const char *const noop_word[] = {"noop"};
	JsonbValue *found = NULL;
	int			n;

	if (move->type != jbvBinary || !JsonContainerIsArray(move->val.binary.data) ||
		JsonContainerIsScalar(move->val.binary.data))
		return NULL;
	n = JsonContainerSize(move->val.binary.data);
	for (int i = 0; i < n; i++)
	{
		JsonbValue *does = array_element(move, i);
		JsonbValue *role = does ? array_element(does, 1) : NULL;
		JsonbValue *action = does ? array_element(does, 2) : NULL;

		if (action == NULL || role == NULL || role->type != jbvString ||
			JsonContainerSize(does->val.binary.data) != 3)
			return NULL;
		if (json_string_choice(action, noop_word, 1) == 0)
			continue;
		if (found)
			return NULL;		/* several roles move at once */
		found = action;
	}
	return found;
}

char *
gt_short_notation(const Game *game, Jsonb *move)
{
	JsonbValue	whole;
	JsonbValue *first;
	JsonbValue *action;
	StringInfoData out;

	whole.type = jbvBinary;
	whole.val.binary.data = &move->root;
	whole.val.binary.len = VARSIZE(move) - VARHDRSZ;
	first = array_element(&whole, 0);
	if (first != NULL && first->type == jbvBinary && JsonContainerIsArray(first->val.binary.data))
		action = mover_action(&whole);	/* a joint move: NULL when it has no one mover */
	else if (JB_ROOT_IS_SCALAR(move))
	{
		/* a bare action that is a string or number */
		JsonbExtractScalar(&move->root, &whole);
		action = &whole;
	}
	else
		action = &whole;		/* a bare action: ["mark", 1, 1] */
	if (action != NULL && game->format_action != NULL)
	{
		char	   *text = game->format_action(game, action);

		if (text != NULL)
			return text;
	}
	initStringInfo(&out);
	append_compact_json(&out, action ? action : &whole);
	return out.data;
}

char *
gt_read_notation(const Game *game, const char *text, const char **expected)
{
	if (game->read_action == NULL)
	{
		*expected = "the move as JSON, such as [\"mark\", 1, 1]";
		return NULL;
	}
	*expected = game->action_syntax;
	return game->read_action(game, text);
}

char *
gt_action_arguments(const JsonbValue *action, const char *name, int min_args, int max_args,
					enum jbvType type, const char *separator)
{
	JsonbValue *head = array_element(action, 0);
	StringInfoData out;
	int			n;

	if (head == NULL || head->type != jbvString || strlen(name) != head->val.string.len ||
		strncmp(head->val.string.val, name, head->val.string.len) != 0)
		return NULL;
	n = JsonContainerSize(action->val.binary.data) - 1;
	if (n < min_args || n > max_args)
		return NULL;
	initStringInfo(&out);
	for (int i = 1; i <= n; i++)
	{
		JsonbValue *arg = array_element(action, i);

		if (arg->type != type)
			return NULL;
		if (i > 1)
			appendStringInfoString(&out, separator);
		if (type == jbvString)
			appendBinaryStringInfo(&out, arg->val.string.val, arg->val.string.len);
		else if (type == jbvNumeric)
		{
			char	   *digits = DatumGetCString(DirectFunctionCall1(numeric_out,
																	 NumericGetDatum(arg->val.numeric)));

			if (strchr(digits, '.') != NULL || strchr(digits, 'N') != NULL)
				return NULL;	/* 1.5 or NaN: no square, no column */
			appendStringInfoString(&out, digits);
		}
		else
			return NULL;
	}
	return out.data;
}

const char *
gt_skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

bool
gt_read_number(const char **p, long *value)
{
	const char *q = gt_skip_blanks(*p);
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

int
gt_read_numbers(const char *text, long *values, int max)
{
	const char *p = text;
	int			n = 0;

	while (n < max && gt_read_number(&p, &values[n]))
	{
		n++;
		p = gt_skip_blanks(p);
		if (*p == ',')
			p++;
		else if (*p == '\0')
			break;
	}
	return *gt_skip_blanks(p) == '\0' ? n : -1;
}
