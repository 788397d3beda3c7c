/*
 * solve.h: proof-number search in a tree (solve.c).
 *
 * The search is pns.c's (search/pns.h tells the method), with the tree as
 * its store: every few seconds, and when its memory is full, it writes
 * its proofs and commits, so that a cancelled or killed call keeps every
 * costly proof it had a few seconds before, and a new call goes on from
 * there.  What it writes:
 * - proofs (pns.c's mark_wanted): of the bounds the state has reached,
 *   and of the positions that cost the search many expansions, with the
 *   moves that first led to each; their moves as expand() stores them
 *   (states, moves, edges; counted as pending propagation), so that each
 *   proof is in the tree and reachable;
 * - a row of <tree>_proof per state of those proofs (a claim): bounds
 *   lo..hi on the first role's goal, and the proof and disproof numbers
 *   of its last boolean search;
 * - for a state whose value it proved (lo = hi), the value in the columns
 *   propagation writes: utility, proven, best_move (a move that keeps it).
 * Such a state is solved: propagation takes it as a leaf with that value.
 *
 * Writes follow the tree's lock order (tree.h): states to expand are
 * taken FOR UPDATE SKIP LOCKED (one a grow batch holds is being expanded
 * there), then the tree lock, then the rows.  Claims rest on one
 * another: a write takes every claim of the moment or none (when a state
 * of one is not expanded in the tree, or another session holds the row of
 * an exact one), and the next write tries again.  A _proof row is written
 * only for a state whose moves are stored and, when exact, whose value
 * is: its claim can always be checked against its children.
 */
#ifndef GAMETREE_SOLVE_H
#define GAMETREE_SOLVE_H

#include "postgres.h"

#include "utils/jsonb.h"

/*
 * solve(tree, state, time_limit, max_states): proves the value of state
 * (NULL: the root), a state of the tree, within time_limit (microseconds,
 * -1: none) and max_states positions held at once (-1: no limit), and
 * gametree.search_memory; commits each write when it can (CALL at top
 * level, connected to SPI non-atomic).  Reports in NOTICEs.
 */
extern void solve_tree(text *name, Jsonb *state, int64 time_limit, int64 max_states, bool can_commit);

#endif
