/*
 * pg_stubs.h: what the fuzz harness needs from pg_stubs.c, the stand-in for
 * the PostgreSQL backend functions that the extension's decoders call.
 */
#ifndef GAMETREE_PG_STUBS_H
#define GAMETREE_PG_STUBS_H

#include "postgres.h"

#include <setjmp.h>

#include "utils/numeric.h"

/*
 * port.h sends the printf family to PostgreSQL's own snprintf.c, which is
 * not linked here: use the C library's.
 */
#undef vsnprintf
#undef snprintf
#undef fprintf
#undef printf

/* The last ERROR reported (valid until stub_reset). */
typedef struct StubError
{
	int			sqlerrcode;		/* MAKE_SQLSTATE code */
	const char *message;
	const char *detail;
	const char *hint;
	const char *filename;
	int			lineno;
	const char *funcname;
} StubError;

extern StubError stub_error;

/*
 * Where an ERROR longjmps to.  An error without one, or with SQLSTATE
 * XX000 (elog(ERROR), or ereport(ERROR) without errcode), aborts.
 */
extern sigjmp_buf *stub_error_jump;

/* The five characters of a SQLSTATE code, into buf[6]. */
extern void stub_sqlstate(int sqlerrcode, char *buf);

/* Frees all that palloc gave since the last call (TopMemoryContext aside). */
extern void stub_reset(void);

/* A numeric from decimal text: -?[0-9]+(.[0-9]+)? */
extern Numeric stub_numeric(const char *text);

#endif
