/*
 * schema.h: the tables of a tree, defined once: create_tree makes them from
 * this (catalog.c), and every call checks the columns it reads against it
 * (tree.c).
 */
#ifndef GAMETREE_SCHEMA_H
#define GAMETREE_SCHEMA_H

#include "postgres.h"

typedef struct TreeColumn
{
	const char *name;
	Oid			type;
	const char *definition;		/* after the name in CREATE TABLE */
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
} TreeTable;

enum
{
	TREE_STATES,
	TREE_MOVES,
	TREE_GRAPH,
	TREE_TABLES
};

extern const TreeTable tree_tables[TREE_TABLES];

/* The statements that create one of a tree's tables. */
extern char *tree_table_ddl(const TreeTable *table, const char *qualified, const char *game,
							const char *tree);

#endif
