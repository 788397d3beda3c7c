#!/usr/bin/env bash
# gametree's connect four against itself at a 10 times shorter time limit
# (98 games: every two-ply opening with each colour) and against a random
# player (40 games), at 100 ms a move (bench/connect4_match.py; options pass
# on).  About 2 minutes.
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
PGDATABASE=gametree_bench exec python3 "$GT_ROOT/bench/connect4_match.py" "$@"
