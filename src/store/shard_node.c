/*
 * shard_node.c: a node's side of a sharded tree (shard.h): its part, and
 * the states and values the coordinator ships to it.  Each call is one
 * transaction on the node, run by the coordinator through dblink; storing
 * what was stored already changes nothing, so a batch shipped again after
 * a failure is harmless.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "store/catalog.h"
#include "store/create.h"
#include "store/propagate.h"
#include "store/shard.h"
#include "utils/builtins.h"

int64
shard_create_part(text *name, text *game, int32 node, int64 low, int64 high, Jsonb *root, bool *holds_root)
{
	TreeNode	part = {node, NULL, low, high};

	if (node < 1 || low > high)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid part of a sharded tree: node %d, ids %lld to %lld", node, (long long) low,
						(long long) high),
				 errhint("The coordinator of a sharded tree calls gametree.shard_create.")));
	return create_tree(name, game, root, (Datum) 0, &part, holds_root);
}

/* The node's part, open for writing, with its tables held and the tree lock. */
static Tree *
open_part(text *name)
{
	Tree	   *tree = tree_open(name, TREE_WRITE);

	if (tree->shard == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("tree \"%s\" is not a node's part of a sharded tree", tree->qualified),
				 errhint("The coordinator of a sharded tree ships its states to its nodes.")));
	tree_hold_tables(tree);
	tree_lock(tree);
	return tree;
}

/*
 * The states arrive with the columns of _states, their state in its binary
 * form, which the cast checks (a holder's table keeps only states of its
 * game, whose ids are their hashes: its CHECK).  Those stored already keep
 * their rows: they were stored at a depth no greater, as levels arrive in
 * order.  The sender is noted for every state: propagation sends it the
 * state's values.
 */
int64
shard_accept(text *name, int32 node, Datum *columns)
{
	Tree	   *tree = open_part(name);
	ExpansionCounts stored = {0};
	Oid			types[10] = {INT8ARRAYOID, BYTEAARRAYOID, JSONBARRAYOID, INT4ARRAYOID, TEXTARRAYOID,
	BOOLARRAYOID, JSONBARRAYOID, JSONBARRAYOID, BOOLARRAYOID, INT4OID};
	Datum		values[10];

	memcpy(values, columns, 9 * sizeof(Datum));
	values[9] = Int32GetDatum(node);
	counts_init(&stored.counts);
	spi_run(psprintf("WITH arrived AS (SELECT * FROM unnest($1, $2, $3, $4, $5, $6, $7, $8, $9) "
					 "u(id, state, goal, depth, control, expanded, utility, mobility, proven)), "
					 "noted AS (INSERT INTO %1$s (id, node) SELECT id, $10 FROM arrived ON CONFLICT DO NOTHING), "
					 "new AS (INSERT INTO %2$s AS s (id, state, goal, depth, control, expanded, utility, mobility, proven) "
					 "SELECT id, state::gametree.state(%3$s), goal, depth, control, expanded, utility, mobility, "
					 "proven FROM arrived ORDER BY id ON CONFLICT (id) DO NOTHING "
					 "RETURNING s.depth, s.goal IS NOT NULL, s.proven, s.utility) "
					 "SELECT * FROM new",
					 tree->refs, tree->states, quote_literal_cstr(tree->game->name)),
			10, types, values, SPI_OK_SELECT);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	row = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int32		depth = DatumGetInt32(SPI_getbinval(row, desc, 1, &isnull));
		bool		terminal = DatumGetBool(SPI_getbinval(row, desc, 2, &isnull));
		DepthCount *at = counts_at(&stored.counts, depth);

		at->states++;
		stored.states++;
		/* As a batch stores them: a terminal state is expanded, with its goals as its value. */
		if (terminal)
			at->terminal++;
		else
			stored.frontier++;
		if (DatumGetBool(SPI_getbinval(row, desc, 3, &isnull)))
			counts_proven(&stored.counts, depth, DatumGetJsonbP(SPI_getbinval(row, desc, 4, &isnull)), 1);
	}
	tree_add_counts(tree, &stored);
	tree_close(tree);
	return stored.states;
}

void
shard_values(text *name, int batch, KeptValuesSink sink, void *arg)
{
	Tree	   *tree = tree_open(name, TREE_READ);

	tree_kept_values(tree, batch, sink, arg);
	tree_close(tree);
}

int64
shard_take_values(text *name, const bytea *payload)
{
	Tree	   *tree = tree_open(name, TREE_WRITE);
	int64		changed = tree_kept_take_values(tree, payload);

	tree_close(tree);
	return changed;
}

void
shard_propagate_depth(text *name, int32 depth)
{
	Tree	   *tree = open_part(name);

	tree_propagate_kept(tree, depth);
	tree_close(tree);
}

/*
 * From scratch, the whole part read again and recounted; otherwise the part
 * kept in memory since the last call of this propagation (or read now),
 * with the values of other nodes' states taken since.
 */
int64
shard_propagate_part(Tree *tree, bool from_scratch)
{
	PropagateControl control = {0};
	PropagateResult result = {0};

	tree_hold_tables(tree);
	if (from_scratch)
	{
		tree_forget_kept();
		tree_propagate(tree, true, &control, &result);
		tree_recount(tree);
	}
	else
		tree_propagate_kept(tree, -1);
	return result.evaluations;
}
