#!/usr/bin/env bash
# A GDL game's first use in a new session: reading the network load_game
# stored (gametree.gdl_games.network) against compiling the description
# again, which every new backend did before networks were stored.  For
# each KIF file of test/data/gdl on the network, the median of BENCH_RUNS
# fresh sessions whose one statement is gametree.initial(game), first with
# the stored network, then with it set aside (the column set to NULL, as a
# game loaded before 0.4.0 has it), in the same run.
#
#   bash bench/gdl_first_use.sh          # BENCH_RUNS=5: about a minute
#   BENCH_RUNS=9 bash bench/gdl_first_use.sh
BENCH_RUNS=${BENCH_RUNS:-5}
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
cd "$GT_ROOT"
median() { sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

# Milliseconds of gametree.initial('$1') in a fresh session, median of BENCH_RUNS.
first_use() {
	for _ in $(seq "$BENCH_RUNS"); do
		gt_psql -X -d gametree_bench -qAt -c '\timing on' -c "SELECT FROM gametree.initial('$1')" |
			sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
	done | median
}

printf '%-24s %10s %12s %12s %9s\n' file rules "stored ms" "compiled ms" speed-up
for f in test/data/gdl/*.kif; do
	name=$(basename "$f" .kif)
	game=${name}_kif
	engine=$(gt_psql -d gametree_bench -qAt -v kif="$(cat "$f")" \
		<<<"SELECT engine || ' ' || rules FROM gametree.load_game('$game', :'kif');")
	[ "${engine%% *}" = network ] || continue
	stored=$(first_use "$game")
	gt_psql -q -d gametree_bench -c "CREATE TABLE set_aside AS SELECT network FROM gametree.gdl_games WHERE name = '$game'" \
		-c "UPDATE gametree.gdl_games SET network = NULL WHERE name = '$game'"
	compiled=$(first_use "$game")
	gt_psql -q -d gametree_bench -c "UPDATE gametree.gdl_games SET network = (SELECT network FROM set_aside) WHERE name = '$game'" \
		-c "DROP TABLE set_aside"
	awk -v f="$name.kif" -v r="${engine#* }" -v s="$stored" -v c="$compiled" \
		'BEGIN { printf "%-24s %10d %12.1f %12.1f %8.1fx\n", f, r, s, c, c / s }'
done
echo "(gametree.initial in a fresh session, median of $BENCH_RUNS sessions each: the stored network read, then the description compiled)"
