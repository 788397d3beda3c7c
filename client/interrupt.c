/*
 * interrupt.c: the SIGINT handler only sets a flag; the loops that wait on
 * the server's sockets see it (select returns EINTR) and send the cancel
 * requests themselves.  A second Ctrl-C ends the client at once, for when
 * the server does not answer.
 */
#include "interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupt_flag = 0;

static void
on_interrupt(int signo)
{
	struct sigaction dfl;

	interrupt_flag = 1;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(signo, &dfl, NULL);
}

void
interrupt_also_on(int signo)
{
	struct sigaction sa;

	/* no SA_RESTART: select() must return, so that the loop sees the flag */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(signo, &sa, NULL);
}

void
interrupt_install(void)
{
	interrupt_also_on(SIGINT);
}

bool
interrupted(void)
{
	return interrupt_flag != 0;
}

void
interrupt_reset(void)
{
	interrupt_flag = 0;
}
