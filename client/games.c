/*
 * games.c: the commands load and unload, over gametree.load_game and
 * gametree.unload_game.
 *
 * load reads the GDL description from a file (or the standard input, "-")
 * and sends its text as a parameter, never pasted into the statement, so
 * that any quote or dollar sign in the description is just text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "query.h"
#include "report.h"
#include "util.h"

/*
 * The whole file into text (NUL-terminated); false after reporting why not.
 * A NUL byte cannot travel as text: it is refused here, naming the byte.
 */
static bool
read_file(const char *path, StrBuf *text)
{
	FILE	   *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char		name[300];
	char		chunk[65536];
	size_t		n;
	char	   *nul;

	snprintf(name, sizeof name, in == stdin ? "the standard input" : "\"%.256s\"", path);
	if (in == NULL)
	{
		report("cannot open %s: %s", name, strerror(errno));
		return false;
	}
	while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
		sb_append_len(text, chunk, n);
	if (ferror(in))
	{
		report("cannot read %s: %s", name, strerror(errno));
		if (in != stdin)
			fclose(in);
		return false;
	}
	if (in != stdin)
		fclose(in);
	nul = memchr(text->data, '\0', text->len);
	if (nul != NULL)
	{
		report("%s holds a NUL byte (at byte %zu): a GDL description is text", name,
			   (size_t) (nul - text->data));
		return false;
	}
	return true;
}

static int
run_load(PGconn *conn, Args *args)
{
	StrBuf		kif;
	const char *params[2];
	PGresult   *res;
	int			rc = EXIT_FAILED;

	sb_init(&kif);
	if (read_file(args->arg[1], &kif))
	{
		params[0] = args->arg[0];
		params[1] = kif.data;
		res = db_query(conn, "SELECT game, array_to_string(roles, ', '), facts, actions, rules, nodes, engine "
					   "FROM gametree.load_game($1, $2)", 2, params);
		if (res)
		{
#define V(col) PQgetvalue(res, 0, col)
			printf("%s: roles %s; %s facts, %s actions, %s rules, %s nodes; engine %s\n",
				   V(0), V(1), V(2), V(3), V(4), V(5), V(6));
#undef V
			PQclear(res);
			rc = 0;
		}
	}
	sb_free(&kif);
	return rc;
}

static int
run_unload(PGconn *conn, Args *args)
{
	PGresult   *res = db_query(conn, "SELECT gametree.unload_game($1)", 1, (const char *const *) args->arg);

	if (!res)
		return EXIT_FAILED;
	PQclear(res);
	return 0;
}

const Command cmd_load = {
	"load", "NAME FILE",
	"load a game from a GDL (.kif) file",
	"Loads the game description in FILE (GDL in KIF, as gametree.load_game\n"
	"takes it; - reads the standard input) under the name NAME, for every\n"
	"session of the database, and prints its roles, its size and the engine\n"
	"chosen for it.  The file is read here, by the client: the server needs no\n"
	"access to it.  gametree unload NAME removes the game again.\n",
	0, 2, run_load
};

const Command cmd_unload = {
	"unload", "NAME",
	"remove a game loaded from GDL",
	"Removes the game NAME that load (or gametree.load_game) loaded.  Only\n"
	"the role that loaded it, or a superuser, may; a game that trees use stays\n"
	"until they are dropped.\n",
	0, 1, run_unload
};
