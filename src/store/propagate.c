/*
 * propagate.c: upward propagation of n-player utility and non-losing
 * mobility, incrementally after each expansion and from scratch by
 * propagate(tree).
 *
 * The value of an expanded, non-terminal state is computed from its
 * out-edges, and an edge's utility, mobility and proven flag copy those of
 * the state it leads to:
 *  - utility: the role in control picks the edge with the largest own
 *    component (max^n); ties go to a proven edge, then to the edge that
 *    leaves the other roles the least in total, then to the smallest move
 *    id.  Edges of unknown utility are skipped.  At simultaneous-move states
 *    the utility is the mean of the known edges.
 *  - proven: the chosen edge is proven and no unknown or unproven edge could
 *    do better (all are proven, or the choice already gives the maximum).
 *  - mobility of role R: when R is in control, the number of edges that are
 *    not a proven loss for R (goal 0); otherwise the minimum of R's mobility
 *    over the edges whose mobility is known.
 * Expanded states are marked stale; propagation evaluates the stale states
 * deepest first and carries changes to parents in waves of set-based
 * statements; a cap on re-evaluations of one state ends iteration on cyclic
 * graphs.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "core/settings.h"
#include "store/tree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#define EPSILON 1e-9
#define MAX_EVALUATIONS 1000	/* per state and call: ends cycles that do not settle */

typedef struct Value
{
	bool		known;
	bool		proven;
	double		utility[GT_MAX_ROLES];
	int			mobility[GT_MAX_ROLES]; /* -1: unknown */
	int64		move_id;
} Value;

typedef struct EvalCount
{
	int64		id;
	int			count;
} EvalCount;

/*
 * A role's number in a value object, or -1 when it has none.  The owner may
 * have written anything there: a number outside lo..hi is taken at the
 * nearest bound, so that no conversion to int overflows.
 */
static double
numeric_value(const JsonbValue *v, double lo, double hi)
{
	double		d;

	if (v == NULL || v->type != jbvNumeric)
		return -1;
	d = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(v->val.numeric)));
	if (isnan(d))
		return -1;
	return Min(Max(d, lo), hi);
}

static JsonbValue *
role_entry(Jsonb *object, const char *role)
{
	JsonbValue	key;

	key.type = jbvString;
	key.val.string.val = (char *) role;
	key.val.string.len = strlen(role);
	return findJsonbValueFromContainer(&object->root, JB_FOBJECT, &key);
}

/* Reads the utility, mobility and proven columns at attno, attno+1, attno+2. */
static void
read_value(const Game *game, HeapTuple row, TupleDesc desc, int attno, Value *v)
{
	bool		isnull;
	Datum		utility = SPI_getbinval(row, desc, attno, &isnull);
	Datum		mobility;

	v->known = !isnull;
	for (int r = 0; r < game->nroles; r++)
		v->utility[r] = v->known ? numeric_value(role_entry(DatumGetJsonbP(utility), game->roles[r]),
												 GT_GOAL_MIN, GT_GOAL_MAX) : 0;
	mobility = SPI_getbinval(row, desc, attno + 1, &isnull);
	for (int r = 0; r < game->nroles; r++)
		v->mobility[r] = isnull ? -1 :
			(int) numeric_value(role_entry(DatumGetJsonbP(mobility), game->roles[r]), 0, PG_INT32_MAX);
	v->proven = DatumGetBool(SPI_getbinval(row, desc, attno + 2, &isnull));
}

static double
others_total(const Game *game, const Value *v, int mover)
{
	double		total = 0;

	for (int r = 0; r < game->nroles; r++)
		if (r != mover)
			total += v->utility[r];
	return total;
}

/* Is a a better choice than b for mover?  (b may be unknown.) */
static bool
better(const Game *game, const Value *a, const Value *b, int mover)
{
	double		diff;

	if (!b->known)
		return true;
	diff = a->utility[mover] - b->utility[mover];
	if (fabs(diff) > EPSILON)
		return diff > 0;
	if (a->proven != b->proven)
		return a->proven;
	diff = others_total(game, a, mover) - others_total(game, b, mover);
	if (fabs(diff) > EPSILON)
		return diff < 0;
	return a->move_id < b->move_id;
}

