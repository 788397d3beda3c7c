/*
 * cli.h: the commands and what main() parses for them.
 */
#ifndef GT_CLI_H
#define GT_CLI_H

#include <libpq-fe.h>

#include "connect.h"

/* The options of commands (the connection options are in ConnOptions). */
typedef enum OptionId
{
	OPT_FEN,
	OPT_STATE,
	OPT_TIME,
	OPT_DEPTH,
	OPT_METHOD,
	OPT_TREE,
	OPT_JSON,
	OPT_STATES,
	OPT_JOBS,
	OPT_AS,
	OPT_ROOT,
	OPT_FORMAT,
	OPT_RECORD,
	OPT_NODES,
	OPT_HTTP_PORT,
	OPT_LISTEN,
	OPT_MARGIN,
	OPT_KEEP_TREES,
	N_OPTIONS
} OptionId;

#define OPT_BIT(id) (1u << (id))

typedef struct Args
{
	ConnOptions conn;
	const char *opt[N_OPTIONS]; /* as given; NULL when absent, "" for a flag */
	char	  **arg;			/* the arguments after the command's name */
	int			nargs;
} Args;

typedef struct Command
{
	const char *name;
	const char *args;			/* "TREE GAME [--fen FEN | --state JSON]" */
	const char *summary;		/* one line for gametree --help */
	const char *help;			/* what it does and its options, for gametree NAME --help */
	unsigned	options;		/* OPT_BIT of each option it takes */
	int			nargs;			/* how many arguments it takes */
	int			(*run) (PGconn *conn, Args *args);
} Command;

extern const Command cmd_list;
extern const Command cmd_new;
extern const Command cmd_drop;
extern const Command cmd_stats;
extern const Command cmd_best;
extern const Command cmd_analyse;
extern const Command cmd_grow;
extern const Command cmd_play;
extern const Command cmd_show;
extern const Command cmd_uci;
extern const Command cmd_load;
extern const Command cmd_unload;
extern const Command cmd_ggp;

/*
 * The position of --state, --fen or the game's initial state, as SQL with
 * $1 the game, $2 the state and $3 the FEN (from_fen is strict: a NULL FEN
 * gives NULL).
 */
#define POSITION_SQL "COALESCE($2::jsonb, gametree.from_fen($1, $3), gametree.initial($1))"

#endif
