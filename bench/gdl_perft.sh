#!/usr/bin/env bash
# GDL engine speed: perft leaf nodes per second of games loaded from KIF
# (test/data/gdl) against the native engines, measured in the same run.
#
#   ticTacToe.kif    (loaded as ticTacToe_kif)  perft 9 against native tictactoe perft 9
#   connectFour.kif  (loaded as connectFour, an 8x6 board) perft 7 against native
#                    connect4 (7x6) perft 8: different boards, so leaf rates are compared
#   connect4.kif     (loaded as connect4_kif, the same game as native connect4)
#                    perft 8 against native connect4 perft 8, counts checked equal
#
# Each measurement is one psql session: perft at depth 1 first (it compiles
# the GDL game, which a backend does on first use and caches; shown as
# "first call"), then BENCH_RUNS timed perfts; the figure is their median.
# Goals: ticTacToe.kif at 1/20 or better of native tictactoe, connectFour.kif
# at 1/50 or better of native connect4.
#
#   bash bench/gdl_perft.sh            # BENCH_RUNS=5 by default
#   BENCH_RUNS=3 bash bench/gdl_perft.sh
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
cd "$GT_ROOT"

load() {
	local game=$1 file=$2
	gt_psql -d gametree_bench -qAt -F ' ' -v game="$game" -v kif="$(cat "test/data/gdl/$file.kif")" \
		<<<"SELECT game, engine, facts, actions, rules, nodes FROM gametree.load_game(:'game', :'kif');" |
		awk -v f="$file" '{ printf "loaded %s.kif as %s: engine %s, %d facts, %d actions, %d ground rules, %d nodes\n", f, $1, $2, $3, $4, $5, $6 }'
}

# One session: perft 1 (timed, the first call: compiles a GDL game), then
# BENCH_RUNS perfts at the depth.  Prints "leaves median_seconds first_call_seconds".
perft_warm() {
	local game=$1 depth=$2 out
	out=$({
		echo '\timing on'
		echo "SELECT gametree.perft('$game', gametree.initial('$game'), 1);"
		for _ in $(seq "$BENCH_RUNS"); do
			echo "SELECT gametree.perft('$game', gametree.initial('$game'), $depth);"
		done
	} | timeout 600 "$GT_PGBIN/psql" -X -v ON_ERROR_STOP=1 -d gametree_bench -qAt)
	echo "$out" | awk '
		/^Time:/ { t[++nt] = $2 / 1000; next }
		/^[0-9]+$/ { c[++nc] = $1 }
		END {
			n = 0
			for (i = 2; i <= nt; i++) v[++n] = t[i]
			for (i = 3; i <= nc; i++) if (c[i] != c[2]) { print "perft counts differ between runs" > "/dev/stderr"; exit 1 }
			# insertion sort, then the median
			for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
			m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%s %.6f %.6f\n", c[2], m, t[1]
		}'
}

load ticTacToe_kif ticTacToe
load connectFour connectFour
load connect4_kif connect4

# connectFour.kif: an 8x6 board, 8^d leaves up to depth 5.
c=$(gt_psql -d gametree_bench -qAt -c "SELECT gametree.perft('connectFour', gametree.initial('connectFour'), 5)")
[ "$c" = 32768 ] || { echo "connectFour.kif perft 5 is $c, not 32768" >&2; exit 1; }

out=$(perft_warm ticTacToe_kif 9); read -r ttt_n ttt_s ttt_first <<<"$out"
out=$(perft_warm tictactoe 9); read -r nttt_n nttt_s _ <<<"$out"
out=$(perft_warm connectFour 7); read -r c8_n c8_s c8_first <<<"$out"
out=$(perft_warm connect4_kif 8); read -r c4k_n c4k_s c4k_first <<<"$out"
out=$(perft_warm connect4 8); read -r nc4_n nc4_s _ <<<"$out"
[ "$ttt_n" = "$nttt_n" ] || { echo "ticTacToe.kif perft 9 is $ttt_n, native tictactoe $nttt_n" >&2; exit 1; }
[ "$c4k_n" = "$nc4_n" ] || { echo "connect4.kif perft 8 is $c4k_n, native connect4 $nc4_n" >&2; exit 1; }

printf '%-16s %-22s %10s %9s %12s %10s %12s %8s %s\n' \
	"GDL game" "native" leaves "median s" "nodes/s" "first ms" "native n/s" "ratio" "native median s"
row() {
	awk -v g="$1" -v nat="$2" -v n="$3" -v s="$4" -v f="$5" -v nn="$6" -v ns="$7" 'BEGIN {
		r = n / s; nr = nn / ns
		printf "%-16s %-22s %10d %9.3f %12.0f %10.1f %12.0f %8s %.4f\n", g, nat, n, s, r, f * 1000, nr, sprintf("1/%.1f", nr / r), ns }'
}
row "ticTacToe.kif 9" "tictactoe 9" "$ttt_n" "$ttt_s" "$ttt_first" "$nttt_n" "$nttt_s"
row "connectFour 7" "connect4 8 (7x6)" "$c8_n" "$c8_s" "$c8_first" "$nc4_n" "$nc4_s"
row "connect4_kif 8" "connect4 8, same count" "$c4k_n" "$c4k_s" "$c4k_first" "$nc4_n" "$nc4_s"
echo "(medians of $BENCH_RUNS runs in a warmed session; first ms: perft 1 in a fresh session, compiling the GDL game; ratio = GDL nodes/s / native nodes/s)"

goal() {
	awk -v g="$1" -v n="$2" -v s="$3" -v nn="$4" -v ns="$5" -v want="$6" 'BEGIN {
		k = (nn / ns) / (n / s)
		printf "goal: %s at 1/%d or better of native: 1/%.1f, %s\n", g, want, k, (k <= want) ? "met" : "NOT met" }'
}
goal ticTacToe.kif "$ttt_n" "$ttt_s" "$nttt_n" "$nttt_s" 20
goal connectFour.kif "$c8_n" "$c8_s" "$nc4_n" "$nc4_s" 50
