/*
 * play.c: the command play, a game against bestmove in the terminal.
 *
 * The position lives on the server's side of each call: the client keeps
 * the states of the game so far (for undo) as the server wrote them, and
 * asks the server for everything else: the board (gametree.board), whose
 * turn it is, whether the game is over, the next state after a move typed
 * in the game's notation (next() refuses an illegal one, and its message
 * is the reason shown), the engine's move, the goals at the end.
 *
 * Lines are read whole, of any length (a long one is one bad move, never
 * a move and a rest read as the next), so the game can be played on a
 * terminal or fed from a pipe; when the input is not a terminal, each line read is echoed
 * after its prompt, so that the transcript reads as a game.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "game.h"
#include "interrupt.h"
#include "notation.h"
#include "query.h"
#include "report.h"
#include "util.h"

/* One position of the game: the state and what the server says about it. */
typedef struct Position
{
	char	   *state;			/* JSON */
	char	   *control;		/* the role to move; NULL when the game is over */
	char	   *board;			/* gametree.board's picture */
	bool		terminal;
	char	   *move;			/* JSON of the move that led here; NULL at the start */
} Position;

typedef struct Play
{
	PGconn	   *conn;
	const Args *args;
	Game		game;
	int			human;			/* index of the human's role */
	const char *time;			/* the engine's time a move, NULL for none */
	TreeRef		tree;			/* with --tree */
	bool		has_tree;
	Position   *history;		/* history[0] the start, history[n - 1] the current position */
	int			n;
	int			cap;
	bool		echo;			/* the input is not a terminal: echo what is read */
	bool		tty;			/* stdout is a terminal */
	FILE	   *record;			/* --record: where the game's record goes at the end */
} Play;

/* The columns of a position, from the state s of the FROM clause; $1 is the game. */
#define POSITION_COLUMNS \
	"s, gametree.control($1, s), gametree.terminal($1, s), gametree.board($1, s)"

static void
position_free(Position *pos)
{
	free(pos->state);
	free(pos->control);
	free(pos->board);
	free(pos->move);
}

static void
push_position(Play *play, const PGresult *res)
{
	Position   *pos;

	if (play->n == play->cap)
	{
		play->cap = play->cap ? 2 * play->cap : 16;
		play->history = xrealloc(play->history, play->cap * sizeof(Position));
	}
	pos = &play->history[play->n++];
	pos->state = xstrdup(PQgetvalue(res, 0, 0));
	pos->control = PQgetisnull(res, 0, 1) ? NULL : xstrdup(PQgetvalue(res, 0, 1));
	pos->terminal = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
	pos->board = xstrdup(PQgetvalue(res, 0, 3));
	pos->move = NULL;
}

static Position *
current(Play *play)
{
	return &play->history[play->n - 1];
}

static void
print_board(Play *play)
{
	const char *board = current(play)->board;
	size_t		len = strlen(board);

	printf("\n%s%s\n", board, len > 0 && board[len - 1] == '\n' ? "" : "\n");
	fflush(stdout);
}

/*
 * Plays a move (JSON that next() takes) in the current position.  Returns
 * 1 when played, 0 when the server refused it (its message is printed as
 * the reason), -1 on any other failure (reported).
 */
static int
play_move(Play *play, const char *move)
{
	const char *params[3] = {play->game.name, current(play)->state, move};
	PGresult   *error;
	PGresult   *res = db_query_try(play->conn,
								   "SELECT " POSITION_COLUMNS " FROM "
								   "(SELECT gametree.next($1, $2::jsonb, $3::jsonb) AS s OFFSET 0) p",
								   3, params, &error);
	const char *sqlstate;

	if (res)
	{
		push_position(play, res);
		current(play)->move = xstrdup(move);
		PQclear(res);
		return 1;
	}
	if (!error)
		return -1;
	/* a data exception (22xxx: an illegal or malformed move) is the player's; the rest is an error */
	sqlstate = PQresultErrorField(error, PG_DIAG_SQLSTATE);
	if (sqlstate && strncmp(sqlstate, "22", 2) == 0)
	{
		printf("refused: %s\n", PQresultErrorField(error, PG_DIAG_MESSAGE_PRIMARY));
		fflush(stdout);
		PQclear(error);
		return 0;
	}
	report_result(error);
	PQclear(error);
	return -1;
}

