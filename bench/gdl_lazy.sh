#!/usr/bin/env bash
# Random playouts with costly legality checked for the move drawn alone
# (src/gdl/lazy_legal.h, gametree.gdl_lazy_legality on, the default)
# against every legal move listed (off), one build, the two settings taking
# turns: each file of test/data/gdl and test/data/games loaded once as
# <file>_kif, then BENCH_ROUNDS rounds of a fresh session each way (a
# playout to warm it, then BENCH_SECONDS of uniformly random playouts of
# seed 1): state changes per second, the median of the rounds, and their
# ratio.  "drawn" says whether the file's playouts draw lazily (20 games of
# seed 1 differ from the listing's in length or goals), its legal rules
# having costly literals that only "any legal move" reads; the others play
# the same games either way, and their ratio is the machine's noise.
#
#   bash bench/gdl_lazy.sh                     # about 6 minutes
#   bash bench/gdl_lazy.sh chess chess4x4      # some files only
#   BENCH_ROUNDS=7 BENCH_SECONDS=4 bash bench/gdl_lazy.sh chess
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
BENCH_SECONDS=${BENCH_SECONDS:-2}
source "$(dirname "$0")/bench.sh"
db=gametree_lazy

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	for kif in "$GT_ROOT"/test/data/gdl/*.kif "$GT_ROOT"/test/data/games/*.kif; do
		files+=("$(basename "$kif" .kif)")
	done
fi

# One session's moves per second with the setting at $2.
session() {
	gt_psql -d "$db" -qAt -v game="$1_kif" <<<"SET gametree.gdl_lazy_legality = $2;
		SELECT FROM gametree.playouts(:'game', max_playouts => 1, seed => 2);
		SELECT states / seconds FROM gametree.playouts(:'game', time_limit => '$BENCH_SECONDS s', seed => 1);"
}

games() {
	gt_psql -d "$db" -qAt -v game="$1_kif" <<<"SET gametree.gdl_lazy_legality = $2;
		SELECT (utility, states) FROM gametree.playouts(:'game', max_playouts => 20, seed => 1);"
}

gt_setup
gt_fresh_database "$db"
printf '%-26s %-7s %6s %14s %14s %9s\n' file engine drawn "listed m/s" "drawn m/s" speed-up
for file in "${files[@]}"; do
	engine=$(gt_psql -d "$db" -qAt -v game="${file}_kif" -v kif="$(cat "$(bench_kif_of "$file")")" \
		<<<"SELECT engine FROM gametree.load_game(:'game', :'kif');")
	[ "$(games "$file" on)" = "$(games "$file" off)" ] && drawn=no || drawn=yes
	results=$(for _ in $(seq "$BENCH_ROUNDS"); do
		echo "off $(session "$file" off)"
		echo "on $(session "$file" on)"
	done)
	off=$(awk '$1 == "off" { print $2 }' <<<"$results" | bench_median_of)
	on=$(awk '$1 == "on" { print $2 }' <<<"$results" | bench_median_of)
	awk -v f="$file" -v e="$engine" -v d="$drawn" -v off="$off" -v on="$on" 'BEGIN {
		printf "%-26s %-7s %6s %14.0f %14.0f %8.2fx\n", f, e, d, off, on, on / off }'
done
echo "m/s: random playouts' state changes per second (seed 1), median of $BENCH_ROUNDS sessions of $BENCH_SECONDS s each way, the settings taking turns; listed: gametree.gdl_lazy_legality off; drawn: on; speed-up: drawn over listed."
