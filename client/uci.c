/*
 * uci.c: the command uci, a chess engine for UCI graphical interfaces and
 * match runners, with gametree.analyse as its search.
 *
 * The engine reads commands from the standard input with read() (not
 * stdio, so that select can watch the input and the server's socket
 * together), lines of any length (a long position is one command, never a
 * command and a rest read as another), and answers on the standard
 * output, a line at a time.  A
 * search is one call of gametree.analyse sent without waiting, so that
 * isready, stop and quit are answered while it runs: stop cancels the call
 * on the server (PQcancel) and the engine answers with the best move of
 * the last call that completed.  go infinite calls analyse again and again
 * with twice the time each call, printing an info line after each, until
 * stop, or the end of the input, which stops it as stop does (no one is
 * left to send stop; a search with a limit ends by itself).  A position is kept as the server's state; a position command that
 * extends the last one (as interfaces send them, the game's moves from the
 * start every time) plays only the new moves.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include "cli.h"
#include "game.h"
#include "interrupt.h"
#include "notation.h"
#include "progress.h"
#include "query.h"
#include "report.h"
#include "util.h"

#ifndef GAMETREE_VERSION
#define GAMETREE_VERSION "unknown"
#endif

#define INPUT_BLOCK 65536		/* the input buffer's first size; it doubles for a longer line */
#define FIRST_INFINITE_MS 100	/* go infinite: the first call's time, doubled each call */
#define MAX_INFINITE_MS 60000
#define MIN_MOVE_MS 20			/* the least time a move from a clock */

/* The standard input, read in blocks and cut into lines: the bytes not taken are buf[start, len). */
typedef struct Input
{
	char	   *buf;
	size_t		cap;
	size_t		start;
	size_t		len;
	size_t		scanned;		/* buf[start, scanned) holds no newline: not searched again */
	bool		eof;
} Input;

typedef struct Search
{
	bool		active;			/* a go waits for its bestmove */
	bool		in_flight;		/* an analyse call runs */
	bool		infinite;		/* go infinite (or ponder): until stop */
	bool		stopping;		/* stop came: answer when the call ends */
	bool		cancel_sent;
	double		started;
	double		call_ms;		/* this call's time limit; 0: none (go depth) */
	char		depth[16];		/* go depth, or "" */
	bool		have_best;
	bool		proven;
	StrBuf		best;			/* bestmove of the last completed call */
	StrBuf		ponder;			/* the reply it expects, or "" */
	PGresult   *error;			/* the call's error */
} Search;

typedef struct Uci
{
	PGconn	   *conn;
	PGcancel   *cancel;
	const Args *args;
	const char *default_time;	/* --time: for go without a limit */
	TreeRef		tree;
	bool		has_tree;
	/* the position */
	char	   *base;			/* "startpos" or the FEN */
	char	  **moves;			/* the moves played from it */
	int			nmoves;
	char	   *state;			/* its state; NULL when the last position command failed */
	char	   *side;			/* the side to move; NULL when the game is over */
	Search		search;
	Input		input;
} Uci;

/* Prints one line and flushes it at once: the interface waits for it. */
static void
say(const char *fmt,...) __attribute__((format(printf, 1, 2)));

