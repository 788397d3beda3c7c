/*
 * notation.h: moves as text without a position, for clients.
 *
 * gametree.notation writes a line of moves from a position (SAN for chess);
 * a client printing moves it got as JSON (bestmove, analyse, a tree's edges)
 * has no position at hand.  Games that have a short form of actions needing
 * none (UCI, PDN, a column) give it through their format_action and
 * read_action hooks (core/game.h); a move of any other game, or of another
 * shape, is written as compact JSON, so nothing is lost.  The helpers below
 * are the pieces those hooks are made of.
 */
#ifndef GAMETREE_NOTATION_H
#define GAMETREE_NOTATION_H

#include "core/game.h"

/*
 * A joint move or bare action in its short form: the action of the one
 * role that does not "noop", through format_action, else the action (or,
 * when several roles move, the joint move) as compact JSON.
 */
extern char *gt_short_notation(const Game *game, Jsonb *move);

/*
 * Text typed in the game's short form as JSON text that next() takes, or
 * NULL when it is not in it; *expected says what the game reads.
 */
extern char *gt_read_notation(const Game *game, const char *text, const char **expected);

/*
 * How to type a move of the game, short, for a prompt: its action_hint
 * (else its action_syntax), JSON for a game without read_action.
 */
extern const char *gt_move_hint(const Game *game);

/* The pieces of the hooks (action_text.c, which the decoder fuzzer links too). */

/* Element i of an array value, or NULL when value is no array or too short (action_text.c). */
extern JsonbValue *gt_array_element(const JsonbValue *value, int i);

/*
 * For format_action: when action is [name, arg...] with min_args to
 * max_args arguments, each of type (jbvString or jbvNumeric, numbers whole),
 * the arguments written one after another with separator between them;
 * else NULL.
 */
extern char *gt_action_arguments(const JsonbValue *action, const char *name, int min_args,
								 int max_args, enum jbvType type, const char *separator);

/* For read_action: the pointer past blanks (spaces, tabs). */
extern const char *gt_skip_blanks(const char *p);

/*
 * For read_action: a whole number of at most six digits at *p (blanks
 * before it allowed), advancing *p; false when there is none.
 */
extern bool gt_read_number(const char **p, long *value);

/*
 * For read_action: text that is numbers separated by blanks or one comma
 * each ("2 2", "2,2", "4") into values; returns their count, or -1 when
 * text is anything else or holds more than max.
 */
extern int	gt_read_numbers(const char *text, long *values, int max);

#endif
