/*
 * values.h: the max^n value rules, pure C: how a state's value follows from
 * the values of its moves.  Propagation (store/propagate.c) and search call
 * these and nothing else, so the two always agree.
 *
 *  - utility: the role in control picks the move with the largest own
 *    component (max^n); ties go to a proven move, then to the move that
 *    leaves the other roles the fewest non-losing moves in total ("focus"),
 *    then to the one that leaves the mover the most, then to the move that
 *    leaves the other roles the least utility in total, then to the smallest
 *    move id.  Moves of unknown utility are skipped.  At simultaneous-move states
 *    the utility is the mean of the known moves.
 *  - proven: the chosen move is proven and no unknown or unproven move could
 *    do better (all are proven, or the choice already gives the maximum).
 *  - mobility of role R ("non-losing mobility"): when R is in control, the
 *    number of moves that are not a proven loss for R (goal 0); otherwise
 *    the minimum of R's mobility over the moves whose mobility is known.
 *
 * Utilities are kept in hundredths, as stored: equal values stay equal.
 */
#ifndef GAMETREE_VALUES_H
#define GAMETREE_VALUES_H

#include "core/game.h"

typedef struct Value
{
	bool		known;			/* utility known */
	bool		proven;
	double		utility[GT_MAX_ROLES];	/* hundredths-rounded, 0 when unknown */
	int32		mobility[GT_MAX_ROLES]; /* -1: unknown */
	int64		move_id;		/* of a move: its id; of a state: its best move, 0 if none */
} Value;

/* A value with nothing known. */
extern void value_unknown(const Game *game, Value *v);
/*
 * The value of a state before its moves are valued: its goals when
 * terminal (proven, mobility 0 for every role), else the game's estimate
 * (not proven), else nothing.
 */
extern void value_of_state(const Game *game, const GameState *state, bool terminal, Value *v);
/* Is move value a better choice than b for mover by the rules above?  (b may be unknown.) */
extern bool value_better(const Game *game, const Value *a, const Value *b, int mover);
/* The value of a state whose role in control is mover (or GT_NO_ROLE) from its moves'. */
extern void value_evaluate(const Game *game, int mover, const Value *moves, int n, Value *out);
/* Equal as stored: known, proven, best move, hundredths of utility, mobility. */
extern bool value_same(const Game *game, const Value *a, const Value *b);
/* Rounds a utility to the hundredths it is stored with. */
extern double value_round(double utility);

#endif
