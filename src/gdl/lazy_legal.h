/*
 * lazy_legal.h: random legal moves with costly legality checked on demand.
 *
 * A random playout needs one legal move a role, not every legal move: as a
 * chess engine makes pseudo-legal moves and checks that its king is safe
 * only for the move it plays.  chess.kif's legal rules end with whether the
 * king would be safe after the move, a cone of thousands of rules for each
 * square a piece leaves or each capture: evaluated for every move that
 * could be made, it is half the work of a playout.  Here the network is
 * evaluated forward without those costly literals (a superset of the legal
 * moves, the candidates); a candidate drawn at random has its own legal
 * node evaluated backward, from the rules of the whole network, and is
 * dropped and another drawn if it fails: the first that holds is uniform
 * over the legal moves.  What reads the legal nodes (chess.kif's
 * has_legal_move, and through it stuck, terminal and the goals) is exact
 * in the forward network while every role has a legal move, if it reads a
 * role's legal nodes only as "any of them holds", which is checked; a role
 * with no move left makes terminal and the goals evaluated backward too.
 */
#ifndef GAMETREE_GDL_LAZY_LEGAL_H
#define GAMETREE_GDL_LAZY_LEGAL_H

#include "common/pg_prng.h"
#include "gdl/forward.h"
#include "gdl/propnet.h"

typedef struct LazyLegal LazyLegal;

/*
 * The analysis of net (kept in a memory context of its own, a child of the
 * current one), or NULL when no legal rule has a costly literal, when
 * something other than "any of these moves" reads a legal node (the
 * forward values would not be exact), or when the evaluation without the
 * costly literals would not fit in room bytes.
 */
extern LazyLegal *lazy_legal_create(const Propnet *net, Size room);

/* Moves to the state of words (the base nodes as a bit set). */
extern void lazy_legal_set_state(LazyLegal *lz, const uint64 *words);

/*
 * For the state set: false when it is terminal; else a uniformly random
 * legal action of each role (its index among the role's inputs) in
 * actions[], or -1 for a role with no legal move (an error of the rules,
 * the caller's to report).
 */
extern bool lazy_legal_pick(LazyLegal *lz, pg_prng_state *prng, int32 *actions);

/* The next state from the state set, with an input node a role, as forward_next. */
extern const uint64 *lazy_legal_next(LazyLegal *lz, const int32 *inputs);

/* The goals of the state set (terminal by lazy_legal_pick), per role the best value that holds, or -1. */
extern void lazy_legal_goals(LazyLegal *lz, int *goals);

#endif
