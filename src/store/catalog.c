/*
 * catalog.c: create_tree, drop_tree and tree_info, and the only writer of
 * gametree's catalogs (gametree.trees, gametree.grow_progress).
 *
 * Roles may read the catalogs but not write them: a row that anyone could
 * write could squat another role's tree name or claim to grow its tree.
 * gametree writes them as the role that owns them, after checking that the
 * caller may do what the row records: create tables in the schema, write the
 * tree, own it.  The tree's tables themselves are created and dropped as the
 * caller, so that they belong to it.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "gdl/gdl.h"
#include "miscadmin.h"
#include "store/counts.h"
#include "store/expand.h"
#include "store/schema.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"


/*
 * A progress row names its session by process id and start time: a row whose
 * session is gone (killed, crashed, ended) is recognised even when its pid
 * has been reused.
 */
void
catalog_forget_ended_sessions(void)
{
	int			n = pgstat_fetch_stat_numbackends();
	Datum	   *pids = palloc(Max(n, 1) * sizeof(Datum));
	Datum	   *starts = palloc(Max(n, 1) * sizeof(Datum));
	int			live = 0;

	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);

		if (local == NULL || local->backendStatus.st_procpid == 0)
			continue;
		pids[live] = Int32GetDatum(local->backendStatus.st_procpid);
		starts[live] = TimestampTzGetDatum(local->backendStatus.st_proc_start_timestamp);
		live++;
	}
	spi_run_as_catalog_owner("DELETE FROM gametree.grow_progress p WHERE NOT EXISTS "
				"(SELECT FROM unnest($1, $2) s(pid, start) "
				"WHERE s.pid = p.pid AND s.start = p.backend_start)",
				2, (Oid[]) {INT4ARRAYOID, TIMESTAMPTZARRAYOID},
				(Datum[]) {datum_array(pids, NULL, live, INT4OID),
				datum_array(starts, NULL, live, TIMESTAMPTZOID)}, SPI_OK_DELETE);
}

/* Where a new tree goes: the named schema or the first of search_path, not a temporary one. */
static Oid
creation_schema(const char *schema)
{
	Oid			nsp;

	if (schema == NULL)
	{
		List	   *path = fetch_search_path(false);

		if (path == NIL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_SCHEMA),
					 errmsg("no schema has been selected to create the tree in"),
					 errhint("Qualify the name (schema.name) or set search_path.")));
		schema = get_namespace_name(linitial_oid(path));
	}
	/* Ereports unless the schema exists and the caller may create in it. */
	nsp = LookupCreationNamespace(schema);
	if (isAnyTempNamespace(nsp))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a tree cannot be made in a temporary schema"),
				 errdetail("Its tables would end with the session, and its catalog row would not."),
				 errhint("Name a permanent schema: schema.name.")));
	return nsp;
}

/* The relation of a tree's table, or InvalidOid when it is gone. */
static Oid
table_of(Oid nsp, const char *base, const char *suffix)
{
	if (!OidIsValid(nsp))
		return InvalidOid;
	return get_relname_relid(psprintf("%s%s", base, suffix), nsp);
}

static bool
any_table_exists(Oid nsp, const char *base)
{
	for (int i = 0; i < TREE_TABLES; i++)
		if (OidIsValid(table_of(nsp, base, tree_tables[i].suffix)))
			return true;
	return false;
}

/*
 * The tables of a new tree (schema.c); their columns are read by name
 * everywhere.  Another session creating the same tree at once is seen only
 * here: its tables, uncommitted when this one looked for its catalog row
 * (or committed after this transaction's snapshot), collide with these in
 * the system catalogs.  That is reported as the tree existing.
 */