/* The value of a state whose role in control is mover, from its edges. */
static void
evaluate(const Game *game, int mover, const Value *edges, int n, Value *out)
{
	bool		all_proven = true;
	int			known = 0;

	memset(out, 0, sizeof(Value));
	for (int i = 0; i < n; i++)
	{
		all_proven &= edges[i].known && edges[i].proven;
		known += edges[i].known;
	}
	if (mover != GT_NO_ROLE)
	{
		for (int i = 0; i < n; i++)
			if (edges[i].known && better(game, &edges[i], out, mover))
				*out = edges[i];
		out->proven = out->known && out->proven &&
			(all_proven || out->utility[mover] >= GT_GOAL_MAX - EPSILON);
		if (!out->known)
			out->move_id = 0;
	}
	else if (known > 0)
	{
		out->known = true;
		out->proven = all_proven;
		for (int i = 0; i < n; i++)
			for (int r = 0; r < game->nroles; r++)
				out->utility[r] += edges[i].known ? edges[i].utility[r] / known : 0;
	}

	for (int r = 0; r < game->nroles; r++)
	{
		int			mobility = -1;

		for (int i = 0; i < n; i++)
		{
			if (r == mover)
				mobility = Max(mobility, 0) +
					!(edges[i].proven && edges[i].utility[r] <= GT_GOAL_MIN + EPSILON);
			else if (edges[i].mobility[r] >= 0 &&
					 (mobility < 0 || edges[i].mobility[r] < mobility))
				mobility = edges[i].mobility[r];
		}
		out->mobility[r] = mobility;
	}
}

/* Mobility as {"role": n or null}; NULL when no role's is known. */
static Jsonb *
encode_mobility(const Game *game, const Value *v)
{
	double		counts[GT_MAX_ROLES];
	bool		known[GT_MAX_ROLES];
	bool		any = false;

	for (int r = 0; r < game->nroles; r++)
	{
		known[r] = v->mobility[r] >= 0;
		counts[r] = v->mobility[r];
		any |= known[r];
	}
	return any ? gt_encode_role_values(game, counts, known) : NULL;
}

static bool
same_value(const Game *game, const Value *a, const Value *b)
{
	if (a->known != b->known || a->proven != b->proven || a->move_id != b->move_id)
		return false;
	for (int r = 0; r < game->nroles; r++)
		if (a->mobility[r] != b->mobility[r] ||
			(a->known && fabs(a->utility[r] - b->utility[r]) > 0.005))
			return false;
	return true;
}

static int
role_index(const Game *game, HeapTuple row, TupleDesc desc, int attno)
{
	bool		isnull;
	Datum		d = SPI_getbinval(row, desc, attno, &isnull);
	char	   *name;

	if (isnull)
		return GT_NO_ROLE;
	name = TextDatumGetCString(d);
	for (int r = 0; r < game->nroles; r++)
		if (strcmp(game->roles[r], name) == 0)
			return r;
	return GT_NO_ROLE;
}

/*
 * One wave: re-evaluates ids, stores the values that changed in the states
 * and in the edges that lead to them, and leaves in SPI_tuptable the
 * parents of the changed states (columns id, depth).  Returns their number.
 */
