/*
 * remote.c: statements on other servers through libpq (remote.h).
 *
 * The connections live for the session, in TopMemoryContext, keyed by the
 * role, the server and the purpose.  A connection that a failed call left
 * in a transaction or running, or whose server or user mapping changed
 * since, is closed and opened again when next opened.  An error or a
 * cancel while statements run closes their connections: the remote
 * sessions roll back what they did uncommitted, and a statement left
 * running would go on holding what it locked on that server.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "libpq-fe.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pg/packed_rows.h"
#include "pg/remote.h"
#include "port/pg_bswap.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/wait_event.h"

/*
 * Settings of each remote session: gametree's calls name everything
 * qualified; notices stay in that server's log; a session whose
 * coordinator is gone stops within a second.
 */
#define REMOTE_SESSION_SETTINGS \
	"SET search_path = pg_catalog, pg_temp; SET client_min_messages = warning; " \
	"SET client_connection_check_interval = 1000"

struct RemoteConnection
{
	Oid			user;
	char	   *server;
	char	   *purpose;
	PGconn	   *conn;			/* NULL: closed */
	bool		stale;			/* a server or user mapping changed since it opened */
};

struct RemoteResult
{
	PGresult   *rows;			/* NULL once freed */
	const char *label;			/* of the link it came from, for messages */
	MemoryContextCallback free_with_context;
};

static RemoteConnection **connections;
static int	nconnections;
static int	maxconnections;

/* Options may have changed: what opens next connects anew. */
static void
mark_stale(Datum arg, int cacheid, uint32 hashvalue)
{
	for (int i = 0; i < nconnections; i++)
		connections[i]->stale = true;
}

/* The session's connection for the role, server and purpose, made when there is none. */
static RemoteConnection *
connection_for(const char *server, const char *purpose)
{
	RemoteConnection *c;

	for (int i = 0; i < nconnections; i++)
	{
		c = connections[i];
		if (c->user == GetUserId() && strcmp(c->server, server) == 0 && strcmp(c->purpose, purpose) == 0)
			return c;
	}
	if (connections == NULL)
	{
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, mark_stale, (Datum) 0);
		CacheRegisterSyscacheCallback(USERMAPPINGOID, mark_stale, (Datum) 0);
	}
	if (nconnections == maxconnections)
	{
		maxconnections = Max(8, 2 * maxconnections);
		connections = connections == NULL ?
			MemoryContextAlloc(TopMemoryContext, maxconnections * sizeof(RemoteConnection *)) :
			repalloc(connections, maxconnections * sizeof(RemoteConnection *));
	}
	c = MemoryContextAllocZero(TopMemoryContext, sizeof(RemoteConnection));
	c->user = GetUserId();
	c->server = MemoryContextStrdup(TopMemoryContext, server);
	c->purpose = MemoryContextStrdup(TopMemoryContext, purpose);
	connections[nconnections++] = c;
	return c;
}

/* Cancels what runs there, then closes it; never errors (the caller's transaction may be failing). */
static void
close_connection(RemoteConnection *c, bool running)
{
	if (c->conn == NULL)
		return;
	if (running)
	{
		PGcancel   *cancel = PQgetCancel(c->conn);
		char		why[256];

		if (cancel != NULL)
		{
			(void) PQcancel(cancel, why, sizeof(why));
			PQfreeCancel(cancel);
		}
	}
	PQfinish(c->conn);
	c->conn = NULL;
}

/*
 * Cancels what runs on the links and closes them, so that what their
 * sessions did in a transaction not committed is rolled back.
 */
