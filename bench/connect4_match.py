#!/usr/bin/env python3
"""bench/connect4_match.py: connect four matches for gametree's search.

(a) gametree at time_limit T (default 100 ms) against gametree at T/10, from
    the openings of the first two plies (red's column, black's column: all
    49, or --openings N of them, evenly spread), each opening played once
    with the longer limit as red and once as black.  Score for the longer
    limit.
(b) gametree at T against a uniformly random player (seeded), --random-games
    games alternating colours from the empty board.  gametree must score
    100%.

Each engine is its own psql process (its own backend, so alpha-beta's
transposition table, kept by the backend, is not shared between the two
sides); a third session is the referee: it applies every move with
gametree.next(), asks gametree.terminal() and gametree.goal(), and lists
gametree.legal(), and every move an engine returns is checked against that
list.  bestmove is timed inside the server (clock_timestamp() around the
call in a temporary PL/pgSQL function).

    python3 bench/connect4_match.py --movetime-ms 100
"""

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

import gtpsql
from gtpsql import Psql, SqlError, lit


SETUP_SQL = gtpsql.think_function('connect4') + r"""
CREATE OR REPLACE FUNCTION pg_temp.gt_after(s jsonb, mv jsonb,
  OUT ns jsonb, OUT control text, OUT term boolean, OUT goal jsonb, OUT legal text)
LANGUAGE plpgsql AS $$
BEGIN
  ns := CASE WHEN mv IS NULL THEN s ELSE gametree.next('connect4', s, mv) END;
  term := gametree.terminal('connect4', ns);
  IF term THEN
    goal := gametree.goal('connect4', ns);
  ELSE
    control := gametree.control('connect4', ns);
  END IF;
  SELECT coalesce(string_agg(d->2->>1, ' '), '') INTO legal
    FROM gametree.legal('connect4', ns) l, jsonb_array_elements(l) d
   WHERE jsonb_typeof(d->2) = 'array';
END $$
"""


class Referee:
    def __init__(self, args):
        self.db = Psql(args, SETUP_SQL)

    def start(self):
        self.state = self.db.query("SELECT gametree.initial('connect4')")[0]
        return self._apply(None)

    def _apply(self, mv):
        row = self.db.query("SELECT ns, control, term, goal, legal FROM pg_temp.gt_after(%s::jsonb, %s::jsonb)"
                            % (lit(self.state), "NULL" if mv is None else lit(json.dumps(mv))))[0]
        ns, control, term, goal, legal = row.split("|", 4)
        self.state = ns
        return control, term == "t", (json.loads(goal) if goal else None), [int(c) for c in legal.split()]

    def drop(self, role, column):
        """Applies role's drop in column (next() takes the bare action of the role in control)."""
        return self._apply(["drop", column])


class Engine:
    def __init__(self, args, time_limit_ms, method, name):
        self.db = Psql(args, SETUP_SQL)
        self.tl = time_limit_ms
        self.method = method
        self.name = name
        self.times = []
        self.slow = []   # (ms, state) of the slowest calls
        # warm-up, not counted: the first search of a backend loads the
        # library and allocates the transposition table
        self.db.query("SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '10 ms')")

    def move(self, state, role, legal):
        row = self.db.query("SELECT m, ms FROM pg_temp.gt_think(%s::jsonb, %s::interval, %s)"
                            % (lit(state), lit("%g ms" % self.tl), lit(self.method)))[0]
        m, ms = row.split("|")
        self.times.append(float(ms))
        self.slow.append((float(ms), state))
        self.slow = sorted(self.slow, key=lambda x: -x[0])[:3]
        joint = json.loads(m)
        acts = [d for d in joint if isinstance(d[2], list)]
        if len(acts) != 1 or acts[0][1] != role or acts[0][2][0] != "drop":
            raise SqlError("odd bestmove %s for %s" % (m, role))
        return acts[0][2][1]


class RandomPlayer:
    name = "random"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def move(self, state, role, legal):
        return self.rng.choice(legal)


