/*
 * pdn.c: checkers moves in PDN: the notation hook ("9-13", "22x15x8"), and
 * the parse_action hook, which reads PDN moves, the short "22x8", and
 * diagnoses actions that name squares but no legal move.
 */
#include "postgres.h"

#include "checkers.h"
#include "core/jsonfacts.h"
#include "core/notation.h"
#include "lib/stringinfo.h"

/* The PDN text of a move, for messages. */
static char *
move_pdn(GameMove move)
{
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = checkers_follow_move(move, path, &captured);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < len; i++)
		appendStringInfo(&buf, "%s%d", i == 0 ? "" : captured ? "x" : "-",
						 SQUARE_OF(path[i]) + 1);
	return buf.data;
}

/* PDN, every square of a multiple jump (22x15x8), as next() takes it back. */
char *
checkers_notation(const Game *game, const GameState *state, GameMove move)
{
	return move_pdn(move);
}

/* The short form of ["move", 11, 15] and ["jump", 22, 15, 8] needs no position: 11-15, 22x15x8. */
char *
checkers_format_action(const Game *game, const JsonbValue *action)
{
	char	   *step = gt_action_arguments(action, "move", 2, 2, jbvNumeric, "-");

	return step ? step : gt_action_arguments(action, "jump", 2, 32, jbvNumeric, "x");
}

/*
 * PDN with blanks allowed around the squares and X for x (11-15, 22x15x8,
 * the short 22x8), written as checkers_parse_action reads it: "22x15x8".
 */
char *
checkers_read_action(const Game *game, const char *text)
{
	const char *p = text;
	long		squares[16];
	char		separator = 0;
	int			n = 0;
	StringInfoData json;

	while (n < 16 && gt_read_number(&p, &squares[n]))
	{
		if (squares[n] < 1 || squares[n] > 32)
			return NULL;
		n++;
		p = gt_skip_blanks(p);
		if (*p == '\0')
			break;
		if ((*p != '-' && *p != 'x' && *p != 'X') || (separator && (*p == '-') != (separator == '-')))
			return NULL;
		separator = *p == '-' ? '-' : 'x';
		p++;
	}
	if (*p != '\0' || n < 2 || (separator == '-' && n != 2))
		return NULL;
	initStringInfo(&json);
	appendStringInfoChar(&json, '"');
	for (int i = 0; i < n; i++)
		appendStringInfo(&json, "%s%ld", i > 0 ? (separator == '-' ? "-" : "x") : "", squares[i]);
	appendStringInfoChar(&json, '"');
	return json.data;
}

static void
illegal_action(const char *action, const char *problem)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("illegal checkers move %s: %s", action, problem),
			 errhint("SELECT gametree.legal('checkers', state) lists the legal moves.")));
}

/*
 * Reads "9-13", "22x15x8" into squares[] (1-based numbers); returns their
 * count, or 0 when text is not in that notation.
 */
static int
parse_pdn_move(const char *text, int *squares, bool *jump)
{
	const char *p = text;
	int			n = 0;
	char		sep = 0;

	for (;;)
	{
		int			value = 0;
		int			digits = 0;

		while (*p >= '0' && *p <= '9' && digits < 3)
			value = value * 10 + (*p++ - '0'), digits++;
		if (digits == 0 || n > MAX_PIECES)
			return 0;
		squares[n++] = value;
		if (*p == '\0')
			break;
		if ((*p != '-' && *p != 'x' && *p != 'X') || (sep && (*p | 0x20) != (sep | 0x20)))
			return 0;
		sep = *p++;
	}
	if (n < 2 || (sep == '-' && n != 2))
		return 0;
	*jump = (sep != '-');
	return n;
}

/*
 * Reads ["move", from, to] or ["jump", from, landing, ...] into squares[];
 * returns their count, or 0 when v is not shaped so.
 */
