/*
 * connect4.c: Connect Four, 7 columns x 6 rows, with the facts and names of
 * ggp-base's connectFour.kif: roles red (moves first) and black,
 * (cell column row role) for occupied cells only, row 1 at the bottom,
 * (control role), action (drop column).
 *
 * State: one bitboard per colour, bit 7*column + row with row 6 of every
 * column left empty so that shifting by 1, 6, 7 and 8 finds lines without
 * wrapping.  Moves are column indexes, listed left to right.
 */
#include "postgres.h"

#include "connect4.h"
#include "core/notation.h"
#include "games/placement.h"
#include "port/pg_bitutils.h"


static const char *const roles[] = {"red", "black"};


static bool
has_four(uint64 b)
{
	static const int dirs[4] = {1, C4_H, C4_H - 1, C4_H + 1};

	for (int i = 0; i < 4; i++)
	{
		uint64		pairs = b & (b >> dirs[i]);

		if (pairs & (pairs >> (2 * dirs[i])))
			return true;
	}
	return false;
}

static int
cell_bit(int col, int row)
{
	return C4_H * (col - 1) + row - 1;
}

/* The top disc of each column. */
static uint64
top_discs(uint64 occupied)
{
	uint64		tops = 0;

	for (int col = 0; col < C4_COLS; col++)
	{
		uint64		column = occupied & (UINT64CONST(0x3F) << (C4_H * col));

		if (column != 0)
			tops |= UINT64CONST(1) << pg_leftmost_one_pos64(column);
	}
	return tops;
}

static const char *const cell_values[] = {"red", "black", "b"};

static const PlacementBoard board = {
	.range = {C4_COLS, C4_ROWS},
	.bit = cell_bit,
	.pieces = cell_values,
	.counts = "%d red and %d black discs",
	.full = C4_BOARD_MASK,
	.has_line = has_four,
	.last_placed = top_discs,
};

static void
c4_initial(const Game *game, GameState *out)
{
	memset(out->data, 0, sizeof(Connect4));
	out->size = sizeof(Connect4);
}

static int
c4_control(const Game *game, const GameState *state)
{
	return placement_control(&board, GT_STATE_AS(state, Connect4)->disc);
}

static bool
c4_terminal(const Game *game, const GameState *state)
{
	return c4_control(game, state) == GT_NO_ROLE;
}

static int
c4_legal(const Game *game, const GameState *state, GameMove *moves)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	uint64		occupied = c->disc[C4_RED] | c->disc[C4_BLACK];
	int			n = 0;

	if (c4_terminal(game, state))
		return 0;
	for (int col = 0; col < C4_COLS; col++)
		if (!(occupied >> (C4_H * col + C4_ROWS - 1) & 1))
			moves[n++] = col;
	return n;
}

static void
c4_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	uint64		occupied = c->disc[C4_RED] | c->disc[C4_BLACK];
	int			mover = gt_popcount64(c->disc[C4_RED]) == gt_popcount64(c->disc[C4_BLACK]) ? C4_RED : C4_BLACK;
	uint64		column_bottom = UINT64CONST(1) << (C4_H * move);

	gt_state_copy(out, state);
	/* Adding the column's bottom bit to its occupied bits yields the lowest empty cell. */
	GT_STATE_AS(out, Connect4)->disc[mover] |= (occupied + column_bottom) & (UINT64CONST(0x3F) << (C4_H * move));
}

static void
c4_goals(const Game *game, const GameState *state, int *goals)
{
	placement_goals(&board, GT_STATE_AS(state, Connect4)->disc, goals);
}

static uint64
c4_hash(const Game *game, const GameState *state)
{
	return gt_hash_words(GT_STATE_AS(state, Connect4)->disc, 2);
}

static void
c4_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	int			mover = c4_control(game, state);

	for (int col = 0; col < C4_COLS; col++)
		for (int row = 0; row < C4_ROWS; row++)
			for (int who = C4_RED; who <= C4_BLACK; who++)
				if (c->disc[who] >> (C4_H * col + row) & 1)
				{
					jo_begin_array(out);
					jo_string(out, "cell");
					jo_int(out, col + 1);
					jo_int(out, row + 1);
					jo_string(out, roles[who]);
					jo_end_array(out);
				}
	if (mover != GT_NO_ROLE)
		jo_fact(out, "control", roles[mover]);
}

static void
c4_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	Connect4   *c = GT_STATE_AS(out, Connect4);
	uint64		occupied;

	c4_initial(game, out);
	placement_decode(game, &board, facts, nfacts, c->disc);
	occupied = c->disc[C4_RED] | c->disc[C4_BLACK];
	/* Every disc rests on the bottom or on another disc. */
	if (occupied & ~(occupied << 1 | C4_BOTTOM_ROW))
	{
		int			bit = pg_rightmost_one_pos64(occupied & ~(occupied << 1 | C4_BOTTOM_ROW));

		gt_invalid_state(game, "the disc at (%d, %d) floats above an empty cell",
						 bit / C4_H + 1, bit % C4_H + 1);
	}
}

static void
c4_encode_action(const Game *game, const GameState *state, GameMove move, int role,
				 JsonOut *out)
{
	jo_begin_array(out);
	jo_string(out, "drop");
	jo_int(out, move + 1);
	jo_end_array(out);
}

/* The column, 1 to 7. */
static char *
c4_notation(const Game *game, const GameState *state, GameMove move)
{
	return psprintf("%d", (int) move + 1);
}

/* The short form of ["drop", column] needs no position: the same column. */
static char *
c4_format_action(const Game *game, const JsonbValue *action)
{
	return gt_action_arguments(action, "drop", 1, 1, jbvNumeric, "");
}

