/*
 * unlike.h: rules that keep a head value apart from a body value through
 * a static inequality, rewritten through projections, for grounding.
 *
 * chess.kif's threats that ignore a captured piece,
 *
 *   (<= (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ix ?iy)
 *       (opponent ?owner ?o) (bishop_threatens ?o ?u ?v ?x ?y ?ix ?iy)
 *       (different_cells ?cx ?cy ?u ?v))
 *
 * hold for a captured square (?cx ?cy) when some attacker stands on
 * another square.  Instantiated as written, each captured square has a
 * ground rule per attacker: 26 million of chess.kif's 33 million.  But
 * different_cells holds when the files differ or the ranks do (its rules
 * are one distinct each, and unary static filters), and "some attacker on
 * another file" is "some file other than ?cx has an attacker": with A(?u),
 * some attacker on file ?u, and N(?cx), some file with an attacker other
 * than ?cx, the rule becomes
 *
 *   A(ctx, ?u)  :- the body without different_cells     (per attacker)
 *   N(ctx, ?cx) :- A(ctx, ?u), (distinct ?cx ?u), ...   (per file pair)
 *   head        :- N(ctx, ?cx), (coordinate ?cy)         (per square)
 *
 * and the same for ranks, where ctx is the head's other variables: a
 * ground rule per attacker, per pair of files and per square, not per
 * attacker and square.  The rules of one relation that read the same
 * inequality the same way share A and N.
 *
 * A static relation is an inequality when each of its rules has distinct
 * variables for arguments, one distinct of two of them, and otherwise
 * unary static literals of its variables; a rule reads one this way when
 * its head's arguments are distinct variables, and some of them occur in
 * the rule only there and in the inequality, one in each pair its rules
 * compare.  The rewrite is exact: the game is the same.
 */
#ifndef GAMETREE_GDL_UNLIKE_H
#define GAMETREE_GDL_UNLIKE_H

#include "gdl/program.h"

/* Rewrites p's rules of the state that read an inequality so (see above). */
extern void unlike_rewrite(Program *p);

#endif
