/*
 * forward.c: forward propagation over a network (forward.h).
 *
 * Invariants between calls, for every live node (one that terminal, legal
 * or next depends on) and the current base and input values:
 *   unmet[r]    = the literals of live rule r that fail (r holds at 0),
 *   support[v]  = the rules of v that hold, and values[v] = support[v] > 0,
 *                 for a live node outside a cycle group,
 *   a live group's values are the least fixpoint of its rules,
 *   legal sets and next words mirror the legal and next nodes' values.
 * A rule with a literal that flips often is triggered by it: a literal
 * that the move changes (an action, does R A, or a node that depends on
 * one), else one of a fact that many rules read (a control fact), not
 * negated in either case.  unmet leaves that literal out, and the rules
 * whose other literals hold are kept in the trigger's armed set, so that a
 * flip of the trigger touches those rules alone, not every rule it is in
 * (thousands in pacman3p.kif).  Such a rule holds when it is armed and its
 * trigger is applied (its last flip carried forward), and support counts
 * it so.
 * A flip is pushed with the value it flipped to, so that a node flipping
 * twice before its turn adds its two changes, not the last one twice.  An
 * error in the middle (out of memory growing the stack) leaves the
 * invariants broken: the next call starts again from no facts.
 */
#include "postgres.h"

#include "gdl/forward.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

/*
 * A fan entry: rule << FAN_SHIFT, whether the literal is negated, whether
 * the rule's head is in a cycle group, whether the rule is triggered.
 */
#define FAN_NEGATED 1
#define FAN_GROUP 2
#define FAN_TRIGGERED 4
#define FAN_SHIFT 3

/*
 * A node that this many rules read is worth triggering them: a control
 * fact is in every legal rule of its role and flips every turn.  A fact
 * comes first: how many read a derived node says less of how often it
 * flips (pacman3p.kif's random playouts were 11% slower when copies.c's
 * merged nodes gathered readers past its facts' and took their rules;
 * englishDraughts.kif's 30% slower with facts alone).
 */
#define TRIGGER_READERS 32

/* An output entry: input << 1 for a legal node, base << 1 | 1 for a next node; -1 for neither. */
#define OUTPUT_NEXT 1

struct Forward
{
	const Propnet *net;
	uint8	   *values;			/* per node */
	int16	   *unmet;			/* per rule: its literals that fail (live rules); 16 bits,
								 * half the cache lines of pacman3p.kif's 48,833 rules: its perft
								 * 1.12 times faster */
	int32	   *support;		/* per node: its rules that hold (live nodes outside groups) */
	int32	   *rule_head;		/* per rule */
	int32	   *fan_start;		/* per node + 1, into fan */
	int32	   *fan;			/* the live rules that read each node, FAN_ flags */
	int32	   *output;			/* per node: what it stands for (OUTPUT_NEXT) */
	int32	   *trigger;		/* per rule: the trigger that triggers it, or -1 */
	int32	   *trigger_of;		/* per node: its trigger, or -1: it triggers no rule */
	int32	   *trigger_node;	/* per trigger */
	int			ntriggers;
	/*
	 * Each trigger's rules have places [armed_start, armed_start + n) in
	 * triggered_head[], word-aligned, and a bit each in armed[]: a set cheap
	 * to change and to read for the few hundred rules of a trigger.
	 */
	int32	   *armed_start;	/* per trigger + 1 */
	int32	   *triggered_head;	/* per place: the head of its rule */
	int32	   *place;			/* per triggered rule: its place */
	uint64	   *armed;
	bool	   *applied;		/* per trigger: its armed rules count as holding */
	int32	   *group_of;		/* per node: its cycle group, or -1 */
	int32	   *group_rank;		/* per group: its place in the dependency order */
	bool	   *group_dirty;
	int32	   *dirty;			/* the dirty groups */
	int			ndirty;
	int32	   *goal_steps;		/* steps of the nodes only the goals need, in order */
	int			ngoal_steps;
	int32	   *stack;			/* flips to carry forward: node << 1 | new value */
	int			top;
	int			stack_size;
	uint64	   *state;			/* the base nodes' values as words */
	uint64	   *next;			/* the next nodes' values as words */
	int			nwords;
	uint64	   *legal;			/* per input, a bit: its legal node holds */
	int			nlegal_words;
	int32	   *move;			/* the input nodes that are on */
	int			nmove;
	bool		keep_move;		/* nothing but next reads the inputs: they stay on between moves */
	uint64	   *move_next;		/* the next state, where the inputs go off again */
	bool		consistent;		/* the invariants hold */

	/*
	 * Dormant nodes (forward.h): need[v] counts the live rules that need
	 * derived node v (their heads awake, their facts holding), plus
	 * PERMANENT_NEED for an output, a cycle group's node or what the goals
	 * read.  A node of no need keeps exact counters but carries no flip
	 * forward, and its value is stale (fresh 0) until it is needed again.
	 */
	int32	   *need;
	uint8	   *fresh;			/* per node: its value agrees with its counters */
	bool	   *contributing;	/* per node: its rules whose facts hold count in need */
	/*
	 * The guarded rules (live rules with derived literals), numbered in
	 * rule order, so that a node's are a range: dense arrays of what a
	 * guard's flip touches, not the rules' (chess.kif: add_rule_need,
	 * reading each rule's literals for its derived ones, was a third of
	 * random playouts; a record per rule holding its counter, a tenth
	 * slower still, its counters out of the cache).
	 */
	int16	   *guard_unmet;	/* per guarded rule: its fact literals that fail */
	int16	   *needed;			/* per guarded rule: its derived literals it needs now */
	int16	   *eager;			/* per guarded rule: those it needs whenever its facts hold */
	int32	   *guarded_head;	/* per guarded rule */
	int32	   *derived_start;	/* per guarded rule + 1, into derived */
	int32	   *derived;		/* each guarded rule's derived literals (node << 1 | negated), cheapest first */
	int32	   *prefix_start;	/* per node + 1, into prefix_fan */
	int32	   *prefix_fan;		/* the guarded rules that read a node as a derived literal but their last */
	int32	   *guarded_start;	/* per node + 1: its guarded rules */
	int32	   *guard_start;	/* per node + 1, into guard_fan: a guard's (below) */
	int32	   *guard_fan;		/* guarded rule << 1 | negated: those that read a guard */
	int32	   *need_changed;	/* nodes whose need crossed zero, to settle */
	int			nneed_changed;
	bool	   *need_queued;	/* per node: in need_changed */
	/*
	 * Nodes whose need fell to zero in this propagation, put to sleep at
	 * its end if nothing needs them by then: chess.kif's threats to a
	 * square released by one flip and asked again by the next of the
	 * same move were 14 of its 103 needs crossing zero a move.
	 */
	int32	   *drowsy;
	int			ndrowsy;
	bool	   *drowsy_queued;	/* per node: in drowsy */
	bool	   *permanent;		/* per node: read by an output, a cycle group or the goals */
	int32		first_derived;	/* nbase + ninputs */
	bool		dormancy;		/* nodes sleep: facts guard rules */
	bool		prefix_needs;	/* a guarded rule needs its derived literals one after another */
};