static void
remote_abandon(RemoteLink *links, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (links[i].connection != NULL)
			close_connection(links[i].connection, links[i].busy);
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

/* A message of libpq's without its last newline. */
static char *
libpq_message(const char *message)
{
	char	   *copy = pstrdup(message != NULL ? message : "");
	size_t		len = strlen(copy);

	while (len > 0 && copy[len - 1] == '\n')
		copy[--len] = '\0';
	return copy;
}

/*
 * Reports the error of a statement on the link (rows: its result, NULL
 * when the connection failed), with the remote code, detail and hint,
 * after closing the link.
 */
static void
link_error(RemoteLink *link, PGresult *rows, const char *what) pg_attribute_noreturn();

static void
link_error(RemoteLink *link, PGresult *rows, const char *what)
{
	const char *sqlstate = rows != NULL ? PQresultErrorField(rows, PG_DIAG_SQLSTATE) : NULL;
	const char *primary = rows != NULL ? PQresultErrorField(rows, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char	   *message = libpq_message(primary != NULL ? primary : PQerrorMessage(link->connection->conn));
	char	   *detail = rows != NULL && PQresultErrorField(rows, PG_DIAG_MESSAGE_DETAIL) != NULL ?
		pstrdup(PQresultErrorField(rows, PG_DIAG_MESSAGE_DETAIL)) : NULL;
	char	   *hint = rows != NULL && PQresultErrorField(rows, PG_DIAG_MESSAGE_HINT) != NULL ?
		pstrdup(PQresultErrorField(rows, PG_DIAG_MESSAGE_HINT)) : NULL;
	int			code = ERRCODE_CONNECTION_FAILURE;

	if (sqlstate != NULL && strlen(sqlstate) == 5)
		code = MAKE_SQLSTATE(sqlstate[0], sqlstate[1], sqlstate[2], sqlstate[3], sqlstate[4]);
	PQclear(rows);
	/* The statement is over (or the connection is): nothing to cancel. */
	link->busy = false;
	remote_abandon(link, 1);
	if (what != NULL)
		ereport(ERROR,
				(errcode(code),
				 errmsg("%s: %s", link->label, what),
				 errdetail_internal("%s", message),
				 errhint("Once the server is back, the same call finishes what this one began.")));
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s: %s", link->label, message),
			 detail != NULL ? errdetail_internal("%s", detail) : 0,
			 hint != NULL ? errhint("%s", hint) : 0));
}

/*
 * The connection's keywords and values: the foreign server's options and
 * the user mapping's that libpq knows, then gametree's name and the
 * database's encoding.  *password_required: postgres_fdw's option of the
 * mapping (only a superuser may set it false).
 */
static void
connection_options(ForeignServer *server, UserMapping *mapping, const char ***keywords, const char ***values,
				   bool *password_required, bool *has_password)
{
	PQconninfoOption *known = PQconndefaults();
	List	   *options = list_concat(list_copy(server->options), mapping->options);
	int			n = 0;
	ListCell   *lc;

	if (known == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("libpq could not list its connection options.")));
	*keywords = palloc((list_length(options) + 3) * sizeof(char *));
	*values = palloc((list_length(options) + 3) * sizeof(char *));
	*password_required = true;
	*has_password = false;
	foreach(lc, options)
	{
		DefElem    *option = lfirst(lc);

		if (strcmp(option->defname, "password_required") == 0)
			*password_required = defGetBoolean(option);
		/* What gametree sets, and libpq's options for debugging, are not taken. */
		if (strcmp(option->defname, "fallback_application_name") == 0 ||
			strcmp(option->defname, "client_encoding") == 0)
			continue;
		for (PQconninfoOption *k = known; k->keyword != NULL; k++)
			if (strcmp(k->keyword, option->defname) == 0 && strchr(k->dispchar, 'D') == NULL)
			{
				(*keywords)[n] = option->defname;
				(*values)[n++] = defGetString(option);
				if (strcmp(option->defname, "password") == 0)
					*has_password = true;
			}
	}
	PQconninfoFree(known);
	(*keywords)[n] = "fallback_application_name";
	(*values)[n++] = "gametree";
	(*keywords)[n] = "client_encoding";
	(*values)[n++] = GetDatabaseEncodingName();
	(*keywords)[n] = NULL;
	(*values)[n] = NULL;
}

/*
 * Connects as the role's user mapping says.  A role that is not a
 * superuser must give a password, and the server must have asked for it:
 * else the connection would run as the coordinator's OS user, with what
 * that user may reach without a password (postgres_fdw and dblink refuse
 * alike).
 */