/* The engine's move in the current position, played; false on a failure (reported). */
static bool
engine_move(Play *play)
{
	const char *role = current(play)->control;
	const char *params[6] = {play->game.name, current(play)->state, play->time,
		play->args->opt[OPT_DEPTH], play->args->opt[OPT_METHOD] ? play->args->opt[OPT_METHOD] : "auto", NULL};
	PGresult   *res;
	bool		ok;

	if (play->has_tree)
	{
		int			has = tree_has_state(play->conn, &play->tree, current(play)->state);

		if (has < 0)
			return false;
		if (has)
			params[5] = play->args->opt[OPT_TREE];
	}
	if (play->tty)
	{
		printf("%s is thinking...", role);
		fflush(stdout);
	}
	res = db_query(play->conn, "SELECT m, gametree.notation($1, $2::jsonb, jsonb_build_array(m)) "
				   "FROM (SELECT gametree.bestmove($1, $2::jsonb, $3::interval, $4::integer, $5, $6) AS m OFFSET 0) b",
				   6, params);
	if (play->tty)
	{
		printf("\r\033[K");
		fflush(stdout);
	}
	if (!res)
		return false;
	printf("%s plays %s\n", role, PQgetvalue(res, 0, 1));
	fflush(stdout);
	ok = play_move(play, PQgetvalue(res, 0, 0)) == 1;
	PQclear(res);
	return ok;
}

/* The legal moves of the current position in the game's notation. */
static bool
print_moves(Play *play)
{
	const char *params[2] = {play->game.name, current(play)->state};
	PGresult   *res = db_query(play->conn, "SELECT string_agg(gametree.notation($1, $2::jsonb, jsonb_build_array(m)), ' ') "
							   "FROM gametree.legal($1, $2::jsonb) m", 2, params);

	if (!res)
		return false;
	printf("legal moves: %s\n", PQgetvalue(res, 0, 0));
	fflush(stdout);
	PQclear(res);
	return true;
}

/* Takes back the human's last move and what the engine played after it. */
static void
undo(Play *play)
{
	const char *human = play->game.roles[play->human];

	for (int i = play->n - 2; i >= 0; i--)
		if (play->history[i].control && strcmp(play->history[i].control, human) == 0)
		{
			while (play->n > i + 1)
				position_free(&play->history[--play->n]);
			printf("took back your last move\n");
			print_board(play);
			return;
		}
	printf("nothing to undo\n");
	fflush(stdout);
}

/* How a game ended, for its record: the record format writes each its own way. */
typedef enum Outcome
{
	FIRST_WINS,
	SECOND_WINS,
	DRAW,
	UNFINISHED					/* abandoned, or no one result fits (a shared win) */
} Outcome;

static bool end_record(Play *play, Outcome outcome);

/* The goals at the end, per role, and who won; then the record. */
static bool
print_result(Play *play)
{
	Outcome		outcome;
	const char *params[2] = {play->game.name, current(play)->state};
	PGresult   *res = db_query(play->conn, "SELECT gametree.goal($1, $2::jsonb)", 2, params);
	json_object *goal;
	StrBuf		line;
	double		best = -1,
				worst = 1e9,
				mine = -1;
	int			nbest = 0;
	const char *winner = NULL;

	if (!res)
		return false;
	goal = json_tokener_parse(PQgetvalue(res, 0, 0));
	sb_init(&line);
	sb_append(&line, "result:");
	for (int i = 0; i < play->game.nroles; i++)
	{
		json_object *value = NULL;
		double		v;

		json_object_object_get_ex(goal, play->game.roles[i], &value);
		v = json_object_get_double(value);
		sb_printf(&line, "%s %s %s", i ? "," : "", play->game.roles[i],
				  value ? json_object_get_string(value) : "?");
		if (i == play->human)
			mine = v;
		if (v > best)
		{
			best = v;
			nbest = 1;
			winner = play->game.roles[i];
		}
		else if (v == best)
			nbest++;
		if (v < worst)
			worst = v;
	}
	if (best == worst)
		sb_append(&line, ": a draw");
	else if (nbest == 1)
		sb_printf(&line, ": %s wins", winner);
	else
		sb_append(&line, ": a shared win");
	if (best == worst)
		sb_append(&line, " (you draw)");
	else
		sb_append(&line, mine == best ? " (you win)" : " (you lose)");
	printf("%s\n", line.data);
	fflush(stdout);
	outcome = best == worst ? DRAW : nbest > 1 ? UNFINISHED : winner == play->game.roles[0] ? FIRST_WINS : SECOND_WINS;
	sb_free(&line);
	json_object_put(goal);
	PQclear(res);
	return end_record(play, outcome);
}

