/*
 * search_path.c: pinning search_path for the length of a call, so that no
 * object a role creates can stand in for the ones gametree means.
 */
#include "postgres.h"

#include "pg/search_path.h"
#include "utils/guc.h"

int
gt_pin_search_path(void)
{
	int			level = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return level;
}

void
gt_unpin_search_path(int level)
{
	AtEOXact_GUC(true, level);
}
