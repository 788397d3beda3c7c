/*
 * tree.c: finding a tree and its tables, the tree lock, its catalog row,
 * and the SPI helpers the tree functions share (tree.h).
 */
#include "postgres.h"

#include "core/compact.h"
#include "commands/extension.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "store/settings.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "store/schema.h"
#include "store/tree.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

/* Longer than any name of two parts of NAMEDATALEN bytes, quoted. */
#define TREE_NAME_TEXT_MAX (4 * NAMEDATALEN + 8)

void
tree_parse_name(text *name, char **schema, char **base)
{
	ArrayType  *parts;
	Datum	   *elems;
	int			n;

	/* parse_ident echoes its input in errors: keep that short. */
	if (VARSIZE_ANY_EXHDR(name) > TREE_NAME_TEXT_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("tree name \"%s\" is too long", gt_abbreviate(text_to_cstring(name))),
				 errhint("A tree is named name or schema.name.")));
	parts = DatumGetArrayTypeP(DirectFunctionCall2(parse_ident, PointerGetDatum(name),
												   BoolGetDatum(true)));
	deconstruct_array(parts, TEXTOID, -1, false, TYPALIGN_INT, &elems, NULL, &n);
	if (n < 1 || n > 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid tree name \"%s\"", gt_abbreviate(text_to_cstring(name))),
				 errhint("A tree is named name or schema.name.")));
	*schema = n == 2 ? TextDatumGetCString(elems[0]) : NULL;
	*base = TextDatumGetCString(elems[n - 1]);
	/* Bytes, not characters: the tables' names must fit in a name. */
	if ((*schema != NULL && strlen(*schema) >= NAMEDATALEN) || strlen(*base) > TREE_NAME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("tree name \"%s\" is too long", gt_abbreviate(text_to_cstring(name))),
				 errdetail("A tree's name has at most %d bytes, so that its tables' names "
						   "(with suffixes such as _states) fit in %d bytes; a schema's, %d.",
						   TREE_NAME_MAX, NAMEDATALEN - 1, NAMEDATALEN - 1)));
}

/* The names of the caller's search_path, as name[]: where unqualified names are looked for. */
static Datum
search_path_names(void)
{
	List	   *path = fetch_search_path(true);
	Datum	   *names = palloc(Max(list_length(path), 1) * sizeof(Datum));
	int			n = 0;
	ListCell   *lc;

	foreach(lc, path)
	{
		char	   *schema = get_namespace_name(lfirst_oid(lc));

		if (schema != NULL)
			names[n++] = name_datum(schema);
	}
	return datum_array(names, NULL, n, NAMEOID);
}

static bool
relation_has_rules(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	bool		rules;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	rules = ((Form_pg_class) GETSTRUCT(tuple))->relhasrules;
	ReleaseSysCache(tuple);
	return rules;
}

/*
 * The table of the tree with the suffix, checked to be an ordinary table
 * whose columns have the types (and NOT NULL) that gametree's C code reads
 * them with: the owner may have altered it.  Ereports otherwise.
 */
