/*
 * ggp_match.c: a match against the database (ggp_match.h).
 *
 * The moves travel as KIF and become the engine's JSON on the server
 * (gametree.from_kif, gametree.to_kif), so the client holds no second copy
 * of the conversion.  The record (gametree.match_begin, match_move,
 * match_end) checks every joint move against the rules: the state it keeps
 * is the one searched.
 *
 * Time: a clock runs from the moment the request arrived; the player keeps
 * Player.margin back for the reply.  A search is sent without waiting and
 * cancelled on the server when the deadline comes, and a random legal
 * action, fetched before the search began, answers instead.
 */
#include "ggp_match.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "query.h"
#include "report.h"

/* A search given less than this is not worth starting: the fallback answers. */
#define MIN_SEARCH_SECONDS 0.05
/*
 * The search is told to stop this much before the deadline (a share of
 * the time left, at least SEARCH_SLACK_SECONDS): bestmove ends within its
 * time limit and a statement of writing its tree, and the statement's
 * start and its result's trip take their time too.
 */
#define SEARCH_SLACK_SHARE 0.15
#define SEARCH_SLACK_SECONDS 0.1
/* How long a cancelled search may take to end before the connection is replaced. */
#define SETTLE_SECONDS 10.0
/* How long the compile of a game's network after a match waits for other matches' trees of it to go, and how often it asks. */
#define TREES_WAIT_SECONDS 30.0
#define TREES_WAIT_POLL_MSECS 250

double
ggp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Runs a statement; on a server error its message goes to why and NULL
 * comes back.  A connection found broken (the server restarted, say) is
 * made again once, and the statement sent again: a match outlives it.
 */
static PGresult *
run(PGconn *conn, const char *sql, int n, const char *const *params, StrBuf *why)
{
	PGresult   *error = NULL;
	PGresult   *res;

	if (PQstatus(conn) != CONNECTION_OK)
		PQreset(conn);
	res = db_query_try(conn, sql, n, params, &error);
	if (!res && !error && PQstatus(conn) != CONNECTION_OK)
	{
		PQreset(conn);
		res = db_query_try(conn, sql, n, params, &error);
	}
	if (!res)
	{
		if (error)
			sb_printf(why, "%s", PQresultErrorField(error, PG_DIAG_MESSAGE_PRIMARY));
		else
			sb_printf(why, "%s", PQstatus(conn) == CONNECTION_OK ? "the statement failed" : PQerrorMessage(conn));
		PQclear(error);
	}
	return res;
}

