/*
 * shard.h: trees sharded over several PostgreSQL servers (shard.c on the
 * coordinator, shard_node.c on the nodes).
 *
 * The design.  The ids of states are uniform 64-bit hashes: 64 equal
 * ranges of them are the shards, and each node holds a run of whole shards
 * (gametree.tree_nodes), so that a shard can later move to another node.
 * A node's part is an ordinary tree of the same name holding the states of
 * its range and the edges out of them: expanding a state is local.  A child
 * held by another node is kept as a ghost (<tree>_ghosts) until the
 * coordinator ships it, in batches of thousands, to its holder, which
 * stores it once (its primary key absorbs transpositions arriving from
 * several nodes) and notes who holds edges into it (<tree>_refs).
 *
 * The coordinator holds no states: its <tree>_states and <tree>_edges are
 * partitioned by range of the id (of init_id for edges) with foreign
 * partitions (postgres_fdw) on the nodes, so that SQL reads the whole tree,
 * and its <tree>_moves gathers every node's moves.  It drives the jobs
 * through dblink with the caller's user mappings, no passwords of its own:
 * - grow, level by level (so depths are shortest distances from the root,
 *   as on one server): every node expands its states at the shallowest
 *   depth of the frontier at once, then the new ghosts are shipped;
 * - propagation, in bulk-synchronous waves: every node propagates its part,
 *   kept in memory for the whole propagation, then sends the values it
 *   wrote to the nodes with edges into those states (its _refs), straight
 *   onto their edges in memory; until no value changes.  The first step
 *   sends every value, so that no edge keeps one older than its state's
 *   row (the ghosts' rows keep what their state was when shipped).  On a
 *   graph without cycles the values are those of one server.
 * No step needs a transaction over several servers: each commits on its
 * own server, what a node sends is marked shipped only after its holders
 * stored it, and storing one again changes nothing.  A job cut short at
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
extern int64 shard_propagate(Tree *tree, bool from_scratch);
/* Ereports when tree is a sharded tree's coordinator, which call (expand, grow_step) cannot expand. */
extern void shard_refuse(const Tree *tree, const char *call);

/*
 * On a node: creates its part of a sharded tree, holding ids low..high,
 * with the root when it is among them; *holds_root says so.  A part that
 * exists already with the same game and range is left as it is.
 */
extern int64 shard_create_part(text *name, text *game, int32 node, int64 low, int64 high, Jsonb *root,
							   bool *holds_root);
/*
 * Stores the states node shipped here (arrays of the columns of _states)
 * that are not stored yet, and notes that node holds edges into all of
 * them; returns the states stored.
 */
extern int64 shard_accept(text *name, int32 node, Datum *columns);
/*
 * The values of other nodes' states, exchanged between the steps of a
 * propagation, in memory (tree_kept_values, tree_kept_take_values).
 */
extern void shard_values(text *name, int batch, KeptValuesSink sink, void *arg);
extern int64 shard_take_values(text *name, const bytea *payload);
/*
 * The states at depth of a node's part valued from their edges, the part
 * kept in memory for the next calls (tree_propagate_kept).
 */
extern void shard_propagate_depth(text *name, int32 depth);
/* propagate(tree, from_scratch) of a node's part, which the caller opened; returns the evaluations. */
extern int64 shard_propagate_part(Tree *tree, bool from_scratch);

#endif
