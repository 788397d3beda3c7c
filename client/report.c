/*
 * report.c: errors as one line each, so that they read well in scripts and
 * logs.  The server's errors keep their SQLSTATE ("gametree: ERROR 22023:
 * unknown game ..."), which is what a script can test for.
 */
#include "report.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

void
report(const char *fmt,...)
{
	va_list		ap;

	fputs("gametree: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* libpq's own messages span lines ("...failed: ...\n\tIs the server running..."): join them. */
static void
report_flat(const char *message)
{
	const char *p = message;
	int			gap = 0;

	fputs("gametree: ", stderr);
	while (isspace((unsigned char) *p))
		p++;
	for (; *p; p++)
	{
		if (isspace((unsigned char) *p))
		{
			gap = 1;
			continue;
		}
		if (gap)
			fputc(' ', stderr);
		gap = 0;
		fputc(*p, stderr);
	}
	fputc('\n', stderr);
}

void
report_result(const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (severity && sqlstate && message)
		report("%s %s: %s", severity, sqlstate, message);
	else
		report_flat(res ? PQresultErrorMessage(res) : "no result from the server");
}

void
report_conn(const PGconn *conn)
{
	report_flat(PQerrorMessage(conn));
}