/*
 * The record of the game: in the game's record format (gametree.record_format:
 * PGN for chess, PDN for checkers), its tags, then the moves numbered by
 * turns, in the notation gametree.notation gives, then the result; the
 * moves alone for a game without one.
 */
static bool
write_record(Play *play, Outcome outcome, FILE *out)
{
	StrBuf		moves;
	const char *params[4];
	char		outcome_number[8];
	PGresult   *res;
	const char *result;
	int			turn;
	int			column = 0;
	bool		numbered_from_second;
	char	   *text;

	sb_init(&moves);
	sb_append(&moves, "[");
	for (int i = 1; i < play->n; i++)
		sb_printf(&moves, "%s%s", i > 1 ? ", " : "", play->history[i].move);
	sb_append(&moves, "]");
	params[0] = play->game.name;
	params[1] = play->history[0].state;
	params[2] = moves.data;
	snprintf(outcome_number, sizeof outcome_number, "%d", (int) outcome + 1);
	params[3] = outcome_number;
	res = db_query(play->conn,
				   "SELECT gametree.notation($1, $2::jsonb, $3::jsonb), r.first_turn, r.tags, "
				   /* the result string of the outcome, $4 counting from 1 in Outcome's order */
				   "(ARRAY[r.first_wins, r.second_wins, r.draw, r.unfinished])[$4::integer], r.setup_fen "
				   "FROM gametree.record_format($1, $2::jsonb) r",
				   4, params);
	sb_free(&moves);
	if (!res)
		return false;
	if (PQgetisnull(res, 0, 1))
	{
		fprintf(out, "moves: %s\n", PQgetvalue(res, 0, 0));
		PQclear(res);
		return true;
	}
	turn = atoi(PQgetvalue(res, 0, 1));
	result = PQgetvalue(res, 0, 3);
	/* the first role moves first in every turn */
	numbered_from_second = play->history[0].control && strcmp(play->history[0].control, play->game.roles[0]) != 0;
	{
		time_t		now = time(NULL);
		char		date[16] = "????.??.??";

		strftime(date, sizeof date, "%Y.%m.%d", localtime(&now));
		fprintf(out, "[Event \"gametree play\"]\n[Site \"?\"]\n[Date \"%s\"]\n[Round \"-\"]\n%s",
				date, PQgetvalue(res, 0, 2));
		for (int r = 0; r < play->game.nroles; r++)
			fprintf(out, "[%c%s \"%s\"]\n", play->game.roles[r][0] - 'a' + 'A', play->game.roles[r] + 1,
					r == play->human ? "you" : "gametree");
		fprintf(out, "[Result \"%s\"]\n", result);
		if (!PQgetisnull(res, 0, 4))
			fprintf(out, "[SetUp \"1\"]\n[FEN \"%s\"]\n", PQgetvalue(res, 0, 4));
		fputc('\n', out);
	}
	text = PQgetvalue(res, 0, 0);
	for (int ply = 0; *text; ply++)
	{
		size_t		len = strcspn(text, " ");
		bool		second = (ply % 2 == 1) != numbered_from_second;
		char		number[32] = "";

		if (!second)
			snprintf(number, sizeof number, "%d. ", turn);
		else if (ply == 0)
			snprintf(number, sizeof number, "%d... ", turn);
		if (column > 0 && column + strlen(number) + len + 1 > 79)
		{
			fputc('\n', out);
			column = 0;
		}
		column += fprintf(out, "%s%s%.*s", column > 0 ? " " : "", number, (int) len, text);
		if (second)
			turn++;
		text += len;
		text += strspn(text, " ");
	}
	if (column > 0 && column + strlen(result) + 1 > 79)
	{
		fputc('\n', out);
		column = 0;
	}
	fprintf(out, "%s%s\n", column > 0 ? " " : "", result);
	PQclear(res);
	return true;
}

