#!/usr/bin/env bash
# The GDL engine of the working tree against another commit's, perft from
# the initial state of the games of issue 27's table at its depths, and an
# estimate against Sancho from that table.
#
# Issue 27 measured, on this kind of machine, gametree's perft speed over
# that of Sancho's propositional network (its ggp-base fork's
# ForwardDeadReckonPropnetStateMachine) on the same files and depths, at
# the commit before the issue's work (253ce65).  With that commit as the
# base, base/Sancho is the issue's ratio, so current/Sancho is about the
# speed-up measured here times that ratio: an estimate (Sancho is not run
# here), printed as such.  Each figure is the median of BENCH_RUNS perfts
# in one session after a first call that compiles the game.
#
#   bash bench/gdl_versus.sh 253ce65            # BENCH_RUNS=3, about 3 minutes
#   BENCH_RUNS=5 bash bench/gdl_versus.sh <commit>
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
base=${1:?usage: bash bench/gdl_versus.sh <commit>}
bench_build_base "$base"
db=gametree_versus

# file, depth, base/Sancho in issue 27's table
GAMES="
ticTacToe 9 1.6
englishDraughts 8 0.39
connect4 8 0.35
connectFour 8 0.25
chineseCheckers3 7 0.18
breakthrough 5 0.13
pacman3p 9 0.04
"

measure() {
	local side=$1 dir=$2
	bench_install "$dir"
	gt_fresh_database "$db"
	echo "$GAMES" | while read -r file depth _; do
		[ -n "$file" ] || continue
		gt_psql -d "$db" -qAt -v game="${file}_kif" -v kif="$(cat "$GT_ROOT/test/data/gdl/$file.kif")" \
			<<<"SELECT 1 FROM gametree.load_game(:'game', :'kif');" >/dev/null
		echo "$side $file $(bench_perft_median "$db" "${file}_kif" "$depth")"
	done
}

results=$( (measure base "$bench_base_dir"; measure current "$GT_ROOT") )
bench_install "$GT_ROOT"
printf '%-18s %5s %12s %14s %14s %9s %14s %16s\n' file depth leaves "base leaves/s" "current l/s" speed-up \
	"base/Sancho" "current/Sancho~"
echo "$GAMES" | while read -r file depth ratio; do
	[ -n "$file" ] || continue
	read -r _ _ bl bs <<<"$(grep "^base $file " <<<"$results")"
	read -r _ _ cl cs <<<"$(grep "^current $file " <<<"$results")"
	[ "$bl" = "$cl" ] || { echo "$file perft $depth: base $bl, current $cl" >&2; exit 1; }
	awk -v f="$file" -v d="$depth" -v n="$cl" -v bs="$bs" -v cs="$cs" -v r="$ratio" 'BEGIN {
		printf "%-18s %5d %12d %14.0f %14.0f %8.2fx %14s %15.2fx\n", f, d, n, n / bs, n / cs, bs / cs, r "x", r * bs / cs }'
done
echo "speed-up: base seconds over current, medians of $BENCH_RUNS; current/Sancho~: the speed-up times issue 27's base/Sancho (an estimate)."
