/*
 * gdl_game.c: a GDL description as a Game.
 *
 * States are bit sets over the facts that can ever hold (in the canonical
 * order of term.h), so they are compact, canonical and hashable like the
 * native games' states.  A joint move packs each role's action as its
 * index among the role's actions, in as few bits as those need.  Legal
 * joint moves are the cartesian product of the roles' legal actions in
 * role order, the first role's action changing slowest.
 *
 * JSON: a fact (cell 1 1 b) is ["cell", 1, 1, "b"], a nested term an array
 * inside it; symbols that spell a non-negative integer are JSON numbers,
 * other symbols strings.  When the rules have no control facts of their
 * own, the state says ["control", role] when one role alone has a choice
 * other than noop, as the native games do.  A list of one symbol, (open),
 * is the symbol itself.
 */
#include "postgres.h"

#include "core/jsonfacts.h"
#include "gdl/forward.h"
#include "gdl/gdl.h"
#include "gdl/lazy_legal.h"
#include "gdl/network_store.h"
#include "gdl/prover.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

typedef struct GdlRules
{
	Propnet    *net;
	TermStore  *terms;			/* the facts, actions and roles, and nothing else */
	int32	   *term_base;		/* per term of terms: its base node, or -1 */
	int			nwords;			/* 64-bit words of a state */
	bool		has_control;	/* the rules have control facts of their own */
	uint16		layout;			/* fingerprint of the facts' order, first in a packing */
	uint8	   *shift;			/* per role: where its action index sits in a move */
	uint64	   *mask;			/* per role */
	int32	   *noop;			/* per role: the input of its noop, or -1 */
	Forward    *forward;		/* the network's evaluation; NULL on the prover */
	LazyLegal  *lazy;			/* random moves with legality checked on demand, or NULL */
	bool		lazy_tried;		/* lazy was made, or found not worth it */
	Size		lazy_room;		/* the memory it may take */
	uint64	   *lazy_words;		/* the state lazy is at */
	bool		lazy_valid;
	uint8	   *values;			/* the prover's evaluation */
	const uint8 *truth;			/* per node, in the state evaluated: values or the network's */
	uint32		phases_done;	/* of the state evaluated */
	/* the prover's state (the network keeps its own) */
	uint64	   *cached;
	bool		cache_valid;
	int32	  **legal;			/* per role: its legal inputs in the state */
	int		   *nlegal;
	bool		legal_in_row;	/* input i's legal node is the first input's + i (propnet_outputs) */
} GdlRules;

static inline GdlRules *
rules_of(const Game *game)
{
	return (GdlRules *) game->rules;
}

/*
 * Runs phase (and the phases it needs) for state, unless already done.
 * False when the prover gave up past a running clock's deadline
 * (core/clock.h): the callers then answer as at the end of the game, as
 * clock.h says, and nothing is kept of the state.
 */
static bool
evaluate(const Game *game, const GameState *state, ProverPhase phase)
{
	GdlRules   *r = rules_of(game);
	const Propnet *net = r->net;
	const uint64 *words = (const uint64 *) state->data;

	if (r->forward != NULL)
	{
		/* the network keeps all but the goals of the state */
		if (forward_set_state(r->forward, words))
			r->phases_done = ((1 << NUM_PHASES) - 1) & ~(1 << PHASE_GOAL);
		if (!(r->phases_done & (1 << phase)))
			forward_goals(r->forward);
		r->phases_done |= 1 << phase;
		return true;
	}
	if (!r->cache_valid || memcmp(r->cached, words, r->nwords * sizeof(uint64)) != 0)
	{
		memcpy(r->cached, words, r->nwords * sizeof(uint64));
		memset(r->values, 0, net->nbase);
		for (int w = 0; w < r->nwords; w++)
			for (uint64 bits = words[w]; bits != 0; bits &= bits - 1)
				r->values[w * 64 + pg_rightmost_one_pos64(bits)] = 1;
		r->cache_valid = true;
		r->phases_done = 0;
	}
	if (r->phases_done & (1 << phase))
		return true;
	if ((phase != PHASE_TERMINAL && !evaluate(game, state, PHASE_TERMINAL)) ||
		!prover_run(net->prover, net, phase, r->values))
	{
		r->cache_valid = false;
		return false;
	}
	r->phases_done |= 1 << phase;
	return true;
}

static bool
gdl_terminal(const Game *game, const GameState *state)
{
	GdlRules   *r = rules_of(game);

	if (r->net->terminal < 0)
		return false;
	if (!evaluate(game, state, PHASE_TERMINAL))
		return true;
	return r->truth[r->net->terminal];
}

static void
report_no_legal_move(const Game *game, int role)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("game \"%s\": role %s has no legal move in a state that is not terminal",
					game->name, game->roles[role]),
			 errhint("The rules are not well-formed GDL: every role has a legal move until the game ends.")));
}

/*
 * Fills r->nlegal, and r->legal when list, for a state that is not
 * terminal; false when the prover gave up.
 */
