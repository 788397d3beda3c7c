/*
 * load_game.c: loading and unloading GDL games (gametree.load_game and
 * unload_game, sql/gdl.c) and the registry of GDL games.
 *
 * The descriptions live in gametree.gdl_games, so every session, later
 * connections and restored dumps see them, with the network load_game
 * compiled (gdl_network_bytes).  Each backend reads that network, or
 * compiles the description when there is none it can read, the first time
 * a game is named, and keeps the game.  load_game and unload_game send
 * a relcache invalidation for gametree.gdl_games, on which every backend
 * compares the SHA-256 of the text it compiled with the table's before it
 * uses a game again, and a reset of every backend's cached plans, which may
 * hold results of the IMMUTABLE rule functions folded with the old rules.
 *
 * A game that is replaced or unloaded while this backend still uses it is
 * retired, not freed: retired games are freed when the transaction ends,
 * unless a call that runs across transactions (CALL grow) holds them.  A
 * game that a tree uses cannot be unloaded at all (unload_game checks the
 * trees against the newest committed data, and create_tree locks the game's
 * row before it compiles the game), so a tree never changes rules.
 *
 * Like gametree.trees, the table is written by these functions alone, as
 * the extension's owner, after checking what the caller may do.
 */
#include "postgres.h"

#include "core/compact.h"

#include <limits.h>

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "common/cryptohash.h"
#include "common/sha2.h"
#include "executor/spi.h"
#include "gdl/gdl.h"
#include "miscadmin.h"
#include "pg/memory.h"
#include "pg/search_path.h"
#include "pg/spi.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#define GDL_NAME_MAX 63

/* The settings of compiling a game: one description's size and memory. */
static MemorySetting gdl_memory = {"gametree.gdl_memory", 1024 * 1024};
static int	gdl_max_size_kb = 1024;
/* gametree.gdl_network_time: milliseconds, 0 for no limit */
static int	gdl_network_time_ms = 0;

typedef struct LoadedGame
{
	char	   *name;
	uint8		digest[PG_SHA256_DIGEST_LENGTH];	/* of the text it was compiled from */
	GdlEngine	engine;			/* and the engine stored with it */
	const Game *game;
	MemoryContext cxt;			/* holds all of the above */
	bool		stale;			/* gametree.gdl_games may have changed */
	int			holds;			/* calls of this backend that use it across transactions */
	struct LoadedGame *next;
} LoadedGame;

static LoadedGame *loaded = NULL;
/* Games replaced or unloaded while in use: freed once no call uses them. */
static LoadedGame *retired = NULL;
static bool callbacks_registered = false;
/* gametree.gdl_games, looked up again after any invalidation of it. */
static Oid	games_relid = InvalidOid;

static Oid
gdl_games_relid(void)
{
	if (!OidIsValid(games_relid))
	{
		Oid			nsp = get_namespace_oid("gametree", true);

		games_relid = OidIsValid(nsp) ? get_relname_relid("gdl_games", nsp) : InvalidOid;
	}
	return games_relid;
}

/*
 * Whether gdl_games has its network column: not until ALTER EXTENSION
 * gametree UPDATE has run, while this library already serves the older
 * catalog.
 */
static bool
networks_stored(void)
{
	return OidIsValid(gdl_games_relid()) && get_attnum(gdl_games_relid(), "network") != InvalidAttrNumber;
}

/*
 * Only an invalidation of gametree.gdl_games (or of every relation, after an
 * overflow of the invalidation queue) makes compiled games stale: the DDL of
 * other tables, temporary ones included, must not cost each GDL call a look
 * at the table.
 */
static void
games_changed(Datum arg, Oid relid)
{
	if (OidIsValid(relid) && relid != games_relid)
		return;
	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		g->stale = true;
	games_relid = InvalidOid;
}

