/*
 * grow.c: the command grow.
 *
 * J sessions each run CALL gametree.grow(...) on the tree; grow shares the
 * frontier between them (FOR UPDATE SKIP LOCKED), so they expand different
 * states.  The client sends the calls without waiting and watches their
 * sockets with select, while a monitoring connection (the one main opened)
 * reads the tree's counters in gametree.trees every half second; each batch
 * commits them.  Ctrl-C or a session's error cancels every session that is
 * still running: grow loses only the batches in flight, and running it
 * again goes on from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

#include "cli.h"
#include "interrupt.h"
#include "progress.h"
#include "query.h"
#include "report.h"
#include "util.h"

#define MONITOR_INTERVAL 0.5	/* seconds between reads of the counters */

typedef struct Session
{
	PGconn	   *conn;
	PGcancel   *cancel;			/* prepared before the call, for Ctrl-C */
	bool		running;
	PGresult   *error;			/* the call's error, if it failed */
	char		phase[160];		/* what grow does when not plain expansion, else "" */
	char		said[1024];		/* its last NOTICE with a HINT, printed at the end */
} Session;

typedef struct Counts
{
	long long	states;
	long long	edges;
	long long	frontier;
} Counts;

/* The tree's counters as the last committed batch left them. */
static bool
read_counts(PGconn *monitor, const char *const where[2], Counts *counts)
{
	PGresult   *res = PQexecParams(monitor, "SELECT states, edges, frontier FROM gametree.trees "
								   "WHERE schema = $1 AND name = $2", 2, NULL, where, NULL, NULL, 0);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;

	if (ok)
	{
		counts->states = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		counts->edges = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
		counts->frontier = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
	}
	else if (PQresultStatus(res) != PGRES_TUPLES_OK)
		report_result(res);
	else
		report("tree %s.%s was dropped", where[0], where[1]);
	PQclear(res);
	return ok;
}

/*
 * grow's NOTICEs name its phase.  While it expands in memory or
 * propagates, the counters stand still, possibly for minutes, so the
 * progress line shows that phase instead ("propagating: writing, 30000 of
 * 382397"); its plain "expanding, ..." notices clear it.  Its notices with
 * a HINT say what kept the job short of its work (time_limit, other
 * sessions): they are printed when it ends.
 */
static void
on_grow_notice(void *arg, const PGresult *res)
{
	Session    *s = arg;
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *phase = message ? strstr(message, ": ") : NULL;

	const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);

	if (phase == NULL)
		return;
	/* What stopped the job short of its work (a time limit, other sessions), as psql shows it. */
	if (hint != NULL && strncmp(message, "grow ", 5) == 0)
	{
		snprintf(s->said, sizeof s->said, "NOTICE:  %s\n%s%s%sHINT:  %s\n", message,
				 detail ? "DETAIL:  " : "", detail ? detail : "", detail ? "\n" : "", hint);
		return;
	}
	phase += 2;
	if (strncmp(message, "propagate ", 10) == 0)
		snprintf(s->phase, sizeof s->phase, "propagating: %s", phase);
	else if (strncmp(message, "grow ", 5) == 0)
		snprintf(s->phase, sizeof s->phase, "%s", strncmp(phase, "expanding, ", 11) == 0 ? "" : phase);
}

static void
close_sessions(Session *sessions, int n)
{
	for (int i = 0; i < n; i++)
	{
		PQclear(sessions[i].error);
		PQfreeCancel(sessions[i].cancel);
		PQfinish(sessions[i].conn);
	}
	free(sessions);
}

static void
cancel_running(Session *sessions, int n)
{
	for (int i = 0; i < n; i++)
		if (sessions[i].running)
			query_cancel(sessions[i].cancel);
}

/* Reads what a session's socket has; the session stops running when its call's results are all in. */
static void
session_read(Session *s)
{
	PGresult   *res;

	/* when the connection is lost, PQgetResult returns the error */
	(void) PQconsumeInput(s->conn);
	while (s->running && !PQisBusy(s->conn))
	{
		if ((res = PQgetResult(s->conn)) == NULL)
			s->running = false;
		else if (!result_ok(res) && s->error == NULL)
			s->error = res;
		else
			PQclear(res);
	}
}

