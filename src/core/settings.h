/*
 * settings.h: the extension's settings (GUCs), defined by
 * gt_settings_init (settings.c), which _PG_init calls.  README.md, section Settings, documents each.
 */
#ifndef GAMETREE_SETTINGS_H
#define GAMETREE_SETTINGS_H

extern void gt_settings_init(void);

extern int	gt_grow_batch_size;		/* gametree.grow_batch_size: states */
extern int	gt_progress_interval;	/* gametree.progress_interval: ms */
extern int	gt_propagate_interval;	/* gametree.propagate_interval: ms */
extern int	gt_work_memory;		/* gametree.work_memory: kB */
extern int	gt_search_memory;	/* gametree.search_memory: kB */
extern int	gt_search_store_states;	/* gametree.search_store_states: states */
extern int	gt_gdl_memory;		/* gametree.gdl_memory: kB */
extern int	gt_gdl_max_size;	/* gametree.gdl_max_size: kB */
extern int	gt_max_memory;		/* gametree.max_memory: kB, the administrator's ceiling */

/* The settings that bound a call's memory, each at most gametree.max_memory. */
typedef enum GtMemorySetting
{
	GT_SEARCH_MEMORY,
	GT_WORK_MEMORY,
	GT_GDL_MEMORY
} GtMemorySetting;

/*
 * The bytes a call may use by one of the memory settings; an ERROR
 * (53400) when the setting was set above gametree.max_memory (one left at
 * its default is held to the ceiling).  Checked where a
 * call starts, not when the setting is set, so that it does not matter in
 * which order postgresql.conf, ALTER ROLE and SET apply the two.
 */
extern Size gt_memory_limit(GtMemorySetting setting);

#endif
