/*
 * harness.c: a libFuzzer target over gametree's decoders, linked with the
 * extension's own objects and pg_stubs.c (see README.md).
 *
 * An input is text:
 *   line 1    the game (the first whose name it contains); with "fen" in
 *             it, line 2 is in the game's FEN
 *   line 2    the state: JSON facts (gt_decode_state, then the game's
 *             decode_state) or FEN (the game's from_fen)
 *   the rest  optional: a move in JSON, decoded in that state
 *             (gt_decode_move, and so the game's parse_action)
 * The input ends at its first NUL, as SQL text does.  But with "packed" in
 * line 1, every byte after it (NULs too) is a packing of the game's
 * storage format, read by the game's unpack.
 *
 * A rejection (an ERROR with a SQLSTATE) is a normal outcome, counted by
 * SQLSTATE.  Findings abort, so that libFuzzer keeps the input: sanitizer
 * reports, internal errors (XX000, see pg_stubs.c), and broken promises
 * about an accepted state or move:
 *   - its canonical JSON decodes to the same state, and so does its FEN;
 *   - it packs (Game.pack) to at most packed_bytes bytes, which unpack to
 *     the same state;
 *   - the joint move gt_encode_move writes for it decodes to the same move;
 *   - the rules accept it as game.h says (check_rules);
 *   - the state after an accepted move passes the same checks.
 * A packing that unpack accepts must pack again to the same bytes, pass
 * the rules' checks, and, when its JSON decodes (a position play reaches),
 * decode to the same state.
 */
#include "postgres.h"

#include <ctype.h>

#include "core/game.h"
#include "games/games.h"
#include "lib/stringinfo.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "pg_stubs.h"

int			LLVMFuzzerInitialize(int *argc, char ***argv);
int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

#define MAX_DEPTH 64			/* JSON nesting; far beyond any fact or move */
#define MAX_EXPONENT 1000		/* of JSON numbers: keeps their text short */
#define MAX_CODES 32

static struct
{
	long		inputs;
	long		unparsed;
	long		accepted;
	int			ncodes;
	struct
	{
		char		sqlstate[6];
		long		count;
	}			rejected[MAX_CODES];
} stats;

/* GT_FUZZ_VERBOSE set: print each input as read, and its rejection. */
static bool verbose;

/*
 * Extra coverage for libFuzzer: a counter per number of legal moves, so
 * that an input reaching a number not seen before is kept.  The fuzzer so
 * works towards crowded positions, which test the move buffers sized by
 * max_moves.
 */
#define MOVE_COUNTS 1024
static uint8 move_counts[MOVE_COUNTS] __attribute__((used, section("__libfuzzer_extra_counters")));

/* Set while a step runs that must not fail; an ERROR then is a finding. */
static const char *must_succeed;

/*
 * ---- text to jsonb ----
 *
 * PostgreSQL's jsonb_in is not linked.  This reader is forgiving, so that
 * nearly every input reaches the decoders: a character that starts no
 * value is skipped (commas and colons too), containers left open close at
 * the end of the text, and what follows the first value is ignored.  What
 * it reads is still a jsonb value that SQL could pass (no NUL in strings:
 * the input ends at its first NUL), and findings print it.
 */

typedef struct Reader
{
	const char *p;
	int			depth;
} Reader;

static bool read_value(Reader *r, JsonbValue *v);

static void
append_utf8(StringInfo s, unsigned cp)
{
	if (cp < 0x80)
		appendStringInfoChar(s, cp);
	else if (cp < 0x800)
	{
		appendStringInfoChar(s, 0xC0 | cp >> 6);
		appendStringInfoChar(s, 0x80 | (cp & 0x3F));
	}
	else
	{
		appendStringInfoChar(s, 0xE0 | cp >> 12);
		appendStringInfoChar(s, 0x80 | (cp >> 6 & 0x3F));
		appendStringInfoChar(s, 0x80 | (cp & 0x3F));
	}
}