static bool
legal_actions(const Game *game, const GameState *state, bool list)
{
	GdlRules   *r = rules_of(game);
	const Propnet *net = r->net;

	if (!evaluate(game, state, PHASE_LEGAL))
		return false;
	for (int role = 0; role < game->nroles; role++)
	{
		int32	   *legal = r->legal[role];

		if (r->forward != NULL)
			r->nlegal[role] = list ? forward_legal(r->forward, role, legal) :
				forward_legal_count(r->forward, role);
		else
		{
			int			first = net->role_inputs[role],
						end = net->role_inputs[role + 1];

			r->nlegal[role] = 0;
			for (int i = first; i < end; i++)
			{
				/*
				 * eight at a time past the zeros when the legal nodes are
				 * in a row: chess.kif's white has 4,819 actions, a few
				 * dozen legal
				 */
				if (r->legal_in_row && (i - first) % 8 == 0 && i + 8 <= end)
				{
					uint64		word;

					memcpy(&word, r->values + net->input_legal[i], sizeof(word));
					if (word == 0)
					{
						i += 7;
						continue;
					}
				}
				if (net->input_legal[i] >= 0 && r->values[net->input_legal[i]])
					legal[r->nlegal[role]++] = i - first;
			}
		}
		if (r->nlegal[role] == 0)
			report_no_legal_move(game, role);
	}
	return true;
}

/* The joint moves of a state (0: terminal, or the prover gave up), at most max_moves. */
static int
joint_move_count(const Game *game, const GameState *state, bool list)
{
	GdlRules   *r = rules_of(game);
	int64		count = 1;

	if (gdl_terminal(game, state) || !legal_actions(game, state, list))
		return 0;
	for (int role = 0; role < game->nroles; role++)
		count *= r->nlegal[role];
	if (count > game->max_moves)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": a state with %lld joint moves, more than the %d this game can hold",
						game->name, (long long) count, game->max_moves)));
	return (int) count;
}

static int
gdl_legal(const Game *game, const GameState *state, GameMove *moves)
{
	GdlRules   *r = rules_of(game);
	int			index[GT_MAX_ROLES] = {0};
	int			count = joint_move_count(game, state, true);

	for (int m = 0; m < count; m++)
	{
		GameMove	move = 0;

		for (int role = 0; role < game->nroles; role++)
			move |= (GameMove) r->legal[role][index[role]] << r->shift[role];
		moves[m] = move;
		/* the last role's action changes fastest */
		for (int role = game->nroles - 1; role >= 0; role--)
		{
			if (++index[role] < r->nlegal[role])
				break;
			index[role] = 0;
		}
	}
	return count;
}

/* Whether the lazy evaluation is at state (random_move's last). */
static bool
lazy_at(const GdlRules *r, const GameState *state)
{
	return r->lazy_valid && memcmp(r->lazy_words, state->data, r->nwords * sizeof(uint64)) == 0;
}

bool		gdl_lazy_legality = true;

static GtDraw
gdl_random_move(const Game *game, const GameState *state, pg_prng_state *prng, GameMove *move)
{
	GdlRules   *r = rules_of(game);
	int32		actions[GT_MAX_ROLES];
	bool		over;

	/*
	 * made on first use, in the game's memory: a backend that plays no
	 * playout spares its analysis; tried once, so that an error in the
	 * middle (an interrupt) leaves the listing
	 */
	if (gdl_lazy_legality && !r->lazy_tried)
	{
		r->lazy_tried = true;
		if (r->forward != NULL)
		{
			MemoryContext caller = MemoryContextSwitchTo(GetMemoryChunkContext(r));

			r->lazy = lazy_legal_create(r->net, r->lazy_room);
			if (r->lazy != NULL)
				r->lazy_words = palloc(r->nwords * sizeof(uint64));
			MemoryContextSwitchTo(caller);
		}
	}
	/* listed: the same games on the network and the prover */
	if (!gdl_lazy_legality || r->lazy == NULL)
		return GT_DRAW_LIST;
	/* invalid until the state is reached: an error on the way leaves it anywhere */
	r->lazy_valid = false;
	lazy_legal_set_state(r->lazy, (const uint64 *) state->data);
	memcpy(r->lazy_words, state->data, r->nwords * sizeof(uint64));
	over = !lazy_legal_pick(r->lazy, prng, actions);
	r->lazy_valid = true;
	if (over)
		return GT_DRAW_END;
	*move = 0;
	for (int role = 0; role < game->nroles; role++)
	{
		if (actions[role] < 0)
			report_no_legal_move(game, role);
		*move |= (GameMove) actions[role] << r->shift[role];
	}
	return GT_DRAW_MOVE;
}

static void
gdl_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	GdlRules   *r = rules_of(game);
	const Propnet *net = r->net;
	int32		inputs[GT_MAX_ROLES];
	uint64	   *words = (uint64 *) out->data;
	bool		lazy = lazy_at(r, state);
	bool		done;

	/* Given up: the state itself, a state of the right size, never looked at. */
	if (!lazy && !evaluate(game, state, PHASE_TERMINAL))
	{
		gt_state_copy(out, state);
		return;
	}
	for (int role = 0; role < game->nroles; role++)
		inputs[role] = net->nbase + net->role_inputs[role] + ((move >> r->shift[role]) & r->mask[role]);
	/* from a random move's state, the lazy evaluation is there already */
	if (lazy || r->forward != NULL)
	{
		memcpy(words, lazy ? lazy_legal_next(r->lazy, inputs) : forward_next(r->forward, inputs, game->nroles),
			   r->nwords * sizeof(uint64));
		out->size = r->nwords * sizeof(uint64);
		return;
	}
	for (int role = 0; role < game->nroles; role++)
		r->values[inputs[role]] = 1;
	done = prover_run(net->prover, net, PHASE_MOVE, r->values);
	for (int role = 0; role < game->nroles; role++)
		r->values[inputs[role]] = 0;
	if (!done)
	{
		r->cache_valid = false;
		gt_state_copy(out, state);
		return;
	}
	memset(words, 0, r->nwords * sizeof(uint64));
	for (int i = 0; i < net->nbase; i++)
		if (net->base_next[i] >= 0 && r->values[net->base_next[i]])
			words[i / 64] |= UINT64CONST(1) << (i % 64);
	out->size = r->nwords * sizeof(uint64);
}

