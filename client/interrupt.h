/*
 * interrupt.h: Ctrl-C as a flag that the main loops read, so that a query in
 * flight is cancelled on the server rather than left running there.
 */
#ifndef GT_INTERRUPT_H
#define GT_INTERRUPT_H

#include <stdbool.h>

void		interrupt_install(void);
bool		interrupted(void);

#endif
