/*
 * settings.h: the extension's settings (GUCs), defined in _PG_init
 * (settings.c).  README.md, section Settings, documents each.
 */
#ifndef GAMETREE_SETTINGS_H
#define GAMETREE_SETTINGS_H

extern int	gt_grow_batch_size;		/* gametree.grow_batch_size: states */
extern int	gt_progress_interval;	/* gametree.progress_interval: ms */
extern int	gt_propagate_interval;	/* gametree.propagate_interval: ms */
extern int	gt_work_memory;		/* gametree.work_memory: kB */
extern int	gt_search_memory;	/* gametree.search_memory: kB */
extern int	gt_search_store_states;	/* gametree.search_store_states: states */
extern int	gt_gdl_memory;		/* gametree.gdl_memory: kB */
extern int	gt_gdl_max_size;	/* gametree.gdl_max_size: kB */

#endif
