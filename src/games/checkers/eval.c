/*
 * eval.c: the search hooks that judge a position or a move: the heuristic
 * (material and advancement) and tactical (a jump's captures).
 */
#include "postgres.h"

#include "checkers.h"

/* A jump takes as many men as it has jumps (the low bits of its code). */
int
checkers_tactical(const Game *game, const GameState *state, GameMove move)
{
	return (int) (move & 31);
}

/*
 * Men count 2, kings 3 (a king is worth 1.5 men), and a man gains 0.1 per row
 * advanced; each side gets its share of the sum, so the two values add up
 * to 100.
 */
void
checkers_heuristic(const Game *game, const GameState *state, double *values)
{
	const Checkers *c = GT_STATE_AS(state, Checkers);
	double		score[2] = {0, 0};

	for (int s = 0; s < SQUARES; s++)
		for (int side = CK_BLACK; side <= CK_WHITE; side++)
			if (c->piece[side] >> BIT(s) & 1)
			{
				if (c->king >> BIT(s) & 1)
					score[side] += 3.0;
				else
					score[side] += 2.0 + 0.1 * (side == CK_BLACK ? ROW_OF(s) : 7 - ROW_OF(s));
			}
	if (score[CK_BLACK] + score[CK_WHITE] == 0)
		values[CK_BLACK] = 50.0;
	else
		values[CK_BLACK] = 100.0 * score[CK_BLACK] / (score[CK_BLACK] + score[CK_WHITE]);
	values[CK_WHITE] = 100.0 - values[CK_BLACK];
}
