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

/* The columns of a value: NULL when the utility is unknown, or no role's mobility is. */
extern Jsonb *value_utility_json(ValueCodec *codec, const Value *v);
extern Jsonb *value_mobility_json(ValueCodec *codec, const Value *v);

#endif
