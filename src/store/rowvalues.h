/*
 * rowvalues.h: a Value (search/values.h) to and from the utility, mobility
 * and proven columns of a tree's rows.  Expansion and propagation both read
 * and write values through these.
 */
#ifndef GAMETREE_ROWVALUES_H
#define GAMETREE_ROWVALUES_H

#include "search/values.h"
#include "utils/jsonb.h"

/* Reads {"role": number} columns, remembering the decoded ones. */
typedef struct ValueReader ValueReader;

extern ValueReader *value_reader_create(const Game *game);
/*
 * The value of a row.  The owner may have written anything there: a role
 * without a number counts -1, numbers outside their range count at the
 * nearest bound, so that no conversion overflows.
 */
extern void value_read(ValueReader *reader, Datum utility, bool utility_null,
					   Datum mobility, bool mobility_null, bool proven, Value *out);

/*
 * Writes the columns of values: NULL when the utility is unknown, or no
 * role's mobility is.  The same few values recur in millions of rows, so
 * encoded ones are remembered; the results are shared, not to be changed.
 */
typedef struct ValueWriter ValueWriter;

extern ValueWriter *value_writer_create(const Game *game);
extern Jsonb *value_utility_json(ValueWriter *writer, const Value *v);
extern Jsonb *value_mobility_json(ValueWriter *writer, const Value *v);

#endif
