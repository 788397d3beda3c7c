/*
 * load_game.c: load_game(), unload_game() and the registry of GDL games.
 *
 * The descriptions live in gametree.gdl_games, so every session, later
 * connections and restored dumps see them.  Each backend compiles a game
 * the first time it is named and keeps it; load_game and unload_game send
 * a relcache invalidation for gametree.gdl_games, on which every backend
 * checks its compiled games against the table again before using them.
 * Like gametree.trees, the table is written by these functions alone, as
 * the extension's owner, after checking what the caller may do.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "core/settings.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "gdl/gdl.h"
#include "miscadmin.h"
#include "store/tree.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#define GDL_NAME_MAX 63

typedef struct LoadedGame
{
	char	   *name;
	char	   *kif;			/* the text it was compiled from */
	GdlEngine	engine;			/* and the engine stored with it */
	const Game *game;
	MemoryContext cxt;			/* holds all of the above */
	bool		stale;			/* gametree.gdl_games may have changed */
	struct LoadedGame *next;
} LoadedGame;

static LoadedGame *loaded = NULL;
/* Games replaced in this transaction: freed when it ends, not while in use. */
static LoadedGame *retired = NULL;
static bool callbacks_registered = false;

static Oid
gdl_games_relid(void)
{
	Oid			nsp = get_namespace_oid("gametree", true);

	return OidIsValid(nsp) ? get_relname_relid("gdl_games", nsp) : InvalidOid;
}

static void
games_changed(Datum arg, Oid relid)
{
	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		g->stale = true;
}

static void
free_retired(XactEvent event, void *arg)
{
	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
		event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT)
		return;
	while (retired != NULL)
	{
		LoadedGame *g = retired;

		retired = g->next;
		MemoryContextDelete(g->cxt);
	}
}

static void
register_callbacks(void)
{
	if (callbacks_registered)
		return;
	CacheRegisterRelcacheCallback(games_changed, (Datum) 0);
	RegisterXactCallback(free_retired, NULL);
	callbacks_registered = true;
}

static void
retire(LoadedGame *game)
{
	LoadedGame **link = &loaded;

	while (*link != game)
		link = &(*link)->next;
	*link = game->next;
	game->next = retired;
	retired = game;
}

/* The KIF text of a loaded game (palloc'd) and its engine, or NULL. */
static char *
stored_game(const char *name, GdlEngine *engine)
{
	char	   *kif = NULL;
	int			level;
	MemoryContext caller = CurrentMemoryContext;

	if (!OidIsValid(gdl_games_relid()))
		return NULL;
	SPI_connect();
	level = gt_pin_search_path();
	spi_run("SELECT kif, engine = 'prover' FROM gametree.gdl_games WHERE name = $1", 1, (Oid[]) {TEXTOID},
			(Datum[]) {CStringGetTextDatum(name)}, SPI_OK_SELECT);
	if (SPI_processed == 1)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		Datum		prover = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);
		MemoryContext spi = MemoryContextSwitchTo(caller);

		kif = TextDatumGetCString(d);
		*engine = DatumGetBool(prover) ? GDL_ENGINE_PROVER : GDL_ENGINE_NETWORK;
		MemoryContextSwitchTo(spi);
	}
	gt_unpin_search_path(level);
	SPI_finish();
	return kif;
}

