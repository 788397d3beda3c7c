/*
 * compact.c: states as stored (compact.h).
 *
 * A value is a varlena whose data is the game's number (4 bytes, in the
 * machine's order, like every stored integer) and then the game's packing.
 * The external form of a value, for binary I/O and casts from and to
 * bytea, has the number in network order instead.
 */
#include "postgres.h"

#include "core/compact.h"

#include "port/pg_bswap.h"

int32
gt_game_number(const char *name)
{
	return (int32) (gt_hash_bytes((const uint8 *) name, strlen(name)) & PG_INT32_MAX);
}

struct varlena *
gt_state_value(const Game *game, const GameState *state)
{
	struct varlena *value = palloc(VARHDRSZ + GT_STATE_NUMBER_BYTES + game->packed_bytes);
	int32		number = gt_game_number(game->name);
	uint8	   *packing = (uint8 *) VARDATA(value) + GT_STATE_NUMBER_BYTES;
	int			len = game->pack(game, state, packing);

	Assert(len >= 0 && len <= (int) game->packed_bytes);
	memcpy(VARDATA(value), &number, GT_STATE_NUMBER_BYTES);
	SET_VARSIZE(value, VARHDRSZ + GT_STATE_NUMBER_BYTES + len);
	return value;
}

/* A value shorter than its number: only a corrupted datum is. */
static void
check_value_size(const struct varlena *value)
{
	if (VARSIZE_ANY_EXHDR(value) < GT_STATE_NUMBER_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("gametree.state value of %d bytes, shorter than its game's number",
						(int) VARSIZE_ANY_EXHDR(value))));
}

int32
gt_state_value_number(const struct varlena *value)
{
	int32		number;

	check_value_size(value);
	memcpy(&number, VARDATA_ANY(value), GT_STATE_NUMBER_BYTES);
	return number;
}

/* The ERROR for a number whose game is not loaded (of a value: or JSON of no game). */
static void
report_unknown_number(int32 number, bool of_value)
{
	if (number == GT_NO_GAME && of_value)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("gametree.state JSON of no game"),
				 errhint("Give it its game: '[...]'::gametree.state('tictactoe'), or store it in a "
						 "column gametree.state('tictactoe').")));
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("gametree.state value of game number %d, which no loaded game has", number),
			 errhint("A state names its game by a hash of the game's name: load the GDL game "
					 "it was stored with under the same name (gametree.load_game)."),
			 errdetail("SELECT * FROM gametree.games() lists the games that are loaded.")));
}

const Game *
gt_state_value_game(const struct varlena *value)
{
	int32		number = gt_state_value_number(value);
	const Game *game = gt_find_game_by_number(number);

	if (game == NULL)
		report_unknown_number(number, true);
	return game;
}

/* Unpacks len bytes of game into a new state, or returns NULL. */
static GameState *
unpack(const Game *game, const uint8 *packing, int len)
{
	GameState  *state = gt_state_alloc(game);

	if (len < 0 || len > (int) game->packed_bytes || !game->unpack(game, packing, len, state))
		return NULL;
	return state;
}

GameState *
gt_state_of_value(const Game *game, const struct varlena *value)
{
	int			len = (int) VARSIZE_ANY_EXHDR(value) - GT_STATE_NUMBER_BYTES;
	GameState  *state = unpack(game, (const uint8 *) VARDATA_ANY(value) + GT_STATE_NUMBER_BYTES, len);

	if (state == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("stored %s state of %d bytes is no packing of a %s state",
						game->name, len, game->name)));
	return state;
}

/*
 * A packing made by hand is taken when the game packs the position it
 * encodes to the same bytes: then it holds nothing the game does not read,
 * and the round trip through the edge format checks the position as the
 * game checks any state given as JSON.
 */
struct varlena *
gt_state_value_from_bytes(const uint8 *bytes, int len)
{
	int32		number;
	const Game *game;
	const uint8 *packing = bytes + GT_STATE_NUMBER_BYTES;
	int			packed_len = len - GT_STATE_NUMBER_BYTES;
	GameState  *state;
	struct varlena *value;

	if (len < GT_STATE_NUMBER_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("a gametree.state value of %d bytes has no room for its game's number", len),
				 errhint("The binary form is the game's number (4 bytes, network order), then the "
						 "game's packing of the state, as gametree.state's cast to bytea writes it.")));
	memcpy(&number, bytes, GT_STATE_NUMBER_BYTES);
	number = (int32) pg_ntoh32((uint32) number);
	game = gt_find_game_by_number(number);
	if (game == NULL)
		report_unknown_number(number, false);
	state = unpack(game, packing, packed_len);
	if (state != NULL)
		state = gt_decode_state(game, gt_encode_state(game, state));
	value = state != NULL ? gt_state_value(game, state) : NULL;
	if (value == NULL || VARSIZE(value) - VARHDRSZ - GT_STATE_NUMBER_BYTES != packed_len ||
		memcmp((uint8 *) VARDATA(value) + GT_STATE_NUMBER_BYTES, packing, packed_len) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("%d bytes are no packing of a %s state", packed_len, game->name),
				 errhint("Only bytes that gametree wrote (gametree.state's cast to bytea) are read back.")));
	return value;
}

void
gt_check_game_number(const char *name)
{
	const Game *taken = gt_find_game_by_number(gt_game_number(name));

	if (taken != NULL && pg_strcasecmp(taken->name, name) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("game name \"%s\" has the number of game \"%s\"", gt_abbreviate(name), taken->name),
				 errhint("Stored states name their game by a hash of its name, and these two names "
						 "hash alike: choose another name.")));
}
