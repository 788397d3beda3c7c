/*
 * game.h: the game interface.
 *
 * A game is one struct of function pointers (a vtable) that a game file fills
 * in; search, storage and the SQL layer only ever see this struct.  States are
 * compact byte strings with a length prefix (fixed-size structs for built-in
 * games, variable-length fact sets for games loaded from GDL), moves are 64-bit
 * codes that only the game interprets.  JSON is only the edge format: encode
 * and decode are never called in the hot loops (perft, expansion, search).
 */
#ifndef GAMETREE_GAME_H
#define GAMETREE_GAME_H

#include "postgres.h"

#include "common/pg_prng.h"
#include "port/pg_bitutils.h"
#include "datatype/timestamp.h"
#include "utils/jsonb.h"
#include "utils/tuplestore.h"

#define GT_MAX_ROLES 16			/* GGP games with more roles are unheard of */
#define GT_GOAL_MIN 0
#define GT_GOAL_MAX 100
/* Values (utilities, estimates) are kept and stored in hundredths of a goal point. */
#define GT_HUNDREDTHS 100
#define GT_NO_ROLE (-1)			/* control(): simultaneous moves or terminal */

/*
 * A position.  size counts the bytes of data in use; a game never reads past
 * it and always writes a canonical encoding (unused bytes zeroed), so equal
 * positions have equal bytes.  data is 8-byte aligned so games can overlay
 * their own struct of bitboards.
 */
typedef struct GameState
{
	uint32		size;
	uint8		data[FLEXIBLE_ARRAY_MEMBER] pg_attribute_aligned(8);
} GameState;

#define GT_STATE_AS(state, type) ((type *) (state)->data)

/* A joint move, coded by the game (one action per role, packed). */
typedef uint64 GameMove;

/* Never a game's move code: "no move" in search. */
#define GT_NO_MOVE (~(GameMove) 0)

/* Writes jsonb values; see jsonfacts.h. */
typedef struct JsonOut JsonOut;

/* Reads one fact (["relation", arg, ...]) of a jsonb state; see jsonfacts.h. */
typedef struct Fact Fact;

typedef struct Game Game;

/*
 * A game's record format of the PGN family (PGN, PDN): tag pairs, then the
 * moves in the game's notation numbered by turns, then the result.
 */
typedef struct GameRecordFormat
{
	const char *name;			/* "PGN" */
	const char *tags;			/* the format's own tag lines, after the usual four ("" for none) */
	/* the result as the format writes it */
	const char *first_wins;		/* "1-0": the first role won */
	const char *second_wins;
	const char *draw;
	const char *unfinished;		/* "*": the game goes on, or no one result fits */
	/* Optional (NULL: 1): the number of the turn a state is in, the record's first. */
	int			(*turn) (const Game *game, const GameState *state);
} GameRecordFormat;

/*
 * One call of a game's exact solver (Game.solve): what the caller asks, the
 * memory the solver keeps between the caller's calls, and what it proved.
 */
typedef struct GameSolveCall
{
	/* Set by the caller. */
	TimestampTz deadline;		/* 0: none */
	bool		exact;			/* also how long the game lasts, not only who wins */
	Size		memory;			/* bytes the solver may allocate in CurrentMemoryContext */
	void	   *workspace;		/* the solver's, NULL at first; lives as that context */
	GameMove   *line;			/* room for max_line moves of the principal line */
	int			max_line;

	/* Set by the solver when it returns true. */
	int			goals[GT_MAX_ROLES];	/* under perfect play */
	int			plies;			/* how long the game then lasts: the winner's shortest win,
								 * the loser's longest loss when plies_exact; otherwise the
								 * length most favourable to the state's mover that the
								 * solver could not rule out */
	bool		plies_exact;
	int			line_length;	/* moves of the principal line in line, 0 when not exact */
} GameSolveCall;

/* What Game.random_move did. */
typedef enum GtDraw
{
	GT_DRAW_MOVE,				/* drew a move */
	GT_DRAW_END,				/* the state is terminal */
	GT_DRAW_LIST				/* drew nothing: the caller draws among legal()'s moves */
} GtDraw;

struct Game
{
	const char *name;			/* registry key: gametree.initial('name') */
	const char *description;
	int			nroles;			/* 1 .. GT_MAX_ROLES */
	const char *const *roles;	/* role names in GGP order */
	uint32		state_bytes;	/* upper bound of GameState.size */
	int			max_moves;		/* upper bound of legal() in any state */
	const void *rules;			/* game-owned data, e.g. loaded GDL rules */

