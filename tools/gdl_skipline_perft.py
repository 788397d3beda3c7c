#!/usr/bin/env python3
"""Perft of the walk that ignores a cell (the skip game of
test/pgtap/playouts.sql), computed from its rules written out by hand,
independently of gametree's network and prover: the figures the test
checks.

Six cells, each empty (b) or occupied (o); one player, three steps.
(lift i) empties occupied cell i when every cell strictly between 1 and 4
is empty or is i itself; (drop c) fills empty cell 2 or 3; noop.

    python3 tools/gdl_skipline_perft.py 4    # perft 1..4
"""
import sys

INITIAL = {1: 'b', 2: 'o', 3: 'b', 4: 'b', 5: 'o', 6: 'o'}
STEPS = 3                     # terminal after the third move
BETWEEN = (2, 3)              # strictly between cells 1 and 4


def moves(cells):
    found = ['noop']
    for i in cells:
        if cells[i] == 'o' and all(cells[v] == 'b' or v == i for v in BETWEEN):
            found.append(('lift', i))
    for c in BETWEEN:
        if cells[c] == 'b':
            found.append(('drop', c))
    return found


def play(cells, move):
    after = dict(cells)
    if move != 'noop':
        after[move[1]] = 'b' if move[0] == 'lift' else 'o'
    return after


def perft(cells, depth, step=0):
    if step == STEPS:
        return 1 if depth == 0 else 0
    if depth == 0:
        return 1
    return sum(perft(play(cells, m), depth - 1, step + 1) for m in moves(cells))


if __name__ == '__main__':
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    print(','.join(str(perft(INITIAL, d)) for d in range(1, depth + 1)))
