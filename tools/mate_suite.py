#!/usr/bin/env python3
"""tools/mate_suite.py: regenerates test/data/chess_mates.tsv and
test/data/chess_avoid_mate.tsv (run through tools/mate_suite.sh).

Positions come from semi-random games played here with a fixed seed: each
ply is a random legal move or one of Stockfish's three best moves at a
shallow depth.  Every position of a game is screened by that same shallow
search; those where the side to move mates in 1, 2 or 3 are kept as
candidates, and so is the position before each mate in 1 (the move played
there allowed it), for the "does not play into a mate in 1" data.

Each candidate is then verified by a fresh engine at a larger depth (the
score must be exactly the same mate) and by exhaustive enumeration of legal
moves, with Stockfish used only for move generation (`go perft 1`), for
"is in check" (`d`, Checkers:) and as an oracle for which move to try:

  mate in 1: the mating moves are all legal moves after which the opponent
             is in check with no legal move; Stockfish's bestmove is one.
  mate in 2: no mate in 1, and after Stockfish's bestmove every reply allows
             a mate in 1.
  mate in 3: no mate in 1, no mate in 2 (every first move has a reply that
             allows no mate in 1), and after Stockfish's bestmove every reply
             leaves a mate in 1 or a mate in 2 proved as above.

No chess rules are implemented here.  Every search is limited by depth (not
time) on one thread after `ucinewgame`, so a run is reproducible.
"""

import argparse
import multiprocessing
import os
import random
import re
import subprocess
import sys
import time

STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
MOVE_RE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): \d+$")

# A handful of varied openings (UCI moves from the standard start).
OPENINGS = [
    "",                                                   # start position
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",                      # Ruy Lopez
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3",       # Sicilian
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",                      # Queen's Gambit Declined
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",            # King's Indian
    "e2e4 e7e6 d2d4 d7d5",                                # French
    "c2c4 e7e5",                                          # English
    "e2e4 c7c6 d2d4 d7d5",                                # Caro-Kann
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",                      # Italian
    "d2d4 f7f5",                                          # Dutch
]

SCREEN_DEPTH = 10     # shallow search at every position of a game
VERIFY_DEPTH = 25     # fresh search that must give exactly the same mate
AVOID_DEPTH = 20      # evaluation of an avoid-mate position
MAX_PLIES = 180       # a game stops here ...
MAX_HALFMOVE = 40     # ... or when its halfmove clock reaches this


class Engine:
    def __init__(self, hash_mb=64):
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.banner = self.p.stdout.readline().strip()
        self.send("uci")
        self.read_until("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value %d" % hash_mb)
        self.multipv = 1
        self.new_game()

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def read_until(self, prefix):
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.read_until("readyok")

    def position(self, fen, moves=()):
        self.send("position fen %s%s" % (fen, (" moves " + " ".join(moves)) if moves else ""))

    def legal(self, fen, moves=()):
        self.position(fen, moves)
        self.send("go perft 1")
        lines = self.read_until("Nodes searched")
        return [m.group(1) for m in map(MOVE_RE.match, lines) if m]

    def board(self, fen, moves=()):
        """(fen, in_check) of the position after moves."""
        self.position(fen, moves)
        self.send("d")
        new_fen = None
        for line in self.read_until("Checkers:"):
            if line.startswith("Fen: "):
                new_fen = line[5:].strip()
        return new_fen, line[len("Checkers:"):].strip() != ""

    def is_mate(self, fen, moves):
        _, check = self.board(fen, moves)
        return check and not self.legal(fen, moves)

    def search(self, fen, moves=(), go="depth 10", multipv=1, fresh=False):
        """{multipv index: (kind, value, pv)} at the last full depth, and bestmove."""
        if fresh:
            self.new_game()
        if multipv != self.multipv:
            self.send("setoption name MultiPV value %d" % multipv)
            self.multipv = multipv
        self.position(fen, moves)
        self.send("go " + go)
        lines = self.read_until("bestmove")
        best = lines[-1].split()[1]
        lines_by_depth = {}
        for line in lines:
            t = line.split()
            if not t or t[0] != "info" or "score" not in t or "pv" not in t:
                continue
            if "lowerbound" in t or "upperbound" in t:
                continue
            depth = int(t[t.index("depth") + 1])
            k = int(t[t.index("multipv") + 1]) if "multipv" in t else 1
            s = t.index("score")
            lines_by_depth.setdefault(depth, {})[k] = (t[s + 1], int(t[s + 2]), t[t.index("pv") + 1:])
        if not lines_by_depth:
            return {}, best
        top = max(lines_by_depth)
        result = dict(lines_by_depth[top])
        # A line missing at the last depth (rare) is taken from an earlier one.
        for d in sorted(lines_by_depth, reverse=True):
            for k, v in lines_by_depth[d].items():
                result.setdefault(k, v)
        return result, best

    def close(self):
        self.send("quit")
        self.p.stdin.flush()
        self.p.wait()