/* \u0000 and surrogates are dropped (jsonb refuses \u0000 too). */
static void
read_string(Reader *r, JsonbValue *v)
{
	StringInfoData s;

	initStringInfo(&s);
	r->p++;
	while (*r->p != '\0' && *r->p != '"')
	{
		char		c = *r->p++;

		if (c == '\\' && *r->p == 'u')
		{
			unsigned	cp = 0;

			r->p++;
			for (int i = 0; i < 4 && isxdigit((unsigned char) *r->p); i++, r->p++)
				cp = cp * 16 + (isdigit((unsigned char) *r->p) ? *r->p - '0' : (*r->p | 0x20) - 'a' + 10);
			if (cp != 0 && (cp < 0xD800 || cp > 0xDFFF))
				append_utf8(&s, cp);
			continue;
		}
		if (c == '\\' && *r->p != '\0')
		{
			c = *r->p++;
			if (strchr("bfnrt", c) != NULL)
				c = "\b\f\n\r\t"[strchr("bfnrt", c) - "bfnrt"];
		}
		appendStringInfoChar(&s, c);
	}
	if (*r->p == '"')
		r->p++;
	v->type = jbvString;
	v->val.string.val = s.data;
	v->val.string.len = s.len;
}

/* A number, as plain decimal text for stub_numeric (exponent applied). */
static void
read_number(Reader *r, JsonbValue *v)
{
	StringInfoData digits;
	StringInfoData text;
	bool		negative = (*r->p == '-');
	int			point;
	int			exponent = 0;

	initStringInfo(&digits);
	initStringInfo(&text);
	r->p += negative;
	while (isdigit((unsigned char) *r->p))
		appendStringInfoChar(&digits, *r->p++);
	if (digits.len == 0)
		appendStringInfoChar(&digits, '0');
	point = digits.len;
	if (*r->p == '.')
		for (r->p++; isdigit((unsigned char) *r->p); r->p++)
			appendStringInfoChar(&digits, *r->p);
	if (*r->p == 'e' || *r->p == 'E')
	{
		bool		minus = (*++r->p == '-');

		r->p += (*r->p == '-' || *r->p == '+');
		for (; isdigit((unsigned char) *r->p); r->p++)
			exponent = Min(exponent * 10 + (*r->p - '0'), MAX_EXPONENT);
		point += minus ? -exponent : exponent;
	}
	if (negative)
		appendStringInfoChar(&text, '-');
	if (point <= 0)
	{
		appendStringInfoString(&text, "0.");
		for (int i = point; i < 0; i++)
			appendStringInfoChar(&text, '0');
		appendStringInfoString(&text, digits.data);
	}
	else
		for (int i = 0; i < Max(point, digits.len); i++)
		{
			if (i == point)
				appendStringInfoChar(&text, '.');
			appendStringInfoChar(&text, i < digits.len ? digits.data[i] : '0');
		}
	v->type = jbvNumeric;
	v->val.numeric = stub_numeric(text.data);
}

/*
 * An array, or an object: its values read as an array's and paired up.  A
 * pair whose key is no string is dropped; keys stay in input order, even
 * repeated (jsonb sorts and merges them): the decoders only reject objects.
 */
static void
read_container(Reader *r, JsonbValue *v)
{
	bool		object = (*r->p++ == '{');
	int			n = 0,
				room = 4;
	JsonbValue *elems = palloc(room * sizeof(JsonbValue));

	r->depth++;
	while (read_value(r, &elems[n]))
		if (++n == room)
			elems = repalloc(elems, (room *= 2) * sizeof(JsonbValue));
	if (*r->p != '\0')
		r->p++;					/* the closing bracket, of either kind */
	r->depth--;
	if (object)
	{
		v->type = jbvObject;
		v->val.object.nPairs = 0;
		v->val.object.pairs = palloc0(Max(n / 2, 1) * sizeof(JsonbPair));
		for (int i = 0; i + 1 < n; i += 2)
			if (elems[i].type == jbvString)
			{
				v->val.object.pairs[v->val.object.nPairs].key = elems[i];
				v->val.object.pairs[v->val.object.nPairs++].value = elems[i + 1];
			}
	}
	else
	{
		v->type = jbvArray;
		v->val.array.nElems = n;
		v->val.array.elems = elems;
		v->val.array.rawScalar = false;
	}
}