/*
 * A derived literal whose cone counts this many rules (order_derived_by_cost)
 * is needed only once the cheaper literals of its rule hold; cheaper ones
 * are needed whenever the rule's facts hold, their waking and sleeping as
 * the literals before them flip dearer than keeping them awake.  chess.kif's
 * king-safety cones cost 2^11 to 2^15, the rest of its network less;
 * chess4x4.kif's all cost less, a thousand of them 256 or more.  Random
 * playouts of 300 games of chess.kif took 2.25-2.33 s against 2.83-2.86 s
 * with no literal needed in order, and 2.22-2.37 s from 256 on, where
 * chess4x4.kif's 3,000 games took 2.45-2.49 s against 2.17-2.23 s
 * (2.64-2.75 s from 0).
 */
#define PREFIX_COST 2048

/* A node that an output, a cycle group or the goals read is always awake. */
#define PERMANENT_NEED (1 << 28)


const uint8 *
forward_values(const Forward *f)
{
	return f->values;
}

bool
forward_current(const Forward *f, int32 node)
{
	return node < f->first_derived || (f->need[node] > 0 && f->fresh[node]);
}

/* The legal bits of role's inputs in word w, the others cleared. */
static uint64
role_legal_word(const Forward *f, int role, int w)
{
	int			first = f->net->role_inputs[role],
				end = f->net->role_inputs[role + 1];
	uint64		bits = f->legal[w];

	if (w == first / 64)
		bits &= ~UINT64CONST(0) << (first % 64);
	if ((w + 1) * 64 > end)
		bits &= (UINT64CONST(1) << (end % 64)) - 1;
	return bits;
}

int
forward_legal(const Forward *f, int role, int32 *actions)
{
	int			first = f->net->role_inputs[role],
				n = 0;

	for (int w = first / 64; w * 64 < f->net->role_inputs[role + 1]; w++)
		for (uint64 bits = role_legal_word(f, role, w); bits != 0; bits &= bits - 1)
			actions[n++] = w * 64 + pg_rightmost_one_pos64(bits) - first;
	return n;
}

int
forward_legal_count(const Forward *f, int role)
{
	int			n = 0;

	for (int w = f->net->role_inputs[role] / 64; w * 64 < f->net->role_inputs[role + 1]; w++)
		n += pg_popcount64(role_legal_word(f, role, w));
	return n;
}

/* Whether all literals of rule r hold. */
static bool
rule_holds(const Forward *f, int32 r)
{
	const Propnet *net = f->net;

	for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
		if (f->values[net->literals[l] >> 1] == (net->literals[l] & 1))
			return false;
	return true;
}

static bool
node_holds(const Forward *f, int32 node)
{
	for (int r = f->net->rule_start[node]; r < f->net->rule_start[node + 1]; r++)
		if (rule_holds(f, r))
			return true;
	return false;
}

/* A cycle group's least fixpoint into values[], from false. */
static void
fixpoint(Forward *f, int group)
{
	const Propnet *net = f->net;
	bool		changed = true;

	for (int k = net->group_start[group]; k < net->group_start[group + 1]; k++)
		f->values[net->group_nodes[k]] = 0;
	while (changed)
	{
		changed = false;
		for (int k = net->group_start[group]; k < net->group_start[group + 1]; k++)
		{
			int32		node = net->group_nodes[k];

			if (!f->values[node] && node_holds(f, node))
				f->values[node] = changed = true;
		}
	}
}

static pg_noinline void
grow_stack(Forward *f)
{
	f->stack_size *= 2;
	f->stack = repalloc_huge(f->stack, f->stack_size * sizeof(int32));
}

/* Sets node to on (it was not) and schedules the change to be carried forward. */
static pg_attribute_always_inline void
flip(Forward *f, int32 node, bool on)
{
	int32		output = f->output[node];

	f->values[node] = on;
	if (output >= 0)
	{
		uint64	   *words = output & OUTPUT_NEXT ? f->next : f->legal;

		words[(output >> 1) / 64] ^= UINT64CONST(1) << ((output >> 1) % 64);
	}
	if (unlikely(f->top == f->stack_size))
		grow_stack(f);
	f->stack[f->top++] = node << 1 | on;
}

static void
mark_dirty(Forward *f, int32 group)
{
	if (!f->group_dirty[group])
	{
		f->group_dirty[group] = true;
		f->dirty[f->ndirty++] = group;
	}
}

/* A triggered rule's other literals now hold: into its trigger's armed set. */
static pg_attribute_always_inline void
arm(Forward *f, int32 rule, const bool dormancy)
{
	int32		place = f->place[rule];

	f->armed[place / 64] |= UINT64CONST(1) << (place % 64);
	if (f->applied[f->trigger[rule]] && f->support[f->rule_head[rule]]++ == 0 &&
		(!dormancy || f->fresh[f->rule_head[rule]]))
		flip(f, f->rule_head[rule], true);
}

static pg_attribute_always_inline void
disarm(Forward *f, int32 rule, const bool dormancy)
{
	int32		place = f->place[rule];

	f->armed[place / 64] &= ~(UINT64CONST(1) << (place % 64));
	if (f->applied[f->trigger[rule]] && --f->support[f->rule_head[rule]] == 0 &&
		(!dormancy || f->fresh[f->rule_head[rule]]))
		flip(f, f->rule_head[rule], false);
}

