#!/usr/bin/env python3
"""Perft of test/data/games/apart.kif, computed from the game's rules
written out by hand, independently of gametree's network and prover: the
figures test/pgtap/playouts.sql checks.

    python3 tools/gdl_apart_perft.py 4    # perft 1..4
"""
import sys

CELLS = [(f, r) for f in 'abc' for r in (1, 2, 3)]
LAST_STEP = 4     # terminal


def marked_elsewhere(board, cell):
    return any(board[c] != 'b' for c in CELLS if c != cell)


def moves(board):
    found = []
    for c in CELLS:
        if board[c] == 'b':
            found.append(('put', c))
        if board[c] == 'o' and marked_elsewhere(board, c):
            found.append(('take', c))
        if board[c] == 'x' and not marked_elsewhere(board, c):
            found.append(('turn', c))
    return found


def play(board, move):
    kind, c = move
    after = dict(board)
    after[c] = 'b' if kind == 'take' else 'o'
    return after


def perft(board, step, depth):
    if depth == 0:
        return 1
    if step == LAST_STEP:
        return 0
    return sum(perft(play(board, m), step + 1, depth - 1) for m in moves(board))


if __name__ == '__main__':
    initial = {c: 'b' for c in CELLS}
    initial[('a', 1)] = 'o'
    initial[('b', 2)] = 'x'
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    print(','.join(str(perft(initial, 0, d)) for d in range(1, depth + 1)))
