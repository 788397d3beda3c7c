#!/usr/bin/env python3
"""Perft of test/data/games/implied.kif, computed from the game's rules
written out by hand, independently of gametree's network and prover: the
figures test/pgtap/playouts.sql checks.

    python3 tools/gdl_implied_perft.py 5    # perft 1..5
"""
import sys

CELLS = range(1, 6)
LAST_STEP = 4     # terminal


def moves(tokens, marks):
    free = [c for c in CELLS if c not in tokens]
    found = [('wait',)]
    for x in tokens:
        for y in free:
            if (y == x + 1 and y in marks) or y == x - 1:
                found.append(('step', x, y))
        for target in free:
            if target != 2 and (target == 1 or target in marks):
                found.append(('send', x, target))
        if 2 in free and 2 in marks:
            found.append(('sendtwo', x))
    return found


def play(tokens, marks, move):
    if move[0] == 'step':
        _, x, y = move
        return (tokens - {x}) | {y}, marks - {y}
    if move[0] == 'send':
        _, y, target = move
        return (tokens - {y}) | {target}, marks
    if move[0] == 'sendtwo':
        return (tokens - {move[1]}) | {2}, marks
    return tokens, marks


def perft(tokens, marks, step, depth):
    if depth == 0:
        return 1
    if step == LAST_STEP:
        return 0
    return sum(perft(*play(tokens, marks, m), step + 1, depth - 1) for m in moves(tokens, marks))


if __name__ == '__main__':
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(','.join(str(perft(frozenset({1, 4}), frozenset({2, 5}), 0, d)) for d in range(1, depth + 1)))
