#!/usr/bin/env bash
# Two builds side by side: the working tree against another commit (a
# restructuring must leave speed within noise).  Both are built once; then
# BENCH_RUNS rounds install each in turn, restart the private cluster and
# time every statement below once in a fresh database.  Prints the median
# seconds of each build and the ratio base/current (above 1: the current
# build is faster).
#
#   bash bench/versus.sh <commit>          # e.g. the commit before a refactoring
#   BENCH_RUNS=7 bash bench/versus.sh HEAD~10
#
# Statements: perft of the four built-in games and of tic-tac-toe from GDL
# (the network engine; loading it is not timed), growing connect four to
# depth 8 with one CALL grow (final propagation included), propagating that
# tree from scratch, and fixed-depth searches (connect four's alpha-beta
# would call its exact solver at the root, so it is searched by max^n).
BENCH_RUNS=${BENCH_RUNS:-5}
source "$(dirname "$0")/bench.sh"
base=${1:?usage: bash bench/versus.sh <commit>}
bench_build_base "$base"

db=gametree_versus
statements=(
	"chess perft 6|SELECT gametree.perft('chess', gametree.initial('chess'), 6)"
	"checkers perft 11|SELECT gametree.perft('checkers', gametree.initial('checkers'), 11)"
	"connect4 perft 10|SELECT gametree.perft('connect4', gametree.initial('connect4'), 10)"
	"tictactoe perft 9|SELECT gametree.perft('tictactoe', gametree.initial('tictactoe'), 9)"
	"ticTacToe.kif perft 9|SELECT gametree.perft('ttt_kif', gametree.initial('ttt_kif'), 9)"
	"grow connect4 depth 8|CALL gametree.grow('c4', max_depth => 8)"
	"propagate it from scratch|SELECT gametree.propagate('c4')"
	"chess alpha-beta depth 8|SELECT gametree.bestmove('chess', gametree.initial('chess'), '1 hour', 8, 'alphabeta')"
	"checkers alpha-beta depth 16|SELECT gametree.bestmove('checkers', gametree.initial('checkers'), '1 hour', 16, 'alphabeta')"
	"connect4 max^n depth 8|SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '1 hour', 8, 'maxn')"
)

for round in $(seq "$BENCH_RUNS"); do
	for side in base current; do
		dir=$GT_ROOT
		[ "$side" = base ] && dir=$bench_base_dir
		bench_install "$dir"
		gt_fresh_database "$db"
		gt_psql -d "$db" -qAt -v kif="$(cat "$GT_ROOT/test/data/gdl/ticTacToe.kif")" \
			<<<"SELECT FROM gametree.load_game('ttt_kif', :'kif'); SELECT FROM gametree.create_tree('c4', 'connect4');" >/dev/null
		for entry in "${statements[@]}"; do
			printf '%s|%s|%s\n' "$side" "${entry%%|*}" "$(bench_seconds "$db" "${entry#*|}")"
		done
	done >>"$bench_work/times"
	gt_log "round $round of $BENCH_RUNS done"
done

printf '| statement | %s: median s | current: median s | base/current |\n|---|---|---|---|\n' "${bench_base_commit:0:10}"
for entry in "${statements[@]}"; do
	name=${entry%%|*}
	median() { awk -F'|' -v s="$1" -v n="$name" '$1 == s && $2 == n { print $3 }' "$bench_work/times" | bench_median_of; }
	b=$(median base) c=$(median current)
	awk -v n="$name" -v b="$b" -v c="$c" 'BEGIN { printf "| %s | %.3f | %.3f | %.2f |\n", n, b, c, b / c }'
done
# Leave the current build installed, as every other script does.
bench_install "$GT_ROOT"
