/*
 * random.c: the uniformly random player (search.h), a baseline that the
 * benchmarks measure the searches against.
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "search/search.h"

void
search_random(const Game *game, const GameState *root, SearchResult *result)
{
	GameMove   *legal = palloc(game->max_moves * sizeof(GameMove));
	int			n = game->legal(game, root, legal);
	RootMove   *rm = palloc0(sizeof(RootMove));

	Assert(n > 0);

	/*
	 * The joint moves of a simultaneous-move state are every combination of
	 * the roles' actions, so a uniform joint move is each action uniform.
	 * The backend's generator, not one seeded by the position as the Monte
	 * Carlo searches': a random player must not replay the same game.
	 */
	rm->move = legal[pg_prng_uint64_range(&pg_global_prng_state, 0, n - 1)];
	value_unknown(game, &rm->value);
	rm->visits = -1;
	rm->pv.length = 1;
	rm->pv.moves[0] = rm->move;
	result->nmoves = 1;
	result->moves = rm;
	result->depth = 0;
	result->nodes = 1;
	pfree(legal);
}
