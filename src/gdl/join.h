/*
 * join.h: sets of ground atoms and the join of a rule's body over them,
 * shared by grounding (ground.c) and the prover (prover.c).
 *
 * Atoms are looked up by argument paths: argument i is path i *
 * PATH_STRIDE, argument j of a function term there path i * PATH_STRIDE +
 * 1 + j (j < PATH_STRIDE - 1), so (true (cell ?x 3 ?p)) finds atoms by the
 * 3 inside.  A body is joined literal by literal: tests (negations,
 * distinct) as soon as their variables are bound, then the positive
 * literal that the bindings so far leave the fewest atoms for.
 */
#ifndef GAMETREE_GDL_JOIN_H
#define GAMETREE_GDL_JOIN_H

#include "gdl/program.h"

#define PATH_STRIDE 8
/* Most literals in a rule's body. */
#define MAX_BODY 256

typedef struct TupleSlot
{
	TermId		atom;			/* -1: empty */
	int32		index;
} TupleSlot;

/*
 * Membership of a set whose atoms' arguments are all symbols, as one bit
 * per combination of the symbols each argument takes (tuples_make_dense):
 * a lookup reads a few small arrays, where the atom's term would be looked
 * up in the store and then in the set, a cache miss each in a large game.
 */
#define DENSE_MAX_ARITY 6

typedef struct DenseSet
{
	int			arity;
	int			nsymbols;		/* of the store when made: symbols after take no place */
	int16	   *place;			/* per argument, per symbol: its place among the argument's values, or -1 */
	int32		stride[DENSE_MAX_ARITY];
	uint64	   *bits;
} DenseSet;

/*
 * Chains of atoms by key, in a hash table: each key's last atom and how
 * many have it; the atom before each, per atom, is the caller's.
 */
typedef struct ChainTable
{
	int64	   *keys;			/* -1: empty */
	int32	   *last;
	int32	   *count;
	int			size;			/* a power of two */
	int			used;
} ChainTable;

/*
 * An index of a set's atoms by the values at several paths together (mask:
 * a bit per path, paths below 64), made when joins look them up bound
 * together, one path alone leaving many atoms, often enough to pay for it
 * (join.c): chess.kif's
 * (bishop_threatens ?o ?u ?v ?x ?y ?ix ?iy), its last four bound, has
 * 71,680 atoms, 8,960 of them for one ?x, about 4 for the four; (does
 * ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) the same inside a term.  A key
 * is a hash of the values: atoms of another key that hash alike share its
 * chain and fail to unify; an atom without a value at one of the paths is
 * in no chain.
 */
#define ARGS_INDEX_PATHS 64

typedef struct ArgsIndex
{
	uint64		mask;
	ChainTable	chains;
	int32	   *previous;		/* per atom: the atom before with the same key */
	int			indexed;		/* atoms [0, indexed) are in it */
} ArgsIndex;

/* The most indexes by several arguments a set keeps: one per way its literals are asked. */
#define MAX_ARGS_INDEXES 8

/* A set of atoms of one relation, in order of insertion. */
typedef struct Tuples
{
	TermId	   *atoms;
	int			n;
	int			room;
	/* set: atom id -> index in atoms, side by side: a lookup is one cache miss */
	TupleSlot  *set;
	int			set_size;		/* a power of two */
	/* index: chains by (path, term) */
	ChainTable	index;
	int			npaths;
	int32	  **previous;		/* per path, per atom: the atom before with the same term there */
	/*
	 * atoms [0, indexed) are in the index: the rest are added when a join
	 * first looks a term up in it, so that atoms only ever found whole (a
	 * state's next facts, a query's answers read off one by one) cost no
	 * index
	 */
	int			indexed;
	/* NULL, or the set's membership by symbols (a set made dense takes no more atoms) */
	DenseSet   *dense;
	ArgsIndex  *args_indexes;	/* MAX_ARGS_INDEXES of them, when one is made */
	int			nargs_indexes;
	int64		args_unindexed;	/* atoms read under a path where an index by paths was not made yet */
} Tuples;

/* Index of atom in t, or -1. */
extern int	tuples_find(const Tuples *t, TermId atom);
/*
 * How many bytes adding one more atom to t allocates as its arrays double
 * (a path that no atom had yet takes an array of t->room more).
 */