/* A trigger's flip reaches its armed rules. */
static void
apply(Forward *f, int trigger, bool on, bool dormancy)
{
	f->applied[trigger] = on;
	for (int w = f->armed_start[trigger] / 64; w < f->armed_start[trigger + 1] / 64; w++)
		for (uint64 bits = f->armed[w]; bits != 0; bits &= bits - 1)
		{
			int32		head = f->triggered_head[w * 64 + pg_rightmost_one_pos64(bits)];

			if ((on ? f->support[head]++ == 0 : --f->support[head] == 0) && (!dormancy || f->fresh[head]))
				flip(f, head, on);
		}
}

/* Recomputes a group and schedules its nodes that changed. */
static void
recompute_group(Forward *f, int group)
{
	const Propnet *net = f->net;
	int			first = net->group_start[group],
				last = net->group_start[group + 1];
	uint8	   *was = palloc(last - first);

	for (int k = first; k < last; k++)
		was[k - first] = f->values[net->group_nodes[k]];
	fixpoint(f, group);
	for (int k = first; k < last; k++)
	{
		int32		node = net->group_nodes[k];
		bool		now = f->values[node];

		if (now != was[k - first])
		{
			f->values[node] = was[k - first];
			flip(f, node, now);
		}
	}
	pfree(was);
}

static void
queue_need_change(Forward *f, int32 node)
{
	if (!f->need_queued[node])
	{
		f->need_queued[node] = true;
		f->need_changed[f->nneed_changed++] = node;
	}
}

/*
 * Adds delta to node's need; a node woken is refreshed and its crossing
 * queued, a node no longer needed is drowsy.
 */
static void
add_need(Forward *f, int32 node, int delta)
{
	bool		was = f->need[node] > 0;

	f->need[node] += delta;
	if (was == (f->need[node] > 0))
		return;
	if (was)
	{
		if (!f->drowsy_queued[node])
		{
			f->drowsy_queued[node] = true;
			f->drowsy[f->ndrowsy++] = node;
		}
		return;
	}
	/* needed again before it fell asleep: it is as it was */
	if (f->fresh[node])
		return;
	/* refreshed once the flips pushed after it, its inputs' refreshes among them, are carried */
	if (unlikely(f->top == f->stack_size))
		grow_stack(f);
	f->stack[f->top++] = -(node + 1);
	queue_need_change(f, node);
}

/* Whether guarded rule g has a costly derived literal, needed in order. */
static inline bool
needs_in_order(const Forward *f, int32 g)
{
	return f->eager[g] < f->derived_start[g + 1] - f->derived_start[g];
}

/*
 * How many derived literals guarded rule g needs, its facts holding and
 * its head needed, cheapest first: the cheap ones (eager), and the costly
 * ones up to the first literal that fails (the last if none does).
 * chess.kif's capture rules read whether the king would be safe after
 * each capture a piece could make on an empty board: needing it of the
 * captures only, not of every square the piece sees, spares waking and
 * putting to sleep a king-safety cone for each such square as the piece
 * moves.  A value read here may be stale (its node asleep); the refresh
 * that a newly needed node gets flips it, and the flip asks again
 * (prefix_flip).
 */
static int
needed_prefix(const Forward *f, int32 g)
{
	int32		first = f->derived_start[g],
				last = f->derived_start[g + 1] - 1,
				d = first;

	if (!f->prefix_needs || !needs_in_order(f, g))
		return last + 1 - first;
	while (d < last && f->values[f->derived[d] >> 1] != (f->derived[d] & 1))
		d++;
	return Max(d + 1 - first, f->eager[g]);
}

/* Guarded rule g needs its first n derived literals from now on. */
static void
set_needed(Forward *f, int32 g, int n)
{
	const int32 *derived = f->derived + f->derived_start[g];
	int			was = f->needed[g];

	f->needed[g] = n;
	for (int i = was; i < n; i++)
		add_need(f, derived[i] >> 1, 1);
	for (int i = n; i < was; i++)
		add_need(f, derived[i] >> 1, -1);
}

/* Carries the queued crossings of need to the rules of the nodes that crossed. */
static void
settle_need(Forward *f)
{
	while (f->nneed_changed > 0)
	{
		int32		node = f->need_changed[--f->nneed_changed];
		bool		awake = f->need[node] > 0;

		f->need_queued[node] = false;
		if (awake == f->contributing[node])
			continue;
		f->contributing[node] = awake;
		for (int32 g = f->guarded_start[node]; g < f->guarded_start[node + 1]; g++)
			if (f->guard_unmet[g] == 0)
				set_needed(f, g, awake ? needed_prefix(f, g) : 0);
	}
}

/*
 * The drowsy nodes still not needed fall asleep, and release what they
 * needed, which may fall asleep in turn: no flip is made.
 */
static void
fall_asleep(Forward *f)
{
	while (f->ndrowsy > 0)
	{
		int32		node = f->drowsy[--f->ndrowsy];

		f->drowsy_queued[node] = false;
		if (f->need[node] > 0)
			continue;
		f->fresh[node] = false;
		queue_need_change(f, node);
		settle_need(f);
	}
}

/* A fact's flip reaches the guards of the rules with derived literals that read it. */
static void
guard_flip(Forward *f, int32 node, bool on)
{
	for (int32 e = f->guard_start[node]; e < f->guard_start[node + 1]; e++)
	{
		int32		g = f->guard_fan[e] >> 1;

		if (on != (f->guard_fan[e] & 1))
		{
			if (--f->guard_unmet[g] == 0 && f->contributing[f->guarded_head[g]])
				set_needed(f, g, needed_prefix(f, g));
		}
		else if (f->guard_unmet[g]++ == 0 && f->contributing[f->guarded_head[g]])
			set_needed(f, g, 0);
	}
	settle_need(f);
}

/* A derived node's flip moves the end of what the guarded rules that read it need. */
static void
prefix_flip(Forward *f, int32 node)
{
	for (int32 e = f->prefix_start[node]; e < f->prefix_start[node + 1]; e++)
	{
		int32		g = f->prefix_fan[e];

		if (f->needed[g] > 0)
			set_needed(f, g, needed_prefix(f, g));
	}
	settle_need(f);
}

/* A woken node's value made to agree with its counters, its change carried forward. */
static void
refresh(Forward *f, int32 node)
{
	bool		now = f->support[node] > 0;

	if (f->need[node] == 0 || f->fresh[node])
		return;
	f->fresh[node] = true;
	if (now != f->values[node])
		flip(f, node, now);
}

/*
 * Carries the scheduled flips forward, then recomputes the dirty groups,
 * lowest first: a group's recomputation dirties only groups after it.
 */
