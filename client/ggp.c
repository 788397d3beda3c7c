/*
 * ggp.c: the command ggp, a General Game Playing player: an HTTP server
 * that speaks the GGP protocol (info, preview, start, play, stop, abort)
 * to game managers, each match with its own connection to the database
 * (ggp_match.c).
 *
 * Every connection is served by a thread of its own, so several matches
 * play at once and a slow or hostile peer holds up nobody else: a request
 * must arrive whole within READ_SECONDS, bodies are capped at MAX_BODY, and
 * at most MAX_CONNECTIONS are served at a time.  Requests on one match are
 * served one after the other (its slot's lock), as a manager sends them.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ggp_match.h"
#include "http.h"
#include "interrupt.h"
#include "report.h"
#include "sexpr.h"
#include "util.h"

#define DEFAULT_HTTP_PORT 9147
#define DEFAULT_MARGIN_MS 300
#define MAX_BODY (4 * 1024 * 1024)
#define READ_SECONDS 30.0
#define WRITE_SECONDS 10
#define MAX_CONNECTIONS 64
#define MAX_MATCHES 32
#define MAX_LISTEN 8
/* A match not heard of for this long past its clocks' worth is taken as abandoned by its manager. */
#define ABANDONED_SECONDS 60.0

typedef struct Slot
{
	pthread_mutex_t lock;		/* held while a request works on the match */
	char	   *id;				/* NULL: free; set (registry.lock) from the start request on */
	Match	   *match;			/* NULL while the match starts */
	double		last_used;
} Slot;

static struct
{
	pthread_mutex_t lock;
	Slot		slots[MAX_MATCHES];
	int			connections;
}			registry = {.lock = PTHREAD_MUTEX_INITIALIZER};

static Player player;

/* One line on stderr: the time, then the text. */
static void
log_line(const char *fmt,...)
{
	char		when[32];
	struct timeval tv;
	struct tm	tm;
	StrBuf		line;
	va_list		ap;
	char		text[4096];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	sb_init(&line);
	sb_printf(&line, "%s.%03d %s\n", when, (int) (tv.tv_usec / 1000), text);
	fputs(line.data, stderr);
	sb_free(&line);
}

/* The slot of the match, locked, or NULL. */
static Slot *
slot_find(const char *id)
{
	Slot	   *found = NULL;

	pthread_mutex_lock(&registry.lock);
	for (int i = 0; i < MAX_MATCHES && !found; i++)
		if (registry.slots[i].id && registry.slots[i].match && strcmp(registry.slots[i].id, id) == 0)
			found = &registry.slots[i];
	pthread_mutex_unlock(&registry.lock);
	if (!found)
		return NULL;
	pthread_mutex_lock(&found->lock);
	/* the match may have ended while this request waited for it */
	pthread_mutex_lock(&registry.lock);
	if (!found->id || !found->match || strcmp(found->id, id) != 0)
	{
		pthread_mutex_unlock(&registry.lock);
		pthread_mutex_unlock(&found->lock);
		return NULL;
	}
	pthread_mutex_unlock(&registry.lock);
	return found;
}

/* Frees the locked slot (its match ended) and unlocks it. */
static void
slot_release(Slot *slot)
{
	Match	   *m = slot->match;

	pthread_mutex_lock(&registry.lock);
	free(slot->id);
	slot->id = NULL;
	slot->match = NULL;
	pthread_mutex_unlock(&registry.lock);
	pthread_mutex_unlock(&slot->lock);
	match_free(m);
}

/* Aborts the match of the locked slot, logs why, and frees the slot. */
static void
abort_slot(Slot *slot, const char *why)
{
	StrBuf		log;

	sb_init(&log);
	match_abort(&player, slot->match, &log);
	log_line("match %s: aborted, %s: %s", slot->match->id, why, log.data);
	sb_free(&log);
	slot_release(slot);
}

/* Aborts matches whose manager fell silent, so that their trees do not stay for ever. */
static void
abort_abandoned(void)
{
	double		now = ggp_now();

	for (int i = 0; i < MAX_MATCHES; i++)
	{
		Slot	   *slot = &registry.slots[i];

		if (pthread_mutex_trylock(&slot->lock) != 0)
			continue;
		if (!slot->match ||
			now - slot->last_used < ABANDONED_SECONDS + slot->match->start_clock + 10 * slot->match->play_clock)
		{
			pthread_mutex_unlock(&slot->lock);
			continue;
		}
		abort_slot(slot, "abandoned by its manager");
	}
}

