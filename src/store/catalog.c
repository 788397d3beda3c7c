/*
 * catalog.c: the writer of a tree's rows in gametree's catalogs,
 * gametree.trees and gametree.grow_progress (catalog.h); counts.c writes
 * gametree.tree_depths and gametree.tree_values.
 *
 * Roles may read the catalogs but not write them: a row that anyone could
 * write could squat another role's tree name or claim to grow its tree.
 * gametree writes them as the role that owns them (spi_run_as_catalog_owner),
 * after checking that the caller may do what the row records: create tables
 * in the schema (create.c), write the tree (tree_open), own it.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "store/catalog.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

void
catalog_insert_tree(const Tree *tree, int64 root_id, ExpansionCounts *root)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "INSERT INTO gametree.trees (schema, name, game, root_id, owner, states, frontier) "
			 "VALUES ($1, $2, $3, $4, $5, $6, $7)", 5,
			 (Oid[]) {TEXTOID, INT8OID, NAMEOID, INT8OID, INT8OID},
			 (Datum[]) {CStringGetTextDatum(tree->game->name), Int64GetDatum(root_id),
				 name_datum(GetUserNameFromId(GetUserId(), false)), Int64GetDatum(root->states),
			 Int64GetDatum(root->frontier)}, SPI_OK_INSERT);
	counts_write(tree, &root->counts);
}

void
catalog_delete_tree(const Tree *tree)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER, "DELETE FROM gametree.trees WHERE " TREE_KEY(""),
			 0, NULL, NULL, SPI_OK_DELETE);
	tree_run(tree, RUN_AS_CATALOG_OWNER, "DELETE FROM gametree.tree_nodes WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_DELETE);
	counts_forget(tree);
}

void
catalog_insert_nodes(const Tree *tree, const TreeNode *nodes, int n)
{
	for (int i = 0; i < n; i++)
		tree_run(tree, RUN_AS_CATALOG_OWNER,
				 "INSERT INTO gametree.tree_nodes (schema, tree, node, server, low, high) "
				 "VALUES ($1, $2, $3, NULLIF($4, ''::name), $5, $6)", 4,
				 (Oid[]) {INT4OID, NAMEOID, INT8OID, INT8OID},
				 (Datum[]) {Int32GetDatum(nodes[i].number), name_datum(nodes[i].server ? nodes[i].server : ""),
				 Int64GetDatum(nodes[i].low), Int64GetDatum(nodes[i].high)}, SPI_OK_INSERT);
}

void
catalog_forget_progress(const Tree *tree)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER, "DELETE FROM gametree.grow_progress WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_DELETE);
}

void
tree_add_counts(const Tree *tree, ExpansionCounts *stored)
{
	int64		pending = stored->expanded > 0 && !stored->settled ? 1 : 0;

	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "UPDATE gametree.trees SET states = states + $3, edges = edges + $4, "
			 "frontier = frontier + $5, pending = pending + $6, writes = writes + 1, moves = moves + $7 "
			 "WHERE " TREE_KEY(""),
			 5, (Oid[]) {INT8OID, INT8OID, INT8OID, INT8OID, INT8OID},
			 (Datum[]) {Int64GetDatum(stored->states), Int64GetDatum(stored->edges),
				 Int64GetDatum(stored->frontier), Int64GetDatum(pending),
			 Int64GetDatum(stored->moves)}, SPI_OK_UPDATE);
	counts_write(tree, &stored->counts);
	stored->pending += pending;
}

void
tree_uncount(const Tree *tree, int64 pending)
{
	/*
	 * The lock, held since they were counted, kept every other writer out:
	 * pending holds them still, and what others counted stays.
	 */
	if (pending > 0)
		tree_run(tree, RUN_AS_CATALOG_OWNER,
				 "UPDATE gametree.trees SET pending = pending - $3 WHERE " TREE_KEY(""),
				 1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(pending)}, SPI_OK_UPDATE);
}

bool
catalog_settle_pending(const Tree *tree, int64 writes, int64 pending)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "UPDATE gametree.trees SET pending = $4 WHERE " TREE_KEY("") " AND writes = $3",
			 2, (Oid[]) {INT8OID, INT8OID}, (Datum[]) {Int64GetDatum(writes), Int64GetDatum(pending)},
			 SPI_OK_UPDATE);
	return SPI_processed > 0;
}

/*
 * Deletes the progress rows of sessions that have ended.  A progress row
 * names its session by process id and start time: a row whose session is
 * gone (killed, crashed, ended) is recognised even when its pid has been
 * reused.
 */
static void
forget_ended_sessions(void)
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

void
catalog_start_progress(const Tree *tree)
{
	forget_ended_sessions();
	spi_run_as_catalog_owner("DELETE FROM gametree.grow_progress WHERE pid = pg_backend_pid()",
							 0, NULL, NULL, SPI_OK_DELETE);
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "INSERT INTO gametree.grow_progress (pid, backend_start, schema, tree, started, updated, "
			 "states, edges, frontier, owner) "
			 "SELECT pg_backend_pid(), $3, t.schema, t.name, now(), now(), t.states, t.edges, "
			 "t.frontier, $4 FROM gametree.trees t WHERE " TREE_KEY("t."),
			 2, (Oid[]) {TIMESTAMPTZOID, NAMEOID},
			 (Datum[]) {TimestampTzGetDatum(MyStartTimestamp),
			 name_datum(GetUserNameFromId(GetUserId(), false))}, SPI_OK_INSERT);
}

void
catalog_update_progress(const Tree *tree, int64 expanded, double rate, bool done)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "UPDATE gametree.grow_progress p "
			 "SET updated = clock_timestamp(), expanded = $3, states = c.states, "
			 "edges = c.edges, frontier = c.frontier, rate = $4, done = $5 "
			 "FROM gametree.trees c WHERE p.pid = pg_backend_pid() AND " TREE_KEY("c."),
			 3, (Oid[]) {INT8OID, FLOAT8OID, BOOLOID},
			 (Datum[]) {Int64GetDatum(expanded), Float8GetDatum(rate), BoolGetDatum(done)},
			 SPI_OK_UPDATE);
}
