/*
 * remote.c: statements on other servers through dblink (remote.h).
 *
 * dblink is reached through SQL (it keeps its connections in its own
 * library), except when an error or a cancel ends the wait for remote
 * statements: then the links still running are cancelled and closed by
 * calling dblink's functions directly, since no statement can run in a
 * transaction that is failing.  A remote statement left running would go
 * on holding what it locked on that server.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "parser/parse_func.h"
#include "pg/remote.h"
#include "pg/spi.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/wait_event.h"

/*
 * How often a wait looks at the links: after 0.1 ms, then twice as long
 * each time up to 5 ms, so that the many short statements of a job (a
 * count, a COMMIT) are seen done at once and a long one costs few looks.
 */
#define POLL_FIRST_US 100
#define POLL_MAX_US 5000

/*
 * Settings of each remote session: gametree's calls name everything
 * qualified; notices stay in that server's log; a session whose
 * coordinator is gone stops within a second.
 */
#define REMOTE_SESSION_SETTINGS \
	"SET search_path = pg_catalog, pg_temp; SET client_min_messages = warning; " \
	"SET client_connection_check_interval = 1000"

/* dblink's schema; ereports when it is not installed. */
static const char *
dblink_schema_name(void)
{
	char	   *schema = NULL;

	spi_run("SELECT n.nspname FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n "
			"ON n.oid = e.extnamespace WHERE e.extname = 'dblink'", 0, NULL, NULL, SPI_OK_SELECT);
	if (SPI_processed > 0)
		schema = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	SPI_freetuptable(SPI_tuptable);
	if (schema == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("sharded trees need the extension dblink on the coordinator"),
				 errhint("CREATE EXTENSION dblink; (it comes with PostgreSQL's contrib).")));
	return schema;
}

/* Reports an error of a remote call as the link's, with its code, detail and hint. */
static void
rethrow_as_link(RemoteLink *link, MemoryContext cxt)
{
	ErrorData  *error;

	MemoryContextSwitchTo(cxt);
	error = CopyErrorData();
	FlushErrorState();

	/*
	 * The link is closed, whatever went wrong: a connection the server
	 * dropped would otherwise stay in dblink's list and fail the next call
	 * too, and a statement interrupted here may still run there.
	 */
	link->busy = true;
	remote_abandon(link, 1);
	/* A cancel of this session is the caller's, not the server's. */
	if (error->sqlerrcode == ERRCODE_QUERY_CANCELED || error->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
		ReThrowError(error);
	ereport(ERROR,
			(errcode(error->sqlerrcode),
			 errmsg("%s: %s", link->label, error->message),
			 error->detail ? errdetail_internal("%s", error->detail) : 0,
			 error->hint ? errhint("%s", error->hint) : 0));
}

/* Runs a statement of dblink's through SPI; its errors are the link's. */
static void
link_run(RemoteLink *link, const char *sql, int nargs, Oid *types, Datum *values, int expected)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		spi_run(sql, nargs, types, values, expected);
	}
	PG_CATCH();
	{
		rethrow_as_link(link, cxt);
	}
	PG_END_TRY();
}

static bool
link_is_busy(RemoteLink *link)
{
	bool		busy;

	link_run(link, psprintf("SELECT %s.dblink_is_busy($1) <> 0", link->dblink), 1,
			 (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(link->name)}, SPI_OK_SELECT);
	busy = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &(bool) {0}));
	SPI_freetuptable(SPI_tuptable);
	return busy;
}

/* Calls one of dblink's functions of one text argument directly; ignores its errors. */
static void
call_quietly(const char *schema, const char *function, const char *name)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		Oid			fn = LookupFuncName(list_make2(makeString(pstrdup(schema)), makeString(pstrdup(function))),
										1, (Oid[]) {TEXTOID}, false);

		(void) OidFunctionCall1(fn, CStringGetTextDatum(name));
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
	}
	PG_END_TRY();
}

/* Without SQL: the caller's transaction may be failing. */
void
remote_abandon(RemoteLink *links, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (links[i].name == NULL)
			continue;
		if (links[i].busy)
			call_quietly(links[i].dblink_schema, "dblink_cancel_query", links[i].name);
		call_quietly(links[i].dblink_schema, "dblink_disconnect", links[i].name);
		links[i].busy = false;
	}
}

void
remote_fail(RemoteLink *links, RemoteLink *more, int n, MemoryContext cxt)
{
	ErrorData  *error;

	MemoryContextSwitchTo(cxt);
	error = CopyErrorData();
	FlushErrorState();
	remote_abandon(links, n);
	if (more != NULL)
		remote_abandon(more, n);
	ReThrowError(error);
}