/* How the sessions ended, when not all well. */
typedef struct Outcome
{
	bool		interrupted;	/* Ctrl-C */
	bool		monitor_failed; /* reading the counters failed (reported) */
	const PGresult *failure;	/* the first session's own error */
} Outcome;

/*
 * Waits for the sessions until they end, reading the counters every
 * MONITOR_INTERVAL.  Ctrl-C, a session's error or the monitor's cancels
 * every session still running.
 */
static void
watch(Session *sessions, int n, PGconn *monitor, const char *const where[2], Progress *progress,
	  Outcome *outcome)
{
	double		next_read = now_seconds() + MONITOR_INTERVAL;
	bool		cancelling = false;
	int			running = n;
	Counts		counts;

	while (running > 0)
	{
		fd_set		readable;
		int			maxfd = -1;
		int			ready;
		double		wait = next_read - now_seconds();
		struct timeval tv;

		if (interrupted() && !cancelling)
		{
			outcome->interrupted = cancelling = true;
			cancel_running(sessions, n);
		}
		FD_ZERO(&readable);
		for (int i = 0; i < n; i++)
		{
			int			sock = PQsocket(sessions[i].conn);

			if (sessions[i].running && sock >= 0)
			{
				FD_SET(sock, &readable);
				if (sock > maxfd)
					maxfd = sock;
			}
		}
		if (wait < 0)
			wait = 0;
		tv.tv_sec = (long) wait;
		tv.tv_usec = (long) ((wait - (double) tv.tv_sec) * 1e6);
		ready = select(maxfd + 1, &readable, NULL, NULL, &tv);

		running = 0;
		for (int i = 0; i < n; i++)
		{
			int			sock = PQsocket(sessions[i].conn);

			/* a lost connection has no socket: reading gives its error */
			if (sessions[i].running && (sock < 0 || (ready > 0 && FD_ISSET(sock, &readable))))
				session_read(&sessions[i]);
			running += sessions[i].running;
			/* a session's own error (not the cancel we sent) stops the others */
			if (sessions[i].error && !outcome->failure &&
				!(cancelling && result_cancelled(sessions[i].error)))
			{
				outcome->failure = sessions[i].error;
				if (!cancelling)
					cancel_running(sessions, n);
				cancelling = true;
			}
		}
		if (running > 0 && !outcome->monitor_failed && now_seconds() >= next_read)
		{
			const char *phase = NULL;

			for (int i = 0; i < n && !phase; i++)
				if (sessions[i].running && sessions[i].phase[0])
					phase = sessions[i].phase;
			if (read_counts(monitor, where, &counts))
				progress_update(progress, counts.states, counts.edges, counts.frontier, phase);
			else
			{
				outcome->monitor_failed = true;
				if (!cancelling)
					cancel_running(sessions, n);
				cancelling = true;
			}
			next_read = now_seconds() + MONITOR_INTERVAL;
		}
	}
}