static Oid
tree_table(Tree *tree, Oid schema, int which)
{
	const TreeTable *definition = &tree_tables[which];
	char	   *relname = tree_table_name(tree->name, which);
	char	   *table = quote_qualified_identifier(tree->schema, relname);
	Oid			relid = OidIsValid(schema) ? get_relname_relid(relname, schema) : InvalidOid;

	/*
	 * An update of the extension from 0.2.0 or older runs the older
	 * scripts' statements on trees before the last script turns their
	 * _graph table into _edges: until then the table of edges is _graph,
	 * whose columns include those of _edges.
	 */
	if (!OidIsValid(relid) && which == TREE_EDGES && creating_extension && OidIsValid(schema))
	{
		relname = psprintf("%s%s", tree->name, TREE_GRAPH_SUFFIX);
		relid = get_relname_relid(relname, schema);
		table = quote_qualified_identifier(tree->schema, relname);
		tree->edges = table;
	}

	/* A sharded tree's coordinator holds partitioned tables, whose foreign partitions are the nodes'. */
	if (!OidIsValid(relid) ||
		get_rel_relkind(relid) != (tree->nnodes > 0 && definition->shard_key != NULL ?
								   RELKIND_PARTITIONED_TABLE : RELKIND_RELATION))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table %s of tree \"%s\" is missing", table, tree->qualified),
				 errhint("SELECT gametree.drop_tree(%s); removes what is left of the tree.",
						 quote_literal_cstr(tree->qualified))));
	if (relation_has_rules(relid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				 errmsg("table %s of tree \"%s\" has rules", table, tree->qualified),
				 errdetail("gametree writes the tables of a tree itself; a rule would rewrite "
						   "its statements."),
				 errhint("Drop the rules (DROP RULE ... ON %s).", table)));
	for (const TreeColumn *c = definition->columns; c->name != NULL; c++)
	{
		HeapTuple	tuple = SearchSysCacheAttName(relid, c->name);
		Form_pg_attribute att;
		bool		fits;

		/* The table itself gone since it was looked up: a drop_tree of another session committed. */
		if (!HeapTupleIsValid(tuple) && !SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("tree \"%s\" was dropped by another session", tree->qualified)));
		if (!HeapTupleIsValid(tuple))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
					 errmsg("column %s of %s is missing", c->name, table),
					 errdetail("The tables of tree \"%s\" were altered.", tree->qualified)));
		att = (Form_pg_attribute) GETSTRUCT(tuple);
		/* A state column of another game would be read with the wrong rules. */
		fits = att->atttypid == tree_column_type(c) && (att->attnotnull || !c->not_null) &&
			(OidIsValid(c->type) || att->atttypmod == gt_game_number(tree->game->name));
		/*
		 * An update of the extension from 0.2.0 or older runs the older
		 * scripts' statements on trees with this library before the last
		 * script converts their JSON states; those statements read no state.
		 */
		if (!OidIsValid(c->type) && creating_extension && att->atttypid == JSONBOID)
			fits = true;
		ReleaseSysCache(tuple);
		if (!fits)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
					 errmsg("column %s of %s must be %s%s", c->name, table,
							OidIsValid(c->type) ? format_type_be(c->type) :
							format_type_with_typemod(tree_column_type(c), gt_game_number(tree->game->name)),
							c->not_null ? " NOT NULL" : ""),
					 errdetail("The tables of tree \"%s\" were altered.", tree->qualified)));
	}
	return relid;
}

/*
 * The tree's rows in gametree.tree_nodes: on the coordinator of a sharded
 * tree, its nodes; on a node, the one row without a server, its range.
 */
static void
tree_read_nodes(Tree *tree)
{
	Oid			nsp = get_namespace_oid("gametree", false);

	/* An update from 0.3.0 or older runs older scripts' statements on trees before the catalog exists. */
	if (creating_extension && !OidIsValid(get_relname_relid("tree_nodes", nsp)))
		return;
	tree_run(tree, RUN_PLAIN, "SELECT node, server, low, high FROM gametree.tree_nodes WHERE "
			 TREE_ROWS_KEY " ORDER BY node", 0, NULL, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
		return;
	tree->nodes = palloc(SPI_processed * sizeof(TreeNode));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	row = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		TreeNode   *node = &tree->nodes[r];
		bool		isnull;
		Datum		server = SPI_getbinval(row, desc, 2, &isnull);

		node->number = DatumGetInt32(SPI_getbinval(row, desc, 1, &(bool) {0}));
		node->server = isnull ? NULL : pstrdup(NameStr(*DatumGetName(server)));
		node->low = DatumGetInt64(SPI_getbinval(row, desc, 3, &(bool) {0}));
		node->high = DatumGetInt64(SPI_getbinval(row, desc, 4, &(bool) {0}));
		if (node->server == NULL)
			tree->shard = node;
	}
	if (tree->shard == NULL)
		tree->nnodes = SPI_processed;
	SPI_freetuptable(SPI_tuptable);
}

