/*
 * kif.c: gametree.from_kif and to_kif, a KIF term and its JSON
 * (gdl/kif_json.c), for GGP players.
 */
#include "postgres.h"

#include "fmgr.h"
#include "gdl/gdl.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

PG_FUNCTION_INFO_V1(gametree_from_kif);
Datum
gametree_from_kif(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(gdl_kif_to_json(text_to_cstring(PG_GETARG_TEXT_PP(0))));
}

PG_FUNCTION_INFO_V1(gametree_to_kif);
Datum
gametree_to_kif(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(gdl_json_to_kif(PG_GETARG_JSONB_P(0))));
}
