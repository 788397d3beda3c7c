/*
 * bulk.h: inserting rows straight into a tree's table, as COPY FROM does
 * (bulk.c).
 */
#ifndef GAMETREE_BULK_H
#define GAMETREE_BULK_H

#include "postgres.h"

#define BULK_MAX_COLUMNS 16

typedef struct BulkInsert BulkInsert;

/*
 * Starts inserting rows of the named columns into the table; NULL when an
 * INSERT statement must do it (triggers, rules, row-level security, no
 * INSERT privilege, a partition, other columns without constant defaults).
 * With skip_state_hash, create_tree's CHECK (id = gametree.state_hash(state))
 * is not evaluated: the caller computed each id as that hash of the state it
 * writes.  The table's other constraints are.
 */
extern BulkInsert *bulk_open(Oid relid, const char *const *columns, int ncols,
							 bool skip_state_hash);
/* One row: a value per column, in the order bulk_open named them. */
extern void bulk_insert(BulkInsert *bulk, const Datum *values, const bool *nulls);
/* Writes what is buffered: the values given so far may then be freed. */
extern void bulk_flush(BulkInsert *bulk);
/* Writes what is buffered and ends; returns the rows inserted. */
extern int64 bulk_close(BulkInsert *bulk);

#endif
