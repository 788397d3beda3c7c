#!/usr/bin/env bash
# Random playouts on the network: the working tree against another commit,
# for the files of test/data/gdl that load on a network (all but chess.kif
# at the default memory) and the test games of test/data/games, each loaded
# as <file>_kif (native games own tictactoe, connect4, chess and checkers).  The two
# builds take turns, BENCH_ROUNDS rounds of each; in a round a build is
# installed, every file loaded afresh (its network is built by that build),
# and each file's state changes per second measured in BENCH_RUNS fresh
# sessions of BENCH_SECONDS of uniformly random playouts (seed 1): the
# median of the sessions, then the median of the rounds.  A change of the
# network's layout shows here, where gdl_speed.sh measures one build.
#
#   bash bench/gdl_network.sh 2c59b3a                      # about 8 minutes
#   bash bench/gdl_network.sh 2c59b3a checkers chess4x4    # some files only
#   BENCH_ROUNDS=3 BENCH_SECONDS=4 bash bench/gdl_network.sh <commit>
#   BENCH_GDL_MEMORY=4GB bash bench/gdl_network.sh <commit> chess   # chess.kif's network
#
# BENCH_GDL_MEMORY, when set, is the gametree.gdl_memory (and max_memory)
# the files are loaded with, as in gdl_speed.sh: at the 1GB default
# chess.kif is on the prover, and left out.  (Set through PGOPTIONS
# instead, it would reach the server the script starts, and every dblink
# connection of the tests run after it.)
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_ROUNDS=${BENCH_ROUNDS:-2}
BENCH_SECONDS=${BENCH_SECONDS:-3}
source "$(dirname "$0")/bench.sh"
base=${1:?usage: bash bench/gdl_network.sh <commit> [file ...]}
shift
bench_build_base "$base"
db=gametree_network

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	for kif in "$GT_ROOT"/test/data/gdl/*.kif "$GT_ROOT"/test/data/games/*.kif; do
		[ "$(basename "$kif" .kif)" = chess ] || files+=("$(basename "$kif" .kif)")
	done
fi

# One round of one build: "side file rules moves_per_second" per file.
measure() {
	local side=$1 dir=$2 file loaded
	bench_install "$dir"
	gt_fresh_database "$db"
	for file in "${files[@]}"; do
		loaded=$(gt_psql -d "$db" -qAt -v game="${file}_kif" -v kif="$(cat "$(bench_kif_of "$file")")" \
			<<<"$(bench_gdl_load_settings) SELECT engine || ' ' || rules FROM gametree.load_game(:'game', :'kif');")
		[ "${loaded%% *}" = network ] || { echo "$file: on the ${loaded%% *}, not a network" >&2; continue; }
		for _ in $(seq "$BENCH_RUNS"); do
			gt_psql -d "$db" -qAt -v game="${file}_kif" \
				<<<"SELECT states / seconds FROM gametree.playouts(:'game', time_limit => '$BENCH_SECONDS s', seed => 1);"
		done | bench_median_of | sed "s/^/$side $file ${loaded#* } /"
	done
}

results=$(for _ in $(seq "$BENCH_ROUNDS"); do
	measure base "$bench_base_dir"
	measure current "$GT_ROOT"
done)
bench_install "$GT_ROOT"
printf '%-26s %9s %14s %14s %9s\n' file rules "base moves/s" "current m/s" speed-up
for file in "${files[@]}"; do
	b=$(awk -v f="$file" '$1 == "base" && $2 == f { print $4 }' <<<"$results" | bench_median_of)
	c=$(awk -v f="$file" '$1 == "current" && $2 == f { print $4 }' <<<"$results" | bench_median_of)
	rules=$(awk -v f="$file" '$1 == "current" && $2 == f { print $3; exit }' <<<"$results")
	grep -q "^current $file " <<<"$results" && grep -q "^base $file " <<<"$results" || continue
	awk -v f="$file" -v r="$rules" -v b="$b" -v c="$c" 'BEGIN {
		printf "%-26s %9d %14.0f %14.0f %8.2fx\n", f, r, b, c, c / b }'
done
echo "moves/s: random playouts' state changes per second (seed 1), median of $BENCH_RUNS sessions of $BENCH_SECONDS s, then of $BENCH_ROUNDS rounds, the builds taking turns; speed-up: current over base."