Tree *
tree_find(text *name)
{
	Tree	   *tree = palloc0(sizeof(Tree));
	char	   *schema,
			   *base;
	Datum		path = (Datum) 0;
	TupleDesc	desc;
	HeapTuple	row;
	bool		isnull;

	tree_parse_name(name, &schema, &base);
	if (schema == NULL)
		path = search_path_names();
	tree->path_level = gt_pin_search_path();
	if (schema != NULL)
		spi_run("SELECT schema, game, root_id, owner FROM gametree.trees WHERE " TREE_KEY(""),
				2, (Oid[]) {NAMEOID, TEXTOID},
				(Datum[]) {name_datum(schema), CStringGetTextDatum(base)}, SPI_OK_SELECT);
	else
		spi_run("SELECT schema, game, root_id, owner FROM gametree.trees WHERE schema = ANY ($1) "
				"AND name = $2 ORDER BY array_position($1, schema) LIMIT 1",
				2, (Oid[]) {NAMEARRAYOID, TEXTOID},
				(Datum[]) {path, CStringGetTextDatum(base)}, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown tree \"%s\"", gt_abbreviate(text_to_cstring(name))),
				 errhint("SELECT * FROM gametree.trees lists the trees; gametree.create_tree() makes one.")));
	row = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	tree_set_names(tree, NameStr(*DatumGetName(SPI_getbinval(row, desc, 1, &isnull))), base);
	tree->game = gt_game_from_text(DatumGetTextPP(SPI_getbinval(row, desc, 2, &isnull)));
	tree->root_id = DatumGetInt64(SPI_getbinval(row, desc, 3, &isnull));
	tree->owner = pstrdup(NameStr(*DatumGetName(SPI_getbinval(row, desc, 4, &isnull))));
	SPI_freetuptable(SPI_tuptable);
	tree_read_nodes(tree);
	return tree;
}

void
tree_set_names(Tree *tree, const char *schema, const char *name)
{
	tree->schema = pstrdup(schema);
	tree->name = pstrdup(name);
	tree->qualified = quote_qualified_identifier(schema, name);
	tree->states = quote_qualified_identifier(schema, tree_table_name(name, TREE_STATES));
	tree->moves = quote_qualified_identifier(schema, tree_table_name(name, TREE_MOVES));
	tree->edges = quote_qualified_identifier(schema, tree_table_name(name, TREE_EDGES));
	tree->graph = quote_qualified_identifier(schema, psprintf("%s%s", name, TREE_GRAPH_SUFFIX));
	tree->outbox = quote_qualified_identifier(schema, psprintf("%s%s", name, TREE_OUTBOX_SUFFIX));
	tree->proof = quote_qualified_identifier(schema, psprintf("%s%s", name, TREE_PROOF_SUFFIX));
}

/* The parameters of a statement keyed by a tree, its key included, at most. */
#define TREE_RUN_MAX_ARGS 8

/* The tree's key ($1, $2) followed by nargs more parameters. */
static void
key_and_args(const Tree *tree, int nargs, const Oid *types, const Datum *values, Oid *all_types,
			 Datum *all_values)
{
	if (nargs + 2 > TREE_RUN_MAX_ARGS)
		elog(ERROR, "gametree: a statement keyed by a tree takes at most %d parameters",
			 TREE_RUN_MAX_ARGS);
	all_types[0] = NAMEOID;
	all_types[1] = TEXTOID;
	all_values[0] = name_datum(tree->schema);
	all_values[1] = CStringGetTextDatum(tree->name);
	for (int i = 0; i < nargs; i++)
	{
		all_types[i + 2] = types[i];
		all_values[i + 2] = values[i];
	}
}

