/*
 * rowvalues.c: values to and from a tree's rows (rowvalues.h).
 */
#include "postgres.h"

#include <math.h>

#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "store/bulk.h"
#include "store/rowvalues.h"
#include "store/tree.h"
#include "utils/lsyscache.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/* Distinct values remembered per kind. */
#define REMEMBERED_MAX 4096

/* The kinds of values the codec remembers, each in a table of its own. */
enum
{
	DECODED_UTILITY,
	DECODED_MOBILITY,
	ENCODED_UTILITY,
	ENCODED_MOBILITY,
	KINDS
};

/*
 * One value: its numbers per role (utility in hundredths; -1: none) and its
 * jsonb, found by a hash of the jsonb (decoding) or of the numbers
 * (encoding).
 */
typedef struct Remembered
{
	uint64		hash;
	int32		numbers[GT_MAX_ROLES];
	Jsonb	   *json;
} Remembered;

struct ValueCodec
{
	const Game *game;
	MemoryContext cxt;
	HTAB	   *tables[KINDS];
};

ValueCodec *
value_codec_create(const Game *game)
{
	ValueCodec *codec = palloc0(sizeof(ValueCodec));
	HASHCTL		ctl = {0};

	codec->game = game;
	codec->cxt = CurrentMemoryContext;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(Remembered);
	ctl.hcxt = CurrentMemoryContext;
	for (int i = 0; i < KINDS; i++)
		codec->tables[i] = hash_create("gametree remembered values", 256, &ctl,
									   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return codec;
}

/* The entry remembered under hash if it is json (or numbers); NULL otherwise. */
static Remembered *
recall(ValueCodec *codec, int kind, uint64 hash, const Jsonb *json, const int32 *numbers)
{
	Remembered *entry = hash_search(codec->tables[kind], &hash, HASH_FIND, NULL);

	if (entry == NULL)
		return NULL;
	if (json != NULL && VARSIZE(entry->json) == VARSIZE(json) &&
		memcmp(entry->json, json, VARSIZE(json)) == 0)
		return entry;
	if (numbers != NULL && memcmp(entry->numbers, numbers, codec->game->nroles * sizeof(int32)) == 0)
		return entry;
	return NULL;
}

static void
remember(ValueCodec *codec, int kind, uint64 hash, const Jsonb *json, const int32 *numbers)
{
	bool		found;
	Remembered *entry;

	if (hash_get_num_entries(codec->tables[kind]) >= REMEMBERED_MAX)
		return;
	entry = hash_search(codec->tables[kind], &hash, HASH_ENTER, &found);
	if (found)
		return;					/* another value with the same hash keeps the place */
	memcpy(entry->numbers, numbers, codec->game->nroles * sizeof(int32));
	entry->json = MemoryContextAlloc(codec->cxt, VARSIZE(json));
	memcpy(entry->json, json, VARSIZE(json));
}

/* A role's number in object, within lo..hi; false when it has none. */
static bool
role_double(Jsonb *object, const char *role, double lo, double hi, double *out)
{
	JsonbValue	key;
	JsonbValue *v;
	double		d;

	if (!JB_ROOT_IS_OBJECT(object))
		return false;
	key.type = jbvString;
	key.val.string.val = (char *) role;
	key.val.string.len = strlen(role);
	v = findJsonbValueFromContainer(&object->root, JB_FOBJECT, &key);
	if (v == NULL || v->type != jbvNumeric)
		return false;
	d = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(v->val.numeric)));
	if (isnan(d))
		return false;
	*out = Min(Max(d, lo), hi);
	return true;
}

/* A role's number times scale, within lo..hi; -1 when it has none. */
static int32
role_number(Jsonb *object, const char *role, double lo, double hi, double scale)
{
	double		d;

	return role_double(object, role, lo, hi, &d) ? (int32) rint(d * scale) : -1;
}

void
totals_read(const Game *game, Datum total, bool isnull, int64 visits, double *out)
{
	for (int r = 0; r < game->nroles; r++)
		if (isnull || !role_double(DatumGetJsonbP(total), game->roles[r], 0,
								   (double) visits * GT_GOAL_MAX, &out[r]))
			out[r] = 0;
}

static void
decode_roles(ValueCodec *codec, int kind, Datum datum, double lo, double hi, double scale,
			 int32 *out)
{
	const Game *game = codec->game;
	Jsonb	   *json = DatumGetJsonbP(datum);
	uint64		hash = gt_hash_bytes((const uint8 *) json, VARSIZE(json));
	Remembered *entry = recall(codec, kind, hash, json, NULL);

	if (entry != NULL)
	{
		memcpy(out, entry->numbers, game->nroles * sizeof(int32));
		return;
	}
	for (int r = 0; r < game->nroles; r++)
		out[r] = role_number(json, game->roles[r], lo, hi, scale);
	remember(codec, kind, hash, json, out);
}

void
value_read(ValueCodec *codec, Datum utility, bool utility_null, Datum mobility,
		   bool mobility_null, bool proven, Value *out)
{
	const Game *game = codec->game;
	int32		numbers[GT_MAX_ROLES];

	value_unknown(game, out);
	out->known = !utility_null;
	out->proven = proven;
	if (!utility_null)
	{
		decode_roles(codec, DECODED_UTILITY, utility, -1, GT_GOAL_MAX, GT_HUNDREDTHS, numbers);
		for (int r = 0; r < game->nroles; r++)
			out->utility[r] = numbers[r] / (double) GT_HUNDREDTHS;
	}
	if (!mobility_null)
	{
		decode_roles(codec, DECODED_MOBILITY, mobility, 0, PG_INT32_MAX, 1.0, numbers);
		memcpy(out->mobility, numbers, game->nroles * sizeof(int32));
	}
}

