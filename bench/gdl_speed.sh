#!/usr/bin/env bash
# GDL engine speed, the way GGP engines are compared: for each of the 16
# files of test/data/gdl, perft leaves per second from the initial state and
# state changes per second of uniformly random playouts from it (the
# gdl-perf protocol: games to the end for a fixed time, one thread;
# gametree.playouts), against the native engine where the game has one,
# measured in the same run.  Published figures of other engines (their
# machines, not this one) are printed beside for scale.
#
# Each figure is the median of BENCH_RUNS measurements in one session, after
# a first call that compiles the game in that backend.  Playouts run
# BENCH_SECONDS each.
#
#   bash bench/gdl_speed.sh                       # BENCH_RUNS=3, BENCH_SECONDS=3: about 6 minutes
#   BENCH_RUNS=5 BENCH_SECONDS=10 bash bench/gdl_speed.sh
#   bash bench/gdl_speed.sh ticTacToe breakthrough  # some files only
#   BENCH_GDL_MEMORY=512MB bash bench/gdl_speed.sh chess  # chess.kif on the prover
#
# BENCH_GDL_MEMORY, when set, is the gametree.gdl_memory (and max_memory)
# the files are loaded with: at the 1GB default chess.kif is on its network.
# before bench.sh, whose default (5) would take its place
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
BENCH_SECONDS=${BENCH_SECONDS:-3}
gt_setup
gt_fresh_database gametree_bench
cd "$GT_ROOT"

# file, perft depth (the depths of issue 27's table where it has one), the
# native game or -, the published playout rate (state changes/s) or -, and whose.
GAMES="
blocker 3 - - -
breakthrough 5 - 840000 Sancho
checkers 7 checkers - -
chess 3 chess 7400 best-full-chess-prover
chineseCheckers3 7 - - -
chineseCheckers6 3 - - -
connect4 8 connect4 - -
connectFour 8 - 2650000 GGPLIB
connectFourSimultaneous 4 - - -
englishDraughts 8 checkers - -
gt_prisoner 8 - - -
nim1 8 - - -
pacman3p 9 - - -
roshambo2 6 - - -
ticTacToe 9 tictactoe 2870000 GGPLIB
tictactoe_3player 5 - - -
"

# One session: a first call, then BENCH_RUNS timed playouts; the median state changes per second.
playout_rate() {
	local game=$1
	{
		echo "SELECT 1 FROM gametree.playouts('$game', max_playouts => 1);"
		for _ in $(seq "$BENCH_RUNS"); do
			echo "SELECT states / seconds FROM gametree.playouts('$game', time_limit => '$BENCH_SECONDS s');"
		done
	} | gt_psql -v ON_ERROR_STOP=1 -d gametree_bench -qAt | tail -n "$BENCH_RUNS" | bench_median_of
}

printf '%-24s %-8s %5s %10s %12s %12s %-10s %12s %12s %8s %12s %s\n' file engine depth leaves "leaves/s" \
	"playouts/s" native "native l/s" "native p/s" "p ratio" published "ours/published"
echo "$GAMES" | while read -r file depth native published whose; do
	[ -n "$file" ] || continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$file"; then continue; fi
	game="${file}_kif"
	engine=$(gt_psql -d gametree_bench -qAt -v game="$game" -v kif="$(cat "test/data/gdl/$file.kif")" \
		<<<"$(bench_gdl_load_settings) SELECT engine FROM gametree.load_game(:'game', :'kif');")
	read -r leaves perft_s <<<"$(bench_perft_median gametree_bench "$game" "$depth")"
	rate=$(playout_rate "$game")
	nat_l=- nat_p=- ratio=- vs=-
	if [ "$native" != - ]; then
		read -r nat_leaves nat_s <<<"$(bench_perft_median gametree_bench "$native" "$depth")"
		nat_l=$(awk -v n="$nat_leaves" -v s="$nat_s" 'BEGIN { printf "%.0f", n / s }')
		nat_p=$(playout_rate "$native")
		ratio=$(awk -v a="$rate" -v b="$nat_p" 'BEGIN { printf "1/%.1f", b / a }')
	fi
	[ "$published" = - ] || vs=$(awk -v a="$rate" -v b="$published" -v w="$whose" 'BEGIN { printf "%.2fx %s", a / b, w }')
	awk -v f="$file" -v e="$engine" -v d="$depth" -v n="$leaves" -v s="$perft_s" -v p="$rate" -v nat="$native" \
		-v nl="$nat_l" -v np="$nat_p" -v r="$ratio" -v pub="$published" -v vs="$vs" 'BEGIN {
		printf "%-24s %-8s %5d %10d %12.0f %12.0f %-10s %12s %12s %8s %12s %s\n",
			f, e, d, n, n / s, p, nat, nl, (np == "-" ? "-" : sprintf("%.0f", np)), r, pub, vs }'
done
echo "playouts/s: state changes per second of random games to the end, median of $BENCH_RUNS runs of ${BENCH_SECONDS} s;"
echo "p ratio: GDL playouts/s over the native engine's; published: other engines' figures on their own machines."
