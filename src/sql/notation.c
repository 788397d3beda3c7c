/*
 * notation.c: the SQL functions of lines and notation: a line of moves
 * played (play) and as players write it (notation), a move without its
 * position and back (short_notation, parse_move, move_hint), positions as
 * FEN (from_fen, to_fen), and an evaluation in
 * centipawns.  The games' hooks do the work (core/line.h, core/notation.h).
 */
#include "postgres.h"

#include <math.h>

#include "core/line.h"
#include "core/notation.h"
#include "fmgr.h"
#include "funcapi.h"
#include "sql/game_datum.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/* notation(game, state, moves): the line's moves as players write them. */
PG_FUNCTION_INFO_V1(gametree_notation);
Datum
gametree_notation(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_TEXT_P(cstring_to_text(gt_line_notation(game, state, PG_GETARG_JSONB_P(2))));
}

/* play(game, state, moves): the state after the line. */
PG_FUNCTION_INFO_V1(gametree_play);
Datum
gametree_play(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_JSONB_P(gt_encode_state(game, gt_line_end(game, state, PG_GETARG_JSONB_P(2))));
}

PG_FUNCTION_INFO_V1(gametree_from_fen);
Datum
gametree_from_fen(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));

	PG_RETURN_JSONB_P(gt_encode_state(game, gt_state_from_fen(game, text_to_cstring(PG_GETARG_TEXT_PP(1)))));
}

PG_FUNCTION_INFO_V1(gametree_to_fen);
Datum
gametree_to_fen(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);

	PG_RETURN_TEXT_P(cstring_to_text(gt_state_to_fen(game, state)));
}

/* short_notation(game, move): a move without its position, "e2e4", "11-15". */
PG_FUNCTION_INFO_V1(gametree_short_notation);
Datum
gametree_short_notation(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));

	PG_RETURN_TEXT_P(cstring_to_text(gt_short_notation(game, PG_GETARG_JSONB_P(1))));
}

/*
 * parse_move(game, input): (move, expected); move is the JSON that next()
 * takes, NULL when input is not in the game's short form.
 */
PG_FUNCTION_INFO_V1(gametree_parse_move);
Datum
gametree_parse_move(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	char	   *input = text_to_cstring(PG_GETARG_TEXT_PP(1));
	const char *expected;
	char	   *move = gt_read_notation(game, input, &expected);
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {move == NULL, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "gametree: parse_move must return a row");
	values[0] = move ? DirectFunctionCall1(jsonb_in, CStringGetDatum(move)) : (Datum) 0;
	values[1] = CStringGetTextDatum(expected);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* move_hint(game): how to type a move, short, for a prompt. */
PG_FUNCTION_INFO_V1(gametree_move_hint);
Datum
gametree_move_hint(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));

	PG_RETURN_TEXT_P(cstring_to_text(gt_move_hint(game)));
}

/* centipawns(game, utility): the evaluation behind a utility of the role to move. */
PG_FUNCTION_INFO_V1(gametree_centipawns);
Datum
gametree_centipawns(PG_FUNCTION_ARGS)
{
	const Game *game = gt_game_from_text(PG_GETARG_TEXT_PP(0));
	double		utility = PG_GETARG_FLOAT8(1);

	if (game->centipawns == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("game \"%s\" has no evaluation in centipawns", game->name),
				 errhint("Chess has one; other games' utilities are their own measure.")));
	if (isnan(utility))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the utility must be a number, not NaN"),
				 errhint("Utilities go from %d to %d, as analyse's utility column gives them.",
						 GT_GOAL_MIN, GT_GOAL_MAX)));
	PG_RETURN_FLOAT8(game->centipawns(game, utility));
}