/* The column; any number, next() tells the illegal ones. */
static char *
c4_read_action(const Game *game, const char *text)
{
	long		column;

	if (gt_read_numbers(text, &column, 1) != 1)
		return NULL;
	return psprintf("[\"drop\", %ld]", column);
}

uint64
c4_winning_cells(uint64 own, uint64 occupied)
{
	static const int dirs[3] = {C4_H, C4_H - 1, C4_H + 1};
	uint64		cells = (own << 1) & (own << 2) & (own << 3);	/* on top of three */

	for (int i = 0; i < 3; i++)
	{
		int			d = dirs[i];
		uint64		pair = (own << d) & (own << 2 * d);

		cells |= pair & (own << 3 * d);
		cells |= pair & (own >> d);
		pair = (own >> d) & (own >> 2 * d);
		cells |= pair & (own << d);
		cells |= pair & (own >> 3 * d);
	}
	return cells & C4_BOARD_MASK & ~occupied;
}

/* The cell a disc dropped in column move lands on. */
static uint64
landing_cell(const Connect4 *c, GameMove move)
{
	uint64		occupied = c->disc[C4_RED] | c->disc[C4_BLACK];

	return (occupied + (UINT64CONST(1) << (C4_H * move))) & (UINT64CONST(0x3F) << (C4_H * move));
}

/*
 * Forcing moves, for search's ordering and quiescence: 2 completes a four,
 * 1 fills the cell where the opponent would complete one.
 */
static int
c4_tactical(const Game *game, const GameState *state, GameMove move)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	uint64		occupied = c->disc[C4_RED] | c->disc[C4_BLACK];
	int			mover = gt_popcount64(c->disc[C4_RED]) == gt_popcount64(c->disc[C4_BLACK]) ? C4_RED : C4_BLACK;
	uint64		cell = landing_cell(c, move);

	if (cell & c4_winning_cells(c->disc[mover], occupied))
		return 2;
	return (cell & c4_winning_cells(c->disc[1 - mover], occupied)) ? 1 : 0;
}

/* Centre columns take part in more lines: weight discs by the lines through them. */
static void
c4_heuristic(const Game *game, const GameState *state, double *values)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	static const int weight[C4_ROWS][C4_COLS] = {
		{3, 4, 5, 7, 5, 4, 3},
		{4, 6, 8, 10, 8, 6, 4},
		{5, 8, 11, 13, 11, 8, 5},
		{5, 8, 11, 13, 11, 8, 5},
		{4, 6, 8, 10, 8, 6, 4},
		{3, 4, 5, 7, 5, 4, 3},
	};
	int			score = 0;

	for (int col = 0; col < C4_COLS; col++)
		for (int row = 0; row < C4_ROWS; row++)
		{
			int			bit = C4_H * col + row;

			score += (c->disc[C4_RED] >> bit & 1) ? weight[row][col] : 0;
			score -= (c->disc[C4_BLACK] >> bit & 1) ? weight[row][col] : 0;
		}
	/* The weights sum to 276 per side; map the difference onto 0..100. */
	values[C4_RED] = 50.0 + 50.0 * score / 276.0;
	values[C4_BLACK] = 100.0 - values[C4_RED];
}

static char *
c4_board(const Game *game, const GameState *state)
{
	const Connect4 *c = GT_STATE_AS(state, Connect4);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int row = C4_ROWS - 1; row >= 0; row--)
	{
		appendStringInfo(&buf, "%d |", row + 1);
		for (int col = 0; col < C4_COLS; col++)
		{
			int			bit = C4_H * col + row;

			appendStringInfo(&buf, " %c", (c->disc[C4_RED] >> bit & 1) ? 'R' :
							 (c->disc[C4_BLACK] >> bit & 1) ? 'B' : '.');
		}
		appendStringInfoString(&buf, " |\n");
	}
	appendStringInfoString(&buf, "  +---------------+\n    1 2 3 4 5 6 7\n");
	placement_board_status(game, &board, c->disc, &buf);
	return buf.data;
}

/* The short board's cell (row, col), from 0 at the top left, as a bit. */
static int
short_board_bit(int row, int col)
{
	return C4_H * col + C4_ROWS - 1 - row;
}

static char *
c4_short_board(const Game *game, const GameState *state)
{
	return placement_short_board(GT_STATE_AS(state, Connect4)->disc, C4_ROWS, C4_COLS, short_board_bit, "RB");
}

const Game	connect4_game = {
	.name = "connect4",
	.description = "Connect Four, 7 columns x 6 rows; facts and names as in ggp-base's connectFour.kif",
	.nroles = 2,
	.roles = roles,
	.state_bytes = sizeof(Connect4),
	.max_moves = C4_COLS,
	.initial = c4_initial,
	.legal = c4_legal,
	.next = c4_next,
	.terminal = c4_terminal,
	.goals = c4_goals,
	.control = c4_control,
	.hash = c4_hash,
	.packed_bytes = C4_PACKED_BYTES,
	.pack = c4_pack,
	.unpack = c4_unpack,
	.heuristic = c4_heuristic,
	.tactical = c4_tactical,
	.solve = c4_solve,
	.encode_state = c4_encode_state,
	.decode_state = c4_decode_state,
	.encode_action = c4_encode_action,
	.notation = c4_notation,
	.format_action = c4_format_action,
	.read_action = c4_read_action,
	.action_syntax = "a column from 1 to 7",
	.action_hint = "the column, 1 to 7",
	.board = c4_board,
	.short_board = c4_short_board,
};
