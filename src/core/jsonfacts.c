/*
 * jsonfacts.c: writing and reading the JSON edge format.
 */
#include "postgres.h"

#include <limits.h>
#include <stdlib.h>

#include "core/jsonfacts.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

void
jo_begin_array(JsonOut *out)
{
	pushJsonbValue(&out->parse, WJB_BEGIN_ARRAY, NULL);
}

void
jo_end_array(JsonOut *out)
{
	JsonbValue *closed = pushJsonbValue(&out->parse, WJB_END_ARRAY, NULL);

	if (out->parse == NULL)
		out->result = closed;
}

void
jo_string(JsonOut *out, const char *s)
{
	JsonbValue	v;

	v.type = jbvString;
	v.val.string.len = strlen(s);
	v.val.string.val = (char *) s;
	pushJsonbValue(&out->parse, WJB_ELEM, &v);
}

#define SMALL_NUMERICS 1024

void
gt_jsonb_root(Jsonb *json, JsonbValue *out)
{
	if (JB_ROOT_IS_SCALAR(json))
		JsonbExtractScalar(&json->root, out);
	else
	{
		out->type = jbvBinary;
		out->val.binary.data = &json->root;
		out->val.binary.len = VARSIZE(json) - VARHDRSZ;
	}
}

Numeric
gt_int_numeric(int64 value)
{
	/* Facts and goals are mostly small integers: build each numeric once. */
	static Numeric small[SMALL_NUMERICS];

	if (value < 0 || value >= SMALL_NUMERICS)
		return int64_to_numeric(value);
	if (small[value] == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		small[value] = int64_to_numeric(value);
		MemoryContextSwitchTo(old);
	}
	return small[value];
}

void
jo_int(JsonOut *out, int64 value)
{
	JsonbValue	v;

	v.type = jbvNumeric;
	v.val.numeric = gt_int_numeric(value);
	pushJsonbValue(&out->parse, WJB_ELEM, &v);
}

void
jo_fact(JsonOut *out, const char *relation, const char *value)
{
	jo_begin_array(out);
	jo_string(out, relation);
	jo_string(out, value);
	jo_end_array(out);
}

Jsonb *
jo_result(JsonOut *out)
{
	Assert(out->result != NULL);
	return JsonbValueToJsonb(out->result);
}

char *
json_cstring(const JsonbValue *v)
{
	if (v->type != jbvString)
		return NULL;
	return pnstrdup(v->val.string.val, v->val.string.len);
}

int
json_string_choice(const JsonbValue *v, const char *const *names, int n)
{
	if (v->type != jbvString)
		return -1;
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == (size_t) v->val.string.len &&
			memcmp(names[i], v->val.string.val, v->val.string.len) == 0)
			return i;
	return -1;
}

const char *
json_value_text(const JsonbValue *v)
{
	JsonbValue	copy = *v;
	Jsonb	   *jb;

	if (copy.type == jbvBinary)
		return gt_abbreviate(JsonbToCString(NULL, copy.val.binary.data, copy.val.binary.len));
	jb = JsonbValueToJsonb(&copy);
	return gt_abbreviate(JsonbToCString(NULL, &jb->root, VARSIZE(jb)));
}

static const char *
fact_text(const Fact *fact)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "[\"%s\"", gt_abbreviate(fact->relation));
	for (int i = 0; i < fact->nargs; i++)
		appendStringInfo(&buf, ", %s", json_value_text(&fact->args[i]));
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

static void
fact_error(const Fact *fact, const char *problem)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid %s state: %s", fact->game->name, problem),
			 errdetail("Fact %d is %s.", fact->position, fact_text(fact))));
}

void
fact_unknown(const Fact *fact)
{
	fact_error(fact, psprintf("unknown fact \"%s\" with %d argument%s",
							  gt_abbreviate(fact->relation), fact->nargs, fact->nargs == 1 ? "" : "s"));
	pg_unreachable();
}

void
fact_expect_arity(const Fact *fact, int nargs)
{
	if (fact->nargs != nargs)
		fact_unknown(fact);
}

const char *
fact_symbol(const Fact *fact, int i)
{
	const JsonbValue *v = &fact->args[i];

	if (v->type == jbvString)
		return pnstrdup(v->val.string.val, v->val.string.len);
	if (v->type == jbvNumeric)
		return numeric_normalize(v->val.numeric);
	fact_error(fact, psprintf("argument %d must be a string or a number", i + 2));
	return NULL;
}

int
fact_int(const Fact *fact, int i, int lo, int hi)
{
	const JsonbValue *v = &fact->args[i];
	char	   *digits;
	char	   *end;
	long		value;
	bool		overflow;

	if (v->type == jbvNumeric)
	{
		/* Rounds; equal to the original only when that was an integer. */
		value = numeric_int4_opt_error(v->val.numeric, &overflow);
		if (!overflow && value >= lo && value <= hi &&
			DatumGetBool(DirectFunctionCall2(numeric_eq, NumericGetDatum(v->val.numeric),
											 NumericGetDatum(gt_int_numeric(value)))))
			return (int) value;
	}
	else if (v->type == jbvString)
	{
		digits = pnstrdup(v->val.string.val, v->val.string.len);
		errno = 0;
		value = strtol(digits, &end, 10);
		if (*digits != '\0' && *end == '\0' && errno == 0 && value >= lo && value <= hi)
			return (int) value;
	}
	fact_error(fact, psprintf("argument %d must be an integer from %d to %d", i + 2, lo, hi));
	return 0;
}

int
fact_choice(const Fact *fact, int i, const char *const *names, int n)
{
	int			k = json_string_choice(&fact->args[i], names, n);

	if (k < 0)
	{
		StringInfoData allowed;

		initStringInfo(&allowed);
		for (int j = 0; j < n; j++)
			appendStringInfo(&allowed, "%s\"%s\"", j ? ", " : "", names[j]);
		fact_error(fact, psprintf("argument %d must be one of %s", i + 2, allowed.data));
	}
	return k;
}
