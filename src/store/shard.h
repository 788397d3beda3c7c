/*
 * shard.h: trees sharded over several PostgreSQL servers (shard.c on the
 * coordinator, shard_node.c on the nodes).
 *
 * The design.  The ids of states are uniform 64-bit hashes: 64 equal
 * ranges of them are the shards, and each node holds a run of whole shards
 * (gametree.tree_nodes), so that a shard can later move to another node.
 * A node's part is an ordinary tree of the same name holding the states of
 * its range and the edges out of them: expanding a state is local.  A new
 * child held by another node waits in the part's <tree>_outbox, packed as
 * it travels by the batch that found it, until the coordinator ships it,
 * with thousands of others, to its holder,
 * which stores it once (its primary key absorbs transpositions arriving
 * from several nodes).
 *
 * The coordinator holds no states: its <tree>_states and <tree>_edges are
 * partitioned by range of the id (of init_id for edges) with foreign
 * partitions (postgres_fdw) on the nodes, so that SQL reads the whole tree,
 * and its <tree>_moves gathers every node's moves.  It drives the jobs over
 * libpq (pg/remote.h) with the caller's user mappings, no passwords of its
 * own, passing payloads on as their bytes:
 * - grow, level by level (so depths are shortest distances from the root,
 *   as on one server): every node expands its states at the shallowest
 *   depth of the frontier at once, then their outboxes are shipped;
 * - propagation, in bulk-synchronous waves: every node reads its part into
 *   memory for the whole propagation and tells the others which of their
 *   states its edges lead to; then every node propagates its part and
 *   sends the values it wrote to the nodes that want them, straight onto
 *   their edges in memory; until no value changes.  The first sending
 *   carries every wanted value, since edges to other nodes' states start
 *   with none.  On a graph without cycles the values are those of one
 *   server.
 * No step needs a transaction over several servers: each commits on its
 * own server, a node empties its outbox only after its holders stored
 * what it sent, and storing a state again changes nothing.  A job cut short at
 * any moment (an error, a cancel, a node killed) is finished by the next
 * call.
 */
#ifndef GAMETREE_SHARD_H
#define GAMETREE_SHARD_H

#include "store/propagate.h"
#include "store/tree.h"

/* Equal ranges of the ids; a node holds a run of them. */
#define TREE_SHARDS 64

/*
 * On the coordinator: creates a sharded tree over the nodes (foreign
 * servers) whose names and game the tree has, with the root; returns its id.
 */
extern int64 shard_create_tree(Tree *tree, const GameState *root, Datum nodes);
/* Drops the nodes' parts of a sharded tree (the caller drops the coordinator's tables). */
extern void shard_drop_parts(const Tree *tree);
/* grow and propagate of a sharded tree (grow.h, propagate.h tell the arguments). */
extern void shard_grow(Tree *tree, int64 max_states, int32 max_depth, int64 time_limit, bool can_commit);
extern void shard_propagate(Tree *tree, bool from_scratch);
/* Ereports when tree is a sharded tree's coordinator, which call (expand, grow_step) cannot expand. */
extern void shard_refuse(const Tree *tree, const char *call);
/*
 * Ereports when tree is a node's part of a sharded tree, which call
 * ("CALL gametree.grow", "SELECT gametree.propagate") leaves to the
 * coordinator: the part alone has not the values of the states other
 * nodes hold.
 */
extern void shard_refuse_part(const Tree *tree, const char *call);

/* Rows per payload shipped between nodes: a few megabytes in the text of a statement. */
#define SHARD_PAYLOAD_ROWS 20000

/*
 * On a node: creates its part of a sharded tree, holding ids low..high,
 * with the root when it is among them; *holds_root says so.  A part that
 * exists already with the same game and range is left as it is.
 */
extern int64 shard_create_part(text *name, text *game, int32 node, int64 low, int64 high, Jsonb *root,
							   bool *holds_root);
/*
 * The columns of _states a new state travels with to its holder (schema.h
 * numbers them): all a batch writes but its best move, which a new state
 * has none of.  A batch packs the rows it finds for other nodes in this
 * order, and shard_accept reads them so.
 */
#define SHARD_SHIPPED_COLUMNS 9
extern const int shard_shipped_columns[SHARD_SHIPPED_COLUMNS];

/*
 * A PayloadSink (arg: the Tree of a node's part): stores rows of new
 * states other nodes hold, packed as shard_shipped_columns, in the part's
 * outbox, in the caller's transaction (the batch's that found them).
 */
extern void shard_outbox_store(void *arg, int32 to, int64 rows, bytea *payload);
/*
 * The states of the part's outbox, each once, packed per node that holds
 * them (the other nodes, numbers[i] holding lows[i]..highs[i]), for sink;
 * the caller empties the outbox once they are stored.
 */
extern void shard_outbox(text *name, Datum numbers, Datum lows, Datum highs, PayloadSink sink, void *arg);
/*
 * Stores the states node shipped here (shard_outbox's rows) that are not
 * stored yet; returns the states stored.
 */
extern int64 shard_accept(text *name, int32 node, const bytea *payload);
/*
 * A propagation of a node's part (propagate.h tells the steps): reads the
 * part and packs the ids wanted of the other nodes (numbers, lows, highs
 * as for shard_outbox); notes the ids node wants; packs the values for
 * the nodes that want them; takes values; evaluates a depth (-1: all);
 * ends it.
 */
extern void shard_read_part(text *name, bool from_scratch, Datum numbers, Datum lows, Datum highs,
							PayloadSink sink, void *arg);
extern int64 shard_take_wanted(text *name, int32 node, const bytea *payload);
extern void shard_values(text *name, PayloadSink sink, void *arg);
extern int64 shard_take_values(text *name, const bytea *payload);
extern void shard_propagate_depth(text *name, int32 depth);
extern void shard_end_propagation(text *name);

#endif
