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

#include "core/clock.h"
#include "gdl/join.h"

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
	/* network: the atoms of split rules' parts (split.h) instantiated, and what each is */
	Tuples		parts;
	int8	   *part_holds;		/* a PartHolds per atom of parts */
	int			part_holds_room;
	/*
	 * network: per term, whether a ground rule made reads it, or an output
	 * is it (instantiate: a rule's ground rules whose head nothing reads
	 * are not made)
	 */
	bool	   *read;
	int			read_room;
	Size		memory_limit;	/* bytes */
	MemoryContext cxt;
	bool		network;		/* all relations and ground rules, not domains alone */
	bool		over_budget;	/* network: memory_limit or the deadline was reached, grounding stopped */
	bool		over_time;		/* network: it was the deadline */
	GtClock    *clock;			/* network: the compile's deadline (NULL: none) */
	bool	   *computed;		/* per relation: its atoms are in tuples (NULL: all are) */
	/* evaluate()'s atom counts per relation, and the relations it refreshes */
	int		   *previous;
	int		   *current;
	int		   *touched;
	int			ntouched;
	int		   *touched_stamp;	/* per relation: the stamp of the last evaluate() that touched it */
	int			stamp;
} Grounding;

/*
 * Grounds program p in the current memory context, which must hold
 * nothing else; memory_limit bounds what it holds.  network false: the
 * static relations and what can ever hold of true and does, for the
 * prover (only the static relations that those need: computed[]); an
 * error past memory_limit.  network true: every relation and
 * the ground rules; past memory_limit, or past the deadline of clock (a
 * running clock, or NULL for none), it stops and sets over_budget (and
 * over_time).
 */
extern Grounding *ground_program(Program *p, Size memory_limit, bool network, GtClock *clock);

/*
 * For the network's build after grounding: whether g's deadline is past
 * (then over_budget and over_time are set, and the build is given up).
 */
extern bool ground_past_deadline(Grounding *g);

/*
 * Frees g's ground rules (and which atoms they read) once a network is
 * built of them: the rest of its build, and the evaluation, need the term
 * store alone.
 */
extern void ground_release_rules(Grounding *g);

#endif