static void
free_retired(XactEvent event, void *arg)
{
	LoadedGame **link = &retired;

	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
		event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT)
		return;
	while (*link != NULL)
	{
		LoadedGame *g = *link;

		if (g->holds > 0)
		{
			link = &g->next;
			continue;
		}
		*link = g->next;
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

static LoadedGame *
entry_of(const Game *game)
{
	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		if (g->game == game)
			return g;
	for (LoadedGame *g = retired; g != NULL; g = g->next)
		if (g->game == game)
			return g;
	return NULL;
}

void
gdl_hold_game(const Game *game)
{
	LoadedGame *entry = entry_of(game);

	if (entry != NULL)
		entry->holds++;
}

void
gdl_release_game(const Game *game)
{
	LoadedGame *entry = entry_of(game);

	if (entry != NULL && entry->holds > 0)
		entry->holds--;
}

void
gdl_recheck_games(void)
{
	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		g->stale = true;
}

static void
sha256_of(const char *text, uint8 *digest)
{
	pg_cryptohash_ctx *ctx = pg_cryptohash_create(PG_SHA256);

	if (pg_cryptohash_init(ctx) < 0 || pg_cryptohash_update(ctx, (const uint8 *) text, strlen(text)) < 0 ||
		pg_cryptohash_final(ctx, digest, PG_SHA256_DIGEST_LENGTH) < 0)
		elog(ERROR, "gametree: could not compute a SHA-256 digest");
	pg_cryptohash_free(ctx);
}

/* A digest as bytea; NULL gives an empty bytea, which equals no digest. */
static Datum
digest_datum(const uint8 *digest)
{
	Size		len = digest != NULL ? PG_SHA256_DIGEST_LENGTH : 0;
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	if (len > 0)
		memcpy(VARDATA(b), digest, len);
	return PointerGetDatum(b);
}

/* What gametree.gdl_games holds of a game, as stored_game reads it. */
typedef struct StoredGame
{
	bool		found;
	GdlEngine	engine;
	char	   *kif;			/* NULL when its digest is the one asked about */
	bytea	   *network;		/* its compiled network; NULL then too, or when none is stored */
} StoredGame;

/*
 * The row of a loaded game.  Its text is read only when its digest differs
 * from known (NULL: always): a backend that checks a game it compiled reads
 * 32 bytes, not the description.
 */
static StoredGame
stored_game(const char *name, const uint8 *known)
{
	StoredGame	stored = {false, GDL_ENGINE_AUTO, NULL, NULL};
	int			level;
	MemoryContext caller = CurrentMemoryContext;

	if (!OidIsValid(gdl_games_relid()))
		return stored;
	SPI_connect();
	level = gt_pin_search_path();
	spi_run(networks_stored() ?
			"SELECT engine = 'prover', CASE WHEN kif_sha256 = $2 THEN NULL ELSE kif END, "
			"CASE WHEN kif_sha256 = $2 THEN NULL ELSE network END "
			"FROM gametree.gdl_games WHERE name = $1" :
			"SELECT engine = 'prover', CASE WHEN kif_sha256 = $2 THEN NULL ELSE kif END, NULL::pg_catalog.bytea "
			"FROM gametree.gdl_games WHERE name = $1", 2, (Oid[]) {TEXTOID, BYTEAOID},
			(Datum[]) {CStringGetTextDatum(name), digest_datum(known)},
			SPI_OK_SELECT);
	if (SPI_processed == 1)
	{
		bool		prover_null,
					kif_null,
					network_null;
		Datum		prover = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &prover_null);
		Datum		kif = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &kif_null);
		Datum		network = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &network_null);
		MemoryContext spi = MemoryContextSwitchTo(caller);

		stored.found = true;
		stored.engine = DatumGetBool(prover) ? GDL_ENGINE_PROVER : GDL_ENGINE_NETWORK;
		stored.kif = kif_null ? NULL : TextDatumGetCString(kif);
		stored.network = network_null ? NULL : DatumGetByteaPCopy(network);
		MemoryContextSwitchTo(spi);
	}
	gt_unpin_search_path(level);
	SPI_finish();
	return stored;
}

/*
 * The game of a stored network, or NULL when it is not one this build
 * reads: it is then compiled from its text, and a damaged one is reported.
 */
