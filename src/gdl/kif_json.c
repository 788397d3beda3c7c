/*
 * kif_json.c: one ground KIF term and its JSON, both ways (gdl.h), for
 * the players of GGP matches, whose game managers speak KIF.
 *
 * Both directions go through a term store, so the rules are those of
 * loading a game: kif.c reads symbols (lower-cased, "(open)" is open) and
 * term_encode_json writes JSON as the states and moves of GDL games have
 * it; term_append_text writes KIF back.
 */
#include "postgres.h"

#include "core/jsonfacts.h"
#include "gdl/gdl.h"
#include "gdl/program.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

Jsonb *
gdl_kif_to_json(const char *kif)
{
	TermStore  *ts = term_store_create();
	TermId		t = kif_parse_term(ts, kif);
	JsonOut		out = {0};
	Jsonb	   *wrapped;

	/* JsonOut writes arrays: a symbol goes in one, and comes out of it. */
	jo_begin_array(&out);
	term_encode_json(ts, t, &out);
	jo_end_array(&out);
	wrapped = jo_result(&out);
	return JsonbValueToJsonb(getIthJsonbValueFromContainer(&wrapped->root, 0));
}

static void
not_a_term(const JsonbValue *v, const char *problem, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s is not a GDL term: %s", json_value_text(v), problem),
			 errhint("%s", hint)));
}

/* The symbol a JSON string or number names; ereports for other values. */
static TermId
symbol_of_json(TermStore *ts, const JsonbValue *v)
{
	char	   *name;
	int			len;

	if (v->type == jbvString)
	{
		len = v->val.string.len;
		if (!kif_is_symbol(v->val.string.val, len))
			not_a_term(v, psprintf("a symbol is a word of 1 to %d characters without spaces, parentheses "
								   "or \";\", not starting with \"?\"", KIF_MAX_NAME),
					   "Symbols are written as JSON strings such as \"noop\".");
		name = pnstrdup(v->val.string.val, len);
		for (int i = 0; i < len; i++)
			name[i] = pg_ascii_tolower((unsigned char) name[i]);
	}
	else if (v->type == jbvNumeric)
	{
		name = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
		len = strlen(name);
		if (strspn(name, "0123456789") != len)
			not_a_term(v, "a number in a term is a non-negative integer",
					   "Symbols that spell a non-negative integer are JSON numbers, such as 3.");
	}
	else
		not_a_term(v, "a term is a string, a number or an array",
				   "A term is a symbol, such as \"noop\" or 3, or an array such as [\"mark\", 1, 2].");
	return term_symbol(ts, term_symbol_id(ts, name, len));
}

static TermId
term_of_json(TermStore *ts, const JsonbValue *v)
{
	JsonbContainer *c;
	int			n;
	JsonbValue *functor;
	TermId	   *args;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		return symbol_of_json(ts, v);
	c = v->val.binary.data;
	n = JsonContainerSize(c);
	if (n == 0)
		not_a_term(v, "an empty array",
				   "A function term is an array of its name and arguments, such as [\"mark\", 1, 2].");
	functor = getIthJsonbValueFromContainer(c, 0);
	if (functor->type != jbvString)
		not_a_term(v, "an array's first element names the term and must be a string",
				   "A function term is an array of its name and arguments, such as [\"mark\", 1, 2].");
	/* ["open"], a fact without arguments in a state, is the symbol open, as (open) is */
	if (n == 1)
		return symbol_of_json(ts, functor);
	args = palloc((n - 1) * sizeof(TermId));
	for (int i = 1; i < n; i++)
		args[i - 1] = term_of_json(ts, getIthJsonbValueFromContainer(c, i));
	return term_function(ts, term_functor(ts, symbol_of_json(ts, functor)), n - 1, args);
}

char *
gdl_json_to_kif(Jsonb *term)
{
	TermStore  *ts = term_store_create();
	JsonbValue	root;

	gt_jsonb_root(term, &root);
	return term_text(ts, term_of_json(ts, &root));
}
