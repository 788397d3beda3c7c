/*
 * match.c: the GGP matches of gametree.matches (match.h).
 *
 * Like the tree catalogs, gametree.matches is read by all and written only
 * here, as the role that owns it (spi_run_as_catalog_owner), after checking
 * that the caller may do what the row records: a row anyone could write
 * could claim a match another role played, or moves it never made.  A
 * match is its player's, the session user who began it: the login a GGP
 * player connects as, whatever role it then takes.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "core/jsonfacts.h"
#include "miscadmin.h"
#include "store/create.h"
#include "store/match.h"
#include "store/tree.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

/* The longest match id: game managers make them of a game's name and a number. */
#define MATCH_ID_MAX 256

/* The row of a match, as match_begin or match_move left it. */
typedef struct MatchRow
{
	int64		id;
	char	   *game;
	char	   *player;
	char	   *status;
	char	   *tree;			/* NULL when none is kept */
	Jsonb	   *moves;
	Jsonb	   *state;
} MatchRow;

static char *
column_text(HeapTuple row, int column)
{
	bool		isnull;
	Datum		value = SPI_getbinval(row, SPI_tuptable->tupdesc, column, &isnull);

	return isnull ? NULL : TextDatumGetCString(value);
}

static Jsonb *
column_jsonb(HeapTuple row, int column)
{
	bool		isnull;

	return DatumGetJsonbP(SPI_getbinval(row, SPI_tuptable->tupdesc, column, &isnull));
}

static void
unknown_match(int64 id)
{
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_OBJECT),
			 errmsg("unknown match " INT64_FORMAT, id),
			 errhint("SELECT * FROM gametree.matches lists the recorded matches.")));
}

/*
 * The match's row.  for_play: locked until the transaction ends, so that
 * one move or end at a time changes it, and only for its player (or a
 * superuser) while the match is being played.
 */
static MatchRow *
read_match(int64 id, bool for_play)
{
	MatchRow   *m = palloc0(sizeof(MatchRow));
	HeapTuple	row;
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(id)};
	const char *sql = "SELECT game, player::text, status, tree, moves, state "
		"FROM gametree.matches WHERE id = $1";

	/* FOR UPDATE needs UPDATE on the table, which only its owner has. */
	if (for_play)
		spi_run_as_catalog_owner(psprintf("%s FOR UPDATE", sql), 1, types, values, SPI_OK_SELECT);
	else
		spi_run(sql, 1, types, values, SPI_OK_SELECT);
	if (SPI_processed == 0)
		unknown_match(id);
	row = SPI_tuptable->vals[0];
	m->id = id;
	m->game = column_text(row, 1);
	m->player = column_text(row, 2);
	m->status = column_text(row, 3);
	m->tree = column_text(row, 4);
	m->moves = column_jsonb(row, 5);
	m->state = column_jsonb(row, 6);
	if (!for_play)
		return m;
	if (strcmp(m->player, GetUserNameFromId(GetSessionUserId(), false)) != 0 && !superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("match " INT64_FORMAT " is played by %s", id, quote_identifier(m->player)),
				 errdetail("Only the session user who began a match moves and ends it; anyone may read it.")));
	if (strcmp(m->status, "playing") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("match " INT64_FORMAT " is over (%s)", id, m->status),
				 errhint("gametree.match_replay(" INT64_FORMAT ") steps through it.", id)));
	return m;
}

static void
check_clock(const char *what, const Interval *clock)
{
	if (gt_interval_usecs(clock) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be positive, not %s", what,
						DatumGetCString(DirectFunctionCall1(interval_out,
															IntervalPGetDatum(clock)))),
				 errhint("GGP game managers give their clocks in seconds, such as 10 and 2.")));
}

/* The match's tree, checked: one of game's the caller may read; its qualified name. */
static char *
match_tree(text *name, const Game *game)
{
	Tree	   *tree = tree_open(name, TREE_READ);
	char	   *qualified = pstrdup(tree->qualified);

	if (pg_class_aclcheck(tree->relids[TREE_STATES], GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read tree \"%s\"", tree->qualified),
				 errdetail("A match searches its tree: that needs SELECT on %s.", tree->states)));
	if (strcmp(tree->game->name, game->name) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tree \"%s\" is of game \"%s\", not of the match's game \"%s\"",
						tree->qualified, tree->game->name, game->name)));
	tree_close(tree);
	return qualified;
}