static const Game *
read_stored_network(const char *name, const bytea *network)
{
	const char *why;
	bool		damaged;
	const Game *game = gdl_compile_stored(name, network, gt_memory_limit(&gdl_memory), &why, &damaged);

	if (game != NULL)
		elog(DEBUG1, "game \"%s\": read its stored network", name);
	else
		ereport(damaged ? WARNING : DEBUG1,
				(errmsg("game \"%s\": its stored network is not used: %s", name, why),
				 errdetail("It is compiled from its description instead."),
				 damaged ? errhint("Load the game again (unload_game, load_game) to store its network anew.") : 0));
	return game;
}

/*
 * Compiles name into a context of its own and adds it to the backend's
 * games; from network, when it is given and this build reads it.
 */
static LoadedGame *
compile_and_keep(const char *name, const char *kif, GdlEngine engine, const bytea *network,
				 TimestampTz network_deadline, GdlStats *stats)
{
	MemoryContext cxt = AllocSetContextCreate(TopMemoryContext, "gametree GDL game",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext caller = MemoryContextSwitchTo(cxt);
	LoadedGame *entry = palloc0(sizeof(LoadedGame));

	PG_TRY();
	{
		entry->name = pstrdup(name);
		entry->cxt = cxt;
		MemoryContextSetIdentifier(cxt, entry->name);
		sha256_of(kif, entry->digest);
		if (network != NULL)
			entry->game = read_stored_network(entry->name, network);
		if (entry->game == NULL)
			entry->game = gdl_compile(entry->name, kif, engine, gt_memory_limit(&gdl_memory), network_deadline,
									  stats);
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

static const Game *
find_loaded_game(const char *name)
{
	LoadedGame *entry;
	StoredGame	stored;

	register_callbacks();
	for (entry = loaded; entry != NULL; entry = entry->next)
		if (strcmp(entry->name, name) == 0)
			break;
	if (entry != NULL && !entry->stale)
		return entry->game;
	stored = stored_game(name, entry != NULL ? entry->digest : NULL);
	if (entry != NULL)
	{
		if (stored.found && stored.kif == NULL && stored.engine == entry->engine)
		{
			entry->stale = false;
			return entry->game;
		}
		retire(entry);
	}
	if (!stored.found)
		return NULL;
	if (stored.kif == NULL)		/* same text, other engine: read the text */
		stored = stored_game(name, NULL);
	if (!stored.found)
		return NULL;
	return compile_and_keep(name, stored.kif, stored.engine,
							stored.engine == GDL_ENGINE_NETWORK ? stored.network : NULL, 0, NULL)->game;
}

/*
 * The game of a number: the names of the games loaded are few, and a
 * number is a hash of a name, so each name's is computed.
 */
static const Game *
find_loaded_game_by_number(int32 number)
{
	char	   *name = NULL;
	int			level;
	MemoryContext caller = CurrentMemoryContext;

	for (LoadedGame *entry = loaded; entry != NULL; entry = entry->next)
		if (gt_game_number(entry->name) == number)
			return find_loaded_game(entry->name);
	if (!OidIsValid(gdl_games_relid()))
		return NULL;
	SPI_connect();
	level = gt_pin_search_path();
	spi_run("SELECT name FROM gametree.gdl_games", 0, NULL, NULL, SPI_OK_SELECT);
	for (uint64 i = 0; i < SPI_processed && name == NULL; i++)
	{
		char	   *candidate = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);

		if (gt_game_number(candidate) == number)
			name = MemoryContextStrdup(caller, candidate);
	}
	gt_unpin_search_path(level);
	SPI_finish();
	return name != NULL ? find_loaded_game(name) : NULL;
}

static char *
loaded_game_names(void)
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

static void
list_loaded_games(Tuplestorestate *result, TupleDesc desc)
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

static const GameSource gdl_source = {
	.label = "loaded from GDL",
	.find = find_loaded_game,
	.find_number = find_loaded_game_by_number,
	.names = loaded_game_names,
	.list = list_loaded_games,
};

void
gdl_init(void)
{
	gt_define_memory_setting(&gdl_memory, 1024, MAX_KILOBYTES,
							 "Most memory compiling one GDL game may use; at most gametree.max_memory.",
							 "Half of it bounds the grounding of a game's network; a game whose "
							 "network needs more is evaluated by the prover, whose queries of one state "
							 "this also bounds, and a quarter of it the ground queries the prover keeps "
							 "compiled across states.");
	DefineCustomIntVariable("gametree.gdl_max_size",
							"Largest GDL description load_game accepts.",
							"The text is stored in gametree.gdl_games as the extension's owner and "
							"compared by every backend that uses the game, so an administrator "
							"bounds it.  The sample descriptions take at most 40 kB.",
							&gdl_max_size_kb, 1024, 1, 1024 * 1024,
							PGC_SUSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomBoolVariable("gametree.gdl_lazy_legality",
							 "Random playouts of GDL games check the costly conditions of the move drawn alone.",
							 "A move is drawn among those whose cheap conditions hold, then checked "
							 "whole (chess.kif: the king's safety), and drawn again if it fails: "
							 "uniform over the legal moves, as when all are listed.  Off, every legal "
							 "move is listed, and a seed plays the same games on the network and the prover.",
							 &gdl_lazy_legality, true, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("gametree.gdl_network_time",
							"Longest load_game and compile_network spend on a game's network; 0 for no limit.",
							"Past it, grounding and building the network are given up: load_game "
							"loads the game on the prover, as when the network needs too much memory, "
							"and compile_network fails.  A GGP player sets it to a share of the start "
							"clock (chess.kif's network takes about 7 s, its prover under 2 s).",
							&gdl_network_time_ms, 0, 0, INT_MAX, PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	gt_register_game_source(&gdl_source);
}

/* Where a name the caller gave is taken in another case: why it is the same. */
static int
same_name_detail(const char *taken, const char *given)
{
	return strcmp(taken, given) != 0 ?
		errdetail("Game names that differ only in case name the same game.") : 0;
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
	/* CHESS would read as the built-in chess: names differ in more than case. */
	for (int i = 0; i < gt_game_count(); i++)
		if (pg_strcasecmp(gt_game_at(i)->name, name) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_OBJECT),
					 errmsg("game \"%s\" is built in", gt_game_at(i)->name),
					 same_name_detail(gt_game_at(i)->name, name),
					 errhint("Load the description under another name.")));
}

/* Refuses a description larger than gametree.gdl_max_size, before reading it. */
static void
check_description_size(Datum kif)
{
	Size		bytes = toast_raw_datum_size(kif) - VARHDRSZ;

	if (bytes > (Size) gdl_max_size_kb * 1024)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("GDL description of %zu kB is larger than gametree.gdl_max_size (%d kB)",
						(bytes + 1023) / 1024, gdl_max_size_kb),
				 errhint("An administrator can raise gametree.gdl_max_size.")));
}

/*
 * After gametree.gdl_games changed: every backend checks its compiled games
 * against the table again (relcache invalidation, games_changed), and drops
 * its cached plans, which may hold results of IMMUTABLE calls folded with
 * the old rules.  Such folding records no dependency a plan could be
 * invalidated by, so every plan goes, as after a change of a schema: an
 * invalidation of gametree's pg_namespace row is what resets the plan caches
 * of all backends (PlanCacheSysCallback).  Loads and unloads are rare.
 */
static void
games_table_changed(void)
{
	Oid			nsp = get_namespace_oid("gametree", false);
	Relation	namespaces = table_open(NamespaceRelationId, AccessShareLock);
	HeapTuple	tuple = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nsp));

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for schema %u", nsp);
	CacheInvalidateHeapTuple(namespaces, tuple, NULL);
	ReleaseSysCache(tuple);
	table_close(namespaces, AccessShareLock);
	CacheInvalidateRelcacheByRelid(gdl_games_relid());
}

