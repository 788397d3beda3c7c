#!/usr/bin/env python3
"""bench/uci_match.py: `gametree uci` against Stockfish, over UCI alone.

The client's UCI engine (client/gametree uci, gametree.analyse behind it)
plays Stockfish (/usr/games/stockfish, Threads 1, Hash 16) at Skill Level 0
(--skill), both with `go movetime` (--movetime-ms, 100 by default), for
--games games (10 by default), gametree white in even games and black in
odd ones. Each side gets the whole game's moves from the start position in
every `position startpos moves ...`, as a graphical interface sends them.

The runner is the arbiter, and Stockfish's view of the position is the
rule book: before each ply it asks Stockfish for the position (`d`: its
FEN and the checkers) and its legal moves (`go perft 1`). The game ends:

- no legal move: checkmate if the side to move is in check (it loses),
  else stalemate (a draw);
- the FEN's halfmove clock at 100: a draw (fifty-move rule);
- the same position (placement, side, castling, en passant) a third time:
  a draw (threefold repetition);
- only kings, or a king and one knight or bishop against a king: a draw
  (dead position);
- --max-plies plies (200) played: a draw (adjudicated).

A move that is not among Stockfish's legal moves is an illegal move: it is
counted, and its side loses the game. A protocol error (no `bestmove` in
time, a malformed or unexpected line, the engine gone) is counted too,
and the game is scored as lost by that side. Both should be 0.

The results are printed as Markdown: one row per game, then the score
and gametree's think times (wall time from `go` to `bestmove`).

    python3 bench/uci_match.py --games 10 > bench/results/uci_match.txt

Connection: the client's own defaults (the checkout's private cluster,
database gametree) unless --dbname (or the PG* variables) say otherwise;
the database needs the extension.
"""

import argparse
import collections
import os
import re
import select
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
PERFT_LINE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): \d+$")


class ProtocolError(Exception):
    pass