/* The single value of a statement's single row, or NULL (why says so). */
static char *
run_value(PGconn *conn, const char *sql, int n, const char *const *params, StrBuf *why)
{
	PGresult   *res = run(conn, sql, n, params, why);
	char	   *value = NULL;

	if (res && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		value = xstrdup(PQgetvalue(res, 0, 0));
	else if (res)
		sb_printf(why, "no value from the server");
	PQclear(res);
	return value;
}

/*
 * The game of the rules: found loaded under the name their text gives, or
 * loaded now.  A match that loads the same rules at the same moment takes
 * the name first: then the game is loaded all the same.  network_seconds
 * (0: no limit) bounds the compile of a network (gametree.gdl_network_time);
 * *late tells when the load took that long and gave the game the prover.
 */
static char *
rules_game(PGconn *conn, const Sexpr *rules, double network_seconds, bool *late, StrBuf *why)
{
	StrBuf		kif;
	char	   *name = NULL;
	PGresult   *res = NULL;
	PGresult   *error = NULL;
	const char *params[2];

	*late = false;
	sb_init(&kif);
	for (int i = 0; i < rules->n; i++)
	{
		sexpr_write(rules->items[i], &kif);
		sb_append(&kif, "\n");
	}
	params[1] = kif.data;
	res = run(conn, "SELECT 'ggp_' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 24), "
			  "EXISTS (SELECT FROM gametree.gdl_games g "
			  "WHERE g.name = 'ggp_' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 24))",
			  1, params + 1, why);
	if (!res)
		goto done;
	name = xstrdup(PQgetvalue(res, 0, 0));
	if (strcmp(PQgetvalue(res, 0, 1), "t") != 0)
	{
		PGresult   *loaded;
		const char *sqlstate;
		char		limit[32];
		double		began = ggp_now();

		if (network_seconds > 0)
		{
			/* in milliseconds, at least one: the setting's 0 is no limit */
			snprintf(limit, sizeof limit, "%.0f", fmax(1.0, network_seconds * 1000));
			params[0] = limit;
			PQclear(db_query(conn, "SELECT set_config('gametree.gdl_network_time', $1, false)", 1, params));
		}
		params[0] = name;
		loaded = db_query_try(conn, "SELECT engine FROM gametree.load_game($1, $2)", 2, params, &error);
		if (network_seconds > 0)
			PQclear(db_query(conn, "RESET gametree.gdl_network_time", 0, NULL));
		sqlstate = error ? PQresultErrorField(error, PG_DIAG_SQLSTATE) : NULL;
		if (!loaded && !(sqlstate && strcmp(sqlstate, "42710") == 0))
		{
			sb_printf(why, "the rules do not load: %s",
					  error ? PQresultErrorField(error, PG_DIAG_MESSAGE_PRIMARY) : "the connection failed");
			free(name);
			name = NULL;
		}
		/* a network too large for gametree.gdl_memory gives the prover too, but seldom just as late */
		*late = loaded && network_seconds > 0 && strcmp(PQgetvalue(loaded, 0, 0), "prover") == 0 &&
			ggp_now() - began >= network_seconds;
		PQclear(loaded);
	}
done:
	PQclear(res);
	PQclear(error);
	sb_free(&kif);
	return name;
}

/* A tree name no other match of any player takes: the time, the process and a count. */
static char *
new_tree_name(void)
{
	static int	count;
	char		name[64];

	snprintf(name, sizeof name, "ggp_%ld_%d_%d", (long) time(NULL), (int) getpid(),
			 __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST));
	return xstrdup(name);
}

static char *
seconds_text(double seconds)
{
	char		text[32];

	snprintf(text, sizeof text, "%.3f", seconds);
	return xstrdup(text);
}

/*
 * The search's action as KIF, or NULL when it failed or the deadline came
 * first (then it is cancelled, and m->in_flight says its results are
 * still to be read).  why tells which.
 */
static char *
search(const Player *p, Match *m, double deadline, StrBuf *why)
{
	double		began = ggp_now();
	double		left = deadline - began;
	double		limit = left - (left * SEARCH_SLACK_SHARE > SEARCH_SLACK_SECONDS ?
								left * SEARCH_SLACK_SHARE : SEARCH_SLACK_SECONDS);
	char	   *limit_text;
	char		index[16];
	const char *params[6];
	char	   *action = NULL;
	PGresult   *res;
	bool		late = false;

	if (limit < MIN_SEARCH_SECONDS)
	{
		sb_printf(why, "no time to search");
		return NULL;
	}
	limit_text = seconds_text(limit);
	snprintf(index, sizeof index, "%d", m->role_index);
	params[0] = m->game.name;
	params[1] = m->state;
	params[2] = limit_text;
	params[3] = p->method;
	params[4] = p->use_tree && m->tree_holds_state ? m->tree : NULL;
	params[5] = index;
	if (!query_send(m->conn, "SELECT gametree.to_kif(gametree.bestmove($1, $2::jsonb, "
					"time_limit => make_interval(secs => $3::float8), method => $4, tree => $5) -> $6::int -> 2)",
					6, params))
	{
		sb_printf(why, "%s", PQerrorMessage(m->conn));
		free(limit_text);
		return NULL;
	}
	free(limit_text);
	while (PQisBusy(m->conn))
	{
		double		left = deadline - ggp_now();

		if (left <= 0 || wait_socket(PQsocket(m->conn), WAIT_READ, left) == 0)
		{
			late = true;
			break;
		}
		if (!PQconsumeInput(m->conn))
			break;
	}
	if (late)
	{
		PGcancel   *cancel = PQgetCancel(m->conn);

		query_cancel(cancel);
		PQfreeCancel(cancel);
		m->in_flight = true;
		sb_printf(why, "the search, given %.3f s, ran out of time", limit);
		return NULL;
	}
	while ((res = PQgetResult(m->conn)) != NULL)
	{
		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) && !action)
			action = xstrdup(PQgetvalue(res, 0, 0));
		else if (PQresultStatus(res) != PGRES_TUPLES_OK)
			sb_printf(why, "the search failed: %s", PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) ?
					  PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : PQerrorMessage(m->conn));
		PQclear(res);
	}
	if (action)
		sb_printf(why, "searched %.3f s of %.3f", ggp_now() - began, limit);
	return action;
}

