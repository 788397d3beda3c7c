#!/usr/bin/env python3
"""Perft and the exact mean goals under uniformly random play of
test/data/games/unfold.kif, computed from the game's rules written out by
hand, independently of gametree's network and prover: the figures
test/pgtap/playouts.sql checks.

    python3 tools/gdl_unfold_perft.py 6    # perft 1..6, then the means
"""
import sys
from fractions import Fraction
from functools import lru_cache

CELLS = range(1, 7)
ROLES = ("white", "black")


def opponent(role):
    return ROLES[1 - ROLES.index(role)]


def moves(stones, mover):
    """The mover's actions: a cell that is empty and beside no enemy stone, or pass."""
    taken = {cell for (_, cell) in stones}
    enemy = {cell for (role, cell) in stones if role != mover}
    places = [cell for cell in CELLS
              if cell not in taken and cell - 1 not in enemy and cell + 1 not in enemy]
    return places + ["pass"]


def has_pair(stones, role):
    return sum(1 for (r, _) in stones if r == role) >= 2


def goals(stones):
    """100 to a player with two stones whose opponent has not, 0 to that
    opponent; 50 each otherwise."""
    white, black = has_pair(stones, "white"), has_pair(stones, "black")
    if white and not black:
        return {"white": 100, "black": 0}
    if black and not white:
        return {"white": 0, "black": 100}
    return {"white": 50, "black": 50}


def play(stones, mover, action):
    return stones | {(mover, action)} if action != "pass" else stones


@lru_cache(maxsize=None)
def perft(stones, step, depth):
    if depth == 0:
        return 1
    if step == 6:
        return 0
    mover = ROLES[step % 2]
    return sum(perft(play(stones, mover, a), step + 1, depth - 1) for a in moves(stones, mover))


@lru_cache(maxsize=None)
def mean_goals(stones, step):
    if step == 6:
        g = goals(stones)
        return tuple(Fraction(g[r]) for r in ROLES)
    mover = ROLES[step % 2]
    actions = moves(stones, mover)
    children = [mean_goals(play(stones, mover, a), step + 1) for a in actions]
    return tuple(sum(c[i] for c in children) / len(actions) for i in range(len(ROLES)))


if __name__ == "__main__":
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print(",".join(str(perft(frozenset(), 0, d)) for d in range(1, depth + 1)))
    means = mean_goals(frozenset(), 0)
    print(" ".join(f"{r} {float(m):.6f}" for r, m in zip(ROLES, means)))
