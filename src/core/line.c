/*
 * line.c: playing a line of moves from a state (line.h).
 */
#include "postgres.h"

#include "core/line.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"

void
gt_line_begin(GameLine *line, const Game *game, const GameState *from)
{
	line->game = game;
	line->at = gt_state_alloc(game);
	line->scratch = gt_state_alloc(game);
	gt_state_copy(line->at, from);
}

void
gt_line_play(GameLine *line, GameMove move)
{
	GameState  *after = line->scratch;

	/* A line may be as long as a user's array: let it be cancelled. */
	CHECK_FOR_INTERRUPTS();
	line->game->next(line->game, line->at, move, after);
	line->scratch = line->at;
	line->at = after;
}

/*
 * The number of moves of a line given in SQL, after checking that it is a
 * JSON array.
 */
static int
line_length(Jsonb *moves)
{
	if (JB_ROOT_IS_SCALAR(moves) || !JB_ROOT_IS_ARRAY(moves))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the moves must be a JSON array of moves, not %s",
						gt_abbreviate(JsonbToCString(NULL, &moves->root, VARSIZE(moves)))),
				 errhint("E.g. gametree.notation('chess', gametree.initial('chess'), '[\"e2e4\", \"e7e5\"]'); "
						 "a principal variation (analyse's pv) is such an array.")));
	return JsonContainerSize(&moves->root);
}

/* Move i of a line given in SQL, decoded in the line's state; an ERROR when it is not legal there. */
static GameMove
line_move(const GameLine *line, Jsonb *moves, int i)
{
	Jsonb	   *move = JsonbValueToJsonb(getIthJsonbValueFromContainer(&moves->root, i));

	return gt_decode_move(line->game, line->at, move);
}

GameState *
gt_line_end(const Game *game, const GameState *state, Jsonb *moves)
{
	GameLine	line;
	int			n = line_length(moves);

	gt_line_begin(&line, game, state);
	for (int i = 0; i < n; i++)
		gt_line_play(&line, line_move(&line, moves, i));
	return line.at;
}

char *
gt_line_notation(const Game *game, const GameState *state, Jsonb *moves)
{
	GameLine	line;
	StringInfoData out;
	int			n = line_length(moves);

	gt_line_begin(&line, game, state);
	initStringInfo(&out);
	for (int i = 0; i < n; i++)
	{
		GameMove	decoded = line_move(&line, moves, i);

		if (i > 0)
			appendStringInfoChar(&out, ' ');
		appendStringInfoString(&out, gt_move_notation(game, line.at, decoded));
		gt_line_play(&line, decoded);
	}
	return out.data;
}