int64
match_begin(const char *match_id, const char *game_name, const char *role,
			const Interval *start_clock, const Interval *play_clock, text *tree)
{
	const Game *game;
	int			r;
	char	   *qualified = NULL;
	GameState  *initial;
	bool		isnull;
	int64		id;
	int			path_level;

	if (match_id[0] == '\0' || strlen(match_id) > MATCH_ID_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a match id has 1 to %d bytes, not %zu", MATCH_ID_MAX, strlen(match_id)),
				 errhint("Give the game manager's match id, from its (start ...) message.")));
	game = gt_find_game(game_name);
	if (game == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unknown game \"%s\"", gt_abbreviate(game_name)),
				 errhint("SELECT * FROM gametree.games() lists the games; gametree.load_game() loads one from GDL.")));
	for (r = 0; r < game->nroles; r++)
		if (pg_strcasecmp(role, game->roles[r]) == 0)
			break;
	if (r == game->nroles)
	{
		StringInfoData roles;

		initStringInfo(&roles);
		for (int i = 0; i < game->nroles; i++)
			appendStringInfo(&roles, "%s%s", i > 0 ? ", " : "", game->roles[i]);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("game \"%s\" has no role \"%s\"", game->name, gt_abbreviate(role)),
				 errhint("Its roles: %s.", roles.data)));
	}
	check_clock("start_clock", start_clock);
	check_clock("play_clock", play_clock);
	if (tree != NULL)
		qualified = match_tree(tree, game);

	initial = gt_state_alloc(game);
	game->initial(game, initial);
	path_level = gt_pin_search_path();
	spi_run_as_catalog_owner("INSERT INTO gametree.matches (match_id, game, role, player, start_clock, "
							 "play_clock, tree, moves, state, status, started_at) "
							 "VALUES ($1, $2, $3, $4, $5, $6, NULLIF($7, ''), '[]', $8, 'playing', now()) "
							 "RETURNING id",
							 8, (Oid[]) {TEXTOID, TEXTOID, TEXTOID, NAMEOID, INTERVALOID, INTERVALOID,
								 TEXTOID, JSONBOID},
							 (Datum[]) {CStringGetTextDatum(match_id), CStringGetTextDatum(game->name),
								 CStringGetTextDatum(game->roles[r]),
								 name_datum(GetUserNameFromId(GetSessionUserId(), false)),
								 IntervalPGetDatum(start_clock), IntervalPGetDatum(play_clock),
								 CStringGetTextDatum(qualified != NULL ? qualified : ""),
							 JsonbPGetDatum(gt_encode_state(game, initial))},
							 SPI_OK_INSERT_RETURNING);
	id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	gt_unpin_search_path(path_level);
	return id;
}

/* Ereports unless move is shaped as a joint move of game: [["does", role, action], ...]. */
static void
check_joint_move_shape(const MatchRow *m, const Game *game, Jsonb *move)
{
	static const char *const does_word[] = {"does"};
	bool		joint = !JB_ROOT_IS_SCALAR(move) && JB_ROOT_IS_ARRAY(move) &&
		JsonContainerSize(&move->root) == (uint32) game->nroles;

	for (int r = 0; joint && r < game->nroles; r++)
	{
		JsonbValue *does = getIthJsonbValueFromContainer(&move->root, r);

		joint = does->type == jbvBinary && JsonContainerIsArray(does->val.binary.data) &&
			JsonContainerSize(does->val.binary.data) == 3 &&
			json_string_choice(getIthJsonbValueFromContainer(does->val.binary.data, 0), does_word, 1) == 0;
	}
	if (!joint)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("match " INT64_FORMAT ": %s is not a joint move of %s's %d roles", m->id,
						gt_abbreviate(JsonbToCString(NULL, &move->root, VARSIZE(move))),
						game->name, game->nroles),
				 errhint("A joint move gives every role's action, in role order, as gametree.legal() lists them: "
						 "[[\"does\", role, action], ...].")));
}

