/*
 * progress.h: the progress of a grow as the monitor sees it, shown as one
 * live line on a terminal and as a plain line now and then elsewhere.
 */
#ifndef GT_PROGRESS_H
#define GT_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#define PROGRESS_SAMPLES 11		/* 5 s of samples every 0.5 s: the window of the rate */

typedef struct Progress
{
	FILE	   *out;
	bool		live;			/* redraw one line (a terminal) */
	const char *tree;
	long long	target;			/* --states, 0 when not given */
	double		started;
	double		printed;		/* when the last plain line was printed */
	bool		drawn;			/* a live line is on the screen */
	long long	first_states;
	double		sample_time[PROGRESS_SAMPLES];
	long long	sample_states[PROGRESS_SAMPLES];
	int			nsamples;
} Progress;

double		now_seconds(void);
void		progress_start(Progress *p, const char *tree, long long states, long long target);
void		progress_update(Progress *p, long long states, long long edges, long long frontier,
							const char *phase);
void		progress_finish(Progress *p);
void		format_duration(double seconds, char *buf, size_t len);

#endif
