/*
 * query.h: statements with text parameters, sent without blocking so that
 * Ctrl-C can cancel them on the server.
 */
#ifndef GT_QUERY_H
#define GT_QUERY_H

#include <libpq-fe.h>
#include <stdbool.h>

PGresult   *db_query(PGconn *conn, const char *sql, int nparams, const char *const *params);
PGresult   *db_query_try(PGconn *conn, const char *sql, int nparams, const char *const *params,
						 PGresult **error);

bool		query_send(PGconn *conn, const char *sql, int nparams, const char *const *params);
/* What wait_socket waits for. */
#define WAIT_READ 1
#define WAIT_WRITE 2

int			wait_socket(int sock, int events, double seconds);
void		query_cancel(PGcancel *cancel);
bool		result_ok(const PGresult *res);
bool		result_cancelled(const PGresult *res);

#endif