/* A slot taken for a new match, or NULL when the id is playing or no slot is free (why says). */
static Slot *
slot_take(const char *id, const char **why)
{
	Slot	   *free_slot = NULL;

	abort_abandoned();
	pthread_mutex_lock(&registry.lock);
	*why = NULL;
	for (int i = 0; i < MAX_MATCHES; i++)
	{
		if (registry.slots[i].id && strcmp(registry.slots[i].id, id) == 0)
			*why = "a match of this id is being played";
		else if (!registry.slots[i].id && !free_slot)
			free_slot = &registry.slots[i];
	}
	if (!*why && !free_slot)
		*why = "busy: as many matches as the player plays at once";
	if (!*why)
	{
		free_slot->id = xstrdup(id);
		free_slot->match = NULL;
	}
	pthread_mutex_unlock(&registry.lock);
	return *why ? NULL : free_slot;
}

static bool
all_slots_taken(void)
{
	bool		taken = true;

	pthread_mutex_lock(&registry.lock);
	for (int i = 0; i < MAX_MATCHES; i++)
		if (!registry.slots[i].id)
			taken = false;
	pthread_mutex_unlock(&registry.lock);
	return taken;
}

/* A clock of a start request: seconds, more than 0 and at most a day. */
static bool
parse_clock(const Sexpr *e, double *seconds)
{
	char	   *end;

	if (!e->symbol)
		return false;
	errno = 0;
	*seconds = strtod(e->symbol, &end);
	return errno == 0 && end != e->symbol && *end == '\0' && *seconds > 0 && *seconds <= 86400;
}

/*
 * What a request gets: the HTTP status, the body, and the work left for
 * once the reply is out: a slot to settle and unlock, or a stop or abort
 * message whose match is to be ended.
 */
typedef struct Reply
{
	int			status;
	char	   *body;
	Slot	   *held;
	Sexpr	   *ending;
} Reply;

static void
reply_error(Reply *r, int status, const char *fmt,...)
{
	va_list		ap;
	char		text[1024];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	r->status = status;
	r->body = xmalloc(strlen(text) + 8);
	sprintf(r->body, "error: %s", text);
}

static void
on_start(const Sexpr *msg, double received, Reply *r)
{
	double		start_clock,
				play_clock;
	const char *why;
	Slot	   *slot;
	Match	   *m;
	StrBuf		error;

	if (msg->n != 6 || !msg->items[1]->symbol || !msg->items[2]->symbol || msg->items[3]->symbol ||
		!parse_clock(msg->items[4], &start_clock) || !parse_clock(msg->items[5], &play_clock))
	{
		reply_error(r, 400, "start takes MATCHID ROLE (RULES...) STARTCLOCK PLAYCLOCK, clocks in seconds");
		return;
	}
	slot = slot_take(msg->items[1]->symbol, &why);
	if (!slot)
	{
		reply_error(r, 400, "%s", why);
		return;
	}
	sb_init(&error);
	pthread_mutex_lock(&slot->lock);
	m = match_start(&player, msg->items[1]->symbol, msg->items[2]->symbol, msg->items[3], start_clock,
					play_clock, received, &error);
	/* once more while a second of the start clock is left: another match's start may have raced this one's */
	if (!m && received + start_clock - player.margin - ggp_now() > 1.0)
	{
		log_line("match %s: the start failed (%s); once more", msg->items[1]->symbol, error.data);
		sb_reset(&error);
		m = match_start(&player, msg->items[1]->symbol, msg->items[2]->symbol, msg->items[3], start_clock,
						play_clock, received, &error);
	}
	if (!m)
	{
		reply_error(r, 400, "cannot play match %s: %s", msg->items[1]->symbol, error.data);
		slot_release(slot);
	}
	else
	{
		pthread_mutex_lock(&registry.lock);
		slot->match = m;
		pthread_mutex_unlock(&registry.lock);
		slot->last_used = ggp_now();
		r->body = xstrdup("ready");
		/* the search of the start clock, cut short, is read off the connection after the reply */
		r->held = slot;
		log_line("match %s: %s of %s, record %s, tree %s; %.3f s of the start clock left", m->id, m->role,
				 m->game.name, m->record, m->tree ? m->tree : "none", received + start_clock - ggp_now());
	}
	sb_free(&error);
}