static int
parse_json_move(const JsonbValue *v, int *squares, bool *jump)
{
	static const char *const heads[] = {"move", "jump"};
	JsonbContainer *jc;
	int			len;
	int			head;

	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		return 0;
	jc = v->val.binary.data;
	len = JsonContainerSize(jc);
	if (len < 3 || len > MAX_PIECES + 2)
		return 0;
	head = json_string_choice(getIthJsonbValueFromContainer(jc, 0), heads, 2);
	if (head < 0 || (head == 0 && len != 3))
		return 0;
	for (int i = 1; i < len; i++)
	{
		JsonbValue *e = getIthJsonbValueFromContainer(jc, i);
		char	   *digits;
		char	   *end;
		long		value;

		if (e->type != jbvNumeric)
			return 0;
		digits = numeric_normalize(e->val.numeric);
		value = strtol(digits, &end, 10);
		if (*end != '\0' || value < 0 || value > 99)
			return 0;
		squares[i - 1] = (int) value;
	}
	*jump = (head == 1);
	return len - 1;
}

/*
 * PDN moves, and a diagnosis of actions that name squares but no legal move:
 * an empty square, a piece of the side not to move, a step when a capture is
 * mandatory, an ambiguous short jump.
 */
bool
checkers_parse_action(const Game *game, const GameState *state, const JsonbValue *action,
					  GameMove *move)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	int			squares[MAX_PIECES + 2];
	bool		jump;
	int			n;
	const char *shown;
	char	   *text = json_cstring(action);
	GameMove   *legal;
	int			nlegal;
	int			matches = 0;
	int			side;

	n = text != NULL ? parse_pdn_move(text, squares, &jump) : parse_json_move(action, squares, &jump);
	if (n == 0)
		return false;
	shown = json_value_text(action);
	for (int i = 0; i < n; i++)
		if (squares[i] < 1 || squares[i] > SQUARES)
			illegal_action(shown, psprintf("square %d does not exist (squares are numbered 1 to 32)",
										   squares[i]));
	side = side_on(c, squares[0] - 1);
	if (side < 0)
		illegal_action(shown, psprintf("square %d is empty", squares[0]));
	if (side != (int) c->mover)
		illegal_action(shown, psprintf("square %d holds a %s piece, but %s is to move",
									   squares[0], checkers_roles[side], checkers_roles[c->mover]));

	legal = palloc(MAX_MOVES * sizeof(GameMove));
	nlegal = game->legal(game, state, legal);
	for (int i = 0; i < nlegal; i++)
	{
		int			path[MAX_PIECES + 1];
		uint64		captured;
		int			len = checkers_follow_move(legal[i], path, &captured);
		bool		same = (captured != 0) == jump &&
			SQUARE_OF(path[0]) + 1 == squares[0];

		/* the full path, or (PDN) only the origin and the final landing */
		if (same && len == n)
			for (int k = 1; k < n; k++)
				same &= (SQUARE_OF(path[k]) + 1 == squares[k]);
		else
			same &= (text != NULL && n == 2 && SQUARE_OF(path[len - 1]) + 1 == squares[1]);
		if (same)
		{
			/* an exact full path wins over short forms */
			if (len == n)
			{
				*move = legal[i];
				return true;
			}
			*move = legal[i];
			matches++;
		}
	}
	if (matches == 1)
		return true;
	if (matches > 1)
		illegal_action(shown, psprintf("%d jump paths lead from %d to %d; give the landing squares, e.g. %s",
									   matches, squares[0], squares[1], move_pdn(*move)));
	if (!jump && nlegal > 0 && (legal[0] & MOVE_JUMPS_MASK) != 0)
		illegal_action(shown, psprintf("a capture is mandatory, e.g. %s", move_pdn(legal[0])));
	for (int i = 0; jump && i < nlegal; i++)
	{
		int			path[MAX_PIECES + 1];
		uint64		captured;
		int			len = checkers_follow_move(legal[i], path, &captured);
		bool		prefix = len > n;

		for (int k = 0; prefix && k < n; k++)
			prefix = (SQUARE_OF(path[k]) + 1 == squares[k]);
		if (prefix)
			illegal_action(shown, psprintf("a multi-jump must be completed, e.g. %s",
										   move_pdn(legal[i])));
	}
	return false;
}
