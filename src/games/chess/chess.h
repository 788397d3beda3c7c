/*
 * chess.h: the chess position and the functions shared by the chess files.
 *
 * The state is a Position: bitboards by colour and by piece type, a mailbox
 * for "what stands on square s", and the FEN fields.  Its bytes are
 * canonical (padding zeroed, en passant square kept only when a capture
 * there is legal), so equal positions have equal bytes and hashes.
 */
#ifndef CHESS_CHESS_H
#define CHESS_CHESS_H

#include "postgres.h"

#include "core/game.h"
#include "bitboard.h"

/* Castling rights, one bit each. */
#define WHITE_OO 1
#define WHITE_OOO 2
#define BLACK_OO 4
#define BLACK_OOO 8

#define NO_SQUARE 0				/* ep: a1 is never an en passant square */
#define EMPTY 0
#define PIECE(color, type) (((color) << 3) | ((type) + 1))
#define PIECE_TYPE(p) (((p) & 7) - 1)
#define PIECE_COLOR(p) ((p) >> 3)

/*
 * No game position has more than 218 legal moves, but accepted positions are
 * only checked for at most 16 men a side: 15 queens (27 moves each) and a
 * king (8, and 2 castlings) make at most 415.
 */
#define MAX_MOVES 416
#define FIFTY_MOVES 100			/* halfmove clock of a fifty-move draw */
#define MAX_CLOCK 65535

typedef struct Position
{
	Bitboard	color[2];
	Bitboard	type[6];
	uint8		board[64];		/* PIECE(color, type) or EMPTY */
	uint8		side;			/* WHITE or BLACK to move */
	uint8		castling;		/* WHITE_OO | ... */
	uint8		ep;				/* en passant target square or NO_SQUARE */
	uint8		pad;
	uint16		halfmove;
	uint16		fullmove;
} Position;

/*
 * A move: from | to << 6 | promotion piece type << 12 (0 when none).
 * Castling is the king's two-square move, en passant the pawn's capture of
 * the ep square; do_move recognises both from the board.
 */
typedef uint16 Move;

#define MOVE(from, to, promo) ((Move) ((from) | (to) << 6 | (promo) << 12))
#define MOVE_FROM(m) ((m) & 63)
#define MOVE_TO(m) (((m) >> 6) & 63)
#define MOVE_PROMO(m) ((m) >> 12)

extern const char *const chess_roles[2];

/* FEN letters, white then black, by piece type. */
#define PIECE_LETTERS "PNBRQKpnbrqk"

static inline char
piece_letter(int piece)
{
	return PIECE_LETTERS[6 * PIECE_COLOR(piece) + PIECE_TYPE(piece)];
}

static inline Bitboard
pieces(const Position *pos, int color, int type)
{
	return pos->color[color] & pos->type[type];
}

static inline Bitboard
occupied(const Position *pos)
{
	return pos->color[WHITE] | pos->color[BLACK];
}

static inline int
king_square(const Position *pos, int color)
{
	return lsb(pieces(pos, color, KING));
}

/* Pieces of either colour that attack s, with the given occupancy. */
static inline Bitboard
attackers_to(const Position *pos, int s, Bitboard occ)
{
	return (chess_pawn_attacks[WHITE][s] & pieces(pos, BLACK, PAWN)) |
		(chess_pawn_attacks[BLACK][s] & pieces(pos, WHITE, PAWN)) |
		(chess_knight_attacks[s] & pos->type[KNIGHT]) |
		(chess_king_attacks[s] & pos->type[KING]) |
		(rook_attacks(s, occ) & (pos->type[ROOK] | pos->type[QUEEN])) |
		(bishop_attacks(s, occ) & (pos->type[BISHOP] | pos->type[QUEEN]));
}

static inline Bitboard
checking_pieces(const Position *pos)
{
	return attackers_to(pos, king_square(pos, pos->side), occupied(pos)) &
		pos->color[pos->side ^ 1];
}

/* Dead positions without pawns, rooks and queens (see README.md, section chess). */
static inline bool
insufficient_material(const Position *pos)
{
	Bitboard	minors;

	if (pos->type[PAWN] | pos->type[ROOK] | pos->type[QUEEN])
		return false;
	minors = pos->type[KNIGHT] | pos->type[BISHOP];
	return popcount(minors) <= 1 ||
		(pos->type[KNIGHT] == 0 &&
		 ((minors & DARK_SQUARES) == 0 || (minors & ~DARK_SQUARES) == 0));
}

/* True when the game ended by a draw rule that does not look at the moves. */
static inline bool
drawn_by_rule(const Position *pos)
{
	return pos->halfmove >= FIFTY_MOVES || insufficient_material(pos);
}

/* position.c */
extern uint64 chess_splitmix64(uint64 *seed);
extern void chess_clear(Position *pos);
extern void chess_put(Position *pos, int s, int piece);
extern void chess_startpos(Position *pos);
extern void chess_do_move(Position *pos, Move m);
extern void chess_validate(const Game *game, Position *pos);
/* What chess_validate rejects, said without an ERROR (palloc'd), or NULL. */
extern const char *chess_position_error(const Position *pos);
/* Whether the en passant square is kept, as only a legal capture there keeps it. */
extern bool chess_ep_canonical(const Position *pos);
extern char *chess_square_name(int s);
extern uint64 chess_zobrist(const Position *pos);

/* pack.c: the storage format (Game.pack, game.h). */
#define CHESS_PACKED_BYTES 31
extern int	chess_pack(const Game *game, const GameState *state, uint8 *out);
extern bool chess_unpack(const Game *game, const uint8 *in, int len, GameState *out);

/* movegen.c: the moves the pieces may legally make, unordered (draw rules aside). */
extern int	chess_generate(const Position *pos, Move *moves);

/* san.c: Standard Algebraic Notation of a legal move (palloc'd), and back. */
extern char *chess_san(const Position *pos, Move m);
extern bool chess_parse_san(const Position *pos, const char *text, Move *move);

/* The vtable entries of the other files. */
extern int64 chess_perft(const Game *game, const GameState *state, int depth,
						 bool draw_rules);
extern void chess_heuristic(const Game *game, const GameState *state, double *values);
extern int	chess_tactical(const Game *game, const GameState *state, GameMove move);
extern void chess_encode_state(const Game *game, const GameState *state, JsonOut *out);
extern void chess_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out);
extern void chess_encode_action(const Game *game, const GameState *state, GameMove move,
								int role, JsonOut *out);
extern bool chess_parse_action(const Game *game, const GameState *state,
							   const JsonbValue *action, GameMove *move);
extern char *chess_format_action(const Game *game, const JsonbValue *action);
extern char *chess_read_action(const Game *game, const char *text);
extern double chess_centipawns(const Game *game, double utility);
extern void chess_from_fen(const Game *game, const char *fen, GameState *out);
extern char *chess_to_fen(const Game *game, const GameState *state);

#endif