static void
connect_link(RemoteLink *link)
{
	ForeignServer *server = GetForeignServerByName(link->server, true);
	UserMapping *mapping;
	const char **keywords,
			  **values;
	bool		password_required,
				has_password;
	bool		superuser = superuser_arg(GetUserId());
	MemoryContext cxt = CurrentMemoryContext;
	PGconn	   *conn;
	PGresult   *set;

	if (server == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("%s: foreign server \"%s\" does not exist", link->label, link->server),
				 errhint("CREATE SERVER %s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., dbname ...);",
						 quote_identifier(link->server))));
	PG_TRY();
	{
		mapping = GetUserMapping(GetUserId(), server->serverid);
	}
	PG_CATCH();
	{
		ErrorData  *error;

		MemoryContextSwitchTo(cxt);
		error = CopyErrorData();
		FlushErrorState();
		ereport(ERROR,
				(errcode(error->sqlerrcode),
				 errmsg("%s: %s", link->label, error->message),
				 errhint("CREATE USER MAPPING FOR CURRENT_USER SERVER %s OPTIONS (user '...', password '...');",
						 quote_identifier(link->server))));
	}
	PG_END_TRY();
	connection_options(server, mapping, &keywords, &values, &password_required, &has_password);
	if (!superuser && password_required && !has_password)
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("%s: password is required", link->label),
				 errdetail("Non-superusers must give a password in their user mapping.")));
	conn = PQconnectdbParams(keywords, values, false);
	if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
	{
		char	   *why = libpq_message(conn != NULL ? PQerrorMessage(conn) : "out of memory");

		PQfinish(conn);
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("%s: could not establish connection", link->label),
				 errdetail_internal("%s", why),
				 errhint("Once the server is back, the same call finishes what this one began.")));
	}
	if (!superuser && password_required && !PQconnectionUsedPassword(conn))
	{
		PQfinish(conn);
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("%s: password is required", link->label),
				 errdetail("Non-superuser cannot connect if the server does not request a password."),
				 errhint("The server's authentication method must ask for it (scram-sha-256 in pg_hba.conf).")));
	}
	link->connection->conn = conn;
	link->connection->stale = false;
	set = PQexec(conn, REMOTE_SESSION_SETTINGS);
	if (PQresultStatus(set) != PGRES_COMMAND_OK)
		link_error(link, set, NULL);
	PQclear(set);
}

void
remote_open(RemoteLink *link, const char *server, const char *purpose, const char *label)
{
	RemoteConnection *c = connection_for(server, purpose);

	link->server = server;
	link->label = label;
	link->connection = c;
	link->busy = false;
	/* One a failed call left in a transaction or running, or stale, is opened again. */
	if (c->conn != NULL && (c->stale || PQstatus(c->conn) != CONNECTION_OK ||
							PQtransactionStatus(c->conn) != PQTRANS_IDLE))
		close_connection(c, PQtransactionStatus(c->conn) == PQTRANS_ACTIVE);
	if (c->conn == NULL)
		connect_link(link);
}

void
remote_send(RemoteLink *link, const char *sql, const char *bytes, int len)
{
	Oid			type = BYTEAOID;
	int			format = 1;

	/* Every row comes back binary (resultFormat 1): remote_value reads it. */
	if (!PQsendQueryParams(link->connection->conn, sql, bytes != NULL ? 1 : 0, &type, &bytes, &len, &format, 1))
		link_error(link, NULL, "could not send a statement");
	link->busy = true;
}

/* Frees the rows of a result with the memory context it was received in. */
static void
free_rows(void *arg)
{
	RemoteResult *result = arg;

	PQclear(result->rows);
	result->rows = NULL;
}

void
remote_free(RemoteResult *result)
{
	free_rows(result);
}

/*
 * The result of the statement that ended on the link, once libpq holds it
 * whole; then the end of the statement, after which the link takes
 * another.  Errors are the link's.
 */
static RemoteResult *
collect(RemoteLink *link)
{
	PGconn	   *conn = link->connection->conn;
	PGresult   *rows = PQgetResult(conn);
	PGresult   *more;
	RemoteResult *result;

	if (rows == NULL)
		link_error(link, NULL, "the connection ended a statement without a result");
	if (PQresultStatus(rows) != PGRES_TUPLES_OK && PQresultStatus(rows) != PGRES_COMMAND_OK)
		link_error(link, rows, NULL);
	while ((more = PQgetResult(conn)) != NULL)
	{
		if (PQresultStatus(more) == PGRES_FATAL_ERROR)
		{
			PQclear(rows);
			link_error(link, more, NULL);
		}
		PQclear(more);
	}
	link->busy = false;
	result = palloc(sizeof(RemoteResult));
	result->rows = rows;
	result->label = link->label;
	result->free_with_context.func = free_rows;
	result->free_with_context.arg = result;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &result->free_with_context);
	return result;
}

