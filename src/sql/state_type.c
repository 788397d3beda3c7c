/*
 * state_type.c: the SQL type gametree.state, a position in a few bytes
 * (core/compact.h): its text form is the state's JSON, its binary form the
 * game's number and packing; a type modifier names the game, so that a
 * column holds the states of one game.  JSON read without its game (text
 * input gets the type modifier only in COPY) is kept as JSON of no game
 * until a cast to a game reads it (core/compact.h): a literal cast to
 * gametree.state('tictactoe') or stored in such a column, or compared
 * with a state of a game.
 * Casts to and from jsonb and bytea, and the operators of its btree and
 * hash operator classes (bytewise: a game packs equal states alike).
 */
#include "postgres.h"

#include "access/hash.h"
#include "catalog/pg_type.h"
#include "core/compact.h"
#include "libpq/pqformat.h"
#include "port/pg_bswap.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/*
 * JSON of no game yet: what the text input makes when it is not told the
 * game (PostgreSQL gives the type modifier to input only in COPY: a literal
 * is read first, then cast to its column's game), the number GT_NO_GAME
 * followed by the JSON's text.  A cast to a game reads it as a state of
 * that game (resolve).
 */
static struct varlena *
json_value(const char *json)
{
	int			len = strlen(json);
	struct varlena *value = palloc(VARHDRSZ + GT_STATE_NUMBER_BYTES + len);
	int32		number = GT_NO_GAME;

	memcpy(VARDATA(value), &number, GT_STATE_NUMBER_BYTES);
	memcpy((char *) VARDATA(value) + GT_STATE_NUMBER_BYTES, json, len);
	SET_VARSIZE(value, VARHDRSZ + GT_STATE_NUMBER_BYTES + len);
	return value;
}

static bool
is_json(const struct varlena *value)
{
	return gt_state_value_number(value) == GT_NO_GAME;
}

static char *
json_text(const struct varlena *value)
{
	return pnstrdup((const char *) VARDATA_ANY(value) + GT_STATE_NUMBER_BYTES,
					VARSIZE_ANY_EXHDR(value) - GT_STATE_NUMBER_BYTES);
}

static struct varlena *
resolve(const Game *game, struct varlena *value)
{
	Jsonb	   *json;

	if (!is_json(value))
		return value;
	json = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json_text(value))));
	return gt_state_value(game, gt_decode_state(game, json));
}

/*
 * The game of a value.  A statement reads many values of one game, so the
 * last game found is kept with the call's information (games stay loaded
 * until the transaction ends, and a statement runs in one).
 */
typedef struct GameOfNumber
{
	int32		number;
	const Game *game;
} GameOfNumber;

static const Game *
value_game(FunctionCallInfo fcinfo, const struct varlena *value)
{
	GameOfNumber *last = fcinfo->flinfo->fn_extra;
	int32		number = gt_state_value_number(value);

	if (last == NULL)
	{
		last = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(GameOfNumber));
		fcinfo->flinfo->fn_extra = last;
	}
	if (last->game == NULL || last->number != number)
	{
		last->game = gt_state_value_game(value);
		last->number = number;
	}
	return last->game;
}

/* The game a type modifier (0 or more) names, else an ERROR. */
static const Game *
typmod_game(int32 typmod)
{
	const Game *game = gt_find_game_by_number(typmod);

	if (game == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("gametree.state(%d) names no loaded game", typmod),
				 errhint("SELECT * FROM gametree.games() lists the games that are loaded.")));
	return game;
}

/* A value into a column of typmod's game: of that game, else an ERROR. */
static void
check_value_game(FunctionCallInfo fcinfo, const struct varlena *value, int32 typmod)
{
	if (typmod >= 0 && gt_state_value_number(value) != typmod)
	{
		const Game *game = value_game(fcinfo, value);
		const Game *column = gt_find_game_by_number(typmod);

		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a %s state cannot be a gametree.state(%s)", game->name,
						column != NULL ? quote_literal_cstr(column->name) : psprintf("%d", typmod))));
	}
}

static struct varlena *
state_from_jsonb(const Game *game, Jsonb *json)
{
	return gt_state_value(game, gt_decode_state(game, json));
}

static Jsonb *
state_to_jsonb(FunctionCallInfo fcinfo, const struct varlena *value)
{
	const Game *game;

	if (is_json(value))
		return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json_text(value))));
	game = value_game(fcinfo, value);
	return gt_encode_state(game, gt_state_of_value(game, value));
}

