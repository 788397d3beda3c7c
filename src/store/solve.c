/*
 * solve.c: proof-number search with a tree as its store (solve.h).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "core/compact.h"
#include "miscadmin.h"
#include "search/pns.h"
#include "search/settings.h"
#include "store/catalog.h"
#include "store/expand.h"
#include "store/settings.h"
#include "store/shard.h"
#include "store/solve.h"
#include "catalog/namespace.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/timestamp.h"

/* States per statement that expands them. */
#define EXPAND_CHUNK 10000
/* Rows of bounds read per fetch. */
#define FETCH_ROWS 10000

typedef struct Solve
{
	Tree	   *tree;
	const Game *game;
	bool		can_commit;
	MemoryContext write_cxt;	/* a write's, emptied after it */
	TimestampTz next_notice;
	int64		expanded;		/* states this call expanded in the tree */
	int64		bounds;			/* rows of _proof it wrote */
	int64		solved;			/* states whose value it wrote */
} Solve;

static Datum
column(int row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, isnull);
}

/* A bound read back from the tree: the owner may have written anything there. */
static int
checked_bound(const Tree *tree, int64 id, Datum value, bool isnull)
{
	int32		bound = isnull ? -1 : DatumGetInt32(value);

	if (bound < GT_GOAL_MIN || bound > GT_GOAL_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("state %lld of tree \"%s\" has a bound outside %d..%d", (long long) id,
						tree->qualified, GT_GOAL_MIN, GT_GOAL_MAX),
				 errdetail("Bounds are read from %s and from the utility of proven states in %s.",
						   tree->proof, tree->states),
				 errhint("Delete the row from %s; a new solve proves it again.", tree->proof)));
	return bound;
}

/*
 * The bounds known before the search: the narrowed rows of _proof, and
 * the values of the states propagation proved (their subtrees are whole:
 * the value is exact), read through a cursor.
 */
static void
load_known(void *arg, IdIndex *known)
{
	Solve	   *s = arg;
	const Tree *tree = s->tree;
	Portal		portal;

	portal = SPI_cursor_open_with_args(NULL,
									   psprintf("SELECT p.id, p.lo::integer, p.hi::integer FROM %s p "
												"WHERE p.lo > $1 OR p.hi < $2 "
												"UNION ALL SELECT s.id, v.goal::integer, v.goal::integer FROM %s s, "
												"LATERAL (SELECT (s.utility ->> $3)::numeric) v(goal) "
												"WHERE s.proven AND s.goal IS NULL AND s.expanded "
												"AND v.goal = round(v.goal) AND v.goal BETWEEN $1 AND $2 "
												"AND NOT EXISTS (SELECT FROM %s p WHERE p.id = s.id)",
												tree->proof, tree->states, tree->proof),
									   3, (Oid[]) {INT4OID, INT4OID, TEXTOID},
									   (Datum[]) {Int32GetDatum(GT_GOAL_MIN), Int32GetDatum(GT_GOAL_MAX),
									   CStringGetTextDatum(s->game->roles[0])},
									   NULL, true, 0);
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		SPI_cursor_fetch(portal, true, FETCH_ROWS);
		if (SPI_processed == 0)
			break;
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			bool		isnull;
			int64		id = DatumGetInt64(column(r, 1, &isnull));
			Datum		lo_datum = column(r, 2, &isnull);
			int			lo = checked_bound(tree, id, lo_datum, isnull);
			Datum		hi_datum = column(r, 3, &isnull);
			int			hi = checked_bound(tree, id, hi_datum, isnull);

			if (lo > hi)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("state %lld of tree \"%s\" has bounds %d..%d", (long long) id, tree->qualified,
								lo, hi),
						 errhint("Delete the row from %s; a new solve proves it again.", tree->proof)));
			id_index_set(known, id, PNS_KNOWN(lo, hi));
		}
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_cursor_close(portal);
}

