/*
 * create.c: create_tree and drop_tree (create.h).  The tree's tables are
 * created and dropped as the caller, so that they belong to it; its catalog
 * rows are written by catalog.c, once the caller is seen to be allowed to
 * create tables in the schema, or to own the tree.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "gdl/gdl.h"
#include "miscadmin.h"
#include "store/catalog.h"
#include "store/create.h"
#include "store/expand.h"
#include "store/shard.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

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
table_of(Oid nsp, const char *base, int table)
{
	if (!OidIsValid(nsp))
		return InvalidOid;
	return get_relname_relid(tree_table_name(base, table), nsp);
}

static Oid
graph_view_of(Oid nsp, const char *base)
{
	if (!OidIsValid(nsp))
		return InvalidOid;
	return get_relname_relid(psprintf("%s%s", base, TREE_GRAPH_SUFFIX), nsp);
}

static bool
any_table_exists(Oid nsp, const char *base)
{
	for (int i = 0; i < TREE_TABLES; i++)
		if (OidIsValid(table_of(nsp, base, i)))
			return true;
	return OidIsValid(graph_view_of(nsp, base)) ||
		(OidIsValid(nsp) && OidIsValid(get_relname_relid(psprintf("%s%s", base, TREE_PROOF_SUFFIX), nsp)));
}

/*
 * The tables of a new tree (schema.c); their columns are read by name
 * everywhere.  Another session creating the same tree at once is seen only
 * here: its tables, uncommitted when this one looked for its catalog row
 * (or committed after this transaction's snapshot), collide with these in
 * the system catalogs.  That is reported as the tree existing.
 */
static void
create_tables(Tree *tree, Oid nsp, bool coordinator)
{
	const char *qualified[TREE_TABLES] = {tree->states, tree->moves, tree->edges};
	MemoryContext caller = CurrentMemoryContext;

	PG_TRY();
	{
		for (int i = 0; i < TREE_TABLES; i++)
		{
			spi_run(tree_table_ddl(&tree_tables[i], qualified[i], tree->game->name, tree->name,
								   coordinator && tree_tables[i].shard_key != NULL),
					0, NULL, NULL, SPI_OK_UTILITY);
			tree->relids[i] = table_of(nsp, tree->name, i);
		}
		spi_run(tree_graph_view_ddl(tree->graph, tree->edges, tree->states, tree->game->name, tree->name),
				0, NULL, NULL, SPI_OK_UTILITY);
		if (tree->shard != NULL)
			spi_run(tree_outbox_ddl(tree->outbox, tree->game->name, tree->name),
					0, NULL, NULL, SPI_OK_UTILITY);
		else if (!coordinator)
			spi_run(tree_proof_ddl(tree->proof, tree->game->name, tree->name), 0, NULL, NULL, SPI_OK_UTILITY);
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

/*
 * A node's part that exists already (the coordinator calls again after a
 * failure): kept when it is the part asked for; ereports otherwise.
 */
static bool
part_exists(Tree *tree, const TreeNode *part)
{
	Tree	   *found = tree_find(cstring_to_text(tree->qualified));

	gt_unpin_search_path(found->path_level);
	if (found->shard == NULL || found->shard->number != part->number || found->shard->low != part->low ||
		found->shard->high != part->high || found->game != tree->game)
		return false;
	return true;
}

int64
create_tree(text *name, text *game_name, Jsonb *root_state, Datum nodes, const TreeNode *part,
			bool *holds_root)
{
	Tree		tree = {0};
	ExpansionCounts root_counts = {0};
	GameState  *root;
	char	   *schema,
			   *base;
	Oid			nsp;
	int64		root_id;

	tree_parse_name(name, &schema, &base);
	if (nodes != (Datum) 0 && strlen(base) > TREE_SHARDED_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("sharded tree name \"%s\" is too long", base),
				 errdetail("A sharded tree's name has at most %d bytes, so that the names of its "
						   "nodes' tables (such as _states_12) fit in %d bytes.",
						   TREE_SHARDED_NAME_MAX, NAMEDATALEN - 1)));
	/* along the caller's search_path, before it is pinned */
	nsp = creation_schema(schema);
	tree.path_level = gt_pin_search_path();
	tree.game = lock_game(game_name);
	if (root_state == NULL)
	{
		root = gt_state_alloc(tree.game);
		tree.game->initial(tree.game, root);
	}
	else
		root = gt_decode_state(tree.game, root_state);
	tree_set_names(&tree, get_namespace_name(nsp), base);
	tree.shard = part;
	root_id = (int64) gt_state_hash(tree.game, root);
	if (holds_root != NULL)
		*holds_root = part == NULL || (root_id >= part->low && root_id <= part->high);
	tree_run(&tree, RUN_PLAIN, "SELECT 1 FROM gametree.trees WHERE " TREE_KEY(""), 0, NULL, NULL,
			 SPI_OK_SELECT);
	if (SPI_processed > 0)
	{
		if (part != NULL && any_table_exists(nsp, base) && part_exists(&tree, part))
		{
			gt_unpin_search_path(tree.path_level);
			return root_id;
		}
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
		catalog_delete_tree(&tree);
	}
	create_tables(&tree, nsp, nodes != (Datum) 0);
	if (nodes != (Datum) 0)
		shard_create_tree(&tree, root, nodes);
	else
	{
		if (holds_root == NULL || *holds_root)
			tree_insert_root(&tree, root, &root_counts);
		catalog_insert_tree(&tree, root_id, &root_counts);
		if (part != NULL)
			catalog_insert_nodes(&tree, part, 1);
	}
	gt_unpin_search_path(tree.path_level);
	return root_id;
}

void
drop_tree(text *name)
{
	Tree	   *tree = tree_find(name);
	Oid			nsp;
	Oid			tables[TREE_TABLES];
	Oid			view;
	int			found = 0;
	Oid			owner;

	nsp = get_namespace_oid(tree->schema, true);
	for (int i = 0; i < TREE_TABLES; i++)
	{
		tables[i] = table_of(nsp, tree->name, i);
		if (!OidIsValid(tables[i]))
			continue;
		found++;
		if (!pg_class_ownercheck(tables[i], GetUserId()))
			aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, get_rel_name(tables[i]));
	}
	view = graph_view_of(nsp, tree->name);
	if (OidIsValid(view) && !pg_class_ownercheck(view, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_VIEW, get_rel_name(view));
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
	/* The nodes' parts first: while one cannot be reached, the coordinator's tree stays, to be dropped again. */
	if (tree->nnodes > 0)
		shard_drop_parts(tree);
	if (found > 0)
		spi_run(psprintf("DROP VIEW IF EXISTS %s; DROP TABLE IF EXISTS %s, %s, %s, %s", tree->graph,
						 tree->states, tree->moves, tree->edges,
						 tree->shard != NULL ? tree->outbox : tree->proof),
				0, NULL, NULL, SPI_OK_UTILITY);
	catalog_delete_tree(tree);
	catalog_forget_progress(tree);
	tree_close(tree);
}
