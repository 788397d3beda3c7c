/*
 * eval.c: the heuristic hook, a static evaluation in centipawns mapped to an
 * expected score: material (100, 320, 330, 500, 900) plus small bonuses for
 * centralised knights and bishops, advanced pawns and mobility; and, in
 * endings where one side is a rook or more ahead in pieces, a bonus for
 * driving the other king to the edge and bringing its own near ("mop-up"),
 * so that search makes progress in won endings instead of shuffling.
 */
#include "postgres.h"

#include <math.h>

#include "chess.h"

static const int piece_value[6] = {100, 320, 330, 500, 900, 0};

/* Centipawns a side ahead by which scores 10 to 1 on the curve of Elo ratings. */
#define ELO_CENTIPAWNS 400.0

/* Distance-to-centre bonus: 0 on the rim, up to 30 on d4, e4, d5, e5. */
static int
centrality(int s)
{
	int			f = SQ_FILE(s) < 4 ? SQ_FILE(s) : 7 - SQ_FILE(s);
	int			r = SQ_RANK(s) < 4 ? SQ_RANK(s) : 7 - SQ_RANK(s);

	return 5 * (f + r);
}

/*
 * Mop-up: a rook or more ahead in pieces (pawns aside), enough to mate, with
 * the defender down to a minor piece at most, the ending is about the kings.
 */
#define MOP_UP_MARGIN 500
#define MOP_UP_DEFENDER 330

/*
 * strong's bonus: the other king's distance from the centre (0..6 in king
 * steps along files and ranks), then how close the kings are (Manhattan).
 */
static int
mop_up(const Position *pos, int strong)
{
	int			weak_king = king_square(pos, 1 - strong);
	int			strong_king = king_square(pos, strong);
	int			from_centre = 6 - centrality(weak_king) / 5;
	int			apart = Abs(SQ_FILE(weak_king) - SQ_FILE(strong_king)) +
		Abs(SQ_RANK(weak_king) - SQ_RANK(strong_king));

	return 10 * from_centre + 4 * (14 - apart);
}

/* Evaluation of color's pieces, from its own point of view; adds their material but pawns to *pieces. */
static int
side_score(const Position *pos, int color, int *pieces)
{
	Bitboard	occ = occupied(pos);
	Bitboard	b = pos->color[color] & ~pos->type[KING];
	int			score = 0;

	while (b)
	{
		int			s = pop_lsb(&b);
		int			type = PIECE_TYPE(pos->board[s]);
		int			advance = color == WHITE ? SQ_RANK(s) - 1 : 6 - SQ_RANK(s);

		score += piece_value[type];
		if (type != PAWN)
			*pieces += piece_value[type];
		switch (type)
		{
			case PAWN:
				score += 4 * advance * advance / 2;
				break;
			case KNIGHT:
				score += centrality(s) + 4 * popcount(chess_knight_attacks[s] & ~pos->color[color]);
				break;
			case BISHOP:
				score += centrality(s) / 2 + 4 * popcount(bishop_attacks(s, occ));
				break;
			case ROOK:
				score += 2 * popcount(rook_attacks(s, occ));
				break;
			case QUEEN:
				score += popcount(bishop_attacks(s, occ) | rook_attacks(s, occ));
				break;
		}
	}
	return score;
}

void
chess_heuristic(const Game *game, const GameState *state, double *values)
{
	const Position *pos = GT_STATE_AS(state, Position);
	int			cp;
	int			pieces[2] = {0, 0};

	cp = side_score(pos, WHITE, &pieces[WHITE]) - side_score(pos, BLACK, &pieces[BLACK]);
	/* Only in endings: with pieces on the board a king does not walk out. */
	if (pieces[WHITE] - pieces[BLACK] >= MOP_UP_MARGIN && pieces[BLACK] <= MOP_UP_DEFENDER)
		cp += mop_up(pos, WHITE);
	else if (pieces[BLACK] - pieces[WHITE] >= MOP_UP_MARGIN && pieces[WHITE] <= MOP_UP_DEFENDER)
		cp -= mop_up(pos, BLACK);
	/* The logistic curve of Elo ratings: +400 centipawns ~ a 91% score. */
	values[WHITE] = GT_GOAL_MAX / (1.0 + pow(10.0, -cp / ELO_CENTIPAWNS));
	values[BLACK] = GT_GOAL_MAX - values[WHITE];
}

/*
 * The inverse of chess_heuristic's curve, for the UCI protocol's "score cp".
 * The curve never reaches 0 or 100 (a proven result, which UCI reports as
 * mate instead): utilities are held within a hundredth of them, about
 * 1,600 centipawns.  Not a number stays one.
 */
double
chess_centipawns(const Game *game, double utility)
{
	double		u = utility < 0.01 ? 0.01 : utility > 99.99 ? 99.99 : utility;

	return ELO_CENTIPAWNS * log10(u / (GT_GOAL_MAX - u));
}

/*
 * Captures by the value taken, the cheaper taker first among equal ones
 * (MVV-LVA), and promotions by the piece gained.
 */
int
chess_tactical(const Game *game, const GameState *state, GameMove move)
{
	const Position *pos = GT_STATE_AS(state, Position);
	int			from = MOVE_FROM(move);
	int			to = MOVE_TO(move);
	int			mover = PIECE_TYPE(pos->board[from]);
	int			score = 0;

	if (pos->board[to] != EMPTY)
		score = 16 * piece_value[PIECE_TYPE(pos->board[to])] - mover;
	else if (mover == PAWN && to == pos->ep && SQ_FILE(from) != SQ_FILE(to))
		score = 16 * piece_value[PAWN] - PAWN;
	if (MOVE_PROMO(move) != 0)
		score += 16 * (piece_value[MOVE_PROMO(move)] - piece_value[PAWN]);
	return score;
}