static uint64
evaluate_wave(const Tree *tree, int64 *ids, int nids)
{
	const Game *game = tree->game;
	Datum		idarray = int8_array(ids, nids);
	SPITupleTable *rows;
	uint64		nrows;
	Value	   *edges = palloc(game->max_moves * sizeof(Value));
	int			nchanged = 0;
	int64	   *upd_id;
	Datum	   *upd_utility,
			   *upd_mobility,
			   *upd_proven,
			   *upd_best,
			   *upd_changed;
	bool	   *null_utility,
			   *null_mobility,
			   *null_best;
	int			nupdates = 0;
	Datum		values[6];
	Oid			types[6] = {INT8ARRAYOID, JSONBARRAYOID, JSONBARRAYOID, BOOLARRAYOID, INT8ARRAYOID,
	BOOLARRAYOID};

	spi_run(psprintf("SELECT p.id, p.control, p.utility, p.mobility, p.proven, p.best_move, "
					 "g.move_id, g.utility, g.mobility, g.proven, p.stale "
					 "FROM %s p JOIN %s g ON g.init_id = p.id "
					 "WHERE p.id = ANY($1) AND p.expanded AND p.goal IS NULL ORDER BY p.id, g.move_id",
					 tree->states, tree->graph),
			1, (Oid[]) {INT8ARRAYOID}, &idarray, SPI_OK_SELECT);
	rows = SPI_tuptable;
	nrows = SPI_processed;

	/*
	 * One update per group of rows at most: sized by what the tables hold,
	 * not by what they should hold (their owner may have written anything).
	 */
	upd_id = palloc(Max(nrows, 1) * sizeof(int64));
	upd_utility = palloc(Max(nrows, 1) * sizeof(Datum));
	upd_mobility = palloc(Max(nrows, 1) * sizeof(Datum));
	upd_proven = palloc(Max(nrows, 1) * sizeof(Datum));
	upd_best = palloc(Max(nrows, 1) * sizeof(Datum));
	upd_changed = palloc(Max(nrows, 1) * sizeof(Datum));
	null_utility = palloc(Max(nrows, 1) * sizeof(bool));
	null_mobility = palloc(Max(nrows, 1) * sizeof(bool));
	null_best = palloc(Max(nrows, 1) * sizeof(bool));

	for (uint64 first = 0; first < nrows;)
	{
		TupleDesc	desc = rows->tupdesc;
		bool		isnull;
		int64		id = DatumGetInt64(SPI_getbinval(rows->vals[first], desc, 1, &isnull));
		int			mover = role_index(game, rows->vals[first], desc, 2);
		Value		old,
					now;
		Datum		best = SPI_getbinval(rows->vals[first], desc, 6, &isnull);
		int			n = 0;
		uint64		end = first;
		Jsonb	   *mobility;
		bool		stale = DatumGetBool(SPI_getbinval(rows->vals[first], desc, 11, &isnull));
		bool		changed;
		int			u;

		read_value(game, rows->vals[first], desc, 3, &old);
		old.move_id = isnull ? 0 : DatumGetInt64(best);
		for (; end < nrows &&
			 DatumGetInt64(SPI_getbinval(rows->vals[end], desc, 1, &isnull)) == id; end++, n++)
		{
			if (n == game->max_moves)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_EXCEPTION),
						 errmsg("state %lld of tree \"%s\" has more edges than a %s state can have (%d)",
								(long long) id, tree->qualified, game->name, game->max_moves),
						 errdetail("Rows of %s were written outside gametree.", tree->graph),
						 errhint("Delete the rows that gametree did not write, or drop the tree.")));
			read_value(game, rows->vals[end], desc, 8, &edges[n]);
			edges[n].move_id = DatumGetInt64(SPI_getbinval(rows->vals[end], desc, 7, &isnull));
		}
		first = end;

		evaluate(game, mover, edges, n, &now);
		changed = !same_value(game, &old, &now);
		/* A stale state is written even when unchanged, to clear its mark. */
		if (!changed && !stale)
			continue;
		u = nupdates++;
		upd_id[u] = id;
		null_utility[u] = !now.known;
		upd_utility[u] = now.known ? JsonbPGetDatum(gt_encode_role_values(game, now.utility, NULL)) : 0;
		mobility = encode_mobility(game, &now);
		null_mobility[u] = mobility == NULL;
		upd_mobility[u] = PointerGetDatum(mobility);
		upd_proven[u] = BoolGetDatum(now.proven);
		null_best[u] = now.move_id == 0;
		upd_best[u] = Int64GetDatum(now.move_id);
		upd_changed[u] = BoolGetDatum(changed);
		nchanged += changed;
	}
	SPI_freetuptable(rows);

	if (nupdates == 0)
		return 0;
	values[0] = int8_array(upd_id, nupdates);
	values[1] = datum_array(upd_utility, null_utility, nupdates, JSONBOID);
	values[2] = datum_array(upd_mobility, null_mobility, nupdates, JSONBOID);
	values[3] = datum_array(upd_proven, NULL, nupdates, BOOLOID);
	values[4] = datum_array(upd_best, null_best, nupdates, INT8OID);
	values[5] = datum_array(upd_changed, NULL, nupdates, BOOLOID);
	spi_run(psprintf("UPDATE %s s SET utility = u.utility, mobility = u.mobility, "
					 "proven = u.proven, best_move = u.best, stale = false "
					 "FROM unnest($1, $2, $3, $4, $5) u(id, utility, mobility, proven, best) "
					 "WHERE s.id = u.id", tree->states),
			5, types, values, SPI_OK_UPDATE);
	if (nchanged == 0)
		return 0;

	/* Edges copy the values of the states they lead to. */
	spi_run(psprintf("WITH e AS (UPDATE %s g SET utility = u.utility, mobility = u.mobility, "
					 "proven = u.proven FROM unnest($1, $2, $3, $4, $6) "
					 "u(id, utility, mobility, proven, changed) "
					 "WHERE g.next_id = u.id AND u.changed RETURNING g.init_id) "
					 "SELECT p.id, p.depth FROM %s p WHERE p.id IN (SELECT init_id FROM e)",
					 tree->graph, tree->states),
			6, types, values, SPI_OK_SELECT);
	return SPI_processed;
}

