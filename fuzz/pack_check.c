/*
 * pack_check.c: a property check of the games' storage format (Game.pack,
 * game.h), linked like the decoder fuzzer from the extension's own objects
 * and pg_stubs.c, and run by tools/fuzz_decoders.sh before it fuzzes.
 *
 * For every compiled-in game, every state of its move tree down to a small
 * depth and every state of a number of random playouts (a fixed seed, so
 * runs repeat) must pack to at most packed_bytes bytes, unpack to the very
 * same bytes of state (trees compare states with memcmp), and pack again
 * to the same bytes.  Prints the packed sizes of each game (smallest, mean
 * over the states met, largest); exits non-zero at the first state that
 * breaks a promise, after printing it as JSON.
 *
 *   fuzz/pack_check [PLAYOUTS]     (default 300)
 */
#include "postgres.h"

#include "core/game.h"
#include "games/games.h"
#include "utils/memutils.h"

#include "pg_stubs.h"

/* Depth of the full tree walked below the initial state: its states are thousands to 200,000. */
static const struct
{
	const char *game;
	int			depth;
} depths[] = {{"tictactoe", 9}, {"connect4", 6}, {"checkers", 7}, {"chess", 4}};

#define DEFAULT_DEPTH 4
#define MAX_PLIES 2000			/* a random chess game ends long before (the fifty-move rule) */

typedef struct Sizes
{
	long		states;
	long		bytes;
	int			min;
	int			max;
} Sizes;

static uint64 seed = UINT64CONST(0x7061636b5f636865);

static uint64
next_random(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static void
fail(const Game *game, const GameState *state, const char *what)
{
	fprintf(stderr, "pack_check: %s: %s\n  state: %s\n", game->name, what,
			JsonbToCString(NULL, &gt_encode_state(game, state)->root, 0));
	exit(1);
}

/* The promises of Game.pack for one state. */
static void
check_packing(const Game *game, const GameState *state, Sizes *sizes)
{
	uint8	   *packing = palloc(game->packed_bytes);
	uint8	   *again = palloc(game->packed_bytes);
	GameState  *unpacked = gt_state_alloc(game);
	int			len = game->pack(game, state, packing);

	if (len < 0 || len > (int) game->packed_bytes)
		fail(game, state, psprintf("packs to %d bytes, packed_bytes is %u", len, game->packed_bytes));
	if (!game->unpack(game, packing, len, unpacked))
		fail(game, state, "its packing does not unpack");
	if (memcmp(state, unpacked, offsetof(GameState, data) + game->state_bytes) != 0)
		fail(game, state, "its packing unpacks to other bytes");
	if (game->pack(game, unpacked, again) != len || memcmp(packing, again, len) != 0)
		fail(game, state, "the unpacked state packs to other bytes");
	sizes->states++;
	sizes->bytes += len;
	sizes->min = Min(sizes->min, len);
	sizes->max = Max(sizes->max, len);
	pfree(packing);
	pfree(again);
	pfree(unpacked);
}

/* Every state below state down to depth more moves (draw rules on). */
static void
walk(const Game *game, const GameState *state, int depth, Sizes *sizes)
{
	GameMove   *moves;
	GameState  *child;
	int			n;

	check_packing(game, state, sizes);
	if (depth == 0)
		return;
	moves = palloc(game->max_moves * sizeof(GameMove));
	child = gt_state_alloc(game);
	n = game->legal(game, state, moves);
	for (int i = 0; i < n; i++)
	{
		game->next(game, state, moves[i], child);
		walk(game, child, depth - 1, sizes);
	}
	pfree(moves);
	pfree(child);
}

/* A game of random moves from the initial state to its end. */
static void
playout(const Game *game, Sizes *sizes)
{
	GameMove   *moves = palloc(game->max_moves * sizeof(GameMove));
	GameState  *state = gt_state_alloc(game);
	GameState  *child = gt_state_alloc(game);
	int			n;

	game->initial(game, state);
	for (int ply = 0; ply < MAX_PLIES && (n = game->legal(game, state, moves)) > 0; ply++)
	{
		GameState  *swap = state;

		game->next(game, state, moves[next_random() % n], child);
		state = child;
		child = swap;
		check_packing(game, state, sizes);
	}
	pfree(moves);
	pfree(state);
	pfree(child);
}

static void
report(const char *name, const char *what, const Sizes *sizes)
{
	printf("pack_check: %-9s %-14s %7ld states, packed bytes min %d, mean %.1f, max %d\n",
		   name, what, sizes->states, sizes->min, (double) sizes->bytes / sizes->states,
		   sizes->max);
}

int
main(int argc, char **argv)
{
	int			playouts = argc > 1 ? atoi(argv[1]) : 300;

	MemoryContextSwitchTo(TopMemoryContext);
	games_register();
	stub_reset();
	for (int g = 0; g < gt_game_count(); g++)
	{
		const Game *game = gt_game_at(g);
		GameState  *initial = gt_state_alloc(game);
		int			depth = DEFAULT_DEPTH;
		Sizes		tree = {0, 0, PG_INT32_MAX, 0};
		Sizes		played = {0, 0, PG_INT32_MAX, 0};

		if (game->pack == NULL)
			continue;
		for (int i = 0; i < lengthof(depths); i++)
			if (strcmp(depths[i].game, game->name) == 0)
				depth = depths[i].depth;
		game->initial(game, initial);
		walk(game, initial, depth, &tree);
		report(game->name, psprintf("tree, depth %d", depth), &tree);
		for (int i = 0; i < playouts; i++)
			playout(game, &played);
		report(game->name, psprintf("%d playouts", playouts), &played);
		stub_reset();
	}
	printf("pack_check: every state packs within packed_bytes and unpacks to the same bytes\n");
	return 0;
}