/* Changes by level, then as they were found: a state comes after the one whose expansion stores it. */
static int
by_level(const void *a, const void *b)
{
	const PnsChange *x = *(PnsChange *const *) a;
	const PnsChange *y = *(PnsChange *const *) b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Expands in the tree the states the search expanded, a level at a time. */
static void
expand_in_tree(Solve *s, PnsChange *changes, int n)
{
	PnsChange **order = palloc(Max(n, 1) * sizeof(PnsChange *));
	int64	   *ids = palloc(EXPAND_CHUNK * sizeof(int64));
	int			m = 0;
	int64		pending = 0;

	for (int i = 0; i < n; i++)
		if (changes[i].expanded)
			order[m++] = &changes[i];
	qsort(order, m, sizeof(PnsChange *), by_level);
	for (int done = 0; done < m;)
	{
		int			k = 0;

		CHECK_FOR_INTERRUPTS();
		/* The states of a level are stored by the expansion of the one above: a chunk stays within a level. */
		while (done + k < m && k < EXPAND_CHUNK && order[done + k]->level == order[done]->level)
		{
			ids[k] = (int64) order[done + k]->hash;
			k++;
		}
		s->expanded += tree_expand_states(s->tree, ids, k, &pending);
		done += k;
	}
}

/* The ids of the changes' states that are expanded in the tree, as an index (row: the change). */
static void
expanded_in_tree(Solve *s, PnsChange *changes, int n, IdIndex *expanded)
{
	int64	   *ids = palloc(Max(n, 1) * sizeof(int64));

	for (int i = 0; i < n; i++)
		ids[i] = (int64) changes[i].hash;
	id_index_init(expanded, n, CurrentMemoryContext);
	spi_run(psprintf("SELECT id FROM %s WHERE id = ANY ($1) AND expanded", s->tree->states),
			1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(ids, n)}, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;

		id_index_add(expanded, DatumGetInt64(column(r, 1, &isnull)), (int32) r);
	}
	SPI_freetuptable(SPI_tuptable);
}

/*
 * Writes the values of the exact changes whose states are expanded in the
 * tree into their rows, as propagation writes values (counts included);
 * adds the ids it wrote to valued.  claims_fit has locked the rows.
 */
static void
write_values(Solve *s, PnsChange *changes, int n, const IdIndex *expanded, IdIndex *valued)
{
	const Game *game = s->game;
	int64	   *ids = palloc(Max(n, 1) * sizeof(int64));
	Datum	   *utilities = palloc(Max(n, 1) * sizeof(Datum));
	int64	   *moves = palloc(Max(n, 1) * sizeof(int64));
	int			m = 0;
	TreeCounts	counts;

	id_index_init(valued, n, CurrentMemoryContext);
	for (int i = 0; i < n; i++)
	{
		double		utility[GT_MAX_ROLES];

		if (changes[i].lo != changes[i].hi || changes[i].best == GT_NO_MOVE ||
			id_index_find(expanded, (int64) changes[i].hash) < 0)
			continue;
		utility[0] = changes[i].lo;
		if (game->nroles == 2)
			utility[1] = GT_GOAL_MAX - changes[i].lo;
		ids[m] = (int64) changes[i].hash;
		utilities[m] = JsonbPGetDatum(gt_encode_role_values(game, utility, NULL));
		moves[m] = tree_move_id(gt_encode_move(game, changes[i].state, changes[i].best));
		m++;
	}
	if (m == 0)
		return;
	spi_run(psprintf("UPDATE %1$s s SET utility = u.utility, proven = true, best_move = u.best_move "
					 "FROM unnest($1, $2, $3) u(id, utility, best_move), %1$s o "
					 "WHERE s.id = u.id AND o.id = u.id "
					 COUNTS_RETURNING ", s.id", s->tree->states),
			3, (Oid[]) {INT8ARRAYOID, JSONBARRAYOID, INT8ARRAYOID},
			(Datum[]) {int8_array(ids, m), datum_array(utilities, NULL, m, JSONBOID), int8_array(moves, m)},
			SPI_OK_UPDATE_RETURNING);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;

		id_index_add(valued, DatumGetInt64(column(r, 6, &isnull)), (int32) r);
	}
	s->solved += SPI_processed;
	counts_init(&counts);
	counts_value_changes(&counts);
	counts_write(s->tree, &counts);
}

/*
 * Whether the tree can take every claim of the changes: each one's moves
 * are stored, and the row of each exact one (whose value goes with it) is
 * now locked by this write, not by another session.  Claims rest on one
 * another: the tree takes them all or none.
 */
static bool
claims_fit(Solve *s, PnsChange *changes, int n, const IdIndex *expanded)
{
	int64	   *ids = palloc(Max(n, 1) * sizeof(int64));
	int			m = 0;
	uint64		locked;

	for (int i = 0; i < n; i++)
	{
		if (!changes[i].claim)
			continue;
		if (id_index_find(expanded, (int64) changes[i].hash) < 0)
			return false;
		if (changes[i].lo == changes[i].hi && changes[i].best != GT_NO_MOVE)
			ids[m++] = (int64) changes[i].hash;
	}
	if (m == 0)
		return true;
	spi_run(psprintf("SELECT id FROM %s WHERE id = ANY ($1) FOR UPDATE SKIP LOCKED", s->tree->states),
			1, (Oid[]) {INT8ARRAYOID}, (Datum[]) {int8_array(ids, m)}, SPI_OK_SELECT);
	locked = SPI_processed;
	SPI_freetuptable(SPI_tuptable);
	return locked == (uint64) m;
}

