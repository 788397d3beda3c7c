"""bench/gtpsql.py: one long-lived psql session for the match scripts.

Each query ends with an \\echo marker, so a whole game runs in one backend
without a connection per move.  The connection comes from the PG*
environment (bench/*.sh sets it to the private cluster) or the options
add_arguments() defines.
"""
import os
import shutil
import subprocess


class SqlError(Exception):
    pass


def find_psql():
    """psql of the server the extension is built for, else the one on PATH."""
    try:
        bindir = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip()
        if bindir and os.path.exists(os.path.join(bindir, "psql")):
            return os.path.join(bindir, "psql")
    except OSError:
        pass
    return shutil.which("psql") or "psql"


def add_arguments(ap):
    ap.add_argument("--psql", default=None)
    ap.add_argument("--host", default=os.environ.get("PGHOST"))
    ap.add_argument("--port", type=int, default=int(os.environ.get("PGPORT", "5432")))
    ap.add_argument("--user", default=os.environ.get("PGUSER"))
    ap.add_argument("--db", default=os.environ.get("PGDATABASE"))


def lit(s):
    return "'" + s.replace("'", "''") + "'"


class Psql:
    """One psql process (one backend); setup runs first (temporary functions, say)."""

    def __init__(self, args, setup=None):
        cmd = [args.psql or find_psql(), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=0"]
        for flag, value in (("-h", args.host), ("-p", args.port), ("-U", args.user), ("-d", args.db)):
            if value:
                cmd += [flag, str(value)]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.n = 0
        if setup:
            self.query(setup)

    def query(self, sql):
        self.n += 1
        marker = "__gt_end_%d__" % self.n
        self.p.stdin.write(sql.rstrip().rstrip(";") + ";\n\\echo " + marker + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SqlError("psql exited: " + " | ".join(out))
            line = line.rstrip("\n")
            if line == marker:
                break
            out.append(line)
        if any(l.startswith("ERROR:") or ": ERROR:" in l or l.startswith("FATAL:") for l in out):
            raise SqlError(" | ".join(out))
        return out

    def close(self):
        try:
            self.p.stdin.write("\\q\n")
            self.p.stdin.flush()
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def think_function(game):
    """SQL of pg_temp.gt_think(state, time_limit, method): bestmove and its milliseconds, timed in the server."""
    return r"""
CREATE OR REPLACE FUNCTION pg_temp.gt_think(s jsonb, tl interval, meth text, OUT m jsonb, OUT ms float8)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
  t0 := clock_timestamp();
  m := gametree.bestmove(%s, s, tl, NULL, meth);
  ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
END $$;
""" % lit(game)
