/*
 * schema.h: the tables of a tree and its graph view, defined once: create_tree makes them from
 * this (create.c), every call checks the columns it reads against it
 * (tree.c), and the batches insert their rows by these columns (expand.c).
 * A tree's tables are named after it with the suffixes below.
 */
#ifndef GAMETREE_SCHEMA_H
#define GAMETREE_SCHEMA_H

#include "postgres.h"

typedef struct TreeColumn
{
	const char *name;
	Oid			type;			/* InvalidOid: gametree.state, of the tree's game */
	const char *definition;		/* after the name in CREATE TABLE; %1$s: the game, quoted */
	const char *key;			/* PRIMARY KEY, UNIQUE or NULL: a sharded tree's coordinator has none */
	bool		not_null;		/* C reads it without a NULL check */
} TreeColumn;

typedef struct TreeTable
{
	const char *suffix;			/* of the tree's name: _states, _moves, _graph */
	const TreeColumn *columns;	/* ends with a NULL name */
	const char *constraints;	/* table constraints; %1$s: the game, quoted */
	const char *options;		/* WITH (...), or "" */
	const char *indexes;		/* statements after it; %1$s: the table */
	const char *comment;		/* %1$s: the game, %2$s: the tree */
	/*
	 * On the coordinator of a sharded tree, the column whose ranges the
	 * nodes hold (the table is partitioned by it), or NULL: a local table.
	 */
	const char *shard_key;
} TreeTable;

enum
{
	TREE_STATES,
	TREE_MOVES,
	TREE_EDGES,
	TREE_TABLES
};

extern const TreeTable tree_tables[TREE_TABLES];

/* The columns of _states and of _edges, by their position in the table. */
typedef enum StatesColumn
{
	STATES_ID,
	STATES_STATE,
	STATES_GOAL,
	STATES_DEPTH,
	STATES_CONTROL,
	STATES_EXPANDED,
	STATES_UTILITY,
	STATES_MOBILITY,
	STATES_PROVEN,
	STATES_BEST_MOVE,
	STATES_COLUMNS
} StatesColumn;

typedef enum EdgesColumn
{
	EDGES_INIT_ID,
	EDGES_MOVE_ID,
	EDGES_NEXT_ID,
	EDGES_VISITS,
	EDGES_TOTAL,
	EDGES_COLUMNS
} EdgesColumn;

/*
 * The suffixes of a tree's tables' names (tree_tables) and of its view
 * _graph (tree_graph_view_ddl), and the longest of them.
 */
#define TREE_STATES_SUFFIX "_states"
#define TREE_MOVES_SUFFIX "_moves"
#define TREE_EDGES_SUFFIX "_edges"
#define TREE_GRAPH_SUFFIX "_graph"
/* A node's own tables of a sharded tree (shard.h). */
#define TREE_OUTBOX_SUFFIX "_outbox"
/* What solve proved, in a tree on one server (store/solve.h). */
#define TREE_PROOF_SUFFIX "_proof"
#define TREE_SUFFIX_MAX ((int) sizeof(TREE_STATES_SUFFIX) - 1)
/* The longest name in bytes whose tables' names fit in NAMEDATALEN. */
#define TREE_NAME_MAX (NAMEDATALEN - 1 - TREE_SUFFIX_MAX)
/*
 * The same for a sharded tree, whose coordinator names a node's part of a
 * table after the table and the node's number (_states_12): at most 999 nodes.
 */
#define TREE_NODES_MAX 999
#define TREE_SHARDED_NAME_MAX (TREE_NAME_MAX - 4)

/* The name of one of a tree's tables (unqualified, unquoted). */
extern char *tree_table_name(const char *tree, int table);

/* The names and types of n columns of a table (positions as above), in the order given. */
extern const char *const *tree_column_names(int table, const int *columns, int n);
extern Oid *tree_column_types(int table, const int *columns, int n);
extern Oid	tree_column_type(const TreeColumn *column);
/* The type gametree.state (InvalidOid while the extension is being created). */
extern Oid	tree_state_type(void);

/*
 * The statements that create one of a tree's tables; partitioned, the
 * parent of the foreign partitions of a sharded tree's coordinator: by
 * range of its shard_key, without keys or indexes (the nodes keep them).
 */
extern char *tree_table_ddl(const TreeTable *table, const char *qualified, const char *game,
							const char *tree, bool partitioned);
/*
 * A state's utility as SQL, for a row of _states under alias: the column,
 * or for an unexpanded state, whose row keeps none, the game's estimate.
 */
extern char *tree_utility_sql(const char *alias);

/* The statements that create a tree's graph view (names quoted and qualified). */
extern char *tree_graph_view_ddl(const char *graph, const char *edges, const char *states,
								 const char *game, const char *tree);

/*
 * The statement that creates the table a node of a sharded tree has beside
 * the three of every tree (names quoted and qualified): _outbox, the new
 * states that the node's batches found for other nodes, packed a batch's
 * at a time, until they are shipped there.
 */
extern char *tree_outbox_ddl(const char *outbox, const char *game, const char *tree);

/*
 * The statement that creates the table of what proof-number search in the
 * tree (solve) found, beside the three of a tree on one server: per state,
 * bounds lo..hi on the first role's goal under perfect play, exact when
 * lo = hi, and the proof and disproof numbers of its last search.
 */
extern char *tree_proof_ddl(const char *proof, const char *game, const char *tree);

#endif
