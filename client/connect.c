/*
 * connect.c: opening a connection.
 *
 * libpq does most of the work (PG* variables, service files, .pgpass,
 * connection strings in -d).  What is added: the private cluster that
 * tools/demo.sh runs inside the checkout is the default when nothing names
 * a server, so that `gametree list` works there as `tools/psql.sh` does
 * (found at run time from the file .gametree-cluster that tools/lib.sh
 * writes, see cluster_resolve); a
 * password prompt like psql's; and server notices kept off the terminal
 * (grow raises one a second), warnings excepted.
 */
#include "connect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <termios.h>

#include "report.h"
#include "util.h"

/* The file tools/lib.sh writes into a checkout when it starts its cluster. */
#define CLUSTER_FILE ".gametree-cluster"

static bool
env_set(const char *name)
{
	const char *value = getenv(name);

	return value != NULL && value[0] != '\0';
}

/* Whether -h, -p or -d, or PGHOST, PGHOSTADDR, PGPORT, PGDATABASE or PGSERVICE say where to connect. */
static bool
server_named(const ConnOptions *opts)
{
	return opts->host || opts->port || opts->dbname ||
		env_set("PGHOST") || env_set("PGHOSTADDR") || env_set("PGPORT") ||
		env_set("PGDATABASE") || env_set("PGSERVICE");
}

static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The private cluster's file, found at run time (never a path built in, so
 * that whichever checkout installed the binary last does not decide):
 * $GAMETREE_CLUSTER (the file, or a checkout holding it), else the nearest
 * .gametree-cluster in the current directory or above it, as git finds its
 * repository.  Empty when there is none.
 */
static void
find_cluster_file(char *path, size_t len)
{
	const char *env = getenv("GAMETREE_CLUSTER");
	char		dir[4096];
	char	   *slash;

	path[0] = '\0';
	if (env_set("GAMETREE_CLUSTER"))
	{
		if (is_file(env))
			snprintf(path, len, "%s", env);
		else if (snprintf(path, len, "%s/%s", env, CLUSTER_FILE) >= (int) len)
			path[0] = '\0';
		return;					/* an explicit choice: not found is reported, not searched around */
	}
	if (getcwd(dir, sizeof dir) == NULL)
		return;
	for (;;)
	{
		if (snprintf(path, len, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, CLUSTER_FILE) < (int) len &&
			is_file(path))
			return;
		slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0)
			break;
		if (slash == dir)
			slash[1] = '\0';	/* the root */
		else
			*slash = '\0';
	}
	path[0] = '\0';
}

/* The connection string on the first line of a file, parsed by libpq; NULL when it cannot be. */
static PQconninfoOption *
read_conninfo(const char *path)
{
	FILE	   *in = is_file(path) ? fopen(path, "r") : NULL;
	StrBuf		line;
	PQconninfoOption *options;

	if (in == NULL)
		return NULL;
	sb_init(&line);
	sb_getline(&line, in);
	fclose(in);
	options = PQconninfoParse(line.data, NULL);
	sb_free(&line);
	return options;
}

void
cluster_resolve(const ConnOptions *opts, Cluster *cluster)
{
	PQconninfoOption *options;
	char	   *slash;
	char		socket[4200];
	struct stat st;

	memset(cluster, 0, sizeof *cluster);
	if (server_named(opts))
	{
		cluster->state = CLUSTER_NOT_WANTED;
		return;
	}
	find_cluster_file(cluster->file, sizeof cluster->file);
	if (cluster->file[0] == '\0')
	{
		cluster->state = CLUSTER_NONE;
		return;
	}
	snprintf(cluster->checkout, sizeof cluster->checkout, "%s", cluster->file);
	slash = strrchr(cluster->checkout, '/');
	if (slash)
		*slash = '\0';
	cluster->state = CLUSTER_UNREADABLE;
	options = read_conninfo(cluster->file);
	if (options == NULL)
		return;
	for (PQconninfoOption *o = options; o->keyword; o++)
	{
		char	   *to = NULL;
		size_t		to_len = 0;

		if (o->val == NULL)
			continue;
		if (strcmp(o->keyword, "host") == 0)
			to = cluster->host, to_len = sizeof cluster->host;
		else if (strcmp(o->keyword, "port") == 0)
			to = cluster->port, to_len = sizeof cluster->port;
		else if (strcmp(o->keyword, "user") == 0)
			to = cluster->user, to_len = sizeof cluster->user;
		else if (strcmp(o->keyword, "dbname") == 0)
			to = cluster->dbname, to_len = sizeof cluster->dbname;
		if (to)
			snprintf(to, to_len, "%s", o->val);
	}
	PQconninfoFree(options);
	if (cluster->host[0] != '/' || cluster->port[0] == '\0')
		return;					/* a socket directory and a port are what the tools write */
	snprintf(socket, sizeof socket, "%s/.s.PGSQL.%s", cluster->host, cluster->port);
	cluster->state = stat(socket, &st) == 0 && S_ISSOCK(st.st_mode) ? CLUSTER_RUNNING : CLUSTER_STOPPED;
}