/* The next value; false at the end of the text or of the open container. */
static bool
read_value(Reader *r, JsonbValue *v)
{
	for (;; r->p++)
	{
		char		c = *r->p;

		if (c == '\0' || c == ']' || c == '}')
			return false;
		if ((c == '[' || c == '{') && r->depth < MAX_DEPTH)
			read_container(r, v);
		else if (c == '"')
			read_string(r, v);
		else if (c == '-' || isdigit((unsigned char) c))
			read_number(r, v);
		else if (strncmp(r->p, "true", 4) == 0 || strncmp(r->p, "false", 5) == 0)
		{
			v->type = jbvBool;
			v->val.boolean = (c == 't');
			r->p += v->val.boolean ? 4 : 5;
		}
		else if (strncmp(r->p, "null", 4) == 0)
		{
			v->type = jbvNull;
			r->p += 4;
		}
		else
			continue;
		return true;
	}
}

/* The jsonb of the first value in text, or NULL when there is none. */
static Jsonb *
read_json(const char *text)
{
	Reader		r = {text, 0};
	JsonbValue	v;

	return read_value(&r, &v) ? JsonbValueToJsonb(&v) : NULL;
}

/* ---- the checks ---- */

/* The input as read, for reports. */
static struct
{
	const Game *game;
	const char *fen;
	Jsonb	   *state;
	Jsonb	   *move;
	const uint8 *packing;		/* with packed_len bytes, or NULL */
	int			packed_len;
} input;

static void
print_input(void)
{
	StringInfoData packing;

	initStringInfo(&packing);
	for (int i = 0; input.packing != NULL && i < input.packed_len; i++)
		appendStringInfo(&packing, "%02x", input.packing[i]);
	fprintf(stderr, "input read: game %s, state %s\n", input.game->name,
			input.packing ? psprintf("packed as '\\x%s'", packing.data) :
			input.fen ? psprintf("FEN \"%s\"", input.fen) :
			JsonbToCString(NULL, &input.state->root, VARSIZE(input.state)));
	if (input.move != NULL)
		fprintf(stderr, "input read: move %s\n",
				JsonbToCString(NULL, &input.move->root, VARSIZE(input.move)));
}

static void
finding(const char *what)
{
	fprintf(stderr, "finding: %s\n", what);
	print_input();
	abort();
}

static bool
same_state(const Game *game, const GameState *a, const GameState *b)
{
	return memcmp(a, b, offsetof(GameState, data) + game->state_bytes) == 0;
}

/*
 * What the SQL functions do with any state they accept, with the promises
 * of game.h: legal() is 0 exactly when terminal(), goals and estimates are
 * within GT_GOAL_MIN..GT_GOAL_MAX.
 */
static void
check_rules(const Game *game, const GameState *state, const char *what)
{
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	int			nmoves;
	bool		terminal;
	int			goals[GT_MAX_ROLES];
	double		values[GT_MAX_ROLES];

	/* legal() may refuse a position with more moves than it handles */
	must_succeed = NULL;
	nmoves = game->legal(game, state, moves);
	move_counts[Min(nmoves, MOVE_COUNTS - 1)]++;
	if (verbose)
		fprintf(stderr, "%s: %d legal moves\n", what, nmoves);
	must_succeed = psprintf("the rules on %s", what);
	terminal = game->terminal(game, state);
	if (nmoves > game->max_moves)
		finding(psprintf("%s has %d legal moves, more than max_moves (%d)", what, nmoves,
						 game->max_moves));
	if ((nmoves == 0) != terminal)
		finding(psprintf("%s has %d legal moves but is %sterminal", what, nmoves,
						 terminal ? "" : "not "));
	(void) game->control(game, state);
	(void) gt_state_hash(game, state);
	if (terminal)
	{
		game->goals(game, state, goals);
		for (int r = 0; r < game->nroles; r++)
			if (goals[r] < GT_GOAL_MIN || goals[r] > GT_GOAL_MAX)
				finding(psprintf("goal %d of %s", goals[r], what));
	}
	else if (game->heuristic != NULL)
	{
		game->heuristic(game, state, values);
		for (int r = 0; r < game->nroles; r++)
			if (!(values[r] >= GT_GOAL_MIN && values[r] <= GT_GOAL_MAX))
				finding(psprintf("estimate %g of %s", values[r], what));
	}
}