	/* Optional: builds the game's constant tables, once, from _PG_init. */
	void		(*init) (void);

	/* Rules.  None of these allocate memory. */
	void		(*initial) (const Game *game, GameState *out);

	/*
	 * Fills moves[] (room for max_moves) with the legal joint moves in the
	 * game's documented, stable order and returns their count.  Returns 0
	 * exactly when the state is terminal.
	 */
	int			(*legal) (const Game *game, const GameState *state, GameMove *moves);

	/*
	 * Optional (NULL: the game has no draws by rule, same as legal): legal()
	 * with draws by rule ignored, i.e. rules that end the game whatever the
	 * moves are (a move clock, dead material), so that perft with draw_rules
	 * false counts by move rules alone, as engine perft tables do.  Returns
	 * 0 only when the mover has no move (checkmate, stalemate, blocked).
	 * next() must accept the states this reaches (clocks past their limit).
	 */
	int			(*legal_by_move_rules) (const Game *game, const GameState *state,
										GameMove *moves);
	void		(*next) (const Game *game, const GameState *state, GameMove move,
						 GameState *out);
	bool		(*terminal) (const Game *game, const GameState *state);
	/* Terminal states only: goals[r] in GT_GOAL_MIN..GT_GOAL_MAX per role. */
	void		(*goals) (const Game *game, const GameState *state, int *goals);
	/* The role to move, or GT_NO_ROLE (simultaneous moves, or terminal). */
	int			(*control) (const Game *game, const GameState *state);

	/*
	 * 64-bit hash, stable across runs, builds and machines: it is a storage
	 * and shard key.  Hash values, not memory (byte order differs).  NULL:
	 * gt_hash_bytes of the state's bytes.
	 */
	uint64		(*hash) (const Game *game, const GameState *state);

	/*
	 * Optional (may be NULL): an estimate of goals[] for a non-terminal
	 * state, each in GT_GOAL_MIN..GT_GOAL_MAX.
	 */
	void		(*heuristic) (const Game *game, const GameState *state, double *values);

	/*
	 * Optional, for random playouts (may be NULL: always GT_DRAW_LIST): a
	 * uniformly random legal joint move of a state, drawn with prng into
	 * *move (GT_DRAW_MOVE), or GT_DRAW_END at a terminal state, or
	 * GT_DRAW_LIST to leave the draw to legal().  For a game that decides
	 * at less cost whether one move is legal than which moves are
	 * (chess.kif's king safety, gdl/lazy_legal.h); goals() then follows at
	 * the terminal state.
	 */
	GtDraw		(*random_move) (const Game *game, const GameState *state, pg_prng_state *prng,
								GameMove *move);

	/*
	 * Optional, for search (may be NULL): the role in control of a state
	 * that legal() has just found moves in, without control()'s own test
	 * for the end of the game, which may generate the moves again.
	 */
	int			(*mover) (const Game *game, const GameState *state);

	/*
	 * Optional, for search (may be NULL: no move is): how much a move
	 * changes the material, 0 for a quiet one.  Search tries larger values
	 * first and, at its horizon, plays on through moves above 0
	 * (quiescence).  Chess: captures and promotions; checkers: jumps.
	 */
	int			(*tactical) (const Game *game, const GameState *state, GameMove move);

	/*
	 * Optional, for search (may be NULL): the game's own exact solver, for
	 * a state that is not terminal.  Returns true when it proves who wins
	 * before call->deadline, filling call's results (GameSolveCall).
	 * Search gives it half its time to value the root's moves.
	 */
	bool		(*solve) (const Game *game, const GameState *state, GameSolveCall *call);

	/*
	 * Optional (may be NULL): perft with the game's own fast path (bulk
	 * counting, no indirect calls).  Must count exactly as gt_perft_generic
	 * with include_terminal false and the same draw_rules.
	 */
	int64		(*perft) (const Game *game, const GameState *state, int depth,
						  bool draw_rules);

