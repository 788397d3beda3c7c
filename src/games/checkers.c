/*
 * checkers.c: English draughts / American checkers on the 32 dark squares of
 * an 8x8 board, numbered 1-32 in the standard way (1-4 on Black's back row,
 * 29-32 on White's).  Roles black (moves first, men on 1-12) and white.
 * Facts: ["cell", square, role, "man"|"king"] for occupied squares,
 * ["control", role] (kept in terminal states: the pieces alone do not tell
 * who is to move) and ["clock", n], the draw counter.  Actions:
 * ["move", from, to] and ["jump", from, landing, ...] with every landing
 * square, so that two multi-jumps over different paths stay distinct; PDN
 * "9-13", "22x15x8" and the short "22x8" are accepted too.  See README.md,
 * section checkers.
 *
 * Board: one bit per dark square in a 35-bit layout with a ghost bit after
 * every 8 squares (bit = s + s / 8 for s = square - 1), so that the four
 * diagonal steps are the uniform shifts -5, -4, +4, +5 and a step off the
 * side of the board lands on a ghost bit, never on a real square.
 *
 * Moves: bits 40-44 the origin (square - 1), then one 2-bit direction per
 * step or jump from bit 38 downwards, and in bits 0-4 the number of jumps
 * (0 for a plain step).  Numeric order is thus origin, then path: legal()
 * lists moves in that order.
 */
#include "postgres.h"

#include "core/game.h"
#include "core/jsonfacts.h"
#include "core/notation.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"

#define CK_BLACK 0
#define CK_WHITE 1

#define SQUARES 32
#define MAX_PIECES 12
#define DRAW_PLIES 80			/* 40 moves each without capture or man move */

/*
 * Legal moves in any position.  Steps are at most 12 x 4; jump paths are
 * trails over at most 12 captured pieces (a search for crowded king
 * positions found 33 at most).  Exceeding the bound is reported, never
 * written past.
 */
#define MAX_MOVES 1024

typedef struct Checkers
{
	uint64		piece[2];		/* [CK_BLACK], [CK_WHITE] in the 35-bit layout */
	uint64		king;			/* crowned pieces of either side */
	uint32		mover;
	uint32		clock;			/* plies of king steps in a row */
} Checkers;

static const char *const roles[] = {"black", "white"};
static const char *const kinds[] = {"man", "king"};

#define BIT(s) ((s) + (s) / 8)	/* square index 0..31 -> layout bit */
#define SQUARE_OF(b) ((b) - (b) / 9)	/* the inverse */
#define VALID (UINT64CONST(0xFF) * UINT64CONST(0x8040201))
#define ROW_OF(s) ((s) / 4)		/* 0 = squares 1-4, 7 = squares 29-32 */

/* Rows where a man is crowned: black's men on 29-32, white's on 1-4. */
static const uint64 crown_row[2] = {UINT64CONST(0xF) << BIT(28), UINT64CONST(0xF)};

/* Direction d steps by offset[d]: 0, 1 towards square 1, 2, 3 towards 32. */
static const int offset[4] = {-5, -4, 4, 5};

/* Directions of a man of each side, as a bit set over d. */
static const int man_dirs[2] = {0xC, 0x3};

#define MOVE_FROM_SHIFT 40
#define MOVE_DIR_SHIFT(i) (38 - 2 * (i))
#define MOVE_JUMPS_MASK 0x1F

static inline uint64
shift(uint64 x, int by)
{
	return by >= 0 ? x << by : x >> -by;
}

static inline int
first_bit(uint64 x)
{
	return pg_rightmost_one_pos64(x);
}

static inline uint64
empty_squares(const Checkers *c)
{
	return VALID & ~(c->piece[CK_BLACK] | c->piece[CK_WHITE]);
}

/*
 * Pieces of side s (the mover) that can jump now.  Inlined with a constant s,
 * the directions and shifts become constants.
 */
static pg_attribute_always_inline uint64
jumpers(const Checkers *c, int s)
{
	uint64		own = c->piece[s];
	uint64		opp = c->piece[s ^ 1];
	uint64		empty = empty_squares(c);
	uint64		found = 0;

	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? own : own & c->king;

		found |= movers & shift(opp, -offset[d]) & shift(empty, -2 * offset[d]);
	}
	return found;
}

static void
too_many_moves(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("checkers position has more than %d legal moves", MAX_MOVES)));
}

