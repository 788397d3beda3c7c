/*
 * perft.c: perft, the leaf count of the move tree to a depth, the
 * correctness oracle of every rule engine (gametree.perft).
 *
 * By default a line that reaches a terminal state before depth is not
 * counted (the convention of chess perft tables); include_terminal counts it
 * as one leaf, which makes perft(tictactoe, 9) the number of complete games.
 * draw_rules false lets lines run on through draws by rule (fifty moves,
 * dead material, the checkers draw clock) through the game's
 * legal_by_move_rules(), which is what engine perft tables count.
 */
#include "postgres.h"

#include "core/game.h"
#include "miscadmin.h"

#define MAX_PERFT_DEPTH 1000

typedef struct PerftStack
{
	const Game *game;
	/* legal() or legal_by_move_rules(), chosen once */
	int			(*legal) (const Game *game, const GameState *state, GameMove *moves);
	GameState **states;			/* one per ply: no allocation while counting */
	GameMove  **moves;
	bool		include_terminal;	/* count lines that end early as leaves */
} PerftStack;

static int64
perft_ply(PerftStack *stack, int ply, int depth)
{
	const Game *game = stack->game;
	GameMove   *moves = stack->moves[ply];
	int			n = stack->legal(game, stack->states[ply], moves);
	int64		leaves = 0;

	if (n == 0)
		return stack->include_terminal ? 1 : 0;
	/* Bulk counting: the last ply's leaves are the legal moves themselves. */
	if (depth == 1)
		return n;
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	for (int i = 0; i < n; i++)
	{
		game->next(game, stack->states[ply], moves[i], stack->states[ply + 1]);
		leaves += perft_ply(stack, ply + 1, depth - 1);
	}
	return leaves;
}

int64
gt_perft_generic(const Game *game, const GameState *state, int depth,
				 bool include_terminal, bool draw_rules)
{
	PerftStack	stack;

	if (depth == 0)
		return 1;
	stack.game = game;
	stack.legal = draw_rules || game->legal_by_move_rules == NULL ?
		game->legal : game->legal_by_move_rules;
	stack.include_terminal = include_terminal;
	stack.states = palloc(depth * sizeof(GameState *));
	stack.moves = palloc(depth * sizeof(GameMove *));
	for (int ply = 0; ply < depth; ply++)
	{
		stack.states[ply] = gt_state_alloc(game);
		stack.moves[ply] = palloc(game->max_moves * sizeof(GameMove));
	}
	gt_state_copy(stack.states[0], state);
	return perft_ply(&stack, 0, depth);
}

int64
gt_perft(const Game *game, const GameState *state, int depth, bool include_terminal,
		 bool draw_rules)
{
	if (depth < 0 || depth > MAX_PERFT_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("perft depth must be between 0 and %d, not %d", MAX_PERFT_DEPTH, depth)));
	if (game->perft != NULL && !include_terminal)
		return game->perft(game, state, depth, draw_rules);
	return gt_perft_generic(game, state, depth, include_terminal, draw_rules);
}
