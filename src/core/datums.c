/*
 * datums.c: values of the game interface as SQL values other than JSON.
 * Not in game.c, which the decoder fuzzer (fuzz/) links without
 * PostgreSQL's array code.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "core/game.h"
#include "pg/spi.h"
#include "utils/builtins.h"

Datum
gt_roles_datum(const Game *game)
{
	Datum	   *roles = palloc(game->nroles * sizeof(Datum));

	for (int r = 0; r < game->nroles; r++)
		roles[r] = CStringGetTextDatum(game->roles[r]);
	return datum_array(roles, NULL, game->nroles, TEXTOID);
}