static void
create_tables(Tree *tree, Oid nsp)
{
	const char *qualified[TREE_TABLES] = {tree->states, tree->moves, tree->graph};
	MemoryContext caller = CurrentMemoryContext;

	PG_TRY();
	{
		for (int i = 0; i < TREE_TABLES; i++)
		{
			spi_run(tree_table_ddl(&tree_tables[i], qualified[i], tree->game->name, tree->name),
					0, NULL, NULL, SPI_OK_UTILITY);
			tree->relids[i] = table_of(nsp, tree->name, tree_tables[i].suffix);
		}
	}
	PG_CATCH();
	{
		ErrorData  *error;

		MemoryContextSwitchTo(caller);
		error = CopyErrorData();
		/* The collision shows as a duplicate key, table, or row type (42710). */
		if (error->sqlerrcode != ERRCODE_UNIQUE_VIOLATION && error->sqlerrcode != ERRCODE_DUPLICATE_TABLE &&
			error->sqlerrcode != ERRCODE_DUPLICATE_OBJECT)
			PG_RE_THROW();
		FlushErrorState();
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("tree \"%s\" already exists", tree->qualified),
				 errdetail("Creating its tables: %s (another session created the tree meanwhile, "
						   "or a table of its name exists).", error->message),
				 errhint("Pick another name, or drop it first: SELECT gametree.drop_tree(%s);",
						 quote_literal_cstr(tree->qualified))));
	}
	PG_END_TRY();
}

/*
 * The game of a new tree.  A game loaded from GDL is locked first, so that
 * unload_game waits for this transaction and then sees the tree, and only
 * then compiled, from the row the lock found: the tree gets the rules that
 * stay loaded, not those another session replaced meanwhile.
 */
static const Game *
lock_game(text *name)
{
	const Game *game;
	uint64		locked;

	spi_run_as_catalog_owner("SELECT 1 FROM gametree.gdl_games WHERE name = $1 FOR KEY SHARE", 1,
				(Oid[]) {TEXTOID}, (Datum[]) {PointerGetDatum(name)}, SPI_OK_SELECT);
	locked = SPI_processed;
	gdl_recheck_games();
	game = gt_game_from_text(name);
	if (!gt_game_is_builtin(game) && locked == 0)
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("game \"%s\" was loaded by another session while the tree was being created",
						game->name),
				 errhint("Create the tree again.")));
	return game;
}

PG_FUNCTION_INFO_V1(gametree_create_tree);
Datum
gametree_create_tree(PG_FUNCTION_ARGS)
{
	Tree		tree = {0};
	Stored		stored = {0};
	GameState  *root;
	char	   *schema,
			   *base;
	Oid			nsp;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("tree name and game must not be NULL")));
	tree_parse_name(PG_GETARG_TEXT_PP(0), &schema, &base);
	/* along the caller's search_path, before it is pinned */
	nsp = creation_schema(schema);
	SPI_connect();
	tree.path_level = gt_pin_search_path();
	tree.game = lock_game(PG_GETARG_TEXT_PP(1));
	if (PG_ARGISNULL(2))
	{
		root = gt_state_alloc(tree.game);
		tree.game->initial(tree.game, root);
	}
	else
		root = gt_decode_state(tree.game, PG_GETARG_JSONB_P(2));
	tree.schema = get_namespace_name(nsp);
	tree.name = base;
	tree.qualified = quote_qualified_identifier(tree.schema, base);
	tree.states = quote_qualified_identifier(tree.schema, psprintf("%s_states", base));
	tree.moves = quote_qualified_identifier(tree.schema, psprintf("%s_moves", base));
	tree.graph = quote_qualified_identifier(tree.schema, psprintf("%s_graph", base));
	spi_run("SELECT 1 FROM gametree.trees WHERE schema = $1 AND name = $2", 2,
			(Oid[]) {NAMEOID, TEXTOID}, (Datum[]) {name_datum(tree.schema), CStringGetTextDatum(base)},
			SPI_OK_SELECT);
	if (SPI_processed > 0)
	{
		if (any_table_exists(nsp, base))
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_TABLE),
					 errmsg("tree \"%s\" already exists", tree.qualified),
					 errhint("Pick another name, or drop it first: SELECT gametree.drop_tree(%s);",
							 quote_literal_cstr(tree.qualified))));
		/* Its tables were dropped by hand: the row names nothing any more. */
		ereport(NOTICE,
				(errmsg("replacing the catalog row of tree \"%s\", whose tables are gone",
						tree.qualified)));
		spi_run_as_catalog_owner("DELETE FROM gametree.trees WHERE schema = $1 AND name = $2", 2,
					(Oid[]) {NAMEOID, TEXTOID},
					(Datum[]) {name_datum(tree.schema), CStringGetTextDatum(base)}, SPI_OK_DELETE);
		counts_forget(tree.schema, base);
	}
	create_tables(&tree, nsp);
	tree_insert_root(&tree, root, &stored);
	spi_run_as_catalog_owner("INSERT INTO gametree.trees (schema, name, game, root_id, owner, states, frontier) "
				"VALUES ($1, $2, $3, $4, $5, $6, $7)", 7,
				(Oid[]) {NAMEOID, TEXTOID, TEXTOID, INT8OID, NAMEOID, INT8OID, INT8OID},
				(Datum[]) {name_datum(tree.schema), CStringGetTextDatum(base),
					CStringGetTextDatum(tree.game->name), Int64GetDatum(gt_state_hash(tree.game, root)),
					name_datum(GetUserNameFromId(GetUserId(), false)), Int64GetDatum(stored.states),
				Int64GetDatum(stored.frontier)}, SPI_OK_INSERT);
	counts_write(&tree, &stored.counts);
	gt_unpin_search_path(tree.path_level);
	SPI_finish();
	PG_RETURN_INT64((int64) gt_state_hash(tree.game, root));
}

