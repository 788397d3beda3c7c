#!/usr/bin/env bash
# tools/checkers_kings.sh: regenerates test/data/checkers_kings.tsv, checkers
# endgames of kings only (two kings against one, three against two) with
# their value for the side to move at clock 0, for test/pgtap/prove.sql.
#
# Builds the project's own retrograde solver (tools/ckretro/ckretro.c, which
# shares no code with src/games/checkers/) into a temporary directory and
# draws, with a fixed seed, positions of each side to move and each value
# (win, draw, loss; two kings to move against one never lose), printing how
# many positions of each material have each value.
# Needs only a C compiler; does not touch PostgreSQL.  About three minutes
# (three kings against two: 4.9 million positions at each of 81 clocks).
# The same seed gives the same file.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/test/data/checkers_kings.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

${CC:-cc} -O2 -Wall -o "$tmp/ckretro" "$root/tools/ckretro/ckretro.c"
{
	printf 'fen\tvalue\n'
	"$tmp/ckretro" 2 1 4 20261126
	"$tmp/ckretro" 3 2 3 20261126
} >"$out"
echo "wrote $(($(wc -l <"$out") - 1)) positions to $out"
