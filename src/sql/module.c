/*
 * module.c: the extension's entry.  _PG_init runs once per backend, when
 * the library is loaded, and asks each subsystem to set itself up, lowest
 * layer first; each defines its own settings.
 */
#include "postgres.h"

#include "fmgr.h"
#include "core/clock.h"
#include "games/games.h"
#include "gdl/gdl.h"
#include "pg/memory.h"
#include "search/settings.h"
#include "store/settings.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	gt_memory_init();
	gt_clock_init();
	games_register();
	gdl_init();
	search_init();
	store_init();
	/* Only gametree defines gametree.* settings: a misspelt one is an error, not a new variable. */
	MarkGUCPrefixReserved("gametree");
}
