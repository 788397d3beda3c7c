#!/usr/bin/env bash
# The GDL prover of the working tree against another commit's: perft from
# the initial state of each file of test/data/gdl, each loaded at the
# smallest gametree.gdl_memory (of 1, 2, 4, 16 and 64 MB) at which its
# network does not fit (or at 1 MB with a relation no rule asks added, when
# it fits at every one), at a depth of about a tenth of a second to a
# second.  Each figure is the median of BENCH_RUNS
# perfts in one session after a first call that compiles the game; the two
# builds are measured one after the other in the same run.
#
#   bash bench/gdl_prover.sh 5873488            # BENCH_RUNS=3, about 2 minutes
#   BENCH_RUNS=5 bash bench/gdl_prover.sh <commit>
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
base=${1:?usage: bash bench/gdl_prover.sh <commit>}
bench_build_base "$base"
db=gametree_prover

# file, perft depth
GAMES="
breakthrough 4
checkers 5
chess 3
chineseCheckers3 5
chineseCheckers6 4
connect4 5
connectFour 5
connectFourSimultaneous 3
englishDraughts 5
gt_prisoner 6
pacman3p 6
ticTacToe 6
tictactoe_3player 4
"

# Loads file on the prover at the smallest memory that puts it there; prints that memory, or nothing.
load_on_prover() {
	local file=$1 memory engine
	for memory in 1MB 2MB 4MB 16MB 64MB; do
		engine=$(gt_psql -d "$db" -qAt -v game="${file}_kif" -v kif="$(cat "$GT_ROOT/test/data/gdl/$file.kif")" \
			<<<"SET gametree.gdl_memory = '$memory';
			    SELECT engine FROM gametree.load_game(:'game', :'kif');" 2>/dev/null)
		[ "$engine" = prover ] && { echo "$memory"; return; }
		gt_psql -d "$db" -qAt -v game="${file}_kif" <<<"SELECT gametree.unload_game(:'game');" >/dev/null 2>&1
	done
	# a network that fits in the least memory: a relation no rule asks, of 27,000 atoms, makes it too large
	engine=$(gt_psql -d "$db" -qAt -v game="${file}_kif" -v kif="$(cat "$GT_ROOT/test/data/gdl/$file.kif")" \
		<<<"SET gametree.gdl_memory = '1MB';
		    SELECT engine FROM gametree.load_game(:'game', :'kif' || E'\n'
		      || (SELECT string_agg(format('(gt_pad %s)', i), ' ') FROM generate_series(0, 29) i)
		      || E'\n(<= (gt_unused ?a ?b ?c) (true ?x) (gt_pad ?a) (gt_pad ?b) (gt_pad ?c))\n');" 2>/dev/null)
	[ "$engine" = prover ] && echo "1MB+"
}

measure() {
	local side=$1 dir=$2 memory
	bench_install "$dir"
	gt_fresh_database "$db"
	echo "$GAMES" | while read -r file depth; do
		[ -n "$file" ] || continue
		memory=$(load_on_prover "$file")
		[ -n "$memory" ] || { echo "$file: not on the prover at 64MB" >&2; continue; }
		echo "$side $file $memory $(bench_perft_median "$db" "${file}_kif" "$depth")"
	done
}

results=$( (measure base "$bench_base_dir"; measure current "$GT_ROOT") )
bench_install "$GT_ROOT"
printf '%-24s %6s %5s %10s %12s %12s %9s\n' file memory depth leaves "base ms" "current ms" speed-up
echo "$GAMES" | while read -r file depth; do
	[ -n "$file" ] || continue
	read -r _ _ bm bl bs <<<"$(grep "^base $file " <<<"$results")"
	read -r _ _ cm cl cs <<<"$(grep "^current $file " <<<"$results")"
	[ -n "$cl" ] || continue
	[ "$bl" = "$cl" ] || { echo "$file perft $depth: base $bl, current $cl" >&2; exit 1; }
	awk -v f="$file" -v m="$cm" -v d="$depth" -v n="$cl" -v bs="$bs" -v cs="$cs" 'BEGIN {
		printf "%-24s %6s %5d %10d %12.1f %12.1f %8.2fx\n", f, m, d, n, bs * 1000, cs * 1000, bs / cs }'
done
echo "ms: median of $BENCH_RUNS perfts; speed-up: base over current; memory: the smallest gametree.gdl_memory that puts the file on the prover (1MB+: none does, so a relation no rule asks is added)."
