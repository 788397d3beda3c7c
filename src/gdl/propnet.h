/*
 * propnet.h: a ground GDL program compiled for evaluation.
 *
 * Nodes are the facts of a state (base nodes, one bit each in a state),
 * the actions of the roles (input nodes, grouped by role) and the atoms the
 * rules derive, in an order where each node comes after those it depends
 * on (nodes that depend on each other positively are evaluated together to
 * a fixpoint).  A derived node holds when one of its rules does, a rule
 * when all of its literals do.  Evaluation is split into phases, so that
 * legal() does not compute next facts and next() does not recompute what
 * depends on the state alone.
 */
#ifndef GAMETREE_GDL_PROPNET_H
#define GAMETREE_GDL_PROPNET_H

#include "gdl/ground.h"

typedef enum NetPhase
{
	PHASE_TERMINAL,				/* terminal */
	PHASE_LEGAL,				/* legal, after terminal */
	PHASE_GOAL,					/* goal, after terminal */
	PHASE_STATE,				/* what next needs of the state alone, after legal */
	PHASE_MOVE,					/* what next needs of the actions */
	NUM_PHASES
} NetPhase;

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
	int32	   *rule_end;		/* per node: the end of the rules it evaluates (the rest are triggered) */
	int32	   *literal_start;	/* per rule + 1 */
	int32	   *literals;		/* node << 1 | negated */
	/*
	 * Rules of the move phase that need one action and nothing else that the
	 * move changes, filed under that action: a move evaluates its own
	 * actions' rules only.
	 */
	int32	   *trigger_start;	/* ninputs + 1, into trigger_rule and trigger_head */
	int32	   *trigger_rule;
	int32	   *trigger_head;
	int32	   *input_legal;	/* per input: its legal node, or -1 (never legal) */
	int32	   *base_next;		/* per base node: its next node, or -1 (never next) */
	int32		terminal;		/* node, or -1 (never terminal) */
	NetGoal    *goals;
	int			ngoals;
	/* steps of each phase: a node, or -(g + 1) for cycle group g */
	int32	   *steps[NUM_PHASES];
	int			nsteps[NUM_PHASES];
	/*
	 * The same laid out for one pass over memory (propnet_lay_out): per step
	 * node, length of the rest, then per rule its literal count and literals;
	 * a group is -(g + 1) alone.
	 */
	int32	   *code[NUM_PHASES];
	int			ncode[NUM_PHASES];
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
 * game's name.
 */
extern Propnet *propnet_build(Grounding *g, const TermId *roles, int nroles);

/*
 * The base, input and output nodes of propnet_build without rules, for the
 * prover: a legal node per input, a next node per base node, terminal and
 * a goal node for every role and value 0..100.
 */
extern Propnet *propnet_outputs(Grounding *g, const TermId *roles, int nroles);

/* Lays the phases out as code; again whenever literals are reordered. */
extern void propnet_lay_out(Propnet *net);

/*
 * Evaluates the steps of one phase into values[] (0 or 1 per node).  False
 * when the prover gave up past a running clock's deadline (core/clock.h):
 * values[] is then meaningless.  The network always finishes: it is fast.
 */
extern bool propnet_run(const Propnet *net, NetPhase phase, uint8 *values);

/* The move phase, with the active input nodes of the joint move; false as propnet_run. */
extern bool propnet_run_move(const Propnet *net, uint8 *values, const int32 *inputs, int ninputs);

#endif