static pg_attribute_always_inline void
carry(Forward *f, const bool dormancy)
{
	/* the arrays stay put: locals spare reloading them after every store (no strict aliasing) */
	const int32 *fan = f->fan;
	const int32 *fan_start = f->fan_start;
	const int32 *rule_head = f->rule_head;
	const int32 *trigger_of = f->trigger_of;
	int16	   *unmet = f->unmet;
	int32	   *support = f->support;

	for (;;)
	{
		int			lowest = 0;
		int32		group;

		while (f->top > 0)
		{
			int32		change = f->stack[--f->top];
			int32		node = change >> 1;
			bool		on = change & 1;
			const int32 *entry;
			const int32 *end;

			if (dormancy && change < 0)
			{
				refresh(f, -change - 1);
				continue;
			}
			if (dormancy && f->guard_start[node + 1] != f->guard_start[node])
				guard_flip(f, node, on);
			if (dormancy && f->prefix_start[node + 1] != f->prefix_start[node])
				prefix_flip(f, node);
			entry = fan + fan_start[node];
			end = fan + fan_start[node + 1];
			for (; entry < end; entry++)
			{
				int32		rule = *entry >> FAN_SHIFT;

				if (unlikely(*entry & FAN_GROUP))
				{
					mark_dirty(f, f->group_of[rule_head[rule]]);
					continue;
				}
				/* the literal now holds when the node's value differs from its negation bit */
				if (on != (*entry & FAN_NEGATED))
				{
					if (--unmet[rule] != 0)
						continue;
					if (unlikely(*entry & FAN_TRIGGERED))
						arm(f, rule, dormancy);
					else if (support[rule_head[rule]]++ == 0 && (!dormancy || f->fresh[rule_head[rule]]))
						flip(f, rule_head[rule], true);
				}
				else if (unmet[rule]++ == 0)
				{
					if (unlikely(*entry & FAN_TRIGGERED))
						disarm(f, rule, dormancy);
					else if (--support[rule_head[rule]] == 0 && (!dormancy || f->fresh[rule_head[rule]]))
						flip(f, rule_head[rule], false);
				}
			}
			/*
			 * armed rules count while their trigger is applied: it catches
			 * up with the node's value, which a second flip may already
			 * have turned back (applying each flip in turn would count an
			 * armed set that changed in between twice)
			 */
			if (trigger_of[node] >= 0 && f->applied[trigger_of[node]] != f->values[node])
				apply(f, trigger_of[node], f->values[node], dormancy);
		}
		if (f->ndirty == 0)
			return;
		for (int i = 1; i < f->ndirty; i++)
			if (f->group_rank[f->dirty[i]] < f->group_rank[f->dirty[lowest]])
				lowest = i;
		group = f->dirty[lowest];
		f->dirty[lowest] = f->dirty[--f->ndirty];
		f->group_dirty[group] = false;
		recompute_group(f, group);
	}
}

/*
 * carry(), compiled twice, each in a function of its own: without
 * dormancy none of its tests is made (the two in one function made
 * gt_prisoner.kif's random playouts 10% slower without it)
 */
static pg_noinline void
carry_all_awake(Forward *f)
{
	carry(f, false);
}

static pg_noinline void
carry_with_dormancy(Forward *f)
{
	carry(f, true);
}

static void
propagate(Forward *f)
{
	if (f->dormancy)
	{
		carry_with_dormancy(f);
		fall_asleep(f);
	}
	else
		carry_all_awake(f);
}

/*
 * The guards and needs of the current values, every one of them exact:
 * readers before what they read, so that a node's need is whole before
 * its rules count.
 */
static void
reset_need(Forward *f)
{
	const Propnet *net = f->net;

	memset(f->guard_unmet, 0, Max(1, f->guarded_start[net->nnodes]) * sizeof(int16));
	memset(f->needed, 0, Max(1, f->guarded_start[net->nnodes]) * sizeof(int16));
	for (int32 b = 0; b < net->nnodes; b++)
		for (int32 e = f->guard_start[b]; e < f->guard_start[b + 1]; e++)
			f->guard_unmet[f->guard_fan[e] >> 1] += f->values[b] == (f->guard_fan[e] & 1);
	for (int32 v = 0; v < net->nnodes; v++)
	{
		f->need[v] = f->permanent[v] ? PERMANENT_NEED : 0;
		f->contributing[v] = false;
		f->need_queued[v] = false;
		f->drowsy_queued[v] = false;
	}
	f->nneed_changed = 0;
	f->ndrowsy = 0;
	for (int s = net->norder - 1; s >= 0; s--)
	{
		int32		step = net->order[s];
		int			first = step >= 0 ? 0 : net->group_start[-step - 1];
		int			last = step >= 0 ? 1 : net->group_start[-step];

		for (int k = first; k < last; k++)
		{
			int32		node = step >= 0 ? step : net->group_nodes[k];

			if (f->need[node] == 0)
				continue;
			f->contributing[node] = true;
			for (int32 g = f->guarded_start[node]; g < f->guarded_start[node + 1]; g++)
			{
				f->needed[g] = f->guard_unmet[g] == 0 ? needed_prefix(f, g) : 0;
				for (int i = 0; i < f->needed[g]; i++)
					f->need[f->derived[f->derived_start[g] + i] >> 1]++;
			}
		}
	}
	for (int32 v = 0; v < net->nnodes; v++)
		f->fresh[v] = v < f->first_derived || f->need[v] > 0;
}

/*
 * Every value, counter and output from scratch for the state of no facts
 * and no inputs, in the dependency order.
 */