/*
 * Completes the jump paths of the piece at bit at, which has made njumps
 * jumps coded in prefix.  opp holds the pieces not yet captured; empty has
 * the origin square empty, since a king may come back to it.  Appends the
 * moves to moves[n..] (or only counts them when moves is NULL) and returns
 * the new count.
 */
static int
jump_paths(int s, int at, bool king, uint64 opp, uint64 empty, GameMove prefix,
		   int njumps, GameMove *moves, int n)
{
	int			dirs = king ? 0xF : man_dirs[s];
	bool		extended = false;

	for (int d = 0; d < 4; d++)
	{
		int			over = at + offset[d];
		int			land = at + 2 * offset[d];
		GameMove	code;

		if (!(dirs >> d & 1) || land < 0 ||
			!(opp >> over & 1) || !(empty >> land & 1))
			continue;
		extended = true;
		code = prefix | (GameMove) d << MOVE_DIR_SHIFT(njumps);
		/* A man that reaches the far row is crowned and his move ends. */
		if (!king && (crown_row[s] >> land & 1))
		{
			if (moves != NULL)
			{
				if (n >= MAX_MOVES)
					too_many_moves();
				moves[n] = code | (njumps + 1);
			}
			n++;
		}
		else
			n = jump_paths(s, land, king, opp & ~(UINT64CONST(1) << over), empty,
						   code, njumps + 1, moves, n);
	}
	if (!extended && njumps > 0)
	{
		if (moves != NULL)
		{
			if (n >= MAX_MOVES)
				too_many_moves();
			moves[n] = prefix | njumps;
		}
		n++;
	}
	return n;
}

/*
 * The number of jump paths of side s, whose pieces in jump can jump.  A man's
 * further jumps go forward, away from the squares his first jump emptied,
 * so the board before the move tells whether he can go on; only then (and
 * for kings) are his paths walked.
 */
static pg_attribute_always_inline int
count_jumps(const Checkers *c, int s, uint64 jump)
{
	uint64		opp = c->piece[s ^ 1];
	uint64		empty = empty_squares(c);
	uint64		men = jump & ~c->king;
	uint64		kings = jump & c->king;
	uint64		goes_on = 0;
	int			n = 0;

	for (int d = 0; d < 4; d++)
		if (man_dirs[s] >> d & 1)
			goes_on |= shift(opp, -offset[d]) & shift(empty, -2 * offset[d]);
	goes_on &= ~crown_row[s];
	for (int d = 0; d < 4; d++)
	{
		uint64		land,
					more;

		if (!(man_dirs[s] >> d & 1))
			continue;
		land = shift(men & shift(opp, -offset[d]) & shift(empty, -2 * offset[d]), 2 * offset[d]);
		more = land & goes_on;
		n += gt_popcount64(land & ~more);
		while (more)
		{
			int			at = first_bit(more);

			more &= more - 1;
			n += jump_paths(s, at, false, opp & ~(UINT64CONST(1) << (at - offset[d])),
							empty | UINT64CONST(1) << (at - 2 * offset[d]), 0, 1, NULL, 0);
		}
	}
	while (kings)
	{
		int			from = first_bit(kings);

		kings &= kings - 1;
		n += jump_paths(s, from, true, opp, empty | UINT64CONST(1) << from, 0, 0, NULL, 0);
	}
	return n;
}

/*
 * The legal moves of side s, the mover, ignoring the draw rule, in generation
 * order; with moves NULL only their number (steps are then counted, not
 * listed).
 */
static pg_attribute_always_inline int
generate_side(const Checkers *c, int s, GameMove *moves)
{
	uint64		own = c->piece[s];
	uint64		empty = empty_squares(c);
	uint64		jump = jumpers(c, s);
	int			n = 0;

	if (jump && moves == NULL)
		return count_jumps(c, s, jump);
	if (jump)
	{
		while (jump)
		{
			int			from = first_bit(jump);
			uint64		from_bit = UINT64CONST(1) << from;

			jump &= jump - 1;
			n = jump_paths(s, from, (c->king & from_bit) != 0, c->piece[s ^ 1],
						   empty | from_bit,
						   (GameMove) SQUARE_OF(from) << MOVE_FROM_SHIFT, 0, moves, n);
		}
		return n;
	}
	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? own : own & c->king;
		uint64		targets = shift(movers, offset[d]) & empty;

		if (moves == NULL)
		{
			n += gt_popcount64(targets);
			continue;
		}
		while (targets)
		{
			int			to = first_bit(targets);

			targets &= targets - 1;
			moves[n++] = (GameMove) SQUARE_OF(to - offset[d]) << MOVE_FROM_SHIFT |
				(GameMove) d << MOVE_DIR_SHIFT(0);
		}
	}
	return n;
}