/* The record at the end, on stdout and in --record's file. */
static bool
end_record(Play *play, Outcome outcome)
{
	if (play->n < 2)
		return true;			/* no move was played */
	printf("\n");
	if (!write_record(play, outcome, stdout))
		return false;
	if (play->record && (!write_record(play, outcome, play->record) || fflush(play->record) != 0))
	{
		report("could not write the record to %s", play->args->opt[OPT_RECORD]);
		return false;
	}
	return true;
}

/* Reads a whole line, without its end and surrounding blanks; false at the end of the input or on Ctrl-C. */
static bool
read_line(StrBuf *line)
{
	size_t		start = 0;

	if (!sb_getline(line, stdin))
		return false;
	while (line->len > 0 && (line->data[line->len - 1] == ' ' || line->data[line->len - 1] == '\t'))
		line->data[--line->len] = '\0';
	while (line->data[start] == ' ' || line->data[start] == '\t')
		start++;
	memmove(line->data, line->data + start, line->len - start + 1);
	line->len -= start;
	return true;
}

/* The game, the lines typed read into input: returns the exit status. */
static int
game_loop(Play *play, StrBuf *input)
{
	const char *human = play->game.roles[play->human];
	const char *params[1] = {play->game.name};
	PGresult   *hint = db_query(play->conn, "SELECT gametree.move_hint($1)", 1, params);

	if (!hint)
		return EXIT_FAILED;
	printf("%s: you play %s against bestmove (%s a move). Type moves as %s;\n"
		   "also: moves (the legal moves), undo (take back your last move), quit.\n",
		   play->game.name, human, play->time ? play->time : "no time limit", PQgetvalue(hint, 0, 0));
	PQclear(hint);
	print_board(play);
	for (;;)
	{
		Position   *pos = current(play);
		StrBuf		move;
		StrBuf		expected;
		const char *line;
		int			rc;

		if (pos->terminal || pos->control == NULL)
			return print_result(play) ? 0 : EXIT_FAILED;
		if (strcmp(pos->control, human) != 0)
		{
			if (!engine_move(play))
				return EXIT_FAILED;
			print_board(play);
			continue;
		}
		printf("your move (%s): ", human);
		fflush(stdout);
		if (!read_line(input))
		{
			putchar('\n');
			if (interrupted())
			{
				report("interrupted");
				return EXIT_FAILED;
			}
			printf("end of input: game abandoned\n");
			return end_record(play, UNFINISHED) ? 0 : EXIT_FAILED;
		}
		line = input->data;
		if (play->echo)
			printf("%s\n", line);
		if (line[0] == '\0')
			continue;
		if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
		{
			printf("game abandoned\n");
			return end_record(play, UNFINISHED) ? 0 : EXIT_FAILED;
		}
		if (strcmp(line, "undo") == 0)
		{
			undo(play);
			continue;
		}
		if (strcmp(line, "moves") == 0 || strcmp(line, "help") == 0 || strcmp(line, "?") == 0)
		{
			if (!print_moves(play))
				return EXIT_FAILED;
			continue;
		}
		sb_init(&move);
		sb_init(&expected);
		rc = parse_move(play->conn, play->game.name, line, &move, &expected);
		if (rc == 0)
		{
			printf("not a move: \"%s\"; expected %s (moves lists them)\n", line, expected.data);
			fflush(stdout);
		}
		else if (rc > 0)
			rc = play_move(play, move.data);
		sb_free(&move);
		sb_free(&expected);
		if (rc < 0)
			return EXIT_FAILED;
		if (rc > 0)
			print_board(play);
	}
}