static void
reset(Forward *f)
{
	const Propnet *net = f->net;

	memset(f->values, 0, net->nnodes);
	memset(f->armed, 0, Max(1, f->armed_start[f->ntriggers] / 64) * sizeof(uint64));
	memset(f->state, 0, f->nwords * sizeof(uint64));
	memset(f->next, 0, f->nwords * sizeof(uint64));
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];

		if (step < 0)
		{
			fixpoint(f, -step - 1);
			continue;
		}
		f->support[step] = 0;
		for (int r = net->rule_start[step]; r < net->rule_start[step + 1]; r++)
		{
			f->unmet[r] = 0;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				f->unmet[r] += f->values[net->literals[l] >> 1] == (net->literals[l] & 1);
			if (f->trigger[r] >= 0)
			{
				/* the trigger, computed before the rule's head, is applied as it stands */
				int32		trigger = f->trigger[r];

				f->applied[trigger] = f->values[f->trigger_node[trigger]];
				f->unmet[r] -= !f->applied[trigger];
				if (f->unmet[r] == 0)
				{
					f->armed[f->place[r] / 64] |= UINT64CONST(1) << (f->place[r] % 64);
					f->support[step] += f->applied[trigger];
				}
				continue;
			}
			f->support[step] += f->unmet[r] == 0;
		}
		f->values[step] = f->support[step] > 0;
	}
	/* unmet of the groups' rules is not kept: a change of theirs recomputes the group */
	memset(f->legal, 0, f->nlegal_words * sizeof(uint64));
	for (int i = 0; i < net->ninputs; i++)
		if (net->input_legal[i] >= 0 && f->values[net->input_legal[i]])
			f->legal[i / 64] |= UINT64CONST(1) << (i % 64);
	for (int b = 0; b < net->nbase; b++)
		if (net->base_next[b] >= 0 && f->values[net->base_next[b]])
			f->next[b / 64] |= UINT64CONST(1) << (b % 64);
	f->top = f->ndirty = f->nmove = 0;
	memset(f->group_dirty, 0, Max(1, net->ngroups) * sizeof(bool));
	reset_need(f);
	f->consistent = true;
}

bool
forward_set_state(Forward *f, const uint64 *words)
{
	bool		changed = !f->consistent;

	if (!f->consistent)
		reset(f);
	f->consistent = false;
	for (int w = 0; w < f->nwords; w++)
	{
		for (uint64 bits = f->state[w] ^ words[w]; bits != 0; bits &= bits - 1)
		{
			int			bit = pg_rightmost_one_pos64(bits);

			flip(f, w * 64 + bit, (words[w] >> bit) & 1);
			changed = true;
		}
		f->state[w] = words[w];
	}
	propagate(f);
	f->consistent = true;
	return changed;
}

/* Whether node is among the n inputs. */
static bool
among(const int32 *inputs, int n, int32 node)
{
	for (int i = 0; i < n; i++)
		if (inputs[i] == node)
			return true;
	return false;
}

const uint64 *
forward_next(Forward *f, const int32 *inputs, int ninputs)
{
	Assert(f->consistent && ninputs <= f->net->nroles);
	f->consistent = false;

	/*
	 * The last move's inputs go off, pushed first so that they are carried
	 * forward last: a node that both moves turn on (an action set of
	 * factor.c) sees its support rise, then fall, and never flips.
	 */
	for (int i = 0; i < f->nmove; i++)
		if (!among(inputs, ninputs, f->move[i]))
			flip(f, f->move[i], false);
	for (int i = 0; i < ninputs; i++)
		if (!f->values[inputs[i]])
			flip(f, inputs[i], true);
	memcpy(f->move, inputs, ninputs * sizeof(int32));
	f->nmove = ninputs;
	propagate(f);
	if (f->keep_move)
	{
		f->consistent = true;
		return f->next;
	}
	memcpy(f->move_next, f->next, f->nwords * sizeof(uint64));
	for (int i = 0; i < f->nmove; i++)
		flip(f, f->move[i], false);
	f->nmove = 0;
	propagate(f);
	f->consistent = true;
	return f->move_next;
}

void
forward_goals(Forward *f)
{
	for (int s = 0; s < f->ngoal_steps; s++)
	{
		int32		step = f->goal_steps[s];

		if (step < 0)
			fixpoint(f, -step - 1);
		else
			f->values[step] = node_holds(f, step);
	}
}

static int32
step_node(const Propnet *net, int32 step)
{
	return step >= 0 ? step : net->group_nodes[net->group_start[-step - 1]];
}

/*
 * Whether node, read by many, triggers a rule better than other: a fact
 * before a derived node (TRIGGER_READERS), then the one more rules read.
 */
static bool
better_trigger(const Propnet *net, const int32 *readers, int32 node, int32 other)
{
	if ((node < net->nbase) != (other < net->nbase))
		return node < net->nbase;
	return readers[node] > readers[other];
}

/*
 * The trigger of each live rule outside cycle groups: its first literal
 * that the move changes and that is not negated, when its node is outside
 * cycle groups too; *trigger_literal gets where it is in the rule's
 * literals (-1: none).  Lays out the triggers' armed sets.
 */
static int32 *
find_triggers(Forward *f, const bool *live, const bool *moves)
{
	const Propnet *net = f->net;
	int32	   *trigger_literal = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *count;
	int32	   *readers;
	int32	   *fill;

	f->trigger = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->trigger_of = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(f->trigger_of, 0xff, Max(1, net->nnodes) * sizeof(int32));
	f->trigger_node = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	count = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	readers = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int r = 0; r < net->nrules; r++)
		if (live[f->rule_head[r]] && f->group_of[f->rule_head[r]] < 0)
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				readers[net->literals[l] >> 1] += (net->literals[l] & 1) == 0;
	for (int r = 0; r < net->nrules; r++)
	{
		int32		head = f->rule_head[r];
		int32		best = -1;

		f->trigger[r] = trigger_literal[r] = -1;
		if (!live[head] || f->group_of[head] >= 0)
			continue;
		for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
		{
			int32		node = net->literals[l] >> 1;

			if ((net->literals[l] & 1) || f->group_of[node] >= 0)
				continue;
			if (moves[node])
			{
				best = l;
				break;
			}
			if (readers[node] >= TRIGGER_READERS &&
				(best < 0 || better_trigger(net, readers, node, net->literals[best] >> 1)))
				best = l;
		}
		if (best >= 0)
		{
			int32		node = net->literals[best] >> 1;

			if (f->trigger_of[node] < 0)
			{
				f->trigger_of[node] = f->ntriggers;
				f->trigger_node[f->ntriggers++] = node;
			}
			f->trigger[r] = f->trigger_of[node];
			trigger_literal[r] = best;
			count[f->trigger[r]]++;
		}
	}
	pfree(readers);
	/* counts to word-aligned starts */
	f->armed_start = palloc0((f->ntriggers + 1) * sizeof(int32));
	for (int t = 0; t < f->ntriggers; t++)
		f->armed_start[t + 1] = f->armed_start[t] + TYPEALIGN(64, count[t]);
	f->triggered_head = palloc_extended(Max(1, f->armed_start[f->ntriggers]) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->place = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	fill = count;
	memcpy(fill, f->armed_start, f->ntriggers * sizeof(int32));
	for (int r = 0; r < net->nrules; r++)
		if (f->trigger[r] >= 0)
		{
			f->place[r] = fill[f->trigger[r]]++;
			f->triggered_head[f->place[r]] = f->rule_head[r];
		}
	f->armed = palloc_extended(Max(1, f->armed_start[f->ntriggers] / 64) * sizeof(uint64), MCXT_ALLOC_HUGE);
	f->applied = palloc0(Max(1, f->ntriggers) * sizeof(bool));
	pfree(count);
	return trigger_literal;
}