/*
 * Compiles a description for gametree.gdl_games, as load_game and
 * compile_network do: the network when it fits in its share of
 * gametree.gdl_memory and is built within gametree.gdl_network_time of
 * started, else the prover; this backend's compile of the game, if any,
 * retired.
 */
static LoadedGame *
compile_for_table(const char *name, const char *kif, TimestampTz started, GdlStats *stats)
{
	LoadedGame *entry;

	for (LoadedGame *g = loaded; g != NULL; g = g->next)
		if (strcmp(g->name, name) == 0)
		{
			retire(g);
			break;
		}
	entry = compile_and_keep(name, kif, GDL_ENGINE_AUTO, NULL,
							 gdl_network_time_ms > 0 ?
							 TimestampTzPlusMilliseconds(started, gdl_network_time_ms) : 0, stats);
	entry->engine = stats->prover ? GDL_ENGINE_PROVER : GDL_ENGINE_NETWORK;
	/* checked against the table at its next use: this transaction may yet fail */
	entry->stale = true;
	return entry;
}

const Game *
gdl_load_game(const char *name, Datum kif_datum, GdlStats *stats)
{
	TimestampTz started = GetCurrentTimestamp();
	char	   *kif;
	LoadedGame *entry;
	bytea	   *network;
	int			level;

	check_game_name(name);
	check_description_size(kif_datum);
	kif = TextDatumGetCString(kif_datum);
	register_callbacks();
	SPI_connect();
	level = gt_pin_search_path();
	/* the name is free: taking it first makes a concurrent load of it wait, then fail */
	spi_run_as_catalog_owner("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('gametree.load_game ' || "
				"pg_catalog.lower($1)))",
				1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(name)}, SPI_OK_SELECT);
	spi_run("SELECT name FROM gametree.gdl_games WHERE pg_catalog.lower(name) = pg_catalog.lower($1)",
			1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(name)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
	{
		char	   *taken = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("game \"%s\" is already loaded", taken),
				 same_name_detail(taken, name),
				 errhint("SELECT gametree.unload_game('%s') first, or load it under another name.", taken)));
	}

	gt_check_game_number(name);

	entry = compile_for_table(name, kif, started, stats);
	if (stats->network_late)
		ereport(NOTICE,
				(errmsg("game \"%s\" is evaluated by the prover: its network was not built within "
						"gametree.gdl_network_time (%d ms)", name, gdl_network_time_ms),
				 errhint("SELECT gametree.compile_network('%s') builds and stores it later.", name)));
	network = networks_stored() ? gdl_network_bytes(entry->game) : NULL;
	/* an empty bytea stands for no network: a network is never empty */
	spi_run_as_catalog_owner(networks_stored() ?
				"INSERT INTO gametree.gdl_games (name, kif, kif_sha256, roles, description, engine, "
				"loaded_by, network) VALUES ($1, $2, $3, $4, $5, $6, $7, NULLIF($8, ''::pg_catalog.bytea))" :
				"INSERT INTO gametree.gdl_games (name, kif, kif_sha256, roles, description, engine, "
				"loaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7)", 8,
				(Oid[]) {TEXTOID, TEXTOID, BYTEAOID, TEXTARRAYOID, TEXTOID, TEXTOID, NAMEOID, BYTEAOID},
				(Datum[]) {CStringGetTextDatum(name), CStringGetTextDatum(kif), digest_datum(entry->digest),
					gt_roles_datum(entry->game), CStringGetTextDatum(entry->game->description),
					CStringGetTextDatum(gdl_engine_name(stats->prover)),
					DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(GetUserId(), false))),
				network != NULL ? PointerGetDatum(network) : digest_datum(NULL)},
				SPI_OK_INSERT);
	games_table_changed();
	gt_unpin_search_path(level);
	SPI_finish();
	return entry->game;
}