/* Compiles name into a context of its own and adds it to the backend's games. */
static LoadedGame *
compile_and_keep(const char *name, const char *kif, GdlEngine engine, GdlStats *stats)
{
	MemoryContext cxt = AllocSetContextCreate(TopMemoryContext, "gametree GDL game",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext caller = MemoryContextSwitchTo(cxt);
	LoadedGame *entry = palloc0(sizeof(LoadedGame));

	PG_TRY();
	{
		entry->name = pstrdup(name);
		entry->kif = pstrdup(kif);
		entry->cxt = cxt;
		MemoryContextSetIdentifier(cxt, entry->name);
		entry->game = gdl_compile(entry->name, entry->kif, engine, gt_memory_limit(GT_GDL_MEMORY), stats);
		entry->engine = engine;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(caller);
		MemoryContextDelete(cxt);
		PG_RE_THROW();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(caller);
	entry->next = loaded;
	loaded = entry;
	return entry;
}

const Game *
gdl_find_game(const char *name)
{
	LoadedGame *entry;
	char	   *kif;
	GdlEngine	engine = GDL_ENGINE_AUTO;

	register_callbacks();
	for (entry = loaded; entry != NULL; entry = entry->next)
		if (strcmp(entry->name, name) == 0)
			break;
	if (entry != NULL && !entry->stale)
		return entry->game;
	kif = stored_game(name, &engine);
	if (entry != NULL)
	{
		if (kif != NULL && strcmp(kif, entry->kif) == 0 && engine == entry->engine)
		{
			entry->stale = false;
			return entry->game;
		}
		retire(entry);
	}
	if (kif == NULL)
		return NULL;
	return compile_and_keep(name, kif, engine, NULL)->game;
}

char *
gdl_game_names(void)
{
	StringInfoData names;
	int			level;
	MemoryContext caller = CurrentMemoryContext;

	initStringInfo(&names);
	if (!OidIsValid(gdl_games_relid()))
		return names.data;
	SPI_connect();
	level = gt_pin_search_path();
	spi_run("SELECT string_agg(name, ', ' ORDER BY name) FROM gametree.gdl_games", 0, NULL, NULL,
			SPI_OK_SELECT);
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		MemoryContext spi = MemoryContextSwitchTo(caller);

		if (!isnull)
			appendStringInfoString(&names, TextDatumGetCString(d));
		MemoryContextSwitchTo(spi);
	}
	gt_unpin_search_path(level);
	SPI_finish();
	return names.data;
}

void
gdl_list_games(Tuplestorestate *result, TupleDesc desc)
{
	int			level;

	if (!OidIsValid(gdl_games_relid()))
		return;
	SPI_connect();
	level = gt_pin_search_path();
	spi_run("SELECT name, roles, description FROM gametree.gdl_games ORDER BY name", 0, NULL, NULL,
			SPI_OK_SELECT);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		Datum		values[3];
		bool		nulls[3];

		heap_deform_tuple(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, values, nulls);
		tuplestore_putvalues(result, desc, values, nulls);
	}
	gt_unpin_search_path(level);
	SPI_finish();
}

static void
check_game_name(const char *name)
{
	int			len = strlen(name);

	if (len == 0 || len > GDL_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a game name has 1 to %d characters", GDL_NAME_MAX)));
	for (int i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
			  (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid game name \"%s\"", gt_abbreviate(name)),
					 errhint("Game names are letters, digits and underscores.")));
	for (int i = 0; i < gt_game_count(); i++)
		if (strcmp(gt_game_at(i)->name, name) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_OBJECT),
					 errmsg("game \"%s\" is built in", name),
					 errhint("Load the description under another name.")));
}

static void
games_table_changed(void)
{
	CacheInvalidateRelcacheByRelid(gdl_games_relid());
}

