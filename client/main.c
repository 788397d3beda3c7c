/*
 * main.c: the gametree command: options, help, and running one command.
 *
 * Options may come before or after the command's name (getopt_long
 * permutes), so every option of every command is parsed in one pass, and
 * then those that the command does not take are refused.  Everything that
 * can be checked without the server is checked before connecting.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"
#include "report.h"
#include "util.h"

#ifndef GAMETREE_VERSION
#define GAMETREE_VERSION "unknown"
#endif

static const Command *const commands[] = {
	&cmd_list, &cmd_new, &cmd_drop, &cmd_stats, &cmd_best, &cmd_analyse, &cmd_grow,
	&cmd_play, &cmd_show, &cmd_uci, &cmd_load, &cmd_unload, &cmd_ggp
};

#define N_COMMANDS ((int) (sizeof commands / sizeof commands[0]))

/* getopt_long values beyond the short options' characters */
#define OPT_HELP 1000
#define OPT_VERSION 1001
#define OPT_COMMAND 1100		/* + OptionId */

static const struct option long_options[] = {
	{"host", required_argument, NULL, 'h'},
	{"port", required_argument, NULL, 'p'},
	{"username", required_argument, NULL, 'U'},
	{"dbname", required_argument, NULL, 'd'},
	{"no-password", no_argument, NULL, 'w'},
	{"password", no_argument, NULL, 'W'},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{"fen", required_argument, NULL, OPT_COMMAND + OPT_FEN},
	{"state", required_argument, NULL, OPT_COMMAND + OPT_STATE},
	{"time", required_argument, NULL, OPT_COMMAND + OPT_TIME},
	{"depth", required_argument, NULL, OPT_COMMAND + OPT_DEPTH},
	{"method", required_argument, NULL, OPT_COMMAND + OPT_METHOD},
	{"tree", required_argument, NULL, OPT_COMMAND + OPT_TREE},
	{"json", no_argument, NULL, OPT_COMMAND + OPT_JSON},
	{"states", required_argument, NULL, OPT_COMMAND + OPT_STATES},
	{"jobs", required_argument, NULL, OPT_COMMAND + OPT_JOBS},
	{"as", required_argument, NULL, OPT_COMMAND + OPT_AS},
	{"root", required_argument, NULL, OPT_COMMAND + OPT_ROOT},
	{"format", required_argument, NULL, OPT_COMMAND + OPT_FORMAT},
	{"record", required_argument, NULL, OPT_COMMAND + OPT_RECORD},
	{"nodes", required_argument, NULL, OPT_COMMAND + OPT_NODES},
	{"http-port", required_argument, NULL, OPT_COMMAND + OPT_HTTP_PORT},
	{"listen", required_argument, NULL, OPT_COMMAND + OPT_LISTEN},
	{"margin", required_argument, NULL, OPT_COMMAND + OPT_MARGIN},
	{"keep-trees", no_argument, NULL, OPT_COMMAND + OPT_KEEP_TREES},
	{NULL, 0, NULL, 0}
};

static const char connection_help[] =
"Connection options (before or after the command):\n"
"  -h, --host=HOST        database server host or socket directory\n"
"  -p, --port=PORT        database server port\n"
"  -U, --username=USER    database user name\n"
"  -d, --dbname=DBNAME    database name, or a connection string or URI\n"
"  -w, --no-password      never prompt for a password\n"
"  -W, --password         prompt for a password before connecting\n"
"\n"
"The PG* environment variables apply as in psql.  When neither options nor\n"
"PGHOST, PGHOSTADDR, PGPORT, PGDATABASE or PGSERVICE say where to connect,\n"
"gametree uses a checkout's private cluster (tools/psql.sh starts it), as\n"
"the file .gametree-cluster that the checkout's tools write describes it:\n"
"the file $GAMETREE_CLUSTER (or $GAMETREE_CLUSTER/.gametree-cluster), else\n"
"the nearest .gametree-cluster in the current directory or above it.\n";

static const char exit_help[] =
"Exit status: 0 done, 1 the command failed, 2 a usage or connection problem.\n";

static const char *
option_name(int id)
{
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == OPT_COMMAND + id)
			return o->name;
	return "?";
}

static void
print_help(const ConnOptions *conn)
{
	Cluster		cluster;

	printf("gametree grows, stores and searches game trees in PostgreSQL (the gametree extension).\n\n"
		   "Usage: gametree [OPTION]... COMMAND [ARG]...\n\nCommands:\n");
	for (int i = 0; i < N_COMMANDS; i++)
		printf("  %-9s %s\n", commands[i]->name, commands[i]->summary);
	printf("\n'gametree COMMAND --help' describes a command.\n\n%s\n"
		   "Other options:\n"
		   "  --help       show this help\n"
		   "  --version    show the version\n\n", connection_help);
	cluster_resolve(conn, &cluster);
	cluster_describe(&cluster, stdout);
	printf("\n%s", exit_help);
}

static void
print_command_help(const Command *cmd, const ConnOptions *conn)
{
	Cluster		cluster;

	printf("Usage: gametree %s%s%s [CONNECTION OPTION]...\n\n%s\n%s",
		   cmd->name, cmd->args[0] ? " " : "", cmd->args, cmd->help, connection_help);
	cluster_resolve(conn, &cluster);
	cluster_describe(&cluster, stdout);
	printf("\n%s", exit_help);
}

static int
usage_error(const Command *cmd, const char *message)
{
	if (cmd)
		report("%s (gametree %s --help)", message, cmd->name);
	else
		report("%s (gametree --help)", message);
	return EXIT_USAGE;
}