/*
 * Evaluates ids (all depth deep), then the parents of every state that
 * changed, wave after wave.  Shallower parents are only marked stale: the
 * caller evaluates them later, once all their deeper children are settled.
 */
static int64
propagate_waves(const Tree *tree, int64 *ids, int nids, int32 depth, HTAB *evaluations)
{
	int64		total = 0;
	MemoryContext wave_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree propagation wave",
												   ALLOCSET_DEFAULT_SIZES);
	MemoryContext outer = CurrentMemoryContext;
	int64	   *first_ids = ids;

	while (nids > 0)
	{
		int64	   *next_ids;
		int			nnext = 0;
		int64	   *shallower;
		int			nshallower = 0;
		uint64		nparents;

		CHECK_FOR_INTERRUPTS();
		MemoryContextSwitchTo(wave_cxt);
		nparents = evaluate_wave(tree, ids, nids);
		total += nids;

		shallower = palloc(Max(nparents, 1) * sizeof(int64));
		/* The next wave's ids outlive this wave's memory. */
		next_ids = MemoryContextAlloc(outer, Max(nparents, 1) * sizeof(int64));
		for (uint64 i = 0; i < nparents; i++)
		{
			bool		isnull;
			HeapTuple	row = SPI_tuptable->vals[i];
			int64		id = DatumGetInt64(SPI_getbinval(row, SPI_tuptable->tupdesc, 1, &isnull));
			int32		parent_depth = DatumGetInt32(SPI_getbinval(row, SPI_tuptable->tupdesc, 2, &isnull));
			bool		found;
			EvalCount  *count;

			if (parent_depth < depth)
			{
				shallower[nshallower++] = id;
				continue;
			}
			/* A parent as deep or deeper closes a cycle: iterate, but not forever. */
			count = hash_search(evaluations, &id, HASH_ENTER, &found);
			count->count = found ? count->count + 1 : 1;
			if (count->count <= MAX_EVALUATIONS)
				next_ids[nnext++] = id;
			else if (count->count == MAX_EVALUATIONS + 1)
				ereport(NOTICE,
						(errmsg("propagation in tree \"%s\" stopped re-evaluating a cycle after %d rounds",
								tree->qualified, MAX_EVALUATIONS),
						 errdetail("Values on that cycle are estimates, not proven.")));
		}
		if (nparents > 0)
			SPI_freetuptable(SPI_tuptable);
		if (nshallower > 0)
			spi_run(psprintf("UPDATE %s SET stale = true WHERE id = ANY($1) AND NOT stale", tree->states),
					1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(shallower, nshallower)},
					SPI_OK_UPDATE);
		MemoryContextReset(wave_cxt);
		if (ids != first_ids)
			pfree(ids);
		ids = next_ids;
		nids = nnext;
	}
	MemoryContextSwitchTo(outer);
	MemoryContextDelete(wave_cxt);
	return total;
}