/* JSON of the game typmod names, or of no game yet when it names none (-1). */
static struct varlena *
state_of_typmod(Jsonb *json, int32 typmod)
{
	if (typmod < 0)
		return json_value(JsonbToCString(NULL, &json->root, VARSIZE(json)));
	return state_from_jsonb(typmod_game(typmod), json);
}

PG_FUNCTION_INFO_V1(gametree_state_in);
Datum
gametree_state_in(PG_FUNCTION_ARGS)
{
	Jsonb	   *json = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, PG_GETARG_DATUM(0)));

	PG_RETURN_POINTER(state_of_typmod(json, PG_GETARG_INT32(2)));
}

PG_FUNCTION_INFO_V1(gametree_state_out);
Datum
gametree_state_out(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);
	Jsonb	   *json;

	if (is_json(value))
		PG_RETURN_CSTRING(json_text(value));
	json = state_to_jsonb(fcinfo, value);
	PG_RETURN_CSTRING(JsonbToCString(NULL, &json->root, VARSIZE(json)));
}

PG_FUNCTION_INFO_V1(gametree_state_to_jsonb);
Datum
gametree_state_to_jsonb(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(state_to_jsonb(fcinfo, PG_GETARG_VARLENA_PP(0)));
}

PG_FUNCTION_INFO_V1(gametree_jsonb_to_state);
Datum
gametree_jsonb_to_state(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(state_of_typmod(PG_GETARG_JSONB_P(0), PG_GETARG_INT32(1)));
}

/* The cast of a value to a column's type: the length coercion of varchar(n), for games. */
PG_FUNCTION_INFO_V1(gametree_state_of_game);
Datum
gametree_state_of_game(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);
	int32		typmod = PG_GETARG_INT32(1);

	if (is_json(value))
		PG_RETURN_POINTER(typmod < 0 ? value : resolve(typmod_game(typmod), value));
	check_value_game(fcinfo, value, typmod);
	PG_RETURN_POINTER(value);
}

/* The external form: the number in network order, then the packing. */
static bytea *
external_form(const struct varlena *value)
{
	int			len = VARSIZE_ANY_EXHDR(value);
	bytea	   *bytes = palloc(VARHDRSZ + len);
	uint32		number = pg_hton32((uint32) gt_game_number(gt_state_value_game(value)->name));

	SET_VARSIZE(bytes, VARHDRSZ + len);
	memcpy(VARDATA(bytes), &number, GT_STATE_NUMBER_BYTES);
	memcpy(VARDATA(bytes) + GT_STATE_NUMBER_BYTES, VARDATA_ANY(value) + GT_STATE_NUMBER_BYTES,
		   len - GT_STATE_NUMBER_BYTES);
	return bytes;
}

static struct varlena *
from_external_form(FunctionCallInfo fcinfo, const uint8 *bytes, int len, int32 typmod)
{
	struct varlena *value = gt_state_value_from_bytes(bytes, len);

	check_value_game(fcinfo, value, typmod);
	return value;
}

PG_FUNCTION_INFO_V1(gametree_state_send);
Datum
gametree_state_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(external_form(PG_GETARG_VARLENA_PP(0)));
}

PG_FUNCTION_INFO_V1(gametree_state_recv);
Datum
gametree_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	const uint8 *bytes = (const uint8 *) pq_getmsgbytes(buf, len);

	PG_RETURN_POINTER(from_external_form(fcinfo, bytes, len, PG_GETARG_INT32(2)));
}

PG_FUNCTION_INFO_V1(gametree_bytea_to_state);
Datum
gametree_bytea_to_state(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(from_external_form(fcinfo, (const uint8 *) VARDATA_ANY(bytes),
										 VARSIZE_ANY_EXHDR(bytes), PG_GETARG_INT32(1)));
}

/*
 * gametree.state('name'): the name of a game, loaded or not (a dump
 * creates tables before it loads their GDL games), or a number, as
 * typmod_out writes one for a game it cannot name.
 */