static int
run_play(PGconn *conn, Args *args)
{
	Play		play;
	const char *time = args->opt[OPT_TIME] ? args->opt[OPT_TIME] : "1s";
	const char *params[3] = {args->arg[0], args->opt[OPT_STATE], args->opt[OPT_FEN]};
	PGresult   *res;
	int			rc;

	memset(&play, 0, sizeof play);
	play.conn = conn;
	play.args = args;
	play.time = strcmp(time, "none") == 0 ? NULL : time;
	play.echo = !isatty(STDIN_FILENO);
	play.tty = isatty(STDOUT_FILENO);
	if (!game_load(conn, args->arg[0], &play.game))
		return EXIT_FAILED;
	play.human = args->opt[OPT_AS] ? game_role_index(&play.game, args->opt[OPT_AS]) : 0;
	if (play.human < 0)
	{
		StrBuf		roles;

		sb_init(&roles);
		for (int i = 0; i < play.game.nroles; i++)
			sb_printf(&roles, "%s%s", i ? ", " : "", play.game.roles[i]);
		report("%s has no role \"%s\" (its roles: %s)", play.game.name, args->opt[OPT_AS], roles.data);
		sb_free(&roles);
		game_free(&play.game);
		return EXIT_USAGE;
	}
	rc = 0;
	if (args->opt[OPT_TREE])
	{
		if (!tree_load(conn, args->opt[OPT_TREE], &play.tree))
			rc = EXIT_FAILED;
		else if (strcmp(play.tree.game, play.game.name) != 0)
		{
			report("tree %s is a tree of %s, not of %s", args->opt[OPT_TREE], play.tree.game, play.game.name);
			rc = EXIT_USAGE;
		}
		else
			play.has_tree = true;
	}
	if (rc == 0 && args->opt[OPT_RECORD] && (play.record = fopen(args->opt[OPT_RECORD], "w")) == NULL)
	{
		report("cannot write the record to \"%s\": %s", args->opt[OPT_RECORD], strerror(errno));
		rc = EXIT_USAGE;
	}
	if (rc == 0)
	{
		res = db_query(conn, "SELECT " POSITION_COLUMNS " FROM (SELECT " POSITION_SQL " AS s OFFSET 0) p",
					   3, params);
		if (!res)
			rc = EXIT_FAILED;
		else
		{
			StrBuf		input;

			push_position(&play, res);
			PQclear(res);
			sb_init(&input);
			rc = game_loop(&play, &input);
			sb_free(&input);
		}
	}
	for (int i = 0; i < play.n; i++)
		position_free(&play.history[i]);
	free(play.history);
	if (play.record && fclose(play.record) != 0 && rc == 0)
	{
		report("could not write the record to %s", args->opt[OPT_RECORD]);
		rc = EXIT_FAILED;
	}
	if (args->opt[OPT_TREE])
		tree_free(&play.tree);
	game_free(&play.game);
	return rc;
}

const Command cmd_play = {
	"play", "GAME [--as ROLE] [--fen FEN | --state JSON] [--time T] [--depth D] [--method M] [--tree TREE] [--record FILE]",
	"play a game against the engine in the terminal",
	"Plays GAME against gametree.bestmove: draws the board after every move\n"
	"and asks for yours, in the game's notation: chess in SAN (Nf3, exd5, O-O,\n"
	"e8=Q) or UCI (e2e4, e7e8q),\n"
	"checkers in PDN (11-15, 22x15x8), connect four the column (4), tic-tac-toe\n"
	"row and column (2 2 or 2,2). An illegal move is refused with the reason,\n"
	"and asked again. Also: moves (the legal moves), undo (take back your last\n"
	"move and the engine's reply), quit. At the end, the goal of every role\n"
	"and who won, then the game's record: PGN for chess, PDN for checkers, the\n"
	"moves for other games (also when the game is abandoned, result *).\n"
	"Lines are read from the standard input: a pipe works too.\n"
	"\n"
	"Options:\n"
	"  --as ROLE       the role you play (default: the first, who moves first)\n"
	"  --fen FEN       start from a FEN (chess, and PDN FEN for checkers)\n"
	"  --state JSON    start from a state, a JSON array of facts\n"
	"  --time T        the engine's time a move, a PostgreSQL interval (default\n"
	"                  1s); none: no limit, with --depth\n"
	"  --depth D       the engine's deepest iteration\n"
	"  --method M      the engine's search: auto (default), alphabeta, maxn, mcts\n"
	"  --tree TREE     a stored tree of the game as the engine's memory, while\n"
	"                  the game stays among its states\n"
	"  --record FILE   write the record to FILE too\n",
	OPT_BIT(OPT_AS) | OPT_BIT(OPT_FEN) | OPT_BIT(OPT_STATE) | OPT_BIT(OPT_TIME) | OPT_BIT(OPT_DEPTH) |
	OPT_BIT(OPT_METHOD) | OPT_BIT(OPT_TREE) | OPT_BIT(OPT_RECORD),
	1, run_play
};
