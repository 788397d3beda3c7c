/*
 * uci.c: chess's short form of actions, needing no position (core/notation.h):
 * UCI long algebraic notation, e2e4 and e7e8q, as engines' protocols and
 * the command-line client write moves; typed moves may also be SAN, which
 * next() reads against the position (chess_parse_action).
 */
#include "postgres.h"

#include "chess.h"
#include "core/notation.h"

/* ["move", "e2", "e4"] or ["move", "e7", "e8", "q"]: e2e4, e7e8q. */
char *
chess_format_action(const Game *game, const JsonbValue *action)
{
	return gt_action_arguments(action, "move", 2, 3, jbvString, "");
}

/*
 * UCI (upper case accepted) as a JSON string; else text made only of what
 * SAN is made of (e4, Nf3, exd5, O-O, e8=Q, Qxf7#) as a JSON string, which
 * next() reads against the position's legal moves.
 */
char *
chess_read_action(const Game *game, const char *text)
{
	char		move[6];
	size_t		len = strlen(text);

	if (len == 4 || len == 5)
	{
		for (size_t i = 0; i < len; i++)
			move[i] = (char) (text[i] >= 'A' && text[i] <= 'Z' ? text[i] - 'A' + 'a' : text[i]);
		move[len] = '\0';
		if (move[0] >= 'a' && move[0] <= 'h' && move[1] >= '1' && move[1] <= '8' &&
			move[2] >= 'a' && move[2] <= 'h' && move[3] >= '1' && move[3] <= '8' &&
			(len == 4 || strchr("qrbn", move[4]) != NULL))
			return psprintf("\"%s\"", move);
	}
	if (len < 2 || len > 12 || strspn(text, "abcdefgh12345678NBRQKxO0-=+#!?") != len)
		return NULL;
	return psprintf("\"%s\"", text);
}