/*
 * The trees of a game, as the newest committed data has them: under
 * REPEATABLE READ the transaction's snapshot may predate a tree that another
 * session created since (create_tree's lock on the game's row, which our
 * FOR UPDATE waited for, shows it committed).  why: what they prevent.
 */
static void
refuse_if_trees_use(text *name, const char *why)
{
	SPIPlanPtr	plan = SPI_prepare("SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I', schema, name), ', ' "
								   "ORDER BY schema, name), pg_catalog.count(*) "
								   "FROM gametree.trees WHERE game = $1", 1, (Oid[]) {TEXTOID});
	bool		isnull;

	if (plan == NULL ||
		SPI_execute_snapshot(plan, (Datum[]) {PointerGetDatum(name)}, NULL, GetLatestSnapshot(),
							 InvalidSnapshot, true, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "gametree: could not read gametree.trees");
	if (DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("game \"%s\" is used by trees", text_to_cstring(name)),
				 errdetail("Trees of the game: %s.%s",
						   gt_abbreviate(TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0],
																		   SPI_tuptable->tupdesc, 1, &isnull))),
						   why),
				 errhint("Drop them with gametree.drop_tree first.")));
	SPI_freeplan(plan);
}

/*
 * Locks the row of a game for unload_game and compile_network, which only
 * the role that loaded it (or a superuser) may do: the lock waits for
 * create_tree calls that are taking the game.  The row (loaded_by, engine,
 * kif) is left in SPI_tuptable.
 */
