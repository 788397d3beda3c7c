/*
 * fen.c: Forsyth-Edwards Notation.  Malformed text is 22P02 and names the
 * field; a well-formed FEN of an impossible position is 22023 from
 * chess_validate.  The output is canonical: castling in KQkq order, and an
 * en passant square only when a capture there is legal.
 */
#include "postgres.h"

#include "chess.h"
#include "lib/stringinfo.h"

static void
bad_fen(const char *fen, const char *fmt,...) pg_attribute_printf(2, 3) pg_attribute_noreturn();

static void
bad_fen(const char *fen, const char *fmt,...)
{
	char		problem[256];
	va_list		args;

	va_start(args, fmt);
	vsnprintf(problem, sizeof(problem), fmt, args);
	va_end(args);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid FEN \"%s\": %s", gt_abbreviate(fen), problem),
			 errhint("A FEN has six fields, e.g. \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", or the first four (EPD).")));
	pg_unreachable();
}

static void
parse_board(const char *fen, const char *field, Position *pos)
{
	static const char letters[] = PIECE_LETTERS;
	int			rank = 7;
	int			file = 0;

	for (const char *c = field;; c++)
	{
		if (*c == '/' || *c == '\0')
		{
			if (file != 8)
				bad_fen(fen, "rank %d of the board has %d squares, not 8", rank + 1, file);
			if (*c == '\0')
				break;
			if (--rank < 0)
				bad_fen(fen, "the board has more than 8 ranks");
			file = 0;
		}
		else if (*c >= '1' && *c <= '8')
			file += *c - '0';
		else if (strchr(letters, *c) != NULL)
		{
			int			i = strchr(letters, *c) - letters;

			if (file < 8)
				chess_put(pos, SQ(file, rank), PIECE(i / 6, i % 6));
			file++;
		}
		else
			bad_fen(fen, "the board has the invalid character \"%c\"", *c);
		if (file > 8)
			bad_fen(fen, "rank %d of the board has more than 8 squares", rank + 1);
	}
	if (rank != 0)
		bad_fen(fen, "the board has %d ranks, not 8", 8 - rank);
}

static int
parse_castling(const char *fen, const char *field)
{
	static const char letters[] = "KQkq";	/* WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO */
	int			rights = 0;

	if (strcmp(field, "-") == 0)
		return 0;
	for (const char *c = field; *c; c++)
	{
		const char *p = strchr(letters, *c);
		int			bit;

		if (p == NULL)
			bad_fen(fen, "the castling field must be \"-\" or letters of \"KQkq\", not \"%s\"", field);
		bit = 1 << (p - letters);
		if (rights & bit)
			bad_fen(fen, "the castling field gives \"%c\" twice", *c);
		rights |= bit;
	}
	return rights;
}

static int
parse_clock(const char *fen, const char *field, const char *name, int min)
{
	long		value = 0;

	for (const char *c = field; *c; c++)
	{
		if (*c < '0' || *c > '9' || value > MAX_CLOCK)
		{
			value = -1;
			break;
		}
		value = value * 10 + (*c - '0');
	}
	if (*field == '\0' || value < min || value > MAX_CLOCK)
		bad_fen(fen, "the %s must be an integer from %d to %d, not \"%s\"", name, min, MAX_CLOCK, field);
	return (int) value;
}

void
chess_from_fen(const Game *game, const char *fen, GameState *out)
{
	Position   *pos = GT_STATE_AS(out, Position);
	char	   *copy = pstrdup(fen);
	char	   *fields[7];
	int			nfields = 0;
	char	   *save = NULL;

	chess_clear(pos);
	out->size = sizeof(Position);
	for (char *tok = strtok_r(copy, " \t\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\n", &save))
	{
		if (nfields == 6)
			bad_fen(fen, "more than 6 fields");
		fields[nfields++] = tok;
	}
	/* EPD's four fields, without the clocks, are a position at its start: clocks 0 and 1 */
	if (nfields != 6 && nfields != 4)
		bad_fen(fen, "%d field%s, not 6 (board, side to move, castling, en passant, halfmove clock, fullmove number) "
				"or the first 4 of them", nfields, nfields == 1 ? "" : "s");
	parse_board(fen, fields[0], pos);
	if (strcmp(fields[1], "w") == 0)
		pos->side = WHITE;
	else if (strcmp(fields[1], "b") == 0)
		pos->side = BLACK;
	else
		bad_fen(fen, "the side to move must be \"w\" or \"b\", not \"%s\"", fields[1]);
	pos->castling = parse_castling(fen, fields[2]);
	if (strcmp(fields[3], "-") != 0)
	{
		const char *ep = fields[3];

		if (strlen(ep) != 2 || ep[0] < 'a' || ep[0] > 'h' || (ep[1] != '3' && ep[1] != '6'))
			bad_fen(fen, "the en passant field must be \"-\" or a square on rank 3 or 6, not \"%s\"", ep);
		pos->ep = SQ(ep[0] - 'a', ep[1] - '1');
	}
	pos->halfmove = nfields == 6 ? parse_clock(fen, fields[4], "halfmove clock", 0) : 0;
	pos->fullmove = nfields == 6 ? parse_clock(fen, fields[5], "fullmove number", 1) : 1;
	chess_validate(game, pos);
}

char *
chess_to_fen(const Game *game, const GameState *state)
{
	const Position *pos = GT_STATE_AS(state, Position);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int r = 7; r >= 0; r--)
	{
		int			blanks = 0;

		for (int f = 0; f < 8; f++)
		{
			int			p = pos->board[SQ(f, r)];

			if (p == EMPTY)
			{
				blanks++;
				continue;
			}
			if (blanks)
				appendStringInfoChar(&buf, '0' + blanks);
			blanks = 0;
			appendStringInfoChar(&buf, piece_letter(p));
		}
		if (blanks)
			appendStringInfoChar(&buf, '0' + blanks);
		if (r > 0)
			appendStringInfoChar(&buf, '/');
	}
	appendStringInfo(&buf, " %c ", pos->side == WHITE ? 'w' : 'b');
	if (pos->castling == 0)
		appendStringInfoChar(&buf, '-');
	for (int i = 0; i < 4; i++)
		if (pos->castling & (1 << i))
			appendStringInfoChar(&buf, "KQkq"[i]);
	if (pos->ep == NO_SQUARE)
		appendStringInfoString(&buf, " -");
	else
		appendStringInfo(&buf, " %s", chess_square_name(pos->ep));
	appendStringInfo(&buf, " %d %d", pos->halfmove, pos->fullmove);
	return buf.data;
}