static void
gdl_goals(const Game *game, const GameState *state, int *goals)
{
	GdlRules   *r = rules_of(game);
	const Propnet *net = r->net;
	bool		done;

	if (lazy_at(r, state))
	{
		lazy_legal_goals(r->lazy, goals);
		for (int role = 0; role < game->nroles; role++)
			goals[role] = Max(goals[role], GT_GOAL_MIN);
		return;
	}
	done = evaluate(game, state, PHASE_GOAL);

	for (int role = 0; role < game->nroles; role++)
		goals[role] = GT_GOAL_MIN;
	for (int i = 0; done && i < net->ngoals; i++)
		if (r->truth[net->goals[i].node])
			goals[net->goals[i].role] = Max(goals[net->goals[i].role], net->goals[i].value);
}

/*
 * The one role with a choice other than noop; GT_NO_ROLE when several
 * have one, or at the end (search asks at terminal states too).
 */
static int
gdl_control(const Game *game, const GameState *state)
{
	GdlRules   *r = rules_of(game);
	int			mover = GT_NO_ROLE;

	if (gdl_terminal(game, state) || !legal_actions(game, state, true))
		return GT_NO_ROLE;
	for (int role = 0; role < game->nroles; role++)
	{
		if (r->nlegal[role] == 1 && r->legal[role][0] + r->net->role_inputs[role] == r->noop[role])
			continue;
		if (mover != GT_NO_ROLE)
			return GT_NO_ROLE;
		mover = role;
	}
	return mover;
}

static void
gdl_initial(const Game *game, GameState *out)
{
	GdlRules   *r = rules_of(game);
	uint64	   *words = (uint64 *) out->data;

	memset(words, 0, r->nwords * sizeof(uint64));
	for (int i = 0; i < r->net->nbase; i++)
		if (r->net->initial[i])
			words[i / 64] |= UINT64CONST(1) << (i % 64);
	out->size = r->nwords * sizeof(uint64);
}

/* Perft that makes all children of a state before going down, so that next() finds the state evaluated. */
static int64
perft_children(const Game *game, const GameState *state, int depth, GameMove **moves,
			   GameState ***children)
{
	int			n;
	int64		total = 0;

	/* the last ply counts the moves without listing them */
	if (depth == 1)
		return joint_move_count(game, state, false);
	n = gdl_legal(game, state, moves[depth]);
	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < n; i++)
		gdl_next(game, state, moves[depth][i], children[depth][i]);
	for (int i = 0; i < n; i++)
		total += perft_children(game, children[depth][i], depth - 1, moves, children);
	return total;
}

static int64
gdl_perft(const Game *game, const GameState *state, int depth, bool draw_rules)
{
	GameMove  **moves;
	GameState ***children;
	int64		total;

	if (depth == 0)
		return 1;
	moves = palloc((depth + 1) * sizeof(GameMove *));
	children = palloc0((depth + 1) * sizeof(GameState **));
	for (int d = 1; d <= depth; d++)
	{
		moves[d] = palloc(game->max_moves * sizeof(GameMove));
		children[d] = palloc(game->max_moves * sizeof(GameState *));
	}
	/* children of the deepest levels are made first; allocate as states are needed */
	for (int d = 2; d <= depth; d++)
	{
		char	   *block = palloc_extended((Size) game->max_moves * (offsetof(GameState, data) + game->state_bytes),
											MCXT_ALLOC_HUGE);

		for (int i = 0; i < game->max_moves; i++)
			children[d][i] = (GameState *) (block + (Size) i * (offsetof(GameState, data) + game->state_bytes));
	}
	total = perft_children(game, state, depth, moves, children);
	return total;
}

/*
 * The storage format (Game.pack): the layout's fingerprint (2 bytes), then
 * bit i of the state, base fact i in the facts' canonical order, as bit
 * i % 8 of byte i / 8, so the words are written by value whatever the
 * machine's byte order; trailing zero bytes are left out.  unpack refuses
 * bits past the facts and a last byte of zero: one packing per state, and
 * any set of facts is a state the network and the prover evaluate.  The
 * same description gives the same facts in the same order, in every
 * backend and after a reload; but the prover's grounding can have more
 * facts than the network's, so a reload under the other engine (after
 * gametree.gdl_memory changed) may lay them out differently: the
 * fingerprint then refuses the packing instead of misreading it.
 */
#define LAYOUT_BYTES 2

static uint16
layout_fingerprint(const GdlRules *r)
{
	StringInfoData facts;
	uint16		fingerprint;

	initStringInfo(&facts);
	for (int i = 0; i < r->net->nbase; i++)
	{
		term_append_text(r->terms, r->net->base_terms[i], &facts);
		appendStringInfoChar(&facts, '\n');
	}
	fingerprint = (uint16) gt_hash_bytes((const uint8 *) facts.data, facts.len);
	pfree(facts.data);
	return fingerprint;
}

