/*
 * spi.c: running gametree's statements through SPI: checked result codes,
 * plans kept for the backend's life, statements run as the catalog owner,
 * and the array and name Datums their parameters need.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "pg/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

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

Datum
name_datum(const char *s)
{
	Name		name = palloc0(NAMEDATALEN);

	namestrcpy(name, s);
	return NameGetDatum(name);
}

/* A plan kept for the backend's life, by its statement's text (spi_run_kept). */
typedef struct KeptPlan
{
	uint64		hash;
	char	   *sql;
	SPIPlanPtr	plan;
} KeptPlan;

static HTAB *plans = NULL;

static SPIPlanPtr
kept_plan(const char *sql, int nargs, Oid *types)
{
	uint64		hash = hash_bytes_extended((const unsigned char *) sql, strlen(sql), 0);
	KeptPlan   *entry;
	bool		found;

	if (plans == NULL)
	{
		HASHCTL		ctl = {0};

		ctl.keysize = sizeof(uint64);
		ctl.entrysize = sizeof(KeptPlan);
		ctl.hcxt = TopMemoryContext;
		plans = hash_create("gametree kept plans", 64, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	entry = hash_search(plans, &hash, HASH_ENTER, &found);
	if (found && strcmp(entry->sql, sql) == 0)
		return entry->plan;
	if (found)
		return NULL;			/* another statement has that hash: plan this one each time */
	entry->sql = NULL;
	/*
	 * Generic: a custom plan sees arrays of thousands of keys and picks a
	 * hash join over the whole table, where an index probe per key is what
	 * a batch needs.
	 */
	entry->plan = SPI_prepare_cursor(sql, nargs, types, CURSOR_OPT_GENERIC_PLAN);
	if (entry->plan == NULL || SPI_keepplan(entry->plan) != 0)
	{
		hash_search(plans, &hash, HASH_REMOVE, NULL);
		elog(ERROR, "gametree: SPI_prepare failed for: %s", sql);
	}
	entry->sql = MemoryContextStrdup(TopMemoryContext, sql);
	return entry->plan;
}

/*
 * Forgets a kept plan.  A statement a rule rewrote into nothing depends on
 * no table any more, so dropping the rule would not invalidate its plan.
 */
static void
forget_kept_plan(const char *sql)
{
	uint64		hash = hash_bytes_extended((const unsigned char *) sql, strlen(sql), 0);
	KeptPlan   *entry = plans == NULL ? NULL : hash_search(plans, &hash, HASH_FIND, NULL);

	if (entry == NULL || entry->sql == NULL || strcmp(entry->sql, sql) != 0)
		return;
	SPI_freeplan(entry->plan);
	pfree(entry->sql);
	hash_search(plans, &hash, HASH_REMOVE, NULL);
}

static void
rewritten_by_rule(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
			 errmsg("a rule rewrote gametree's statement on a tree's table"),
			 errhint("Drop the rules on the tree's tables.")));
}

/* Runs a statement, planned now or kept, and checks its result code. */
static int
spi_execute(const char *sql, bool keep, int nargs, Oid *types, Datum *values, int expected)
{
	MemoryContext caller = CurrentMemoryContext;
	int			rc = 0;

	PG_TRY();
	{
		SPIPlanPtr	plan = keep ? kept_plan(sql, nargs, types) : NULL;

		if (plan != NULL)
			rc = SPI_execute_plan(plan, values, NULL, false, 0);
		else
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

		/*
		 * A rule made during the call (by a trigger) that rewrites one of
		 * gametree's statements with RETURNING cannot return its rows: the
		 * rewriter refuses it (0A000), where one without RETURNING is
		 * rewritten (SPI_OK_REWRITTEN below).  The same error for both.
		 */
		if (error->sqlerrcode == ERRCODE_FEATURE_NOT_SUPPORTED &&
			(expected == SPI_OK_UPDATE_RETURNING || expected == SPI_OK_INSERT_RETURNING))
			rewritten_by_rule();
		ReThrowError(error);
	}
	PG_END_TRY();

	/*
	 * SPI returns in its procedure context, which lives until SPI_finish:
	 * go back to the caller's (per-wave, per-batch) context so that loops
	 * do not accumulate memory.
	 */
	MemoryContextSwitchTo(caller);
	if (rc == SPI_OK_REWRITTEN && keep)
		forget_kept_plan(sql);
	if (rc == SPI_OK_REWRITTEN && expected != SPI_OK_REWRITTEN)
		rewritten_by_rule();
	if (rc != expected)
		elog(ERROR, "gametree: SPI returned %d for: %s", rc, sql);
	return rc;
}

int
spi_run(const char *sql, int nargs, Oid *types, Datum *values, int expected)
{
	return spi_execute(sql, false, nargs, types, values, expected);
}

int
spi_run_kept(const char *sql, int nargs, Oid *types, Datum *values, int expected)
{
	return spi_execute(sql, true, nargs, types, values, expected);
}

/* The role that owns gametree.trees: the one that created the extension. */
static Oid
catalog_owner(void)
{
	Oid			relid = get_relname_relid("trees", get_namespace_oid("gametree", false));
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "gametree.trees is missing");
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

int
spi_run_as_catalog_owner(const char *sql, int nargs, Oid *types, Datum *values, int expected)
{
	Oid			caller;
	int			context;
	int			rc = 0;

	GetUserIdAndSecContext(&caller, &context);
	SetUserIdAndSecContext(catalog_owner(),
						   context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		rc = spi_run(sql, nargs, types, values, expected);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(caller, context);
	}
	PG_END_TRY();
	return rc;
}
