/*
 * forward.h: a network evaluated by forward propagation.
 *
 * The values of every node that terminal, legal and next depend on are
 * kept for one state at a time, with per rule the number of its literals
 * that fail and per node the number of its rules that hold.  Moving to
 * another state flips the base nodes that differ and carries each flip
 * forward to the rules that read the node, so a state costs what changes
 * between it and the one before, not the whole network (what Sancho, the
 * 2014 GGP champion, calls forward dead reckoning).  Consecutive states of
 * a playout or a perft differ in a few facts.
 *
 * Cycle groups (nodes that depend on each other positively) are recomputed
 * from false to their fixpoint whenever one of their rules' literals
 * changes, lowest group in the dependency order first, so that a group
 * that supported itself does not stay true.  The goals are needed at the
 * end of a game only: the nodes only they need are evaluated on demand.
 *
 * Where most of the network is idle in a state, it sleeps.  A rule whose
 * facts hold needs the derived nodes it reads, when its head is needed;
 * outputs always are.  A node that nothing needs keeps its counters but
 * carries no flip forward, and catches up when it is needed again: its
 * value from its counters, its change carried forward then.  chess.kif
 * asks whether each square is attacked when each of its pieces moves
 * away, and one square holds its king: three quarters of its network
 * sleep.  A rule needs its costly derived literals one after another,
 * cheapest first, each once those before it hold: the king safety of a
 * capture only when the capture could be made.  The facts are watched for
 * this only when at most half of the network is awake in the initial
 * state; elsewhere every node stays awake.
 */
#ifndef GAMETREE_GDL_FORWARD_H
#define GAMETREE_GDL_FORWARD_H

#include "gdl/propnet.h"

typedef struct Forward Forward;

/*
 * Whether forward_create can evaluate net in about room bytes (and name
 * each of its rules): what the choice between the network and the prover
 * counts beside the network itself.
 */
extern bool forward_fits(const Propnet *net, Size room);

/* About the bytes forward_create takes for net. */
extern Size forward_size(const Propnet *net);

/* Evaluation state for net (in the current memory context), at the state of no facts. */
extern Forward *forward_create(const Propnet *net);

/* The node values: valid for the nodes terminal, legal and next need, and after forward_goals for the goals'. */
extern const uint8 *forward_values(const Forward *f);

/*
 * Whether node's value is that of the state: it is awake (a node asleep,
 * or only the goals', may be stale).
 */
extern bool forward_current(const Forward *f, int32 node);

/* Moves to the state of words (the base nodes as a bit set); false when nothing changed. */
extern bool forward_set_state(Forward *f, const uint64 *words);

/*
 * The state that the joint move of inputs (input nodes) leads to from the
 * current state, valid until the next call.  The inputs stay on until the
 * next move when, as in well-formed GDL, terminal, legal and goal do not
 * read them: consecutive moves then share the nodes both turn on.
 */
extern const uint64 *forward_next(Forward *f, const int32 *inputs, int ninputs);

/*
 * The actions of role (indexes among its inputs) whose legal node holds,
 * in order, into actions[]; returns how many.
 */
extern int	forward_legal(const Forward *f, int role, int32 *actions);
/* How many forward_legal would list. */
extern int	forward_legal_count(const Forward *f, int role);

/* Evaluates the nodes that only the goals need, for the current state. */
extern void forward_goals(Forward *f);

#endif
