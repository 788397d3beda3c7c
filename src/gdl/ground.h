/*
 * ground.h: grounding a GDL program.
 *
 * Relations that do not depend on the state (role, init, static facts and
 * the views built on them) are computed exactly, with stratified negation.
 * For the others, an over-approximation of every atom that can ever hold
 * is computed (negations of such relations dropped, true fed by init and
 * next, does by legal), and each rule is instantiated over it.  What is
 * left is a ground program over those atoms: static literals are known
 * true and dropped, as are negations of atoms that can never hold.
 */
#ifndef GAMETREE_GDL_GROUND_H
#define GAMETREE_GDL_GROUND_H

#include "gdl/program.h"

/* The atoms of one relation, in order of derivation. */
typedef struct Tuples
{
	TermId	   *atoms;
	int			n;
	int			room;
	/* set: atom id -> index in atoms */
	int32	   *set_keys;
	int32	   *set_values;
	int			set_size;		/* a power of two */
	/* per argument: the last atom with a given argument, and earlier ones */
	int32	  **arg_keys;
	int32	  **arg_last;
	int			arg_size;		/* a power of two */
	int32	  **arg_previous;	/* per argument, per atom index */
} Tuples;

/* A ground rule: head :- literals; a literal is atom << 1 | negated. */
typedef struct GroundRule
{
	TermId		head;
	int32		first;
	int32		nliterals;
} GroundRule;

typedef struct Grounding
{
	Program    *program;
	TermStore  *terms;
	Tuples	   *tuples;			/* per relation */
	GroundRule *rules;
	int			nrules;
	int			rule_room;
	int32	   *literals;
	int			nliterals;
	int			literal_room;
	Size		memory_limit;	/* bytes */
	MemoryContext cxt;
	int			allocations;	/* since memory was last checked */
} Grounding;

/*
 * Grounds program p in the current memory context, which must hold
 * nothing else: memory_limit bounds what it holds.
 */
extern Grounding *ground_program(Program *p, Size memory_limit);

/* Index of atom in t, or -1. */
extern int	tuples_find(const Tuples *t, TermId atom);

#endif
