#!/usr/bin/env python3
"""tools/ggp_manager.py: a small General Game Playing game manager, for the
tests (test/t/ggp_check.sh) and the benchmark (bench/ggp_match.sh).

It plays one match between players reachable over HTTP, as ggp-base's
GameServer does: (start ...) to every player at once, then (play ...) each
step with the previous joint move, then (stop ...) with the last one.  The
rules are the engine's (gametree's SQL functions legal, next, terminal and
goal, through psql on the database --db, where the description is loaded
under the name --game); the players' replies are read by a KIF reader of its
own, not the extension's, so the conversion is checked too.

A reply that is late (past the clock), not one KIF term, or not a legal
action of the role is an error: the manager plays a random legal action for
that role instead, as game managers do, and the match goes on.

    python3 tools/ggp_manager.py --kif FILE --game NAME --db DB \\
        --player URL [--player URL ...] [--start 10] [--play 2] [--id MATCHID] [--max-plies N]

The players are given in role order.  With --max-plies, the match is
aborted ((abort ...)) after that many joint moves unless it ended before.
Prints one JSON object: the match's id, roles, joint moves (as next()
takes them), final state and goals (null when aborted), whether it was
aborted, every reply (role, request, seconds, the reply, and the error if
any), the worst margin left on a clock, and the number of errors.  Exit status 0 when no
reply was an error, 1 otherwise, 2 when the match could not be run.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

PSQL = os.environ.get("GT_PSQL", "psql")


def sql(db, query, **params):
    """Runs query on db with psql variables (:'name' quotes them); returns the rows' text."""
    args = [PSQL, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db]
    for name, value in params.items():
        args += ["-v", "%s=%s" % (name, value)]
    done = subprocess.run(args, input=query, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("psql: %s" % done.stderr.strip())
    return done.stdout.rstrip("\n")


def kif_tokens(text):
    return re.findall(r"\(|\)|[^\s()]+", text)


def kif_to_json(text):
    """One KIF term as the engine's JSON: symbols spelling a non-negative integer are numbers."""
    tokens = kif_tokens(text)
    if not tokens:
        raise ValueError("no term")
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced ')'")
            done = stack.pop()
            if not done:
                raise ValueError("an empty list")
            # (open) and open are the same constant
            stack[-1].append(done[0] if len(done) == 1 else done)
        else:
            if t.startswith("?"):
                raise ValueError("a variable")
            t = t.lower()
            stack[-1].append(int(t) if t.isdigit() else t)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("not exactly one term")
    return stack[0][0]


def json_to_kif(term):
    if isinstance(term, list):
        return "(" + " ".join(json_to_kif(t) for t in term) + ")"
    return str(term)


def post(url, body, timeout):
    """The reply's text and the seconds it took, or raises."""
    request = urllib.request.Request(url, data=body.encode(), method="POST",
                                     headers={"Content-Type": "text/acl"})
    began = time.monotonic()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        text = response.read().decode()
    return text, time.monotonic() - began


class Match:
    def __init__(self, args):
        self.args = args
        self.db = args.db
        self.game = args.game
        self.roles = json.loads(sql(self.db, "SELECT to_json(roles) FROM gametree.games() WHERE game = :'g'",
                                    g=self.game) or "null")
        if not self.roles:
            raise RuntimeError("game %s is not loaded in %s" % (self.game, self.db))
        if len(args.player) != len(self.roles):
            raise RuntimeError("%d players for %d roles" % (len(args.player), len(self.roles)))
        with open(args.kif) as f:
            kif = f.read()
        # the rules as a list of expressions, comments dropped, as ggp-base sends them
        self.rules = " ".join(re.sub(r";[^\n]*", "", kif).split())
        self.state = sql(self.db, "SELECT gametree.initial(:'g')", g=self.game)
        self.moves = []
        self.replies = []
        self.errors = 0
        self.worst_margin = None

    def ask_all(self, messages, clock, kind):
        """Sends each player its message at once; returns each reply's text, or None with the error noted."""
        def one(i):
            try:
                text, seconds = post(self.args.player[i], messages[i], clock + 5)
            except (urllib.error.URLError, OSError, ValueError) as e:
                return i, None, None, "no reply: %s" % e
            return i, text.strip(), seconds, None

        with concurrent.futures.ThreadPoolExecutor(len(messages)) as pool:
            results = sorted(pool.map(one, range(len(messages))))
        out = []
        for i, text, seconds, error in results:
            if error is None and seconds > clock:
                error = "late: %.3f s for a clock of %s s" % (seconds, clock)
            if seconds is not None:
                margin = clock - seconds
                self.worst_margin = margin if self.worst_margin is None else min(self.worst_margin, margin)
            self.replies.append({"role": self.roles[i], "request": kind, "ply": len(self.moves),
                                 "seconds": None if seconds is None else round(seconds, 4),
                                 "reply": text, "error": error})
            out.append((text, error))
        return out

    def note_error(self, error):
        self.errors += 1
        self.replies[-1]["error"] = self.replies[-1]["error"] or error

    def play(self):
        a = self.args
        started = self.ask_all(["(start %s %s (%s) %s %s)" % (a.id, role, self.rules, a.start, a.play)
                                for role in self.roles], float(a.start), "start")
        for k, (text, error) in enumerate(started):
            if error or (text or "").lower() != "ready":
                self.errors += 1
                self.replies[k - len(started)]["error"] = error or "not ready: %r" % text
        last = "nil"
        self.aborted = False
        while True:
            if a.max_plies is not None and len(self.moves) >= a.max_plies:
                self.aborted = True
                break
            row = sql(self.db, "SELECT gametree.terminal(:'g', :'s'::jsonb), "
                               "(SELECT json_agg(m) FROM gametree.legal(:'g', :'s'::jsonb) m)",
                      g=self.game, s=self.state).split("|", 1)
            if row[0] == "t":
                break
            legal = json.loads(row[1])
            replies = self.ask_all(["(play %s %s)" % (a.id, last)] * len(self.roles), float(a.play), "play")
            joint = []
            for i, (text, error) in enumerate(replies):
                choices = [m[i][2] for m in legal]
                action = None
                if error is None:
                    try:
                        action = kif_to_json(text)
                    except ValueError as e:
                        error = "not a KIF term (%s): %r" % (e, text)
                    else:
                        if action not in choices:
                            error = "illegal: %s" % text
                            action = None
                if error is not None:
                    entry = [r for r in self.replies if r["request"] == "play" and r["role"] == self.roles[i]][-1]
                    entry["error"] = error
                    self.errors += 1
                    action = random.choice(choices)
                joint.append(["does", self.roles[i], action])
            self.moves.append(joint)
            self.state = sql(self.db, "SELECT gametree.next(:'g', :'s'::jsonb, :'m'::jsonb)",
                             g=self.game, s=self.state, m=json.dumps(joint))
            last = "(" + " ".join(json_to_kif(m[2]) for m in joint) + ")"
        if self.aborted:
            self.goals = None
            stopped = self.ask_all(["(abort %s)" % a.id] * len(self.roles), float(a.play), "abort")
        else:
            self.goals = json.loads(sql(self.db, "SELECT gametree.goal(:'g', :'s'::jsonb)", g=self.game, s=self.state))
            stopped = self.ask_all(["(stop %s %s)" % (a.id, last)] * len(self.roles), float(a.play), "stop")
        for k, (text, error) in enumerate(stopped):
            if error or (text or "").lower() != "done":
                self.errors += 1
                self.replies[k - len(stopped)]["error"] = error or "not done: %r" % text

    def summary(self):
        return {"id": self.args.id, "game": self.game, "roles": self.roles, "moves": self.moves,
                "state": json.loads(self.state), "goals": self.goals, "aborted": self.aborted,
                "replies": self.replies,
                "worst_margin": None if self.worst_margin is None else round(self.worst_margin, 4),
                "errors": self.errors}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kif", required=True)
    p.add_argument("--game", required=True, help="the name the description is loaded under in --db")
    p.add_argument("--db", required=True)
    p.add_argument("--player", action="append", required=True, help="a player's URL, in role order")
    p.add_argument("--start", default="10")
    p.add_argument("--play", default="2")
    p.add_argument("--id", default="match.%d" % int(time.time() * 1000))
    p.add_argument("--max-plies", type=int, help="abort the match after this many joint moves")
    a = p.parse_args()
    try:
        m = Match(a)
        m.play()
    except (RuntimeError, OSError) as e:
        print("ggp_manager: %s" % e, file=sys.stderr)
        return 2
    print(json.dumps(m.summary()))
    return 0 if m.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