/* A whole number from min to max, or a usage error. */
static int
check_number(const Command *cmd, OptionId id, const char *text, long long min, long long max)
{
	char	   *end;
	long long	value;
	char		message[200];

	errno = 0;
	value = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value < min || value > max)
	{
		snprintf(message, sizeof message, "--%s must be a whole number from %lld to %lld, not \"%.40s\"",
				 option_name(id), min, max, text);
		return usage_error(cmd, message);
	}
	return 0;
}

/* What can be checked before connecting: the options of the command, its arguments, numbers, JSON. */
static int
check_args(const Command *cmd, const Args *args)
{
	char		message[200];
	json_object *state;

	for (int id = 0; id < N_OPTIONS; id++)
		if (args->opt[id] && !(cmd->options & OPT_BIT(id)))
		{
			snprintf(message, sizeof message, "%s does not take --%s", cmd->name, option_name(id));
			return usage_error(cmd, message);
		}
	if (args->nargs != cmd->nargs)
	{
		snprintf(message, sizeof message, "usage: gametree %s%s%s", cmd->name, cmd->args[0] ? " " : "", cmd->args);
		return usage_error(cmd, message);
	}
	if (args->opt[OPT_FEN] && args->opt[OPT_STATE])
		return usage_error(cmd, "give --fen or --state, not both");
	if (args->opt[OPT_STATE])
	{
		state = json_tokener_parse(args->opt[OPT_STATE]);
		if (!json_object_is_type(state, json_type_array))
		{
			json_object_put(state);
			return usage_error(cmd, "--state must be a JSON array of facts, such as '[[\"control\",\"xplayer\"]]'");
		}
		json_object_put(state);
	}
	if (args->opt[OPT_DEPTH] && check_number(cmd, OPT_DEPTH, args->opt[OPT_DEPTH], 1, 2147483647))
		return EXIT_USAGE;
	if (args->opt[OPT_STATES] && check_number(cmd, OPT_STATES, args->opt[OPT_STATES], 1, 9223372036854775807LL))
		return EXIT_USAGE;
	if (args->opt[OPT_JOBS] && check_number(cmd, OPT_JOBS, args->opt[OPT_JOBS], 1, 64))
		return EXIT_USAGE;
	if (args->opt[OPT_ROOT] && check_number(cmd, OPT_ROOT, args->opt[OPT_ROOT], LLONG_MIN, LLONG_MAX))
		return EXIT_USAGE;
	if (args->opt[OPT_HTTP_PORT] && check_number(cmd, OPT_HTTP_PORT, args->opt[OPT_HTTP_PORT], 1, 65535))
		return EXIT_USAGE;
	if (args->opt[OPT_MARGIN] && check_number(cmd, OPT_MARGIN, args->opt[OPT_MARGIN], 0, 60000))
		return EXIT_USAGE;
	if (args->opt[OPT_FORMAT] && strcmp(args->opt[OPT_FORMAT], "dot") != 0 &&
		strcmp(args->opt[OPT_FORMAT], "json") != 0)
		return usage_error(cmd, "--format must be dot or json");
	return 0;
}

int
main(int argc, char **argv)
{
	Args		args;
	const Command *cmd = NULL;
	int			help = 0,
				version = 0;
	int			c;
	PGconn	   *conn;
	int			rc;

	memset(&args, 0, sizeof args);
	opterr = 0;					/* errors are reported here, in one line */
	while ((c = getopt_long(argc, argv, ":h:p:U:d:wW", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'h':
				args.conn.host = optarg;
				break;
			case 'p':
				args.conn.port = optarg;
				break;
			case 'U':
				args.conn.user = optarg;
				break;
			case 'd':
				args.conn.dbname = optarg;
				break;
			case 'w':
				args.conn.password_mode = PASSWORD_NEVER;
				break;
			case 'W':
				args.conn.password_mode = PASSWORD_PROMPT;
				break;
			case OPT_HELP:
				help = 1;
				break;
			case OPT_VERSION:
				version = 1;
				break;
			case ':':
				report("option %s needs a value (gametree --help)", argv[optind - 1]);
				return EXIT_USAGE;
			case '?':
				if (optopt && optopt < 256)
					report("unknown option -%c (gametree --help)", optopt);
				else
					report("unknown option %s (gametree --help)", argv[optind - 1]);
				return EXIT_USAGE;
			default:
				args.opt[c - OPT_COMMAND] = optarg ? optarg : "";
				break;
		}
	}
	if (version)
	{
		printf("gametree %s\n", GAMETREE_VERSION);
		return 0;
	}
	if (optind < argc)
	{
		for (int i = 0; i < N_COMMANDS && !cmd; i++)
			if (strcmp(argv[optind], commands[i]->name) == 0)
				cmd = commands[i];
		if (!cmd)
		{
			report("unknown command \"%s\" (gametree --help lists them)", argv[optind]);
			return EXIT_USAGE;
		}
		args.arg = argv + optind + 1;
		args.nargs = argc - optind - 1;
	}
	if (help)
	{
		if (cmd)
			print_command_help(cmd, &args.conn);
		else
			print_help(&args.conn);
		return 0;
	}
	if (!cmd)
		return usage_error(NULL, "no command given");
	if ((rc = check_args(cmd, &args)) != 0)
		return rc;

	conn = db_connect(&args.conn);
	if (conn == NULL)
		rc = EXIT_USAGE;
	else if (!db_check_extension(conn))
		rc = EXIT_USAGE;
	else
	{
		interrupt_install();
		rc = cmd->run(conn, &args);
	}
	PQfinish(conn);
	free(args.conn.password);
	return rc;
}
