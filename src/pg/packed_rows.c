/*
 * packed_rows.c: rows in one bytea, in their types' binary send forms
 * (packed_rows.h).
 */
#include "postgres.h"

#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "pg/packed_rows.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#define PACKED_ROWS_MAGIC 0x47545231	/* "GTR1" */

void
packed_rows_writer_init(PackedRowsWriter *w, int ncols, const Oid *types)
{
	w->ncols = ncols;
	w->send = palloc(ncols * sizeof(FmgrInfo));
	for (int c = 0; c < ncols; c++)
	{
		Oid			send;
		bool		varlena;

		getTypeBinaryOutputInfo(types[c], &send, &varlena);
		fmgr_info(send, &w->send[c]);
	}
	w->buf.data = NULL;
	w->rows = 0;
}

/* The header, before the first row of a payload. */
static void
start_payload(PackedRowsWriter *w)
{
	if (w->buf.data != NULL)
		return;
	pq_begintypsend(&w->buf);
	pq_sendint32(&w->buf, PACKED_ROWS_MAGIC);
	pq_sendint32(&w->buf, w->ncols);
}

void
packed_rows_add(PackedRowsWriter *w, const Datum *values, const bool *nulls)
{
	start_payload(w);
	for (int c = 0; c < w->ncols; c++)
	{
		bytea	   *bytes;

		if (nulls[c])
		{
			pq_sendint32(&w->buf, -1);
			continue;
		}
		bytes = SendFunctionCall(&w->send[c], values[c]);
		pq_sendint32(&w->buf, VARSIZE(bytes) - VARHDRSZ);
		pq_sendbytes(&w->buf, VARDATA(bytes), VARSIZE(bytes) - VARHDRSZ);
		pfree(bytes);
	}
	w->rows++;
}

void
packed_rows_add_packed(PackedRowsWriter *w, const char *row, int len)
{
	start_payload(w);
	pq_sendbytes(&w->buf, row, len);
	w->rows++;
}

void
packed_rows_flush(PackedRowsWriter *w, PayloadSink sink, void *arg, int32 to)
{
	bytea	   *payload;

	if (w->buf.data == NULL)
		return;
	payload = pq_endtypsend(&w->buf);
	sink(arg, to, w->rows, payload);
	pfree(payload);
	w->buf.data = NULL;
	w->rows = 0;
}

void
value_receiver_init(ValueReceiver *r, Oid type, int32 typmod)
{
	Oid			fn;

	getTypeBinaryInputInfo(type, &fn, &r->ioparam);
	fmgr_info(fn, &r->recv);
	get_typlenbyval(type, &r->typlen, &r->byval);
	r->typmod = typmod;
	r->scratch = AllocSetContextCreate(CurrentMemoryContext, "gametree received value", ALLOCSET_DEFAULT_SIZES);
}

Datum
value_receive(ValueReceiver *r, const char *bytes, int len, bool *whole)
{
	MemoryContext outer = MemoryContextSwitchTo(r->scratch);
	StringInfoData field;
	Datum		value;

	/* The receive functions want a buffer of their own, ending in a NUL. */
	initStringInfo(&field);
	appendBinaryStringInfo(&field, bytes, len);
	value = ReceiveFunctionCall(&r->recv, &field, r->ioparam, r->typmod);
	*whole = field.cursor == field.len;
	MemoryContextSwitchTo(outer);
	value = datumCopy(value, r->byval, r->typlen);
	MemoryContextReset(r->scratch);
	return value;
}

static void
not_rows(const char *what, int ncols, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("%s: not rows of %d columns (%s)", what, ncols, why),
			 errhint("The payload is what a gametree function packed on another server of the same version.")));
}

/* Points in at the payload's rows, after a header for ncols columns. */
static void
open_payload(StringInfo in, const bytea *payload, int ncols, const char *what)
{
	/* The payload is read in place: its bytes are not changed. */
	in->data = (char *) VARDATA_ANY(payload);
	in->len = VARSIZE_ANY_EXHDR(payload);
	in->maxlen = in->len;
	in->cursor = 0;
	if (in->len < 2 * (int) sizeof(int32) || pq_getmsgint(in, 4) != PACKED_ROWS_MAGIC)
		not_rows(what, ncols, "no header");
	if (pq_getmsgint(in, 4) != ncols)
		not_rows(what, ncols, "another number of columns");
}

/* The length of the next value of a row (-1: NULL), checked against what is left. */
static int32
next_length(StringInfo in, int ncols, const char *what)
{
	int32		len;

	if (in->len - in->cursor < (int) sizeof(int32))
		not_rows(what, ncols, "a row cut short");
	len = (int32) pq_getmsgint(in, 4);
	if (len < -1 || (len >= 0 && len > in->len - in->cursor))
		not_rows(what, ncols, "a value longer than what is left");
	return len;
}

void
packed_rows_cursor_init(PackedRowsCursor *cursor, const bytea *payload, int ncols, const char *what)
{
	open_payload(&cursor->in, payload, ncols, what);
	cursor->ncols = ncols;
	cursor->what = what;
	cursor->field = palloc(ncols * sizeof(char *));
	cursor->field_len = palloc(ncols * sizeof(int32));
}

bool
packed_rows_next(PackedRowsCursor *cursor)
{
	StringInfo	in = &cursor->in;

	if (in->cursor >= in->len)
		return false;
	cursor->row = in->data + in->cursor;
	for (int c = 0; c < cursor->ncols; c++)
	{
		int32		len = next_length(in, cursor->ncols, cursor->what);

		cursor->field_len[c] = len;
		cursor->field[c] = len < 0 ? NULL : pq_getmsgbytes(in, len);
	}
	cursor->len = in->data + in->cursor - cursor->row;
	return true;
}

int64
packed_rows_read(const bytea *payload, int ncols, const Oid *types, const int32 *typmods,
				 Datum **values, bool **nulls, const char *what)
{
	StringInfoData in;
	ValueReceiver *receivers = palloc(ncols * sizeof(ValueReceiver));
	int64		max = 1024,
				n = 0;

	open_payload(&in, payload, ncols, what);
	for (int c = 0; c < ncols; c++)
	{
		value_receiver_init(&receivers[c], types[c], typmods ? typmods[c] : -1);
		values[c] = palloc(max * sizeof(Datum));
		nulls[c] = palloc(max * sizeof(bool));
	}
	while (in.cursor < in.len)
	{
		CHECK_FOR_INTERRUPTS();
		if (n == max)
		{
			max *= 2;
			for (int c = 0; c < ncols; c++)
			{
				values[c] = repalloc_huge(values[c], max * sizeof(Datum));
				nulls[c] = repalloc_huge(nulls[c], max * sizeof(bool));
			}
		}
		for (int c = 0; c < ncols; c++)
		{
			int32		len = next_length(&in, ncols, what);
			bool		whole;

			nulls[c][n] = len == -1;
			values[c][n] = (Datum) 0;
			if (len == -1)
				continue;
			values[c][n] = value_receive(&receivers[c], pq_getmsgbytes(&in, len), len, &whole);
			if (!whole)
				not_rows(what, ncols, "a value its type did not read whole");
		}
		n++;
	}
	for (int c = 0; c < ncols; c++)
		MemoryContextDelete(receivers[c].scratch);
	return n;
}
