/*
 * game.c: the game registry and the generic edge-format code shared by all
 * games (state and move decoding, goals, hashing).
 */
#include "postgres.h"

#include "core/game.h"
#include "core/compact.h"
#include "core/jsonfacts.h"
#include <math.h>

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

/*
 * Fixed arrays: registration happens in _PG_init, before any allocation a
 * transaction could free, and there are few games and fewer sources.
 */
#define MAX_GAMES 32
#define MAX_SOURCES 4

static const Game *games[MAX_GAMES];
static int	ngames;
static const GameSource *sources[MAX_SOURCES];
static int	nsources;

void
gt_register_game(const Game *game)
{
	if (ngames == MAX_GAMES)
		elog(ERROR, "more than %d compiled-in games", MAX_GAMES);
	for (int i = 0; i < ngames; i++)
		if (strcmp(games[i]->name, game->name) == 0)
			elog(ERROR, "game \"%s\" registered twice", game->name);
	if (game->pack == NULL || game->unpack == NULL)
		elog(ERROR, "game \"%s\" has no storage format (Game.pack, Game.unpack)", game->name);
	if (game->init != NULL)
		game->init();
	games[ngames++] = game;
}

void
gt_register_game_source(const GameSource *source)
{
	if (nsources == MAX_SOURCES)
		elog(ERROR, "more than %d game sources", MAX_SOURCES);
	sources[nsources++] = source;
}

int
gt_game_count(void)
{
	return ngames;
}

const Game *
gt_game_at(int i)
{
	return games[i];
}

bool
gt_game_is_builtin(const Game *game)
{
	for (int i = 0; i < gt_game_count(); i++)
		if (gt_game_at(i) == game)
			return true;
	return false;
}

const Game *
gt_find_game(const char *name)
{
	for (int i = 0; i < gt_game_count(); i++)
		if (strcmp(gt_game_at(i)->name, name) == 0)
			return gt_game_at(i);
	for (int i = 0; i < nsources; i++)
	{
		const Game *game = sources[i]->find(name);

		if (game != NULL)
			return game;
	}
	return NULL;
}

const Game *
gt_find_game_by_number(int32 number)
{
	for (int i = 0; i < gt_game_count(); i++)
		if (gt_game_number(gt_game_at(i)->name) == number)
			return gt_game_at(i);
	for (int i = 0; i < nsources; i++)
	{
		const Game *game = sources[i]->find_number(number);

		if (game != NULL)
			return game;
	}
	return NULL;
}

void
gt_list_source_games(Tuplestorestate *result, TupleDesc desc)
{
	for (int i = 0; i < nsources; i++)
		sources[i]->list(result, desc);
}

const Game *
gt_game_from_text(text *name)
{
	char	   *cname = text_to_cstring(name);
	const Game *game = gt_find_game(cname);

	if (game == NULL)
	{
		StringInfoData known;

		initStringInfo(&known);
		for (int i = 0; i < gt_game_count(); i++)
			appendStringInfo(&known, "%s%s", i ? ", " : "", gt_game_at(i)->name);
		for (int i = 0; i < nsources; i++)
		{
			char	   *loaded = sources[i]->names();

			if (loaded[0] != '\0')
				appendStringInfo(&known, "; %s: %s", sources[i]->label, loaded);
		}
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown game \"%s\"", gt_abbreviate(cname)),
				 errhint("Known games: %s. SELECT * FROM gametree.games() lists them.",
						 known.data)));
	}
	return game;
}

/* Longest value quoted in a message, in bytes. */
#define MESSAGE_VALUE_MAX 100

const char *
gt_abbreviate(const char *value)
{
	int			len = strlen(value);

	if (len <= MESSAGE_VALUE_MAX)
		return value;
	return psprintf("%.*s...", pg_mbcliplen(value, len, MESSAGE_VALUE_MAX), value);
}

/*
 * The one report of a state that cannot be read: malformed JSON (22P02, with
 * a hint at the format) or a position that no game reaches (22023).
 */
static void state_error(const Game *game, int sqlstate, const char *problem) pg_attribute_noreturn();

static void
state_error(const Game *game, int sqlstate, const char *problem)
{
	bool		malformed = sqlstate == ERRCODE_INVALID_TEXT_REPRESENTATION;

	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("invalid %s state: %s", game->name, problem),
			 malformed ? errhint("A state is a JSON array of facts such as [[\"control\", \"%s\"], ...]; "
								 "gametree.initial('%s') shows one.",
								 game->roles[0], game->name) : 0));
	pg_unreachable();
}