PG_FUNCTION_INFO_V1(gametree_drop_tree);
Datum
gametree_drop_tree(PG_FUNCTION_ARGS)
{
	Tree	   *tree;
	Oid			nsp;
	Oid			tables[TREE_TABLES];
	int			found = 0;
	Oid			owner;

	SPI_connect();
	tree = tree_find(PG_GETARG_TEXT_PP(0));
	nsp = get_namespace_oid(tree->schema, true);
	for (int i = 0; i < TREE_TABLES; i++)
	{
		tables[i] = table_of(nsp, tree->name, tree_tables[i].suffix);
		if (!OidIsValid(tables[i]))
			continue;
		found++;
		if (!pg_class_ownercheck(tables[i], GetUserId()))
			aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, get_rel_name(tables[i]));
	}
	/* Without tables, the row is its creator's (or a superuser's) to remove. */
	owner = get_role_oid(tree->owner, true);
	if (found == 0 && !superuser() && !(OidIsValid(owner) && has_privs_of_role(GetUserId(), owner)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be the owner of tree \"%s\" to drop it", tree->qualified),
				 errdetail("Its tables are gone; its catalog row belongs to %s.",
						   quote_identifier(tree->owner))));
	/*
	 * DROP TABLE locks the tables in the order named: that of
	 * tree_hold_tables, so that a drop never holds the graph while a call
	 * that holds the states waits for it (a deadlock).
	 */
	if (found > 0)
		spi_run(psprintf("DROP TABLE IF EXISTS %s, %s, %s", tree->states, tree->moves, tree->graph),
				0, NULL, NULL, SPI_OK_UTILITY);
	spi_run_as_catalog_owner("DELETE FROM gametree.trees WHERE schema = $1 AND name = $2", 2,
				(Oid[]) {NAMEOID, TEXTOID},
				(Datum[]) {name_datum(tree->schema), CStringGetTextDatum(tree->name)}, SPI_OK_DELETE);
	counts_forget(tree->schema, tree->name);
	spi_run_as_catalog_owner("DELETE FROM gametree.grow_progress WHERE schema = $1 AND tree = $2", 2,
				(Oid[]) {NAMEOID, TEXTOID},
				(Datum[]) {name_datum(tree->schema), CStringGetTextDatum(tree->name)}, SPI_OK_DELETE);
	tree_close(tree);
	SPI_finish();
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gametree_tree_info);
Datum
gametree_tree_info(PG_FUNCTION_ARGS)
{
	Tree	   *tree;
	HeapTuple	catalog_row;
	Datum		row;
	bool		isnull;

	SPI_connect();
	tree = tree_find(PG_GETARG_TEXT_PP(0));
	catalog_row = tree_catalog_row(tree, "t");
	row = SPI_datumTransfer(SPI_getbinval(catalog_row, SPI_tuptable->tupdesc, 1, &isnull), false, -1);
	tree_close(tree);
	SPI_finish();
	PG_RETURN_DATUM(row);
}
