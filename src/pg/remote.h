/*
 * remote.h: statements run on other PostgreSQL servers through libpq
 * (remote.c), with connections opened from postgres_fdw's foreign servers
 * and the caller's user mappings, as postgres_fdw opens its own: no
 * connection string or password passes through gametree, and a role that
 * is not a superuser connects only with a password the server asked for.
 * Each link is a connection kept for the session, one per role, server
 * and purpose; every error it gives names the server.
 *
 * Statements go in the extended protocol with a binary bytea parameter at
 * most, and their rows come back in binary, read through the types'
 * receive functions: payloads travel as their bytes, never as text.
 */
#ifndef GAMETREE_PG_REMOTE_H
#define GAMETREE_PG_REMOTE_H

#include "postgres.h"

typedef struct RemoteConnection RemoteConnection;

typedef struct RemoteLink
{
	const char *server;			/* the foreign server */
	const char *label;			/* how messages name it, e.g. node 2 (server "node2") */
	RemoteConnection *connection;	/* the session's, for this role, server and purpose */
	bool		busy;			/* a statement sent is running */
} RemoteLink;

/* The rows of a statement; freed with the memory context it was received in. */
typedef struct RemoteResult RemoteResult;

/*
 * Opens the link (or reuses the session's) to the server for a purpose (a
 * session may keep several links to a server: one per purpose), with
 * search_path pinned in the remote session and its notices kept there.
 * Ereports, naming the server, when the server or the user mapping is
 * missing, a password is required, or the server cannot be reached.
 */
extern void remote_open(RemoteLink *link, const char *server, const char *purpose, const char *label);

/*
 * Sends a statement to run without waiting (CALL of a procedure that
 * commits, for one); with bytes (len of them), the statement's $1, a
 * bytea.
 */
extern void remote_send(RemoteLink *link, const char *sql, const char *bytes, int len);

/*
 * Waits for the statements sent on the links and collects their rows in
 * results[i] (results may be NULL).  An error on one link is reported
 * naming its server, and the other links are abandoned; so they are when
 * the caller is cancelled while it waits.
 */
extern void remote_wait(RemoteLink *links, int n, RemoteResult **results);

/*
 * Waits for the first statement to end of those sent on the links, and
 * returns its link's index, its rows in *result; -1 when none runs.
 * Errors as remote_wait.
 */
extern int	remote_wait_any(RemoteLink *links, int n, RemoteResult **result);

/*
 * For a PG_CATCH: abandons both sets of links (more may be NULL) and
 * throws the error being handled again.  cxt: the caller's memory context.
 */
extern void remote_fail(RemoteLink *links, RemoteLink *more, int n, MemoryContext cxt) pg_attribute_noreturn();

/* Runs a statement and returns its rows. */
extern RemoteResult *remote_query(RemoteLink *link, const char *sql);

/* The rows of a result. */
extern int	remote_rows(const RemoteResult *result);

/*
 * A value of a result, of the type expected (a built-in type: those have
 * one OID on every server), read by the type's receive function; ereports
 * (naming the link's server) when the column is of another type.
 */
extern Datum remote_value(const RemoteResult *result, int row, int column, Oid type, bool *isnull);

/* A bigint or integer column's value, 0 when NULL. */
extern int64 remote_int8(const RemoteResult *result, int row, int column);

/* A bytea column's bytes, in place (valid while the result is), and their number. */
extern const char *remote_bytes(const RemoteResult *result, int row, int column, int *len);

/* Frees a result before its memory context goes. */
extern void remote_free(RemoteResult *result);

#endif
