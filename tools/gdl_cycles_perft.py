#!/usr/bin/env python3
"""Perft and uniformly random play of test/data/games/cycles.kif, computed
from the game's rules written out by hand (a transitive closure for reach),
independently of gametree's network and prover: the figures
test/pgtap/playouts.sql checks.

    python3 tools/gdl_cycles_perft.py 6    # perft 1..6
    python3 tools/gdl_cycles_perft.py      # and, under random play, the
                                           # first player's chance to win
                                           # and the expected moves
"""
import sys
from fractions import Fraction
from functools import lru_cache

NODES = (1, 2, 3, 4)


def reach(edges):
    closure = set(edges)
    while True:
        more = {(x, z) for (x, y) in closure for (w, z) in closure if y == w} - closure
        if not more:
            return closure
        closure |= more


def terminal(edges, step):
    return step == 6 or (1, 1) in reach(edges)


def moves(edges):
    r = reach(edges)
    return [(x, y) for x in NODES for y in NODES
            if x != y and ((x, y) not in r or (x, y) in edges)]


@lru_cache(maxsize=None)
def perft(edges, step, depth):
    if terminal(edges, step):
        return 0
    legal = moves(edges)
    if depth == 1:
        return len(legal)
    return sum(perft(edges ^ frozenset([m]), step + 1, depth - 1) for m in legal)


@lru_cache(maxsize=None)
def random_play(edges, step):
    """(the first player's chance to win, the expected moves to the end)"""
    if terminal(edges, step):
        return Fraction(int((1, 1) in reach(edges))), Fraction(0)
    legal = moves(edges)
    win = plies = Fraction(0)
    for m in legal:
        w, p = random_play(edges ^ frozenset([m]), step + 1)
        win += w
        plies += p + 1
    return win / len(legal), plies / len(legal)


if __name__ == "__main__":
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print("perft:", ",".join(str(perft(frozenset(), 0, d)) for d in range(1, depth + 1)))
    if len(sys.argv) == 1:
        win, plies = random_play(frozenset(), 0)
        print("random play: first wins %.6f, moves %.6f" % (win, plies))