def play(ref, players, opening, anomalies):
    """players: {'red': p, 'black': p}. Returns (goal, plies, moves)."""
    control, term, goal, legal = ref.start()
    moves = []
    queue = list(opening)
    while not term:
        role = control
        if queue:
            col = queue.pop(0)
        else:
            col = players[role].move(ref.state, role, legal)
        if col not in legal:
            anomalies.append("%s (%s) played column %s, not in legal %s after %s"
                             % (role, getattr(players[role], "name", "?"), col, legal, moves))
            print("  ANOMALY: " + anomalies[-1], flush=True)
        control, term, goal, legal = ref.drop(role, col)
        moves.append(col)
    return goal, len(moves), moves


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--movetime-ms", type=float, default=100, help="time limit T of the stronger side")
    ap.add_argument("--ratio", type=float, default=10, help="the weaker side gets T/ratio")
    ap.add_argument("--method", default="auto")
    ap.add_argument("--openings", type=int, default=49, help="how many of the 49 two-ply openings (evenly spread)")
    ap.add_argument("--random-games", type=int, default=40, help="games against the random player")
    ap.add_argument("--seed", type=int, default=1)
    gtpsql.add_arguments(ap)
    args = ap.parse_args()

    all_openings = [(a, b) for a in range(1, 8) for b in range(1, 8)]
    n = max(1, min(args.openings, 49))
    openings = [all_openings[(i * 49) // n] for i in range(n)]
    t_short = args.movetime_ms / args.ratio

    ref = Referee(args)
    strong = Engine(args, args.movetime_ms, args.method, "T=%g ms" % args.movetime_ms)
    weak = Engine(args, t_short, args.method, "T=%g ms" % t_short)
    anomalies = []
    t_start = time.time()

    print("# connect four: gametree bestmove(method => '%s')" % args.method)
    print("started %s, load average %s" % (time.strftime("%Y-%m-%d %H:%M:%S"),
                                           " ".join(open("/proc/loadavg").read().split()[:3])))
    print()
    print("## (a) time_limit %g ms against %g ms, %d openings × 2 colours" % (args.movetime_ms, t_short, len(openings)))
    a_res = []   # (opening, strong colour, strong score, plies)
    for (c1, c2) in openings:
        for strong_colour in ("red", "black"):
            weak_colour = "black" if strong_colour == "red" else "red"
            goal, plies, moves = play(ref, {strong_colour: strong, weak_colour: weak}, [c1, c2], anomalies)
            sc = goal[strong_colour] / 100.0
            a_res.append(((c1, c2), strong_colour, sc, plies))
            print("opening %d,%d  %g ms as %-5s  %s  plies %2d  moves %s"
                  % (c1, c2, args.movetime_ms, strong_colour, {1.0: "W", 0.5: "D", 0.0: "L"}.get(sc, str(sc)),
                     plies, "".join(map(str, moves))), flush=True)
    w = sum(1 for r in a_res if r[2] == 1)
    d = sum(1 for r in a_res if r[2] == 0.5)
    l = sum(1 for r in a_res if r[2] == 0)
    a_score = (w + 0.5 * d) / len(a_res)
    # pairs: per opening, the score over both colours
    pairs = {}
    for o, col, sc, _ in a_res:
        pairs.setdefault(o, []).append(sc)
    pair_w = sum(1 for v in pairs.values() if sum(v) > 1)
    pair_d = sum(1 for v in pairs.values() if sum(v) == 1)
    pair_l = sum(1 for v in pairs.values() if sum(v) < 1)
    print()

    print("## (b) time_limit %g ms against a uniformly random player, %d games" % (args.movetime_ms, args.random_games))
    rnd = RandomPlayer(args.seed)
    b_res = []
    strong_times_a = list(strong.times)
    for i in range(args.random_games):
        gt_colour = "red" if i % 2 == 0 else "black"
        other = "black" if gt_colour == "red" else "red"
        goal, plies, moves = play(ref, {gt_colour: strong, other: rnd}, [], anomalies)
        sc = goal[gt_colour] / 100.0
        b_res.append((gt_colour, sc, plies))
        print("game %2d  gametree as %-5s  %s  plies %2d  moves %s"
              % (i + 1, gt_colour, {1.0: "W", 0.5: "D", 0.0: "L"}.get(sc, str(sc)), plies, "".join(map(str, moves))),
              flush=True)
    bw = sum(1 for r in b_res if r[1] == 1)
    bd = sum(1 for r in b_res if r[1] == 0.5)
    bl = sum(1 for r in b_res if r[1] == 0)
    b_score = (bw + 0.5 * bd) / len(b_res) if b_res else float("nan")
    strong_times_b = strong.times[len(strong_times_a):]
    print()

    print("## Summary")
    print()
    print("| match | games | W | D | L | score | bestmove median ms (limit) | p90 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("| (a) %g ms vs %g ms | %d | %d | %d | %d | %.1f%% | %.1f (%g) vs %.1f (%g) | %.1f vs %.1f | %.1f vs %.1f |"
          % (args.movetime_ms, t_short, len(a_res), w, d, l, 100 * a_score,
             median(strong_times_a), args.movetime_ms, median(weak.times), t_short,
             pct(strong_times_a, 0.9), pct(weak.times, 0.9), max(strong_times_a), max(weak.times)))
    print("| (b) %g ms vs random | %d | %d | %d | %d | %.1f%% | %.1f (%g) | %.1f | %.1f |"
          % (args.movetime_ms, len(b_res), bw, bd, bl, 100 * b_score, median(strong_times_b), args.movetime_ms,
             pct(strong_times_b, 0.9), max(strong_times_b) if strong_times_b else float("nan")))
    print()
    print("(a) by colour of the %g ms side: as red %s, as black %s; by opening pair (both colours): "
          "%d won, %d even, %d lost; mean plies %.1f."
          % (args.movetime_ms,
             "%.1f%%" % (100 * statistics.mean([r[2] for r in a_res if r[1] == "red"])),
             "%.1f%%" % (100 * statistics.mean([r[2] for r in a_res if r[1] == "black"])),
             pair_w, pair_d, pair_l, statistics.mean([r[3] for r in a_res])))
    if b_res:
        print("(b) %s; mean plies %.1f." % ("100% as required" if b_score == 1 else "NOT 100%: FAILED",
                                          statistics.mean([r[2] for r in b_res])))
    for e in (strong, weak):
        print("slowest bestmove calls at %s: %s" % (e.name, "; ".join("%.1f ms in %s" % x for x in e.slow)))
        print("calls over 1.5 x limit at %s: %d of %d" % (e.name, sum(1 for t in e.times if t > 1.5 * e.tl), len(e.times)))
    print("anomalies (illegal moves, odd bestmove results): %d" % len(anomalies))
    for a in anomalies:
        print("  - " + a)
    print("finished %s, %.1f min, load average %s" % (time.strftime("%Y-%m-%d %H:%M:%S"), (time.time() - t_start) / 60,
                                                      " ".join(open("/proc/loadavg").read().split()[:3])))
    for p in (ref.db, strong.db, weak.db):
        p.close()
    if b_res and b_score != 1:
        sys.exit(1)


if __name__ == "__main__":
    main()
