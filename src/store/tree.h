/*
 * tree.h: a tree stored in tables <name>_states, <name>_moves and
 * <name>_edges, with the view <name>_graph (schema.h), as recorded in gametree.trees: finding and
 * opening it, its lock, reading its catalog row and running statements
 * keyed by it (tree.c).  Shared by the tree functions; callers are
 * connected to SPI.
 *
 * Every tree function runs its SQL with search_path pinned to pg_catalog,
 * pg_temp (gt_pin_search_path), so that no object a role creates can stand in
 * for the ones gametree means.  The caller's search_path is used for one thing
 * only: finding an unqualified tree name, before the pin.
 */
#ifndef GAMETREE_TREE_H
#define GAMETREE_TREE_H

#include "core/game.h"
#include "pg/search_path.h"
#include "pg/spi.h"
#include "store/schema.h"
#include "utils/rel.h"

/* What the caller is about to do with a tree. */
typedef enum TreeAccess
{
	TREE_READ,					/* analytics: the tables' own privileges decide */
	TREE_WRITE					/* expand, grow, propagate: UPDATE on its states */
} TreeAccess;

/*
 * A server that holds a range of a sharded tree's state ids, as recorded in
 * gametree.tree_nodes (shard.h tells the design).
 */
typedef struct TreeNode
{
	int32		number;			/* 1, 2, ...: its place in create_tree's nodes */
	const char *server;			/* the coordinator's foreign server for it; NULL on the node itself */
	int64		low;			/* the first and last state id it holds */
	int64		high;
} TreeNode;

typedef struct Tree
{
	const Game *game;
	const char *schema;			/* its catalog key in gametree.trees */
	const char *name;
	const char *qualified;		/* quoted schema.name, for messages and SQL calls */
	const char *states;			/* quoted, schema-qualified table names */
	const char *moves;
	const char *edges;
	const char *graph;			/* the view */
	int64		root_id;
	const char *owner;			/* the role that created it */
	int			path_level;		/* GUC nest level of the pinned search_path */
	Oid			relids[TREE_TABLES];	/* _states, _moves, _edges */
	Relation	held[TREE_TABLES];	/* open while tree_hold_tables is in force */
	/* On the coordinator of a sharded tree: its nodes (nnodes > 0); its _states and _edges are partitioned. */
	TreeNode   *nodes;
	int			nnodes;
	/* On a node of a sharded tree: the range of ids held here, and the tables only a node has. */
	const TreeNode *shard;
	const char *outbox;			/* quoted and qualified: new states other nodes hold, until shipped there */
	const char *proof;			/* quoted and qualified: what solve proved (on one server) */
	Oid			proof_relid;	/* tree_open's: InvalidOid when the tree has no such table */
} Tree;

/*
 * Finds the tree (an unqualified name along the caller's search_path), checks
 * that its three tables exist and, for TREE_WRITE, that the caller may write
 * them; then pins search_path.  Ereports when any of that fails.
 */
extern Tree *tree_open(text *name, TreeAccess access);
/* The same without the checks of tables and access: the catalog row alone. */
extern Tree *tree_find(text *name);
/*
 * Keeps the tree's tables open until tree_close, so that the definitions
 * tree_open checked cannot change under the call: an ALTER TABLE or DROP
 * TABLE by a trigger of the owner's fails (55006) while they are open.  For
 * the functions that read rows in C; not across commits.
 */
extern void tree_hold_tables(Tree *tree);
/* Releases held tables (before a commit). */
extern void tree_release_tables(Tree *tree);
/* Releases held tables and unpins search_path. */
extern void tree_close(Tree *tree);

/* A tree name split into schema (NULL when unqualified) and name, checked. */
extern void tree_parse_name(text *name, char **schema, char **base);
/* Sets the tree's schema and name, and the quoted names made of them. */
extern void tree_set_names(Tree *tree, const char *schema, const char *name);

/*
 * The key of a tree in gametree's catalogs, as the condition of a
 * statement that tree_run runs: $1 is its schema, $2 its name.
 * TREE_KEY("t.") for gametree.trees (alias t), TREE_ROWS_KEY for the
 * tables with rows per tree (tree_depths, tree_values, grow_progress).
 */
#define TREE_KEY(alias) alias "schema = $1 AND " alias "name = $2"
#define TREE_ROWS_KEY "schema = $1 AND tree = $2"

/* How tree_run runs its statement. */
typedef enum TreeRun
{
	RUN_PLAIN,					/* spi_run */
	RUN_KEPT,					/* spi_run_kept: for statements run per batch */
	RUN_AS_CATALOG_OWNER		/* spi_run_as_catalog_owner: writes of the catalogs */
} TreeRun;

/*
 * Runs a statement keyed by the tree (TREE_KEY): $1 and $2 are its key,
 * the nargs parameters given (types, values) are $3 on.
 */
extern int	tree_run(const Tree *tree, TreeRun how, const char *sql, int nargs, const Oid *types,
					 const Datum *values, int expected);

/*
 * Serialises propagation and counters among the sessions writing the tree:
 * a row lock on its catalog row, which only gametree takes, for callers that
 * may write the tree.  Waiting longer than gametree.progress_interval is
 * reported in NOTICEs.
 *
 * The lock order: the tree lock first, then rows of the tree's tables.
 * The one exception is a batch's frontier states, locked FOR UPDATE SKIP
 * LOCKED before it: a holder of the tree lock never waits for a frontier
 * state another session holds (it skips it), so no cycle of waits forms.
 */
extern void tree_lock(const Tree *tree);

/*
 * The tree's row in gametree.trees, with the columns named (of alias t),
 * left in SPI_tuptable; ereports when another session dropped the tree.
 */
extern HeapTuple tree_catalog_row(const Tree *tree, const char *columns);
/* The tree's count of states in gametree.trees: it changes whenever a session stores states. */
extern int64 tree_state_count(const Tree *tree);
/* Its count of writes in gametree.trees: it changes whenever a session stores an expansion. */
extern int64 tree_writes(const Tree *tree);
/* Ereports that two positions of the tree hash to id (the same id, other bytes). */
extern void tree_hash_collision(const Tree *tree, int64 id) pg_attribute_noreturn();

/*
 * Runs a SELECT that may wait for a lock (FOR UPDATE), as spi_run or
 * spi_run_as_catalog_owner, reporting in a NOTICE every gametree.progress_interval how
 * long it has waited for what; *processed gets the rows it read.  Returns
 * false, having run nothing, when deadline (0: none) came first.
 */
extern bool spi_run_waiting(const char *sql, int nargs, Oid *types, Datum *values,
							bool as_catalog_owner, const Tree *tree, const char *waiting_for,
							TimestampTz deadline, uint64 *processed);

#endif
