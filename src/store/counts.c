/*
 * counts.c: the per-depth and per-value counts of a tree (counts.h).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "store/counts.h"
#include "store/tree.h"
#include "utils/builtins.h"

void
counts_init(TreeCounts *counts)
{
	memset(counts, 0, sizeof(TreeCounts));
}

DepthCount *
counts_at(TreeCounts *counts, int32 depth)
{
	if (depth >= counts->ndepths)
	{
		int32		more = Max(depth + 1, 2 * counts->ndepths);

		counts->depths = counts->depths == NULL ? palloc0(more * sizeof(DepthCount)) :
			repalloc(counts->depths, more * sizeof(DepthCount));
		memset(counts->depths + counts->ndepths, 0, (more - counts->ndepths) * sizeof(DepthCount));
		counts->ndepths = more;
	}
	return &counts->depths[depth];
}

void
counts_proven(TreeCounts *counts, int32 depth, Jsonb *utility, int64 n)
{
	int			i;

	counts_at(counts, depth)->proven += n;
	/* A proven state without a utility (written by hand) counts in no outcome, as outcomes() counts. */
	if (utility == NULL)
		return;
	for (i = 0; i < counts->nvalues; i++)
		if (VARSIZE(counts->values[i].utility) == VARSIZE(utility) &&
			memcmp(counts->values[i].utility, utility, VARSIZE(utility)) == 0)
			break;
	if (i == counts->nvalues)
	{
		if (counts->nvalues == counts->maxvalues)
		{
			counts->maxvalues = Max(8, 2 * counts->maxvalues);
			counts->values = counts->values == NULL ? palloc(counts->maxvalues * sizeof(ValueCount)) :
				repalloc(counts->values, counts->maxvalues * sizeof(ValueCount));
		}
		counts->values[i].utility = palloc(VARSIZE(utility));
		memcpy(counts->values[i].utility, utility, VARSIZE(utility));
		counts->values[i].states = 0;
		counts->nvalues++;
	}
	counts->values[i].states += n;
}

void
counts_value_changes(TreeCounts *counts)
{
	TupleDesc	desc = SPI_tuptable->tupdesc;

	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	row = SPI_tuptable->vals[r];
		bool		isnull,
					old_null,
					new_null;
		int32		depth = DatumGetInt32(SPI_getbinval(row, desc, 1, &isnull));
		bool		was = DatumGetBool(SPI_getbinval(row, desc, 2, &isnull));
		Datum		old = SPI_getbinval(row, desc, 3, &old_null);
		bool		is = DatumGetBool(SPI_getbinval(row, desc, 4, &isnull));
		Datum		now = SPI_getbinval(row, desc, 5, &new_null);

		if (!was && !is)
			continue;
		if (was)
			counts_proven(counts, depth, old_null ? NULL : DatumGetJsonbP(old), -1);
		if (is)
			counts_proven(counts, depth, new_null ? NULL : DatumGetJsonbP(now), 1);
	}
	SPI_freetuptable(SPI_tuptable);
}

void
counts_write(const Tree *tree, TreeCounts *counts)
{
	Datum	   *depth = palloc(Max(counts->ndepths, 1) * sizeof(Datum));
	Datum	   *column[5];
	int			n = 0,
				nvalues = 0;
	Datum	   *utility = palloc(Max(counts->nvalues, 1) * sizeof(Datum));
	Datum	   *states = palloc(Max(counts->nvalues, 1) * sizeof(Datum));

	for (int c = 0; c < 5; c++)
		column[c] = palloc(Max(counts->ndepths, 1) * sizeof(Datum));
	for (int32 d = 0; d < counts->ndepths; d++)
	{
		DepthCount *at = &counts->depths[d];

		if (at->states == 0 && at->expanded == 0 && at->terminal == 0 && at->proven == 0 &&
			at->edges == 0)
			continue;
		depth[n] = Int32GetDatum(d);
		column[0][n] = Int64GetDatum(at->states);
		column[1][n] = Int64GetDatum(at->expanded);
		column[2][n] = Int64GetDatum(at->terminal);
		column[3][n] = Int64GetDatum(at->proven);
		column[4][n++] = Int64GetDatum(at->edges);
	}
	for (int i = 0; i < counts->nvalues; i++)
		if (counts->values[i].states != 0)
		{
			utility[nvalues] = JsonbPGetDatum(counts->values[i].utility);
			states[nvalues++] = Int64GetDatum(counts->values[i].states);
		}
	/* $1 and $2, the tree's key, are its columns schema and tree. */
	if (n > 0)
		tree_run(tree, RUN_AS_CATALOG_OWNER,
				 "INSERT INTO gametree.tree_depths AS t (schema, tree, depth, states, expanded, terminal, "
				 "proven, edges) SELECT $1, $2, d.* FROM unnest($3, $4, $5, $6, $7, $8) "
				 "d(depth, states, expanded, terminal, proven, edges) ORDER BY d.depth "
				 "ON CONFLICT (schema, tree, depth) DO UPDATE SET states = t.states + excluded.states, "
				 "expanded = t.expanded + excluded.expanded, terminal = t.terminal + excluded.terminal, "
				 "proven = t.proven + excluded.proven, edges = t.edges + excluded.edges",
				 6, (Oid[]) {INT4ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, INT8ARRAYOID},
				 (Datum[]) {datum_array(depth, NULL, n, INT4OID), datum_array(column[0], NULL, n, INT8OID),
					 datum_array(column[1], NULL, n, INT8OID), datum_array(column[2], NULL, n, INT8OID),
				 datum_array(column[3], NULL, n, INT8OID), datum_array(column[4], NULL, n, INT8OID)},
				 SPI_OK_INSERT);
	if (nvalues > 0)
		tree_run(tree, RUN_AS_CATALOG_OWNER,
				 "INSERT INTO gametree.tree_values AS t (schema, tree, utility, states) "
				 "SELECT $1, $2, v.* FROM unnest($3, $4) v(utility, states) ORDER BY v.utility "
				 "ON CONFLICT (schema, tree, utility) DO UPDATE SET states = t.states + excluded.states",
				 2, (Oid[]) {JSONBARRAYOID, INT8ARRAYOID},
				 (Datum[]) {datum_array(utility, NULL, nvalues, JSONBOID),
				 datum_array(states, NULL, nvalues, INT8OID)}, SPI_OK_INSERT);
	for (int c = 0; c < 5; c++)
		pfree(column[c]);
	pfree(depth);
	pfree(utility);
	pfree(states);
	if (counts->depths != NULL)
		pfree(counts->depths);
	for (int i = 0; i < counts->nvalues; i++)
		pfree(counts->values[i].utility);
	if (counts->values != NULL)
		pfree(counts->values);
	counts_init(counts);
}