static int
gdl_pack(const Game *game, const GameState *state, uint8 *out)
{
	const GdlRules *r = rules_of(game);
	const uint64 *words = (const uint64 *) state->data;
	int			len = (r->net->nbase + 7) / 8;

	out[0] = r->layout & 0xFF;
	out[1] = r->layout >> 8;
	out += LAYOUT_BYTES;
	for (int i = 0; i < len; i++)
		out[i] = words[i / 8] >> (8 * (i % 8)) & 0xFF;
	while (len > 0 && out[len - 1] == 0)
		len--;
	return LAYOUT_BYTES + len;
}

static bool
gdl_unpack(const Game *game, const uint8 *in, int len, GameState *out)
{
	GdlRules   *r = rules_of(game);
	uint64	   *words = (uint64 *) out->data;
	int			nbase = r->net->nbase;

	if (len < LAYOUT_BYTES || (in[0] | in[1] << 8) != r->layout)
		return false;
	in += LAYOUT_BYTES;
	len -= LAYOUT_BYTES;
	if (len > (nbase + 7) / 8 || (len > 0 && in[len - 1] == 0) ||
		(len == (nbase + 7) / 8 && nbase % 8 != 0 && in[len - 1] >> (nbase % 8) != 0))
		return false;
	memset(words, 0, r->nwords * sizeof(uint64));
	for (int i = 0; i < len; i++)
		words[i / 8] |= (uint64) in[i] << (8 * (i % 8));
	out->size = r->nwords * sizeof(uint64);
	return true;
}

static void
gdl_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	GdlRules   *r = rules_of(game);
	const uint64 *words = (const uint64 *) state->data;
	int			mover;

	for (int w = 0; w < r->nwords; w++)
		for (uint64 bits = words[w]; bits != 0; bits &= bits - 1)
		{
			TermId		fact = r->net->base_terms[w * 64 + pg_rightmost_one_pos64(bits)];

			if (term_node(r->terms, fact)->kind == TERM_SYMBOL)
			{
				/* a fact without arguments: ["name"] */
				jo_begin_array(out);
				jo_string(out, r->terms->names[term_functor(r->terms, fact)]);
				jo_end_array(out);
			}
			else
				term_encode_json(r->terms, fact, out);
		}
	if (!r->has_control && (mover = gdl_control(game, state)) != GT_NO_ROLE)
		jo_fact(out, "control", game->roles[mover]);
}

/* The game's term for a JSON value, or NO_TERM when the game has none such. */
static TermId
decode_term(const TermStore *ts, const JsonbValue *v)
{
	char	   *name = NULL;
	SymbolId	sym;

	check_stack_depth();
	if (v->type == jbvString)
		name = pnstrdup(v->val.string.val, v->val.string.len);
	else if (v->type == jbvNumeric)
		name = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	else if (v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data))
	{
		JsonbContainer *c = v->val.binary.data;
		int			n = JsonContainerSize(c);
		TermId	   *args;
		JsonbValue *functor;
		TermId		t;

		if (n < 2)
			return NO_TERM;
		functor = getIthJsonbValueFromContainer(c, 0);
		if (functor->type != jbvString)
			return NO_TERM;
		sym = term_symbol_lookup(ts, functor->val.string.val, functor->val.string.len);
		if (sym < 0)
			return NO_TERM;
		args = palloc((n - 1) * sizeof(TermId));
		for (int i = 1; i < n; i++)
			if ((args[i - 1] = decode_term(ts, getIthJsonbValueFromContainer(c, i))) == NO_TERM)
				return NO_TERM;
		t = term_function_lookup(ts, sym, n - 1, args);
		pfree(args);
		return t;
	}
	if (name == NULL)
		return NO_TERM;
	sym = term_symbol_lookup(ts, name, strlen(name));
	return sym < 0 ? NO_TERM : ts->symbol_term[sym];
}

static void
gdl_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	GdlRules   *r = rules_of(game);
	const TermStore *ts = r->terms;
	uint64	   *words = (uint64 *) out->data;
	int			given = GT_NO_ROLE;
	bool		control_given = false;

	memset(words, 0, r->nwords * sizeof(uint64));
	for (int f = 0; f < nfacts; f++)
	{
		Fact	   *fact = &facts[f];
		SymbolId	sym = term_symbol_lookup(ts, fact->relation, strlen(fact->relation));
		TermId		t = NO_TERM;
		int			node;

		if (!r->has_control && strcmp(fact->relation, "control") == 0)
		{
			fact_expect_arity(fact, 1);
			given = fact_choice(fact, 0, game->roles, game->nroles);
			control_given = true;
			continue;
		}
		if (sym >= 0 && fact->nargs == 0)
			t = ts->symbol_term[sym];
		else if (sym >= 0)
		{
			TermId		args[GT_MAX_FACT_ARGS];
			bool		known = true;

			for (int i = 0; i < fact->nargs && known; i++)
				known = (args[i] = decode_term(ts, &fact->args[i])) != NO_TERM;
			if (known)
				t = term_function_lookup(ts, sym, fact->nargs, args);
		}
		node = t == NO_TERM ? -1 : r->term_base[t];
		if (node < 0)
			gt_invalid_state(game, "fact %d, %s, can never hold in a state of this game",
							 fact->position, t == NO_TERM ? gt_abbreviate(fact->relation) : term_text(ts, t));
		words[node / 64] |= UINT64CONST(1) << (node % 64);
	}
	out->size = r->nwords * sizeof(uint64);
	if (control_given || (!r->has_control && gdl_control(game, out) != GT_NO_ROLE))
		gt_check_control(game, given, gdl_control(game, out));
}

