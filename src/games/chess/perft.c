/*
 * perft.c: the chess fast path of gametree.perft: copy-make on a stack of
 * positions, legal generation, and bulk counting at the last ply.  It counts
 * exactly as the generic perft: a finished position has no children, nor,
 * with draw_rules, a position drawn by rule.
 */
#include "postgres.h"

#include "chess.h"
#include "miscadmin.h"

static int64
perft_node(Position *stack, int depth, bool draw_rules)
{
	Move		moves[MAX_MOVES];
	int			n;
	int64		leaves = 0;

	if (draw_rules && drawn_by_rule(stack))
		return 0;
	n = chess_generate(stack, moves);
	if (depth == 1)
		return n;
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < n; i++)
	{
		stack[1] = stack[0];
		chess_do_move(&stack[1], moves[i]);
		leaves += perft_node(stack + 1, depth - 1, draw_rules);
	}
	return leaves;
}

int64
chess_perft(const Game *game, const GameState *state, int depth, bool draw_rules)
{
	Position   *stack;

	if (depth == 0)
		return 1;
	stack = palloc((depth + 1) * sizeof(Position));
	stack[0] = *GT_STATE_AS(state, Position);
	return perft_node(stack, depth, draw_rules);
}
