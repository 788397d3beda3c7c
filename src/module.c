/*
 * module.c: the extension's entry.  _PG_init runs once per backend, when
 * the library is loaded, and asks each subsystem to set itself up: the
 * settings, the search clock, the compiled-in games and the games loaded
 * from GDL.
 */
#include "postgres.h"

#include "fmgr.h"
#include "core/clock.h"
#include "core/settings.h"
#include "games/games.h"
#include "gdl/gdl.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	gt_settings_init();
	gt_clock_init();
	games_register();
	gdl_init();
}