/*
 * The slot, locked, of the match a request of n items (the kind, the match
 * id, ...) names; NULL after replying with usage or an unknown match.
 */
static Slot *
request_slot(const Sexpr *msg, int n, const char *usage, Reply *r)
{
	Slot	   *slot;

	if (msg->n != n || !msg->items[1]->symbol)
	{
		reply_error(r, 400, "%s", usage);
		return NULL;
	}
	slot = slot_find(msg->items[1]->symbol);
	if (!slot)
		reply_error(r, 400, "no match %s is being played", msg->items[1]->symbol);
	return slot;
}

static void
on_play(const Sexpr *msg, double received, Reply *r)
{
	Slot	   *slot;
	StrBuf		log;
	char	   *action;

	slot = request_slot(msg, 3, "play takes MATCHID MOVES", r);
	if (!slot)
		return;
	sb_init(&log);
	action = match_play(&player, slot->match, msg->items[2], received, &log);
	slot->last_used = ggp_now();
	if (!action)
		reply_error(r, 400, "match %s: %s", slot->match->id, log.data);
	else
	{
		log_line("match %s: play %d: %s, %s; %.3f s of the play clock left", slot->match->id, slot->match->plays,
				 action, log.data, received + slot->match->play_clock - ggp_now());
		r->body = action;
	}
	sb_free(&log);
	/* a cancelled search is read off the connection after the reply: until then the match stays locked */
	r->held = slot;
}

/* Whether a match of this id is being played (started, not ended). */
static bool
match_known(const char *id)
{
	bool		known = false;

	pthread_mutex_lock(&registry.lock);
	for (int i = 0; i < MAX_MATCHES && !known; i++)
		known = registry.slots[i].id && registry.slots[i].match && strcmp(registry.slots[i].id, id) == 0;
	pthread_mutex_unlock(&registry.lock);
	return known;
}

/*
 * A stop or abort is answered at once and its match ended after the reply:
 * the end waits for the match's last search to settle and drops the tree,
 * which on a busy server can take longer than the clock the manager gives
 * the reply, and the manager learns nothing from it either way.
 */
static void
on_end(Sexpr *msg, bool aborted, Reply *r)
{
	if (msg->n != (aborted ? 2 : 3) || !msg->items[1]->symbol)
		reply_error(r, 400, "%s", aborted ? "abort takes MATCHID" : "stop takes MATCHID MOVES");
	else if (!match_known(msg->items[1]->symbol))
		reply_error(r, 400, "no match %s is being played", msg->items[1]->symbol);
	else
	{
		r->body = xstrdup("done");
		r->ending = msg;
	}
}

/* Ends the match of a stop or abort that on_end answered, unless another request ended it meanwhile. */
static void
end_match(const Sexpr *msg)
{
	bool		aborted = msg->n == 2;
	Slot	   *slot = slot_find(msg->items[1]->symbol);
	StrBuf		log;
	bool		ended;

	if (!slot)
	{
		log_line("match %s: ended already", msg->items[1]->symbol);
		return;
	}
	sb_init(&log);
	ended = aborted ? match_abort(&player, slot->match, &log) :
		match_stop(&player, slot->match, msg->items[2], &log);
	log_line("match %s: %s%s: %s", slot->match->id, aborted ? "aborted" : "stopped",
			 ended ? "" : ", the record not ended", log.data);
	sb_reset(&log);
	if (slot->match->network_late)
		log_line("match %s: %s", slot->match->id,
				 match_compile_network(slot->match, &log) ? "the game's network compiled and stored" : log.data);
	sb_free(&log);
	/* the manager is done with it either way */
	slot_release(slot);
}