static void
gdl_encode_action(const Game *game, const GameState *state, GameMove move, int role, JsonOut *out)
{
	GdlRules   *r = rules_of(game);
	int			input = r->net->role_inputs[role] + ((move >> r->shift[role]) & r->mask[role]);

	term_encode_json(r->terms, r->net->input_terms[input], out);
}

/*
 * The board of a GDL game.  Games that lay pieces on a grid describe it
 * with facts (R X Y V...): a relation of three or more arguments whose
 * first two are symbols, the coordinates, and the rest what stands there.
 * Of the facts that can ever hold, the relation with the most such facts
 * (the same in every state of the game) is drawn as a grid, X across, Y
 * down from its largest value (so that rank 1 of a chess-like board, or the
 * bottom row of connect four, is at the bottom), every coordinate that any
 * fact of the game can take shown, empty cells as '.'; the other facts are
 * listed under it.  A game without such a relation, or a state with two
 * facts on one cell, is listed fact by fact.
 */
#define GRID_MAX_SIDE 32		/* a larger "grid" is not a board: list it */

typedef struct GridAxis
{
	SymbolId	values[GRID_MAX_SIDE];
	int			n;
} GridAxis;

/* Whether fact is (R X Y V...) with symbols X and Y. */
static bool
grid_fact(const TermStore *ts, TermId fact)
{
	const TermNode *n = term_node(ts, fact);

	return n->kind == TERM_FUNCTION && n->nargs >= 3 &&
		term_node(ts, term_arg(ts, fact, 0))->kind == TERM_SYMBOL &&
		term_node(ts, term_arg(ts, fact, 1))->kind == TERM_SYMBOL;
}

/* Adds a coordinate; false when the axis is full. */
static bool
axis_add(GridAxis *axis, SymbolId sym)
{
	for (int i = 0; i < axis->n; i++)
		if (axis->values[i] == sym)
			return true;
	if (axis->n == GRID_MAX_SIDE)
		return false;
	axis->values[axis->n++] = sym;
	return true;
}

/* What stands on the cell of a grid fact: its arguments after the coordinates. */
static void
append_cell(const TermStore *ts, TermId fact, StringInfo out)
{
	for (int i = 2; i < term_node(ts, fact)->nargs; i++)
	{
		if (i > 2)
			appendStringInfoChar(out, ' ');
		term_append_text(ts, term_arg(ts, fact, i), out);
	}
}

/* The width of what stands on the cell of a grid fact. */
static int
cell_width(const TermStore *ts, TermId fact)
{
	StringInfoData text;
	int			width;

	initStringInfo(&text);
	append_cell(ts, fact, &text);
	width = text.len;
	pfree(text.data);
	return width;
}

/* Numbers by value, before names, which go alphabetically (a..h): the facts' canonical order. */
static void
axis_sort(const TermStore *ts, GridAxis *axis)
{
	for (int i = 1; i < axis->n; i++)
		for (int j = i; j > 0 && term_compare(ts, ts->symbol_term[axis->values[j - 1]],
											   ts->symbol_term[axis->values[j]]) > 0; j--)
		{
			SymbolId	t = axis->values[j];

			axis->values[j] = axis->values[j - 1];
			axis->values[j - 1] = t;
		}
}

static int
axis_index(const GridAxis *axis, SymbolId sym)
{
	for (int i = 0; i < axis->n; i++)
		if (axis->values[i] == sym)
			return i;
	return -1;
}

/* The facts of the state, one a line (what a game without a grid shows). */
static void
append_facts(const GdlRules *r, const uint64 *words, SymbolId skip, StringInfo out)
{
	for (int w = 0; w < r->nwords; w++)
		for (uint64 bits = words[w]; bits != 0; bits &= bits - 1)
		{
			TermId		fact = r->net->base_terms[w * 64 + pg_rightmost_one_pos64(bits)];

			if (skip >= 0 && grid_fact(r->terms, fact) && term_functor(r->terms, fact) == skip)
				continue;
			term_append_text(r->terms, fact, out);
			appendStringInfoChar(out, '\n');
		}
}

/*
 * Draws the grid of relation rel, or returns false (nothing written) when
 * its coordinates do not make one.
 */
