/*
 * interrupt.h: Ctrl-C as a flag that the main loops read, so that a query in
 * flight is cancelled on the server rather than left running there.
 */
#ifndef GT_INTERRUPT_H
#define GT_INTERRUPT_H

#include <stdbool.h>

void		interrupt_install(void);
/* Another signal (SIGTERM) handled as Ctrl-C is. */
void		interrupt_also_on(int signo);
bool		interrupted(void);
/* Forgets the signal: the statements that follow run (a second one ends the program). */
void		interrupt_reset(void);

#endif
