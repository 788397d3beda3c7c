#!/usr/bin/env python3
"""bench/chess_match.py: gametree's chess search against Stockfish.

gametree plays with gametree.bestmove('chess', state, time_limit, NULL,
method) (100 ms per move by default, method 'auto'); Stockfish (Debian's
/usr/games/stockfish, Threads 1, Hash 16) plays at a given `Skill Level`
with `go movetime`.  For each level, game i opens with the line
OPENINGS[(i // 2) % 20] and gametree is white in even games, black in odd
ones, so the default 40 games play every opening once with each colour.

The game is run by gametree's rules: a game ends when gametree.terminal()
says so (checkmate, stalemate, the fifty-move rule, dead positions) and is
scored by gametree.goal().  It is also adjudicated a draw at the move cap
(--max-plies, 200 plies in all, opening included) and, unless
--no-repetition, at a threefold repetition of a position (board, side to
move, castling, en passant square; gametree's states do not know the
history, so it does not see repetitions itself).

Checks, every ply: gametree's move is one of gametree.legal(); Stockfish's
move is one of gametree.legal() and gametree.next() accepts it as UCI; the
set of legal moves gametree gives equals Stockfish's `go perft 1` (so both
programs agree on every position of every game); a terminal state is one
where Stockfish agrees (no legal move for mate/stalemate).  Any
disagreement is printed as an ANOMALY and kept in the game log.

Time: every bestmove call is timed inside the server (clock_timestamp()
around the call, in a temporary PL/pgSQL function) and by the client (the
round trip through one long-lived psql process, state sent as a literal).
The summary gives the median and 90th percentile of the server time.

Finished games are appended to a JSON-lines log (--log); a rerun with the
same settings skips the games already there (resumable).

    python3 bench/chess_match.py --levels 0,3,6 --games 40 --movetime-ms 100
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

import gtpsql
from gtpsql import Psql, SqlError, lit

# 20 short opening lines (UCI, from the standard start position).
OPENINGS = [
    ("Open game", "e2e4 e7e5 g1f3 b8c6"),
    ("Sicilian", "e2e4 c7c5"),
    ("French", "e2e4 e7e6"),
    ("Caro-Kann", "e2e4 c7c6"),
    ("Scandinavian", "e2e4 d7d5"),
    ("Alekhine", "e2e4 g8f6"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6"),
    ("Queen's Gambit", "d2d4 d7d5 c2c4"),
    ("Nimzo/QID", "d2d4 g8f6 c2c4 e7e6"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6"),
    ("Dutch", "d2d4 f7f5"),
    ("English", "c2c4 e7e5"),
    ("Symmetrical English", "c2c4 c7c5"),
    ("Reti", "g1f3 d7d5"),
    ("King's Gambit", "e2e4 e7e5 f2f4"),
    ("Petrov", "e2e4 e7e5 g1f3 g8f6"),
    ("London", "d2d4 d7d5 c1f4"),
    ("Larsen", "b2b3 e7e5"),
    ("Two Knights", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"),
    ("Benko", "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5"),
]

PERFT_RE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): \d+$")


SETUP_SQL = gtpsql.think_function('chess') + r"""
CREATE OR REPLACE FUNCTION pg_temp.gt_after(s jsonb, mv jsonb,
  OUT ns jsonb, OUT fen text, OUT term boolean, OUT goal jsonb, OUT legal text)
LANGUAGE plpgsql AS $$
BEGIN
  ns := gametree.next('chess', s, mv);
  fen := gametree.to_fen('chess', ns);
  term := gametree.terminal('chess', ns);
  IF term THEN
    goal := gametree.goal('chess', ns);
  END IF;
  SELECT coalesce(string_agg(d->2->>1 || (d->2->>2) || coalesce(d->2->>3, ''), ' '), '')
    INTO legal
    FROM gametree.legal('chess', ns) l, jsonb_array_elements(l) d
   WHERE jsonb_typeof(d->2) = 'array';