/* generate_side, compiled once per side */
static int
generate(const Checkers *c, GameMove *moves)
{
	return c->mover == CK_BLACK ? generate_side(c, CK_BLACK, moves) : generate_side(c, CK_WHITE, moves);
}

/* The number of legal moves, the draw rule aside. */
static int
count_moves(const Checkers *c)
{
	return c->mover == CK_BLACK ? generate_side(c, CK_BLACK, NULL) : generate_side(c, CK_WHITE, NULL);
}

/* Whether the mover can move at all (the draw rule aside). */
static inline bool
can_move(const Checkers *c)
{
	int			s = c->mover;
	uint64		empty = empty_squares(c);

	if (jumpers(c, s))
		return true;
	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? c->piece[s] : c->piece[s] & c->king;

		if (shift(movers, offset[d]) & empty)
			return true;
	}
	return false;
}

/*
 * The layout bits that move m visits, origin first, into path[]; returns
 * their number.  *captured gets the bits of the jumped pieces.
 */
static int
follow_move(GameMove m, int *path, uint64 *captured)
{
	int			njumps = m & MOVE_JUMPS_MASK;
	int			at = BIT((int) (m >> MOVE_FROM_SHIFT) & 31);

	path[0] = at;
	*captured = 0;
	if (njumps == 0)
	{
		path[1] = at + offset[m >> MOVE_DIR_SHIFT(0) & 3];
		return 2;
	}
	for (int i = 0; i < njumps; i++)
	{
		int			d = m >> MOVE_DIR_SHIFT(i) & 3;

		*captured |= UINT64CONST(1) << (at + offset[d]);
		at += 2 * offset[d];
		path[i + 1] = at;
	}
	return njumps + 1;
}

static void
apply_move(Checkers *c, GameMove m)
{
	int			s = c->mover;
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = follow_move(m, path, &captured);
	uint64		from = UINT64CONST(1) << path[0];
	uint64		to = UINT64CONST(1) << path[len - 1];
	bool		was_king = (c->king & from) != 0;

	/* from and to coincide when a king jumps round in a circle */
	c->piece[s] = (c->piece[s] & ~from) | to;
	c->piece[s ^ 1] &= ~captured;
	c->king &= ~(from | captured);
	if (was_king || (to & crown_row[s]))
		c->king |= to;
	c->clock = (was_king && captured == 0) ? c->clock + 1 : 0;
	c->mover = s ^ 1;
}

/* Numeric order of the codes is the documented order: origin, then path. */
static void
sort_moves(GameMove *moves, int n)
{
	for (int i = 1; i < n; i++)
	{
		GameMove	m = moves[i];
		int			j = i;

		for (; j > 0 && moves[j - 1] > m; j--)
			moves[j] = moves[j - 1];
		moves[j] = m;
	}
}

static void
ck_initial(const Game *game, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);

	memset(c, 0, sizeof(Checkers));
	for (int s = 0; s < MAX_PIECES; s++)
	{
		c->piece[CK_BLACK] |= UINT64CONST(1) << BIT(s);
		c->piece[CK_WHITE] |= UINT64CONST(1) << BIT(SQUARES - 1 - s);
	}
	out->size = sizeof(Checkers);
}

static bool
ck_terminal(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	return c->clock >= DRAW_PLIES || !can_move(c);
}

/*
 * Without draw_rules the clock may run past DRAW_PLIES, by at most perft's
 * depth (1000), far from uint32's limit; such states never leave perft.
 */
static int
legal_moves(const GameState *state, GameMove *moves, bool draw_rules)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	int			n;

	if (draw_rules && c->clock >= DRAW_PLIES)
		return 0;
	n = generate(c, moves);
	sort_moves(moves, n);
	return n;
}

static int
ck_legal(const Game *game, const GameState *state, GameMove *moves)
{
	return legal_moves(state, moves, true);
}

