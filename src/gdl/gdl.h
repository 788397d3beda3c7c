/*
 * gdl.h: games loaded from GDL descriptions.
 *
 * gdl_compile turns KIF text into a Game (gdl_game.c); the registry
 * (load_game.c) keeps the texts in gametree.gdl_games and each backend's
 * compiled games, which gt_find_game consults for names that are not
 * built in.
 */
#ifndef GAMETREE_GDL_H
#define GAMETREE_GDL_H

#include "core/game.h"
#include "datatype/timestamp.h"
#include "utils/tuplestore.h"

/* Most joint moves of one GDL state: bounds the move arrays of search. */
#define GDL_MAX_JOINT_MOVES 4096

/* What compiling a description made. */
typedef struct GdlStats
{
	int			facts;			/* base facts: the bits of a state */
	int			actions;		/* of all roles */
	int			rules;			/* ground rules */
	int			nodes;			/* nodes of the network */
	bool		prover;			/* evaluated by the prover: the network would not fit, or was late */
	bool		network_late;	/* the network was given up at its deadline */
} GdlStats;

/* The engine of a compiled game, as gametree.gdl_games.engine names it. */
static inline const char *
gdl_engine_name(bool prover)
{
	return prover ? "prover" : "network";
}

/*
 * The share of gametree.gdl_memory that grounding a game's network may
 * take when the engine is chosen: half, since the network's build holds
 * at most about half as much again (propnet.c frees the ground rules
 * once laid out) and its evaluation the rest: chess.kif's grounding
 * holds 374 MB, its build at most 541 MB, and its network runs at the
 * 1 GB default.  A quarter until the build's peak was 2.2 times the
 * grounding's (chineseCheckers6.kif's network grounds in about 150 MB).
 */
#define GDL_NETWORK_SHARE 2

/*
 * gametree.gdl_lazy_legality: random playouts draw among the moves whose
 * cheap conditions hold and check the costly ones of the move drawn alone
 * (lazy_legal.h); off, they list every legal move, and play the same games
 * on the network as on the prover.
 */
extern bool gdl_lazy_legality;

/* How a game is evaluated. */
typedef enum GdlEngine
{
	GDL_ENGINE_AUTO,			/* the network if it fits in its share of the memory, else the prover */
	GDL_ENGINE_NETWORK,
	GDL_ENGINE_PROVER
} GdlEngine;

/*
 * Parses, checks and compiles a description into a Game allocated in the
 * current memory context (a context of its own, which it then owns);
 * ereports any fault.  memory_limit bounds grounding.  load_game compiles
 * with GDL_ENGINE_AUTO and stores the engine chosen; backends compile the
 * stored game with that engine, without trying the network again.  With
 * GDL_ENGINE_AUTO, a network not grounded and built by network_deadline
 * (0: none) is given up for the prover, as one too large is.
 */
extern const Game *gdl_compile(const char *name, const char *kif, GdlEngine engine,
							   Size memory_limit, TimestampTz network_deadline, GdlStats *stats);

/*
 * The compiled network of a game, as bytes that gdl_compile_stored reads
 * back in another backend; NULL for a game on the prover.
 */
extern bytea *gdl_network_bytes(const Game *game);

/*
 * The game of a stored network, allocated like gdl_compile's, or NULL with
 * *why when the bytes are not a network this build reads (another format,
 * or damaged: *damaged), or one larger than memory_limit allows: the
 * caller then compiles the description.
 */
extern const Game *gdl_compile_stored(const char *name, const bytea *network, Size memory_limit,
									  const char **why, bool *damaged);

/*
 * Registers the games loaded from GDL as a game source of the registry
 * (core/game.h), once per backend: gt_find_game finds a loaded game by name,
 * compiled on first use in this backend.  A game found stays valid until the
 * transaction ends, even if another session replaces or unloads it meanwhile.
 */
extern void gdl_init(void);

/*
 * A call that uses a game across transactions (CALL grow commits) holds it
 * meanwhile: a held game is not freed when it is replaced or unloaded.
 * Games not loaded from GDL are ignored.
 */
extern void gdl_hold_game(const Game *game);
extern void gdl_release_game(const Game *game);

/*
 * load_game: checks the name and the description's size, compiles the
 * description, stores it in gametree.gdl_games as the catalog owner and
 * tells every backend; the game, and what compiling made in *stats.  kif is
 * a text Datum, perhaps still toasted: its size is checked before it is read.
 */
extern const Game *gdl_load_game(const char *name, Datum kif, GdlStats *stats);

/*
 * compile_network: compiles the network of a loaded game (as load_game
 * would, with the settings of this call) and stores it, making it the
 * game's engine; refused unless the caller loaded the game (or is a
 * superuser), for a game on the prover while trees use it, and when the
 * network does not fit or is late (ereports).
 */
extern const Game *gdl_compile_network(text *name, GdlStats *stats);

/*
 * unload_game: deletes a game that no tree uses, for the role that loaded
 * it or a superuser.
 */
extern void gdl_unload_game(text *name);

/*
 * Makes the next lookup of every loaded game compare it with
 * gametree.gdl_games first: for a caller that has just locked a game's row
 * and must compile what the row holds.
 */
extern void gdl_recheck_games(void);

/*
 * One ground term of KIF text (a move, a fact: "(mark 1 2)", "noop") as the
 * JSON of GDL games (["mark", 1, 2], "noop"); ereports 22P02 for text that
 * is not one ground term.
 */
extern Jsonb *gdl_kif_to_json(const char *kif);
/*
 * The KIF text of a term's JSON, lower-case with single spaces; ereports
 * 22023 for JSON that is no term.  gdl_kif_to_json reads it back.
 */
extern char *gdl_json_to_kif(Jsonb *term);

#endif