void
match_settle(Match *m)
{
	double		deadline = ggp_now() + SETTLE_SECONDS;
	PGresult   *res;

	if (!m->in_flight)
		return;
	m->in_flight = false;
	while (PQisBusy(m->conn))
	{
		double		left = deadline - ggp_now();

		if (left <= 0 || wait_socket(PQsocket(m->conn), WAIT_READ, left) == 0 || !PQconsumeInput(m->conn))
		{
			/* a server that does not end the search: a new connection for the match */
			report("match %s: the cancelled search did not end; reconnecting", m->id);
			PQreset(m->conn);
			return;
		}
	}
	while ((res = PQgetResult(m->conn)) != NULL)
		PQclear(res);
}

bool
match_preview(const Player *p, const Sexpr *rules, StrBuf *error)
{
	PGconn	   *conn = db_connect(p->conn);
	char	   *game;
	bool		late;

	if (!conn)
	{
		sb_printf(error, "cannot connect to the database");
		return false;
	}
	game = rules_game(conn, rules, 0, &late, error);
	PQfinish(conn);
	free(game);
	return game != NULL;
}

Match *
match_start(const Player *p, const char *id, const char *role, const Sexpr *rules,
			double start_clock, double play_clock, double received, StrBuf *error)
{
	Match	   *m = calloc(1, sizeof(Match));
	char	   *game = NULL;
	char	   *clocks[2];
	const char *params[6];
	StrBuf		ignored;
	double		left;

	if (!m)
		abort();
	m->id = xstrdup(id);
	m->role = xstrdup(role);
	m->start_clock = start_clock;
	m->play_clock = play_clock;
	m->seed = (unsigned) time(NULL) ^ (unsigned) getpid() ^ (unsigned) (uintptr_t) m;
	m->conn = db_connect(p->conn);
	if (!m->conn)
	{
		sb_printf(error, "cannot connect to the database");
		goto failed;
	}
	/*
	 * the network when it compiles in three quarters of what is left, else
	 * the prover (chess.kif: 6 s against 0.2 s): the quarter for the
	 * fallback, the tree and the record
	 */
	left = received + start_clock - p->margin - ggp_now();
	game = rules_game(m->conn, rules, fmax(left * 3 / 4, 0.001), &m->network_late, error);
	if (!game || !game_load(m->conn, game, &m->game))
	{
		if (game)
			sb_printf(error, "the game %s has no roles", game);
		goto failed;
	}
	m->role_index = game_role_index(&m->game, role);
	if (m->role_index < 0)
	{
		sb_printf(error, "%s is no role of the game", role);
		goto failed;
	}
	if (p->use_tree)
	{
		PGresult   *created;

		params[0] = m->tree = new_tree_name();
		params[1] = game;
		created = run(m->conn, "SELECT gametree.create_tree($1, $2)", 2, params, error);
		if (!created)
			goto failed;
		PQclear(created);
		/* its root, the first state */
		m->tree_holds_state = true;
	}
	clocks[0] = seconds_text(start_clock);
	clocks[1] = seconds_text(play_clock);
	params[0] = id;
	params[1] = game;
	params[2] = role;
	params[3] = clocks[0];
	params[4] = clocks[1];
	params[5] = m->tree;
	m->record = run_value(m->conn, "SELECT gametree.match_begin($1, $2, $3, make_interval(secs => $4::float8), "
						  "make_interval(secs => $5::float8), $6)", 6, params, error);
	free(clocks[0]);
	free(clocks[1]);
	if (!m->record)
		goto failed;
	params[0] = m->record;
	m->state = run_value(m->conn, "SELECT state FROM gametree.matches WHERE id = $1::bigint", 1, params, error);
	if (!m->state)
		goto failed;
	free(game);
	/* Metagaming: the search's memory, the tree, filled from the first state until the start clock's end. */
	if (p->use_tree)
	{
		sb_init(&ignored);
		free(search(p, m, received + start_clock - p->margin, &ignored));
		sb_free(&ignored);
	}
	return m;

failed:
	free(game);
	if (m->record)
	{
		sb_init(&ignored);
		match_abort(p, m, &ignored);
		sb_free(&ignored);
	}
	else if (m->tree && m->conn)
	{
		params[0] = m->tree;
		PQclear(db_query(m->conn, "SELECT gametree.drop_tree($1)", 1, params));
	}
	match_free(m);
	return NULL;
}

