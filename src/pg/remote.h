/*
 * remote.h: statements run on other PostgreSQL servers through the
 * extension dblink (remote.c), with connections opened from foreign
 * servers and the caller's user mappings, so that no connection string or
 * password passes through gametree.  Each link is a dblink connection
 * named after the role and the server, kept for the session and opened
 * again when the role changes; every error it gives names the server.
 * Callers are connected to SPI with search_path pinned.
 */
#ifndef GAMETREE_PG_REMOTE_H
#define GAMETREE_PG_REMOTE_H

#include "executor/spi.h"

typedef struct RemoteLink
{
	const char *server;			/* the foreign server */
	const char *label;			/* how messages name it, e.g. node 2 (server "node2") */
	char	   *name;			/* of the dblink connection */
	const char *dblink;			/* dblink's schema, quoted */
	const char *dblink_schema;	/* unquoted, for calls without SQL */
	bool		busy;			/* a statement sent is running */
} RemoteLink;

/*
 * Opens the link (or reuses the session's) to the server for a purpose (a
 * session may keep several links to a server: one per purpose), with
 * search_path pinned in the remote session and its notices kept there.
 * Ereports, naming the server, when dblink is not installed, the server or
 * the user mapping is missing, or the server cannot be reached.
 */
extern void remote_open(RemoteLink *link, const char *server, const char *purpose, const char *label);

/* Sends a statement to run without waiting (CALL of a procedure that commits, for one). */
extern void remote_send(RemoteLink *link, const char *sql);

/*
 * Waits for the statements sent on the links and collects their rows,
 * typed by columns, in results[i] (results may be NULL: no rows expected;
 * a CALL answers with its status, "status text").  An error on one link
 * is reported naming its server, and the other links are abandoned; so
 * they are when the caller is cancelled while it waits.
 */
extern void remote_wait(RemoteLink *links, int n, const char *columns, SPITupleTable **results);

/*
 * Cancels what runs on the links and closes them, so that what their
 * sessions did in a transaction not committed is rolled back.
 */
extern void remote_abandon(RemoteLink *links, int n);

/*
 * For a PG_CATCH: abandons both sets of links (more may be NULL) and
 * throws the error being handled again (abandoning flushes errors of its
 * own, which must not lose it).  cxt: the caller's memory context.
 */
extern void remote_fail(RemoteLink *links, RemoteLink *more, int n, MemoryContext cxt) pg_attribute_noreturn();

/*
 * Runs a query and leaves its rows in SPI_tuptable, typed by columns (a
 * column definition list: "id bigint, state bytea").  Returns the rows.
 */
extern uint64 remote_query(RemoteLink *link, const char *sql, const char *columns);

/* Runs a statement that returns no rows, in its own transaction there. */
extern void remote_exec(RemoteLink *link, const char *sql);

#endif
