/*
 * line.h: a line of moves played from a state, one move at a time.  Every
 * caller that follows a line (a principal variation, a line of moves given
 * in SQL) plays it through this, so that how a line is replayed is written
 * once.
 */
#ifndef GAMETREE_LINE_H
#define GAMETREE_LINE_H

#include "core/game.h"

typedef struct GameLine
{
	const Game *game;
	GameState  *at;				/* the state the next move is played from */
	GameState  *scratch;		/* where next() writes; swapped with at */
} GameLine;

/* Starts a line at a copy of from (from itself is not changed). */
extern void gt_line_begin(GameLine *line, const Game *game, const GameState *from);

/* Plays move, which must be legal in line->at; line->at is then the state after it. */
extern void gt_line_play(GameLine *line, GameMove move);

/*
 * The state after a line of moves (a JSON array, each move in any form
 * gt_decode_move takes) from state; an ERROR (22023) names the first move
 * that is not legal where it is played.  palloc'd.
 */
extern GameState *gt_line_end(const Game *game, const GameState *state, Jsonb *moves);

/*
 * A line of moves (a JSON array, each move in any form gt_decode_move takes)
 * from state, each in the game's notation, separated by blanks: "e4 e5 Nf3"
 * in chess.  palloc'd.
 */
extern char *gt_line_notation(const Game *game, const GameState *state, Jsonb *moves);

#endif
