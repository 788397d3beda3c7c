/*
 * passthrough.h: arguments a relation's rules pass on without reading
 * them, which the prover's compiled queries may share (prover.c).
 *
 * chess.kif's (clear_row_ig ?u ?y ?x ?y ?ignorex ?ignorey) walks a row
 * from ?u to ?x, a square ignored on the way: its rules pass the ignored
 * square on unchanged (the walk's next step), test it against a filter
 * that every square passes ((coordinate ?ignorex)), or, in one rule, fix
 * it from the other arguments (the next square is the ignored one).  Such
 * arguments are a relation's group.  A query whose group takes a value
 * that no rule fixing it reaches, directly or through the queries it
 * passes the group on to, answers as it would for any other such value:
 * a row walk ignoring a square off the row.
 *
 * A relation's group is chosen from its rules alone, callees first: the
 * positions (each a variable in every head) for which every rule either
 * fixes them all from the others (an active rule: by a head argument
 * outside the group, a static literal of two or more arguments, or a
 * fact) or touches none of them but to test it with a static relation of
 * one argument (a filter) and to pass them all, in order, to the group of
 * a relation decided before (or to its own, in its own recursion).  Among
 * the choices, the one with the most rules of the second kind, then the
 * most positions.  Relations in a recursion with others have none.
 */
#ifndef GAMETREE_GDL_PASSTHROUGH_H
#define GAMETREE_GDL_PASSTHROUGH_H

#include "gdl/program.h"

/* A group has at most this many positions (a bit each), of as many arguments. */
#define PASSTHROUGH_MAX_ARITY 8

/* At most this many filter relations (a bit each): groups that need more have none. */
#define PASSTHROUGH_MAX_FILTERS 32

typedef struct PassThrough
{
	uint8	   *group;			/* per relation: a bit per position of its group; 0: none */
	uint32	   *filters;		/* per relation: the filters its group meets, its callees' too */
	int			filter_relation[PASSTHROUGH_MAX_FILTERS];	/* of each bit of filters */
	int			nfilters;
} PassThrough;

/*
 * The groups of the relations candidate[] marks (relations of the state
 * whose ground queries are compiled), from rules (p's, unfolded: the ones
 * compiled), palloc'd.
 */
extern PassThrough passthrough_groups(const Program *p, const Rule *rules, const bool *candidate);

/* Whether literal i of rule tests a variable at a position of group in its head with a filter. */
extern bool passthrough_is_filter(const Program *p, const Rule *rule, int i, uint8 group);

#endif
