/*
 * record.c: the SQL function record_format, a game's record format (PGN for
 * chess, PDN for checkers) for a record starting in a state; clients write
 * records with it and know no game (core/record.h).
 */
#include "postgres.h"

#include "core/record.h"
#include "fmgr.h"
#include "funcapi.h"
#include "sql/game_datum.h"
#include "utils/builtins.h"

/*
 * record_format(game, state): (format, tags, first_turn, setup_fen,
 * first_wins, second_wins, draw, unfinished), every column NULL for a game
 * without a record format, so that a client asks in the same statement for
 * every game; setup_fen is also NULL when state is the initial one.
 */
PG_FUNCTION_INFO_V1(gametree_record_format);
Datum
gametree_record_format(PG_FUNCTION_ARGS)
{
	const Game *game;
	GameState  *state = gt_state_argument(fcinfo, &game);
	const GameRecordFormat *format = game->record_format;
	TupleDesc	desc;
	Datum		values[8] = {0};
	bool		nulls[8];

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "gametree: record_format must return a row");
	memset(nulls, format == NULL, sizeof nulls);
	if (format != NULL)
	{
		char	   *fen;

		values[0] = CStringGetTextDatum(format->name);
		values[1] = CStringGetTextDatum(format->tags);
		values[2] = Int32GetDatum(gt_record_first_turn(game, state));
		fen = gt_record_setup_fen(game, state);
		nulls[3] = fen == NULL;
		values[3] = fen ? CStringGetTextDatum(fen) : (Datum) 0;
		values[4] = CStringGetTextDatum(format->first_wins);
		values[5] = CStringGetTextDatum(format->second_wins);
		values[6] = CStringGetTextDatum(format->draw);
		values[7] = CStringGetTextDatum(format->unfinished);
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
