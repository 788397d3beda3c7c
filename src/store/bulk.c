/*
 * bulk.c: inserting a batch's rows the way COPY FROM does: straight into
 * the table with table_multi_insert, then into its indexes, checking its
 * constraints, without planning or executing a statement per chunk.
 *
 * Only where that is what an INSERT would do: an ordinary table without
 * triggers, rules or row-level security for the caller, that the caller may
 * insert into, and whose other columns have constant defaults.  Otherwise
 * the caller runs its INSERT statement (bulk_open returns NULL).
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "rewrite/rewriteHandler.h"
#include "store/bulk.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"

/* Tuples per table_multi_insert call, as COPY buffers them. */
#define BULK_TUPLES 1000

struct BulkInsert
{
	Relation	rel;
	EState	   *estate;
	ResultRelInfo *rri;
	BulkInsertState bistate;
	CommandId	cid;
	int			ncols;
	AttrNumber	attnums[BULK_MAX_COLUMNS];	/* of the caller's columns */
	Datum	   *defaults;		/* per attribute, for the other columns */
	bool	   *default_nulls;
	TupleTableSlot *slots[BULK_TUPLES];
	int			nbuffered;
	uint64		inserted;
};

/* The constant default of an attribute the caller does not write; false if it has none that is constant. */
static bool
constant_default(Relation rel, AttrNumber attnum, Datum *value, bool *isnull)
{
	Node	   *expr = build_column_default(rel, attnum);

	*value = (Datum) 0;
	*isnull = true;
	if (expr == NULL)
		return true;
	expr = eval_const_expressions(NULL, expr);
	if (!IsA(expr, Const))
		return false;
	*value = ((Const *) expr)->constvalue;
	*isnull = ((Const *) expr)->constisnull;
	return true;
}

BulkInsert *
bulk_open(Oid relid, const char *const *columns, int ncols)
{
	Relation	rel = table_open(relid, RowExclusiveLock);
	TupleDesc	desc = RelationGetDescr(rel);
	BulkInsert *bulk;
	bool		given[MaxHeapAttributeNumber] = {0};
	RangeTblEntry *rte;

	if (rel->rd_rel->relkind != RELKIND_RELATION || rel->trigdesc != NULL || rel->rd_rules != NULL ||
		(desc->constr != NULL && desc->constr->has_generated_stored) ||
		check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED ||
		pg_class_aclcheck(relid, GetUserId(), ACL_INSERT) != ACLCHECK_OK)
	{
		table_close(rel, RowExclusiveLock);
		return NULL;
	}
	bulk = palloc0(sizeof(BulkInsert));
	bulk->ncols = ncols;
	for (int c = 0; c < ncols; c++)
	{
		bulk->attnums[c] = attnameAttNum(rel, columns[c], false);
		if (bulk->attnums[c] <= 0)
			elog(ERROR, "gametree: column %s of %s is missing", columns[c], RelationGetRelationName(rel));
		given[bulk->attnums[c] - 1] = true;
	}
	bulk->defaults = palloc0(desc->natts * sizeof(Datum));
	bulk->default_nulls = palloc0(desc->natts * sizeof(bool));
	for (int a = 0; a < desc->natts; a++)
	{
		if (given[a])
			continue;
		bulk->default_nulls[a] = true;
		if (!TupleDescAttr(desc, a)->attisdropped &&
			!constant_default(rel, a + 1, &bulk->defaults[a], &bulk->default_nulls[a]))
		{
			table_close(rel, RowExclusiveLock);
			return NULL;
		}
	}

	bulk->rel = rel;
	bulk->estate = CreateExecutorState();
	rte = makeNode(RangeTblEntry);
	rte->rtekind = RTE_RELATION;
	rte->relid = relid;
	rte->relkind = rel->rd_rel->relkind;
	rte->rellockmode = RowExclusiveLock;
	rte->requiredPerms = ACL_INSERT;
	ExecInitRangeTable(bulk->estate, list_make1(rte));
	bulk->rri = makeNode(ResultRelInfo);
	InitResultRelInfo(bulk->rri, rel, 1, NULL, 0);
	ExecOpenIndices(bulk->rri, false);
	bulk->bistate = GetBulkInsertState();
	bulk->cid = GetCurrentCommandId(true);
	bulk->estate->es_output_cid = bulk->cid;
	for (int i = 0; i < BULK_TUPLES; i++)
		bulk->slots[i] = table_slot_create(rel, &bulk->estate->es_tupleTable);
	return bulk;
}

void
bulk_flush(BulkInsert *bulk)
{
	ExprContext *econtext = GetPerTupleExprContext(bulk->estate);

	if (bulk->nbuffered == 0)
		return;
	table_multi_insert(bulk->rel, bulk->slots, bulk->nbuffered, bulk->cid, 0, bulk->bistate);
	for (int i = 0; i < bulk->nbuffered; i++)
	{
		List	   *recheck;

		econtext->ecxt_scantuple = bulk->slots[i];
		recheck = ExecInsertIndexTuples(bulk->rri, bulk->slots[i], bulk->estate, false, false, NULL, NIL);
		list_free(recheck);
		ResetPerTupleExprContext(bulk->estate);
	}
	bulk->inserted += bulk->nbuffered;
	bulk->nbuffered = 0;
}

void
bulk_insert(BulkInsert *bulk, const Datum *values, const bool *nulls)
{
	TupleTableSlot *slot = bulk->slots[bulk->nbuffered];
	int			natts = slot->tts_tupleDescriptor->natts;

	ExecClearTuple(slot);
	memcpy(slot->tts_values, bulk->defaults, natts * sizeof(Datum));
	memcpy(slot->tts_isnull, bulk->default_nulls, natts * sizeof(bool));
	for (int c = 0; c < bulk->ncols; c++)
	{
		slot->tts_values[bulk->attnums[c] - 1] = values[c];
		slot->tts_isnull[bulk->attnums[c] - 1] = nulls[c];
	}
	ExecStoreVirtualTuple(slot);
	/* NOT NULL and CHECK, as INSERT checks them. */
	if (bulk->rel->rd_att->constr != NULL)
		ExecConstraints(bulk->rri, slot, bulk->estate);
	if (++bulk->nbuffered == BULK_TUPLES)
		bulk_flush(bulk);
}

uint64
bulk_close(BulkInsert *bulk)
{
	uint64		inserted;

	bulk_flush(bulk);
	inserted = bulk->inserted;
	ExecCloseIndices(bulk->rri);
	FreeBulkInsertState(bulk->bistate);
	ExecResetTupleTable(bulk->estate->es_tupleTable, false);
	FreeExecutorState(bulk->estate);
	table_close(bulk->rel, NoLock);
	/* Later statements of this transaction see the rows. */
	CommandCounterIncrement();
	pfree(bulk);
	return inserted;
}