/* Sleeps until a busy link has something to read, the latch is set or a cancel comes. */
static void
wait_for_links(RemoteLink *links, int n)
{
	WaitEventSet *set = CreateWaitEventSet(CurrentMemoryContext, n + 2);
	WaitEvent	event;

	AddWaitEventToSet(set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	for (int i = 0; i < n; i++)
		if (links[i].busy)
			AddWaitEventToSet(set, WL_SOCKET_READABLE, PQsocket(links[i].connection->conn), NULL, NULL);
	(void) WaitEventSetWait(set, -1, &event, 1, PG_WAIT_EXTENSION);
	FreeWaitEventSet(set);
	ResetLatch(MyLatch);
}

/* The index of a busy link whose statement ended, or -1 when none has yet (or none is busy: *running). */
static int
ended(RemoteLink *links, int n, bool *running)
{
	*running = false;
	for (int i = 0; i < n; i++)
	{
		if (!links[i].busy)
			continue;
		if (!PQconsumeInput(links[i].connection->conn))
			link_error(&links[i], NULL, "the connection was lost");
		if (!PQisBusy(links[i].connection->conn))
			return i;
		*running = true;
	}
	return -1;
}

int
remote_wait_any(RemoteLink *links, int n, RemoteResult **result)
{
	MemoryContext cxt = CurrentMemoryContext;
	int			done = -1;

	PG_TRY();
	{
		for (;;)
		{
			bool		running;

			CHECK_FOR_INTERRUPTS();
			done = ended(links, n, &running);
			if (done >= 0 || !running)
				break;
			wait_for_links(links, n);
		}
		if (done >= 0)
		{
			RemoteResult *rows = collect(&links[done]);

			if (result != NULL)
				*result = rows;
			else
				remote_free(rows);
		}
	}
	PG_CATCH();
	{
		remote_fail(links, NULL, n, cxt);
	}
	PG_END_TRY();
	return done;
}

void
remote_wait(RemoteLink *links, int n, RemoteResult **results)
{
	RemoteResult *rows;
	int			i;

	while ((i = remote_wait_any(links, n, &rows)) >= 0)
	{
		if (results != NULL)
			results[i] = rows;
		else
			remote_free(rows);
	}
}

RemoteResult *
remote_query(RemoteLink *link, const char *sql)
{
	RemoteResult *rows = NULL;

	remote_send(link, sql, NULL, 0);
	remote_wait(link, 1, &rows);
	return rows;
}

int
remote_rows(const RemoteResult *result)
{
	return PQntuples(result->rows);
}

Datum
remote_value(const RemoteResult *result, int row, int column, Oid type, bool *isnull)
{
	ValueReceiver receiver;
	bool		whole;
	Datum		value;

	if (column >= PQnfields(result->rows) || PQftype(result->rows, column) != type)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: column %d of what the server answered is not of type %s", result->label,
						column + 1, format_type_be(type)),
				 errdetail("It is of type OID %u there.",
						   column < PQnfields(result->rows) ? PQftype(result->rows, column) : InvalidOid),
				 errhint("The server runs gametree of the same version as this one.")));
	*isnull = PQgetisnull(result->rows, row, column);
	if (*isnull)
		return (Datum) 0;
	value_receiver_init(&receiver, type, -1);
	value = value_receive(&receiver, PQgetvalue(result->rows, row, column),
						  PQgetlength(result->rows, row, column), &whole);
	MemoryContextDelete(receiver.scratch);
	if (!whole)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("%s: a value of type %s with bytes after it", result->label, format_type_be(type))));
	return value;
}

int64
remote_int8(const RemoteResult *result, int row, int column)
{
	bool		isnull;
	Oid			type = column < PQnfields(result->rows) && PQftype(result->rows, column) == INT4OID ?
		INT4OID : INT8OID;
	Datum		value = remote_value(result, row, column, type, &isnull);

	if (isnull)
		return 0;
	return type == INT4OID ? DatumGetInt32(value) : DatumGetInt64(value);
}

const char *
remote_bytes(const RemoteResult *result, int row, int column, int *len)
{
	if (column >= PQnfields(result->rows) || PQftype(result->rows, column) != BYTEAOID)
		(void) remote_value(result, row, column, BYTEAOID, &(bool) {0});
	*len = PQgetlength(result->rows, row, column);
	return PQgetvalue(result->rows, row, column);
}
