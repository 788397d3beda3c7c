/*
 * jsonfacts.h: the JSON edge format of games.
 *
 * JsonOut writes jsonb (arrays, strings, integers) without building text;
 * Fact is one decoded fact of a state, ["relation", arg, ...], with checked
 * accessors that report bad input with a SQLSTATE.
 */
#ifndef GAMETREE_JSONFACTS_H
#define GAMETREE_JSONFACTS_H

#include "core/game.h"
#include "utils/numeric.h"

struct JsonOut
{
	JsonbParseState *parse;
	JsonbValue *result;			/* set when the outermost array closes */
};

extern void jo_begin_array(JsonOut *out);
extern void jo_end_array(JsonOut *out);
extern void jo_string(JsonOut *out, const char *s);
extern void jo_int(JsonOut *out, int64 value);
/* A fact of one string argument: [relation, value]. */
extern void jo_fact(JsonOut *out, const char *relation, const char *value);
extern Jsonb *jo_result(JsonOut *out);
/*
 * A jsonb's top value, to walk with the JsonbValue functions: the scalar
 * itself, or the array or object as a binary container.
 */
extern void gt_jsonb_root(Jsonb *json, JsonbValue *out);
/* A numeric for an integer; small ones are built once and shared. */
extern Numeric gt_int_numeric(int64 value);

#define GT_MAX_FACT_ARGS 15
/* More facts than any game's position has (chess has at most about 40). */
#define GT_MAX_STATE_FACTS 1024

struct Fact
{
	const Game *game;
	int			position;		/* 1-based index in the state, for messages */
	const char *relation;
	int			nargs;
	JsonbValue	args[GT_MAX_FACT_ARGS];
};

/* Ereports unless the fact has exactly nargs arguments. */
extern void fact_expect_arity(const Fact *fact, int nargs);
/* Integer argument i (a JSON number or a numeric string) in lo..hi. */
extern int	fact_int(const Fact *fact, int i, int lo, int hi);
/* Argument i as a symbol: a JSON string, or a number written as text. */
extern const char *fact_symbol(const Fact *fact, int i);
/* Index of argument i in names[0..n-1]; ereports when it is none of them. */
extern int	fact_choice(const Fact *fact, int i, const char *const *names, int n);
/* Index of names[] equal to the JSON string v, or -1. */
extern int	json_string_choice(const JsonbValue *v, const char *const *names, int n);
/* Ereports: the fact's relation is unknown to the game. */
extern void fact_unknown(const Fact *fact) pg_attribute_noreturn();

/* JSON text of a value for messages, cut when long. */
extern const char *json_value_text(const JsonbValue *v);
/* A JSON string value as a NUL-terminated C string, or NULL when not a string. */
extern char *json_cstring(const JsonbValue *v);

#endif
