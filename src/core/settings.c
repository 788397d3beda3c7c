/*
 * settings.c: the module's entry: PG_MODULE_MAGIC and _PG_init, which builds
 * the games' tables once per backend and defines the settings.
 */
#include "postgres.h"

#include <limits.h>

#include "core/clock.h"
#include "core/game.h"
#include "core/settings.h"
#include "fmgr.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

int			gt_grow_batch_size = 4000;
int			gt_progress_interval = 1000;
int			gt_propagate_interval = 300000;
/* Defaults of the memory settings, in kB: one left at its default is held to max_memory. */
#define WORK_MEMORY_DEFAULT (1024 * 1024)
#define SEARCH_MEMORY_DEFAULT (64 * 1024)
#define GDL_MEMORY_DEFAULT (1024 * 1024)

int			gt_work_memory = WORK_MEMORY_DEFAULT;
int			gt_search_memory = SEARCH_MEMORY_DEFAULT;
int			gt_search_store_states = 100;
int			gt_gdl_memory = GDL_MEMORY_DEFAULT;
int			gt_gdl_max_size = 1024;
int			gt_max_memory = 1024 * 1024;

static const struct
{
	const char *name;
	const int  *kb;
	int			default_kb;
}			memory_settings[] = {
	[GT_SEARCH_MEMORY] = {"gametree.search_memory", &gt_search_memory, SEARCH_MEMORY_DEFAULT},
	[GT_WORK_MEMORY] = {"gametree.work_memory", &gt_work_memory, WORK_MEMORY_DEFAULT},
	[GT_GDL_MEMORY] = {"gametree.gdl_memory", &gt_gdl_memory, GDL_MEMORY_DEFAULT},
};

void		_PG_init(void);

Size
gt_memory_limit(GtMemorySetting setting)
{
	int			kb = *memory_settings[setting].kb;

	/*
	 * An administrator who lowers the ceiling for a role need not lower the
	 * settings the role never touched: their defaults follow it.
	 */
	if (kb == memory_settings[setting].default_kb)
		kb = Min(kb, gt_max_memory);
	if (kb > gt_max_memory)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%s (%d kB) is above gametree.max_memory (%d kB)",
						memory_settings[setting].name, kb, gt_max_memory),
				 errhint("Lower %s to at most %d kB; an administrator sets gametree.max_memory, "
						 "in postgresql.conf or per role with ALTER ROLE ... SET.",
						 memory_settings[setting].name, gt_max_memory)));
	return (Size) kb * 1024;
}

void
_PG_init(void)
{
	gt_init_games();
	gt_clock_init();

	DefineCustomIntVariable("gametree.grow_batch_size",
							"Most frontier states one batch of grow expands and commits.",
							"grow also keeps each batch within about half of "
							"gametree.progress_interval, so slow games take smaller batches.",
							&gt_grow_batch_size, 4000, 1, 1000000,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.progress_interval",
							"Time between grow's progress NOTICEs and progress row updates.",
							NULL,
							&gt_progress_interval, 1000, 10, 3600 * 1000,
							PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.propagate_interval",
							"Least time between the propagations of a grow before its last.",
							"grow also waits three times as long as the last propagation took, "
							"so that propagation stays under a quarter of the job.",
							&gt_propagate_interval, 300000, 0, 24 * 3600 * 1000,
							PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.work_memory",
							"Most memory a batch of grow or a propagation may hold; at most gametree.max_memory.",
							"Propagation holds every state and edge of the tree, about 100 bytes "
							"each for two-player games; a batch of grow, the states it expands.",
							&gt_work_memory, WORK_MEMORY_DEFAULT, 1024, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.search_memory",
							"Memory of one bestmove or analyse: alpha-beta's transposition table, "
							"Monte Carlo search's tree.",
							"Each table entry of 32 bytes holds what search found of one position; the "
							"table starts at 1 MB and doubles as it fills, within this.  Monte Carlo "
							"search stops adding nodes when its tree fills this much.  A search gives "
							"it all back when it ends; at most gametree.max_memory.",
							&gt_search_memory, SEARCH_MEMORY_DEFAULT, 64, 16 * 1024 * 1024,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.search_store_states",
							"Most states bestmove and analyse with a tree write back.",
							"They expand, breadth first from the searched position, the stored states "
							"the search looked at most (Monte Carlo: the nodes it expanded; alpha-beta: "
							"the best line).",
							&gt_search_store_states, 100, 1, 1000000,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.gdl_memory",
							"Most memory compiling one GDL game may use; at most gametree.max_memory.",
							"An eighth of it bounds the grounding of a game's network; a game whose "
							"network needs more is evaluated by the prover, whose queries of one state "
							"this also bounds.",
							&gt_gdl_memory, GDL_MEMORY_DEFAULT, 1024, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.max_memory",
							"Most memory any of gametree.search_memory, work_memory and gdl_memory "
							"may give a call.",
							"Only a superuser sets it (postgresql.conf, ALTER ROLE ... SET, or SET). "
							"A setting left at its default is held to it; a call whose setting was "
							"set above it fails at its start.",
							&gt_max_memory, 1024 * 1024, 1024, MAX_KILOBYTES,
							PGC_SUSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.gdl_max_size",
							"Largest GDL description load_game accepts.",
							"The text is stored in gametree.gdl_games as the extension's owner and "
							"compared by every backend that uses the game, so an administrator "
							"bounds it.  The sample descriptions take at most 40 kB.",
							&gt_gdl_max_size, 1024, 1, 1024 * 1024,
							PGC_SUSET, GUC_UNIT_KB, NULL, NULL, NULL);
	MarkGUCPrefixReserved("gametree");
}