void
remote_open(RemoteLink *link, const char *server, const char *purpose, const char *label)
{
	bool		open;

	link->dblink_schema = dblink_schema_name();
	link->dblink = quote_identifier(link->dblink_schema);
	link->server = server;
	link->label = label;
	/* Per role: a connection opened with one role's user mapping must not serve another. */
	link->name = psprintf("gametree:%u:%s:%s", GetUserId(), purpose, server);
	link->busy = false;
	link_run(link, psprintf("SELECT $1 = ANY (%s.dblink_get_connections())", link->dblink), 1,
			 (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(link->name)}, SPI_OK_SELECT);
	open = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &(bool) {0}));
	SPI_freetuptable(SPI_tuptable);
	/* One left running by a call that failed is cancelled and opened again. */
	if (open && link_is_busy(link))
	{
		link->busy = true;
		remote_abandon(link, 1);
		open = false;
	}
	if (open)
		return;
	if (!OidIsValid(get_foreign_server_oid(server, true)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("%s: foreign server \"%s\" does not exist", label, server),
				 errhint("CREATE SERVER %s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...);",
						 quote_identifier(server))));
	link_run(link, psprintf("SELECT %s.dblink_connect($1, $2)", link->dblink), 2, (Oid[]) {TEXTOID, TEXTOID},
			 (Datum[]) {CStringGetTextDatum(link->name), CStringGetTextDatum(server)}, SPI_OK_SELECT);
	remote_exec(link, REMOTE_SESSION_SETTINGS);
}

/*
 * dblink_send_query reports a statement it could not send (a server gone)
 * with a NOTICE and 0, after which dblink_get_result finds no result and
 * no error: taken for done, a batch of states shipped there would be lost
 * once its senders commit their marks.  So 0 is this link's error.
 */
void
remote_send(RemoteLink *link, const char *sql)
{
	bool		sent;

	link_run(link, psprintf("SELECT %s.dblink_send_query($1, $2) = 1", link->dblink), 2,
			 (Oid[]) {TEXTOID, TEXTOID},
			 (Datum[]) {CStringGetTextDatum(link->name), CStringGetTextDatum(sql)}, SPI_OK_SELECT);
	sent = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &(bool) {0}));
	SPI_freetuptable(SPI_tuptable);
	link->busy = sent;
	if (!sent)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("%s: could not send a statement", link->label),
				 errdetail("The connection to the server was lost."),
				 errhint("Once the server is back, the same call finishes what this one began.")));
}

/*
 * The rows of the statement sent, once it is done (dblink reports its
 * error here), then the empty result that ends it, after which the link
 * takes another statement.
 */
static SPITupleTable *
collect(RemoteLink *link, const char *columns)
{
	const char *sql = psprintf("SELECT * FROM %s.dblink_get_result($1) AS r(%s)", link->dblink, columns);
	SPITupleTable *rows;

	link_run(link, sql, 1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(link->name)}, SPI_OK_SELECT);
	rows = SPI_tuptable;
	do
		link_run(link, sql, 1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(link->name)}, SPI_OK_SELECT);
	while (SPI_processed > 0);
	link->busy = false;
	return rows;
}

void
remote_wait(RemoteLink *links, int n, const char *columns, SPITupleTable **results)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		long		poll_us = POLL_FIRST_US;

		for (;;)
		{
			int			running = 0;

			CHECK_FOR_INTERRUPTS();
			for (int i = 0; i < n; i++)
				if (links[i].busy && link_is_busy(&links[i]))
					running++;
			if (running == 0)
				break;
			/* A latch waits whole milliseconds: shorter waits sleep (and end in CHECK_FOR_INTERRUPTS). */
			if (poll_us < 1000)
				pg_usleep(poll_us);
			else
			{
				(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, poll_us / 1000,
								 PG_WAIT_EXTENSION);
				ResetLatch(MyLatch);
			}
			poll_us = Min(2 * poll_us, POLL_MAX_US);
		}
		for (int i = 0; i < n; i++)
			if (links[i].busy)
			{
				SPITupleTable *rows = collect(&links[i], columns);

				if (results != NULL)
					results[i] = rows;
				else
					SPI_freetuptable(rows);
			}
	}
	PG_CATCH();
	{
		remote_fail(links, NULL, n, cxt);
	}
	PG_END_TRY();
}

uint64
remote_query(RemoteLink *link, const char *sql, const char *columns)
{
	link_run(link, psprintf("SELECT * FROM %s.dblink($1, $2) AS r(%s)", link->dblink, columns), 2,
			 (Oid[]) {TEXTOID, TEXTOID},
			 (Datum[]) {CStringGetTextDatum(link->name), CStringGetTextDatum(sql)}, SPI_OK_SELECT);
	return SPI_processed;
}

void
remote_exec(RemoteLink *link, const char *sql)
{
	link_run(link, psprintf("SELECT %s.dblink_exec($1, $2)", link->dblink), 2,
			 (Oid[]) {TEXTOID, TEXTOID},
			 (Datum[]) {CStringGetTextDatum(link->name), CStringGetTextDatum(sql)}, SPI_OK_SELECT);
	SPI_freetuptable(SPI_tuptable);
}
