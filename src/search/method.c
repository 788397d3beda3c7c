/*
 * method.c: which search a call runs, and running it (search.h).
 */
#include "postgres.h"

#include "search/mcts.h"
#include "utils/timestamp.h"

static const char *const method_names[] = {"auto", "alphabeta", "maxn", "mcts", "random", "flat"};

/* What each method counts as its nodes, for the log. */
static const char *const method_units[] = {"", "nodes", "nodes", "iterations", "moves", "depth charges"};

StaticAssertDecl(lengthof(method_names) == SEARCH_FLAT + 1 && lengthof(method_units) == SEARCH_FLAT + 1,
				 "a name and a unit per SearchMethod");

/*
 * 'auto': alpha-beta for two roles that take turns where it sees more than
 * the ends of the game it reaches: the game has a heuristic for the
 * positions at its horizon, or is tic-tac-toe, the built-in game without
 * one, which it solves from any position in a millisecond.  Elsewhere,
 * games loaded from GDL among them, every position short of an end counts
 * 50/50 to it, and it plays the first legal move: Monte Carlo search, whose
 * random games value every position, beat it there (bench/gdl_match.sh).
 */
static SearchMethod
auto_method(const Game *game, const GameState *state)
{
	if (!search_alphabeta_applies(game, state))
		return SEARCH_MCTS;
	return game->heuristic != NULL || gt_game_is_builtin(game) ? SEARCH_ALPHABETA : SEARCH_MCTS;
}

SearchMethod
search_method_named(const char *name, const Game *game, const GameState *state)
{
	int			method = 0;

	while (method < lengthof(method_names) && strcmp(name, method_names[method]) != 0)
		method++;
	if (method == lengthof(method_names))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown search method \"%s\"", gt_abbreviate(name)),
				 errhint("The methods are 'auto', 'alphabeta', 'maxn', 'mcts', 'random' and 'flat'.")));
	if (method == SEARCH_AUTO)
		return auto_method(game, state);
	if (method == SEARCH_ALPHABETA && !search_alphabeta_applies(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s: alpha-beta needs two roles that take turns", game->name),
				 errhint("method => 'mcts' plays any game.")));
	if (method == SEARCH_MAXN && !search_maxn_applies(game, state))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s: max^n needs a role in control, and the roles move at once here", game->name),
				 errhint("method => 'mcts' plays any game.")));
	return (SearchMethod) method;
}

void
search_run(SearchMethod method, const Game *game, const GameState *root, const SearchLimits *limits,
		   SearchResult *result, MctsTree **mcts)
{
	TimestampTz began = GetCurrentTimestamp();
	MctsTree   *tree = NULL;
	double		seconds;

	Assert(method != SEARCH_AUTO);
	if (method == SEARCH_ALPHABETA)
		search_alphabeta(game, root, limits, result);
	else if (method == SEARCH_MAXN)
		search_maxn(game, root, limits, result);
	else if (method == SEARCH_MCTS)
		tree = search_mcts(game, root, limits, result);
	else if (method == SEARCH_RANDOM)
		search_random(game, root, result);
	else
		search_flat(game, root, limits, result);
	seconds = Max(GetCurrentTimestamp() - began, 1) / 1e6;
	/* For benchmarks and tuning (bench/search_speed.sh). */
	elog(DEBUG1, "gametree search: %s %s, depth %d, %lld %s in %.3f s, %.0f per second",
		 game->name, method_names[method], result->depth, (long long) result->nodes,
		 method_units[method], seconds, result->nodes / seconds);
	if (mcts != NULL)
		*mcts = tree;
	else if (tree != NULL)
		search_mcts_free(tree);
}