/* The draw clock aside: what rapid-draughts and other perft tools count. */
static int
ck_legal_by_move_rules(const Game *game, const GameState *state, GameMove *moves)
{
	return legal_moves(state, moves, false);
}

static void
ck_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	gt_state_copy(out, state);
	apply_move(GT_STATE_AS(out, Checkers), move);
}

/* A side without a move loses, even when the draw clock has run out. */
static void
ck_goals(const Game *game, const GameState *state, int *goals)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	if (can_move(c))
	{
		goals[CK_BLACK] = goals[CK_WHITE] = 50;
		return;
	}
	goals[c->mover] = GT_GOAL_MIN;
	goals[c->mover ^ 1] = GT_GOAL_MAX;
}

static int
ck_control(const Game *game, const GameState *state)
{
	if (ck_terminal(game, state))
		return GT_NO_ROLE;
	return GT_STATE_AS(state, Checkers)->mover;
}

static int
ck_mover(const Game *game, const GameState *state)
{
	return GT_STATE_AS(state, Checkers)->mover;
}

/* A jump takes as many men as it has jumps (the low bits of its code). */
static int
ck_tactical(const Game *game, const GameState *state, GameMove move)
{
	return (int) (move & 31);
}

static uint64
ck_hash(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	uint64		words[4] = {c->piece[CK_BLACK], c->piece[CK_WHITE], c->king,
	(uint64) c->mover << 32 | c->clock};

	return gt_hash_words(words, 4);
}

/*
 * Men count 2, kings 3 (a king is worth 1.5 men), and a man gains 0.1 per row
 * advanced; each side gets its share of the sum, so the two values add up
 * to 100.
 */
static void
ck_heuristic(const Game *game, const GameState *state, double *values)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	double		score[2] = {0, 0};

	for (int s = 0; s < SQUARES; s++)
		for (int side = CK_BLACK; side <= CK_WHITE; side++)
			if (c->piece[side] >> BIT(s) & 1)
			{
				if (c->king >> BIT(s) & 1)
					score[side] += 3.0;
				else
					score[side] += 2.0 + 0.1 * (side == CK_BLACK ? ROW_OF(s) : 7 - ROW_OF(s));
			}
	if (score[CK_BLACK] + score[CK_WHITE] == 0)
		values[CK_BLACK] = 50.0;
	else
		values[CK_BLACK] = 100.0 * score[CK_BLACK] / (score[CK_BLACK] + score[CK_WHITE]);
	values[CK_WHITE] = 100.0 - values[CK_BLACK];
}

/* The side (CK_BLACK, CK_WHITE) on square s (0..31), or -1 when it is empty. */
static int
side_on(const Checkers *c, int s)
{
	if (c->piece[CK_BLACK] >> BIT(s) & 1)
		return CK_BLACK;
	if (c->piece[CK_WHITE] >> BIT(s) & 1)
		return CK_WHITE;
	return -1;
}

static void
ck_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);

	for (int s = 0; s < SQUARES; s++)
	{
		int			side = side_on(c, s);

		if (side < 0)
			continue;
		jo_begin_array(out);
		jo_string(out, "cell");
		jo_int(out, s + 1);
		jo_string(out, roles[side]);
		jo_string(out, kinds[c->king >> BIT(s) & 1]);
		jo_end_array(out);
	}
	jo_begin_array(out);
	jo_string(out, "control");
	jo_string(out, roles[c->mover]);
	jo_end_array(out);
	jo_begin_array(out);
	jo_string(out, "clock");
	jo_int(out, c->clock);
	jo_end_array(out);
}

/* Rejects positions that no game reaches; shared by the facts and PDN FEN. */
static void
check_position(const Game *game, const Checkers *c)
{
	for (int side = CK_BLACK; side <= CK_WHITE; side++)
	{
		uint64		men = c->piece[side] & ~c->king & crown_row[side];

		if (gt_popcount64(c->piece[side]) > MAX_PIECES)
			gt_invalid_state(game, "%s has %d pieces, but a side has at most %d",
							 roles[side], gt_popcount64(c->piece[side]), MAX_PIECES);
		if (men)
			gt_invalid_state(game, "a %s man on square %d would have been crowned",
							 roles[side], SQUARE_OF(first_bit(men)) + 1);
	}
	if (c->piece[c->mover ^ 1] == 0)
		gt_invalid_state(game, "%s moved last but has no pieces", roles[c->mover ^ 1]);
}

