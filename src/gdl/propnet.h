/*
 * propnet.h: a ground GDL program compiled into a network.
 *
 * Nodes are the facts of a state (base nodes, one bit each in a state),
 * the actions of the roles (input nodes, grouped by role) and the atoms the
 * rules derive, listed in an order where each node comes after those it
 * depends on (nodes that depend on each other positively form a cycle
 * group, which holds its least fixpoint).  A derived node holds when one
 * of its rules does, a rule when all of its literals do.  forward.c
 * evaluates it; a game whose network would not fit has its output nodes
 * alone, which the prover computes.
 */
#ifndef GAMETREE_GDL_PROPNET_H
#define GAMETREE_GDL_PROPNET_H

#include "gdl/ground.h"

typedef struct NetGoal
{
	int			role;
	int			value;
	int32		node;
} NetGoal;

typedef struct Propnet
{
	int			nnodes;
	int			nbase;			/* nodes [0, nbase) */
	int			ninputs;		/* nodes [nbase, nbase + ninputs) */
	int			nroles;
	int32	   *role_inputs;	/* nroles + 1: role r's inputs are [role_inputs[r], role_inputs[r+1]) */
	int32	   *rule_start;		/* nnodes + 1: the rules of each node */
	int32	   *literal_start;	/* per rule + 1 */
	int32	   *literals;		/* node << 1 | negated */
	int32	   *input_legal;	/* per input: its legal node, or -1 (never legal) */
	int32	   *base_next;		/* per base node: its next node, or -1 (never next) */
	int32		terminal;		/* node, or -1 (never terminal) */
	NetGoal    *goals;
	int			ngoals;
	/* every derived node in dependency order: a node, or -(g + 1) for cycle group g */
	int32	   *order;
	int			norder;
	int32	   *group_start;	/* per group + 1, into group_nodes */
	int32	   *group_nodes;
	int			ngroups;
	int			nrules;
	/* what the nodes stand for (in the grounding's term store) */
	TermId	   *base_terms;		/* the fact X of (true X) */
	TermId	   *input_terms;	/* the action A of (does R A) */
	bool	   *initial;		/* per base node: in the initial state */
	/* NULL, or the prover that computes the phases instead of rules */
	struct Prover *prover;
} Propnet;

/*
 * Compiles a grounding; roles[] are the role terms in GGP order.  Errors
 * (goals outside 0..100, actions of unknown roles) are reported with the
 * game's name.  The grounding's literals are made node literals: it is
 * read for its atoms after, not its rules.  NULL past the grounding's
 * deadline (ground_past_deadline), looked at between the build's steps.
 */
extern Propnet *propnet_build(Grounding *g, const TermId *roles, int nroles);

/*
 * Merges the rules of a head that differ in their action alone into one
 * that reads a new node, which holds when one of those actions is done
 * (factor.c); a step of propnet_build.
 */
extern void propnet_factor_actions(Propnet *net);

/*
 * Rules that pair every body of a set with every (head, literal) of
 * another become a rule per body for a new node and a rule per pair that
 * reads it, and rules of one head that differ in one literal one rule that
 * reads a node for their literals (products.c); a step of propnet_build,
 * skipped when it would take more than memory bytes.  False: nothing was
 * factored.
 */
extern bool propnet_factor_products(Propnet *net, Size memory);

/*
 * Rules that read a pair of facts that many rules read read a node of the
 * two instead (products.c); a step of propnet_build, skipped when it would
 * take more than memory bytes.
 */
extern void propnet_factor_fact_pairs(Propnet *net, Size memory);

/*
 * Makes the readers of each node that copies another derived node (one
 * rule of one literal) read that one instead (copies.c); a step of
 * propnet_build, before pruning drops the copies left unread.
 */
extern void propnet_fold_copies(Propnet *net);

/* The outputs whose cone propnet_cone marks. */
#define CONE_TERMINAL 1
#define CONE_LEGAL 2
#define CONE_NEXT 4
#define CONE_GOALS 8

/*
 * Per node (palloc'd): whether one of the outputs named (CONE_ flags)
 * depends on it (cone.c).
 */
extern bool *propnet_cone(const Propnet *net, int outputs);

/*
 * Marks, in dependency order, every derived node that reads a marked node
 * (a cycle group as a whole), and unmarks the others.
 */
extern void propnet_mark_readers(const Propnet *net, bool *marked);
/*
 * Per node (palloc'd): the rules a derived node's cone counts, its own and
 * its literals' costs, counted down the rules as though nothing were
 * shared; nothing for a node not counted[], nor a cycle group's.
 */
extern double *propnet_cone_costs(const Propnet *net, const bool *counted);
/*
 * Per node (palloc'd): whether the move can change it: the inputs, and the
 * nodes with a literal of one (a cycle group as a whole), in cone.c.
 */
extern bool *propnet_move_dependent(const Propnet *net);

/*
 * Per base node (palloc'd): whether a clock turns it, its next node reading
 * no action (control, a step counter): it flips with every move, whatever
 * the move (moves[]: propnet_move_dependent's), in cone.c.
 */
extern bool *propnet_clock_facts(const Propnet *net, const bool *moves);

/*
 * Drops the derived nodes and rules that no output depends on, numbering
 * the rest again in their order (cone.c); propnet_build's last step.
 */
extern void propnet_prune(Propnet *net);

/*
 * Gives the legal, next, terminal and goal nodes their numbers number[]
 * (a node numbered again keeps its meaning), in cone.c.
 */
extern void propnet_renumber_outputs(Propnet *net, const int32 *number);

/*
 * The base, input and output nodes of propnet_build without rules, for the
 * prover: a legal node per input, a next node per base node, terminal and
 * a goal node for every role and value 0..100.
 */
extern Propnet *propnet_outputs(Grounding *g, const TermId *roles, int nroles);

#endif