/* The live rules' readers per node (fan_start, fan), with the FAN_ flags; trigger literals apart. */
static void
build_fan(Forward *f, const bool *live, const int32 *trigger_literal)
{
	const Propnet *net = f->net;
	int32	   *fill;

	f->fan_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int r = 0; r < net->nrules; r++)
		if (live[f->rule_head[r]])
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
				f->fan_start[(net->literals[l] >> 1) + 1] += l != trigger_literal[r];
	for (int v = 0; v < net->nnodes; v++)
		f->fan_start[v + 1] += f->fan_start[v];
	f->fan = palloc_extended(Max(1, f->fan_start[net->nnodes]) * sizeof(int32), MCXT_ALLOC_HUGE);
	fill = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memcpy(fill, f->fan_start, net->nnodes * sizeof(int32));
	for (int r = 0; r < net->nrules; r++)
	{
		int32		head = f->rule_head[r];

		if (!live[head])
			continue;
		for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			if (l != trigger_literal[r])
				f->fan[fill[net->literals[l] >> 1]++] = r << FAN_SHIFT |
					(f->group_of[head] >= 0 ? FAN_GROUP : 0) | (f->trigger[r] >= 0 ? FAN_TRIGGERED : 0) |
					(net->literals[l] & 1 ? FAN_NEGATED : 0);
	}
	pfree(fill);
}

/* The derived nodes rule r reads that are no guards. */
static int
count_derived(const Forward *f, const bool *guard, int32 r)
{
	const Propnet *net = f->net;
	int			n = 0;

	for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
		n += (net->literals[l] >> 1) >= f->first_derived && !guard[net->literals[l] >> 1];
	return n;
}

/*
 * The guards: the facts that no clock turns, and the derived nodes that
 * are a conjunction of those, one rule of two or more (the pairs of
 * products.c), outside cycle groups.  Such a node flips as seldom as its
 * facts and is as cheap to keep: it is kept awake, and guards the rules
 * that read it as its facts would.  A node of facts in several rules is
 * no guard: tried with every node of facts alone a guard, chess.kif's
 * (occupied_by_opponent ?x ?y ?player) guarded the king safety of the
 * captures onto its square, woken and put to sleep with every move of a
 * piece, and random playouts were no faster (8,800 moves/s against
 * 9,400-10,400).
 */
static bool *
find_guards(const Forward *f, const bool *live, const bool *clock)
{
	const Propnet *net = f->net;
	bool	   *guard = palloc0(Max(1, net->nnodes) * sizeof(bool));

	for (int32 b = 0; b < net->nbase; b++)
		guard[b] = !clock[b];
	for (int32 v = f->first_derived; v < net->nnodes; v++)
	{
		int32		r = net->rule_start[v];
		bool		conjunction = live[v] && f->group_of[v] < 0 && net->rule_start[v + 1] == r + 1 &&
			net->literal_start[r + 1] - net->literal_start[r] >= 2;

		for (int l = net->literal_start[r]; conjunction && l < net->literal_start[r + 1]; l++)
			conjunction = (net->literals[l] >> 1) < net->nbase && guard[net->literals[l] >> 1];
		guard[v] = conjunction;
	}
	return guard;
}

/*
 * Each guarded rule's derived literals, cheapest to need first (a stable
 * sort), and how many of them cost less than PREFIX_COST: needing a node
 * costs its rules and what they need in turn, counted down the rules as
 * though nothing were shared, and nothing for a node always awake.
 */
static void
order_derived_by_cost(Forward *f, const bool *live)
{
	const Propnet *net = f->net;
	bool	   *counted = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE);
	double	   *cost;

	/* a node always awake costs nothing: a cycle group's too */
	for (int32 v = 0; v < net->nnodes; v++)
		counted[v] = v >= f->first_derived && live[v] && !f->permanent[v];
	cost = propnet_cone_costs(net, counted);
	pfree(counted);
	for (int32 g = 0; g < f->guarded_start[net->nnodes]; g++)
		for (int32 d = f->derived_start[g] + 1; d < f->derived_start[g + 1]; d++)
		{
			int32		literal = f->derived[d];
			int32		e = d;

			for (; e > f->derived_start[g] && cost[f->derived[e - 1] >> 1] > cost[literal >> 1]; e--)
				f->derived[e] = f->derived[e - 1];
			f->derived[e] = literal;
		}
	for (int32 g = 0; g < f->guarded_start[net->nnodes]; g++)
	{
		f->eager[g] = 0;
		while (f->derived_start[g] + f->eager[g] < f->derived_start[g + 1] &&
			   cost[f->derived[f->derived_start[g] + f->eager[g]] >> 1] < PREFIX_COST)
			f->eager[g]++;
	}
	pfree(cost);
}

/*
 * prefix_start and prefix_fan: per node, the guarded rules needing in
 * order that read it before their last derived literal, whose need may
 * end at its value.
 */
static void
build_prefix_fan(Forward *f)
{
	const Propnet *net = f->net;
	int32		nguarded = f->guarded_start[net->nnodes];
	int32	   *fill;

	f->prefix_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int32 g = 0; g < nguarded; g++)
		for (int32 d = f->derived_start[g]; needs_in_order(f, g) && d < f->derived_start[g + 1] - 1; d++)
			f->prefix_start[(f->derived[d] >> 1) + 1]++;
	for (int32 v = 0; v < net->nnodes; v++)
		f->prefix_start[v + 1] += f->prefix_start[v];
	f->prefix_fan = palloc_extended(Max(1, f->prefix_start[net->nnodes]) * sizeof(int32), MCXT_ALLOC_HUGE);
	fill = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memcpy(fill, f->prefix_start, net->nnodes * sizeof(int32));
	for (int32 g = 0; g < nguarded; g++)
		for (int32 d = f->derived_start[g]; needs_in_order(f, g) && d < f->derived_start[g + 1] - 1; d++)
			f->prefix_fan[fill[f->derived[d] >> 1]++] = g;
	pfree(fill);
}

