/*
 * settings.c: the settings of growing, propagating and writing back
 * searched states.
 */
#include "postgres.h"

#include <limits.h>

#include "store/settings.h"
#include "utils/guc.h"

int			gt_grow_batch_size = 4000;
int			gt_progress_interval = 1000;
int			gt_propagate_interval = 300000;
int			gt_search_store_states = 100;
int			gt_solve_write_interval = 5000;
MemorySetting gt_work_memory = {"gametree.work_memory", 1024 * 1024};

void
store_init(void)
{
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
	gt_define_memory_setting(&gt_work_memory, 1024, MAX_KILOBYTES,
							 "Most memory a batch of grow or a propagation may hold; at most gametree.max_memory.",
							 "Propagation holds every state and edge of the tree, about 100 bytes "
							 "each for two-player games; a batch of grow, the states it expands.");
	DefineCustomIntVariable("gametree.search_store_states",
							"Most states bestmove and analyse with a tree write back.",
							"They expand, breadth first from the searched position, the stored states "
							"the search looked at most (Monte Carlo: the nodes it expanded; alpha-beta: "
							"the best line).",
							&gt_search_store_states, 100, 1, 1000000,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.solve_write_interval",
							"Time between solve's writes of what it proved, each committed.",
							"What a cancelled or killed solve loses at most; each write also "
							"costs the time to store what the search found since the last.",
							&gt_solve_write_interval, 5000, 10, 3600 * 1000,
							PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
}