/*
 * A search with the tree needs the state among the tree's states.  It is,
 * when the search before expanded the state it came from; a search
 * cancelled at its deadline stored nothing, so the state it came from is
 * expanded now (one ply).  When even that is not in the tree, the next
 * search goes without it.
 */
static void
keep_in_tree(Match *m)
{
	const char *params[4] = {m->tree, m->game.name, m->state, m->previous};
	PGresult   *res;

	res = db_query(m->conn, "SELECT CASE WHEN EXISTS (SELECT FROM gametree.subtree($1, gametree.state_hash($2, $3::jsonb), 0)) "
				   "THEN 'held' WHEN $4::jsonb IS NOT NULL AND EXISTS (SELECT FROM gametree.subtree($1, "
				   "gametree.state_hash($2, $4::jsonb), 0)) THEN 'expanded' || gametree.expand($1, "
				   "gametree.state_hash($2, $4::jsonb)) ELSE 'not held' END", 4, params);
	m->tree_holds_state = res && strncmp(PQgetvalue(res, 0, 0), "not", 3) != 0;
	PQclear(res);
}

/* The joint move of moves (a KIF term per role, in role order) recorded, and the state it leads to. */
static bool
apply_moves(Match *m, const Sexpr *moves, StrBuf *why)
{
	json_object *kifs;
	StrBuf		term;
	const char *params[3];
	char	   *state;

	if (moves->symbol || moves->n != m->game.nroles)
	{
		sb_printf(why, "the moves are not a list of %d actions, one per role", m->game.nroles);
		return false;
	}
	kifs = json_object_new_array();
	sb_init(&term);
	for (int i = 0; i < moves->n; i++)
	{
		sb_reset(&term);
		sexpr_write(moves->items[i], &term);
		json_object_array_add(kifs, json_object_new_string(term.data));
	}
	sb_free(&term);
	params[0] = m->record;
	params[1] = json_object_to_json_string_ext(kifs, JSON_C_TO_STRING_PLAIN);
	params[2] = m->game.name;
	state = run_value(m->conn, "SELECT gametree.match_move($1::bigint, "
					  "(SELECT jsonb_agg(jsonb_build_array('does', r.role, gametree.from_kif(k.kif)) ORDER BY k.n) "
					  "FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY k(kif, n) "
					  "JOIN gametree.games() g ON g.game = $3 "
					  "CROSS JOIN LATERAL unnest(g.roles) WITH ORDINALITY r(role, n) WHERE r.n = k.n))",
					  3, params, why);
	json_object_put(kifs);
	if (!state)
		return false;
	free(m->previous);
	m->previous = m->state;
	m->state = state;
	return true;
}

