/*
 * san.c: Standard Algebraic Notation, the moves of PGN and of chess books
 * (e4, Nf3, exd5, O-O, e8=Q, Nbd2, R1e1, Qh4+, Qxf7#).
 *
 * Written: the piece letter (none for a pawn), the from-square's file, rank
 * or both when another piece of the same kind can reach the square (file
 * first, as FIDE's rules say), x for a capture (a pawn's with its file),
 * the square, =piece for a promotion, and + or # for a check or a mate.
 * Read: the same text, exactly as written here once its check marks, move
 * annotations (!, ?) and a promotion without "=" (e8Q) are set aside, and
 * 0-0 for O-O.  Matching every legal move's own notation makes the reading
 * as exact as the writing: an ambiguous Nd2 matches no move.
 */
#include "postgres.h"

#include "chess.h"
#include "lib/stringinfo.h"

static const char san_pieces[] = "PNBRQK";

/* SAN of a legal move of pos without its check mark, given the position's legal moves. */
static void
san_body(const Position *pos, Move m, const Move *legal, int nlegal, StringInfo out)
{
	int			from = MOVE_FROM(m),
				to = MOVE_TO(m);
	int			type = PIECE_TYPE(pos->board[from]);
	bool		capture = pos->board[to] != EMPTY || (type == PAWN && to == pos->ep && pos->ep != NO_SQUARE);

	if (type == KING && abs(SQ_FILE(to) - SQ_FILE(from)) == 2)
	{
		appendStringInfoString(out, SQ_FILE(to) > SQ_FILE(from) ? "O-O" : "O-O-O");
		return;
	}
	if (type == PAWN)
	{
		if (capture)
			appendStringInfoChar(out, 'a' + SQ_FILE(from));
	}
	else
	{
		bool		other = false,
					same_file = false,
					same_rank = false;

		appendStringInfoChar(out, san_pieces[type]);
		for (int i = 0; i < nlegal; i++)
		{
			int			f = MOVE_FROM(legal[i]);

			if (f == from || MOVE_TO(legal[i]) != to || PIECE_TYPE(pos->board[f]) != type)
				continue;
			other = true;
			same_file |= SQ_FILE(f) == SQ_FILE(from);
			same_rank |= SQ_RANK(f) == SQ_RANK(from);
		}
		if (other && (!same_file || same_rank))
			appendStringInfoChar(out, 'a' + SQ_FILE(from));
		if (other && same_file)
			appendStringInfoChar(out, '1' + SQ_RANK(from));
	}
	if (capture)
		appendStringInfoChar(out, 'x');
	appendStringInfo(out, "%c%c", 'a' + SQ_FILE(to), '1' + SQ_RANK(to));
	if (MOVE_PROMO(m))
		appendStringInfo(out, "=%c", san_pieces[MOVE_PROMO(m)]);
}

char *
chess_san(const Position *pos, Move m)
{
	Move		legal[MAX_MOVES];
	Move		replies[MAX_MOVES];
	int			nlegal = chess_generate(pos, legal);
	Position	after = *pos;
	StringInfoData out;

	initStringInfo(&out);
	san_body(pos, m, legal, nlegal, &out);
	chess_do_move(&after, m);
	if (checking_pieces(&after))
		appendStringInfoChar(&out, chess_generate(&after, replies) == 0 ? '#' : '+');
	return out.data;
}

/*
 * The legal move whose SAN text is, or false.  text may end in check marks
 * and annotations, spell a promotion without "=", castling with zeros.
 */
bool
chess_parse_san(const Position *pos, const char *text, Move *move)
{
	Move		legal[MAX_MOVES];
	int			nlegal;
	char		core[16];
	int			len = strlen(text);
	StringInfoData san;

	while (len > 0 && strchr("+#!?", text[len - 1]))
		len--;
	if (len < 2 || len > 10)
		return false;
	memcpy(core, text, len);
	core[len] = '\0';
	for (int i = 0; i < len; i++)
		if (core[i] == '0')
			core[i] = 'O';		/* 0-0: no square has a file or rank 0 */
	/* e8Q: a promotion without "=" */
	if (len >= 3 && strchr("NBRQ", core[len - 1]) && (core[len - 2] == '1' || core[len - 2] == '8'))
	{
		core[len + 1] = '\0';
		core[len] = core[len - 1];
		core[len - 1] = '=';
	}
	nlegal = chess_generate(pos, legal);
	initStringInfo(&san);
	for (int i = 0; i < nlegal; i++)
	{
		resetStringInfo(&san);
		san_body(pos, legal[i], legal, nlegal, &san);
		if (strcmp(san.data, core) == 0)
		{
			*move = legal[i];
			pfree(san.data);
			return true;
		}
	}
	pfree(san.data);
	return false;
}