# ---------------------------------------------------------------- exact checks

def mating_moves(e, fen, moves=()):
    """All moves after which the opponent is checkmated."""
    moves = list(moves)
    return [m for m in e.legal(fen, moves) if e.is_mate(fen, moves + [m])]


def winning_moves(e, fen, n, mating):
    """The first moves that mate in n moves or fewer: mating ones, and those a
    fresh depth-12 search restricted to them (searchmoves) scores as mate in n
    or fewer (searched from the position itself, where Stockfish finds the
    shortest mate; a search after the move may report a longer one)."""
    winning = list(mating)
    for m in e.legal(fen):
        if m in mating:
            continue
        lines, _ = e.search(fen, go="depth 12 searchmoves " + m, fresh=True)
        kind, value, _ = lines.get(1, (None, 0, None))
        if kind == "mate" and 0 < value <= n:
            winning.append(m)
    return winning


def has_mate_in_1(e, fen, moves=()):
    moves = list(moves)
    return any(e.is_mate(fen, moves + [m]) for m in e.legal(fen, moves))


def mates_in_2_by(e, fen, m1, moves=()):
    """After moves, m1 mates in 2 at most: every reply allows a mate in 1 (no reply: m1 mates)."""
    line = list(moves) + [m1]
    replies = e.legal(fen, line)
    if not replies:
        return e.board(fen, line)[1]
    return all(has_mate_in_1(e, fen, line + [r]) for r in replies)


def has_mate_in_2_or_less(e, fen, moves=()):
    return any(mates_in_2_by(e, fen, m, moves) for m in e.legal(fen, moves))


def proves_mate_in_2_or_less(e, fen, moves):
    """The side to move after moves mates in 1 or 2 (Stockfish's move tried first)."""
    if has_mate_in_1(e, fen, moves):
        return True
    _, best = e.search(fen, moves, go="depth 12", fresh=True)
    if best != "(none)" and mates_in_2_by(e, fen, best, moves):
        return True
    return any(mates_in_2_by(e, fen, m, moves) for m in e.legal(fen, moves) if m != best)


# ---------------------------------------------------------------- games

def play_game(index, seed):
    """Plays one semi-random game; returns its candidates."""
    rng = random.Random(seed * 1000003 + index)
    e = Engine(hash_mb=16)
    opening = OPENINGS[index % len(OPENINGS)].split()
    p_random = rng.choice([0.15, 0.25, 0.35])
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    fen, _ = e.board(start, opening)
    mates, prev = [], None   # prev: (fen, move played) of the last position
    candidates = []
    for ply in range(MAX_PLIES):
        legal = e.legal(fen)
        if not legal or int(fen.split()[4]) >= MAX_HALFMOVE:
            break
        lines, _ = e.search(fen, go="depth %d" % SCREEN_DEPTH, multipv=3)
        kind, value, _ = lines.get(1, ("cp", 0, []))
        if kind == "mate" and 1 <= value <= 3:
            candidates.append(("mate", fen, value, index, ply))
            if value == 1 and prev is not None:
                candidates.append(("avoid", prev[0], prev[1], index, ply - 1))
        if rng.random() < p_random:
            move = rng.choice(sorted(legal))
        else:
            options = [lines[k][2][0] for k in sorted(lines) if lines[k][2]]
            weights = [0.6, 0.25, 0.15][:len(options)]
            move = rng.choices(options, weights)[0]
        prev = (fen, move)
        fen, _ = e.board(fen, [move])
    e.close()
    return candidates


# ---------------------------------------------------------------- verification

def verify(candidate):
    """Returns a row (dict) or None with the reason on stderr."""
    e = Engine(hash_mb=64)
    try:
        return _verify(e, candidate)
    finally:
        e.close()