void
gt_invalid_state(const Game *game, const char *fmt,...)
{
	char		problem[512];
	va_list		args;

	va_start(args, fmt);
	vsnprintf(problem, sizeof(problem), fmt, args);
	va_end(args);
	state_error(game, ERRCODE_INVALID_PARAMETER_VALUE, problem);
}

void
gt_check_control(const Game *game, int given, int expected)
{
	if (expected == GT_NO_ROLE && given != GT_NO_ROLE)
		gt_invalid_state(game, "play has ended, but control is given to %s", game->roles[given]);
	if (expected != GT_NO_ROLE && given == GT_NO_ROLE)
		gt_invalid_state(game, "the control fact is missing (%s is to move)", game->roles[expected]);
	if (given != expected)
		gt_invalid_state(game, "control is given to %s, but %s is to move", game->roles[given],
						 game->roles[expected]);
}

GameState *
gt_state_alloc(const Game *game)
{
	return palloc0(offsetof(GameState, data) + game->state_bytes);
}

void
gt_state_copy(GameState *dst, const GameState *src)
{
	memcpy(dst, src, offsetof(GameState, data) + src->size);
}

GameState *
gt_decode_state(const Game *game, Jsonb *state)
{
	JsonbContainer *root = &state->root;
	int			nfacts;
	Fact	   *facts;
	GameState  *out;

	if (JB_ROOT_IS_SCALAR(state) || !JB_ROOT_IS_ARRAY(state))
		state_error(game, ERRCODE_INVALID_TEXT_REPRESENTATION, "not a JSON array");
	nfacts = JsonContainerSize(root);
	/* Checked before the allocation, which a huge array would overflow. */
	if (nfacts > GT_MAX_STATE_FACTS)
		gt_invalid_state(game, "%d facts, more than any position has (%d)", nfacts,
						 GT_MAX_STATE_FACTS);
	facts = palloc(Max(nfacts, 1) * sizeof(Fact));
	for (int i = 0; i < nfacts; i++)
	{
		JsonbValue *elem = getIthJsonbValueFromContainer(root, i);
		JsonbContainer *fc;
		JsonbValue *rel;
		Fact	   *f = &facts[i];

		if (elem->type != jbvBinary || !JsonContainerIsArray(elem->val.binary.data) ||
			JsonContainerSize(elem->val.binary.data) == 0)
			state_error(game, ERRCODE_INVALID_TEXT_REPRESENTATION,
						psprintf("element %d is not a fact (a non-empty JSON array)", i + 1));
		fc = elem->val.binary.data;
		rel = getIthJsonbValueFromContainer(fc, 0);
		if (rel->type != jbvString)
			state_error(game, ERRCODE_INVALID_TEXT_REPRESENTATION,
						psprintf("fact %d does not start with a relation name (a string)", i + 1));
		f->game = game;
		f->position = i + 1;
		f->relation = json_cstring(rel);
		f->nargs = JsonContainerSize(fc) - 1;
		if (f->nargs > GT_MAX_FACT_ARGS)
			state_error(game, ERRCODE_INVALID_TEXT_REPRESENTATION,
						psprintf("fact %d has more than %d arguments", i + 1, GT_MAX_FACT_ARGS));
		for (int a = 0; a < f->nargs; a++)
			f->args[a] = *getIthJsonbValueFromContainer(fc, a + 1);
	}
	out = gt_state_alloc(game);
	game->decode_state(game, facts, nfacts, out);
	return out;
}

Jsonb *
gt_encode_state(const Game *game, const GameState *state)
{
	JsonOut		out = {0};

	jo_begin_array(&out);
	game->encode_state(game, state, &out);
	jo_end_array(&out);
	return jo_result(&out);
}

static void
encode_joint_move(const Game *game, const GameState *state, GameMove move, JsonOut *out)
{
	int			mover = game->control(game, state);

	jo_begin_array(out);
	for (int r = 0; r < game->nroles; r++)
	{
		jo_begin_array(out);
		jo_string(out, "does");
		jo_string(out, game->roles[r]);
		if (mover != GT_NO_ROLE && r != mover)
			jo_string(out, "noop");
		else
			game->encode_action(game, state, move, r, out);
		jo_end_array(out);
	}
	jo_end_array(out);
}

Jsonb *
gt_encode_move(const Game *game, const GameState *state, GameMove move)
{
	JsonOut		out = {0};

	encode_joint_move(game, state, move, &out);
	return jo_result(&out);
}

/* Encodes the mover's action alone, for matching a bare action. */
static Jsonb *
encode_action(const Game *game, const GameState *state, GameMove move, int role)
{
	JsonOut		out = {0};

	/* A bare action is wrapped in an array so nested actions close it. */
	jo_begin_array(&out);
	game->encode_action(game, state, move, role, &out);
	jo_end_array(&out);
	return jo_result(&out);
}

