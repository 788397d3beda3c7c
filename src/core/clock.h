/*
 * clock.h: time limits that hold whatever a step of work costs.
 *
 * A step of search or expansion costs under a microsecond in a built-in
 * game and tens of milliseconds in a game the GDL prover evaluates, so
 * neither "look every N steps" nor "look every step" fits both: a GtClock
 * looks at the time every so many steps and adapts how many to what they
 * cost, aiming at a look every CLOCK_LOOK_USECS.
 *
 * A single step can still take longer than the time left (one prover
 * evaluation of a chess position is several milliseconds, a state's
 * expansion hundreds).  So while a clock runs, its deadline is also the
 * game's: rules that can take long (the prover) look at it as they work
 * and, past it, give up on the call.  The call then returns as at the end
 * of the game (no legal move, every goal GT_GOAL_MIN, no role in control)
 * and gt_clock_abandoned() turns true: the caller drops the step it was
 * in, whose results are meaningless, and stops.
 */
#ifndef GAMETREE_CLOCK_H
#define GAMETREE_CLOCK_H

#include "postgres.h"

#include "datatype/timestamp.h"

typedef struct GtClock
{
	TimestampTz deadline;		/* 0: none */
	TimestampTz looked;			/* the time at the last look */
	int32		interval;		/* steps between looks */
	int32		countdown;		/* steps to the next look */
} GtClock;

/*
 * Starts a clock, and makes its deadline the game's (0: none).  Call it
 * once what the caller cannot do without (the root's moves) is computed:
 * past the deadline, game calls give up.  At most one clock runs at a
 * time; an error stops it (a transaction callback).
 */
extern void gt_clock_start(GtClock *clock, TimestampTz deadline);
/* Stops the clock: game calls run to their end again. */
extern void gt_clock_stop(void);

/*
 * Per step: true when it is a step to look at the time (after reading it,
 * and checking for interrupts), or when a game call gave up.
 */
extern bool gt_clock_look(GtClock *clock);

/* Per step: is the deadline past, or did a game call give up? */
extern bool gt_clock_expired(GtClock *clock);

/* Did a game call give up since the clock started? */
extern bool gt_clock_abandoned(void);

/*
 * For the rules' inner loops (the prover): should the call give up?  Reads
 * the time only when a clock with a deadline runs; once true, stays true
 * until the clock stops.
 */
extern bool gt_game_give_up(void);

/* Registers the callback that stops a clock on error (from _PG_init). */
extern void gt_clock_init(void);

#endif
