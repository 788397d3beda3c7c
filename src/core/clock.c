/*
 * clock.c: time limits whatever a step costs (clock.h).
 */
#include "postgres.h"

#include "access/xact.h"
#include "core/clock.h"
#include "miscadmin.h"
#include "utils/timestamp.h"

/* How often a clock aims to look at the time: overruns stay about this small. */
#define CLOCK_LOOK_USECS 200
/* Most steps between looks (cheap steps); the first look comes after one. */
#define CLOCK_MAX_INTERVAL 4096

/* The running clock's deadline, for the rules (0: none), and whether a call gave up. */
static TimestampTz game_deadline = 0;
static bool game_abandoned = false;

void
gt_clock_start(GtClock *clock, TimestampTz deadline)
{
	clock->deadline = deadline;
	clock->looked = GetCurrentTimestamp();
	clock->interval = clock->countdown = 1;
	game_deadline = deadline;
	game_abandoned = false;
}

void
gt_clock_stop(void)
{
	game_deadline = 0;
	game_abandoned = false;
}

bool
gt_clock_look(GtClock *clock)
{
	TimestampTz now;
	int64		elapsed;
	int64		interval;

	if (game_abandoned)
		return true;
	if (--clock->countdown > 0)
		return false;
	CHECK_FOR_INTERRUPTS();
	now = GetCurrentTimestamp();
	elapsed = Max(now - clock->looked, 1);
	/* Scale the interval to what the last one took, at most doubling it at a time. */
	interval = Min((int64) clock->interval * CLOCK_LOOK_USECS / elapsed, 2 * (int64) clock->interval);
	clock->interval = (int32) Max(1, Min(interval, CLOCK_MAX_INTERVAL));
	clock->countdown = clock->interval;
	clock->looked = now;
	return true;
}

bool
gt_clock_expired(GtClock *clock)
{
	if (!gt_clock_look(clock))
		return false;
	return game_abandoned || (clock->deadline != 0 && clock->looked >= clock->deadline);
}

bool
gt_clock_abandoned(void)
{
	return game_abandoned;
}

bool
gt_game_give_up(void)
{
	if (game_deadline == 0)
		return false;
	if (!game_abandoned && GetCurrentTimestamp() >= game_deadline)
		game_abandoned = true;
	return game_abandoned;
}

/* An error inside a clock's time leaves no deadline behind for the calls after it. */
static void
clock_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		gt_clock_stop();
}

static void
clock_subxact_callback(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid,
					   void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		gt_clock_stop();
}

void
gt_clock_init(void)
{
	RegisterXactCallback(clock_xact_callback, NULL);
	RegisterSubXactCallback(clock_subxact_callback, NULL);
}