char *
gt_move_notation(const Game *game, const GameState *state, GameMove move)
{
	int			mover;
	Jsonb	   *action;

	if (game->notation != NULL)
		return game->notation(game, state, move);
	mover = game->control(game, state);
	if (mover == GT_NO_ROLE)
	{
		Jsonb	   *joint = gt_encode_move(game, state, move);

		return JsonbToCString(NULL, &joint->root, VARSIZE(joint));
	}
	/* the action alone: element 0 of its wrapping array */
	action = JsonbValueToJsonb(getIthJsonbValueFromContainer(&encode_action(game, state, move, mover)->root, 0));
	return JsonbToCString(NULL, &action->root, VARSIZE(action));
}

static bool
jsonb_value_equals(const JsonbValue *v, Jsonb *wrapped)
{
	JsonbValue *inner = getIthJsonbValueFromContainer(&wrapped->root, 0);
	JsonbValue	a = *v;
	Jsonb	   *ja,
			   *jb;

	if (a.type == jbvBinary)
		return inner->type == jbvBinary &&
			compareJsonbContainers(a.val.binary.data, inner->val.binary.data) == 0;
	if (inner->type == jbvBinary)
		return false;
	ja = JsonbValueToJsonb(&a);
	jb = JsonbValueToJsonb(inner);
	return compareJsonbContainers(&ja->root, &jb->root) == 0;
}

static void
illegal_move(const Game *game, Jsonb *move, const char *problem)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("illegal %s move %s: %s", game->name,
					gt_abbreviate(JsonbToCString(NULL, &move->root, VARSIZE(move))), problem),
			 errhint("SELECT gametree.legal('%s', state) lists the legal joint moves.",
					 game->name)));
}

/*
 * The action of role r in a joint move [["does", role, action], ...], or NULL
 * when move is not shaped as a joint move at all.
 */
static JsonbValue *
joint_move_action(const Game *game, Jsonb *move, int r)
{
	JsonbContainer *root = &move->root;
	JsonbValue *does;
	JsonbContainer *dc;
	JsonbValue *head;
	static const char *const does_word[] = {"does"};

	if (JB_ROOT_IS_SCALAR(move) || !JB_ROOT_IS_ARRAY(move))
		return NULL;
	if (JsonContainerSize(root) != (uint32) game->nroles)
		return NULL;
	does = getIthJsonbValueFromContainer(root, r);
	if (does->type != jbvBinary || !JsonContainerIsArray(does->val.binary.data))
		return NULL;
	dc = does->val.binary.data;
	if (JsonContainerSize(dc) != 3)
		return NULL;
	head = getIthJsonbValueFromContainer(dc, 0);
	if (json_string_choice(head, does_word, 1) != 0)
		return NULL;
	if (json_string_choice(getIthJsonbValueFromContainer(dc, 1), &game->roles[r], 1) != 0)
		illegal_move(game, move, psprintf("entry %d must be the move of role \"%s\"",
										  r + 1, game->roles[r]));
	return getIthJsonbValueFromContainer(dc, 2);
}

/*
 * Decodes a joint move, or the bare action of the role in control, among the
 * legal moves of state.  Games may accept further notations through
 * parse_action (UCI for chess, PDN for checkers).
 */
GameMove
gt_decode_move(const Game *game, const GameState *state, Jsonb *move)
{
	GameMove   *legal = palloc(game->max_moves * sizeof(GameMove));
	int			nlegal = game->legal(game, state, legal);
	int			mover = game->control(game, state);
	JsonbValue *action;
	JsonbValue	bare;
	static const char *const noop_word[] = {"noop"};

	if (nlegal == 0)
		illegal_move(game, move, "the state is terminal");

	if (joint_move_action(game, move, 0) != NULL)
	{
		if (mover == GT_NO_ROLE)
		{
			/* Simultaneous moves: the whole joint move must match. */
			for (int i = 0; i < nlegal; i++)
				if (compareJsonbContainers(&move->root,
										   &gt_encode_move(game, state, legal[i])->root) == 0)
					return legal[i];
			illegal_move(game, move, "not a legal joint move of the state");
		}
		for (int r = 0; r < game->nroles; r++)
		{
			JsonbValue *a = joint_move_action(game, move, r);

			if (a == NULL)
				illegal_move(game, move, "not a joint move [[\"does\", role, action], ...]");
			if (r != mover && json_string_choice(a, noop_word, 1) != 0)
				illegal_move(game, move, psprintf("role \"%s\" is not in control and must do \"noop\"",
												  game->roles[r]));
		}
		action = joint_move_action(game, move, mover);
	}
	else
	{
		if (mover == GT_NO_ROLE)
			illegal_move(game, move, "moves are simultaneous here, so a joint move is needed");
		gt_jsonb_root(move, &bare);
		action = &bare;
	}

	for (int i = 0; i < nlegal; i++)
		if (jsonb_value_equals(action, encode_action(game, state, legal[i], mover)))
			return legal[i];
	if (game->parse_action != NULL)
	{
		GameMove	parsed;

		if (game->parse_action(game, state, action, &parsed))
			for (int i = 0; i < nlegal; i++)
				if (legal[i] == parsed)
					return parsed;
	}
	illegal_move(game, move, psprintf("not a legal action of role \"%s\"", game->roles[mover]));
	pg_unreachable();
}