void
cluster_describe(const Cluster *cluster, FILE *out)
{
	switch (cluster->state)
	{
		case CLUSTER_NOT_WANTED:
			fprintf(out, "Here: where the options or PG* variables say.\n");
			break;
		case CLUSTER_NONE:
			fprintf(out, "Here: no private cluster (no " CLUSTER_FILE " in the current directory or\n"
					"above it, GAMETREE_CLUSTER unset), so libpq's defaults.\n");
			break;
		case CLUSTER_UNREADABLE:
			fprintf(out, "Here: %s names no socket directory and port,\n"
					"so libpq's defaults.\n", cluster->file);
			break;
		case CLUSTER_RUNNING:
		case CLUSTER_STOPPED:
			fprintf(out, "Here: the private cluster of %s (%s),\n"
					"socket directory %s, port %s, database %s, user %s.\n",
					cluster->checkout, cluster->state == CLUSTER_RUNNING ? "running" : "not running",
					cluster->host, cluster->port, cluster->dbname[0] ? cluster->dbname : "(the user's)",
					cluster->user[0] ? cluster->user : "(the login's)");
			break;
	}
}

/*
 * Reads a password from the terminal without echo, as psql does; from the
 * standard input when there is no terminal.  There, stdio reads unbuffered,
 * so that it takes the password's line and no more: the lines after it are
 * the command's (uci reads the descriptor itself, and would never see what
 * a buffer had taken).
 */
static char *
prompt_password(void)
{
	FILE	   *tty = fopen("/dev/tty", "r+");
	FILE	   *in = tty ? tty : stdin;
	FILE	   *out = tty ? tty : stderr;
	struct termios saved,
				quiet;
	bool		echo_off = tcgetattr(fileno(in), &saved) == 0;
	StrBuf		line;

	if (in == stdin)
		setvbuf(stdin, NULL, _IONBF, 0);	/* allowed: asked once, before any command reads */
	if (echo_off)
	{
		quiet = saved;
		quiet.c_lflag &= ~ECHO;
		tcsetattr(fileno(in), TCSAFLUSH, &quiet);
	}
	fputs("Password: ", out);
	fflush(out);
	sb_init(&line);
	sb_getline(&line, in);		/* the whole line: its rest would be read as a command */
	if (echo_off)
		tcsetattr(fileno(in), TCSAFLUSH, &saved);
	fputc('\n', out);			/* the Enter that was not echoed */
	if (tty)
		fclose(tty);
	return line.data;
}

/* Server warnings go to stderr like errors; notices (grow's progress) do not. */
static void
on_notice(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	(void) arg;
	if (severity && strcmp(severity, "WARNING") == 0)
		report_result(res);
}

static PGconn *
connect_once(const ConnOptions *opts, const Cluster *cluster)
{
	bool		private = cluster->state == CLUSTER_RUNNING;
	const char *keywords[8];
	const char *values[8];
	int			n = 0;

	/* dbname after host and port: a connection string in -d overrides them, as in psql */
	keywords[n] = "host";
	values[n++] = private ? cluster->host : opts->host;
	keywords[n] = "port";
	values[n++] = private ? cluster->port : opts->port;
	keywords[n] = "user";
	values[n++] = opts->user ? opts->user :
		(private && cluster->user[0] && !env_set("PGUSER") ? cluster->user : NULL);
	keywords[n] = "password";
	values[n++] = opts->password;
	keywords[n] = "dbname";
	values[n++] = private && cluster->dbname[0] ? cluster->dbname : opts->dbname;
	keywords[n] = "fallback_application_name";
	values[n++] = "gametree";
	keywords[n] = NULL;
	values[n] = NULL;
	return PQconnectdbParams(keywords, values, 1);
}

PGconn *
db_connect(ConnOptions *opts)
{
	PGconn	   *conn;
	Cluster		cluster;

	cluster_resolve(opts, &cluster);
	if (cluster.state == CLUSTER_STOPPED)
	{
		report("the private cluster of %s is not running (no socket %s/.s.PGSQL.%s)",
			   cluster.checkout, cluster.host, cluster.port);
		fprintf(stderr, "HINT:  Start it with %s/tools/psql.sh (or tools/demo.sh), or say where to "
				"connect with -h, -p, -d or PGHOST.\n", cluster.checkout);
		return NULL;
	}
	if (opts->password_mode == PASSWORD_PROMPT && opts->password == NULL)
		opts->password = prompt_password();
	conn = connect_once(opts, &cluster);
	if (PQstatus(conn) == CONNECTION_BAD && PQconnectionNeedsPassword(conn) &&
		opts->password == NULL && opts->password_mode != PASSWORD_NEVER)
	{
		PQfinish(conn);
		opts->password = prompt_password();
		conn = connect_once(opts, &cluster);
	}
	if (PQstatus(conn) == CONNECTION_BAD)
	{
		report_conn(conn);
		if (cluster.state == CLUSTER_NONE || cluster.state == CLUSTER_UNREADABLE)
			fprintf(stderr, "HINT:  No private cluster was found (gametree --help says where it looks); "
					"inside a checkout, tools/psql.sh starts one. Else say where to connect with -h, -p, -d or PGHOST.\n");
		PQfinish(conn);
		return NULL;
	}
	PQsetNoticeReceiver(conn, on_notice, NULL);
	return conn;
}

bool
db_check_extension(PGconn *conn)
{
	PGresult   *res = PQexec(conn, "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'gametree'");
	bool		ok = false;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		report_result(res);
	else if (PQntuples(res) == 0)
		report("the extension gametree is not installed in database \"%s\" "
			   "(a superuser can add it: CREATE EXTENSION gametree)", PQdb(conn));
	else
		ok = true;
	PQclear(res);
	return ok;
}