static bool
append_grid(const GdlRules *r, const uint64 *words, SymbolId rel, StringInfo out)
{
	const TermStore *ts = r->terms;
	GridAxis	xs = {0},
				ys = {0};
	TermId	   *cells;
	int			width = 1;
	int			label = 1;

	/* the coordinates any fact of the relation can take, so that empty rows and columns show */
	for (int b = 0; b < r->net->nbase; b++)
	{
		TermId		fact = r->net->base_terms[b];

		if (!grid_fact(ts, fact) || term_functor(ts, fact) != rel)
			continue;
		if (!axis_add(&xs, term_functor(ts, term_arg(ts, fact, 0))) ||
			!axis_add(&ys, term_functor(ts, term_arg(ts, fact, 1))))
			return false;
		width = Max(width, cell_width(ts, fact));
	}
	if (xs.n < 2 || ys.n < 2)
		return false;
	axis_sort(ts, &xs);
	axis_sort(ts, &ys);
	cells = palloc(xs.n * ys.n * sizeof(TermId));
	for (int i = 0; i < xs.n * ys.n; i++)
		cells[i] = NO_TERM;
	for (int w = 0; w < r->nwords; w++)
		for (uint64 bits = words[w]; bits != 0; bits &= bits - 1)
		{
			TermId		fact = r->net->base_terms[w * 64 + pg_rightmost_one_pos64(bits)];
			int			cell;

			if (!grid_fact(ts, fact) || term_functor(ts, fact) != rel)
				continue;
			cell = axis_index(&ys, term_functor(ts, term_arg(ts, fact, 1))) * xs.n +
				axis_index(&xs, term_functor(ts, term_arg(ts, fact, 0)));
			if (cells[cell] != NO_TERM)
			{
				pfree(cells);
				return false;	/* two facts on one cell: not a board */
			}
			cells[cell] = fact;
		}
	for (int y = 0; y < ys.n; y++)
		label = Max(label, (int) strlen(ts->names[ys.values[y]]));
	for (int y = ys.n - 1; y >= 0; y--)
	{
		appendStringInfo(out, "%*s |", label, ts->names[ys.values[y]]);
		for (int x = 0; x < xs.n; x++)
		{
			TermId		v = cells[y * xs.n + x];
			int			start = out->len;

			appendStringInfoChar(out, ' ');
			if (v == NO_TERM)
				appendStringInfoChar(out, '.');
			else
				append_cell(ts, v, out);
			appendStringInfoSpaces(out, width + 1 - (out->len - start));
		}
		while (out->len > 0 && out->data[out->len - 1] == ' ')
			out->data[--out->len] = '\0';
		appendStringInfoChar(out, '\n');
	}
	appendStringInfo(out, "%*s +", label, "");
	for (int i = 0; i < xs.n * (width + 1); i++)
		appendStringInfoChar(out, '-');
	appendStringInfo(out, "\n%*s  ", label, "");
	for (int x = 0; x < xs.n; x++)
		appendStringInfo(out, " %-*s", width, ts->names[xs.values[x]]);
	while (out->data[out->len - 1] == ' ')
		out->data[--out->len] = '\0';
	appendStringInfo(out, "\n(%s x y ...): x across, y up\n", ts->names[rel]);
	pfree(cells);
	return true;
}

static char *
gdl_board(const Game *game, const GameState *state)
{
	GdlRules   *r = rules_of(game);
	const TermStore *ts = r->terms;
	const uint64 *words = (const uint64 *) state->data;
	int		   *count = palloc0(ts->nsymbols * sizeof(int));
	SymbolId	rel = -1;
	StringInfoData out;

	/* the relation of the most (R X Y V...) facts that can hold */
	for (int b = 0; b < r->net->nbase; b++)
	{
		TermId		fact = r->net->base_terms[b];

		if (grid_fact(ts, fact) && ++count[term_functor(ts, fact)] > (rel < 0 ? 0 : count[rel]))
			rel = term_functor(ts, fact);
	}
	pfree(count);
	initStringInfo(&out);
	if (rel >= 0 && append_grid(r, words, rel, &out))
		append_facts(r, words, rel, &out);
	else
	{
		resetStringInfo(&out);
		append_facts(r, words, -1, &out);
	}
	return out.data;
}

/* A copy of n bytes in the current context. */
static void *
keep(const void *data, Size n)
{
	void	   *copy = palloc_extended(Max(n, 1), MCXT_ALLOC_HUGE);

	memcpy(copy, data, n);
	return copy;
}

/* The network's arrays and terms, copied out of the grounding's memory. */
static Propnet *
keep_network(const Propnet *net, const TermStore *from, TermStore *to)
{
	Propnet    *k = keep(net, sizeof(Propnet));

	k->role_inputs = keep(net->role_inputs, (net->nroles + 1) * sizeof(int32));
	k->rule_start = keep(net->rule_start, (net->nnodes + 1) * sizeof(int32));
	k->literal_start = keep(net->literal_start, (net->nrules + 1) * sizeof(int32));
	k->literals = keep(net->literals, net->literal_start[net->nrules] * sizeof(int32));
	k->input_legal = keep(net->input_legal, net->ninputs * sizeof(int32));
	k->base_next = keep(net->base_next, net->nbase * sizeof(int32));
	k->goals = keep(net->goals, net->ngoals * sizeof(NetGoal));
	k->order = keep(net->order, net->norder * sizeof(int32));
	k->group_start = keep(net->group_start, (net->ngroups + 1) * sizeof(int32));
	k->group_nodes = keep(net->group_nodes, net->group_start[net->ngroups] * sizeof(int32));
	k->initial = keep(net->initial, net->nbase * sizeof(bool));
	k->base_terms = palloc(Max(1, net->nbase) * sizeof(TermId));
	for (int i = 0; i < net->nbase; i++)
	{
		CHECK_FOR_INTERRUPTS();
		k->base_terms[i] = term_copy(to, from, net->base_terms[i]);
	}
	k->input_terms = palloc(Max(1, net->ninputs) * sizeof(TermId));
	for (int i = 0; i < net->ninputs; i++)
		k->input_terms[i] = term_copy(to, from, net->input_terms[i]);
	return k;
}

/* The roles in GGP order: the (role name) facts as written. */
static TermId *
role_terms(const Grounding *g, int *nroles)
{
	const Program *p = g->program;
	const Tuples *t = &g->tuples[p->rel_role];
	TermId	   *roles = palloc(Max(1, t->n) * sizeof(TermId));

	if (t->n > GT_MAX_ROLES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\" has %d roles, more than %d", p->game, t->n, GT_MAX_ROLES)));
	for (int i = 0; i < t->n; i++)
	{
		roles[i] = term_arg(g->terms, t->atoms[i], 0);
		if (term_node(g->terms, roles[i])->kind != TERM_SYMBOL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("game \"%s\": the role %s is not a name", p->game,
							term_text(g->terms, roles[i]))));
	}
	*nroles = t->n;
	return roles;
}

