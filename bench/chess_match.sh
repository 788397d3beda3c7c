#!/usr/bin/env bash
# gametree's chess against Debian's stockfish at Skill Levels 0, 3 and 6,
# 40 games each at 100 ms a move (bench/chess_match.py; options pass on,
# e.g. --levels 0 --games 10).  About 20 minutes on 2 cores.
source "$(dirname "$0")/bench.sh"
command -v /usr/games/stockfish >/dev/null || gt_as_root apt-get install -y -q stockfish >/dev/null
gt_setup
gt_fresh_database gametree_bench
PGDATABASE=gametree_bench exec python3 "$GT_ROOT/bench/chess_match.py" --fresh "$@"
