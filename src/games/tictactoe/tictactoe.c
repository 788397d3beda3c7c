/*
 * tictactoe.c: 3x3 tic-tac-toe with the facts and names of ggp-base's
 * ticTacToe.kif: roles xplayer and oplayer, (cell row col x|o|b),
 * (control role), action (mark row col).
 *
 * State: two 9-bit masks, bit 3*(row-1) + (col-1).  The role in control
 * follows from the counts, so it is not stored.  Moves are cell indexes and
 * legal() lists them in that (row-major) order.
 */
#include "postgres.h"

#include "core/notation.h"
#include "games/placement.h"
#include "port/pg_bitutils.h"
#include "tictactoe.h"

#define FULL 0x1FF
#define X 0
#define O 1

static const char *const roles[] = {"xplayer", "oplayer"};
static const char *const marks[] = {"x", "o", "b"};
static const uint16 lines[8] = {
	0007, 0070, 0700,			/* rows */
	0111, 0222, 0444,			/* columns */
	0421, 0124					/* diagonals */
};

static bool
has_line(uint64 m)
{
	for (int i = 0; i < 8; i++)
		if ((m & lines[i]) == lines[i])
			return true;
	return false;
}

static int
cell_bit(int row, int col)
{
	return 3 * (row - 1) + col - 1;
}

/* Any mark may have been the last. */
static uint64
any_cell(uint64 occupied)
{
	return occupied;
}

static const PlacementBoard board = {
	.range = {3, 3},
	.bit = cell_bit,
	.pieces = marks,
	.counts = "%d x's and %d o's",
	.full = FULL,
	.has_line = has_line,
	.last_placed = any_cell,
};

static void
ttt_initial(const Game *game, GameState *out)
{
	memset(out->data, 0, sizeof(TicTacToe));
	out->size = sizeof(TicTacToe);
}

static int
ttt_control(const Game *game, const GameState *state)
{
	return placement_control(&board, GT_STATE_AS(state, TicTacToe)->mark);
}

static bool
ttt_terminal(const Game *game, const GameState *state)
{
	return ttt_control(game, state) == GT_NO_ROLE;
}

static int
ttt_legal(const Game *game, const GameState *state, GameMove *moves)
{
	const TicTacToe *t = GT_STATE_AS(state, TicTacToe);
	uint32		empty = FULL & ~(t->mark[X] | t->mark[O]);
	int			n = 0;

	if (ttt_terminal(game, state))
		return 0;
	while (empty)
	{
		moves[n++] = pg_rightmost_one_pos32(empty);
		empty &= empty - 1;
	}
	return n;
}

static void
ttt_next(const Game *game, const GameState *state, GameMove move, GameState *out)
{
	int			mover = ttt_control(game, state);
	TicTacToe  *t = GT_STATE_AS(out, TicTacToe);

	gt_state_copy(out, state);
	t->mark[mover] |= 1 << move;
}

static void
ttt_goals(const Game *game, const GameState *state, int *goals)
{
	placement_goals(&board, GT_STATE_AS(state, TicTacToe)->mark, goals);
}

static uint64
ttt_hash(const Game *game, const GameState *state)
{
	const TicTacToe *t = GT_STATE_AS(state, TicTacToe);
	uint64		w = t->mark[X] | (uint64) t->mark[O] << 16;

	return gt_hash_words(&w, 1);
}

static void
ttt_encode_state(const Game *game, const GameState *state, JsonOut *out)
{
	const TicTacToe *t = GT_STATE_AS(state, TicTacToe);
	int			mover = ttt_control(game, state);

	for (int cell = 0; cell < 9; cell++)
	{
		int			m = (t->mark[X] >> cell & 1) ? X : (t->mark[O] >> cell & 1) ? O : 2;

		jo_begin_array(out);
		jo_string(out, "cell");
		jo_int(out, cell / 3 + 1);
		jo_int(out, cell % 3 + 1);
		jo_string(out, marks[m]);
		jo_end_array(out);
	}
	if (mover != GT_NO_ROLE)
		jo_fact(out, "control", roles[mover]);
}

static void
ttt_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out)
{
	ttt_initial(game, out);
	placement_decode(game, &board, facts, nfacts, GT_STATE_AS(out, TicTacToe)->mark);
}

static void
ttt_encode_action(const Game *game, const GameState *state, GameMove move, int role,
				  JsonOut *out)
{
	jo_begin_array(out);
	jo_string(out, "mark");
	jo_int(out, move / 3 + 1);
	jo_int(out, move % 3 + 1);
	jo_end_array(out);
}

/* The row and the column, "2,2". */
static char *
ttt_notation(const Game *game, const GameState *state, GameMove move)
{
	return psprintf("%d,%d", (int) move / 3 + 1, (int) move % 3 + 1);
}

/* The short form of ["mark", row, column] needs no position: the same "2,2". */
static char *
ttt_format_action(const Game *game, const JsonbValue *action)
{
	return gt_action_arguments(action, "mark", 2, 2, jbvNumeric, ",");
}

/* "2 2" or "2,2"; any row and column, next() tells the illegal ones. */
static char *
ttt_read_action(const Game *game, const char *text)
{
	long		values[2];

	if (gt_read_numbers(text, values, 2) != 2)
		return NULL;
	return psprintf("[\"mark\", %ld, %ld]", values[0], values[1]);
}

static char *
ttt_board(const Game *game, const GameState *state)
{
	const TicTacToe *t = GT_STATE_AS(state, TicTacToe);
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "    1   2   3\n");
	for (int row = 0; row < 3; row++)
	{
		appendStringInfo(&buf, "%d ", row + 1);
		for (int col = 0; col < 3; col++)
		{
			int			cell = 3 * row + col;
			char		c = (t->mark[X] >> cell & 1) ? 'X' : (t->mark[O] >> cell & 1) ? 'O' : ' ';

			appendStringInfo(&buf, " %c %s", c, col < 2 ? "|" : "\n");
		}
		if (row < 2)
			appendStringInfoString(&buf, "  ---+---+---\n");
	}
	placement_board_status(game, &board, t->mark, &buf);
	return buf.data;
}

/* The short board's cell (row, col), from 0 at the top left, as a bit. */
static int
short_board_bit(int row, int col)
{
	return 3 * row + col;
}

static char *
ttt_short_board(const Game *game, const GameState *state)
{
	return placement_short_board(GT_STATE_AS(state, TicTacToe)->mark, 3, 3, short_board_bit, "XO");
}

const Game	tictactoe_game = {
	.name = "tictactoe",
	.description = "Tic-tac-toe on a 3x3 board; facts and names as in ggp-base's ticTacToe.kif",
	.nroles = 2,
	.roles = roles,
	.state_bytes = sizeof(TicTacToe),
	.max_moves = 9,
	.initial = ttt_initial,
	.legal = ttt_legal,
	.next = ttt_next,
	.terminal = ttt_terminal,
	.goals = ttt_goals,
	.control = ttt_control,
	.hash = ttt_hash,
	.packed_bytes = TTT_PACKED_BYTES,
	.pack = ttt_pack,
	.unpack = ttt_unpack,
	.encode_state = ttt_encode_state,
	.decode_state = ttt_decode_state,
	.encode_action = ttt_encode_action,
	.notation = ttt_notation,
	.format_action = ttt_format_action,
	.read_action = ttt_read_action,
	.action_syntax = "a row and a column, such as 2 2 or 2,2",
	.action_hint = "row and column, such as 2 2 or 2,2",
	.board = ttt_board,
	.short_board = ttt_short_board,
};
