/*
 * implied.h: the facts a literal implies, written beside it, for the
 * network's dormant nodes.
 *
 * Every rule of chess.kif's (legal2 ?player (move ?piece ?u ?v ?x ?y))
 * reads (true (cell ?u ?v ?piece)): the piece is on the square it moves
 * from.  The legal rule for a capture reads legal2 but no fact of the
 * piece, so in the network nothing but the side to move guards it, and
 * each of its ground rules, one per capture the pieces' geometry allows
 * from any square to any other, keeps awake the king safety it asks
 * (forward.c: a fact guards the derived literals of the rules it is in).
 * With (true (cell ?u ?v ?piece)) written into the legal rule, only the
 * captures of a piece that is there keep theirs awake.
 *
 * A positive literal of a relation of the state implies (true X) when
 * every rule of that relation whose head can equal the literal reads
 * (true X') positively, X' made of the head's variables, and X' comes to
 * X as the head's variables take the literal's terms.  Adding a literal
 * that the others imply changes no rule's truth: the game is the same.
 */
#ifndef GAMETREE_GDL_IMPLIED_H
#define GAMETREE_GDL_IMPLIED_H

#include "gdl/program.h"

/*
 * Writes into each rule of p, right after each positive literal of a
 * relation of the state, the facts it implies that the rule does not read
 * yet, while the rule stays within MAX_BODY literals.
 */
extern void implied_facts_rewrite(Program *p);

#endif
