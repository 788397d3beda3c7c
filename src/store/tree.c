/*
 * tree.c: finding a tree's tables and the SPI helpers the tree functions
 * share.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "store/tree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

Datum
datum_array(Datum *values, bool *nulls, int n, Oid type)
{
	int16		len;
	bool		byval;
	char		align;
	int			dims[1] = {n};
	int			lbs[1] = {1};

	get_typlenbyvalalign(type, &len, &byval, &align);
	return PointerGetDatum(construct_md_array(values, nulls, 1, dims, lbs, type, len, byval, align));
}

Datum
int8_array(const int64 *values, int n)
{
	Datum	   *d = palloc(Max(n, 1) * sizeof(Datum));

	for (int i = 0; i < n; i++)
		d[i] = Int64GetDatum(values[i]);
	return datum_array(d, NULL, n, INT8OID);
}

int
spi_run(const char *sql, int nargs, Oid *types, Datum *values, int expected)
{
	MemoryContext caller = CurrentMemoryContext;
	int			rc = 0;

	PG_TRY();
	{
		rc = SPI_execute_with_args(sql, nargs, types, values, NULL, false, 0);
	}
	PG_CATCH();
	{
		ErrorData  *error;

		/*
		 * SPI adds the statement as context: gametree's internal statements
		 * (long, and no business of the user's, e.g. when a statement_timeout
		 * cancels one) are left out of the report.
		 */
		MemoryContextSwitchTo(caller);
		error = CopyErrorData();
		FlushErrorState();
		error->context = NULL;
		ReThrowError(error);
	}
	PG_END_TRY();

	/*
	 * SPI returns in its procedure context, which lives until SPI_finish:
	 * go back to the caller's (per-wave, per-batch) context so that loops
	 * do not accumulate memory.
	 */
	MemoryContextSwitchTo(caller);
	if (rc != expected)
		elog(ERROR, "gametree: SPI returned %d for: %s", rc, sql);
	return rc;
}

Tree *
tree_open(text *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {PointerGetDatum(name)};
	HeapTuple	row;
	TupleDesc	desc;
	bool		isnull;
	char	   *schema,
			   *base,
			   *game;
	Tree	   *tree = palloc(sizeof(Tree));

	/* tree_info() resolves unqualified names along search_path and reports unknown trees. */
	spi_run("SELECT schema::text, name, game FROM gametree.tree_info($1)", 1, types, values,
			SPI_OK_SELECT);
	row = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	schema = TextDatumGetCString(SPI_getbinval(row, desc, 1, &isnull));
	base = TextDatumGetCString(SPI_getbinval(row, desc, 2, &isnull));
	game = TextDatumGetCString(SPI_getbinval(row, desc, 3, &isnull));

	tree->game = gt_game_from_text(cstring_to_text(game));
	tree->schema = schema;
	tree->name = base;
	tree->qualified = psprintf("%s.%s", schema, base);
	tree->states = quote_qualified_identifier(schema, psprintf("%s_states", base));
	tree->moves = quote_qualified_identifier(schema, psprintf("%s_moves", base));
	tree->graph = quote_qualified_identifier(schema, psprintf("%s_graph", base));
	tree->lock_key = (int64) gt_hash_bytes((const uint8 *) tree->qualified, strlen(tree->qualified));
	return tree;
}

void
tree_lock(const Tree *tree)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(tree->lock_key)};

	spi_run("SELECT pg_advisory_xact_lock($1)", 1, types, values, SPI_OK_SELECT);
}

void
tree_count(const Tree *tree, int64 states, int64 edges, int64 frontier)
{
	Oid			types[4] = {TEXTOID, INT8OID, INT8OID, INT8OID};
	Datum		values[4] = {
		CStringGetTextDatum(tree->qualified), Int64GetDatum(states), Int64GetDatum(edges),
		Int64GetDatum(frontier)
	};

	spi_run("UPDATE gametree.trees SET states = states + $2, edges = edges + $3, "
			"frontier = frontier + $4 WHERE schema::text || '.' || name = $1",
			4, types, values, SPI_OK_UPDATE);
}