def _verify(e, cand):
    what, fen, n, game, ply = cand
    if int(fen.split()[4]) >= 50:
        return reject(cand, "halfmove clock")
    if what == "avoid":
        legal = e.legal(fen)
        if len(legal) < 2:
            return reject(cand, "%d legal moves" % len(legal))
        blunders = [m for m in legal if has_mate_in_1(e, fen, [m])]
        if not blunders or len(blunders) == len(legal):
            return reject(cand, "%d blunders of %d moves" % (len(blunders), len(legal)))
        lines, best = e.search(fen, go="depth %d" % AVOID_DEPTH, fresh=True)
        kind, value, _ = lines[1]
        if kind == "mate" and value <= 0:
            return reject(cand, "depth %d gives mate %d" % (AVOID_DEPTH, value))
        if best in blunders:
            return reject(cand, "bestmove %s is a blunder" % best)
        return dict(what=what, fen=fen, blunders=blunders, safe=len(legal) - len(blunders),
                    score="%s %d" % (kind, value), game=game, ply=ply)

    lines, best = e.search(fen, go="depth %d" % VERIFY_DEPTH, fresh=True)
    if lines.get(1, (None, None))[:2] != ("mate", n):
        return reject(cand, "depth %d gives %s" % (VERIFY_DEPTH, lines.get(1)))
    mating = mating_moves(e, fen)
    if n == 1:
        if best not in mating:
            return reject(cand, "bestmove %s does not mate" % best)
    else:
        if mating:
            return reject(cand, "has a mate in 1")
        if n == 2:
            if not mates_in_2_by(e, fen, best):
                return reject(cand, "bestmove %s not proved to mate in 2" % best)
        else:
            if has_mate_in_2_or_less(e, fen):
                return reject(cand, "has a mate in 2")
            replies = e.legal(fen, [best])
            if not replies or not all(proves_mate_in_2_or_less(e, fen, [best, r]) for r in replies):
                return reject(cand, "bestmove %s not proved to mate in 3" % best)
    winning = winning_moves(e, fen, n, mating)
    if best not in winning:
        return reject(cand, "bestmove %s is not among the winning moves %s" % (best, winning))
    return dict(what=what, fen=fen, n=n, best=best, mating=mating, winning=winning, game=game, ply=ply)


def reject(cand, why):
    print("rejected %s %s (%s, game %d ply %d): %s" % (cand[0], cand[1], cand[2], cand[3], cand[4], why),
          file=sys.stderr)
    return None


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "data"))
    ap.add_argument("--cap", default="40,30,20,12", help="rows kept: mate in 1, 2, 3, avoid")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    caps = dict(zip([1, 2, 3, "avoid"], map(int, args.cap.split(","))))
    t0 = time.time()

    with multiprocessing.Pool(args.jobs) as pool:
        per_game = pool.starmap(play_game, [(i, args.seed) for i in range(args.games)], chunksize=1)
        print("played %d games in %.0fs" % (args.games, time.time() - t0), file=sys.stderr)

        # One candidate per piece placement; per category the first of each
        # game comes first (diversity), then the others, in game order.
        seen, ordered = set(), {1: [], 2: [], 3: [], "avoid": []}
        for rnd in (0, 1):
            for cands in per_game:
                used = set()
                for c in cands:
                    key = c[2] if c[0] == "mate" else "avoid"
                    first = key not in used
                    used.add(key)
                    if first != (rnd == 0):
                        continue
                    placement = (c[0], c[1].split()[0])
                    if placement in seen:
                        continue
                    seen.add(placement)
                    ordered[key].append(c)
        print("candidates: " + ", ".join("%s: %d" % (k, len(v)) for k, v in ordered.items()), file=sys.stderr)

        # Verify the first candidates (in order; for the avoid data, where
        # most are forced moves, more of them), then keep the first cap.
        rows = {}
        for key, cands in ordered.items():
            todo = cands[: caps[key] * 5 if key == "avoid" else caps[key] * 3 // 2 + 5]
            got = [r for r in pool.map(verify, todo, chunksize=1) if r]
            rows[key] = got
        print("verified: " + ", ".join("%s: %d" % (k, len(v)) for k, v in rows.items()), file=sys.stderr)

    # No two rows of the mates file with the same piece placement.
    placements, mates = set(), []
    for n in (1, 2, 3):
        kept = 0
        for r in rows[n]:
            pl = r["fen"].split()[0]
            if pl in placements or kept >= caps[n]:
                continue
            placements.add(pl)
            mates.append(r)
            kept += 1
    avoid = rows["avoid"][: caps["avoid"]]

    with open(os.path.join(args.out, "chess_mates.tsv"), "w") as f:
        f.write("fen\tmate_in\tstockfish_bestmove\tmating_moves\twinning_moves\n")
        for r in mates:
            f.write("%s\t%d\t%s\t%s\t%s\n" % (r["fen"], r["n"], r["best"], ",".join(r["mating"]) if r["n"] == 1 else "",
                                                ",".join(r["winning"])))
    with open(os.path.join(args.out, "chess_avoid_mate.tsv"), "w") as f:
        f.write("fen\tblundering_moves\tsafe_moves_count\n")
        for r in avoid:
            f.write("%s\t%s\t%d\n" % (r["fen"], ",".join(r["blunders"]), r["safe"]))

    counts = {n: sum(1 for r in mates if r["n"] == n) for n in (1, 2, 3)}
    e = Engine()
    print("%s; mate in 1: %d, mate in 2: %d, mate in 3: %d, avoid mate: %d; %.0fs"
          % (e.banner, counts[1], counts[2], counts[3], len(avoid), time.time() - t0), file=sys.stderr)
    e.close()


if __name__ == "__main__":
    main()