	/*
	 * Storage format (core/compact.h), required: the state in as few bytes
	 * as the game can manage, for gametree.state values.  pack writes at
	 * most packed_bytes bytes and returns how many; equal states pack to
	 * equal bytes, and packings are stable across builds and machines (they
	 * are stored).  unpack reads len bytes back and returns false when they
	 * are no packing at all; it reads no byte past len, and whatever it
	 * accepts is a state every other hook can take (in range, no overlaps:
	 * encode_state reads it before anything checks the position), though
	 * not necessarily one the game reaches: the caller checks that through
	 * the edge format.  A state's memory is no packing: it holds what the
	 * other hooks trust without a check.
	 */
	uint32		packed_bytes;
	int			(*pack) (const Game *game, const GameState *state, uint8 *out);
	bool		(*unpack) (const Game *game, const uint8 *in, int len, GameState *out);

	/* Edge format. */
	/* Emits the facts of the state (without the enclosing array), canonically. */
	void		(*encode_state) (const Game *game, const GameState *state, JsonOut *out);

	/*
	 * Fills out from facts (any order).  Reports invalid or impossible
	 * positions with ereport(ERROR) (see gt_invalid_state).
	 */
	void		(*decode_state) (const Game *game, Fact *facts, int nfacts, GameState *out);
	/*
	 * Emits the action of one role within move (never called for "noop").
	 * Depends only on move and role, not on the rest of the state, so that
	 * trees can reuse a move's row across states.
	 */
	void		(*encode_action) (const Game *game, const GameState *state, GameMove move,
								  int role, JsonOut *out);

	/*
	 * Optional: recognises extra notations of the mover's action (UCI, PDN,
	 * ...).  Returns false when action is not in such a notation; the caller
	 * checks that *move is legal.
	 */
	bool		(*parse_action) (const Game *game, const GameState *state,
								 const JsonbValue *action, GameMove *move);
	/*
	 * Optional: a legal move as players of the game write it, palloc'd
	 * (SAN for chess, PDN for checkers); state is the position before it.
	 * NULL: the mover's action, or the joint move when moves are
	 * simultaneous, as JSON (gt_move_notation).
	 */
	char	   *(*notation) (const Game *game, const GameState *state, GameMove move);

	/*
	 * Optional, the short form of actions, needing no position (NULL: JSON;
	 * see core/notation.h).  format_action writes an action as encode_action
	 * emits it in that form (UCI e2e4, PDN 11-15, a column), palloc'd, or
	 * returns NULL when the action has another shape.  read_action reads
	 * text typed in that form (or the game's other notations) into JSON
	 * text that next() takes, palloc'd, or returns NULL; it only reads, the
	 * move may still be illegal.  action_syntax says what it reads, for
	 * messages: "a column from 1 to 7".
	 */
	char	   *(*format_action) (const Game *game, const JsonbValue *action);
	char	   *(*read_action) (const Game *game, const char *text);
	const char *action_syntax;
	/* Optional: what read_action reads, short, for a prompt: "the column, 1 to 7". */
	const char *action_hint;

	/*
	 * Optional: the inverse of heuristic's curve, the evaluation in the
	 * game's own unit (centipawns for chess) behind a utility of the role
	 * to move, for engines' protocols.
	 */
	double		(*centipawns) (const Game *game, double utility);
	/* A picture of the position for psql (palloc'd). */
	char	   *(*board) (const Game *game, const GameState *state);
	/*
	 * Optional: the board small enough for a node of a drawn graph, one
	 * line per row, a character per cell ("X.O"), lines separated by
	 * newlines, palloc'd.
	 */
	char	   *(*short_board) (const Game *game, const GameState *state);

	/* Optional: the game's record format (chess PGN, checkers PDN). */
	const GameRecordFormat *record_format;

	/* Optional: the game's text notation (FEN, PDN FEN). */
	void		(*from_fen) (const Game *game, const char *fen, GameState *out);
	char	   *(*to_fen) (const Game *game, const GameState *state);
};

/*
 * Bit count for games' hot loops: pg_popcount64 is called through a pointer
 * chosen at run time, while the build targets x86-64-v2, where the builtin
 * is one popcnt instruction.
 */
static inline int
gt_popcount64(uint64 x)
{
#ifdef HAVE__BUILTIN_POPCOUNT
	return __builtin_popcountll(x);
#else
	return pg_popcount64(x);
#endif
}

/*
 * Registry (game.c).  It names no game: each compiled-in game is registered
 * once per backend, from _PG_init, and a game source (games loaded at run
 * time, such as GDL descriptions) registers how to find its games by name.
 */
