/*
 * action_text.c: the pieces games' format_action and read_action hooks are
 * made of (core/notation.h).  Apart from notation.c, which writes JSON
 * through the server's jsonb iterator, so that the decoder fuzzer, which
 * links the games without the server, links these too.
 */
#include "postgres.h"

#include "core/notation.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

JsonbValue *
gt_array_element(const JsonbValue *value, int i)
{
	if (value->type != jbvBinary || !JsonContainerIsArray(value->val.binary.data) ||
		JsonContainerIsScalar(value->val.binary.data) || i >= JsonContainerSize(value->val.binary.data))
		return NULL;
	return getIthJsonbValueFromContainer(value->val.binary.data, i);
}

char *
gt_action_arguments(const JsonbValue *action, const char *name, int min_args, int max_args,
					enum jbvType type, const char *separator)
{
	JsonbValue *head = gt_array_element(action, 0);
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
		JsonbValue *arg = gt_array_element(action, i);

		if (arg->type != type)
			return NULL;
		if (i > 1)
			appendStringInfoString(&out, separator);
		if (type == jbvString)
			appendStringInfoString(&out, pnstrdup(arg->val.string.val, arg->val.string.len));
		else if (type == jbvNumeric)
		{
			char	   *digits = numeric_normalize(arg->val.numeric);

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