END $$
"""


class Gametree:
    def __init__(self, args):
        self.db = Psql(args, SETUP_SQL)
        # warm-up, not counted: the first search of a backend loads the
        # library and allocates the transposition table
        self.db.query("SELECT gametree.bestmove('chess', gametree.initial('chess'), '10 ms')")
        self.state = None

    def start(self):
        init = self.db.query("SELECT gametree.initial('chess')")[0]
        self.state = init
        fen = self.db.query("SELECT gametree.to_fen('chess', %s::jsonb)" % lit(init))[0]
        legal = self.db.query(
            "SELECT string_agg(d->2->>1 || (d->2->>2) || coalesce(d->2->>3, ''), ' ') "
            "FROM gametree.legal('chess', %s::jsonb) l, jsonb_array_elements(l) d "
            "WHERE jsonb_typeof(d->2) = 'array'" % lit(init))[0]
        return fen, legal.split()

    def _after_row(self, row):
        ns, fen, term, goal, legal = row.split("|", 4)
        self.state = ns
        return fen, term == "t", (json.loads(goal) if goal else None), legal.split()

    def play_uci(self, uci):
        """Apply a UCI move (as gametree.next's UCI string)."""
        rows = self.db.query("SELECT ns, fen, term, goal, legal FROM pg_temp.gt_after(%s::jsonb, %s::jsonb)"
                             % (lit(self.state), lit(json.dumps(uci))))
        return self._after_row(rows[0])

    def think_and_play(self, time_limit_ms, method):
        t0 = time.perf_counter()
        rows = self.db.query(
            "SELECT t.m, t.ms, a.ns, a.fen, a.term, a.goal, a.legal "
            "FROM pg_temp.gt_think(%s::jsonb, %s::interval, %s) t, "
            "LATERAL pg_temp.gt_after(%s::jsonb, t.m) a"
            % (lit(self.state), lit("%g ms" % time_limit_ms), lit(method), lit(self.state)))
        client_ms = 1000 * (time.perf_counter() - t0)
        m, ms, rest = rows[0].split("|", 2)
        return (json.loads(m), float(ms), client_ms) + self._after_row(rest)


def joint_to_uci(joint):
    for d in joint:
        if isinstance(d, list) and len(d) == 3 and isinstance(d[2], list) and d[2][0] == "move":
            a = d[2]
            return a[1] + a[2] + (a[3] if len(a) > 3 else "")
    raise ValueError("no move in %r" % (joint,))


class Stockfish:
    def __init__(self, path, threads=1, hash_mb=16):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.send("uci")
        lines = self.read_until("uciok")
        self.name = next((l[8:] for l in lines if l.startswith("id name ")), "stockfish")
        self.send("setoption name Threads value %d" % threads)
        self.send("setoption name Hash value %d" % hash_mb)
        self.ready()

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited: " + " | ".join(lines[-5:]))
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.read_until("readyok")

    def set_skill(self, level):
        self.send("setoption name Skill Level value %d" % level)
        self.ready()

    def new_game(self):
        self.send("ucinewgame")
        self.ready()

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal(self, moves):
        self.position(moves)
        self.send("go perft 1")
        lines = self.read_until("Nodes searched")
        return [m.group(1) for m in map(PERFT_RE.match, lines) if m]

    def bestmove(self, moves, movetime_ms):
        self.position(moves)
        self.send("go movetime %d" % movetime_ms)
        lines = self.read_until("bestmove")
        return lines[-1].split()[1]

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def play_game(gt, sf, args, level, index):
    name, line = OPENINGS[(index // 2) % len(OPENINGS)]
    opening = line.split()
    gt_colour = "white" if index % 2 == 0 else "black"
    anomalies = []
    moves = []
    gt_ms, gt_client_ms = [], []
    seen = {}
    sf.new_game()
    fen, legal = gt.start()

    def note(msg):
        anomalies.append("ply %d: %s" % (len(moves) + 1, msg))
        print("  ANOMALY level %d game %d: %s" % (level, index + 1, anomalies[-1]), flush=True)

    def check_position(fen, legal, term, goal):
        """gametree's legal moves vs Stockfish's perft 1; terminal vs no moves."""
        if not args.check_legal and not term:
            return None
        sf_legal = sf.legal(moves)
        if term:
            if goal and goal.get("white") != goal.get("black"):
                if sf_legal:
                    note("gametree says checkmate (%s) but Stockfish has moves %s in %s" % (goal, sf_legal[:5], fen))
                return "checkmate"
            if not sf_legal:
                return "stalemate"
            if int(fen.split()[4]) >= 100:
                return "fifty-move rule"
            return "dead position"
        if sorted(sf_legal) != sorted(legal):
            note("legal moves differ in %s: only gametree %s, only Stockfish %s"
                 % (fen, sorted(set(legal) - set(sf_legal)), sorted(set(sf_legal) - set(legal))))
        return None

    result = None   # gametree's score 1 / 0.5 / 0, or None on error
    reason = None
    term, goal = False, None
    ply_list = list(opening)
    try:
        while True:
            # adjudications by the runner
            key = " ".join(fen.split()[:4])
            seen[key] = seen.get(key, 0) + 1
            if term:
                reason = check_position(fen, legal, True, goal)
                result = goal[gt_colour] / 100.0
                break
            check_position(fen, legal, False, None)
            if args.repetition and seen[key] >= 3:
                result, reason = 0.5, "threefold repetition (adjudicated)"
                break
            if len(moves) >= args.max_plies:
                result, reason = 0.5, "move cap %d plies (adjudicated)" % args.max_plies
                break
            to_move = fen.split()[1]
            colour = "white" if to_move == "w" else "black"
            if ply_list:
                uci = ply_list.pop(0)
                if uci not in legal:
                    note("opening move %s not in gametree.legal() of %s" % (uci, fen))
                fen, term, goal, legal_next = gt.play_uci(uci)
                moves.append(uci)
                legal = legal_next
            elif colour == gt_colour:
                try:
                    joint, ms, cms, fen2, term, goal, legal_next = gt.think_and_play(args.movetime_ms, args.method)
                except SqlError as e:
                    note("bestmove/next failed in %s: %s" % (fen, e))
                    result, reason = None, "error: gametree bestmove failed"
                    break
                uci = joint_to_uci(joint)
                if uci not in legal:
                    note("bestmove %s (%s) not in gametree.legal() of %s" % (uci, json.dumps(joint), fen))
                gt_ms.append(ms)
                gt_client_ms.append(cms)
                moves.append(uci)
                fen, legal = fen2, legal_next
            else:
                uci = sf.bestmove(moves, args.sf_movetime_ms)
                if uci in ("(none)", "0000"):
                    note("Stockfish has no move in %s, gametree says not terminal" % fen)
                    result, reason = None, "error: Stockfish has no move"
                    break
                if uci not in legal:
                    note("Stockfish's move %s is not in gametree.legal() of %s" % (uci, fen))
                try:
                    fen, term, goal, legal_next = gt.play_uci(uci)
                except SqlError as e:
                    note("gametree.next rejects Stockfish's move %s in %s: %s" % (uci, fen, e))
                    result, reason = None, "error: Stockfish move rejected"
                    break
                moves.append(uci)
                legal = legal_next
    except SqlError as e:
        note("SQL error: %s" % e)
        result, reason = None, "error: %s" % e
    return {
        "level": level, "index": index, "opening": name, "gt_colour": gt_colour,
        "movetime_ms": args.movetime_ms, "sf_movetime_ms": args.sf_movetime_ms, "method": args.method,
        "max_plies": args.max_plies, "repetition": args.repetition,
        "result": result, "reason": reason, "plies": len(moves), "final_fen": fen,
        "moves": " ".join(moves), "gt_ms": [round(x, 2) for x in gt_ms],
        "gt_client_ms": [round(x, 2) for x in gt_client_ms], "anomalies": anomalies,
    }


def config_key(rec):
    return (rec["level"], rec["index"], rec["movetime_ms"], rec["sf_movetime_ms"], rec["method"],
            rec["max_plies"], rec["repetition"])


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def elo(score):
    if score <= 0:
        return "-inf"
    if score >= 1:
        return "+inf"
    return "%+.0f" % (-400 * math.log10(1 / score - 1) + 0.0)


def result_str(rec):
    r = rec["result"]
    if r is None:
        return "error"
    gw = rec["gt_colour"] == "white"
    if r == 0.5:
        return "1/2-1/2"
    return "1-0" if (r == 1) == gw else "0-1"


def summarise(level, recs, limit_ms):
    done = [r for r in recs if r["result"] is not None]
    w = sum(1 for r in done if r["result"] == 1)
    d = sum(1 for r in done if r["result"] == 0.5)
    l = sum(1 for r in done if r["result"] == 0)
    n = len(done)
    score = (w + 0.5 * d) / n if n else float("nan")
    ms = [x for r in recs for x in r["gt_ms"]]
    cms = [x for r in recs for x in r["gt_client_ms"]]
    over = sum(1 for x in ms if x > limit_ms * 1.2)
    reasons = {}
    for r in recs:
        k = (r["reason"] or "").split(" (")[0]
        reasons[k] = reasons.get(k, 0) + 1
    return {
        "level": level, "games": len(recs), "errors": len(recs) - n, "w": w, "d": d, "l": l,
        "score": score, "elo": elo(score) if n else "n/a", "calls": len(ms),
        "median": statistics.median(ms) if ms else float("nan"), "p90": pct(ms, 0.9),
        "max": max(ms) if ms else float("nan"), "over": over,
        "cmedian": statistics.median(cms) if cms else float("nan"),
        "anomalies": sum(len(r["anomalies"]) for r in recs),
        "plies": statistics.mean([r["plies"] for r in recs]) if recs else 0, "reasons": reasons,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="0,3,6", help="Stockfish Skill Levels, comma separated")
    ap.add_argument("--games", type=int, default=40, help="games per level (alternating colours)")
    ap.add_argument("--movetime-ms", type=float, default=100, help="gametree's time_limit per move")
    ap.add_argument("--sf-movetime-ms", type=int, default=None, help="Stockfish go movetime (default: --movetime-ms)")
    ap.add_argument("--method", default="auto", help="bestmove method (auto, alphabeta, mcts)")
    ap.add_argument("--max-plies", type=int, default=200, help="draw after this many plies")
    ap.add_argument("--no-repetition", dest="repetition", action="store_false",
                    help="do not adjudicate threefold repetition as a draw")
    ap.add_argument("--no-check-legal", dest="check_legal", action="store_false",
                    help="skip comparing legal-move sets with Stockfish's perft 1 every ply")
    ap.add_argument("--log", default="/tmp/gametree_chess_games.jsonl",
                    help="JSON-lines log of finished games (moves, times, anomalies), used to resume; "
                         "'' for none")
    ap.add_argument("--fresh", action="store_true", help="ignore (and overwrite) the log")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    gtpsql.add_arguments(ap)
    args = ap.parse_args()
    if args.sf_movetime_ms is None:
        args.sf_movetime_ms = int(round(args.movetime_ms))
    levels = [int(x) for x in args.levels.split(",") if x.strip()]

    if not os.path.exists(args.stockfish):
        sys.exit("%s is missing: apt-get install -y stockfish" % args.stockfish)

    done = {}
    if args.log:
        os.makedirs(os.path.dirname(os.path.abspath(args.log)), exist_ok=True)
        if args.fresh and os.path.exists(args.log):
            os.remove(args.log)
        if os.path.exists(args.log):
            with open(args.log) as f:
                for line in f:
                    line = line.strip()
                    if line:
                        rec = json.loads(line)
                        done[config_key(rec)] = rec

    sf = Stockfish(args.stockfish)
    gt = Gametree(args)
    print("# gametree vs %s" % sf.name)
    print("gametree: bestmove('chess', state, time_limit => '%g ms', max_depth => NULL, method => '%s'), "
          "one psql backend (db %s)" % (args.movetime_ms, args.method, args.db))
    print("Stockfish: Threads 1, Hash 16, go movetime %d, Skill Level %s" % (args.sf_movetime_ms, args.levels))
    print("games per level: %d (opening i//2 of %d, gametree white in even games); draw at %d plies%s"
          % (args.games, len(OPENINGS), args.max_plies,
             ", threefold repetition adjudicated a draw" if args.repetition else ""))
    print("started %s, load average %s" % (time.strftime("%Y-%m-%d %H:%M:%S"),
                                           " ".join(open("/proc/loadavg").read().split()[:3])))
    print(flush=True)

    summaries = []
    t_start = time.time()
    for level in levels:
        sf.set_skill(level)
        recs = []
        print("## Skill Level %d" % level, flush=True)
        for i in range(args.games):
            probe = {"level": level, "index": i, "movetime_ms": args.movetime_ms,
                     "sf_movetime_ms": args.sf_movetime_ms, "method": args.method,
                     "max_plies": args.max_plies, "repetition": args.repetition}
            key = config_key(probe)
            resumed = key in done
            t0 = time.time()
            if resumed:
                rec = done[key]
            else:
                rec = play_game(gt, sf, args, level, i)
                if args.log:
                    with open(args.log, "a") as f:
                        f.write(json.dumps(rec) + "\n")
            recs.append(rec)
            med = statistics.median(rec["gt_ms"]) if rec["gt_ms"] else float("nan")
            print("level %d game %2d/%d  %-20s gametree %-5s  %-7s %-3s  %-36s plies %3d  bestmove median %.1f ms%s%s"
                  % (level, i + 1, args.games, rec["opening"], rec["gt_colour"], result_str(rec),
                     {1: "W", 0.5: "D", 0: "L", None: "?"}[rec["result"]], rec["reason"], rec["plies"], med,
                     "  (%.0f s)" % (time.time() - t0) if not resumed else "  (from log)",
                     "  %d ANOMALIES" % len(rec["anomalies"]) if rec["anomalies"] else ""), flush=True)
        s = summarise(level, recs, args.movetime_ms)
        summaries.append(s)
        print("level %d: +%d =%d -%d, score %.1f%%, bestmove median %.1f ms (p90 %.1f, max %.1f) over %d calls"
              % (level, s["w"], s["d"], s["l"], 100 * s["score"], s["median"], s["p90"], s["max"], s["calls"]))
        print("  endings: %s" % ", ".join("%s %d" % kv for kv in sorted(s["reasons"].items())))
        print(flush=True)

    gt.db.close()
    sf.close()

    print("## Summary (gametree's score; time_limit %g ms, Stockfish movetime %d ms)"
          % (args.movetime_ms, args.sf_movetime_ms))
    print()
    print("| Skill Level | games | W | D | L | score | Elo diff | bestmove median ms | p90 ms | max ms "
          "| calls > 1.2×limit | client median ms | mean plies | anomalies |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for s in summaries:
        print("| %d | %d%s | %d | %d | %d | %.1f%% | %s | %.1f | %.1f | %.1f | %d / %d | %.1f | %.0f | %d |"
              % (s["level"], s["games"], " (%d errors)" % s["errors"] if s["errors"] else "",
                 s["w"], s["d"], s["l"], 100 * s["score"], s["elo"], s["median"], s["p90"], s["max"],
                 s["over"], s["calls"], s["cmedian"], s["plies"], s["anomalies"]))
    print()
    print("Elo diff: -400·log10(1/score − 1), gametree relative to Stockfish at that level and movetime.")
    print("bestmove ms: time inside the server around the bestmove call (clock_timestamp); client median: "
          "round trip of the whole ply query (bestmove + next + terminal + legal) through psql.")
    print("finished %s, %.1f min, load average %s" % (time.strftime("%Y-%m-%d %H:%M:%S"),
                                                      (time.time() - t_start) / 60,
                                                      " ".join(open("/proc/loadavg").read().split()[:3])))


if __name__ == "__main__":
    main()