/*
 * The guarded rules and the guard fan (each guard's guarded rules that
 * read it), and the nodes always awake.  A fact that a clock turns, whose
 * next node reads no action (control, a step counter), guards nothing: it
 * flips with every move, and in chess.kif it is in every legal rule, so
 * that half of the network would wake and half fall asleep at each move.
 */
static void
build_guards(Forward *f, const bool *live, const bool *goal, const bool *moves)
{
	const Propnet *net = f->net;
	int32	   *fill = NULL;
	bool	   *clock = propnet_clock_facts(net, moves);
	int32	   *guarded_of = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	bool	   *guard;
	int32		nguarded = 0,
				nderived = 0;

	f->first_derived = net->nbase + net->ninputs;
	guard = find_guards(f, live, clock);
	f->guarded_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int32 v = 0; v < net->nnodes; v++)
	{
		f->guarded_start[v] = nguarded;
		for (int32 r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
		{
			int			n = live[v] ? count_derived(f, guard, r) : 0;

			guarded_of[r] = n > 0 ? nguarded++ : -1;
			nderived += n;
		}
	}
	f->guarded_start[net->nnodes] = nguarded;
	f->guard_unmet = palloc_extended(Max(1, nguarded) * sizeof(int16), MCXT_ALLOC_HUGE);
	f->needed = palloc_extended(Max(1, nguarded) * sizeof(int16), MCXT_ALLOC_HUGE);
	f->eager = palloc_extended(Max(1, nguarded) * sizeof(int16), MCXT_ALLOC_HUGE);
	f->guarded_head = palloc_extended(Max(1, nguarded) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->derived_start = palloc_extended((nguarded + 1) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->derived = palloc_extended(Max(1, nderived) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->derived_start[0] = 0;
	for (int32 r = 0; r < net->nrules; r++)
	{
		int32		g = guarded_of[r];

		if (g < 0)
			continue;
		f->guarded_head[g] = f->rule_head[r];
		f->derived_start[g + 1] = f->derived_start[g];
		for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			if ((net->literals[l] >> 1) >= f->first_derived && !guard[net->literals[l] >> 1])
				f->derived[f->derived_start[g + 1]++] = net->literals[l];
	}

	f->guard_start = palloc_extended((net->nnodes + 1) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int pass = 0; pass < 2; pass++)
	{
		for (int32 r = 0; r < net->nrules; r++)
		{
			if (guarded_of[r] < 0)
				continue;
			for (int l = net->literal_start[r]; l < net->literal_start[r + 1]; l++)
			{
				int32		node = net->literals[l] >> 1;

				if (!guard[node])
					continue;
				if (pass == 0)
					f->guard_start[node + 1]++;
				else
					f->guard_fan[fill[node]++] = guarded_of[r] << 1 | (net->literals[l] & 1);
			}
		}
		if (pass == 0)
		{
			for (int32 v = 0; v < net->nnodes; v++)
				f->guard_start[v + 1] += f->guard_start[v];
			f->guard_fan = palloc_extended(Max(1, f->guard_start[net->nnodes]) * sizeof(int32), MCXT_ALLOC_HUGE);
			fill = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
			memcpy(fill, f->guard_start, net->nnodes * sizeof(int32));
		}
	}
	pfree(guarded_of);
	pfree(fill);
	pfree(clock);

	f->permanent = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int i = 0; i < net->ninputs; i++)
		if (net->input_legal[i] >= 0)
			f->permanent[net->input_legal[i]] = true;
	for (int b = 0; b < net->nbase; b++)
		if (net->base_next[b] >= 0)
			f->permanent[net->base_next[b]] = true;
	if (net->terminal >= 0)
		f->permanent[net->terminal] = true;
	for (int i = 0; i < net->ngoals; i++)
		if (net->goals[i].node >= 0)
			f->permanent[net->goals[i].node] = true;
	for (int g = 0; g < net->ngroups; g++)
		for (int k = net->group_start[g]; k < net->group_start[g + 1]; k++)
			f->permanent[net->group_nodes[k]] = true;
	for (int32 v = f->first_derived; v < net->nnodes; v++)
		f->permanent[v] |= guard[v];
	/* what forward_goals reads of the live nodes */
	for (int32 v = f->first_derived; v < net->nnodes; v++)
		if (goal[v] && !live[v])
			for (int l = net->literal_start[net->rule_start[v]]; l < net->literal_start[net->rule_start[v + 1]]; l++)
				f->permanent[net->literals[l] >> 1] = true;
	for (int32 v = 0; v < net->nnodes; v++)
		f->permanent[v] &= v >= f->first_derived && live[v];
	pfree(guard);
	order_derived_by_cost(f, live);
	build_prefix_fan(f);

	f->need = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->fresh = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE);
	f->contributing = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE);
	f->need_queued = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE);
	f->need_changed = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->drowsy = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	f->drowsy_queued = palloc_extended(Max(1, net->nnodes) * sizeof(bool), MCXT_ALLOC_HUGE);
}

/*
 * Dormancy costs a guard fan entry per fact literal and the churn of need
 * as facts flip: it pays where most of the network sleeps (chess.kif's
 * king safety asked of every square, of which one holds the king: a
 * quarter of its live nodes awake in the initial state, random playouts 3
 * times as fast), not where most is awake (the other sample games, 75% to
 * all of it; the chess.kif stand-in, 89%, 20% slower).  Unless at most half
 * of the live derived nodes are awake in the initial state, every live
 * node is kept awake and no fact is a guard.  Awake is counted with every
 * derived literal of a rule needed: with the literals needed one after
 * another, chess4x4.kif's network is 42% awake, and sleeping made its
 * random playouts 0.8 times as fast.  The rules of the awake nodes count
 * too: at most three quarters of the live rules may be theirs (chess.kif's
 * candidates' network of lazy_legal.c, without the king-safety cones, has
 * 41% of its nodes awake but 86% of its rules: kept awake, its random
 * playouts ran 1.17 to 1.21 times as fast; chess4x4.kif's 68%, chess.kif's
 * 22%, lamps.kif's 25%: as they were).
 */