/* The storage format: state packs within packed_bytes, to bytes that unpack to it. */
static void
check_packing(const Game *game, const GameState *state, const char *what)
{
	uint8	   *packing;
	int			len;
	GameState  *again;

	if (game->pack == NULL)
		return;
	must_succeed = psprintf("packing %s", what);
	packing = palloc(game->packed_bytes);
	len = game->pack(game, state, packing);
	if (len < 0 || len > (int) game->packed_bytes)
		finding(psprintf("%s packs to %d bytes, more than packed_bytes (%u)", what, len,
						 game->packed_bytes));
	again = gt_state_alloc(game);
	if (!game->unpack(game, packing, len, again))
		finding(psprintf("the packing of %s does not unpack", what));
	if (!same_state(game, state, again))
		finding(psprintf("the packing of %s unpacks to another state", what));
}

static void
check_state(const Game *game, const GameState *state, const char *what)
{
	GameState  *again;

	must_succeed = psprintf("decoding the canonical JSON of %s", what);
	again = gt_decode_state(game, gt_encode_state(game, state));
	if (!same_state(game, state, again))
		finding(psprintf("the canonical JSON of %s decodes to another state", what));
	check_packing(game, state, what);
	if (game->to_fen != NULL)
	{
		char	   *fen = game->to_fen(game, state);

		must_succeed = psprintf("reading the FEN \"%s\" of %s", fen, what);
		again = gt_state_alloc(game);
		game->from_fen(game, fen, again);
		if (!same_state(game, state, again))
			finding(psprintf("the FEN \"%s\" of %s reads as another state", fen, what));
	}
	must_succeed = psprintf("drawing the board of %s", what);
	(void) game->board(game, state);
	check_rules(game, state, what);
	must_succeed = NULL;
}

/*
 * Line 1 names the game (the first whose name it contains) and, with
 * "fen" in it, asks for the game's FEN; line 2 is the state, the rest the
 * move.  With "packed" in line 1, the rest of data (size bytes, of which
 * text is the copy up to the first NUL) is a packing.  Returns false when
 * there is no state to decode.
 */
static bool
read_input(char *text, const uint8 *data, size_t size)
{
	char	   *line2 = strchr(text, '\n');
	char	   *rest;

	memset(&input, 0, sizeof(input));
	if (line2 == NULL)
		return false;
	*line2++ = '\0';
	if (strstr(text, "packed") != NULL)
	{
		for (int i = 0; i < gt_game_count() && input.game == NULL; i++)
			if (strstr(text, gt_game_at(i)->name) != NULL)
				input.game = gt_game_at(i);
		input.packing = data + (line2 - text);
		input.packed_len = size - (line2 - text);
		return input.game != NULL && input.game->unpack != NULL;
	}
	rest = strchr(line2, '\n');
	if (rest != NULL)
		*rest++ = '\0';
	for (int i = 0; i < gt_game_count() && input.game == NULL; i++)
		if (strstr(text, gt_game_at(i)->name) != NULL)
			input.game = gt_game_at(i);
	if (input.game == NULL)
		return false;
	if (strstr(text, "fen") != NULL && input.game->from_fen != NULL)
		input.fen = line2;
	else if ((input.state = read_json(line2)) == NULL)
		return false;
	if (rest != NULL)
		input.move = read_json(rest);
	return true;
}

/*
 * Unpacks the input's packing.  What unpack refuses counts as a rejection
 * with the SQLSTATE of a gametree.state value that is no packing (22P03).
 * What it accepts must pack again to the same bytes and pass the rules'
 * checks; a position play reaches (its JSON decodes) must be the state the
 * JSON decodes to, byte for byte.
 */