extern void gt_register_game(const Game *game);	/* calls the game's init */

typedef struct GameSource
{
	const char *label;			/* in the unknown-game hint: "loaded from GDL" */
	/* The source's game of that name, or NULL; valid until transaction end. */
	const Game *(*find) (const char *name);
	/* The same, by the game's number (core/compact.h). */
	const Game *(*find_number) (int32 number);
	/* Its games' names, ", "-separated, for messages. */
	char	   *(*names) (void);
	/* Adds (game, roles, description) rows of its games to a games() result. */
	void		(*list) (Tuplestorestate *result, TupleDesc desc);
} GameSource;

extern void gt_register_game_source(const GameSource *source);

extern const Game *gt_find_game(const char *name);	/* NULL when unknown */
extern const Game *gt_game_from_text(text *name);	/* ereports when unknown */
/* The compiled-in games, in the order they were registered. */
extern int	gt_game_count(void);
extern const Game *gt_game_at(int i);
extern bool gt_game_is_builtin(const Game *game);
/* The game's roles in GGP order, as a SQL text[] (datums.c). */
extern Datum gt_roles_datum(const Game *game);
/* Every source's games() rows, after the compiled-in games'. */
extern void gt_list_source_games(Tuplestorestate *result, TupleDesc desc);

/* States and moves (game.c). */
extern GameState *gt_state_alloc(const Game *game);
extern void gt_state_copy(GameState *dst, const GameState *src);
extern GameState *gt_decode_state(const Game *game, Jsonb *state);
extern Jsonb *gt_encode_state(const Game *game, const GameState *state);
extern GameMove gt_decode_move(const Game *game, const GameState *state, Jsonb *move);
extern Jsonb *gt_encode_move(const Game *game, const GameState *state, GameMove move);
extern Jsonb *gt_encode_goals(const Game *game, const GameState *state);
/* The game's estimate {"role": value} of a state; NULL when terminal or the game has none. */
extern Jsonb *gt_encode_heuristic(const Game *game, const GameState *state);
/* A legal move in the game's notation (its notation hook, else JSON). */
extern char *gt_move_notation(const Game *game, const GameState *state, GameMove move);
/*
 * {"role": value, ...} with values rounded to hundredths; a role whose
 * known[r] is false gets JSON null (known NULL: all are known).
 */
extern Jsonb *gt_encode_role_values(const Game *game, const double *values, const bool *known);
extern uint64 gt_state_hash(const Game *game, const GameState *state);

/*
 * The role in control of a state that is not terminal (GT_NO_ROLE:
 * simultaneous moves): the game's mover hook where it has one, which saves
 * control()'s own move generation.
 */
extern int	gt_mover(const Game *game, const GameState *state);

/* Stable hashing helpers for games (game.c). */
extern uint64 gt_hash_words(const uint64 *words, int nwords);
extern uint64 gt_hash_bytes(const uint8 *bytes, Size len);

/*
 * Perft (perft.c): the leaves of the move tree below state to depth (0 ..
 * 1000, else an ERROR), through the game's own fast path where it counts
 * the same.
 */
extern int64 gt_perft(const Game *game, const GameState *state, int depth,
					  bool include_terminal, bool draw_rules);
/* Perft through the interface alone. */
extern int64 gt_perft_generic(const Game *game, const GameState *state, int depth,
							   bool include_terminal, bool draw_rules);

/*
 * The game's text notation of positions (fen.c): FEN for chess, PDN FEN for
 * checkers; an ERROR for a game without one.
 */
extern GameState *gt_state_from_fen(const Game *game, const char *fen);
extern char *gt_state_to_fen(const Game *game, const GameState *state);

/*
 * For games whose position determines the mover: reports a control fact
 * (given, GT_NO_ROLE when absent) that differs from the expected mover.
 */
extern void gt_check_control(const Game *game, int given, int expected);

/*
 * A value the user gave, cut for an error message (a megabyte of input does
 * not belong in a message or the server log).
 */
extern const char *gt_abbreviate(const char *value);

/* A time limit's microseconds, saturating instead of overflowing. */
extern int64 gt_interval_usecs(const Interval *span);

/* Reports an invalid or impossible position of game; never returns. */
extern void gt_invalid_state(const Game *game, const char *fmt,...) pg_attribute_printf(2, 3) pg_attribute_noreturn();

#endif
