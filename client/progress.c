/*
 * progress.c: states, edges, frontier, the rate and the time, for people
 * watching a grow.
 *
 * The rate is taken over the last 5 seconds rather than since the start:
 * grow's first batch can go on in memory for a long time and then store a
 * great many states at once, which would skew an average for the rest of
 * the job.  The ETA (with --states) divides what is left by that rate.
 */
#include "progress.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

#define PLAIN_INTERVAL 5.0		/* seconds between plain lines */

double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One format for every time the client prints: seconds to a tenth, after
 * the minutes and hours when there are any (9.6s, 10.0s, 2m05.0s,
 * 1h02m05.0s).
 */
void
format_duration(double seconds, char *buf, size_t len)
{
	long long	tenths = llround(seconds * 10);
	long long	s = tenths / 10;

	if (tenths < 0)
		tenths = s = 0;
	if (s < 60)
		snprintf(buf, len, "%lld.%llds", s, tenths % 10);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02lld.%llds", s / 60, s % 60, tenths % 10);
	else
		snprintf(buf, len, "%lldh%02lldm%02lld.%llds", s / 3600, s % 3600 / 60, s % 60, tenths % 10);
}

void
progress_start(Progress *p, const char *tree, long long states, long long target)
{
	p->out = stderr;
	p->live = isatty(fileno(stderr));
	p->tree = tree;
	p->target = target;
	p->started = p->printed = now_seconds();
	p->drawn = false;
	p->first_states = states;
	p->sample_time[0] = p->started;
	p->sample_states[0] = states;
	p->nsamples = 1;
}

/* States per second over the samples kept. */
static double
progress_rate(const Progress *p)
{
	double		span = p->sample_time[p->nsamples - 1] - p->sample_time[0];

	return span > 0 ? (p->sample_states[p->nsamples - 1] - p->sample_states[0]) / span : 0;
}

/* phase: what grow does when its counters stand still (grow.c), or NULL */
void
progress_update(Progress *p, long long states, long long edges, long long frontier,
				const char *phase)
{
	double		now = now_seconds();
	double		rate;
	char		elapsed[32],
				tail[200] = "";

	if (p->nsamples == PROGRESS_SAMPLES)
	{
		for (int i = 1; i < PROGRESS_SAMPLES; i++)
		{
			p->sample_time[i - 1] = p->sample_time[i];
			p->sample_states[i - 1] = p->sample_states[i];
		}
		p->nsamples--;
	}
	p->sample_time[p->nsamples] = now;
	p->sample_states[p->nsamples++] = states;

	if (!p->live && now - p->printed < PLAIN_INTERVAL)
		return;
	p->printed = now;
	rate = progress_rate(p);
	format_duration(now - p->started, elapsed, sizeof elapsed);
	if (phase)
		snprintf(tail, sizeof tail, ", %s", phase);
	else if (p->target > states && rate > 0)
	{
		char		left[32];

		format_duration((p->target - states) / rate, left, sizeof left);
		snprintf(tail, sizeof tail, ", ETA %s", left);
	}
	/* \033[K clears what a longer line before left on the screen */
	fprintf(p->out, "%s%s: %lld states, %lld edges, frontier %lld, %.0f states/s, %s%s%s",
			p->live ? "\r" : "", p->tree, states, edges, frontier, rate, elapsed, tail,
			p->live ? "\033[K" : "\n");
	fflush(p->out);
	p->drawn = p->live;
}

/* Ends the live line, so that what follows starts on a line of its own. */
void
progress_finish(Progress *p)
{
	if (p->drawn)
		fputs("\r\033[K", p->out);
	p->drawn = false;
}
