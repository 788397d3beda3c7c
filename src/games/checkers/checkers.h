/*
 * checkers.h: the checkers position, its board layout and move codes, and
 * the functions shared by the checkers files.
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
#ifndef CHECKERS_CHECKERS_H
#define CHECKERS_CHECKERS_H

#include "postgres.h"

#include "core/game.h"
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

#define BIT(s) ((s) + (s) / 8)	/* square index 0..31 -> layout bit */
#define SQUARE_OF(b) ((b) - (b) / 9)	/* the inverse */
#define VALID (UINT64CONST(0xFF) * UINT64CONST(0x8040201))
#define ROW_OF(s) ((s) / 4)		/* 0 = squares 1-4, 7 = squares 29-32 */

/* Rows where a man is crowned: black's men on 29-32, white's on 1-4. */
static const uint64 crown_row[2] = {UINT64CONST(0xF) << BIT(28), UINT64CONST(0xF)};

#define MOVE_FROM_SHIFT 40
#define MOVE_DIR_SHIFT(i) (38 - 2 * (i))
#define MOVE_JUMPS_MASK 0x1F

extern const char *const checkers_roles[2];

static inline int
first_bit(uint64 x)
{
	return pg_rightmost_one_pos64(x);
}

/* The side (CK_BLACK, CK_WHITE) on square s (0..31), or -1 when it is empty. */
static inline int
side_on(const Checkers *c, int s)
{
	if (c->piece[CK_BLACK] >> BIT(s) & 1)
		return CK_BLACK;
	if (c->piece[CK_WHITE] >> BIT(s) & 1)
		return CK_WHITE;
	return -1;
}

/*
 * movegen.c: the moves of the mover in generation order (the draw rule
 * aside), whether there is one, the squares a move visits (path[] has room
 * for MAX_PIECES + 1), and making a move.
 */
extern int	checkers_generate(const Checkers *c, GameMove *moves);
extern bool checkers_can_move(const Checkers *c);
extern int	checkers_follow_move(GameMove m, int *path, uint64 *captured);
extern void checkers_do_move(Checkers *c, GameMove m);

/*
 * facts.c: rejects positions that no game reaches, shared by the facts and
 * PDN FEN; checkers_position_error says what is wrong with one (palloc'd),
 * or returns NULL, without an ERROR.
 */
extern void checkers_check_position(const Game *game, const Checkers *c);
extern const char *checkers_position_error(const Checkers *c);

/* pack.c: the storage format (Game.pack, game.h). */
#define CK_PACKED_BYTES 11
extern int	checkers_pack(const Game *game, const GameState *state, uint8 *out);
extern bool checkers_unpack(const Game *game, const uint8 *in, int len, GameState *out);

/* The vtable entries of the other files. */
extern int64 checkers_perft(const Game *game, const GameState *state, int depth,
							bool draw_rules);
extern void checkers_heuristic(const Game *game, const GameState *state, double *values);
extern int	checkers_tactical(const Game *game, const GameState *state, GameMove move);
extern void checkers_encode_state(const Game *game, const GameState *state, JsonOut *out);
extern void checkers_decode_state(const Game *game, Fact *facts, int nfacts, GameState *out);
extern void checkers_encode_action(const Game *game, const GameState *state, GameMove move,
								   int role, JsonOut *out);
extern bool checkers_parse_action(const Game *game, const GameState *state,
								  const JsonbValue *action, GameMove *move);
extern char *checkers_notation(const Game *game, const GameState *state, GameMove move);
/* Moves written and read without a position (format_action, read_action). */
extern char *checkers_format_action(const Game *game, const JsonbValue *action);
extern char *checkers_read_action(const Game *game, const char *text);
extern void checkers_from_fen(const Game *game, const char *fen, GameState *out);
extern char *checkers_to_fen(const Game *game, const GameState *state);

#endif