static void
run_packed_input(void)
{
	const Game *game = input.game;
	GameState  *state = gt_state_alloc(game);
	uint8	   *again = palloc(game->packed_bytes);
	Jsonb	   *json;

	if (input.packed_len > (int) game->packed_bytes ||
		!game->unpack(game, input.packing, input.packed_len, state))
		ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
						errmsg("no packing of a %s state", game->name)));
	if (game->pack(game, state, again) != input.packed_len ||
		memcmp(again, input.packing, input.packed_len) != 0)
		finding("an accepted packing packs again to other bytes");
	must_succeed = "encoding an unpacked state";
	json = gt_encode_state(game, state);
	must_succeed = "drawing the board of an unpacked state";
	(void) game->board(game, state);
	check_rules(game, state, "an unpacked state");
	must_succeed = NULL;
	/* an ERROR here is the round trip's rejection of a position play cannot reach */
	if (!same_state(game, state, gt_decode_state(game, json)))
		finding("an unpacked state decodes from its JSON to another state");
	stats.accepted++;
}

/* Decodes the input; an ERROR is a rejection, but for the checks'. */
static void
run_input(void)
{
	const Game *game = input.game;
	GameState  *state;

	if (input.packing != NULL)
	{
		run_packed_input();
		return;
	}
	if (input.fen != NULL)
	{
		state = gt_state_alloc(game);
		game->from_fen(game, input.fen, state);
	}
	else
		state = gt_decode_state(game, input.state);
	check_state(game, state, "an accepted state");
	if (input.move != NULL)
	{
		GameMove	move = gt_decode_move(game, state, input.move);
		GameState  *after = gt_state_alloc(game);

		must_succeed = "decoding the joint move of an accepted move";
		if (gt_decode_move(game, state, gt_encode_move(game, state, move)) != move)
			finding("the joint move of an accepted move decodes to another move");
		must_succeed = NULL;
		game->next(game, state, move, after);
		check_state(game, after, "the state after an accepted move");
	}
	stats.accepted++;
}

static void
count_rejection(int sqlerrcode)
{
	char		code[6];
	int			i;

	stub_sqlstate(sqlerrcode, code);
	for (i = 0; i < stats.ncodes; i++)
		if (strcmp(stats.rejected[i].sqlstate, code) == 0)
			break;
	if (i == MAX_CODES)
		i = MAX_CODES - 1;		/* lumped with the last; never seen */
	if (i == stats.ncodes)
	{
		/* kept sorted, for a stable summary */
		while (i > 0 && strcmp(stats.rejected[i - 1].sqlstate, code) > 0)
		{
			stats.rejected[i] = stats.rejected[i - 1];
			i--;
		}
		strcpy(stats.rejected[i].sqlstate, code);
		stats.rejected[i].count = 0;
		stats.ncodes++;
	}
	stats.rejected[i].count++;
}

/* Read by tools/fuzz_decoders.sh. */
static void
print_stats(void)
{
	fprintf(stderr, "decode_fuzzer stats: inputs=%ld accepted=%ld unparsed=%ld rejected:",
			stats.inputs, stats.accepted, stats.unparsed);
	for (int i = 0; i < stats.ncodes; i++)
		fprintf(stderr, " %s=%ld", stats.rejected[i].sqlstate, stats.rejected[i].count);
	fprintf(stderr, "\n");
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* the games and their constant tables, as _PG_init registers them */
	MemoryContextSwitchTo(TopMemoryContext);
	games_register();
	stub_reset();
	atexit(print_stats);
	verbose = getenv("GT_FUZZ_VERBOSE") != NULL;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	sigjmp_buf	jump;
	char	   *text = pnstrdup((const char *) data, size);	/* ends at a NUL */
	char		code[6];

	stats.inputs++;
	if (!read_input(text, data, size))
		stats.unparsed++;
	else if (sigsetjmp(jump, 0) == 0)
	{
		if (verbose)
			print_input();
		stub_error_jump = &jump;
		run_input();
	}
	else
	{
		stub_sqlstate(stub_error.sqlerrcode, code);
		if (must_succeed != NULL)
			finding(psprintf("%s failed: %s %s (%s:%d)", must_succeed, code,
							 stub_error.message, stub_error.filename, stub_error.lineno));
		count_rejection(stub_error.sqlerrcode);
		if (verbose)
			fprintf(stderr, "rejected: %s %s\n", code, stub_error.message);
	}
	stub_error_jump = NULL;
	must_succeed = NULL;
	stub_reset();
	return 0;
}