static void
ck_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);
	bool		have_control = false;
	bool		have_clock = false;

	memset(c, 0, sizeof(Checkers));
	out->size = sizeof(Checkers);
	for (int i = 0; i < nfacts; i++)
	{
		Fact	   *f = &facts[i];

		if (strcmp(f->relation, "cell") == 0)
		{
			int			sq,
						side,
						kind;
			uint64		bit;

			fact_expect_arity(f, 3);
			sq = fact_int(f, 0, 1, SQUARES);
			side = fact_choice(f, 1, roles, 2);
			kind = fact_choice(f, 2, kinds, 2);
			bit = UINT64CONST(1) << BIT(sq - 1);
			if ((c->piece[CK_BLACK] | c->piece[CK_WHITE]) & bit)
				gt_invalid_state(game, "square %d is given twice", sq);
			c->piece[side] |= bit;
			if (kind == 1)
				c->king |= bit;
		}
		else if (strcmp(f->relation, "control") == 0)
		{
			fact_expect_arity(f, 1);
			if (have_control)
				gt_invalid_state(game, "control is given twice");
			c->mover = fact_choice(f, 0, roles, 2);
			have_control = true;
		}
		else if (strcmp(f->relation, "clock") == 0)
		{
			fact_expect_arity(f, 1);
			if (have_clock)
				gt_invalid_state(game, "clock is given twice");
			c->clock = fact_int(f, 0, 0, DRAW_PLIES);
			have_clock = true;
		}
		else
			fact_unknown(f);
	}
	if (!have_control)
		gt_invalid_state(game, "the control fact is missing");
	check_position(game, c);
}

static void
ck_encode_action(const Game *game, const GameState *state, GameMove move, int role,
				 JsonOut *out)
{
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = follow_move(move, path, &captured);

	jo_begin_array(out);
	jo_string(out, captured ? "jump" : "move");
	for (int i = 0; i < len; i++)
		jo_int(out, SQUARE_OF(path[i]) + 1);
	jo_end_array(out);
}

/* The PDN text of a move, for messages. */
static char *
move_pdn(GameMove move)
{
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = follow_move(move, path, &captured);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < len; i++)
		appendStringInfo(&buf, "%s%d", i == 0 ? "" : captured ? "x" : "-",
						 SQUARE_OF(path[i]) + 1);
	return buf.data;
}

/* PDN, every square of a multiple jump (22x15x8), as next() takes it back. */
static char *
ck_notation(const Game *game, const GameState *state, GameMove move)
{
	return move_pdn(move);
}

/* The short form of ["move", 11, 15] and ["jump", 22, 15, 8] needs no position: 11-15, 22x15x8. */
static char *
ck_format_action(const Game *game, const JsonbValue *action)
{
	char	   *step = gt_action_arguments(action, "move", 2, 2, jbvNumeric, "-");

	return step ? step : gt_action_arguments(action, "jump", 2, 32, jbvNumeric, "x");
}

/*
 * PDN with blanks allowed around the squares and X for x (11-15, 22x15x8,
 * the short 22x8), written as ck_parse_action reads it: "22x15x8".
 */
static char *
ck_read_action(const Game *game, const char *text)
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
static bool
ck_parse_action(const Game *game, const GameState *state, const JsonbValue *action,
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
									   squares[0], roles[side], roles[c->mover]));

	legal = palloc(MAX_MOVES * sizeof(GameMove));
	nlegal = ck_legal(game, state, legal);
	for (int i = 0; i < nlegal; i++)
	{
		int			path[MAX_PIECES + 1];
		uint64		captured;
		int			len = follow_move(legal[i], path, &captured);
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
		int			len = follow_move(legal[i], path, &captured);
		bool		prefix = len > n;

		for (int k = 0; prefix && k < n; k++)
			prefix = (SQUARE_OF(path[k]) + 1 == squares[k]);
		if (prefix)
			illegal_action(shown, psprintf("a multi-jump must be completed, e.g. %s",
										   move_pdn(legal[i])));
	}
	return false;
}

