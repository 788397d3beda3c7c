/*
 * connect.h: connections as the PostgreSQL tools make them (-h -p -U -d -w
 * -W and the PG* environment), with the project's private cluster as the
 * default when nothing says where to connect.
 */
#ifndef GT_CONNECT_H
#define GT_CONNECT_H

#include <libpq-fe.h>
#include <stdbool.h>

typedef enum PasswordMode
{
	PASSWORD_IF_NEEDED,			/* prompt when the server asks for one */
	PASSWORD_NEVER,				/* -w */
	PASSWORD_PROMPT				/* -W: prompt before connecting */
} PasswordMode;

typedef struct ConnOptions
{
	const char *host;
	const char *port;
	const char *user;
	const char *dbname;			/* a name, or a connection string or URI */
	PasswordMode password_mode;
	char	   *password;		/* typed at the prompt, reused by later connections */
} ConnOptions;

PGconn	   *db_connect(ConnOptions *opts);
bool		db_check_extension(PGconn *conn);

#endif
