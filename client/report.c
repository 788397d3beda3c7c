/*
 * report.c: errors as one line each (libpq's connection messages aside,
 * which keep their lines), so that they read well in scripts and logs.  The server's errors keep their SQLSTATE ("gametree: ERROR 22023:
 * unknown game ..."), which is what a script can test for, and are followed
 * by the server's DETAIL and HINT lines when it sent them, written as psql
 * writes them ("HINT:  The games are ..."): they say what would be right.
 */
#include "report.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/*
 * libpq's own messages span lines ("...failed: No such file or directory\n
 * \tIs the server running..."): they are kept as libpq writes them, as psql
 * shows them, the blanks around them trimmed.
 */
static void
report_lines(const char *message)
{
	const char *start = message;
	const char *end = message + strlen(message);

	while (isspace((unsigned char) *start))
		start++;
	while (end > start && isspace((unsigned char) end[-1]))
		end--;
	fprintf(stderr, "gametree: %.*s\n", (int) (end - start), start);
}

void
report_result(const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (severity && sqlstate && message)
	{
		const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
		const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);

		report("%s %s: %s", severity, sqlstate, message);
		if (detail)
			fprintf(stderr, "DETAIL:  %s\n", detail);
		if (hint)
			fprintf(stderr, "HINT:  %s\n", hint);
	}
	else
		report_lines(res ? PQresultErrorMessage(res) : "no result from the server");
}

void
report_conn(const PGconn *conn)
{
	report_lines(PQerrorMessage(conn));
}
