/*
 * tictactoe.h: the tic-tac-toe position, shared by the rules (tictactoe.c)
 * and the storage packing (pack.c).
 */
#ifndef GAMETREE_TICTACTOE_H
#define GAMETREE_TICTACTOE_H

#include "core/game.h"

/* Two 9-bit masks, bit 3 * (row - 1) + (col - 1). */
typedef struct TicTacToe
{
	uint64		mark[2];		/* [0] xplayer, [1] oplayer */
} TicTacToe;

/* pack.c: the storage format (Game.pack, game.h). */
#define TTT_PACKED_BYTES 2
extern int	ttt_pack(const Game *game, const GameState *state, uint8 *out);
extern bool ttt_unpack(const Game *game, const uint8 *in, int len, GameState *out);

#endif
