/*
 * pg_stubs.c: the PostgreSQL backend functions that the extension's decoders
 * call, just enough to run them outside the server under libFuzzer.  Only
 * the symbols the linked extension objects need are here.
 *
 * Memory: palloc is malloc, one block per chunk so that AddressSanitizer
 * sees each chunk's bounds.  Chunks of the input's context are registered
 * and stub_reset() frees them after each input; TopMemoryContext's live on.
 *
 * Errors: errstart..errfinish collect the report, and an ERROR longjmps to
 * stub_error_jump.  SQLSTATE XX000 (elog(ERROR), or ereport without
 * errcode) is PostgreSQL's internal error, which no input should cause: it
 * aborts, so libFuzzer keeps the input as a crash.
 *
 * jsonb: the extension reads a container's header word itself, through
 * jsonb.h's macros (element count; array, object and scalar flags), so that
 * word is PostgreSQL's.  What follows it is ours, simpler than PostgreSQL's
 * on-disk format: the elements as JsonbValues (an object's as key, value,
 * ...), nested containers as jbvBinary.  The jsonb functions below work on
 * that layout.
 *
 * numeric: PostgreSQL keeps struct NumericData private, so ours is the
 * decimal text.  The extension only converts numbers to integers, compares
 * them and prints them.
 */
#include "postgres.h"

#include <ctype.h>
#include <time.h>

#include "fmgr.h"
#include "miscadmin.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "nodes/memnodes.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "pg_stubs.h"

/* ---- memory ---- */

typedef struct ChunkHeader
{
	size_t		slot;			/* index in chunks[], or UNTRACKED */
	size_t		size;
} ChunkHeader;

#define UNTRACKED ((size_t) -1)

static MemoryContextData top_context;
static MemoryContextData input_context;
MemoryContext TopMemoryContext = &top_context;
MemoryContext CurrentMemoryContext = &input_context;

static void **chunks;			/* live chunks of input_context */
static size_t nchunks,
			maxchunks;

/* NULL when malloc fails and the caller asked for no error (MCXT_ALLOC_NO_OOM). */
static void *
alloc_in(MemoryContext context, Size size, int flags)
{
	ChunkHeader *h;

	if (!((flags & MCXT_ALLOC_HUGE) ? AllocHugeSizeIsValid(size) : AllocSizeIsValid(size)))
		elog(ERROR, "invalid memory alloc request size %zu", size);
	h = malloc(sizeof(ChunkHeader) + size);
	if (h == NULL && (flags & MCXT_ALLOC_NO_OOM))
		return NULL;
	if (h == NULL)
		abort();
	h->size = size;
	h->slot = UNTRACKED;
	if (context != TopMemoryContext)
	{
		if (nchunks == maxchunks)
		{
			maxchunks = maxchunks ? 2 * maxchunks : 1024;
			chunks = realloc(chunks, maxchunks * sizeof(void *));
			if (chunks == NULL)
				abort();
		}
		h->slot = nchunks;
		chunks[nchunks++] = h;
	}
	return h + 1;
}

void
pfree(void *pointer)
{
	ChunkHeader *h = (ChunkHeader *) pointer - 1;

	/* The last tracked chunk takes the freed one's slot. */
	if (h->slot != UNTRACKED)
	{
		ChunkHeader *last = chunks[--nchunks];

		last->slot = h->slot;
		chunks[h->slot] = last;
	}
	free(h);
}

void
stub_reset(void)
{
	for (size_t i = 0; i < nchunks; i++)
		free(chunks[i]);
	nchunks = 0;
	CurrentMemoryContext = &input_context;
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return alloc_in(context, size, 0);
}

void *
MemoryContextAllocExtended(MemoryContext context, Size size, int flags)
{
	void	   *pointer = alloc_in(context, size, flags);

	if (pointer != NULL && (flags & MCXT_ALLOC_ZERO))
		memset(pointer, 0, size);
	return pointer;
}

void *
palloc(Size size)
{
	return alloc_in(CurrentMemoryContext, size, 0);
}

void *
palloc0(Size size)
{
	return memset(palloc(size), 0, size);
}

void *
repalloc(void *pointer, Size size)
{
	ChunkHeader *h = (ChunkHeader *) pointer - 1;

	if (!AllocSizeIsValid(size))
		elog(ERROR, "invalid memory alloc request size %zu", size);
	h = realloc(h, sizeof(ChunkHeader) + size);
	if (h == NULL)
		abort();
	h->size = size;
	if (h->slot != UNTRACKED)
		chunks[h->slot] = h;
	return h + 1;
}