char *
match_play(const Player *p, Match *m, const Sexpr *moves, double received, StrBuf *log)
{
	char		index[16];
	const char *params[3];
	PGresult   *legal;
	char	   *action = NULL;
	int			n;

	m->plays++;
	if (moves && !sexpr_is_symbol(moves, "nil") && !apply_moves(m, moves, log))
		return NULL;
	if (m->tree)
		keep_in_tree(m);
	snprintf(index, sizeof index, "%d", m->role_index);
	params[0] = m->game.name;
	params[1] = m->state;
	params[2] = index;
	legal = run(m->conn, "SELECT DISTINCT gametree.to_kif(m -> $3::int -> 2) FROM gametree.legal($1, $2::jsonb) m",
				3, params, log);
	if (!legal)
		return NULL;
	n = PQntuples(legal);
	if (n == 0)
		sb_printf(log, "the state is terminal: no action to play");
	else if (n == 1)
	{
		action = xstrdup(PQgetvalue(legal, 0, 0));
		sb_printf(log, "the only legal action");
	}
	else
	{
		StrBuf		why;

		sb_init(&why);
		action = search(p, m, received + m->play_clock - p->margin, &why);
		/* an action the rules do not allow here is no answer either */
		for (int i = 0; action && i < n; i++)
			if (strcmp(action, PQgetvalue(legal, i, 0)) == 0)
			{
				sb_append(log, why.data);
				break;
			}
			else if (i == n - 1)
			{
				sb_printf(&why, "the search answered %s, which is not legal", action);
				free(action);
				action = NULL;
			}
		if (!action)
		{
			action = xstrdup(PQgetvalue(legal, rand_r(&m->seed) % n, 0));
			sb_printf(log, "a random legal action (%s)", why.data);
		}
		sb_free(&why);
	}
	PQclear(legal);
	return action;
}

/* Ends the record: stopped (aborted false) or aborted; the goals, if any, in log. */
static bool
end_record(const Player *p, Match *m, bool aborted, StrBuf *log)
{
	const char *params[3] = {m->record, aborted ? "true" : "false", p->keep_trees ? "true" : "false"};
	PGresult   *res = run(m->conn, "SELECT gametree.match_end($1::bigint, $2::boolean, $3::boolean)",
						  3, params, log);

	if (!res)
		return false;
	sb_printf(log, "goals %s", PQgetisnull(res, 0, 0) ? "none" : PQgetvalue(res, 0, 0));
	PQclear(res);
	return true;
}

bool
match_stop(const Player *p, Match *m, const Sexpr *moves, StrBuf *log)
{
	StrBuf		why;
	bool		stopped;

	if (moves && !sexpr_is_symbol(moves, "nil") && !apply_moves(m, moves, log))
		return false;
	sb_init(&why);
	stopped = end_record(p, m, false, &why);
	if (!stopped)
	{
		/* a stop before the end of the game (the manager's): the record says aborted */
		sb_printf(log, "%s; ", why.data);
		stopped = end_record(p, m, true, log);
	}
	else
		sb_append(log, why.data);
	sb_free(&why);
	return stopped;
}

bool
match_abort(const Player *p, Match *m, StrBuf *log)
{
	return end_record(p, m, true, log);
}

bool
match_compile_network(Match *m, StrBuf *log)
{
	const char *params[1] = {m->game.name};
	double		until = ggp_now() + TREES_WAIT_SECONDS;

	if (!m->network_late)
		return false;
	for (;;)
	{
		PGresult   *error = NULL;
		PGresult   *res = db_query_try(m->conn, "SELECT engine FROM gametree.compile_network($1)", 1, params, &error);
		const char *sqlstate = error ? PQresultErrorField(error, PG_DIAG_SQLSTATE) : NULL;

		PQclear(res);
		if (res)
			return true;
		/* the trees of the game's other matches (self-play: the other roles' players) end with them */
		if (!(sqlstate && strcmp(sqlstate, "2BP01") == 0) || ggp_now() >= until)
		{
			sb_printf(log, "the game's network not compiled: %s",
					  error ? PQresultErrorField(error, PG_DIAG_MESSAGE_PRIMARY) : PQerrorMessage(m->conn));
			PQclear(error);
			return false;
		}
		PQclear(error);
		nanosleep(&(struct timespec) {.tv_nsec = TREES_WAIT_POLL_MSECS * 1000000L}, NULL);
	}
}

void
match_free(Match *m)
{
	if (!m)
		return;
	if (m->conn)
		PQfinish(m->conn);
	free(m->id);
	free(m->role);
	game_free(&m->game);
	free(m->tree);
	free(m->record);
	free(m->state);
	free(m->previous);
	free(m);
}