static void
lock_own_game(text *name, const char *action)
{
	char	   *cname = text_to_cstring(name);
	bool		isnull;
	Oid			loader;

	spi_run_as_catalog_owner("SELECT loaded_by, engine, kif FROM gametree.gdl_games WHERE name = $1 FOR UPDATE", 1,
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
				 errmsg("permission denied to %s game \"%s\"", action, cname),
				 errdetail("Only the role that loaded it, or a superuser, may %s it.", action)));
}

void
gdl_unload_game(text *name)
{
	int			level;

	SPI_connect();
	level = gt_pin_search_path();
	lock_own_game(name, "unload");
	refuse_if_trees_use(name, "");
	spi_run_as_catalog_owner("DELETE FROM gametree.gdl_games WHERE name = $1", 1, (Oid[]) {TEXTOID},
				(Datum[]) {PointerGetDatum(name)}, SPI_OK_DELETE);
	games_table_changed();
	gt_unpin_search_path(level);
	SPI_finish();
}

const Game *
gdl_compile_network(text *name, GdlStats *stats)
{
	TimestampTz started = GetCurrentTimestamp();
	char	   *cname = text_to_cstring(name);
	bool		isnull;
	bool		on_prover;
	char	   *kif;
	LoadedGame *entry;
	int			level;

	register_callbacks();
	SPI_connect();
	level = gt_pin_search_path();
	lock_own_game(name, "compile the network of");
	on_prover = strcmp(TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2,
														 &isnull)), "prover") == 0;
	kif = TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	/* the prover's facts can be more than the network's: the trees' packed states would not read */
	if (on_prover)
		refuse_if_trees_use(name, " Their states are stored in the prover's layout of the facts, "
							"which the network's may not share.");
	entry = compile_for_table(cname, kif, started, stats);
	if (stats->network_late)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": its network was not built within gametree.gdl_network_time (%d ms)",
						cname, gdl_network_time_ms),
				 errhint("SET gametree.gdl_network_time = 0 for no limit.")));
	if (stats->prover)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": its network needs more than half of gametree.gdl_memory (%zu kB)",
						cname, gt_memory_limit(&gdl_memory) / 1024),
				 errhint("Raise gametree.gdl_memory, or let the prover evaluate the game.")));
	if (networks_stored())
		spi_run_as_catalog_owner("UPDATE gametree.gdl_games SET engine = 'network', description = $2, network = $3 "
					"WHERE name = $1", 3, (Oid[]) {TEXTOID, TEXTOID, BYTEAOID},
					(Datum[]) {PointerGetDatum(name), CStringGetTextDatum(entry->game->description),
					PointerGetDatum(gdl_network_bytes(entry->game))}, SPI_OK_UPDATE);
	else
		spi_run_as_catalog_owner("UPDATE gametree.gdl_games SET engine = 'network', description = $2 WHERE name = $1",
					2, (Oid[]) {TEXTOID, TEXTOID},
					(Datum[]) {PointerGetDatum(name), CStringGetTextDatum(entry->game->description)},
					SPI_OK_UPDATE);
	games_table_changed();
	gt_unpin_search_path(level);
	SPI_finish();
	return entry->game;
}