static char *
ck_board(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int row = 0; row < 8; row++)
	{
		appendStringInfo(&buf, "%d ", 8 - row);
		for (int col = 0; col < 8; col++)
		{
			int			s = row * 4 + col / 2;
			int			side = side_on(c, s);

			/* dark squares: b..h on even rows (1-4 first), a..g on odd ones */
			if ((row + col) % 2 == 0)
				appendStringInfoString(&buf, "  .");
			else if (side < 0)
				appendStringInfo(&buf, " %2d", s + 1);
			else
			{
				char		letter = side == CK_BLACK ? 'b' : 'w';

				if (c->king >> BIT(s) & 1)
					letter = pg_toupper(letter);
				appendStringInfo(&buf, "  %c", letter);
			}
		}
		appendStringInfoChar(&buf, '\n');
	}
	appendStringInfoString(&buf, "    a  b  c  d  e  f  g  h\n");
	if (!can_move(c))
		appendStringInfo(&buf, "%s cannot move: %s wins\n", roles[c->mover], roles[c->mover ^ 1]);
	else if (c->clock >= DRAW_PLIES)
		appendStringInfo(&buf, "draw: %d plies without a capture or a man's move\n", c->clock);
	else
		appendStringInfo(&buf, "%s to move, clock %d\n", roles[c->mover], c->clock);
	return buf.data;
}

static void
bad_fen(const char *fen, const char *problem)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid PDN FEN \"%s\": %s", gt_abbreviate(fen), problem),
			 errhint("An example is B:W21-32:B1-12 (side to move, then each side's squares, K for kings).")));
}

static int
fen_number(const char *fen, const char **p, const char *what)
{
	int			value = 0;
	int			digits = 0;

	while (**p >= '0' && **p <= '9')
	{
		if (++digits > 3)
			bad_fen(fen, psprintf("%s is too long", what));
		value = value * 10 + (*(*p)++ - '0');
	}
	if (digits == 0)
		bad_fen(fen, psprintf("expected %s at position %d", what, (int) (*p - fen) + 1));
	return value;
}

/*
 * PDN FEN: the side to move (B or W), then ":W" and ":B" sections (either
 * order) listing squares, K before a king, ranges such as 1-12 allowed; an
 * optional ":H<n>" gives the draw clock (":F<n>", a move number, is
 * ignored) and a final '.' is allowed.
 */
static void
ck_from_fen(const Game *game, const char *fen, GameState *out)
{
	Checkers   *c = GT_STATE_AS(out, Checkers);
	const char *p = fen;
	bool		seen[2] = {false, false};
	bool		have_clock = false;

	memset(c, 0, sizeof(Checkers));
	out->size = sizeof(Checkers);
	while (*p == ' ')
		p++;
	if (*p != 'B' && *p != 'W')
		bad_fen(fen, "it must start with the side to move, B or W");
	c->mover = (*p++ == 'B') ? CK_BLACK : CK_WHITE;
	while (*p == ':')
	{
		char		tag = *++p;
		int			side;

		if (tag == '\0')
			bad_fen(fen, "it ends with ':'");
		p++;
		if (tag == 'H' || tag == 'F')
		{
			int			value = fen_number(fen, &p, tag == 'H' ? "the draw clock" : "the move number");

			if (tag == 'H')
			{
				if (have_clock)
					bad_fen(fen, "the draw clock is given twice");
				if (value > DRAW_PLIES)
					gt_invalid_state(game, "the draw clock %d exceeds %d", value, DRAW_PLIES);
				c->clock = value;
				have_clock = true;
			}
			continue;
		}
		if (tag != 'B' && tag != 'W')
			bad_fen(fen, psprintf("expected W or B after ':' at position %d", (int) (p - fen)));
		side = (tag == 'B') ? CK_BLACK : CK_WHITE;
		if (seen[side])
			bad_fen(fen, psprintf("the %s pieces are given twice", roles[side]));
		seen[side] = true;
		/* an empty list, or squares separated by commas */
		while (*p != ':' && *p != '.' && *p != '\0' && *p != ' ')
		{
			bool		king = (*p == 'K');
			int			lo,
						hi;

			if (king)
				p++;
			lo = hi = fen_number(fen, &p, "a square number");
			if (*p == '-')
			{
				p++;
				hi = fen_number(fen, &p, "a square number");
				if (hi < lo)
					bad_fen(fen, psprintf("the range %d-%d runs backwards", lo, hi));
			}
			for (int sq = lo; sq <= hi; sq++)
			{
				uint64		bit;

				if (sq < 1 || sq > SQUARES)
					gt_invalid_state(game, "square %d does not exist (squares are numbered 1 to 32)", sq);
				bit = UINT64CONST(1) << BIT(sq - 1);
				if ((c->piece[CK_BLACK] | c->piece[CK_WHITE]) & bit)
					gt_invalid_state(game, "square %d is given twice", sq);
				c->piece[side] |= bit;
				if (king)
					c->king |= bit;
			}
			if (*p != ',')
				break;
			/* after a comma another square must follow */
			if (*++p == ':' || *p == '.' || *p == '\0' || *p == ' ')
				bad_fen(fen, psprintf("expected a square number at position %d", (int) (p - fen) + 1));
		}
		if (*p != ':' && *p != '.' && *p != '\0' && *p != ' ')
			bad_fen(fen, psprintf("unexpected '%c' at position %d", *p, (int) (p - fen) + 1));
	}
	if (*p == '.')
		p++;
	while (*p == ' ')
		p++;
	if (*p != '\0')
		bad_fen(fen, psprintf("unexpected '%c' at position %d", *p, (int) (p - fen) + 1));
	if (!seen[CK_WHITE] || !seen[CK_BLACK])
		bad_fen(fen, psprintf("the %s pieces are missing (a section such as :%c1,2)",
							  roles[seen[CK_WHITE] ? CK_BLACK : CK_WHITE], seen[CK_WHITE] ? 'B' : 'W'));
	check_position(game, c);
}