static void
say(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A server error as an info string, on one line. */
static void
say_error(const char *what, const PGresult *res, const PGconn *conn)
{
	const char *message = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	StrBuf		flat;

	sb_init(&flat);
	for (const char *p = message ? message : PQerrorMessage(conn); *p; p++)
		if (*p != '\n' && *p != '\r')
			sb_printf(&flat, "%c", *p);
		else if (p[1])
			sb_append(&flat, " ");
	say("info string %s: %s", what, flat.data);
	sb_free(&flat);
}

/* ---- the input ---- */

/* The next whole line into out (without its end); false when none is buffered. */
static bool
input_line(Input *in, StrBuf *out)
{
	char	   *nl = memchr(in->buf + in->scanned, '\n', in->len - in->scanned);
	size_t		end;

	if (nl == NULL)
	{
		in->scanned = in->len;
		if (!in->eof || in->len == in->start)
			return false;
		end = in->len;			/* the last line, without a newline */
	}
	else
		end = (size_t) (nl - in->buf);
	sb_reset(out);
	sb_append_len(out, in->buf + in->start, end - in->start);
	if (out->len > 0 && out->data[out->len - 1] == '\r')
		out->data[--out->len] = '\0';
	in->start = in->scanned = nl ? end + 1 : end;
	return true;
}

/* Reads what the input has, after the bytes not taken yet, in a buffer twice as large when they fill it. */
static void
input_fill(Input *in)
{
	ssize_t		n;

	memmove(in->buf, in->buf + in->start, in->len - in->start);
	in->len -= in->start;
	in->scanned -= in->start;
	in->start = 0;
	if (in->len == in->cap)
	{
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap);
	}
	n = read(STDIN_FILENO, in->buf + in->len, in->cap - in->len);
	if (n > 0)
		in->len += (size_t) n;
	else if (n == 0 || errno != EINTR)
		in->eof = true;
}