static void
dispatch(const char *body, size_t len, double received, Reply *r)
{
	char		error[256];
	Sexpr	   *msg = sexpr_parse(body, len, error, sizeof error);
	const char *kind;

	if (!msg)
	{
		reply_error(r, 400, "not an S-expression: %s", error);
		return;
	}
	kind = !msg->symbol && msg->n > 0 ? msg->items[0]->symbol : NULL;
	if (!kind)
		reply_error(r, 400, "a request is a list that starts with its kind (info, preview, start, play, stop, abort)");
	else if (strcmp(kind, "info") == 0)
		r->body = xstrdup(all_slots_taken() ? "((name gametree) (status busy))" :
						  "((name gametree) (status available))");
	else if (strcmp(kind, "preview") == 0)
	{
		StrBuf		why;

		sb_init(&why);
		if (msg->n != 3 || msg->items[1]->symbol)
			reply_error(r, 400, "preview takes (RULES...) PREVIEWCLOCK");
		else if (!match_preview(&player, msg->items[1], &why))
			reply_error(r, 400, "%s", why.data);
		else
			r->body = xstrdup("ready");
		sb_free(&why);
	}
	else if (strcmp(kind, "start") == 0)
		on_start(msg, received, r);
	else if (strcmp(kind, "play") == 0)
		on_play(msg, received, r);
	else if (strcmp(kind, "stop") == 0)
		on_end(msg, false, r);
	else if (strcmp(kind, "abort") == 0)
		on_end(msg, true, r);
	else
		reply_error(r, 400, "unknown request \"%.40s\"", kind);
	if (msg != r->ending)
		sexpr_free(msg);
}

/* The request's kind and match, for the log: its first 80 bytes on one line. */
static void
request_summary(const char *body, char *out, size_t outlen)
{
	size_t		k = 0;

	for (size_t i = 0; body[i] && k + 1 < outlen && i < 80; i++)
		out[k++] = body[i] == '\n' || body[i] == '\r' || body[i] == '\t' ? ' ' : body[i];
	out[k] = '\0';
}

static void *
serve(void *arg)
{
	int			fd = (int) (intptr_t) arg;
	struct timeval tv = {WRITE_SECONDS, 0};
	HttpRequest req;
	char		error[256];
	int			status;
	Reply		r = {200, NULL, NULL, NULL};
	double		received;

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	status = http_read_request(fd, &req, MAX_BODY, READ_SECONDS, error, sizeof error);
	received = ggp_now();
	if (status < 0)
		log_line("a connection dropped: %s", error);
	else if (status > 0)
	{
		reply_error(&r, status, "%s", error);
		log_line("a request refused (%d): %s", status, error);
	}
	else if (strcmp(req.method, "OPTIONS") == 0)
		r.body = xstrdup("");
	else if (strcmp(req.method, "GET") == 0)
		r.body = xstrdup(all_slots_taken() ? "((name gametree) (status busy))" :
						 "((name gametree) (status available))");
	else if (strcmp(req.method, "POST") != 0)
		reply_error(&r, 405, "%.15s: GGP requests are POSTs", req.method);
	else
	{
		char		summary[96];

		dispatch(req.body, req.body_len, received, &r);
		request_summary(req.body, summary, sizeof summary);
		log_line("%s -> %d %.80s in %.3f s", summary, r.status, r.body, ggp_now() - received);
	}
	if (r.body && !http_reply(fd, r.status, r.body))
		log_line("the reply could not be sent: the peer is gone");
	close(fd);
	if (r.held)
	{
		match_settle(r.held->match);
		pthread_mutex_unlock(&r.held->lock);
	}
	if (r.ending)
	{
		end_match(r.ending);
		sexpr_free(r.ending);
	}
	free(r.body);
	if (status == 0)
		http_request_free(&req);
	pthread_mutex_lock(&registry.lock);
	registry.connections--;
	pthread_mutex_unlock(&registry.lock);
	return NULL;
}

static void
accept_one(int listener)
{
	int			fd = accept(listener, NULL, NULL);
	pthread_t	thread;
	pthread_attr_t attr;
	bool		room;

	if (fd < 0)
		return;
	pthread_mutex_lock(&registry.lock);
	room = registry.connections < MAX_CONNECTIONS;
	if (room)
		registry.connections++;
	pthread_mutex_unlock(&registry.lock);
	if (!room)
	{
		struct timeval tv = {1, 0};

		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		http_reply(fd, 503, "error: too many connections at once");
		close(fd);
		log_line("a connection refused: %d served at once already", MAX_CONNECTIONS);
		return;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&thread, &attr, serve, (void *) (intptr_t) fd) != 0)
	{
		close(fd);
		pthread_mutex_lock(&registry.lock);
		registry.connections--;
		pthread_mutex_unlock(&registry.lock);
	}
	pthread_attr_destroy(&attr);
}