PG_FUNCTION_INFO_V1(gametree_load_game);
Datum
gametree_load_game(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *kif = text_to_cstring(PG_GETARG_TEXT_PP(1));
	TupleDesc	desc;
	GdlStats	stats;
	LoadedGame *entry;
	Datum	   *roles;
	Datum		values[7];
	bool		nulls[7] = {false};
	int			level;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "load_game must return a row");
	check_game_name(name);
	register_callbacks();
	SPI_connect();
	level = gt_pin_search_path();
	/* the name is free: taking it first makes a concurrent load of it wait, then fail */
	catalog_run("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('gametree.load_game ' || $1))",
				1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(name)}, SPI_OK_SELECT);
	spi_run("SELECT loaded_by FROM gametree.gdl_games WHERE name = $1", 1, (Oid[]) {TEXTOID},
			(Datum[]) {CStringGetTextDatum(name)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("game \"%s\" is already loaded", name),
				 errhint("SELECT gametree.unload_game('%s') first, or load it under another name.", name)));

	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		if (strcmp(g->name, name) == 0)
		{
			retire(g);
			break;
		}
	entry = compile_and_keep(name, kif, GDL_ENGINE_AUTO, &stats);
	entry->engine = stats.prover ? GDL_ENGINE_PROVER : GDL_ENGINE_NETWORK;
	roles = palloc(entry->game->nroles * sizeof(Datum));
	for (int r = 0; r < entry->game->nroles; r++)
		roles[r] = CStringGetTextDatum(entry->game->roles[r]);
	values[0] = CStringGetTextDatum(name);
	values[1] = PointerGetDatum(construct_array(roles, entry->game->nroles, TEXTOID, -1, false,
												TYPALIGN_INT));
	values[6] = CStringGetTextDatum(stats.prover ? "prover" : "network");
	catalog_run("INSERT INTO gametree.gdl_games (name, kif, roles, description, engine, loaded_by) "
				"VALUES ($1, $2, $3, $4, $5, $6)", 6,
				(Oid[]) {TEXTOID, TEXTOID, TEXTARRAYOID, TEXTOID, TEXTOID, NAMEOID},
				(Datum[]) {values[0], CStringGetTextDatum(kif), values[1],
				CStringGetTextDatum(entry->game->description), values[6],
				DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false)))},
				SPI_OK_INSERT);
	games_table_changed();
	gt_unpin_search_path(level);
	SPI_finish();

	values[2] = Int32GetDatum(stats.facts);
	values[3] = Int32GetDatum(stats.actions);
	values[4] = Int32GetDatum(stats.rules);
	values[5] = Int32GetDatum(stats.nodes);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(gametree_unload_game);
Datum
gametree_unload_game(PG_FUNCTION_ARGS)
{
	text	   *name = PG_GETARG_TEXT_PP(0);
	char	   *cname = text_to_cstring(name);
	int			level;
	bool		isnull;
	Oid			loader;

	SPI_connect();
	level = gt_pin_search_path();
	/* the row lock waits for create_tree calls that are taking the game */
	catalog_run("SELECT loaded_by FROM gametree.gdl_games WHERE name = $1 FOR UPDATE", 1,
				(Oid[]) {TEXTOID}, (Datum[]) {PointerGetDatum(name)}, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("game \"%s\" is not loaded", gt_abbreviate(cname)),
				 errhint("gametree.gdl_games lists the loaded games.")));
	loader = get_role_oid(NameStr(*DatumGetName(SPI_getbinval(SPI_tuptable->vals[0],
																SPI_tuptable->tupdesc, 1, &isnull))),
						  true);
	if (loader != GetUserId() && !superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to unload game \"%s\"", cname),
				 errdetail("Only the role that loaded it, or a superuser, may unload it.")));
	catalog_run("SELECT string_agg(pg_catalog.format('%I.%I', schema, name), ', ' ORDER BY schema, name), "
				"count(*) FROM gametree.trees WHERE game = $1", 1, (Oid[]) {TEXTOID},
				(Datum[]) {PointerGetDatum(name)}, SPI_OK_SELECT);
	if (DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("game \"%s\" is used by trees", cname),
				 errdetail("Trees of the game: %s.",
						   gt_abbreviate(TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0],
																		   SPI_tuptable->tupdesc, 1, &isnull)))),
				 errhint("Drop them with gametree.drop_tree first.")));
	catalog_run("DELETE FROM gametree.gdl_games WHERE name = $1", 1, (Oid[]) {TEXTOID},
				(Datum[]) {PointerGetDatum(name)}, SPI_OK_DELETE);
	games_table_changed();
	gt_unpin_search_path(level);
	SPI_finish();
	PG_RETURN_VOID();
}
