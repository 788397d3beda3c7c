/*
 * settings.h: the store's settings (GUCs), defined by store_init, which
 * _PG_init calls.  README.md, section Settings, documents each.
 */
#ifndef GAMETREE_STORE_SETTINGS_H
#define GAMETREE_STORE_SETTINGS_H

#include "pg/memory.h"

extern void store_init(void);

extern int	gt_grow_batch_size;		/* gametree.grow_batch_size: states */
extern int	gt_solve_write_interval;	/* gametree.solve_write_interval: ms */
extern int	gt_progress_interval;	/* gametree.progress_interval: ms */
extern int	gt_propagate_interval;	/* gametree.propagate_interval: ms */
extern int	gt_search_store_states;	/* gametree.search_store_states: states */
extern MemorySetting gt_work_memory;	/* gametree.work_memory */

#endif
