/*
 * memory.c: the memory ceiling gametree.max_memory and the settings it
 * binds.
 */
#include "postgres.h"

#include <limits.h>

#include "pg/memory.h"
#include "utils/guc.h"

static int	max_memory_kb = 1024 * 1024;

void
gt_memory_init(void)
{
	DefineCustomIntVariable("gametree.max_memory",
							"Most memory any of gametree.search_memory, work_memory and gdl_memory "
							"may give a call.",
							"Only a superuser sets it (postgresql.conf, ALTER ROLE ... SET, or SET). "
							"A setting left at its default is held to it; a call whose setting was "
							"set above it fails at its start.",
							&max_memory_kb, 1024 * 1024, 1024, MAX_KILOBYTES,
							PGC_SUSET, GUC_UNIT_KB, NULL, NULL, NULL);
}

void
gt_define_memory_setting(MemorySetting *setting, int min_kb, int max_kb,
						 const char *short_desc, const char *long_desc)
{
	setting->kb = setting->default_kb;
	DefineCustomIntVariable(setting->name, short_desc, long_desc,
							&setting->kb, setting->default_kb, min_kb, max_kb,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
}

Size
gt_memory_limit(const MemorySetting *setting)
{
	int			kb = setting->kb;

	/*
	 * An administrator who lowers the ceiling for a role need not lower the
	 * settings the role never touched: their defaults follow it.
	 */
	if (kb == setting->default_kb)
		kb = Min(kb, max_memory_kb);
	if (kb > max_memory_kb)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%s (%d kB) is above gametree.max_memory (%d kB)",
						setting->name, kb, max_memory_kb),
				 errhint("Lower %s to at most %d kB; an administrator sets gametree.max_memory, "
						 "in postgresql.conf or per role with ALTER ROLE ... SET.",
						 setting->name, max_memory_kb)));
	return (Size) kb * 1024;
}
