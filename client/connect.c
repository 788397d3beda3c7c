/*
 * connect.c: opening a connection.
 *
 * libpq does most of the work (PG* variables, service files, .pgpass,
 * connection strings in -d).  What is added: the private cluster that
 * tools/demo.sh runs inside the checkout is the default when nothing names
 * a server, so that `gametree list` works there as `tools/psql.sh` does; a
 * password prompt like psql's; and server notices kept off the terminal
 * (grow raises one a second), warnings excepted.
 */
#include "connect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>

#include "report.h"
#include "util.h"

#ifndef GAMETREE_SOURCE_DIR
#error "GAMETREE_SOURCE_DIR must name the checkout (client/Makefile sets it)"
#endif

/* The private cluster's defaults, as tools/lib.sh starts it. */
#define CLUSTER_PORT "5439"
#define CLUSTER_USER "postgres"
#define CLUSTER_DBNAME "gametree"

static bool
env_set(const char *name)
{
	const char *value = getenv(name);

	return value != NULL && value[0] != '\0';
}

/*
 * The private cluster's socket directory, when nothing names a server (no
 * -h, -p or -d, no PGHOST, PGHOSTADDR, PGPORT, PGDATABASE or PGSERVICE)
 * and the cluster is running: its socket file exists.
 */
static bool
private_cluster(const ConnOptions *opts, char *dir, size_t dirlen, const char **port)
{
	char		socket[4096];
	struct stat st;

	if (opts->host || opts->port || opts->dbname ||
		env_set("PGHOST") || env_set("PGHOSTADDR") || env_set("PGPORT") ||
		env_set("PGDATABASE") || env_set("PGSERVICE"))
		return false;
	*port = env_set("GAMETREE_PORT") ? getenv("GAMETREE_PORT") : CLUSTER_PORT;
	if (snprintf(dir, dirlen, "%s/.cluster/socket", GAMETREE_SOURCE_DIR) >= (int) dirlen ||
		snprintf(socket, sizeof socket, "%s/.s.PGSQL.%s", dir, *port) >= (int) sizeof socket)
		return false;
	return stat(socket, &st) == 0 && S_ISSOCK(st.st_mode);
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
connect_once(const ConnOptions *opts)
{
	char		dir[4096];
	const char *cluster_port;
	bool		cluster = private_cluster(opts, dir, sizeof dir, &cluster_port);
	const char *keywords[8];
	const char *values[8];
	int			n = 0;

	/* dbname after host and port: a connection string in -d overrides them, as in psql */
	keywords[n] = "host";
	values[n++] = cluster ? dir : opts->host;
	keywords[n] = "port";
	values[n++] = cluster ? cluster_port : opts->port;
	keywords[n] = "user";
	values[n++] = opts->user ? opts->user : (cluster && !env_set("PGUSER") ? CLUSTER_USER : NULL);
	keywords[n] = "password";
	values[n++] = opts->password;
	keywords[n] = "dbname";
	values[n++] = cluster ? CLUSTER_DBNAME : opts->dbname;
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

	if (opts->password_mode == PASSWORD_PROMPT && opts->password == NULL)
		opts->password = prompt_password();
	conn = connect_once(opts);
	if (PQstatus(conn) == CONNECTION_BAD && PQconnectionNeedsPassword(conn) &&
		opts->password == NULL && opts->password_mode != PASSWORD_NEVER)
	{
		PQfinish(conn);
		opts->password = prompt_password();
		conn = connect_once(opts);
	}
	if (PQstatus(conn) == CONNECTION_BAD)
	{
		report_conn(conn);
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