class Engine:
    """A UCI engine as a subprocess, read line by line with time-outs."""

    def __init__(self, name, argv):
        self.name = name
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        self.buf = b""
        self.log = []

    def send(self, line):
        self.log.append("> " + line)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise ProtocolError(f"{self.name}: the engine is gone")

    def readline(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError(f"{self.name}: no answer within {timeout:.1f} s")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    err = self.proc.stderr.read().decode(errors="replace").strip()
                    raise ProtocolError(f"{self.name}: the engine ended ({err[-200:]})")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        text = line.decode(errors="replace").rstrip("\r")
        self.log.append("< " + text)
        return text

    def expect(self, pattern, timeout, allowed=None):
        """Reads lines until one matches; lines that match neither it nor allowed are errors."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(max(0.0, deadline - time.monotonic()))
            if re.match(pattern, line):
                return line
            if allowed is not None and not re.match(allowed, line):
                raise ProtocolError(f"{self.name}: unexpected line {line!r}")

    def handshake(self, options=()):
        self.send("uci")
        self.expect(r"^uciok$", 10)  # a banner, id and option lines before it
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.sync()

    def sync(self):
        self.send("isready")
        self.expect(r"^readyok$", 10, allowed=r"^(info string |$)")

    def new_game(self):
        self.send("ucinewgame")
        self.sync()

    def bestmove(self, moves, movetime_ms):
        """The engine's move after the moves from the start, the wall time, and its info lines."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        started = time.monotonic()
        self.send(f"go movetime {movetime_ms}")
        infos = []
        while True:
            line = self.readline(movetime_ms / 1000 + 10)
            if line.startswith("bestmove"):
                break
            if not line.startswith("info"):
                raise ProtocolError(f"{self.name}: unexpected line {line!r} during a search")
            infos.append(line)
        elapsed = time.monotonic() - started
        words = line.split()
        if len(words) < 2 or not UCI_MOVE.match(words[1]) or \
                (len(words) > 2 and not (len(words) == 4 and words[2] == "ponder" and UCI_MOVE.match(words[3]))):
            raise ProtocolError(f"{self.name}: malformed {line!r}")
        return words[1], elapsed, infos

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (ProtocolError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class Arbiter:
    """Stockfish's view of a position: FEN, checkers, legal moves."""

    def __init__(self, engine):
        self.sf = engine

    def position(self, moves):
        self.sf.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.sf.send("d")
        fen = checkers = None
        while checkers is None:
            line = self.sf.readline(10)
            if line.startswith("Fen: "):
                fen = line[5:].strip()
            elif line.startswith("Checkers:"):
                checkers = line[len("Checkers:"):].split()
        self.sf.send("go perft 1")
        legal = []
        while True:
            line = self.sf.readline(10)
            m = PERFT_LINE.match(line)
            if m:
                legal.append(m.group(1))
            elif line.startswith("Nodes searched"):
                break
        self.sf.sync()
        return fen, checkers, legal


def dead_position(fen):
    pieces = [c for c in fen.split()[0] if c.isalpha() and c not in "kK"]
    return len(pieces) == 0 or (len(pieces) == 1 and pieces[0] in "nNbB")


def play_game(index, gametree, stockfish, arbiter, args):
    gt_white = index % 2 == 0
    moves = []
    seen = collections.Counter()
    gt_times = []
    gt_depths = []
    for engine in (gametree, stockfish):
        try:
            engine.new_game()
        except ProtocolError as e:
            return dict(result=("0-1" if (engine is gametree) == gt_white else "1-0"),
                        reason=f"protocol error: {e}", plies=0, gt_white=gt_white, protocol_error=engine.name,
                        illegal=None, moves=moves, gt_times=gt_times, gt_depths=gt_depths)
    result = reason = None
    while result is None:
        fen, checkers, legal = arbiter.position(moves)
        fields = fen.split()
        side_white = fields[1] == "w"
        seen[" ".join(fields[:4])] += 1
        if not legal:
            if checkers:
                result, reason = ("0-1" if side_white else "1-0"), "checkmate"
            else:
                result, reason = "1/2-1/2", "stalemate"
        elif int(fields[4]) >= 100:
            result, reason = "1/2-1/2", "fifty-move rule"
        elif seen[" ".join(fields[:4])] >= 3:
            result, reason = "1/2-1/2", "threefold repetition"
        elif dead_position(fen):
            result, reason = "1/2-1/2", "dead position"
        elif len(moves) >= args.max_plies:
            result, reason = "1/2-1/2", f"{args.max_plies}-ply cap"
        if result:
            break
        gt_to_move = side_white == gt_white
        engine = gametree if gt_to_move else stockfish
        try:
            move, elapsed, infos = engine.bestmove(moves, args.movetime_ms)
        except ProtocolError as e:
            return dict(result=("0-1" if side_white else "1-0"), reason=f"protocol error: {e}",
                        plies=len(moves), gt_white=gt_white, protocol_error=engine.name, illegal=None,
                        moves=moves, gt_times=gt_times, gt_depths=gt_depths)
        if gt_to_move:
            gt_times.append(elapsed)
            depths = [int(m.group(1)) for m in (re.search(r"\bdepth (\d+)", i) for i in infos) if m]
            if depths:
                gt_depths.append(max(depths))
        if move not in legal:
            return dict(result=("0-1" if side_white else "1-0"), reason=f"illegal move {move} by {engine.name}",
                        plies=len(moves), gt_white=gt_white, protocol_error=None, illegal=engine.name,
                        moves=moves, gt_times=gt_times, gt_depths=gt_depths)
        moves.append(move)
    return dict(result=result, reason=reason, plies=len(moves), gt_white=gt_white, protocol_error=None,
                illegal=None, moves=moves, gt_times=gt_times, gt_depths=gt_depths)


def gametree_points(game):
    if game["result"] == "1/2-1/2":
        return 0.5
    return 1.0 if (game["result"] == "1-0") == game["gt_white"] else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--movetime-ms", type=int, default=100)
    ap.add_argument("--skill", type=int, default=0, help="Stockfish's Skill Level (0-20)")
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--client", default=os.path.join(ROOT, "client", "gametree"))
    ap.add_argument("--dbname", help="the client's -d: a database name or connection string")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--verbose", action="store_true", help="each game's moves on stderr")
    args = ap.parse_args()

    gt_argv = [args.client] + (["-d", args.dbname] if args.dbname else []) + ["uci"]
    gametree = Engine("gametree", gt_argv)
    stockfish = Engine("stockfish", [args.stockfish])
    arbiter_engine = Engine("arbiter", [args.stockfish])
    started = time.monotonic()
    try:
        gametree.handshake()
        stockfish.handshake([("Threads", 1), ("Hash", 16), ("Skill Level", args.skill)])
        arbiter_engine.handshake([("Threads", 1), ("Hash", 16)])
    except ProtocolError as e:
        sys.exit(f"uci_match: {e}")
    arbiter = Arbiter(arbiter_engine)
    games = []
    for i in range(args.games):
        game = play_game(i, gametree, stockfish, arbiter, args)
        games.append(game)
        if args.verbose:
            print(f"game {i + 1}: {game['result']} ({game['reason']}): {' '.join(game['moves'])}", file=sys.stderr)
        if game["protocol_error"] == "gametree":
            # a fresh engine for the next game
            gametree.quit()
            gametree = Engine("gametree", gt_argv)
            gametree.handshake()
    for engine in (gametree, stockfish, arbiter_engine):
        engine.quit()
    wall = time.monotonic() - started

    wins = sum(1 for g in games if gametree_points(g) == 1.0)
    draws = sum(1 for g in games if gametree_points(g) == 0.5)
    losses = len(games) - wins - draws
    illegal_gt = sum(1 for g in games if g["illegal"] == "gametree")
    illegal_sf = sum(1 for g in games if g["illegal"] == "stockfish")
    protocol_gt = sum(1 for g in games if g["protocol_error"] == "gametree")
    protocol_sf = sum(1 for g in games if g["protocol_error"] == "stockfish")
    times = [t for g in games for t in g["gt_times"]]
    depths = [d for g in games for d in g["gt_depths"]]

    print(f"# gametree uci against Stockfish (Skill Level {args.skill})\n")
    print(f"{len(games)} games, {args.movetime_ms} ms a move each side (`go movetime`), gametree white in "
          f"games 1, 3, 5, ...; adjudicated by Stockfish's view of the position (mate, stalemate, fifty-move "
          f"rule, threefold repetition, dead position, a draw at {args.max_plies} plies). "
          f"Run: `python3 bench/uci_match.py {' '.join(sys.argv[1:])}` ({wall:.0f} s).\n")
    print("| game | gametree | result | plies | how |")
    print("|---:|---|---|---:|---|")
    for i, g in enumerate(games):
        outcome = {1.0: "gametree wins", 0.5: "draw", 0.0: "Stockfish wins"}[gametree_points(g)]
        print(f"| {i + 1} | {'white' if g['gt_white'] else 'black'} | {g['result']} ({outcome}) | "
              f"{g['plies']} | {g['reason']} |")
    score = wins + draws / 2
    def count(n, word):
        return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")

    print(f"\n**gametree: {count(wins, 'win')}, {count(draws, 'draw')}, {count(losses, 'loss')}: "
          f"{score:g} / {len(games)}**\n")
    print("| check | gametree | Stockfish |")
    print("|---|---:|---:|")
    print(f"| illegal moves | {illegal_gt} | {illegal_sf} |")
    print(f"| protocol errors | {protocol_gt} | {protocol_sf} |")
    if times:
        times_ms = sorted(t * 1000 for t in times)
        p90 = times_ms[min(len(times_ms) - 1, int(0.9 * len(times_ms)))]
        line = (f"\ngametree's moves: {len(times)}; wall time from `go` to `bestmove`: median "
                f"{statistics.median(times_ms):.0f} ms, 90th percentile {p90:.0f} ms, max {times_ms[-1]:.0f} ms")
        if depths:
            line += f"; depth of its info lines: median {statistics.median(depths):g}, max {max(depths)}"
        print(line + ".")
    sys.exit(1 if illegal_gt or protocol_gt else 0)


if __name__ == "__main__":
    main()
