/*
 * ggp_match.h: one General Game Playing match as the player plays it: its
 * own connection, its game loaded from the rules, its tree, and its record
 * in gametree.matches.  The caller (ggp.c) serialises the calls on a match.
 */
#ifndef GT_GGP_MATCH_H
#define GT_GGP_MATCH_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "connect.h"
#include "game.h"
#include "sexpr.h"
#include "util.h"

/* How the player plays, from its command line. */
typedef struct Player
{
	ConnOptions *conn;
	const char *method;			/* bestmove's method */
	bool		use_tree;		/* the method searches with the match's tree as memory */
	bool		keep_trees;		/* a match's tree outlives it */
	double		margin;			/* seconds kept back from every clock */
} Player;

typedef struct Match
{
	char	   *id;				/* the game manager's match id */
	char	   *role;
	int			role_index;
	Game		game;
	char	   *tree;			/* NULL: searches without one */
	char	   *record;			/* gametree.matches.id */
	double		start_clock;
	double		play_clock;
	PGconn	   *conn;
	char	   *state;			/* jsonb text */
	char	   *previous;		/* the state before the last joint move, NULL at first */
	bool		tree_holds_state;	/* the tree has state: searches use it */
	int			plays;
	bool		in_flight;		/* a search was cancelled: its results are still to be read */
	unsigned	seed;			/* for the random fallback action */
	bool		network_late;	/* its start loaded the game on the prover: its network came too late */
} Match;

/* Seconds on a monotonic clock. */
double		ggp_now(void);

/*
 * start: loads the rules (under a name derived from their text, so the
 * same rules reuse their game), creates the tree and the record, then
 * searches from the first state until the start clock (received + clock -
 * margin) runs out, a search cut short left for match_settle after the
 * reply.  A network that does not compile within three quarters of the
 * start clock left leaves the game on the prover; match_compile_network
 * compiles it after the match.  NULL with why in error.
 */
Match	   *match_start(const Player *p, const char *id, const char *role, const Sexpr *rules,
						double start_clock, double play_clock, double received, StrBuf *error);
/* preview: the rules loaded now, so that a start of them finds their game; false with why in error. */
bool		match_preview(const Player *p, const Sexpr *rules, StrBuf *error);
/*
 * play: the previous joint move (moves: NULL on the first play, else a
 * KIF term per role), then the action to play as KIF.  Always an action
 * when the match's state has legal moves: when the search fails or runs
 * out of time, a random legal one.  log tells how it was chosen.  NULL
 * with why in log when the moves cannot be applied.
 */
char	   *match_play(const Player *p, Match *m, const Sexpr *moves, double received, StrBuf *log);
/*
 * stop and abort: the last joint move (stop), then the record ended (its
 * goals in log) and the tree dropped unless kept.  False with why in log.
 */
bool		match_stop(const Player *p, Match *m, const Sexpr *moves, StrBuf *log);
bool		match_abort(const Player *p, Match *m, StrBuf *log);
/*
 * After the end of a match whose start gave its game the prover for want
 * of time: the game's network compiled and stored for the matches after
 * (gametree.compile_network), without a time limit, once the game's
 * other matches' trees are gone (30 s at most).  False when there was
 * nothing to do, or with why in log when it failed (a tree of the game
 * still there, a network too large).
 */
bool		match_compile_network(Match *m, StrBuf *log);
/* After the reply is out: reads what a cancelled search left on the connection. */
void		match_settle(Match *m);
void		match_free(Match *m);

#endif
