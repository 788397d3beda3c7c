/*
 * frame.h: what the depth-first searches (alphabeta.c, maxn.c) share
 * (frame.c): a state and a moves list per ply, the principal variation
 * below each ply, the clock, and the node count.  Internal to search/.
 *
 * The per-node steps are inline: they run at every node of the search.
 */
#ifndef GAMETREE_SEARCH_FRAME_H
#define GAMETREE_SEARCH_FRAME_H

#include "core/clock.h"
#include "search/search.h"

typedef struct SearchFrame
{
	const Game *game;
	const SearchLimits *limits;
	int			root_role;		/* in control at the root */
	GameState  *states[SEARCH_MAX_PLY + 1];	/* [0]: the root */
	GameMove   *moves[SEARCH_MAX_PLY];	/* legal moves at each ply, game->max_moves each */
	SearchLine	pv[SEARCH_MAX_PLY]; /* the best line found below each ply */
	int			max_depth;		/* the deepest iteration: limits->max_depth within SEARCH_MAX_PLY */
	int64		nodes;
	GtClock		clock;			/* of limits->deadline; looks adapt to what nodes cost */
	bool		stopped;
} SearchFrame;

/*
 * Fills the frame for a search from root, whose role in control is
 * root_role, in the current memory context.
 */
extern void search_frame_init(SearchFrame *f, const Game *game, const GameState *root, int root_role,
							  const SearchLimits *limits);

/*
 * Lists the root's moves (moves[0]) and starts the clock: until then no
 * game call gives up.  Returns how many moves there are (the root is not
 * terminal: at least one).
 */
extern int	search_frame_start(SearchFrame *f);

/*
 * Once per node: counts it; past the deadline, or when a game call gave
 * up (core/clock.h), the search stops.  True when it goes on.
 */
static inline bool
search_frame_look(SearchFrame *f)
{
	f->nodes++;
	if (gt_clock_expired(&f->clock))
		f->stopped = true;
	return !f->stopped;
}

/*
 * The legal moves at ply into moves[ply]: how many, or -1 when a game call
 * gave up on them (no moves then means no end of the game), which stops
 * the search.
 */
static inline int
search_frame_legal(SearchFrame *f, int ply)
{
	int			n = f->game->legal(f->game, f->states[ply], f->moves[ply]);

	if (gt_clock_abandoned())
	{
		f->stopped = true;
		return -1;
	}
	return n;
}

/* The line at ply: move, then the line below it. */
static inline void
search_frame_update_pv(SearchFrame *f, int ply, GameMove move)
{
	SearchLine *line = &f->pv[ply];

	line->moves[0] = move;
	line->length = 1;
	if (ply + 1 < SEARCH_MAX_PLY)
	{
		const SearchLine *below = &f->pv[ply + 1];

		memcpy(&line->moves[1], below->moves, below->length * sizeof(GameMove));
		line->length += below->length;
	}
}

/* A root move's line from the frame's: the move, then the line below it at ply 1. */
static inline void
search_frame_root_pv(SearchFrame *f, RootMove *rm)
{
	search_frame_update_pv(f, 0, rm->move);
	rm->pv.length = f->pv[0].length;
	memcpy(rm->pv.moves, f->pv[0].moves, f->pv[0].length * sizeof(GameMove));
}

#endif