/*
 * A state goes in and out of SQL as a JSON array of facts, which
 * gt_decode_state takes up to GT_MAX_STATE_FACTS of: a game whose initial
 * state has more (its control fact counted) would load, and then every
 * call of it would fail.  Refused here, so that what loads can be played.
 */
static void
check_initial_size(const Game *game)
{
	GdlRules   *r = rules_of(game);
	GameState  *state = gt_state_alloc(game);
	int			nfacts = 0;

	gdl_initial(game, state);
	for (int w = 0; w < r->nwords; w++)
		nfacts += gt_popcount64(((const uint64 *) state->data)[w]);
	/* the control fact the encoder adds matters at the limit alone */
	if (nfacts == GT_MAX_STATE_FACTS && !r->has_control && gdl_control(game, state) != GT_NO_ROLE)
		nfacts++;
	if (nfacts > GT_MAX_STATE_FACTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": its initial state has %d facts, more than the %d a state may have",
						game->name, nfacts, GT_MAX_STATE_FACTS),
				 errhint("States are passed to and from SQL as JSON arrays of at most %d facts.",
						 GT_MAX_STATE_FACTS)));
	pfree(state);
}

static const Game gdl_template = {
	.initial = gdl_initial,
	.legal = gdl_legal,
	.next = gdl_next,
	.terminal = gdl_terminal,
	.goals = gdl_goals,
	.random_move = gdl_random_move,
	.control = gdl_control,
	.perft = gdl_perft,
	.pack = gdl_pack,
	.unpack = gdl_unpack,
	.encode_state = gdl_encode_state,
	.decode_state = gdl_decode_state,
	.encode_action = gdl_encode_action,
	.board = gdl_board,
};

/*
 * The game of a network (or of the prover) whose facts and actions are
 * terms of terms, in the current memory context.
 */
static const Game *
game_of_network(const char *name, Propnet *net, TermStore *terms, char **role_names, int nroles,
				Size memory_limit, GdlStats *stats)
{
	GdlRules   *r = palloc0(sizeof(GdlRules));
	Game	   *game;
	int			bits = 0;
	int64		joint = 1;
	SymbolId	control,
				noop;

	r->terms = terms;
	r->net = net;
	for (int i = 0; i < nroles; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(role_names[i], role_names[j]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
						 errmsg("game \"%s\" names the role %s twice", name, role_names[i])));

	r->term_base = palloc(Max(1, r->terms->nterms) * sizeof(int32));
	memset(r->term_base, 0xff, Max(1, r->terms->nterms) * sizeof(int32));
	control = term_symbol_lookup(r->terms, "control", 7);
	for (int i = 0; i < net->nbase; i++)
	{
		r->term_base[net->base_terms[i]] = i;
		if (term_functor(r->terms, net->base_terms[i]) == control)
			r->has_control = true;
	}
	r->nwords = Max(1, (net->nbase + 63) / 64);
	r->legal_in_row = net->ninputs > 0;
	for (int i = 0; i < net->ninputs && r->legal_in_row; i++)
		r->legal_in_row = net->input_legal[0] >= 0 && net->input_legal[i] == net->input_legal[0] + i;
	r->shift = palloc(nroles * sizeof(uint8));
	r->mask = palloc(nroles * sizeof(uint64));
	r->noop = palloc(nroles * sizeof(int32));
	r->legal = palloc(nroles * sizeof(int32 *));
	r->nlegal = palloc(nroles * sizeof(int));
	noop = term_symbol_lookup(r->terms, "noop", 4);
	for (int role = 0; role < nroles; role++)
	{
		int			count = net->role_inputs[role + 1] - net->role_inputs[role];
		int			width = count <= 1 ? 0 : pg_leftmost_one_pos32(count - 1) + 1;

		r->shift[role] = bits;
		r->mask[role] = (UINT64CONST(1) << width) - 1;
		bits += width;
		joint *= Max(count, 1);
		joint = Min(joint, GDL_MAX_JOINT_MOVES + 1);
		r->noop[role] = -1;
		for (int i = net->role_inputs[role]; i < net->role_inputs[role + 1]; i++)
			if (noop >= 0 && net->input_terms[i] == r->terms->symbol_term[noop])
				r->noop[role] = i;
		r->legal[role] = palloc(Max(1, count) * sizeof(int32));
	}
	if (bits > 63)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": its roles' actions need %d bits to code a joint move, more than 63",
						name, bits)));
	if (net->prover != NULL)
	{
		r->cached = palloc(r->nwords * sizeof(uint64));
		r->truth = r->values = palloc0(Max(1, net->nnodes));
	}
	else
	{
		r->forward = forward_create(net);
		r->truth = forward_values(r->forward);
		/* the evaluation without costly literals beside the whole one, both within the limit */
		r->lazy_room = memory_limit - Min(memory_limit, forward_size(net));
		r->phases_done = ((1 << NUM_PHASES) - 1) & ~(1 << PHASE_GOAL);
	}

	game = palloc(sizeof(Game));
	*game = gdl_template;
	game->name = pstrdup(name);
	game->description = psprintf("loaded from GDL: %d roles, %d facts, %d actions", nroles,
								 net->nbase, net->ninputs);
	game->nroles = nroles;
	game->roles = (const char *const *) role_names;
	game->state_bytes = r->nwords * sizeof(uint64);
	game->packed_bytes = LAYOUT_BYTES + (net->nbase + 7) / 8;
	game->max_moves = (int) Min(joint, GDL_MAX_JOINT_MOVES);
	game->rules = r;
	r->layout = layout_fingerprint(r);
	check_initial_size(game);
	if (stats != NULL)
	{
		stats->facts = net->nbase;
		stats->actions = net->ninputs;
		stats->rules = net->nrules;
		stats->nodes = net->nnodes;
		stats->prover = net->prover != NULL;
	}
	return game;
}

