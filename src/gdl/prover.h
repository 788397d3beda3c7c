/*
 * prover.h: evaluates a GDL program state by state, goal-directed, for
 * games whose ground network would not fit in gametree.gdl_memory.
 *
 * A query for a relation with some arguments bound is answered once per
 * state (per joint move for relations that depend on does) and
 * remembered: its rules are joined with those arguments bound, the
 * relations their bodies use queried in turn.  Static relations are the
 * grounding's exact tables, true and does the state's facts and the
 * move's actions.  Recursive queries are repeated until no answer is
 * added, so positive recursion reaches its fixpoint.
 *
 * A query with every argument bound, of a relation of the state alone, is
 * compiled instead, the first time it is asked: its rules are joined once
 * with the static relations and every fact that can hold, and what is left
 * (facts and other such queries) is read off each state after.  A cycle
 * through compiled queries turns them off for the game: the joins then
 * hold the fixpoint.
 */
#ifndef GAMETREE_GDL_PROVER_H
#define GAMETREE_GDL_PROVER_H

#include "gdl/propnet.h"

typedef struct Prover Prover;

/* What a run of the prover computes; terminal first for each new state. */
typedef enum ProverPhase
{
	PHASE_TERMINAL,				/* a new state: terminal */
	PHASE_LEGAL,				/* legal */
	PHASE_GOAL,					/* goal */
	PHASE_MOVE,					/* next, for the joint move among the input nodes */
	NUM_PHASES
} ProverPhase;

/* g: a grounding of the static relations and domains (network false), kept. */
extern Prover *prover_create(Grounding *g, const Propnet *net, const TermId *roles);

/*
 * Computes the output nodes of a phase from the base (and input) nodes in
 * values[]; false when it gave up, past a running clock's deadline
 * (core/clock.h), values[] then meaningless.
 */
extern bool prover_run(Prover *pv, const Propnet *net, ProverPhase phase, uint8 *values);

#endif