/* {"role": number or null} for numbers (utility in hundredths; mobility -1: null). */
static Jsonb *
encode_roles(ValueCodec *codec, int kind, const int32 *numbers)
{
	const Game *game = codec->game;
	uint64		hash = gt_hash_bytes((const uint8 *) numbers, game->nroles * sizeof(int32));
	Remembered *entry = recall(codec, kind, hash, NULL, numbers);
	double		values[GT_MAX_ROLES];
	bool		known[GT_MAX_ROLES];
	Jsonb	   *json;

	if (entry != NULL)
		return entry->json;
	for (int r = 0; r < game->nroles; r++)
	{
		known[r] = kind == ENCODED_UTILITY || numbers[r] >= 0;
		values[r] = kind == ENCODED_UTILITY ? numbers[r] / (double) GT_HUNDREDTHS : numbers[r];
	}
	json = gt_encode_role_values(game, values, known);
	remember(codec, kind, hash, json, numbers);
	return json;
}

Jsonb *
value_utility_json(ValueCodec *codec, const Value *v)
{
	int32		hundredths[GT_MAX_ROLES];

	if (!v->known)
		return NULL;
	for (int r = 0; r < codec->game->nroles; r++)
		hundredths[r] = (int32) rint(v->utility[r] * GT_HUNDREDTHS);
	return encode_roles(codec, ENCODED_UTILITY, hundredths);
}

Jsonb *
value_mobility_json(ValueCodec *codec, const Value *v)
{
	bool		any = false;

	for (int r = 0; r < codec->game->nroles; r++)
		any |= v->mobility[r] >= 0;
	return any ? encode_roles(codec, ENCODED_MOBILITY, v->mobility) : NULL;
}

void
row_set_value(ValueCodec *codec, RowChunk *chunk, int col, int k, const Value *v, bool with_best_move)
{
	Jsonb	   *utility = value_utility_json(codec, v);
	Jsonb	   *mobility = value_mobility_json(codec, v);

	row_set(chunk, col, k, PointerGetDatum(utility), utility == NULL);
	row_set(chunk, col + 1, k, PointerGetDatum(mobility), mobility == NULL);
	row_set(chunk, col + 2, k, BoolGetDatum(v->proven), false);
	if (with_best_move)
		row_set(chunk, col + 3, k, Int64GetDatum(v->move_id), v->move_id == 0);
}

/* INSERT INTO table (columns) SELECT unnest($1), ...: unnested in the select list, rows stream. */
static char *
insert_sql(const RowTable *table, int ncols)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfo(&sql, "INSERT INTO %s (", table->qualified);
	for (int col = 0; col < ncols; col++)
		appendStringInfo(&sql, "%s%s", col > 0 ? ", " : "", table->columns[col]);
	appendStringInfoString(&sql, ") SELECT ");
	for (int col = 0; col < ncols; col++)
		appendStringInfo(&sql, "%sunnest($%d)", col > 0 ? ", " : "", col + 1);
	return sql.data;
}

int64
write_rows(const char *sql, const RowTable *table, int ncols, const Oid *types, int64 nrows,
		   FillRow fill, AfterChunk after, void *arg, int expected, bool *complete)
{
	RowChunk   *chunk = palloc(sizeof(RowChunk));
	Oid			arrays[WRITE_COLUMNS];
	Datum		values[WRITE_COLUMNS];
	int64		processed = 0;
	MemoryContext chunk_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree rows written",
													ALLOCSET_DEFAULT_SIZES);
	bool		go_on = true;
	BulkInsert *bulk = NULL;

	Assert(ncols <= WRITE_COLUMNS && (sql == NULL) != (table == NULL));
	if (table != NULL && nrows > 0)
	{
		bulk = bulk_open(table->relid, table->columns, ncols, table->ids_are_state_hashes);
		if (bulk == NULL)
			sql = insert_sql(table, ncols);
	}
	for (int col = 0; col < ncols; col++)
		arrays[col] = get_array_type(types[col]);
	for (int64 first = 0; first < nrows && go_on; first += WRITE_ROWS)
	{
		int			n = (int) Min(WRITE_ROWS, nrows - first);
		MemoryContext outer = MemoryContextSwitchTo(chunk_cxt);

		CHECK_FOR_INTERRUPTS();
		for (int k = 0; k < n; k++)
			fill(arg, chunk, k, first + k);
		if (bulk != NULL)
		{
			for (int k = 0; k < n; k++)
			{
				bool		nulls[WRITE_COLUMNS];

				for (int col = 0; col < ncols; col++)
				{
					values[col] = chunk->values[col][k];
					nulls[col] = chunk->nulls[col][k];
				}
				bulk_insert(bulk, values, nulls);
			}
			/* before the chunk's values are freed */
			bulk_flush(bulk);
		}
		else
		{
			for (int col = 0; col < ncols; col++)
				values[col] = datum_array(chunk->values[col], chunk->nulls[col], n, types[col]);
			spi_run_kept(sql, ncols, arrays, values, expected);
			processed += SPI_processed;
		}
		MemoryContextSwitchTo(outer);
		MemoryContextReset(chunk_cxt);
		if (after != NULL)
			go_on = after(arg, first + n);
	}
	if (bulk != NULL)
		processed = bulk_close(bulk);
	MemoryContextDelete(chunk_cxt);
	pfree(chunk);
	if (complete != NULL)
		*complete = go_on;
	return processed;
}
