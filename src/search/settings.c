/*
 * settings.c: the memory one bestmove or analyse may use.
 */
#include "postgres.h"

#include "search/settings.h"

MemorySetting gt_search_memory = {"gametree.search_memory", 64 * 1024};

void
search_init(void)
{
	gt_define_memory_setting(&gt_search_memory, 64, 16 * 1024 * 1024,
							 "Memory of one bestmove or analyse: alpha-beta's transposition table, "
							 "Monte Carlo search's tree.",
							 "Each table entry of 32 bytes holds what search found of one position; the "
							 "table starts at 1 MB and doubles as it fills, within this.  Monte Carlo "
							 "search stops adding nodes when its tree fills this much.  A search gives "
							 "it all back when it ends; at most gametree.max_memory.");
}
