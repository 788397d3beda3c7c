/*
 * query.c: running statements.
 *
 * Parameters always travel separately from the SQL (PQsendQueryParams), so
 * no user input is ever pasted into a statement.  The client waits on the
 * socket itself instead of in PQexec: Ctrl-C interrupts the wait, and the
 * statement is cancelled on the server.  Otherwise a search or a grow would
 * run on after the client had gone.
 */
#include "query.h"

#include <errno.h>
#include <string.h>
#include <sys/select.h>

#include "interrupt.h"
#include "report.h"

/*
 * Waits until the socket is ready for the events (WAIT_READ, WAIT_WRITE),
 * at most the given seconds (negative: no limit).  Returns 1 when ready, 0
 * on time out and -1 when a signal came first.
 */
int
wait_socket(int sock, int events, double seconds)
{
	fd_set		readable,
				writable;
	struct timeval tv;
	int			rc;

	if (sock < 0)
		return 1;				/* no connection: libpq's next call reports it */
	FD_ZERO(&readable);
	FD_ZERO(&writable);
	if (events & WAIT_READ)
		FD_SET(sock, &readable);
	if (events & WAIT_WRITE)
		FD_SET(sock, &writable);
	tv.tv_sec = (long) seconds;
	tv.tv_usec = (long) ((seconds - (double) tv.tv_sec) * 1e6);
	rc = select(sock + 1, &readable, &writable, NULL, seconds < 0 ? NULL : &tv);
	if (rc < 0 && errno != EINTR)
		return 1;				/* a broken socket: libpq's next call reports it */
	return rc < 0 ? -1 : rc > 0;
}

/* Sends a statement in non-blocking mode and pushes it out to the server. */
bool
query_send(PGconn *conn, const char *sql, int nparams, const char *const *params)
{
	int			pending;

	if (PQsetnonblocking(conn, 1) != 0 ||
		!PQsendQueryParams(conn, sql, nparams, NULL, params, NULL, NULL, 0))
		return false;
	while ((pending = PQflush(conn)) == 1)
	{
		/* the server may be writing to us as well: read, so that neither side stalls */
		if (wait_socket(PQsocket(conn), WAIT_READ | WAIT_WRITE, -1) > 0 && !PQconsumeInput(conn))
			return false;
	}
	return pending == 0;
}

void
query_cancel(PGcancel *cancel)
{
	char		errbuf[256];

	if (cancel && !PQcancel(cancel, errbuf, sizeof errbuf))
		report("could not send the cancel request: %s", errbuf);
}

bool
result_ok(const PGresult *res)
{
	ExecStatusType status = PQresultStatus(res);

	return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
}

bool
result_cancelled(const PGresult *res)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	return sqlstate && strcmp(sqlstate, "57014") == 0;
}

/* The next result, waiting for it; Ctrl-C sends one cancel request. */
static PGresult *
next_result(PGconn *conn, PGcancel *cancel, bool *cancelled)
{
	while (PQisBusy(conn))
	{
		if (interrupted() && !*cancelled)
		{
			query_cancel(cancel);
			*cancelled = true;
		}
		if (wait_socket(PQsocket(conn), WAIT_READ, -1) > 0 && !PQconsumeInput(conn))
			break;				/* the connection is lost: PQgetResult says so */
	}
	return PQgetResult(conn);
}

/*
 * Runs one statement; returns its result.  When the server answers with an
 * error and error is not NULL, that result is handed back in *error, not
 * reported; every other failure (the connection, a cancel) is reported.
 * NULL on any failure.
 */
PGresult *
db_query_try(PGconn *conn, const char *sql, int nparams, const char *const *params, PGresult **error)
{
	PGcancel   *cancel = PQgetCancel(conn);
	bool		cancelled = false;
	PGresult   *res;
	PGresult   *kept = NULL;
	bool		failed = false;

	if (error)
		*error = NULL;
	if (!query_send(conn, sql, nparams, params))
	{
		report_conn(conn);
		PQfreeCancel(cancel);
		return NULL;
	}
	while ((res = next_result(conn, cancel, &cancelled)) != NULL)
	{
		if (failed || kept)
			PQclear(res);		/* one statement: nothing more is expected */
		else if (result_ok(res))
			kept = res;
		else
		{
			if (cancelled && result_cancelled(res))
				report("cancelled");
			else if (error && PQresultErrorField(res, PG_DIAG_SQLSTATE))
			{
				*error = res;
				res = NULL;
			}
			else
				report_result(res);
			PQclear(res);
			failed = true;
		}
	}
	PQfreeCancel(cancel);
	return kept;
}

/*
 * Runs one statement; returns its result, or NULL after reporting the
 * error (or the cancel).
 */
PGresult *
db_query(PGconn *conn, const char *sql, int nparams, const char *const *params)
{
	return db_query_try(conn, sql, nparams, params, NULL);
}