const Game *
gdl_compile(const char *name, const char *kif, GdlEngine engine, Size memory_limit,
			TimestampTz network_deadline, GdlStats *stats)
{
	MemoryContext game_cxt = CurrentMemoryContext;
	MemoryContext work = AllocSetContextCreate(game_cxt, "gametree GDL grounding",
											   ALLOCSET_DEFAULT_SIZES);
	Program    *p;
	Grounding  *g;
	Propnet    *net = NULL;
	TermId	   *roles = NULL;
	int			nroles = 0;
	TermStore  *terms;
	char	  **role_names;
	const Game *game;
	Size		used;
	GtClock		clock;
	bool		timed = engine == GDL_ENGINE_AUTO && network_deadline != 0;
	bool		late;

	MemoryContextSwitchTo(work);
	p = program_build(name, kif);
	/* the clock stops before the prover is compiled, which it would make give up */
	if (timed)
		gt_clock_start(&clock, network_deadline);
	g = engine == GDL_ENGINE_PROVER ? NULL :
		ground_program(p, engine == GDL_ENGINE_NETWORK ? memory_limit : memory_limit / GDL_NETWORK_SHARE, true,
					   timed ? &clock : NULL);
	if (g != NULL && !g->over_budget)
	{
		roles = role_terms(g, &nroles);
		net = propnet_build(g, roles, nroles);
		/* the network is built beside its grounding, and evaluated with counters as large: all count */
		used = MemoryContextMemAllocated(work, true);
		if (net != NULL)
			g->over_budget = used > memory_limit || !forward_fits(net, memory_limit - used);
	}
	if (timed)
		gt_clock_stop();
	late = g != NULL && g->over_time;
	if (g != NULL && g->over_budget && engine == GDL_ENGINE_NETWORK)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("game \"%s\": its network needs more than gametree.gdl_memory (%zu kB)",
						name, memory_limit / 1024),
				 errhint("It was loaded with a larger gametree.gdl_memory: raise the setting.")));
	if (g != NULL && !g->over_budget)
		MemoryContextSwitchTo(game_cxt);
	else
	{
		/* too large a network, or too slow to build: the prover, which the game keeps with its grounding */
		MemoryContextSwitchTo(game_cxt);
		MemoryContextDelete(work);
		work = NULL;
		p = program_build(name, kif);
		g = ground_program(p, memory_limit, false, NULL);
		roles = role_terms(g, &nroles);
		net = propnet_outputs(g, roles, nroles);
		net->prover = prover_create(g, net, roles);
	}

	terms = term_store_create();
	net = keep_network(net, g->terms, terms);
	role_names = palloc(nroles * sizeof(char *));
	for (int i = 0; i < nroles; i++)
		role_names[i] = pstrdup(g->terms->names[term_functor(g->terms, roles[i])]);
	if (work != NULL)
		MemoryContextDelete(work);
	game = game_of_network(name, net, terms, role_names, nroles, memory_limit, stats);
	if (stats != NULL)
		stats->network_late = late;
	return game;
}

bytea *
gdl_network_bytes(const Game *game)
{
	const GdlRules *r = rules_of(game);

	if (r->forward == NULL)
		return NULL;
	return network_store_write(r->net, r->terms, game->roles, game->nroles);
}

static void
stored_network_context(void *arg)
{
	errcontext("reading the stored network of game \"%s\"", (const char *) arg);
}

const Game *
gdl_compile_stored(const char *name, const bytea *network, Size memory_limit, const char **why,
				   bool *damaged)
{
	MemoryContext game_cxt = CurrentMemoryContext;
	MemoryContext work = AllocSetContextCreate(game_cxt, "gametree GDL stored network",
											   ALLOCSET_DEFAULT_SIZES);
	ErrorContextCallback context = {.previous = error_context_stack,
	.callback = stored_network_context,.arg = (void *) name};
	TermStore  *terms;
	Propnet    *net = NULL;
	char	  **roles = NULL;
	int			nroles = 0;
	StoredNetwork read;

	MemoryContextSwitchTo(work);
	error_context_stack = &context;
	terms = term_store_create();
	read = network_store_read(network, terms, &net, &roles, &nroles, why);
	error_context_stack = context.previous;
	MemoryContextSwitchTo(game_cxt);
	if (read == STORED_NETWORK_READ && !forward_fits(net, memory_limit))
	{
		read = STORED_NETWORK_OTHER_FORMAT;
		*why = "it needs more than gametree.gdl_memory";
	}
	*damaged = read == STORED_NETWORK_DAMAGED;
	if (read != STORED_NETWORK_READ)
	{
		MemoryContextDelete(work);
		return NULL;
	}
	/* the network stays in its context, a child of the game's */
	return game_of_network(name, net, terms, roles, nroles, memory_limit, NULL);
}