PG_FUNCTION_INFO_V1(gametree_state_typmod_in);
Datum
gametree_state_typmod_in(PG_FUNCTION_ARGS)
{
	ArrayType  *array = PG_GETARG_ARRAYTYPE_P(0);
	int			n;
	Datum	   *items;
	char	   *item;
	char	   *end;
	long		number;

	deconstruct_array(array, CSTRINGOID, -2, false, TYPALIGN_CHAR, &items, NULL, &n);
	if (n != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("gametree.state takes one type modifier, the game, not %d", n),
				 errhint("Write gametree.state('tictactoe').")));
	item = DatumGetCString(items[0]);
	errno = 0;
	number = strtol(item, &end, 10);
	if (item[0] >= '0' && item[0] <= '9' && *end == '\0' && errno == 0 && number <= PG_INT32_MAX)
		PG_RETURN_INT32((int32) number);
	if (item[0] == '\0' || strspn(item, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
		!= strlen(item))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid game name \"%s\" in gametree.state", gt_abbreviate(item)),
				 errhint("Game names are letters, digits and underscores; write gametree.state('tictactoe').")));
	PG_RETURN_INT32(gt_game_number(item));
}

PG_FUNCTION_INFO_V1(gametree_state_typmod_out);
Datum
gametree_state_typmod_out(PG_FUNCTION_ARGS)
{
	int32		typmod = PG_GETARG_INT32(0);
	const Game *game;

	if (typmod < 0)
		PG_RETURN_CSTRING(pstrdup(""));
	game = gt_find_game_by_number(typmod);
	PG_RETURN_CSTRING(game != NULL ? psprintf("(%s)", quote_literal_cstr(game->name))
					  : psprintf("(%d)", typmod));
}

PG_FUNCTION_INFO_V1(gametree_state_hash_of_value);
Datum
gametree_state_hash_of_value(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);
	const Game *game = value_game(fcinfo, value);

	PG_RETURN_INT64((int64) gt_state_hash(game, gt_state_of_value(game, value)));
}

/* The game's estimate of a stored state, as heuristic(game, state) gives it. */
PG_FUNCTION_INFO_V1(gametree_heuristic_of_value);
Datum
gametree_heuristic_of_value(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);
	const Game *game = value_game(fcinfo, value);
	Jsonb	   *estimate = gt_encode_heuristic(game, gt_state_of_value(game, value));

	if (estimate == NULL)
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(estimate);
}

PG_FUNCTION_INFO_V1(gametree_game_of);
Datum
gametree_game_of(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(value_game(fcinfo, PG_GETARG_VARLENA_PP(0))->name));
}

/*
 * Bytewise order: games by number, then packings; equal exactly when the
 * states are.  JSON of no game compared with a state of a game is read as a
 * state of that game, as a literal in WHERE state = '[...]'.
 */
static int
compare_values(FunctionCallInfo fcinfo)
{
	struct varlena *a = PG_GETARG_VARLENA_PP(0);
	struct varlena *b = PG_GETARG_VARLENA_PP(1);
	int			alen;
	int			blen;
	int			c;

	if (is_json(a) && !is_json(b))
		a = resolve(value_game(fcinfo, b), a);
	else if (is_json(b) && !is_json(a))
		b = resolve(value_game(fcinfo, a), b);
	alen = VARSIZE_ANY_EXHDR(a);
	blen = VARSIZE_ANY_EXHDR(b);
	c = memcmp(VARDATA_ANY(a), VARDATA_ANY(b), Min(alen, blen));

	if (c == 0)
		c = (alen > blen) - (alen < blen);
	return c;
}

PG_FUNCTION_INFO_V1(gametree_state_cmp);
Datum
gametree_state_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare_values(fcinfo));
}

PG_FUNCTION_INFO_V1(gametree_state_eq);
Datum
gametree_state_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) == 0);
}

PG_FUNCTION_INFO_V1(gametree_state_ne);
Datum
gametree_state_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) != 0);
}

PG_FUNCTION_INFO_V1(gametree_state_lt);
Datum
gametree_state_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(gametree_state_le);
Datum
gametree_state_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(gametree_state_gt);
Datum
gametree_state_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(gametree_state_ge);
Datum
gametree_state_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_values(fcinfo) >= 0);
}

/*
 * JSON of no game equals a state of a game it reads as, whose hash its text
 * cannot give: it has none (value_game refuses it).
 */
PG_FUNCTION_INFO_V1(gametree_state_hash_key);
Datum
gametree_state_hash_key(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);

	(void) value_game(fcinfo, value);

	return hash_any((const unsigned char *) VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value));
}

PG_FUNCTION_INFO_V1(gametree_state_hash_key_extended);
Datum
gametree_state_hash_key_extended(PG_FUNCTION_ARGS)
{
	struct varlena *value = PG_GETARG_VARLENA_PP(0);

	(void) value_game(fcinfo, value);

	return hash_any_extended((const unsigned char *) VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value),
							 PG_GETARG_INT64(1));
}