extern Size tuples_growth(const Tuples *t);
/*
 * Makes t hold atom alone, for tuples_find and t->n only (no index by
 * argument): the answer of a ground query.  Allocates once.
 */
extern void tuples_hold_one(Tuples *t, TermId atom);
/* Adds atom (of a relation of that arity) to t; false when it was there. */
extern bool tuples_insert(const TermStore *ts, Tuples *t, int arity, TermId atom);
/*
 * The atoms of t (of that arity) whose arguments are args where those are
 * bound (NO_TERM: any), into out: how many, or -1 when more than max.
 */
extern int	tuples_select(const TermStore *ts, Tuples *t, const TermId *args, int arity, int max,
						  TermId *out);
/*
 * Gives t (atoms of that arity, complete: none is added after) a dense
 * membership when every argument of every atom is a symbol and the bits
 * for the combinations of their values fit in room bytes (128 kB at most),
 * in t's memory; the bytes it took, 0 when not made.  An exact match found
 * through it leaves the literal's matched atom NO_TERM: for static
 * relations, whose matched atoms no join reads.
 */
extern Size tuples_make_dense(const TermStore *ts, Tuples *t, int arity, Size room);

typedef struct Join Join;

typedef struct JoinOps
{
	/*
	 * Where positive literal i finds its atoms.  When choosing is true, NULL
	 * defers the literal: it is joined when no other positive literal is
	 * left, or sooner when the others have many candidates and it is bound
	 * enough (join.c, JOIN_ASK_ABOVE), and asked again with choosing false
	 * (the prover computes a derived relation's atoms only for the bindings
	 * it then has, and offers at once those it has at hand: a recursive
	 * query's answers so far).
	 */
	const Tuples *(*source) (Join *j, int i, bool choosing);
	/* Negation i, its variables bound: does it hold? */
	bool		(*negation_holds) (Join *j, int i);
	/* A solution of the whole body: the bindings are in j->binding. */
	void		(*emit) (Join *j);

	/*
	 * Optional: is the head, all of whose variables are bound, known to hold
	 * already?  Then the rest of the body need not be joined: only the
	 * head's atoms are wanted, not every way to derive them.
	 */
	bool		(*head_known) (Join *j, TermId head);

	/*
	 * Optional: is positive literal i left out of the join?  Then emit
	 * finds it unmatched, its variables bound or not by the others (the
	 * prover compiling a query records such literals to evaluate later).
	 */
	bool		(*residual) (Join *j, int i);

	/*
	 * Optional: may the join make an index by several paths of this many
	 * bytes?  Such an index only speeds the join up: refused, the join
	 * reads a path's atoms instead.
	 */
	bool		(*may_index) (Join *j, Size bytes);
} JoinOps;

struct Join
{
	const JoinOps *ops;
	void	   *context;		/* the caller's */
	TermStore  *terms;
	const Rule *rule;
	const int  *lo;				/* per body literal: atoms [lo, hi) of its source; NULL: all */
	const int  *hi;
	const bool *stop;			/* when set, the join ends early */
	/* filled by join_rule */
	TermId	   *binding;		/* per variable, NO_TERM while unbound */
	int		   *trail;
	int			ntrail;
	TermId	   *matched;		/* per body literal: its ground atom (negations: NO_TERM if absent) */
	bool	   *done;
	bool		head_bound;		/* the head's variables are bound (and it was not known) */
	TermId		head_atom;		/* ... and its atom then, NO_TERM if no term was made yet */
};

/* Unifies a rule's head with a ground atom, binding its variables. */
extern bool join_unify(Join *j, TermId pattern, TermId ground);
/* Calls ops->emit for every solution of the rule's body under j's bindings. */
extern void join_body(Join *j);
/* Sets up j's arrays for j->rule with no variable bound. */
extern void join_begin(Join *j);
extern void join_end(Join *j);

/*
 * The ground term pattern stands for.  insert false: NO_TERM when a
 * variable is unbound or the term is not in the store.
 */
extern TermId join_substitute(Join *j, TermId pattern, bool insert);

#endif
