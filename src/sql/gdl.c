/*
 * gdl.c: gametree.load_game, compile_network and unload_game, the SQL functions of games
 * loaded from GDL descriptions (gdl/load_game.c loads and keeps them).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "gdl/gdl.h"
#include "utils/builtins.h"

/* The row of load_game and compile_network: a game just compiled, and what compiling made. */
static Datum
compiled_game_row(FunctionCallInfo fcinfo, const char *name, const Game *game, const GdlStats *stats)
{
	TupleDesc	desc;
	Datum		values[7];
	bool		nulls[7] = {false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "a compiled game's function must return a row");
	values[0] = CStringGetTextDatum(name);
	values[1] = gt_roles_datum(game);
	values[2] = Int32GetDatum(stats->facts);
	values[3] = Int32GetDatum(stats->actions);
	values[4] = Int32GetDatum(stats->rules);
	values[5] = Int32GetDatum(stats->nodes);
	values[6] = CStringGetTextDatum(gdl_engine_name(stats->prover));
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

PG_FUNCTION_INFO_V1(gametree_load_game);
Datum
gametree_load_game(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	GdlStats	stats;
	const Game *game = gdl_load_game(name, PG_GETARG_DATUM(1), &stats);

	PG_RETURN_DATUM(compiled_game_row(fcinfo, name, game, &stats));
}

PG_FUNCTION_INFO_V1(gametree_compile_network);
Datum
gametree_compile_network(PG_FUNCTION_ARGS)
{
	GdlStats	stats;
	const Game *game = gdl_compile_network(PG_GETARG_TEXT_PP(0), &stats);

	PG_RETURN_DATUM(compiled_game_row(fcinfo, text_to_cstring(PG_GETARG_TEXT_PP(0)), game, &stats));
}

PG_FUNCTION_INFO_V1(gametree_unload_game);
Datum
gametree_unload_game(PG_FUNCTION_ARGS)
{
	gdl_unload_game(PG_GETARG_TEXT_PP(0));
	PG_RETURN_VOID();
}