Jsonb *
match_move(int64 id, Jsonb *joint_move)
{
	int			path_level = gt_pin_search_path();
	MatchRow   *m = read_match(id, true);
	const Game *game = gt_game_from_text(cstring_to_text(m->game));
	GameState  *state = gt_decode_state(game, m->state);
	GameState  *after = gt_state_alloc(game);
	GameMove	move;
	Jsonb	   *next_state;

	if (game->terminal(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("match " INT64_FORMAT ": the match's state is terminal", id),
				 errhint("gametree.match_end(" INT64_FORMAT ") ends it.", id)));
	check_joint_move_shape(m, game, joint_move);
	move = gt_decode_move(game, state, joint_move);
	game->next(game, state, move, after);
	next_state = gt_encode_state(game, after);
	/* the move as legal() writes it, whatever spelling of it was given */
	spi_run_as_catalog_owner("UPDATE gametree.matches SET moves = moves || jsonb_build_array($2), "
							 "state = $3 WHERE id = $1",
							 3, (Oid[]) {INT8OID, JSONBOID, JSONBOID},
							 (Datum[]) {Int64GetDatum(id), JsonbPGetDatum(gt_encode_move(game, state, move)),
							 JsonbPGetDatum(next_state)}, SPI_OK_UPDATE);
	gt_unpin_search_path(path_level);
	return next_state;
}

/* Drops the tree named qualified unless another session dropped it already. */
static void
drop_tree_if_any(const char *qualified)
{
	text	   *name = cstring_to_text(qualified);
	char	   *schema,
			   *base;

	tree_parse_name(name, &schema, &base);
	spi_run("SELECT FROM gametree.trees WHERE " TREE_KEY(""), 2, (Oid[]) {NAMEOID, TEXTOID},
			(Datum[]) {name_datum(schema), CStringGetTextDatum(base)}, SPI_OK_SELECT);
	if (SPI_processed > 0)
		drop_tree(name);
}

Jsonb *
match_end(int64 id, bool aborted, bool keep_tree)
{
	int			path_level = gt_pin_search_path();
	MatchRow   *m = read_match(id, true);
	/* an aborted match needs no game: one unloaded since may end too, without goals */
	const Game *game = aborted ? gt_find_game(m->game) : gt_game_from_text(cstring_to_text(m->game));
	GameState  *state = game != NULL ? gt_decode_state(game, m->state) : NULL;
	bool		terminal = state != NULL && game->terminal(game, state);
	Jsonb	   *goals = terminal ? gt_encode_goals(game, state) : NULL;

	if (!aborted && !terminal)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("match " INT64_FORMAT " is not over: its state is not terminal", id),
				 errhint("gametree.match_end(" INT64_FORMAT ", aborted => true) aborts it.", id)));
	if (m->tree != NULL && !keep_tree)
		drop_tree_if_any(m->tree);
	/* spi_run passes no NULLs: JSON null stands for no goals */
	spi_run_as_catalog_owner("UPDATE gametree.matches SET status = $2, goals = NULLIF($3, 'null'::jsonb), "
							 "ended_at = now(), tree = CASE WHEN $4 THEN tree END WHERE id = $1",
							 4, (Oid[]) {INT8OID, TEXTOID, JSONBOID, BOOLOID},
							 (Datum[]) {Int64GetDatum(id), CStringGetTextDatum(aborted ? "aborted" : "done"),
								 goals != NULL ? JsonbPGetDatum(goals) :
								 DirectFunctionCall1(jsonb_in, CStringGetDatum("null")),
							 BoolGetDatum(keep_tree)}, SPI_OK_UPDATE);
	gt_unpin_search_path(path_level);
	return goals;
}

void
match_replay(int64 id, Tuplestorestate *result, TupleDesc desc)
{
	int			path_level = gt_pin_search_path();
	MatchRow   *m = read_match(id, false);
	const Game *game = gt_game_from_text(cstring_to_text(m->game));
	GameState  *state = gt_state_alloc(game);
	GameState  *after = gt_state_alloc(game);
	int			nmoves = JsonContainerSize(&m->moves->root);

	game->initial(game, state);
	for (int ply = 0; ply <= nmoves; ply++)
	{
		Datum		values[4];
		bool		nulls[4] = {false, ply == 0, false, false};

		CHECK_FOR_INTERRUPTS();
		if (ply > 0)
		{
			Jsonb	   *joint = JsonbValueToJsonb(getIthJsonbValueFromContainer(&m->moves->root, ply - 1));

			game->next(game, state, gt_decode_move(game, state, joint), after);
			gt_state_copy(state, after);
			values[1] = JsonbPGetDatum(joint);
		}
		values[0] = Int32GetDatum(ply);
		values[2] = JsonbPGetDatum(gt_encode_state(game, state));
		nulls[3] = !game->terminal(game, state);
		if (!nulls[3])
			values[3] = JsonbPGetDatum(gt_encode_goals(game, state));
		tuplestore_putvalues(result, desc, values, nulls);
	}
	gt_unpin_search_path(path_level);
}