int
tree_run(const Tree *tree, TreeRun how, const char *sql, int nargs, const Oid *types,
		 const Datum *values, int expected)
{
	Oid			all_types[TREE_RUN_MAX_ARGS];
	Datum		all_values[TREE_RUN_MAX_ARGS];

	key_and_args(tree, nargs, types, values, all_types, all_values);
	switch (how)
	{
		case RUN_KEPT:
			return spi_run_kept(sql, nargs + 2, all_types, all_values, expected);
		case RUN_AS_CATALOG_OWNER:
			return spi_run_as_catalog_owner(sql, nargs + 2, all_types, all_values, expected);
		case RUN_PLAIN:
			break;
	}
	return spi_run(sql, nargs + 2, all_types, all_values, expected);
}

/*
 * The tree's _proof table (schema.h), InvalidOid when it has none (a
 * sharded tree, or one created before 0.4.0 whose owner dropped it):
 * propagation reads it, as an ordinary table without rules, with casts
 * to the types it reads its columns as.
 */
static Oid
proof_table(const Tree *tree, Oid schema)
{
	Oid			relid = OidIsValid(schema) ?
		get_relname_relid(psprintf("%s%s", tree->name, TREE_PROOF_SUFFIX), schema) : InvalidOid;

	if (OidIsValid(relid) && (get_rel_relkind(relid) != RELKIND_RELATION || relation_has_rules(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				 errmsg("%s of tree \"%s\" must be an ordinary table without rules", tree->proof,
						tree->qualified),
				 errdetail("gametree reads and writes it itself."),
				 errhint("Drop it and make it again as gametree does: see the README on gametree.solve.")));
	return relid;
}

Tree *
tree_open(text *name, TreeAccess access)
{
	Tree	   *tree = tree_find(name);
	Oid			nsp,
				states;

	/* Its tables, as ordinary tables: a view in their place would run its owner's code. */
	nsp = get_namespace_oid(tree->schema, true);
	for (int i = 0; i < TREE_TABLES; i++)
		tree->relids[i] = tree_table(tree, nsp, i);
	states = tree->relids[TREE_STATES];
	tree->proof_relid = proof_table(tree, nsp);

	/*
	 * Writers take the tree lock and write the catalog through gametree:
	 * only those who may write the tree's states may do that.
	 */
	if (access == TREE_WRITE && pg_class_aclcheck(states, GetUserId(), ACL_UPDATE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to write tree \"%s\"", tree->qualified),
				 errdetail("Expanding, growing and propagating a tree need UPDATE on %s.",
						   tree->states)));
	return tree;
}

/*
 * Opens the tables tree_open found, in the order of tree_tables (states,
 * moves, edges), which drop_tree locks them in too: a drop and a call that
 * holds the states table then wait for each other in one order, never in a
 * cycle.  tree_open looked them up without a lock, so a drop committed
 * while this waited for the lock leaves no table behind the OID.
 */
void
tree_hold_tables(Tree *tree)
{
	for (int i = 0; i < lengthof(tree->held); i++)
	{
		tree->held[i] = try_relation_open(tree->relids[i], AccessShareLock);
		if (tree->held[i] == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("tree \"%s\" was dropped by another session", tree->qualified)));
	}
}

void
tree_release_tables(Tree *tree)
{
	for (int i = 0; i < lengthof(tree->held); i++)
		if (tree->held[i] != NULL)
			relation_close(tree->held[i], NoLock);
	memset(tree->held, 0, sizeof(tree->held));
}

void
tree_close(Tree *tree)
{
	tree_release_tables(tree);
	gt_unpin_search_path(tree->path_level);
}

