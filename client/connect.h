/*
 * connect.h: connections as the PostgreSQL tools make them (-h -p -U -d -w
 * -W and the PG* environment), with the project's private cluster as the
 * default when nothing says where to connect.
 */
#ifndef GT_CONNECT_H
#define GT_CONNECT_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdio.h>

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

/* Where the private cluster is, as cluster_resolve finds it at run time. */
typedef enum ClusterState
{
	CLUSTER_NOT_WANTED,			/* options or PG* variables name a server */
	CLUSTER_NONE,				/* no .gametree-cluster found */
	CLUSTER_UNREADABLE,			/* found, but it names no socket directory and port */
	CLUSTER_STOPPED,			/* found, its socket missing */
	CLUSTER_RUNNING
} ClusterState;

typedef struct Cluster
{
	ClusterState state;
	char		file[4096];		/* the .gametree-cluster read */
	char		checkout[4096];	/* its directory */
	char		host[1024];		/* the connection it gives */
	char		port[32];
	char		user[256];
	char		dbname[256];
} Cluster;

void		cluster_resolve(const ConnOptions *opts, Cluster *cluster);
/* Says which server gametree would use here, for --help. */
void		cluster_describe(const Cluster *cluster, FILE *out);

PGconn	   *db_connect(ConnOptions *opts);
bool		db_check_extension(PGconn *conn);

#endif
