/*
 * split.h: a rule's body cut into parts that share no variable but the
 * head's, for grounding.
 *
 * (legal ?p (move ?piece ?u ?v ?x ?y)) :- ..., (true (cell ?kx ?ky ?king)),
 * (not (threatened ?p ?kx ?ky ?u ?v)) holds for a move when some square of
 * the king is not threatened: the king's variables are no head's, so the
 * literals that use them are a question of their own about ?p, ?u and ?v.
 * Instantiated whole, the rule has one ground rule per move and king
 * square; split, one per move and one per (?p ?u ?v) and king square, the
 * part's ground rules made once for all the moves that ask it.
 */
#ifndef GAMETREE_GDL_SPLIT_H
#define GAMETREE_GDL_SPLIT_H

#include "gdl/program.h"

typedef struct RuleSplit
{
	/* the rule's head :- the literals in no part (the head's variables bound) */
	Rule		main;
	int			nparts;

	/*
	 * part k: a head of a symbol no KIF text can name, over its literals'
	 * variables that the head or the main body has (in their numbering),
	 * :- those literals
	 */
	Rule	   *parts;
} RuleSplit;

/*
 * The split of rule (number: unique among the rules split in one
 * grounding, naming its parts' symbols), or NULL when its body is one
 * part and no literal has variables of its own.  Every variable of a
 * part's head stays bound by the main body's positive literals: a part
 * that alone binds a head variable is left in it.
 */
extern RuleSplit *rule_split(Program *p, const Rule *rule, int number);

/* Whether rule_split would split rule (it makes nothing). */
extern bool rule_splits(const Program *p, const Rule *rule);

#endif
