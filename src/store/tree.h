/*
 * tree.h: a tree stored in tables <name>_states, <name>_moves and
 * <name>_graph, as recorded in gametree.trees.  Shared by the tree functions;
 * callers are connected to SPI.
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
#include "store/counts.h"
#include "utils/rel.h"

/* What the caller is about to do with a tree. */
typedef enum TreeAccess
{
	TREE_READ,					/* analytics: the tables' own privileges decide */
	TREE_WRITE					/* expand, grow, propagate: UPDATE on its states */
} TreeAccess;

typedef struct Tree
{
	const Game *game;
	const char *schema;			/* its catalog key in gametree.trees */
	const char *name;
	const char *qualified;		/* quoted schema.name, for messages and SQL calls */
	const char *states;			/* quoted, schema-qualified table names */
	const char *moves;
	const char *graph;
	int64		root_id;
	const char *owner;			/* the role that created it */
	int			path_level;		/* GUC nest level of the pinned search_path */
	Oid			relids[3];		/* _states, _moves, _graph */
	Relation	held[3];		/* open while tree_hold_tables is in force */
} Tree;

/* Counts of what an expansion stored. */
typedef struct Stored
{
	int64		taken;			/* frontier states a batch took */
	bool		deepened;		/* and went on in memory below them */
	bool		settled;		/* its values are final: nothing above it to propagate */
	double		write_seconds;	/* writing them took */
	int64		expanded;
	int64		states;
	int64		frontier;		/* new states still to expand */
	int64		edges;
	int64		pending;		/* what tree_count added to gametree.trees.pending */
	int64		moves;			/* new rows of _moves */
	TreeCounts	counts;			/* per depth and proven value, for tree_count */
} Stored;

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
/* The longest name in bytes whose tables' names fit in NAMEDATALEN. */
#define TREE_NAME_MAX (NAMEDATALEN - 1 - (int) strlen("_states"))

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
extern int64 tree_states(const Tree *tree);
/* Its count of writes in gametree.trees: it changes whenever a session stores an expansion. */
extern int64 tree_writes(const Tree *tree);

/*
 * Adds what an expansion stored to the tree's counters in gametree.trees
 * and its counts (counts.h), counts it as pending propagation (gametree.trees.pending, and
 * stored->pending), and as one more write (gametree.trees.writes).  The
 * caller holds the tree lock.  Writers only ever add to pending: the one
 * that takes back is a propagation, of what it read (tree_propagate), or
 * the writer itself, of what it counted and then propagated in the same
 * transaction under the lock (tree_uncount).
 */
extern void tree_count(const Tree *tree, Stored *stored);
/* Takes back the expansions this transaction counted and has propagated itself. */
extern void tree_uncount(const Tree *tree, int64 pending);

/* Deletes the progress rows of sessions that have ended. */
extern void catalog_forget_ended_sessions(void);

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
