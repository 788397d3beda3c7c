/*
 * rowvalues.h: a Value (search/values.h) to and from the utility, mobility
 * and proven columns of a tree's rows.  Expansion and propagation both read
 * and write values through these.
 */
#ifndef GAMETREE_ROWVALUES_H
#define GAMETREE_ROWVALUES_H

#include "search/values.h"
#include "utils/jsonb.h"

/*
 * Reads and writes {"role": number} columns.  The same few values recur in
 * millions of rows (goals, estimates, mobilities), so the codec remembers
 * the ones it decoded and encoded; what it returns is shared, not to be
 * changed.
 */
typedef struct ValueCodec ValueCodec;

extern ValueCodec *value_codec_create(const Game *game);
/*
 * The value of a row.  The owner may have written anything there: a role
 * without a number counts -1, numbers outside their range count at the
 * nearest bound, so that no conversion overflows.
 */
extern void value_read(ValueCodec *codec, Datum utility, bool utility_null,
					   Datum mobility, bool mobility_null, bool proven, Value *out);

/*
 * The total column of an edge: the sums of the results of its visits, per
 * role, each within 0..100 x visits (0 where a role has none).
 */
extern void totals_read(const Game *game, Datum total, bool isnull, int64 visits, double *out);

/* The columns of a value: NULL when the utility is unknown, or no role's mobility is. */
extern Jsonb *value_utility_json(ValueCodec *codec, const Value *v);
extern Jsonb *value_mobility_json(ValueCodec *codec, const Value *v);

/*
 * Writing rows with statements that take each column as an array ($1..$n):
 * WRITE_ROWS rows per statement, filled as they go, so that no copy of all
 * the rows is made.
 */
#define WRITE_ROWS 10000
#define WRITE_COLUMNS 10

typedef struct RowChunk
{
	Datum		values[WRITE_COLUMNS][WRITE_ROWS];
	bool		nulls[WRITE_COLUMNS][WRITE_ROWS];
} RowChunk;

/* Fills row k of the chunk with row number index of what is written. */
typedef void (*FillRow) (void *arg, RowChunk *chunk, int k, int64 index);
/* Called after each statement with the rows written so far; false stops the writing. */
typedef bool (*AfterChunk) (void *arg, int64 written);

static inline void
row_set(RowChunk *chunk, int col, int k, Datum value, bool isnull)
{
	chunk->values[col][k] = value;
	chunk->nulls[col][k] = isnull;
}

/* utility, mobility, proven (and best_move) of a value, from column col on. */
extern void row_set_value(ValueCodec *codec, RowChunk *chunk, int col, int k, const Value *v,
						  bool with_best_move);

/*
 * Rows inserted into a table: straight into it where they may
 * (store/bulk.c), else with INSERT statements.  The game is given when each
 * id is by construction the state hash that the table's CHECK tests.
 */
typedef struct RowTable
{
	Oid			relid;
	const char *qualified;
	const char *const *columns;
	bool		ids_are_state_hashes;
} RowTable;

/*
 * Runs sql for nrows rows of ncols columns of the element types given, or,
 * when sql is NULL, inserts them into table; returns the rows it
 * processed.  *complete (may be NULL) is false when after stopped
 * it.
 */
extern int64 write_rows(const char *sql, const RowTable *table, int ncols, const Oid *types,
						int64 nrows, FillRow fill, AfterChunk after, void *arg, int expected,
						bool *complete);

#endif
