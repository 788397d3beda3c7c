/*
 * settings.h: the search's settings, defined by search_init, which _PG_init
 * calls.  The search itself never reads them: the SQL layer turns them into
 * the limits it passes (SearchLimits).
 */
#ifndef GAMETREE_SEARCH_SETTINGS_H
#define GAMETREE_SEARCH_SETTINGS_H

#include "pg/memory.h"

extern void search_init(void);

extern MemorySetting gt_search_memory;	/* gametree.search_memory */

#endif
