/*
 * packed_rows.h: rows in one bytea (packed_rows.c), to travel between
 * servers as a single value: each value in its type's binary send form,
 * as COPY BINARY writes fields, so that neither end parses text and the
 * receiving types check what arrives.
 *
 * The form: a header (a magic number and the number of columns), then per
 * row and column the length of the value in bytes (-1: NULL) and its bytes;
 * integers in network order.  Type OIDs do not travel (an extension's types
 * have other OIDs on another server): both ends name the same columns.
 */
#ifndef GAMETREE_PG_PACKED_ROWS_H
#define GAMETREE_PG_PACKED_ROWS_H

#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"

/* Takes one payload for a destination (a node's number): rows of it, packed. */
typedef void (*PayloadSink) (void *arg, int32 to, int64 rows, bytea *payload);

typedef struct PackedRowsWriter
{
	int			ncols;
	FmgrInfo   *send;			/* per column */
	StringInfoData buf;			/* NULL data: no row yet */
	int64		rows;
} PackedRowsWriter;

extern void packed_rows_writer_init(PackedRowsWriter *w, int ncols, const Oid *types);
extern void packed_rows_add(PackedRowsWriter *w, const Datum *values, const bool *nulls);
/* Adds a row as it is packed already: what a PackedRowsCursor read of a payload with as many columns. */
extern void packed_rows_add_packed(PackedRowsWriter *w, const char *row, int len);
/* Gives the rows added since the last flush, if any, to sink, then starts anew. */
extern void packed_rows_flush(PackedRowsWriter *w, PayloadSink sink, void *arg, int32 to);

/*
 * The rows of a payload one at a time, as they are packed, for passing
 * them on without reading their values: row and len, the row's bytes;
 * field[c] and field_len[c] (-1: NULL), its values' send forms.
 */
typedef struct PackedRowsCursor
{
	StringInfoData in;			/* the payload, read in place */
	int			ncols;
	const char *what;			/* what messages call the payload */
	const char *row;
	int			len;
	const char **field;
	int32	   *field_len;
} PackedRowsCursor;

/* Ereports (22P03) as packed_rows_read does when the payload is not rows of ncols columns. */
extern void packed_rows_cursor_init(PackedRowsCursor *cursor, const bytea *payload, int ncols, const char *what);
/* Steps to the next row; false after the last. */
extern bool packed_rows_next(PackedRowsCursor *cursor);

/* A type's receive function, for values one at a time. */
typedef struct ValueReceiver
{
	FmgrInfo	recv;
	Oid			ioparam;
	int32		typmod;
	int16		typlen;
	bool		byval;
	MemoryContext scratch;		/* what the function allocates besides the value, freed after each */
} ValueReceiver;

extern void value_receiver_init(ValueReceiver *r, Oid type, int32 typmod);
/* A value from its send form, in the caller's memory context; *whole: the function read every byte. */
extern Datum value_receive(ValueReceiver *r, const char *bytes, int len, bool *whole);

/*
 * The rows of a payload, by column: values[c][r], nulls[c][r], read by the
 * columns' receive functions (typmods may be NULL: -1), which a NULL
 * does not reach (no type of gametree's tables is a domain).  Ereports
 * (22P03, invalid binary representation) when the payload is not rows of
 * that many columns, naming what in the message.
 */
extern int64 packed_rows_read(const bytea *payload, int ncols, const Oid *types, const int32 *typmods,
							  Datum **values, bool **nulls, const char *what);

#endif
