#!/usr/bin/env python3
"""Perft of test/data/games/lamps.kif, and the walker's exact mean goal
under uniformly random play, computed from the game's rules written out by
hand, independently of gametree's network and prover: the figures
test/pgtap/playouts.sql checks.

    python3 tools/gdl_lamps_perft.py 5         # perft 1..5, as playouts.sql checks
    python3 tools/gdl_lamps_perft.py random    # the mean goal of random games
"""
from functools import lru_cache
import sys

CELLS = 24
RUN = 12          # lit cells a step needs, from the cell stepped to on
LAST_STEP = 6     # terminal


def moves(state):
    at, lamps, _ = state
    found = [('toggle', c) for c in range(1, CELLS + 1)]
    for d in (at - 1, at + 1):
        dim = d >= 2 and d - 1 not in lamps
        if dim and d + RUN - 1 <= CELLS and all(c in lamps for c in range(d, d + RUN)):
            found.append(('move', d))
    return found


def play(state, move):
    at, lamps, step = state
    if move[0] == 'move':
        return (move[1], lamps, step + 1)
    return (at, lamps ^ frozenset([move[1]]), step + 1)


def perft(state, depth):
    if depth == 0:
        return 1
    if state[2] == LAST_STEP:
        return 0
    return sum(perft(play(state, m), depth - 1) for m in moves(state))


@lru_cache(maxsize=None)
def mean_goal(state):
    """The walker's goal (100 at cell 2 at the end, else 0), each legal move equally likely."""
    if state[2] == LAST_STEP:
        return 100.0 if state[0] == 2 else 0.0
    found = moves(state)
    return sum(mean_goal(play(state, m)) for m in found) / len(found)


if __name__ == '__main__':
    initial = (1, frozenset(range(2, 2 + RUN)), 0)
    if len(sys.argv) > 1 and sys.argv[1] == 'random':
        print('%.6f' % mean_goal(initial))
        sys.exit(0)
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(','.join(str(perft(initial, d)) for d in range(1, depth + 1)))