/* At the end (Ctrl-C, SIGTERM): every match still played is aborted, its tree dropped unless kept. */
static void
abort_all(void)
{
	for (int i = 0; i < MAX_MATCHES; i++)
	{
		Slot	   *slot = &registry.slots[i];

		pthread_mutex_lock(&slot->lock);
		if (!slot->match)
		{
			pthread_mutex_unlock(&slot->lock);
			continue;
		}
		abort_slot(slot, "the player stops");
	}
}

static int
run_ggp(PGconn *conn, Args *args)
{
	int			fds[MAX_LISTEN];
	int			nfds;
	int			port = args->opt[OPT_HTTP_PORT] ? atoi(args->opt[OPT_HTTP_PORT]) : DEFAULT_HTTP_PORT;

	(void) conn;				/* main checked the extension through it; every match connects on its own */
	player.conn = &args->conn;
	/* a password typed once serves every match: nobody is there to type it again */
	if (args->conn.password_mode != PASSWORD_NEVER)
		args->conn.password_mode = args->conn.password ? PASSWORD_IF_NEEDED : PASSWORD_NEVER;
	player.method = args->opt[OPT_METHOD] ? args->opt[OPT_METHOD] : "auto";
	player.use_tree = strcmp(player.method, "auto") == 0 || strcmp(player.method, "mcts") == 0;
	player.keep_trees = args->opt[OPT_KEEP_TREES] != NULL;
	player.margin = (args->opt[OPT_MARGIN] ? atoi(args->opt[OPT_MARGIN]) : DEFAULT_MARGIN_MS) / 1000.0;
	for (int i = 0; i < MAX_MATCHES; i++)
		pthread_mutex_init(&registry.slots[i].lock, NULL);
	signal(SIGPIPE, SIG_IGN);
	interrupt_also_on(SIGTERM);
	nfds = http_listen(args->opt[OPT_LISTEN], port, fds, MAX_LISTEN);
	if (nfds < 0)
		return EXIT_FAILED;
	log_line("gametree ggp: listening on port %d (%s), method %s, margin %.3f s", port,
			 args->opt[OPT_LISTEN] ? args->opt[OPT_LISTEN] : "loopback", player.method, player.margin);
	while (!interrupted())
	{
		struct pollfd p[MAX_LISTEN];

		for (int i = 0; i < nfds; i++)
		{
			p[i].fd = fds[i];
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		if (poll(p, nfds, 500) <= 0)
			continue;
		for (int i = 0; i < nfds; i++)
			if (p[i].revents & POLLIN)
				accept_one(fds[i]);
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	log_line("gametree ggp: stopping");
	/* the aborts must run, not be cancelled as the signal cancels statements */
	interrupt_reset();
	abort_all();
	return 0;
}

const Command cmd_ggp = {
	"ggp", "[--http-port N] [--listen ADDR] [--method M] [--margin MS] [--keep-trees]",
	"a General Game Playing player for game managers, over HTTP",
	"Plays General Game Playing matches: an HTTP server speaking the GGP\n"
	"protocol (info, preview, start, play, stop, abort) as ggp-base's players\n"
	"do, on --http-port (default 9147) of the loopback addresses (127.0.0.1 and\n"
	"::1), or of ADDR with --listen (0.0.0.0 or :: for every address). On start\n"
	"the rules are loaded with gametree.load_game under a name derived from\n"
	"their text (ggp_ and 24 hex digits of their SHA-256), a tree is created\n"
	"for the match and searched from the first state until the start clock\n"
	"ends; every play applies the joint move and answers\n"
	"gametree.bestmove(..., tree => the match's tree) within the play clock,\n"
	"or a random legal action if the search fails or runs late. Every match\n"
	"has its own connection and is recorded in gametree.matches; its tree is\n"
	"dropped when it ends, or kept with --keep-trees. --method M searches\n"
	"with bestmove's method M instead (auto and mcts use the tree, others\n"
	"none). --margin MS (default 300) is kept back from every clock for the\n"
	"reply. One line per request goes to stderr. Ctrl-C or SIGTERM aborts the\n"
	"matches being played and stops. --port is the database's, as for every\n"
	"command.\n",
	OPT_BIT(OPT_HTTP_PORT) | OPT_BIT(OPT_LISTEN) | OPT_BIT(OPT_METHOD) | OPT_BIT(OPT_MARGIN) |
	OPT_BIT(OPT_KEEP_TREES),
	0, run_ggp
};