/* The words of a line, split on blanks, in place. */
static int
split_words(char *line, char **words, int max)
{
	int			n = 0;
	char	   *save;

	for (char *w = strtok_r(line, " \t", &save); w && n < max; w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	return n;
}

/* ---- the position ---- */

static void
clear_moves(Uci *uci)
{
	for (int i = 0; i < uci->nmoves; i++)
		free(uci->moves[i]);
	free(uci->moves);
	uci->moves = NULL;
	uci->nmoves = 0;
}

/* A UCI move as the engine accepts it into the array literal: squares and a promotion. */
static bool
plain_move(const char *move)
{
	size_t		len = strlen(move);

	if (len < 4 || len > 5)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefgh12345678qrbn", move[i]))
			return false;
	return true;
}

/*
 * position startpos|fen F [moves M...]: the state after the moves, played
 * on the server by next(); only the new moves when the position extends
 * the last one.
 */
static void
cmd_position(Uci *uci, char **words, int nwords)
{
	StrBuf		fen,
				array;
	int			i = 1,
				first_new = 0;
	const char *params[3];
	PGresult   *res;
	PGresult   *error;
	bool		extends;
	char	  **moves;
	int			nmoves = 0;

	sb_init(&fen);
	if (i < nwords && strcmp(words[i], "startpos") == 0)
	{
		sb_append(&fen, "startpos");
		i++;
	}
	else if (i < nwords && strcmp(words[i], "fen") == 0)
	{
		for (i++; i < nwords && strcmp(words[i], "moves") != 0; i++)
			sb_printf(&fen, "%s%s", fen.len ? " " : "", words[i]);
	}
	if (i > 2 && fen.len > 0)
	{
		int			fields = 1;

		for (const char *p = fen.data; *p; p++)
			fields += *p == ' ';
		if (fields == 4)
			sb_append(&fen, " 0 1");	/* an EPD-style FEN without the clocks */
	}
	if (fen.len == 0)
	{
		say("info string error: position needs startpos or fen");
		sb_free(&fen);
		return;
	}
	if (i < nwords && strcmp(words[i], "moves") == 0)
		i++;
	moves = xmalloc((nwords - i + 1) * sizeof(char *));
	for (; i < nwords; i++)
	{
		if (!plain_move(words[i]))
		{
			say("info string error: not a UCI move: %.20s", words[i]);
			for (int j = 0; j < nmoves; j++)
				free(moves[j]);
			free(moves);
			sb_free(&fen);
			free(uci->state);
			uci->state = NULL;
			return;
		}
		moves[nmoves++] = xstrdup(words[i]);
	}

	/* does it extend the position we have? */
	extends = uci->state && uci->base && strcmp(uci->base, fen.data) == 0 && uci->nmoves <= nmoves;
	for (int j = 0; extends && j < uci->nmoves; j++)
		extends = strcmp(uci->moves[j], moves[j]) == 0;
	first_new = extends ? uci->nmoves : 0;

	sb_init(&array);
	sb_append(&array, "{");
	for (int j = first_new; j < nmoves; j++)
		sb_printf(&array, "%s%s", j > first_new ? "," : "", moves[j]);
	sb_append(&array, "}");
	params[0] = extends ? uci->state : NULL;
	params[1] = strcmp(fen.data, "startpos") == 0 ? NULL : fen.data;
	params[2] = array.data;
	res = db_query_try(uci->conn,
					   "WITH RECURSIVE m(move, n) AS (SELECT * FROM unnest($3::text[]) WITH ORDINALITY), "
					   "walk(n, s) AS ("
					   "  SELECT 0::bigint, COALESCE($1::jsonb, gametree.from_fen('chess', $2), gametree.initial('chess'))"
					   "  UNION ALL"
					   "  SELECT w.n + 1, gametree.next('chess', w.s, to_jsonb(m.move)) FROM walk w JOIN m ON m.n = w.n + 1"
					   ") SELECT s, gametree.control('chess', s) FROM walk ORDER BY n DESC LIMIT 1",
					   3, params, &error);
	free(uci->state);
	uci->state = NULL;
	free(uci->side);
	uci->side = NULL;
	clear_moves(uci);
	free(uci->base);
	uci->base = NULL;
	if (res)
	{
		uci->state = xstrdup(PQgetvalue(res, 0, 0));
		uci->side = PQgetisnull(res, 0, 1) ? NULL : xstrdup(PQgetvalue(res, 0, 1));
		uci->base = xstrdup(fen.data);
		uci->moves = moves;
		uci->nmoves = nmoves;
		PQclear(res);
	}
	else
	{
		if (error)
			say_error("error in position", error, uci->conn);
		else
			say("info string error in position");
		PQclear(error);
		for (int j = 0; j < nmoves; j++)
			free(moves[j]);
		free(moves);
	}
	sb_free(&array);
	sb_free(&fen);
}

/* ---- the search ---- */

/*
 * The score of a row of analyse for the side to move: mate when its utility
 * is proven, else the centipawns the extension finds behind it (none: 0).
 */
static void
format_score(StrBuf *out, double utility, bool proven, int plies, const char *centipawns)
{
	if (proven && utility >= 100)
		sb_printf(out, "mate %d", plies > 0 ? (plies + 1) / 2 : 1);
	else if (proven && utility <= 0)
		sb_printf(out, "mate -%d", plies > 0 ? (plies + 1) / 2 : 1);
	else
		sb_printf(out, "cp %.0f", centipawns[0] ? strtod(centipawns, NULL) : 0.0);
}

/* Sends the search's next analyse call. */
static bool
send_call(Uci *uci)
{
	Search	   *s = &uci->search;
	char		limit[32];
	const char *params[4] = {uci->state, NULL, s->depth[0] ? s->depth : NULL, NULL};

	if (s->call_ms > 0)
	{
		snprintf(limit, sizeof limit, "%.0fms", s->call_ms);
		params[1] = limit;
	}
	if (uci->has_tree)
	{
		int			has = tree_has_state(uci->conn, &uci->tree, uci->state);

		if (has < 0)
			return false;
		if (has)
			params[3] = uci->args->opt[OPT_TREE];
	}
	/* moves in UCI, the score in centipawns: the extension's (see take_result's columns) */
	if (!query_send(uci->conn, "SELECT move, utility, proven, depth, pv, "
					SHORT_NOTATION_SQL("'chess'", "move") ", " SHORT_NOTATION_SQL("'chess'", "pv -> 1") ", "
					LINE_NOTATION_SQL("'chess'", "pv") ", "
					"gametree.centipawns('chess', (utility ->> gametree.control('chess', $1::jsonb))::float8) "
					"FROM gametree.analyse('chess', $1::jsonb, $2::interval, $3::integer, 'auto', $4) LIMIT 1",
					4, params))
	{
		report_conn(uci->conn);
		return false;
	}
	s->in_flight = true;
	s->cancel_sent = false;
	return true;
}

/* Columns of send_call's query after move, utility, proven, depth and pv. */
#define R_MOVE_UCI 5
#define R_PONDER_UCI 6
#define R_LINE_UCI 7
#define R_CENTIPAWNS 8

/* The first row of analyse: the best move, its expected reply, an info line. */
static void
take_result(Uci *uci, const PGresult *res)
{
	Search	   *s = &uci->search;
	json_object *move,
			   *utility,
			   *pv,
			   *value = NULL;
	const char *role = NULL;
	StrBuf		line;
	int			plies;

	if (PQntuples(res) == 0)
		return;
	move = json_tokener_parse(PQgetvalue(res, 0, 0));
	utility = json_tokener_parse(PQgetvalue(res, 0, 1));
	pv = PQgetisnull(res, 0, 4) ? NULL : json_tokener_parse(PQgetvalue(res, 0, 4));
	plies = json_object_is_type(pv, json_type_array) ? (int) json_object_array_length(pv) : 0;
	s->proven = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
	sb_reset(&s->best);
	sb_append(&s->best, PQgetvalue(res, 0, R_MOVE_UCI));
	sb_reset(&s->ponder);
	if (plies >= 2)
		sb_append(&s->ponder, PQgetvalue(res, 0, R_PONDER_UCI));
	s->have_best = true;

	sb_init(&line);
	sb_printf(&line, "info depth %s score ", PQgetisnull(res, 0, 3) ? "1" : PQgetvalue(res, 0, 3));
	if (move_action(move, &role) && role)
		json_object_object_get_ex(utility, role, &value);
	format_score(&line, value ? json_object_get_double(value) : 50.0, s->proven, plies,
				 PQgetvalue(res, 0, R_CENTIPAWNS));
	sb_printf(&line, " time %.0f pv", (now_seconds() - s->started) * 1000);
	if (plies > 0)
		sb_printf(&line, " %s", PQgetvalue(res, 0, R_LINE_UCI));
	if (plies == 0)
		sb_printf(&line, " %s", s->best.data);
	say("%s", line.data);
	sb_free(&line);
	json_object_put(move);
	json_object_put(utility);
	json_object_put(pv);
}

/* Answers the go: the best move found, or a quick search's when no call completed. */
static void
finish_search(Uci *uci)
{
	Search	   *s = &uci->search;

	if (!s->have_best && uci->state && uci->side)
	{
		const char *params[1] = {uci->state};
		PGresult   *res = db_query(uci->conn, "SELECT move, utility, proven, depth, pv "
								   "FROM gametree.analyse('chess', $1::jsonb, NULL, 1) LIMIT 1", 1, params);

		if (res)
		{
			take_result(uci, res);
			PQclear(res);
		}
	}
	if (s->have_best && s->ponder.len > 0)
		say("bestmove %s ponder %s", s->best.data, s->ponder.data);
	else
		say("bestmove %s", s->have_best ? s->best.data : "0000");
	s->active = false;
}

/* Reads the call's results; when it has ended, goes on (go infinite) or answers. False when the connection is lost. */
static bool
poll_search(Uci *uci)
{
	Search	   *s = &uci->search;
	PGresult   *res;
	PGresult   *ok = NULL;

	if (!PQconsumeInput(uci->conn))
	{
		report_conn(uci->conn);
		return false;
	}
	while (s->in_flight && !PQisBusy(uci->conn))
	{
		if ((res = PQgetResult(uci->conn)) == NULL)
			s->in_flight = false;
		else if (result_ok(res) && !ok && !s->error)
			ok = res;
		else if (!result_ok(res) && !s->error)
			s->error = res;
		else
			PQclear(res);
	}
	if (s->in_flight)
		return true;
	if (ok)
	{
		take_result(uci, ok);
		PQclear(ok);
	}
	if (s->error)
	{
		if (!(s->cancel_sent && result_cancelled(s->error)))
			say_error("search failed", s->error, uci->conn);
		PQclear(s->error);
		s->error = NULL;
		if (PQstatus(uci->conn) == CONNECTION_BAD)
		{
			report_conn(uci->conn);
			return false;
		}
		finish_search(uci);
		return true;
	}
	if (!s->infinite || s->stopping)
		finish_search(uci);
	else if (!s->proven)
	{
		/* go infinite: again, with twice the time */
		s->call_ms = s->call_ms * 2 > MAX_INFINITE_MS ? MAX_INFINITE_MS : s->call_ms * 2;
		return send_call(uci);
	}
	/* proven: nothing more to find; wait for stop */
	return true;
}

/* stop: cancels the call in flight; the answer comes when it has ended. */
static void
stop_search(Uci *uci)
{
	Search	   *s = &uci->search;

	if (!s->active)
		return;
	s->stopping = true;
	if (s->in_flight && !s->cancel_sent)
	{
		query_cancel(uci->cancel);
		s->cancel_sent = true;
	}
	else if (!s->in_flight)
		finish_search(uci);
}

/* Waits until the search has answered; false when the connection is lost. */
static bool
wait_search(Uci *uci)
{
	while (uci->search.active)
	{
		if (!uci->search.in_flight)
		{
			stop_search(uci);
			continue;
		}
		if (wait_socket(PQsocket(uci->conn), WAIT_READ, -1) < 0 && interrupted())
			stop_search(uci);
		if (!poll_search(uci))
			return false;
	}
	return true;
}

/* A number after a go keyword, or the default. */
static double
go_number(char **words, int nwords, const char *key, double otherwise)
{
	for (int i = 1; i + 1 < nwords; i++)
		if (strcmp(words[i], key) == 0)
			return strtod(words[i + 1], NULL);
	return otherwise;
}

static bool
go_flag(char **words, int nwords, const char *key)
{
	for (int i = 1; i < nwords; i++)
		if (strcmp(words[i], key) == 0)
			return true;
	return false;
}

/* The time of a move from the clock: a 30th of what is left, half the increment; never the whole clock. */
static double
clock_ms(double left, double inc, double movestogo)
{
	double		t = left / (movestogo > 0 ? (movestogo + 1 < 30 ? movestogo + 1 : 30) : 30) + inc / 2;

	if (t > left - 50)
		t = left / 2;
	return t < MIN_MOVE_MS ? MIN_MOVE_MS : t;
}

/* Milliseconds from a PostgreSQL-style interval given as --time (500ms, 2s, 1min); 1000 when unreadable. */
static double
interval_ms(const char *text)
{
	char	   *end;
	double		v = strtod(text, &end);

	while (*end == ' ')
		end++;
	if (end == text || v <= 0)
		return 1000;
	if (strncmp(end, "ms", 2) == 0 || strncmp(end, "millisecond", 11) == 0)
		return v;
	if (strncmp(end, "min", 3) == 0)
		return v * 60000;
	return v * 1000;
}

static bool
cmd_go(Uci *uci, char **words, int nwords)
{
	Search	   *s = &uci->search;
	bool		white = uci->side && strcmp(uci->side, "white") == 0;
	double		movetime = go_number(words, nwords, "movetime", -1);
	double		left = go_number(words, nwords, white ? "wtime" : "btime", -1);
	double		inc = go_number(words, nwords, white ? "winc" : "binc", 0);
	double		depth = go_number(words, nwords, "depth", -1);
	double		mate = go_number(words, nwords, "mate", -1);

	if (s->active)
		stop_search(uci);		/* an interface that forgot stop */
	if (!wait_search(uci))
		return false;
	s->active = true;
	s->in_flight = false;
	s->stopping = false;
	s->cancel_sent = false;
	s->have_best = false;
	s->proven = false;
	s->started = now_seconds();
	s->depth[0] = '\0';
	s->infinite = go_flag(words, nwords, "infinite") || go_flag(words, nwords, "ponder");
	if (!uci->state || !uci->side)
	{
		say("info string %s", uci->state ? "the game is over" : "no position");
		finish_search(uci);
		return true;
	}
	if (s->infinite)
		s->call_ms = FIRST_INFINITE_MS;
	else if (movetime > 0)
		s->call_ms = movetime - (movetime / 10 < 50 ? movetime / 10 : 50);
	else if (left >= 0)
		s->call_ms = clock_ms(left, inc, go_number(words, nwords, "movestogo", 0));
	else if (depth > 0 || mate > 0)
	{
		s->call_ms = 0;
		snprintf(s->depth, sizeof s->depth, "%d", depth > 0 ? (int) depth : 2 * (int) mate);
	}
	else
		s->call_ms = interval_ms(uci->default_time);
	if (s->call_ms > 0 && s->call_ms < 1)
		s->call_ms = 1;
	if (!send_call(uci))
		return false;
	return true;
}

/* One command; false to end (quit, or the connection is lost). */
static bool
run_command(Uci *uci, char **words, int nwords)
{
	const char *cmd = words[0];

	if (strcmp(cmd, "quit") == 0)
		return false;
	if (strcmp(cmd, "isready") == 0)
		say("readyok");
	else if (strcmp(cmd, "stop") == 0 || strcmp(cmd, "ponderhit") == 0)
		stop_search(uci);
	else if (strcmp(cmd, "uci") == 0)
	{
		say("id name gametree %s", GAMETREE_VERSION);
		say("id author the gametree developers");
		say("uciok");
	}
	else if (strcmp(cmd, "debug") == 0 || strcmp(cmd, "setoption") == 0 || strcmp(cmd, "register") == 0)
		;						/* no options: accepted and ignored */
	else if (strcmp(cmd, "ucinewgame") == 0 || strcmp(cmd, "position") == 0 || strcmp(cmd, "go") == 0)
	{
		/* these wait for a search the interface did not stop (go infinite: stop it) */
		if (uci->search.active && uci->search.infinite)
			stop_search(uci);
		if (!wait_search(uci))
			return false;
		if (strcmp(cmd, "position") == 0)
			cmd_position(uci, words, nwords);
		else if (strcmp(cmd, "go") == 0)
			return cmd_go(uci, words, nwords);
		else
		{
			free(uci->state);
			uci->state = NULL;
			free(uci->base);
			uci->base = NULL;
			clear_moves(uci);
		}
	}
	else
		say("info string unknown command: %.40s", cmd);
	return true;
}

/* A line of the input, split into words. */
static bool
command(Uci *uci, char *line)
{
	int			max = (int) strlen(line) / 2 + 1;
	char	  **words = xmalloc(max * sizeof(char *));
	int			nwords = split_words(line, words, max);
	bool		go_on = nwords == 0 || run_command(uci, words, nwords);

	free(words);
	return go_on;
}

/* Commands until quit or the end of the input; the exit status. */
static int
uci_loop(Uci *uci)
{
	StrBuf		line;
	int			rc = 0;

	sb_init(&line);
	for (;;)
	{
		fd_set		readable;
		int			sock = PQsocket(uci->conn);
		int			maxfd = STDIN_FILENO;

		if (input_line(&uci->input, &line))
		{
			if (!command(uci, line.data))
				break;
			continue;
		}
		if (uci->input.eof && uci->search.active && uci->search.infinite)
			stop_search(uci);	/* no one is left to send stop: answer now, then end */
		if (interrupted() || (uci->input.eof && !uci->search.in_flight))
			break;				/* nothing left to read or to wait for */
		FD_ZERO(&readable);
		if (!uci->input.eof)
			FD_SET(STDIN_FILENO, &readable);
		if (uci->search.in_flight && sock >= 0)
		{
			FD_SET(sock, &readable);
			if (sock > maxfd)
				maxfd = sock;
		}
		if (select(maxfd + 1, &readable, NULL, NULL, NULL) < 0)
			continue;			/* a signal: the loop looks at the flag */
		if (uci->search.in_flight && sock >= 0 && FD_ISSET(sock, &readable) && !poll_search(uci))
		{
			rc = EXIT_FAILED;
			break;
		}
		if (FD_ISSET(STDIN_FILENO, &readable))
			input_fill(&uci->input);
	}
	/* quit, the end of the input or Ctrl-C: no search goes on without us */
	if (uci->search.in_flight)
	{
		uci->search.active = false;
		query_cancel(uci->cancel);
		while (uci->search.in_flight && PQstatus(uci->conn) != CONNECTION_BAD)
		{
			wait_socket(PQsocket(uci->conn), WAIT_READ, 5);
			if (!PQconsumeInput(uci->conn))
				break;
			while (!PQisBusy(uci->conn))
			{
				PGresult   *res = PQgetResult(uci->conn);

				if (res == NULL)
				{
					uci->search.in_flight = false;
					break;
				}
				PQclear(res);
			}
		}
	}
	sb_free(&line);
	return rc;
}

static int
run_uci(PGconn *conn, Args *args)
{
	Uci		   *uci = xmalloc(sizeof(Uci));
	int			rc = 0;

	memset(uci, 0, sizeof *uci);
	setvbuf(stdout, NULL, _IOLBF, 0);
	uci->conn = conn;
	uci->args = args;
	uci->default_time = args->opt[OPT_TIME] ? args->opt[OPT_TIME] : "1s";
	uci->cancel = PQgetCancel(conn);
	uci->input.cap = INPUT_BLOCK;
	uci->input.buf = xmalloc(uci->input.cap);
	sb_init(&uci->search.best);
	sb_init(&uci->search.ponder);
	if (args->opt[OPT_TREE])
	{
		if (!tree_load(conn, args->opt[OPT_TREE], &uci->tree))
			rc = EXIT_FAILED;
		else if (strcmp(uci->tree.game, "chess") != 0)
		{
			report("tree %s is a tree of %s, not of chess", args->opt[OPT_TREE], uci->tree.game);
			rc = EXIT_USAGE;
		}
		else
			uci->has_tree = true;
	}
	if (rc == 0)
		rc = uci_loop(uci);
	free(uci->state);
	free(uci->side);
	free(uci->base);
	clear_moves(uci);
	sb_free(&uci->search.best);
	sb_free(&uci->search.ponder);
	PQclear(uci->search.error);
	PQfreeCancel(uci->cancel);
	free(uci->input.buf);
	if (args->opt[OPT_TREE])
		tree_free(&uci->tree);
	free(uci);
	return rc;
}

const Command cmd_uci = {
	"uci", "[--tree TREE] [--time T]",
	"a chess engine speaking UCI on stdin and stdout",
	"Speaks the Universal Chess Interface on the standard input and output,\n"
	"for a chess GUI or a match runner, with gametree.analyse as the search:\n"
	"uci, isready, ucinewgame, setoption (accepted, ignored), position\n"
	"startpos|fen F [moves M...], go (movetime, wtime/btime/winc/binc/\n"
	"movestogo, depth, mate, infinite), stop, ponderhit, quit. A search\n"
	"prints info depth/score/time/pv from analyse's best row, then bestmove.\n"
	"A clock gives a move a 30th of the time left and half the increment.\n"
	"go infinite searches again with twice the time until stop; stop\n"
	"cancels the search on the server and answers with the best move found.\n"
	"The end of the input stops go infinite as stop does, lets a search with\n"
	"a limit end, and exits. Lines may be of any length.\n"
	"\n"
	"Options:\n"
	"  --time T        the time of a go without a limit, a PostgreSQL interval\n"
	"                  (default 1s)\n"
	"  --tree TREE     a stored chess tree as the search's memory, in its states\n",
	OPT_BIT(OPT_TREE) | OPT_BIT(OPT_TIME), 0, run_uci
};
