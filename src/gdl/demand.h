/*
 * demand.h: a program rewritten so that its grounding derives only the
 * atoms some rule can ask (the "magic sets" of deductive databases).
 *
 * A relation of the state that GDL does not read itself (legal, next,
 * goal, terminal, true and does are read whole) is read by rules that,
 * at the literal that reads it, have some of its arguments bound by what
 * they joined before.  Its asked relation holds those arguments, for every
 * reader; its rules join it first, so that they derive the atoms asked
 * and no others.  chess.kif's (threatened_with_capture ?owner ?cx ?cy ?x
 * ?y ?ignorex ?ignorey) is read only with its ignored square a square of
 * the board: 524,288 atoms, where 8.4 million can hold over every
 * coordinate (files and ranks alike), and its network grounds in 33 s
 * (at gametree.gdl_memory 8GB) where it did not fit in 20GB.  The
 * positions that the readers bind only through true and does are asked
 * one at a time: its threats along lines with an ignored square, bound by
 * the square a move leaves, are asked of the 64 squares, not of 256 pairs
 * of coordinates.
 *
 * The asked relations are only a filter of the grounding: a ground rule
 * never reads one (ground.c leaves them out), and the game is unchanged.
 */
#ifndef GAMETREE_GDL_DEMAND_H
#define GAMETREE_GDL_DEMAND_H

#include "gdl/program.h"

/*
 * Adds the asked relations and their rules to p (Relation.asked), and the
 * asked literals first in the body of each rule of a relation that has
 * them.
 */
extern void demand_rewrite(Program *p);

#endif
