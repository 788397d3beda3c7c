/*
 * memory.h: the memory settings that bound a call (gametree.work_memory,
 * search_memory, gdl_memory), each defined by its subsystem, and the
 * administrator's ceiling over all of them, gametree.max_memory.
 */
#ifndef GAMETREE_PG_MEMORY_H
#define GAMETREE_PG_MEMORY_H

/* One memory setting, in kB; defined with gt_define_memory_setting. */
typedef struct MemorySetting
{
	const char *name;			/* "gametree.work_memory" */
	int			default_kb;
	int			kb;				/* the GUC's variable */
} MemorySetting;

/* Defines gametree.max_memory; _PG_init calls it before any subsystem's init. */
extern void gt_memory_init(void);

/*
 * Defines a memory setting of a subsystem (PGC_USERSET, in kB, from min_kb
 * to max_kb).  The caller sets setting->name and default_kb; setting lives as
 * long as the backend.
 */
extern void gt_define_memory_setting(MemorySetting *setting, int min_kb, int max_kb,
									 const char *short_desc, const char *long_desc);

/*
 * The bytes a call may use by one of the memory settings; an ERROR (53400)
 * when the setting was set above gametree.max_memory (one left at its
 * default is held to the ceiling).  Checked where a call starts, not when
 * the setting is set, so that it does not matter in which order
 * postgresql.conf, ALTER ROLE and SET apply the two.
 */
extern Size gt_memory_limit(const MemorySetting *setting);

#endif
