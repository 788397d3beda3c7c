/*
 * gdl.c: gametree.load_game and unload_game, the SQL functions of games
 * loaded from GDL descriptions (gdl/load_game.c loads and keeps them).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "gdl/gdl.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(gametree_load_game);
Datum
gametree_load_game(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	TupleDesc	desc;
	GdlStats	stats;
	const Game *game;
	Datum		values[7];
	bool		nulls[7] = {false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "load_game must return a row");
	game = gdl_load_game(name, PG_GETARG_DATUM(1), &stats);
	values[0] = CStringGetTextDatum(name);
	values[1] = gt_roles_datum(game);
	values[2] = Int32GetDatum(stats.facts);
	values[3] = Int32GetDatum(stats.actions);
	values[4] = Int32GetDatum(stats.rules);
	values[5] = Int32GetDatum(stats.nodes);
	values[6] = CStringGetTextDatum(gdl_engine_name(stats.prover));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(gametree_unload_game);
Datum
gametree_unload_game(PG_FUNCTION_ARGS)
{
	gdl_unload_game(PG_GETARG_TEXT_PP(0));
	PG_RETURN_VOID();
}
