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
		JsonbValue *does = gt_array_element(move, i);
		JsonbValue *role = does ? gt_array_element(does, 1) : NULL;
		JsonbValue *action = does ? gt_array_element(does, 2) : NULL;

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
	first = gt_array_element(&whole, 0);
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

const char *
gt_move_hint(const Game *game)
{
	if (game->read_action == NULL)
		return "JSON, as gametree.next() takes it";
	return game->action_hint ? game->action_hint : game->action_syntax;
}
