/*
 * tree.c: the SQL functions create_tree, drop_tree and tree_info
 * (store/create.c, store/tree.c).
 */
#include "postgres.h"

#include "fmgr.h"
#include "store/create.h"
#include "store/tree.h"
#include "utils/jsonb.h"

PG_FUNCTION_INFO_V1(gametree_create_tree);
Datum
gametree_create_tree(PG_FUNCTION_ARGS)
{
	int64		root_id;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("tree name and game must not be NULL")));
	SPI_connect();
	root_id = create_tree(PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1),
						  PG_ARGISNULL(2) ? NULL : PG_GETARG_JSONB_P(2),
						  PG_ARGISNULL(3) ? (Datum) 0 : PG_GETARG_DATUM(3), NULL, NULL);
	SPI_finish();
	PG_RETURN_INT64(root_id);
}

PG_FUNCTION_INFO_V1(gametree_drop_tree);
Datum
gametree_drop_tree(PG_FUNCTION_ARGS)
{
	SPI_connect();
	drop_tree(PG_GETARG_TEXT_PP(0));
	SPI_finish();
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(gametree_tree_info);
Datum
gametree_tree_info(PG_FUNCTION_ARGS)
{
	Tree	   *tree;
	HeapTuple	catalog_row;
	Datum		row;
	bool		isnull;

	SPI_connect();
	tree = tree_find(PG_GETARG_TEXT_PP(0));
	catalog_row = tree_catalog_row(tree, "t");
	row = SPI_datumTransfer(SPI_getbinval(catalog_row, SPI_tuptable->tupdesc, 1, &isnull), false, -1);
	tree_close(tree);
	SPI_finish();
	PG_RETURN_DATUM(row);
}