static void
keep_awake_unless_most_sleep(Forward *f, const bool *live)
{
	const Propnet *net = f->net;
	int32		nlive = 0,
				nawake = 0;
	int64		live_rules = 0,
				awake_rules = 0;

	for (int32 v = f->first_derived; v < net->nnodes; v++)
		if (live[v])
		{
			nlive++;
			nawake += f->need[v] > 0;
			live_rules += net->rule_start[v + 1] - net->rule_start[v];
			awake_rules += f->need[v] > 0 ? net->rule_start[v + 1] - net->rule_start[v] : 0;
		}
	f->dormancy = 2 * nawake <= nlive && 4 * awake_rules <= 3 * live_rules;
	if (f->dormancy)
	{
		f->prefix_needs = true;
		reset_need(f);
		return;
	}
	for (int32 v = f->first_derived; v < net->nnodes; v++)
		f->permanent[v] = live[v];
	memset(f->guard_start, 0, (net->nnodes + 1) * sizeof(int32));
	pfree(f->guard_fan);
	f->guard_fan = NULL;
	memset(f->guarded_start, 0, (net->nnodes + 1) * sizeof(int32));
	memset(f->prefix_start, 0, (net->nnodes + 1) * sizeof(int32));
	pfree(f->prefix_fan);
	f->prefix_fan = NULL;
	reset_need(f);
}

Size
forward_size(const Propnet *net)
{
	/*
	 * per rule: unmet, head, trigger, place, a place in triggered_head and
	 * a guarded rule's guard_unmet, needed, eager, head and derived_start; per
	 * literal: a fan entry, a guard fan entry, a derived entry and a prefix
	 * fan entry at most; per node: its value, fresh, contributing,
	 * need_queued, drowsy_queued and permanent, eleven arrays of int32 and
	 * room for two flips on the stack
	 */
	return (Size) net->nrules * (6 * sizeof(int32) + 4 * sizeof(int16)) +
		(Size) net->literal_start[net->nrules] * 4 * sizeof(int32) +
		(Size) net->nnodes * (6 + 11 * sizeof(int32) + 2 * sizeof(int32));
}

bool
forward_fits(const Propnet *net, Size room)
{
	/* a fan entry names its rule in the bits above FAN_SHIFT; unmet counts in 16 bits */
	if (net->nrules >= (1 << (31 - FAN_SHIFT)) || forward_size(net) > room)
		return false;
	for (int r = 0; r < net->nrules; r++)
		if (net->literal_start[r + 1] - net->literal_start[r] > PG_INT16_MAX)
			return false;
	return true;
}

Forward *
forward_create(const Propnet *net)
{
	Forward    *f = palloc0(sizeof(Forward));
	bool	   *live,
			   *goal,
			   *reads_state;
	bool	   *moves = propnet_move_dependent(net);
	int32	   *trigger_literal;

	Assert(forward_fits(net, MaxAllocHugeSize));
	f->net = net;
	f->values = palloc_extended(Max(1, net->nnodes), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	f->support = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	f->unmet = palloc_extended(Max(1, net->nrules) * sizeof(int16), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	f->rule_head = palloc_extended(Max(1, net->nrules) * sizeof(int32), MCXT_ALLOC_HUGE);
	for (int v = 0; v < net->nnodes; v++)
		for (int r = net->rule_start[v]; r < net->rule_start[v + 1]; r++)
			f->rule_head[r] = v;
	f->group_of = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(f->group_of, 0xff, Max(1, net->nnodes) * sizeof(int32));
	for (int g = 0; g < net->ngroups; g++)
		for (int k = net->group_start[g]; k < net->group_start[g + 1]; k++)
			f->group_of[net->group_nodes[k]] = g;
	f->group_rank = palloc(Max(1, net->ngroups) * sizeof(int32));
	for (int s = 0; s < net->norder; s++)
		if (net->order[s] < 0)
			f->group_rank[-net->order[s] - 1] = s;
	f->group_dirty = palloc0(Max(1, net->ngroups) * sizeof(bool));
	f->dirty = palloc(Max(1, net->ngroups) * sizeof(int32));

	/* live: what terminal, legal and next need; the goals' own steps apart */
	live = propnet_cone(net, CONE_TERMINAL | CONE_LEGAL | CONE_NEXT);
	goal = propnet_cone(net, CONE_GOALS);
	/* what the state's own outputs need; well-formed GDL has no action in it */
	reads_state = propnet_cone(net, CONE_TERMINAL | CONE_LEGAL | CONE_GOALS);
	f->keep_move = true;
	for (int v = 0; v < net->nnodes; v++)
		f->keep_move &= !(reads_state[v] && moves[v]);
	f->goal_steps = palloc(Max(1, net->norder) * sizeof(int32));
	for (int s = 0; s < net->norder; s++)
	{
		int32		node = step_node(net, net->order[s]);

		if (goal[node] && !live[node])
			f->goal_steps[f->ngoal_steps++] = net->order[s];
	}
	trigger_literal = find_triggers(f, live, moves);
	build_fan(f, live, trigger_literal);
	build_guards(f, live, goal, moves);
	pfree(trigger_literal);

	f->output = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(f->output, 0xff, Max(1, net->nnodes) * sizeof(int32));
	for (int i = 0; i < net->ninputs; i++)
		if (net->input_legal[i] >= 0)
			f->output[net->input_legal[i]] = i << 1;
	for (int b = 0; b < net->nbase; b++)
		if (net->base_next[b] >= 0)
			f->output[net->base_next[b]] = b << 1 | OUTPUT_NEXT;
	f->nwords = Max(1, (net->nbase + 63) / 64);
	f->state = palloc0(f->nwords * sizeof(uint64));
	f->next = palloc0(f->nwords * sizeof(uint64));
	f->nlegal_words = Max(1, (net->ninputs + 63) / 64);
	f->legal = palloc0(f->nlegal_words * sizeof(uint64));
	f->stack_size = Max(64, 2 * net->nnodes);
	f->stack = palloc_extended(f->stack_size * sizeof(int32), MCXT_ALLOC_HUGE);
	f->move = palloc(Max(1, net->nroles) * sizeof(int32));
	f->move_next = palloc(f->nwords * sizeof(uint64));
	reset(f);
	keep_awake_unless_most_sleep(f, live);
	pfree(live);
	pfree(goal);
	pfree(reads_state);
	pfree(moves);
	return f;
}