/* The rows of _proof of the changes the tree can check (solve.h); marks them written. */
static void
write_bounds(Solve *s, PnsChange *changes, int n, const IdIndex *expanded, const IdIndex *valued,
			 bool claims)
{
	int64	   *ids = palloc(Max(n, 1) * sizeof(int64));
	Datum	   *lo = palloc(Max(n, 1) * sizeof(Datum));
	Datum	   *hi = palloc(Max(n, 1) * sizeof(Datum));
	Datum	   *threshold = palloc(Max(n, 1) * sizeof(Datum));
	Datum	   *proof = palloc(Max(n, 1) * sizeof(Datum));
	Datum	   *disproof = palloc(Max(n, 1) * sizeof(Datum));
	bool	   *threshold_null = palloc(Max(n, 1) * sizeof(bool));
	bool	   *proof_null = palloc(Max(n, 1) * sizeof(bool));
	bool	   *disproof_null = palloc(Max(n, 1) * sizeof(bool));
	int			m = 0;

	for (int i = 0; i < n; i++)
	{
		PnsChange  *c = &changes[i];

		if (id_index_find(expanded, (int64) c->hash) < 0 ||
			(c->claim && c->lo == c->hi && id_index_find(valued, (int64) c->hash) < 0))
			continue;
		/* A position on the way to a claim: its moves are all the store needs of it. */
		if (!c->claim)
		{
			c->written = true;
			continue;
		}
		if (!claims)
			continue;
		ids[m] = (int64) c->hash;
		lo[m] = Int16GetDatum((int16) c->lo);
		hi[m] = Int16GetDatum((int16) c->hi);
		threshold[m] = Int16GetDatum((int16) c->threshold);
		threshold_null[m] = c->threshold < 0;
		/* Infinite: proven or disproven for that threshold. */
		proof[m] = Int64GetDatum((int64) c->proof);
		proof_null[m] = c->threshold < 0 || c->proof == PNS_INFINITE;
		disproof[m] = Int64GetDatum((int64) c->disproof);
		disproof_null[m] = c->threshold < 0 || c->disproof == PNS_INFINITE;
		c->written = true;
		m++;
	}
	if (m == 0)
		return;
	/* Two sessions' bounds on one state are both true: the row keeps both. */
	spi_run(psprintf("INSERT INTO %1$s AS p (id, lo, hi, threshold, proof, disproof) "
					 "SELECT * FROM unnest($1, $2, $3, $4, $5, $6) "
					 "ON CONFLICT (id) DO UPDATE SET lo = greatest(p.lo, excluded.lo), "
					 "hi = least(p.hi, excluded.hi), threshold = excluded.threshold, proof = excluded.proof, "
					 "disproof = excluded.disproof", s->tree->proof),
			6, (Oid[]) {INT8ARRAYOID, INT2ARRAYOID, INT2ARRAYOID, INT2ARRAYOID, INT8ARRAYOID, INT8ARRAYOID},
			(Datum[]) {int8_array(ids, m), datum_array(lo, NULL, m, INT2OID), datum_array(hi, NULL, m, INT2OID),
				datum_array(threshold, threshold_null, m, INT2OID), datum_array(proof, proof_null, m, INT8OID),
			datum_array(disproof, disproof_null, m, INT8OID)},
			SPI_OK_INSERT);
	s->bounds += m;
}

static void
notice_progress(Solve *s, const PnsResult *progress, bool last)
{
	TimestampTz now = GetCurrentTimestamp();

	if (!last && now < s->next_notice)
		return;
	s->next_notice = now + (int64) gt_progress_interval * 1000;
	ereport(NOTICE,
			(errmsg("solve %s: the first role's goal in %d..%d; %lld states expanded in the tree, %lld bounds "
					"and %lld values written, %lld positions held, proof and disproof numbers %s and %s for %d",
					s->tree->qualified, progress->lo, progress->hi, (long long) s->expanded,
					(long long) s->bounds, (long long) s->solved, (long long) progress->states,
					progress->proof == PNS_INFINITE ? "infinite" : psprintf("%u", progress->proof),
					progress->disproof == PNS_INFINITE ? "infinite" : psprintf("%u", progress->disproof),
					progress->threshold)));
}

