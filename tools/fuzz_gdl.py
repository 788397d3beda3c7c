#!/usr/bin/env python3
"""tools/fuzz_gdl.py: writes the SQL of a GDL fuzzing run to stdout.

Each input is one of the sample descriptions (test/data/gdl, the smaller
ones) with 1 to 4 random mutations: a character deleted or replaced by one
of ( ) ? ; blank newline, a GDL word or a small bad rule inserted, the text
cut short, a piece of it repeated elsewhere.  Every input is loaded under a
name of its own; when it loads, perft 3, bestmove (alpha-beta and Monte
Carlo), board, goal and control run on its initial state, and it is
unloaded.  Each step reports "fuzz <step> <SQLSTATE>" as a NOTICE, so the
runner (tools/fuzz_gdl.sh) can count the answers.  The seed and the input
number alone decide an input.

    python3 tools/fuzz_gdl.py SEED N
"""
import glob
import os
import random
import sys

WORDS = ['(', ')', '?x', '?y', 'not', 'or', 'distinct', 'true', 'does', 'next', 'legal',
         'goal', 'terminal', 'role', 'init', '<=', '0', '100', '101', '-1', 'noop',
         '(<= (p ?x) (p ?x))', '(<= p (not p))', '(<= (q (f ?x)) (q ?x)) (q z)', '(true)', '()']
STEPS = [
    ('perft', "gametree.perft(g, gametree.initial(g), 3)"),
    ('alphabeta', "gametree.bestmove(g, gametree.initial(g), time_limit => '50ms')"),
    ('mcts', "gametree.bestmove(g, gametree.initial(g), time_limit => '50ms', method => 'mcts')"),
    ('rules', "gametree.board(g, gametree.initial(g)), gametree.goal(g, gametree.initial(g)), "
              "gametree.control(g, gametree.initial(g))"),
]


def mutate(rng, text):
    t = list(text)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randint(0, 5)
        pos = rng.randint(0, max(0, len(t) - 1))
        if kind == 0 and t:
            del t[pos]
        elif kind == 1:
            t[pos:pos] = list(' ' + rng.choice(WORDS) + ' ')
        elif kind == 2:
            t = t[:pos]
        elif kind == 3 and t:
            t[pos] = rng.choice('()? \n;')
        elif kind == 4:
            a = rng.randint(0, len(t))
            t[pos:pos] = t[a:a + rng.randint(1, 200)]
        else:
            t[pos:pos] = list(' (<= ' + rng.choice(WORDS) + ' ' + rng.choice(WORDS) + ') ')
    return ''.join(t).replace('$kif$', '')


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'test', 'data', 'gdl')
    files = sorted(f for f in glob.glob(os.path.join(root, '*.kif')) if os.path.getsize(f) < 7000)
    texts = [open(f).read() for f in files]
    print("SET client_min_messages = notice;")
    print("SET statement_timeout = '10s';")
    print("SET gametree.gdl_memory = '128MB';")
    for i in range(n):
        rng = random.Random(seed * 1000003 + i)
        kif = mutate(rng, rng.choice(texts))
        steps = '\n'.join(
            f"  BEGIN PERFORM {call}; RAISE NOTICE 'fuzz {name} ok';\n"
            f"  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'fuzz {name} %', SQLSTATE; END;"
            for name, call in STEPS)
        print(f"""DO $do$ DECLARE g text := 'fuzz_{i}'; BEGIN
  PERFORM gametree.unload_game(name) FROM gametree.gdl_games WHERE name = g;
  BEGIN PERFORM gametree.load_game(g, $kif${kif}$kif$); RAISE NOTICE 'fuzz load ok';
  EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'fuzz load %', SQLSTATE; RETURN; END;
{steps}
  PERFORM gametree.unload_game(g);
END $do$;""")


if __name__ == '__main__':
    main()