/* Rounds to hundredths: estimates need no more, and equal values stay equal. */
static Numeric
role_value_numeric(double value)
{
	int64		hundredths = (int64) rint(value * GT_HUNDREDTHS);

	if (hundredths % GT_HUNDREDTHS == 0)
		return gt_int_numeric(hundredths / GT_HUNDREDTHS);
	return int64_div_fast_to_numeric(hundredths, 2);
}

Jsonb *
gt_encode_role_values(const Game *game, const double *values, const bool *known)
{
	JsonbParseState *parse = NULL;
	JsonbValue *result;

	pushJsonbValue(&parse, WJB_BEGIN_OBJECT, NULL);
	for (int r = 0; r < game->nroles; r++)
	{
		JsonbValue	k,
					v;

		k.type = jbvString;
		k.val.string.val = (char *) game->roles[r];
		k.val.string.len = strlen(game->roles[r]);
		if (known != NULL && !known[r])
			v.type = jbvNull;
		else
		{
			v.type = jbvNumeric;
			v.val.numeric = role_value_numeric(values[r]);
		}
		pushJsonbValue(&parse, WJB_KEY, &k);
		pushJsonbValue(&parse, WJB_VALUE, &v);
	}
	result = pushJsonbValue(&parse, WJB_END_OBJECT, NULL);
	return JsonbValueToJsonb(result);
}

Jsonb *
gt_encode_goals(const Game *game, const GameState *state)
{
	int			goals[GT_MAX_ROLES];
	double		values[GT_MAX_ROLES];

	game->goals(game, state, goals);
	for (int r = 0; r < game->nroles; r++)
		values[r] = goals[r];
	return gt_encode_role_values(game, values, NULL);
}

/* splitmix64's finaliser: a strong, portable 64-bit mixer. */
static inline uint64
mix64(uint64 x)
{
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

uint64
gt_hash_words(const uint64 *words, int nwords)
{
	uint64		h = UINT64CONST(0x9e3779b97f4a7c15) ^ (uint64) nwords;

	for (int i = 0; i < nwords; i++)
		h = mix64(h ^ mix64(words[i] + (uint64) i));
	return h;
}

uint64
gt_hash_bytes(const uint8 *bytes, Size len)
{
	uint64		h = UINT64CONST(0x9e3779b97f4a7c15) ^ (uint64) len;

	for (Size i = 0; i < len; i += 8)
	{
		uint64		w = 0;

		/* Assemble little-endian by value so every machine agrees. */
		for (Size b = i; b < len && b < i + 8; b++)
			w |= (uint64) bytes[b] << (8 * (b - i));
		h = mix64(h ^ mix64(w + (uint64) i));
	}
	return h;
}

int
gt_mover(const Game *game, const GameState *state)
{
	return game->mover != NULL ? game->mover(game, state) : game->control(game, state);
}

Jsonb *
gt_encode_heuristic(const Game *game, const GameState *state)
{
	double		values[GT_MAX_ROLES];

	if (game->heuristic == NULL || game->terminal(game, state))
		return NULL;
	game->heuristic(game, state, values);
	return gt_encode_role_values(game, values, NULL);
}

uint64
gt_state_hash(const Game *game, const GameState *state)
{
	if (game->hash != NULL)
		return game->hash(game, state);
	return gt_hash_bytes(state->data, state->size);
}

int64
gt_interval_usecs(const Interval *span)
{
	double		usecs = span->time + (double) span->day * USECS_PER_DAY +
		(double) span->month * DAYS_PER_MONTH * USECS_PER_DAY;

	return (int64) Max(Min(usecs, (double) PG_INT64_MAX / 2), (double) PG_INT64_MIN / 2);
}
