#!/usr/bin/env bash
# Regenerates test/data/chess_mates.tsv and test/data/chess_avoid_mate.tsv
# from semi-random games played with Debian's stockfish (see
# tools/mate_suite.py and test/data/README.md).  Reproducible: fixed seed,
# depth-limited searches on one thread.  About 10 minutes on 2 cores (8.5 to 12 seen).
#   tools/mate_suite.sh [--seed N] [--games N] [--jobs N] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -x "${STOCKFISH:-/usr/games/stockfish}" ]; then
	echo "mate_suite: stockfish is missing (apt-get install stockfish)" >&2
	exit 1
fi
exec python3 "$root/tools/mate_suite.py" "$@"
