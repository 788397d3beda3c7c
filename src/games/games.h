/*
 * games.h: the games compiled into gametree, as one unit that registers
 * itself with the registry (core/game.h).
 */
#ifndef GAMETREE_GAMES_H
#define GAMETREE_GAMES_H

/* Registers every compiled-in game, in the order games() lists them. */
extern void games_register(void);

#endif
