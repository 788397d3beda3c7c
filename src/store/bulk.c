/*
 * bulk.c: inserting a batch's new rows the way COPY FROM does (bulk.h):
 * table_multi_insert, then the indexes, checking the table's constraints,
 * without a statement to plan and execute per chunk.
 *
 * Only where that is all an INSERT would do: an ordinary table, not a
 * partition, without triggers, rules, row-level security for the caller or
 * generated columns, that the caller may insert into, and whose other
 * columns have constant defaults.  Otherwise bulk_open returns NULL and the
 * caller runs its INSERT statement.
 */
#include "postgres.h"

#include "store/schema.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parse_relation.h"
#include "rewrite/rewriteHandler.h"
#include "store/bulk.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"

/* Rows per table_multi_insert call, as COPY buffers them. */
#define BULK_ROWS 1000

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
	bool		check;			/* has NOT NULL or CHECK constraints to test */
	TupleTableSlot *slots[BULK_ROWS];
	int			nbuffered;
	int64		inserted;
};

/* The constant default of a column the caller does not write; false if it has another kind. */
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

static bool
is_column(Node *node, Relation rel, const char *column)
{
	return node != NULL && IsA(node, Var) && ((Var *) node)->varattno == attnameAttNum(rel, column, false);
}

/* Is expr "id = gametree.state_hash(state)", the CHECK that create_tree makes? */
static bool
is_state_hash_check(Node *expr, Relation rel)
{
	Oid			state_type = tree_state_type();
	Oid			state_hash = LookupFuncName(list_make2(makeString("gametree"), makeString("state_hash")),
											1, &state_type, true);
	OpExpr	   *eq;
	FuncExpr   *call;

	if (!IsA(expr, OpExpr) || get_opcode(((OpExpr *) expr)->opno) != F_INT8EQ)
		return false;
	eq = (OpExpr *) expr;
	if (list_length(eq->args) != 2 || !is_column(linitial(eq->args), rel, "id") ||
		!IsA(lsecond(eq->args), FuncExpr))
		return false;
	call = lsecond_node(FuncExpr, eq->args);
	return OidIsValid(state_hash) && call->funcid == state_hash && list_length(call->args) == 1 &&
		is_column(linitial(call->args), rel, "state");
}

/*
 * The CHECK constraints as ExecConstraints evaluates them, without the
 * state hash CHECK when skip_state_hash: a NULL expression passes.
 */
static void
prepare_checks(BulkInsert *bulk, bool skip_state_hash)
{
	TupleConstr *constr = RelationGetDescr(bulk->rel)->constr;
	MemoryContext outer = MemoryContextSwitchTo(bulk->estate->es_query_cxt);

	if (constr->num_check > 0)
		bulk->rri->ri_ConstraintExprs = palloc0(constr->num_check * sizeof(ExprState *));
	for (int i = 0; i < constr->num_check; i++)
	{
		Node	   *expr = stringToNode(constr->check[i].ccbin);

		if (!skip_state_hash || !is_state_hash_check(expr, bulk->rel))
			bulk->rri->ri_ConstraintExprs[i] = ExecPrepareExpr((Expr *) expr, bulk->estate);
	}
	MemoryContextSwitchTo(outer);
}

BulkInsert *
bulk_open(Oid relid, const char *const *columns, int ncols, bool skip_state_hash)
{
	Relation	rel = table_open(relid, RowExclusiveLock);
	TupleDesc	desc = RelationGetDescr(rel);
	BulkInsert *bulk;
	bool		given[MaxHeapAttributeNumber] = {0};
	RangeTblEntry *rte;

	if (rel->rd_rel->relkind != RELKIND_RELATION || rel->rd_rel->relispartition ||
		rel->trigdesc != NULL || rel->rd_rules != NULL ||
		(desc->constr != NULL && desc->constr->has_generated_stored) ||
		check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED ||
		pg_class_aclcheck(relid, GetUserId(), ACL_INSERT) != ACLCHECK_OK)
	{
		table_close(rel, RowExclusiveLock);
		return NULL;
	}
	Assert(ncols <= BULK_MAX_COLUMNS);
	bulk = palloc0(sizeof(BulkInsert));
	bulk->ncols = ncols;
	for (int c = 0; c < ncols; c++)
	{
		bulk->attnums[c] = attnameAttNum(rel, columns[c], false);
		/* tree_open checked the columns. */
		Assert(bulk->attnums[c] > 0);
		given[bulk->attnums[c] - 1] = true;
	}
	bulk->defaults = palloc0(desc->natts * sizeof(Datum));
	bulk->default_nulls = palloc0(desc->natts * sizeof(bool));
	for (int a = 0; a < desc->natts; a++)
	{
		bulk->default_nulls[a] = true;
		if (!given[a] && !TupleDescAttr(desc, a)->attisdropped &&
			!constant_default(rel, a + 1, &bulk->defaults[a], &bulk->default_nulls[a]))
		{
			table_close(rel, RowExclusiveLock);
			pfree(bulk->defaults);
			pfree(bulk->default_nulls);
			pfree(bulk);
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
	bulk->check = desc->constr != NULL;
	if (bulk->check)
		prepare_checks(bulk, skip_state_hash);
	bulk->bistate = GetBulkInsertState();
	bulk->cid = GetCurrentCommandId(true);
	bulk->estate->es_output_cid = bulk->cid;
	for (int i = 0; i < BULK_ROWS; i++)
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
		econtext->ecxt_scantuple = bulk->slots[i];
		list_free(ExecInsertIndexTuples(bulk->rri, bulk->slots[i], bulk->estate, false, false, NULL, NIL));
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
	/* NOT NULL and CHECK constraints, with the messages INSERT gives. */
	if (bulk->check)
	{
		ExecConstraints(bulk->rri, slot, bulk->estate);
		ResetPerTupleExprContext(bulk->estate);
	}
	if (++bulk->nbuffered == BULK_ROWS)
		bulk_flush(bulk);
}

int64
bulk_close(BulkInsert *bulk)
{
	int64		inserted;

	bulk_flush(bulk);
	inserted = bulk->inserted;
	ExecCloseIndices(bulk->rri);
	FreeBulkInsertState(bulk->bistate);
	ExecResetTupleTable(bulk->estate->es_tupleTable, false);
	FreeExecutorState(bulk->estate);
	table_close(bulk->rel, NoLock);
	/* The statements that follow in this transaction see the rows. */
	CommandCounterIncrement();
	pfree(bulk->defaults);
	pfree(bulk->default_nulls);
	pfree(bulk);
	return inserted;
}