/* Canonical: W before B, squares ascending, ":H<n>" only when the clock runs. */
static char *
ck_to_fen(const Game *game, const GameState *state)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, c->mover == CK_BLACK ? 'B' : 'W');
	for (int side = CK_WHITE; side >= CK_BLACK; side--)
	{
		bool		first = true;

		appendStringInfo(&buf, ":%c", side == CK_BLACK ? 'B' : 'W');
		for (int s = 0; s < SQUARES; s++)
			if (c->piece[side] >> BIT(s) & 1)
			{
				appendStringInfo(&buf, "%s%s%d", first ? "" : ",",
								 (c->king >> BIT(s) & 1) ? "K" : "", s + 1);
				first = false;
			}
	}
	if (c->clock != 0)
		appendStringInfo(&buf, ":H%d", c->clock);
	return buf.data;
}

/*
 * Perft over the bitboards: moves are made in place on a copy, and the last
 * ply is counted without making its moves (steps by popcount).
 */
static int64
perft_rec(const Checkers *c, int depth, GameMove *moves, bool draw_rules)
{
	int64		leaves = 0;
	int			n;

	if (draw_rules && c->clock >= DRAW_PLIES)
		return 0;
	if (depth == 1)
		return count_moves(c);
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	n = generate(c, moves);
	for (int i = 0; i < n; i++)
	{
		Checkers	child = *c;

		apply_move(&child, moves[i]);
		leaves += perft_rec(&child, depth - 1, moves + MAX_MOVES, draw_rules);
	}
	return leaves;
}

static int64
ck_perft(const Game *game, const GameState *state, int depth, bool draw_rules)
{
	if (depth == 0)
		return 1;
	return perft_rec(GT_STATE_AS(state, Checkers), depth,
					 palloc(depth * MAX_MOVES * sizeof(GameMove)), draw_rules);
}

const Game	checkers_game = {
	.name = "checkers",
	.description = "English draughts / American checkers, 8x8, squares 1-32; black moves first; "
	"draw after 40 moves each without a capture or a man's move",
	.nroles = 2,
	.roles = roles,
	.state_bytes = sizeof(Checkers),
	.max_moves = MAX_MOVES,
	.initial = ck_initial,
	.legal = ck_legal,
	.legal_by_move_rules = ck_legal_by_move_rules,
	.next = ck_next,
	.terminal = ck_terminal,
	.goals = ck_goals,
	.control = ck_control,
	.mover = ck_mover,
	.tactical = ck_tactical,
	.hash = ck_hash,
	.heuristic = ck_heuristic,
	.perft = ck_perft,
	.encode_state = ck_encode_state,
	.decode_state = ck_decode_state,
	.encode_action = ck_encode_action,
	.parse_action = ck_parse_action,
	.notation = ck_notation,
	.format_action = ck_format_action,
	.read_action = ck_read_action,
	.action_syntax = "a move in PDN notation, such as 11-15 or 22x15x8",
	.board = ck_board,
	.from_fen = ck_from_fen,
	.to_fen = ck_to_fen,
};
