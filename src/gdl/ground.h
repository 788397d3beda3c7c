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

/*
 * Argument paths of an atom that atoms are looked up by: argument i is path
 * i * PATH_STRIDE, argument j of a function term there path i * PATH_STRIDE
 * + 1 + j (j < PATH_STRIDE - 1), so (true (cell ?x 3 ?p)) finds atoms by
 * the 3 inside.
 */
#define PATH_STRIDE 8

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
	/* index: (path, term) -> the last atom with that term there, and how many */
	int64	   *index_keys;
	int32	   *index_last;
	int32	   *index_count;
	int			index_size;		/* a power of two */
	int			index_used;
	int			npaths;
	int32	  **previous;		/* per path, per atom: the atom before with the same term there */
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