int64
tree_propagate_stale(const Tree *tree)
{
	HASHCTL		ctl = {0};
	HTAB	   *evaluations;
	int64		total = 0;

	ctl.keysize = sizeof(int64);
	ctl.entrysize = sizeof(EvalCount);
	ctl.hcxt = CurrentMemoryContext;
	evaluations = hash_create("gametree propagation counts", 1024, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);

	/*
	 * Deepest stale states first: in a DAG every state is then evaluated
	 * after its children, once.  Evaluating a depth can only mark shallower
	 * states stale, so the loop ends.
	 */
	for (;;)
	{
		int64	   *ids;
		uint64		n;
		bool		isnull;
		int32		depth;

		/* evaluate_wave() clears the marks of what it evaluates. */
		spi_run(psprintf("WITH d AS (SELECT depth FROM %1$s WHERE stale ORDER BY depth DESC LIMIT 1) "
						 "SELECT s.id, s.depth FROM %1$s s, d WHERE s.stale AND s.depth = d.depth "
						 "ORDER BY s.id LIMIT %2$d", tree->states, gt_propagate_chunk),
				0, NULL, NULL, SPI_OK_SELECT);
		n = SPI_processed;
		if (n == 0)
			break;
		ids = palloc(n * sizeof(int64));
		depth = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull));
		for (uint64 i = 0; i < n; i++)
			ids[i] = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		SPI_freetuptable(SPI_tuptable);
		total += propagate_waves(tree, ids, n, depth, evaluations);
		/* Whatever the waves left marked (no edges to evaluate) must not come back. */
		spi_run(psprintf("UPDATE %s SET stale = false WHERE id = ANY($1) AND stale", tree->states),
				1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(ids, n)}, SPI_OK_UPDATE);
		pfree(ids);
	}
	hash_destroy(evaluations);
	return total;
}

PG_FUNCTION_INFO_V1(gametree_propagate);
Datum
gametree_propagate(PG_FUNCTION_ARGS)
{
	bool		from_scratch = PG_GETARG_BOOL(1);
	Tree	   *tree;
	double		zeros[GT_MAX_ROLES] = {0};
	int64		total;

	SPI_connect();
	tree = tree_open(PG_GETARG_TEXT_PP(0), TREE_WRITE);
	tree_hold_tables(tree);
	tree_lock(tree);

	if (from_scratch)
	{
		spi_run(psprintf("ANALYZE %s (id, depth, expanded, stale), %s (init_id, next_id)",
						 tree->states, tree->graph), 0, NULL, NULL, SPI_OK_UTILITY);
		/* Start from what rests on no propagation: goals and heuristic estimates. */
		spi_run(psprintf("UPDATE %s SET utility = goal, mobility = $1, proven = true, best_move = NULL, "
						 "stale = false WHERE goal IS NOT NULL", tree->states),
				1, (Oid[]) {JSONBOID},
				(Datum[]) {JsonbPGetDatum(gt_encode_role_values(tree->game, zeros, NULL))}, SPI_OK_UPDATE);
		spi_run(psprintf("UPDATE %s SET utility = gametree.heuristic($1, state), mobility = NULL, "
						 "proven = false, best_move = NULL, stale = false WHERE NOT expanded",
						 tree->states),
				1, (Oid[]) {TEXTOID}, (Datum[]) {CStringGetTextDatum(tree->game->name)}, SPI_OK_UPDATE);
		spi_run(psprintf("UPDATE %s SET utility = NULL, mobility = NULL, proven = false, "
						 "best_move = NULL, stale = true WHERE expanded AND goal IS NULL", tree->states),
				0, NULL, NULL, SPI_OK_UPDATE);
		/* Waves update the edges into states that change; start them in step. */
		spi_run(psprintf("UPDATE %s g SET utility = s.utility, mobility = s.mobility, proven = s.proven "
						 "FROM %s s WHERE s.id = g.next_id AND (g.utility IS DISTINCT FROM s.utility "
						 "OR g.mobility IS DISTINCT FROM s.mobility OR g.proven <> s.proven)",
						 tree->graph, tree->states), 0, NULL, NULL, SPI_OK_UPDATE);
	}
	total = tree_propagate_stale(tree);
	tree_close(tree);
	SPI_finish();
	PG_RETURN_INT64(total);
}