char *
pstrdup(const char *in)
{
	return pnstrdup(in, strlen(in));
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out;

	len = strnlen(in, len);
	out = palloc(len + 1);
	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

static char *
vformat(const char *fmt, va_list args)
{
	va_list		copy;
	int			len;
	char	   *out;

	va_copy(copy, args);
	len = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	out = palloc(len + 1);
	vsnprintf(out, len + 1, fmt, args);
	return out;
}

char *
psprintf(const char *fmt,...)
{
	va_list		args;
	char	   *out;

	va_start(args, fmt);
	out = vformat(fmt, args);
	va_end(args);
	return out;
}

/* The extension's own vsnprintf calls (gt_invalid_state) land here. */
int
pg_vsnprintf(char *str, size_t count, const char *fmt, va_list args)
{
	return vsnprintf(str, count, fmt, args);
}

/* ---- StringInfo ---- */

static void
enlarge(StringInfo str, int needed)
{
	if (str->len + needed + 1 <= str->maxlen)
		return;
	while (str->len + needed + 1 > str->maxlen)
		str->maxlen *= 2;
	str->data = repalloc(str->data, str->maxlen);
}

void
initStringInfo(StringInfo str)
{
	str->maxlen = 256;
	str->data = palloc(str->maxlen);
	str->data[0] = '\0';
	str->len = 0;
	str->cursor = 0;
}

void
resetStringInfo(StringInfo str)
{
	str->data[0] = '\0';
	str->len = 0;
	str->cursor = 0;
}

void
appendStringInfo(StringInfo str, const char *fmt,...)
{
	va_list		args;
	char	   *s;

	va_start(args, fmt);
	s = vformat(fmt, args);
	va_end(args);
	appendStringInfoString(str, s);
}

void
appendStringInfoString(StringInfo str, const char *s)
{
	int			len = strlen(s);

	enlarge(str, len);
	memcpy(str->data + str->len, s, len + 1);
	str->len += len;
}

void
appendStringInfoChar(StringInfo str, char ch)
{
	enlarge(str, 1);
	str->data[str->len++] = ch;
	str->data[str->len] = '\0';
}

/* ---- errors ---- */

StubError	stub_error;
sigjmp_buf *stub_error_jump;
static int	error_level;

void
stub_sqlstate(int sqlerrcode, char *buf)
{
	for (int i = 0; i < 5; i++, sqlerrcode >>= 6)
		buf[i] = PGUNSIXBIT(sqlerrcode);
	buf[5] = '\0';
}

bool
errstart_cold(int elevel, const char *domain)
{
	memset(&stub_error, 0, sizeof(stub_error));
	error_level = elevel;
	stub_error.sqlerrcode = elevel >= ERROR ? ERRCODE_INTERNAL_ERROR : ERRCODE_SUCCESSFUL_COMPLETION;
	return true;
}

/* ereport(ERROR) calls errstart_cold, or errstart when built without optimisation. */
bool
errstart(int elevel, const char *domain)
{
	return errstart_cold(elevel, domain);
}

int
errcode(int sqlerrcode)
{
	stub_error.sqlerrcode = sqlerrcode;
	return 0;
}

#define SET_TEXT(field) \
	do { \
		va_list		args; \
		va_start(args, fmt); \
		stub_error.field = vformat(fmt, args); \
		va_end(args); \
	} while (0)

int
errmsg(const char *fmt,...)
{
	SET_TEXT(message);
	return 0;
}

int
errmsg_internal(const char *fmt,...)
{
	SET_TEXT(message);
	return 0;
}

int
errdetail(const char *fmt,...)
{
	SET_TEXT(detail);
	return 0;
}

int
errhint(const char *fmt,...)
{
	SET_TEXT(hint);
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	char		state[6];

	stub_error.filename = filename;
	stub_error.lineno = lineno;
	stub_error.funcname = funcname;
	if (error_level < ERROR)
		return;
	if (stub_error.sqlerrcode != ERRCODE_INTERNAL_ERROR && error_level == ERROR &&
		stub_error_jump != NULL)
		siglongjmp(*stub_error_jump, 1);
	stub_sqlstate(stub_error.sqlerrcode, state);
	fprintf(stderr, "internal error %s at %s:%d (%s): %s\n", state, filename, lineno, funcname,
			stub_error.message ? stub_error.message : "(no message)");
	abort();
}

/* ---- interrupts and the stack: nothing to do outside the server ---- */

volatile sig_atomic_t InterruptPending = false;

void
ProcessInterrupts(void)
{
}

void
check_stack_depth(void)
{
}

/* ---- time: the solvers' deadlines ---- */

TimestampTz
GetCurrentTimestamp(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (TimestampTz) (now.tv_sec - (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY) *
		USECS_PER_SEC + now.tv_nsec / 1000;
}

/* ---- text and other varlenas (never toasted here) ---- */

struct varlena *
pg_detoast_datum(struct varlena *datum)
{
	return datum;
}

struct varlena *
pg_detoast_datum_packed(struct varlena *datum)
{
	return datum;
}

char *
text_to_cstring(const text *t)
{
	return pnstrdup(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

text *
cstring_to_text(const char *s)
{
	int			len = strlen(s);
	text	   *t = palloc(VARHDRSZ + len);

	SET_VARSIZE(t, VARHDRSZ + len);
	memcpy(VARDATA(t), s, len);
	return t;
}

/* The server encoding is taken to be UTF-8: clip at a character's start. */
int
pg_mbcliplen(const char *mbstr, int len, int limit)
{
	int			n = strnlen(mbstr, Min(len, limit));

	if (n < len)
		while (n > 0 && (mbstr[n] & 0xC0) == 0x80)
			n--;
	return n;
}

unsigned char
pg_toupper(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') ? ch - 'a' + 'A' : ch;
}

/* ASCII letters folded, as src/port/pgstrcasecmp.c does (core/compact.c compares game names). */
int
pg_strcasecmp(const char *s1, const char *s2)
{
	for (;; s1++, s2++)
	{
		unsigned char c1 = (*s1 >= 'A' && *s1 <= 'Z') ? *s1 - 'A' + 'a' : *s1;
		unsigned char c2 = (*s2 >= 'A' && *s2 <= 'Z') ? *s2 - 'A' + 'a' : *s2;

		if (c1 != c2)
			return (int) c1 - (int) c2;
		if (c1 == 0)
			return 0;
	}
}

Datum
DirectFunctionCall2Coll(PGFunction func, Oid collation, Datum arg1, Datum arg2)
{
	LOCAL_FCINFO(fcinfo, 2);
	Datum		result;

	InitFunctionCallInfoData(*fcinfo, NULL, 2, collation, NULL, NULL);
	fcinfo->args[0].value = arg1;
	fcinfo->args[0].isnull = false;
	fcinfo->args[1].value = arg2;
	fcinfo->args[1].isnull = false;
	result = (*func) (fcinfo);
	if (fcinfo->isnull)
		elog(ERROR, "function %p returned NULL", (void *) func);
	return result;
}

/* ---- numeric ---- */

struct NumericData
{
	int32		vl_len_;		/* a varlena, like PostgreSQL's */
	char		text[FLEXIBLE_ARRAY_MEMBER];	/* -?D+(.D+)?, no leading zeros, no -0 */
};

Numeric
stub_numeric(const char *text)
{
	bool		negative = (*text == '-');
	const char *digits = text + negative;
	Size		size = offsetof(struct NumericData, text) + strlen(text) + 1;
	Numeric		n = palloc(size);
	bool		zero = true;

	SET_VARSIZE(n, size);
	while (digits[0] == '0' && isdigit((unsigned char) digits[1]))
		digits++;
	for (const char *p = digits; *p; p++)
		if (*p >= '1' && *p <= '9')
			zero = false;
	strcpy(n->text, negative && !zero ? "-" : "");
	strcat(n->text, digits);
	return n;
}

Numeric
int64_to_numeric(int64 value)
{
	char		buf[32];

	snprintf(buf, sizeof(buf), INT64_FORMAT, value);
	return stub_numeric(buf);
}

/* Trailing fractional zeros dropped, as PostgreSQL's. */
char *
numeric_normalize(Numeric num)
{
	char	   *out = pstrdup(num->text);
	char	   *end = out + strlen(out);

	if (strchr(out, '.') != NULL)
	{
		while (end[-1] == '0')
			*--end = '\0';
		if (end[-1] == '.')
			*--end = '\0';
	}
	return out;
}

/* Rounds half away from zero, as PostgreSQL's. */
int32
numeric_int4_opt_error(Numeric num, bool *have_error)
{
	const char *p = num->text;
	bool		negative = (*p == '-');
	int64		value = 0;

	p += negative;
	for (int digits = 0; isdigit((unsigned char) *p); p++)
	{
		if (++digits > 11)
		{
			value = PG_INT64_MAX;
			break;
		}
		value = value * 10 + (*p - '0');
	}
	if (value != PG_INT64_MAX && *p == '.' && p[1] >= '5')
		value++;
	if (negative)
		value = -value;
	if (value < PG_INT32_MIN || value > PG_INT32_MAX)
	{
		if (have_error == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("integer out of range")));
		*have_error = true;
		return 0;
	}
	if (have_error != NULL)
		*have_error = false;
	return (int32) value;
}

Datum
numeric_eq(PG_FUNCTION_ARGS)
{
	Numeric		a = (Numeric) DatumGetPointer(PG_GETARG_DATUM(0));
	Numeric		b = (Numeric) DatumGetPointer(PG_GETARG_DATUM(1));

	PG_RETURN_BOOL(strcmp(numeric_normalize(a), numeric_normalize(b)) == 0);
}

/* Linked for gt_encode_role_values, which the harness never calls. */
Numeric
int64_div_fast_to_numeric(int64 val1, int log10val2)
{
	fprintf(stderr, "pg_stubs: int64_div_fast_to_numeric is not expected to be called\n");
	abort();
}

/* ---- jsonb ---- */

/* A container: PostgreSQL's header word, then our elements. */
typedef struct StubJsonb
{
	int32		vl_len_;
	uint32		header;			/* = Jsonb.root.header */
	JsonbValue	elems[FLEXIBLE_ARRAY_MEMBER];
} StubJsonb;

StaticAssertDecl(offsetof(StubJsonb, header) == offsetof(Jsonb, root),
				 "the header word must sit where jsonb.h's macros read it");

#define STUB(container) ((StubJsonb *) ((char *) (container) - offsetof(StubJsonb, header)))
#define NELEMS(container) \
	(JsonContainerSize(container) * (JsonContainerIsObject(container) ? 2 : 1))

static Jsonb *
new_container(uint32 flags, int count, int nelems)
{
	Size		size = offsetof(StubJsonb, elems) + nelems * sizeof(JsonbValue);
	StubJsonb  *s = palloc0(size);

	SET_VARSIZE(s, size);
	s->header = flags | count;
	return (Jsonb *) s;
}

/* An element for a container: nested arrays and objects become jbvBinary. */
static JsonbValue
element(JsonbValue *v)
{
	JsonbValue	e = *v;

	if (v->type == jbvArray || v->type == jbvObject)
	{
		Jsonb	   *nested = JsonbValueToJsonb(v);

		e.type = jbvBinary;
		e.val.binary.data = &nested->root;
		e.val.binary.len = VARSIZE(nested) - VARHDRSZ;
	}
	return e;
}

Jsonb *
JsonbValueToJsonb(JsonbValue *val)
{
	Jsonb	   *jb;

	switch (val->type)
	{
		case jbvArray:
			jb = new_container(JB_FARRAY | (val->val.array.rawScalar ? JB_FSCALAR : 0),
							   val->val.array.nElems, val->val.array.nElems);
			for (int i = 0; i < val->val.array.nElems; i++)
				STUB(&jb->root)->elems[i] = element(&val->val.array.elems[i]);
			return jb;
		case jbvObject:
			jb = new_container(JB_FOBJECT, val->val.object.nPairs, 2 * val->val.object.nPairs);
			for (int i = 0; i < val->val.object.nPairs; i++)
			{
				STUB(&jb->root)->elems[2 * i] = element(&val->val.object.pairs[i].key);
				STUB(&jb->root)->elems[2 * i + 1] = element(&val->val.object.pairs[i].value);
			}
			return jb;
		case jbvBinary:
			{
				JsonbContainer *c = val->val.binary.data;

				jb = new_container(c->header & ~JB_CMASK, JsonContainerSize(c), NELEMS(c));
				memcpy(STUB(&jb->root)->elems, STUB(c)->elems, NELEMS(c) * sizeof(JsonbValue));
				return jb;
			}
		default:
			/* a scalar: a one-element "raw scalar" array, as in PostgreSQL */
			jb = new_container(JB_FARRAY | JB_FSCALAR, 1, 1);
			STUB(&jb->root)->elems[0] = *val;
			return jb;
	}
}

JsonbValue *
getIthJsonbValueFromContainer(JsonbContainer *container, uint32 i)
{
	JsonbValue *v;

	if (!JsonContainerIsArray(container))
		elog(ERROR, "not a jsonb array");
	if (i >= JsonContainerSize(container))
		return NULL;
	v = palloc(sizeof(JsonbValue));
	*v = STUB(container)->elems[i];
	return v;
}

bool
JsonbExtractScalar(JsonbContainer *jbc, JsonbValue *res)
{
	if (!JsonContainerIsArray(jbc) || !JsonContainerIsScalar(jbc))
	{
		res->type = jbvNull;
		return false;
	}
	*res = STUB(jbc)->elems[0];
	return true;
}

/* Only arrays are built: jo_* in jsonfacts.c write nothing else. */
JsonbValue *
pushJsonbValue(JsonbParseState **pstate, JsonbIteratorToken seq, JsonbValue *jbval)
{
	JsonbParseState *ps = *pstate;
	JsonbValue *closed;

	switch (seq)
	{
		case WJB_BEGIN_ARRAY:
			ps = palloc0(sizeof(JsonbParseState));
			ps->contVal.type = jbvArray;
			ps->size = 4;
			ps->contVal.val.array.elems = palloc(ps->size * sizeof(JsonbValue));
			ps->next = *pstate;
			*pstate = ps;
			return &ps->contVal;
		case WJB_ELEM:
			break;
		case WJB_END_ARRAY:
			closed = &ps->contVal;
			*pstate = ps = ps->next;
			if (ps == NULL)
				return closed;
			jbval = closed;
			break;
		default:
			fprintf(stderr, "pg_stubs: pushJsonbValue token %d is not supported\n", (int) seq);
			abort();
	}
	/* append jbval to the open array */
	if (ps->contVal.val.array.nElems == (int) ps->size)
	{
		ps->size *= 2;
		ps->contVal.val.array.elems = repalloc(ps->contVal.val.array.elems,
											   ps->size * sizeof(JsonbValue));
	}
	ps->contVal.val.array.elems[ps->contVal.val.array.nElems++] = *jbval;
	return seq == WJB_END_ARRAY ? jbval : NULL;
}

/* Only equality matters to the extension (== 0); the order is arbitrary. */
static int
compare_values(const JsonbValue *a, const JsonbValue *b)
{
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	switch (a->type)
	{
		case jbvNull:
			return 0;
		case jbvBool:
			return (int) a->val.boolean - (int) b->val.boolean;
		case jbvNumeric:
			return strcmp(numeric_normalize(a->val.numeric), numeric_normalize(b->val.numeric));
		case jbvString:
			if (a->val.string.len != b->val.string.len)
				return a->val.string.len < b->val.string.len ? -1 : 1;
			return memcmp(a->val.string.val, b->val.string.val, a->val.string.len);
		case jbvBinary:
			return compareJsonbContainers(a->val.binary.data, b->val.binary.data);
		default:
			fprintf(stderr, "pg_stubs: cannot compare jsonb values of type %d\n", (int) a->type);
			abort();
	}
}

int
compareJsonbContainers(JsonbContainer *a, JsonbContainer *b)
{
	if (a->header != b->header)
		return a->header < b->header ? -1 : 1;
	for (uint32 i = 0; i < NELEMS(a); i++)
	{
		int			c = compare_values(&STUB(a)->elems[i], &STUB(b)->elems[i]);

		if (c != 0)
			return c;
	}
	return 0;
}

static void
print_value(StringInfo out, const JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoString(out, "null");
			break;
		case jbvBool:
			appendStringInfoString(out, v->val.boolean ? "true" : "false");
			break;
		case jbvNumeric:
			appendStringInfoString(out, v->val.numeric->text);
			break;
		case jbvString:
			appendStringInfoChar(out, '"');
			for (int i = 0; i < v->val.string.len; i++)
			{
				unsigned char c = v->val.string.val[i];

				if (c == '"' || c == '\\')
					appendStringInfo(out, "\\%c", c);
				else if (c < 0x20)
					appendStringInfo(out, "\\u%04x", c);
				else
					appendStringInfoChar(out, c);
			}
			appendStringInfoChar(out, '"');
			break;
		case jbvBinary:
			JsonbToCString(out, v->val.binary.data, v->val.binary.len);
			break;
		default:
			fprintf(stderr, "pg_stubs: cannot print jsonb values of type %d\n", (int) v->type);
			abort();
	}
}

char *
JsonbToCString(StringInfo out, JsonbContainer *in, int estimated_len)
{
	bool		object = JsonContainerIsObject(in);

	if (out == NULL)
	{
		out = palloc(sizeof(StringInfoData));
		initStringInfo(out);
	}
	if (JsonContainerIsScalar(in))
	{
		print_value(out, &STUB(in)->elems[0]);
		return out->data;
	}
	appendStringInfoChar(out, object ? '{' : '[');
	for (uint32 i = 0; i < NELEMS(in); i++)
	{
		if (i > 0)
			appendStringInfoString(out, object && i % 2 ? ": " : ", ");
		print_value(out, &STUB(in)->elems[i]);
	}
	appendStringInfoChar(out, object ? '}' : ']');
	return out->data;
}