/* One attempt of spi_run_waiting: false when lock_timeout_ms passed first. */
static bool
run_within(const char *sql, int nargs, Oid *types, Datum *values, bool as_catalog_owner,
		   int lock_timeout_ms, uint64 *processed)
{
	MemoryContext caller = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	bool		done = true;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(caller);
	PG_TRY();
	{
		int			level = NewGUCNestLevel();

		(void) set_config_option("lock_timeout", psprintf("%d", lock_timeout_ms), PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		if (as_catalog_owner)
			spi_run_as_catalog_owner(sql, nargs, types, values, SPI_OK_SELECT);
		else
			spi_run(sql, nargs, types, values, SPI_OK_SELECT);
		*processed = SPI_processed;
		AtEOXact_GUC(true, level);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		ErrorData  *error;

		MemoryContextSwitchTo(caller);
		error = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(caller);
		CurrentResourceOwner = owner;
		if (error->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE)
			ReThrowError(error);
		done = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(caller);
	CurrentResourceOwner = owner;
	return done;
}

bool
spi_run_waiting(const char *sql, int nargs, Oid *types, Datum *values, bool as_catalog_owner,
				const Tree *tree, const char *waiting_for, TimestampTz deadline, uint64 *processed)
{
	TimestampTz began = GetCurrentTimestamp();

	/*
	 * Each attempt waits longer than deadlock_timeout: the deadlock detector
	 * runs only once a wait has lasted that long, and attempts cut shorter
	 * would turn a deadlock into waiting for ever.
	 */
	int			attempt_ms = Max(gt_progress_interval, 2 * DeadlockTimeout);

	for (;;)
	{
		int			ms = attempt_ms;

		if (deadline != 0)
		{
			int64		left_ms = (deadline - GetCurrentTimestamp()) / 1000;

			if (left_ms <= 0)
				return false;
			ms = (int) Min((int64) ms, left_ms);
		}
		if (run_within(sql, nargs, types, values, as_catalog_owner, ms, processed))
			return true;
		ereport(NOTICE,
				(errmsg("waiting for %s of tree \"%s\", which another session holds (%.0f s so far)",
						waiting_for, tree->qualified, (GetCurrentTimestamp() - began) / 1e6),
				 errhint("SELECT * FROM gametree.grow_progress WHERE NOT done; shows who grows it.")));
	}
}

void
tree_lock(const Tree *tree)
{
	Oid			types[TREE_RUN_MAX_ARGS];
	Datum		values[TREE_RUN_MAX_ARGS];
	uint64		locked;

	/* Free, or held by this transaction already: no subtransaction needed. */
	tree_run(tree, RUN_AS_CATALOG_OWNER, "SELECT 1 FROM gametree.trees WHERE " TREE_KEY("")
			 " FOR NO KEY UPDATE SKIP LOCKED", 0, NULL, NULL, SPI_OK_SELECT);
	if (SPI_processed == 1)
		return;
	key_and_args(tree, 0, NULL, NULL, types, values);
	(void) spi_run_waiting("SELECT 1 FROM gametree.trees WHERE " TREE_KEY("") " FOR NO KEY UPDATE",
						   2, types, values, true, tree, "the lock", 0, &locked);
	if (locked == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("tree \"%s\" was dropped by another session", tree->qualified)));
}

HeapTuple
tree_catalog_row(const Tree *tree, const char *columns)
{
	tree_run(tree, RUN_KEPT, psprintf("SELECT %s FROM gametree.trees t WHERE " TREE_KEY("t."), columns),
			 0, NULL, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("tree \"%s\" was dropped by another session", tree->qualified)));
	return SPI_tuptable->vals[0];
}

/* A bigint column of the tree's catalog row. */
static int64
catalog_int8(const Tree *tree, const char *column)
{
	bool		isnull;
	HeapTuple	row = tree_catalog_row(tree, column);
	int64		value = DatumGetInt64(SPI_getbinval(row, SPI_tuptable->tupdesc, 1, &isnull));

	SPI_freetuptable(SPI_tuptable);
	return value;
}

int64
tree_state_count(const Tree *tree)
{
	return catalog_int8(tree, "states");
}

int64
tree_writes(const Tree *tree)
{
	return catalog_int8(tree, "writes");
}

void
tree_hash_collision(const Tree *tree, int64 id)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("state hash collision in tree \"%s\": two positions hash to %lld",
					tree->qualified, (long long) id),
			 errdetail("The tree cannot store both under one id; nothing of this batch was stored."),
			 errhint("Please report the game and the two positions.")));
}
