/*
 * unfold.h: rules with single-rule relations unfolded, which the prover
 * compiles ground queries from.
 *
 * A positive literal of a relation of the state that has one rule, not
 * recursive, whose head's arguments are distinct variables, is replaced by
 * that rule's body, its own variables renamed apart: the same answers, one
 * query fewer per binding.  The relation keeps its rule, for the literals
 * left (negated ones) and for the engine's own questions.
 */
#ifndef GAMETREE_GDL_UNFOLD_H
#define GAMETREE_GDL_UNFOLD_H

#include "gdl/program.h"

/*
 * p's rules, in p's order (a relation's rule indexes hold for them), each
 * unfolded; allocated in the current memory context.
 */
extern Rule *unfolded_rules(Program *p);

#endif