void
counts_forget(const Tree *tree)
{
	tree_run(tree, RUN_AS_CATALOG_OWNER, "DELETE FROM gametree.tree_depths WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_DELETE);
	tree_run(tree, RUN_AS_CATALOG_OWNER, "DELETE FROM gametree.tree_values WHERE " TREE_ROWS_KEY,
			 0, NULL, NULL, SPI_OK_DELETE);
}

/* The int8 column of row r of SPI_tuptable, as a Datum. */
static Datum
int8_at(uint64 r, int column)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, column, &isnull);

	return isnull ? Int64GetDatum(0) : d;
}

void
tree_recount(const Tree *tree)
{
	TreeCounts	counts;
	int64		totals[4];

	tree_lock(tree);
	counts_init(&counts);
	spi_run(psprintf("SELECT s.depth, count(*), count(*) FILTER (WHERE s.expanded AND s.goal IS NULL), "
					 "count(*) FILTER (WHERE s.goal IS NOT NULL), count(*) FILTER (WHERE s.proven), "
					 "coalesce(sum(e.n), 0)::bigint FROM %s s LEFT JOIN (SELECT init_id, count(*) AS n FROM %s GROUP BY init_id) e "
					 "ON e.init_id = s.id GROUP BY s.depth", tree->states, tree->edges),
			0, NULL, NULL, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		int32		depth = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1,
														&isnull));
		DepthCount *at;

		/* Depths are never negative but in rows written by hand, which no counter can index. */
		if (depth < 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("tree \"%s\" has states at depth %d", tree->qualified, depth),
					 errdetail("Rows of %s were written outside gametree.", tree->states),
					 errhint("Delete the rows that gametree did not write, or drop the tree.")));
		CHECK_FOR_INTERRUPTS();
		at = counts_at(&counts, depth);
		at->states = DatumGetInt64(int8_at(r, 2));
		at->expanded = DatumGetInt64(int8_at(r, 3));
		at->terminal = DatumGetInt64(int8_at(r, 4));
		at->edges = DatumGetInt64(int8_at(r, 6));
	}
	SPI_freetuptable(SPI_tuptable);
	spi_run(psprintf("SELECT s.depth, s.utility, count(*) FROM %s s WHERE s.proven GROUP BY s.depth, s.utility",
					 tree->states), 0, NULL, NULL, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		int32		depth = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1,
														&isnull));
		Datum		utility = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 2, &isnull);

		counts_proven(&counts, depth, isnull ? NULL : DatumGetJsonbP(utility), DatumGetInt64(int8_at(r, 3)));
	}
	SPI_freetuptable(SPI_tuptable);
	spi_run(psprintf("SELECT (SELECT count(*) FROM %s), (SELECT count(*) FROM %s), (SELECT count(*) FROM %s), "
					 "(SELECT count(*) FROM %s WHERE NOT expanded)",
					 tree->states, tree->edges, tree->moves, tree->states), 0, NULL, NULL, SPI_OK_SELECT);
	for (int c = 0; c < 4; c++)
		totals[c] = DatumGetInt64(int8_at(0, c + 1));
	SPI_freetuptable(SPI_tuptable);
	counts_forget(tree);
	counts_write(tree, &counts);
	tree_run(tree, RUN_AS_CATALOG_OWNER,
			 "UPDATE gametree.trees SET states = $3, edges = $4, moves = $5, frontier = $6 WHERE " TREE_KEY(""),
			 4, (Oid[]) {INT8OID, INT8OID, INT8OID, INT8OID},
			 (Datum[]) {Int64GetDatum(totals[0]), Int64GetDatum(totals[1]), Int64GetDatum(totals[2]),
			 Int64GetDatum(totals[3])}, SPI_OK_UPDATE);
}

void
recount_tree(text *name)
{
	Tree	   *tree = tree_open(name, TREE_WRITE);

	tree_hold_tables(tree);
	tree_recount(tree);
	tree_close(tree);
}
