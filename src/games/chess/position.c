/*
 * position.c: making moves, the consistency rules of positions, Zobrist keys.
 */
#include "postgres.h"

#include "chess.h"

/* Rights lost when a move touches square s (a king or rook leaves or is taken). */
static const uint8 castling_lost[64] = {
	[SQ(0, 0)] = WHITE_OOO,
	[SQ(4, 0)] = WHITE_OO | WHITE_OOO,
	[SQ(7, 0)] = WHITE_OO,
	[SQ(0, 7)] = BLACK_OOO,
	[SQ(4, 7)] = BLACK_OO | BLACK_OOO,
	[SQ(7, 7)] = BLACK_OO,
};

/* splitmix64: a fixed-seed generator for magics and Zobrist keys. */
uint64
chess_splitmix64(uint64 *seed)
{
	uint64		z = (*seed += UINT64CONST(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64CONST(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64CONST(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
chess_clear(Position *pos)
{
	memset(pos, 0, sizeof(Position));
	pos->fullmove = 1;
}

void
chess_put(Position *pos, int s, int piece)
{
	pos->board[s] = piece;
	pos->color[PIECE_COLOR(piece)] |= BB(s);
	pos->type[PIECE_TYPE(piece)] |= BB(s);
}

static inline void
remove_piece(Position *pos, int s)
{
	int			piece = pos->board[s];

	pos->board[s] = EMPTY;
	pos->color[PIECE_COLOR(piece)] ^= BB(s);
	pos->type[PIECE_TYPE(piece)] ^= BB(s);
}

static inline void
move_piece(Position *pos, int from, int to)
{
	int			piece = pos->board[from];
	Bitboard	fromto = BB(from) | BB(to);

	pos->board[from] = EMPTY;
	pos->board[to] = piece;
	pos->color[PIECE_COLOR(piece)] ^= fromto;
	pos->type[PIECE_TYPE(piece)] ^= fromto;
}

void
chess_startpos(Position *pos)
{
	static const int back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};

	chess_clear(pos);
	for (int f = 0; f < 8; f++)
	{
		chess_put(pos, SQ(f, 0), PIECE(WHITE, back[f]));
		chess_put(pos, SQ(f, 1), PIECE(WHITE, PAWN));
		chess_put(pos, SQ(f, 6), PIECE(BLACK, PAWN));
		chess_put(pos, SQ(f, 7), PIECE(BLACK, back[f]));
	}
	pos->castling = WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO;
}

/* Drops the en passant square unless the side to move can legally capture there. */
static void
canonical_ep(Position *pos)
{
	int			us = pos->side;
	int			ep = pos->ep;
	int			victim;
	int			ksq;
	Bitboard	capturers;

	if (ep == NO_SQUARE)
		return;
	victim = us == WHITE ? ep - 8 : ep + 8;
	ksq = king_square(pos, us);
	capturers = chess_pawn_attacks[us ^ 1][ep] & pieces(pos, us, PAWN);
	while (capturers)
	{
		int			from = pop_lsb(&capturers);
		Bitboard	occ = (occupied(pos) ^ BB(from) ^ BB(victim)) | BB(ep);

		if (!(attackers_to(pos, ksq, occ) & pos->color[us ^ 1] & ~BB(victim)))
			return;
	}
	pos->ep = NO_SQUARE;
}

void
chess_do_move(Position *pos, Move m)
{
	int			from = MOVE_FROM(m);
	int			to = MOVE_TO(m);
	int			us = pos->side;
	int			type = PIECE_TYPE(pos->board[from]);
	int			ep = pos->ep;

	if (pos->halfmove < MAX_CLOCK)
		pos->halfmove++;
	pos->ep = NO_SQUARE;
	if (pos->board[to] != EMPTY)
	{
		remove_piece(pos, to);
		pos->halfmove = 0;
	}
	pos->castling &= ~(castling_lost[from] | castling_lost[to]);
	move_piece(pos, from, to);
	if (type == PAWN)
	{
		pos->halfmove = 0;
		if (to == ep && ep != NO_SQUARE)
			remove_piece(pos, us == WHITE ? to - 8 : to + 8);
		else if (MOVE_PROMO(m))
		{
			remove_piece(pos, to);
			chess_put(pos, to, PIECE(us, MOVE_PROMO(m)));
		}
		else if (to - from == 16 || from - to == 16)
			pos->ep = (from + to) / 2;
	}
	else if (type == KING && (from - to == 2 || to - from == 2))
	{
		/* Castling: the rook jumps over the king. */
		if (to > from)
			move_piece(pos, to + 1, to - 1);
		else
			move_piece(pos, to - 2, to + 1);
	}
	pos->side = us ^ 1;
	if (us == BLACK && pos->fullmove < MAX_CLOCK)
		pos->fullmove++;
	canonical_ep(pos);
}

char *
chess_square_name(int s)
{
	return psprintf("%c%c", 'a' + SQ_FILE(s), '1' + SQ_RANK(s));
}

/*
 * What makes a position one that cannot arise in a game (palloc'd), or
 * NULL: castling rights need the king and rook on their home squares, an en
 * passant square needs the pawn that just stepped over it.  Shared by
 * chess_validate and the storage format (pack.c), which needs no ERROR.
 */
const char *
chess_position_error(const Position *pos)
{
	static const struct
	{
		int			right;
		int			king;
		int			rook;
		const char *name;
	}			rights[4] = {
		{WHITE_OO, SQ(4, 0), SQ(7, 0), "white kingside"},
		{WHITE_OOO, SQ(4, 0), SQ(0, 0), "white queenside"},
		{BLACK_OO, SQ(4, 7), SQ(7, 7), "black kingside"},
		{BLACK_OOO, SQ(4, 7), SQ(0, 7), "black queenside"},
	};
	int			us = pos->side;
	Bitboard	misplaced = pos->type[PAWN] & (RANK_1 | RANK_8);

	for (int c = WHITE; c <= BLACK; c++)
	{
		int			kings = popcount(pieces(pos, c, KING));

		int			men = popcount(pos->color[c]);
		int			pawns = popcount(pieces(pos, c, PAWN));

		if (kings != 1)
			return psprintf("%s has %s", chess_roles[c],
							kings == 0 ? "no king" : psprintf("%d kings", kings));
		/* Also what bounds the legal moves of any accepted position (MAX_MOVES). */
		if (men > 16 || pawns > 8)
			return psprintf("%s has %d pieces and %d pawns; a side has at most 16 and 8",
							chess_roles[c], men, pawns);
	}
	if (misplaced)
		return psprintf("a pawn stands on %s, on the first or last rank",
						chess_square_name(lsb(misplaced)));
	if (attackers_to(pos, king_square(pos, us ^ 1), occupied(pos)) & pos->color[us])
		return psprintf("%s is in check, but %s is to move", chess_roles[us ^ 1],
						chess_roles[us]);
	for (int i = 0; i < 4; i++)
	{
		int			color = i / 2;

		if ((pos->castling & rights[i].right) &&
			(pos->board[rights[i].king] != PIECE(color, KING) ||
			 pos->board[rights[i].rook] != PIECE(color, ROOK)))
			return psprintf("castling %s needs the king on %s and a rook on %s",
							rights[i].name, chess_square_name(rights[i].king),
							chess_square_name(rights[i].rook));
	}
	if (pos->ep != NO_SQUARE)
	{
		int			ep = pos->ep;
		int			pawn = us == WHITE ? ep - 8 : ep + 8;
		int			origin = us == WHITE ? ep + 8 : ep - 8;

		if (SQ_RANK(ep) != (us == WHITE ? 5 : 2) ||
			pos->board[pawn] != PIECE(us ^ 1, PAWN) ||
			pos->board[ep] != EMPTY || pos->board[origin] != EMPTY)
			return psprintf("en passant square %s does not follow a double step of a %s pawn",
							chess_square_name(ep), chess_roles[us ^ 1]);
	}
	return NULL;
}

/* Rejects positions that cannot arise in a game, and canonicalises the en passant square. */
void
chess_validate(const Game *game, Position *pos)
{
	const char *error = chess_position_error(pos);

	if (error != NULL)
		gt_invalid_state(game, "%s", error);
	canonical_ep(pos);
}

bool
chess_ep_canonical(const Position *pos)
{
	Position	copy = *pos;

	canonical_ep(&copy);
	return copy.ep == pos->ep;
}

/* Zobrist keys: [piece code][square], then castling rights, ep file, side. */
static uint64 zobrist_piece[16][64];
static uint64 zobrist_castling[16];
static uint64 zobrist_ep[8];
static uint64 zobrist_black;

uint64
chess_zobrist(const Position *pos)
{
	static bool ready = false;
	uint64		key;
	Bitboard	occ = occupied(pos);

	if (!ready)
	{
		uint64		seed = UINT64CONST(0x7a6f627269737421);

		for (int p = 0; p < 16; p++)
			for (int s = 0; s < 64; s++)
				zobrist_piece[p][s] = chess_splitmix64(&seed);
		for (int c = 0; c < 16; c++)
			zobrist_castling[c] = chess_splitmix64(&seed);
		for (int f = 0; f < 8; f++)
			zobrist_ep[f] = chess_splitmix64(&seed);
		zobrist_black = chess_splitmix64(&seed);
		ready = true;
	}
	key = zobrist_castling[pos->castling];
	while (occ)
	{
		int			s = pop_lsb(&occ);

		key ^= zobrist_piece[pos->board[s]][s];
	}
	if (pos->ep != NO_SQUARE)
		key ^= zobrist_ep[SQ_FILE(pos->ep)];
	if (pos->side == BLACK)
		key ^= zobrist_black;
	return key;
}