/* The search's write (PnsStore): under the tree lock, then a commit when the call may. */
static void
write_changes(void *arg, PnsChange *changes, int n, const PnsResult *progress)
{
	Solve	   *s = arg;
	MemoryContext caller = MemoryContextSwitchTo(s->write_cxt);
	IdIndex		expanded,
				valued;
	ExpansionCounts none = {0};
	int			level;
	bool		claims;

	/*
	 * A write expands a level at a time, in many small statements, each a
	 * lookup of its states by key.  The plans grow keeps were made when the
	 * tree was small, and even new ones, from statistics of a smaller tree,
	 * hash the whole table for each: quadratic in a long solve.  Planned
	 * anew each time, without hash or merge joins, they use the keys
	 * (for the expansions alone: solve's own statements join whole sets).
	 */
	level = NewGUCNestLevel();
	(void) set_config_option("plan_cache_mode", "force_custom_plan", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("enable_hashjoin", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("enable_mergejoin", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
							 false);
	expand_in_tree(s, changes, n);
	AtEOXact_GUC(true, level);
	/* tree_expand_states took its states first; the rest of the write comes after the tree lock. */
	tree_lock(s->tree);
	expanded_in_tree(s, changes, n, &expanded);
	claims = claims_fit(s, changes, n, &expanded);
	if (claims)
		write_values(s, changes, n, &expanded, &valued);
	else
		id_index_init(&valued, 0, CurrentMemoryContext);
	write_bounds(s, changes, n, &expanded, &valued, claims);
	/* One more write: a propagation that read the tree before stops short of overwriting it. */
	tree_add_counts(s->tree, &none);
	MemoryContextSwitchTo(caller);
	MemoryContextReset(s->write_cxt);
	if (s->can_commit)
	{
		SPI_commit();
		/* The commit ended the transaction's settings, the pinned search_path among them. */
		s->tree->path_level = gt_pin_search_path();
	}
	notice_progress(s, progress, false);
}

/* The state the call starts from, which must be stored in the tree. */
static GameState *
start_state(const Tree *tree, Jsonb *argument)
{
	const Game *game = tree->game;
	GameState  *state;
	GameState  *stored = NULL;
	int64		id;
	bool		isnull;

	state = argument == NULL ? NULL : gt_decode_state(game, argument);
	id = state == NULL ? tree->root_id : (int64) gt_state_hash(game, state);
	spi_run(psprintf("SELECT state FROM %s WHERE id = $1", tree->states),
			1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(id)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
		stored = gt_state_of_value(game, PG_DETOAST_DATUM_PACKED(column(0, 1, &isnull)));
	SPI_freetuptable(SPI_tuptable);
	if (stored == NULL || (state != NULL && (stored->size != state->size ||
											 memcmp(stored->data, state->data, state->size) != 0)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the state is not in tree \"%s\"", tree->qualified),
				 errhint("solve starts from one of the tree's states (the state column of %s): expand the "
						 "tree to it, or give NULL for its root.", tree->states)));
	return stored;
}

/*
 * A tree created before 0.4.0 has no _proof table: its owner's first solve
 * makes it, as create_tree does.
 */
static void
make_proof_table(Tree *tree)
{
	if (!pg_class_ownercheck(tree->relids[TREE_STATES], GetUserId()))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("tree \"%s\" has no table %s", tree->qualified, tree->proof),
				 errdetail("solve keeps what it proves there; create_tree makes it, and so does the first "
						   "solve of the tree's owner."),
				 errhint("Its owner, %s, runs solve on it first.", quote_identifier(tree->owner))));
	spi_run(tree_proof_ddl(tree->proof, tree->game->name, tree->name), 0, NULL, NULL, SPI_OK_UTILITY);
	tree->proof_relid = RangeVarGetRelid(makeRangeVarFromNameList(stringToQualifiedNameList(tree->proof)),
										 NoLock, false);
}

void
solve_tree(text *name, Jsonb *state_argument, int64 time_limit, int64 max_states, bool can_commit)
{
	Tree	   *tree = tree_open(name, TREE_WRITE);
	Solve		s = {tree, tree->game, can_commit};
	PnsStore	store = {load_known, write_changes, &s, (int64) gt_solve_write_interval * 1000};
	PnsLimits	limits = {0};
	PnsResult	result;
	GameState  *state;

	shard_refuse(tree, "solve");
	if (!OidIsValid(tree->proof_relid))
		make_proof_table(tree);
	state = start_state(tree, state_argument);
	s.write_cxt = AllocSetContextCreate(CurrentMemoryContext, "gametree solve write", ALLOCSET_DEFAULT_SIZES);
	s.next_notice = GetCurrentTimestamp() + (int64) gt_progress_interval * 1000;
	if (time_limit >= 0)
		limits.deadline = GetCurrentTimestamp() + time_limit;
	limits.max_states = Max(max_states, 0);
	limits.memory = gt_memory_limit(&gt_search_memory);

	pns_solve(tree->game, state, &limits, &store, &result);

	notice_progress(&s, &result, true);
	if (!result.proven)
		ereport(NOTICE,
				(errmsg("solve %s stopped at %s, unproven, having collected its memory %d times",
						tree->qualified, pns_stop_name(result.stop), result.collections),
				 errhint("CALL gametree.solve goes on from what it stored.")));
	tree_close(tree);
}
