/*
 * rowvalues.c: values to and from a tree's rows (rowvalues.h).
 */
#include "postgres.h"

#include <math.h>

#include "store/rowvalues.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/* Distinct values remembered: goals, estimates and mobilities recur in millions of rows. */
#define DECODED_MAX 4096

typedef struct Decoded
{
	uint64		hash;
	Size		len;
	char	   *bytes;
	int32		numbers[GT_MAX_ROLES];
} Decoded;

struct ValueReader
{
	const Game *game;
	MemoryContext cxt;
	HTAB	   *decoded[2];		/* utility, mobility */
};

ValueReader *
value_reader_create(const Game *game)
{
	ValueReader *reader = palloc0(sizeof(ValueReader));
	HASHCTL		ctl = {0};

	reader->game = game;
	reader->cxt = CurrentMemoryContext;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(Decoded);
	ctl.hcxt = CurrentMemoryContext;
	for (int i = 0; i < 2; i++)
		reader->decoded[i] = hash_create("gametree decoded values", 256, &ctl,
										 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return reader;
}

/* A role's number times scale, within lo..hi; -1 when it has none. */
static int32
role_number(Jsonb *object, const char *role, double lo, double hi, double scale)
{
	JsonbValue	key;
	JsonbValue *v;
	double		d;

	if (!JB_ROOT_IS_OBJECT(object))
		return -1;
	key.type = jbvString;
	key.val.string.val = (char *) role;
	key.val.string.len = strlen(role);
	v = findJsonbValueFromContainer(&object->root, JB_FOBJECT, &key);
	if (v == NULL || v->type != jbvNumeric)
		return -1;
	d = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(v->val.numeric)));
	if (isnan(d))
		return -1;
	return (int32) rint(Min(Max(d, lo), hi) * scale);
}

static void
decode_roles(ValueReader *reader, int which, Datum datum, double lo, double hi, double scale,
			 int32 *out)
{
	const Game *game = reader->game;
	Jsonb	   *json = DatumGetJsonbP(datum);
	Size		len = VARSIZE(json);
	uint64		hash = gt_hash_bytes((const uint8 *) json, len);
	Decoded    *entry;
	bool		found;

	entry = hash_search(reader->decoded[which], &hash, HASH_FIND, &found);
	if (found && entry->len == len && memcmp(entry->bytes, json, len) == 0)
	{
		memcpy(out, entry->numbers, game->nroles * sizeof(int32));
		return;
	}
	for (int r = 0; r < game->nroles; r++)
		out[r] = role_number(json, game->roles[r], lo, hi, scale);
	if (found || hash_get_num_entries(reader->decoded[which]) >= DECODED_MAX)
		return;
	entry = hash_search(reader->decoded[which], &hash, HASH_ENTER, &found);
	entry->len = len;
	entry->bytes = MemoryContextAlloc(reader->cxt, len);
	memcpy(entry->bytes, json, len);
	memcpy(entry->numbers, out, game->nroles * sizeof(int32));
}

void
value_read(ValueReader *reader, Datum utility, bool utility_null, Datum mobility,
		   bool mobility_null, bool proven, Value *out)
{
	const Game *game = reader->game;
	int32		numbers[GT_MAX_ROLES];

	value_unknown(game, out);
	out->known = !utility_null;
	out->proven = proven;
	if (!utility_null)
	{
		decode_roles(reader, 0, utility, -1, GT_GOAL_MAX, 100.0, numbers);
		for (int r = 0; r < game->nroles; r++)
			out->utility[r] = numbers[r] / 100.0;
	}
	if (!mobility_null)
	{
		decode_roles(reader, 1, mobility, 0, PG_INT32_MAX, 1.0, numbers);
		memcpy(out->mobility, numbers, game->nroles * sizeof(int32));
	}
}

typedef struct Encoded
{
	uint64		hash;
	int32		numbers[GT_MAX_ROLES];
	Jsonb	   *json;
} Encoded;

struct ValueWriter
{
	const Game *game;
	MemoryContext cxt;
	HTAB	   *encoded[2];		/* utility, mobility */
};

ValueWriter *
value_writer_create(const Game *game)
{
	ValueWriter *writer = palloc0(sizeof(ValueWriter));
	HASHCTL		ctl = {0};

	writer->game = game;
	writer->cxt = CurrentMemoryContext;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(Encoded);
	ctl.hcxt = CurrentMemoryContext;
	for (int i = 0; i < 2; i++)
		writer->encoded[i] = hash_create("gametree encoded values", 256, &ctl,
										 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return writer;
}

/* {"role": number or null} for numbers (utility in hundredths; -1: null), remembered. */
static Jsonb *
encode_roles(ValueWriter *writer, int which, const int32 *numbers)
{
	const Game *game = writer->game;
	Size		len = game->nroles * sizeof(int32);
	uint64		hash = gt_hash_bytes((const uint8 *) numbers, len) ^ which;
	Encoded    *entry;
	bool		found;
	double		values[GT_MAX_ROLES];
	bool		known[GT_MAX_ROLES];
	Jsonb	   *json;
	MemoryContext outer;

	entry = hash_search(writer->encoded[which], &hash, HASH_FIND, &found);
	if (found && memcmp(entry->numbers, numbers, len) == 0)
		return entry->json;
	for (int r = 0; r < game->nroles; r++)
	{
		known[r] = which == 0 || numbers[r] >= 0;
		values[r] = which == 0 ? numbers[r] / 100.0 : numbers[r];
	}
	if (found || hash_get_num_entries(writer->encoded[which]) >= DECODED_MAX)
		return gt_encode_role_values(game, values, known);
	outer = MemoryContextSwitchTo(writer->cxt);
	json = gt_encode_role_values(game, values, known);
	MemoryContextSwitchTo(outer);
	entry = hash_search(writer->encoded[which], &hash, HASH_ENTER, &found);
	memcpy(entry->numbers, numbers, len);
	entry->json = json;
	return json;
}

Jsonb *
value_utility_json(ValueWriter *writer, const Value *v)
{
	int32		hundredths[GT_MAX_ROLES];

	if (!v->known)
		return NULL;
	for (int r = 0; r < writer->game->nroles; r++)
		hundredths[r] = (int32) rint(v->utility[r] * 100.0);
	return encode_roles(writer, 0, hundredths);
}

Jsonb *
value_mobility_json(ValueWriter *writer, const Value *v)
{
	bool		any = false;

	for (int r = 0; r < writer->game->nroles; r++)
		any |= v->mobility[r] >= 0;
	return any ? encode_roles(writer, 1, v->mobility) : NULL;
}