static int
run_grow(PGconn *monitor, Args *args)
{
	int			jobs = args->opt[OPT_JOBS] ? atoi(args->opt[OPT_JOBS]) : 1;
	const char *call_params[4] = {args->arg[0], args->opt[OPT_STATES], args->opt[OPT_DEPTH], args->opt[OPT_TIME]};
	Session    *sessions;
	PGresult   *tree;
	const char *where[2];
	Progress	progress;
	Counts		end;
	double		seconds;
	Outcome		outcome = {false, false, NULL};
	int			rc = 0;
	char		took[32];

	/* the tree as stored, found along search_path as grow will find it */
	if (!(tree = db_query(monitor, "SELECT t.schema, t.name, t.states, "
						  "quote_ident(t.schema) || '.' || quote_ident(t.name) "
						  "FROM gametree.tree_info($1) t", 1, (const char *const *) args->arg)))
		return EXIT_FAILED;
	where[0] = PQgetvalue(tree, 0, 0);
	where[1] = PQgetvalue(tree, 0, 1);

	sessions = xmalloc(jobs * sizeof(Session));
	memset(sessions, 0, jobs * sizeof(Session));
	for (int i = 0; i < jobs && rc == 0; i++)
		if ((sessions[i].conn = db_connect(&args->conn)) == NULL)
			rc = EXIT_USAGE;
		else
		{
			sessions[i].cancel = PQgetCancel(sessions[i].conn);
			PQsetNoticeReceiver(sessions[i].conn, on_grow_notice, &sessions[i]);
		}
	for (int i = 0; i < jobs && rc == 0; i++)
		if (query_send(sessions[i].conn, "CALL gametree.grow($1, $2::bigint, $3::integer, $4::interval)",
					   4, call_params))
			sessions[i].running = true;
		else
		{
			report_conn(sessions[i].conn);
			rc = EXIT_FAILED;
		}
	if (rc != 0)
	{
		/* stop the calls that did start, if any */
		cancel_running(sessions, jobs);
		for (int i = 0; i < jobs; i++)
			while (sessions[i].running)
			{
				wait_socket(PQsocket(sessions[i].conn), WAIT_READ, -1);
				session_read(&sessions[i]);
			}
		close_sessions(sessions, jobs);
		PQclear(tree);
		return rc;
	}

	progress_start(&progress, PQgetvalue(tree, 0, 3), strtoll(PQgetvalue(tree, 0, 2), NULL, 10),
				   args->opt[OPT_STATES] ? strtoll(args->opt[OPT_STATES], NULL, 10) : 0);
	watch(sessions, jobs, monitor, where, &progress, &outcome);
	progress_finish(&progress);
	for (int i = 0; i < jobs; i++)
	{
		bool		repeated = false;

		for (int j = 0; j < i; j++)
			repeated |= strcmp(sessions[i].said, sessions[j].said) == 0;
		if (!repeated)
			fputs(sessions[i].said, stderr);
	}

	seconds = now_seconds() - progress.started;
	if (!outcome.failure && !outcome.monitor_failed && read_counts(monitor, where, &end))
	{
		format_duration(seconds, took, sizeof took);
		printf("%s: %lld states (%+lld), %lld edges, frontier %lld; %s, %.0f states/s\n",
			   progress.tree, end.states, end.states - progress.first_states, end.edges, end.frontier,
			   took, seconds > 0 ? (end.states - progress.first_states) / seconds : 0.0);
		fflush(stdout);
	}
	if (outcome.failure)
		report_result(outcome.failure);
	else if (outcome.interrupted)
		report("cancelled: the tree is resumable (run grow again)");
	if (outcome.failure || outcome.interrupted || outcome.monitor_failed)
		rc = EXIT_FAILED;

	close_sessions(sessions, jobs);
	PQclear(tree);
	return rc;
}

const Command cmd_grow = {
	"grow", "TREE [--states N] [--depth D] [--time T] [--jobs J]",
	"grow a tree breadth first, in parallel sessions",
	"Grows the tree TREE breadth first with CALL gametree.grow in J sessions\n"
	"at once, which share the frontier, and shows the progress: states,\n"
	"edges, frontier, states per second, time, and with --states an ETA.\n"
	"Every batch is committed: Ctrl-C cancels the sessions, and running grow\n"
	"again goes on where they stopped.\n"
	"\n"
	"Options:\n"
	"  --states N      stop once the tree has N states (the last batch may pass it)\n"
	"  --depth D       store states down to D plies from the root\n"
	"  --time T        stop after T, a PostgreSQL interval: 30s, 5min\n"
	"  --jobs J        sessions growing at once (default 1)\n"
	"Without --states, --depth or --time, grow goes on until the frontier is empty.\n",
	OPT_BIT(OPT_STATES) | OPT_BIT(OPT_DEPTH) | OPT_BIT(OPT_TIME) | OPT_BIT(OPT_JOBS), 1, run_grow
};
