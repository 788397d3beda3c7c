#!/usr/bin/env bash
# GDL load-and-compile time: gametree.load_game of each KIF file in
# test/data/gdl (parse, checks, grounding, the propositional network or the
# prover, and storing the row in gametree.gdl_games), median of BENCH_RUNS
# loads, each in a fresh session and followed by unload_game (not timed).
# Each file is loaded as <file>_kif (native games own tictactoe, connect4,
# chess and checkers).  Then chess.kif's perft 3 on the prover (8,902
# leaves; 20 and 400 at depths 1 and 2 are checked too), median of
# BENCH_RUNS runs in one session warmed by perft 1, whose time (compiling
# the game in a fresh backend) is shown as well.
#
# Before that, chess.kif's first use in a fresh session (gametree.initial,
# which compiles it), median of BENCH_RUNS sessions; and before that its
# load with gametree.gdl_network_time at 1, 2 and 4 s (the prover, once
# the network is given up) against none (its network).
#
# chess.kif takes about 7.5 s to load (its network) and, on the prover
# (at gametree.gdl_memory 512MB), 0.2 s to compile on first use;
# BENCH_RUNS defaults to 3 here: about three minutes in all.
#
#   bash bench/gdl_load.sh             # BENCH_RUNS=3 by default
#   BENCH_RUNS=5 bash bench/gdl_load.sh
BENCH_RUNS=${BENCH_RUNS:-3}
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
cd "$GT_ROOT"

psql_timed() { timeout 600 "$GT_PGBIN/psql" -X -v ON_ERROR_STOP=1 -d gametree_bench -qAt "$@"; }

median() { sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

gt_psql -q -d gametree_bench -c "CREATE TABLE bench_kif (name text PRIMARY KEY, kif text NOT NULL)"
for f in test/data/gdl/*.kif; do
	gt_psql -q -d gametree_bench -v name="$(basename "$f" .kif)" -v kif="$(cat "$f")" \
		<<<"INSERT INTO bench_kif VALUES (:'name', :'kif');"
done

printf '%-28s %-8s %6s %8s %12s %7s %10s\n' file engine facts actions "rules" nodes "median ms"
# loads FILE NETWORK_MS: BENCH_RUNS loads of FILE as FILE_kif with
# gametree.gdl_network_time NETWORK_MS, each in a fresh session and followed
# by an untimed unload_game; prints "engine facts actions rules nodes
# median_ms".
loads() {
	local f=$1 limit=$2 out info= times=()
	for _ in $(seq "$BENCH_RUNS"); do
		out=$(psql_timed -F ' ' <<-SQL
			SET client_min_messages = warning;
			SET gametree.gdl_network_time = $limit;
			\timing on
			SELECT engine, facts, actions, rules, nodes FROM gametree.load_game('${f}_kif', (SELECT kif FROM bench_kif WHERE name = '$f'));
			\timing off
			SELECT gametree.unload_game('${f}_kif');
		SQL
		)
		info=$(echo "$out" | grep -E '^(network|prover) ')
		times+=("$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')")
	done
	echo "$info $(printf '%s\n' "${times[@]}" | median)"
}

for f in $(gt_psql -d gametree_bench -qAt -c "SELECT name FROM bench_kif ORDER BY lower(name)"); do
	read -r engine facts actions rules nodes ms <<<"$(loads "$f" 0)"
	printf '%-28s %-8s %6d %8d %12d %7d %10.1f\n' "$f.kif" "$engine" "$facts" "$actions" "$rules" "$nodes" "$ms"
done
echo "(load_game alone, median of $BENCH_RUNS loads, each in a fresh session; rules: the network's, 0 on the prover)"

# chess.kif under gametree.gdl_network_time, as a GGP player's start clock
# sets it: the load returns once the network is given up and the prover
# compiled, against the unlimited load (its network) in the same run.
unlimited=
for limit in 0 1000 2000 4000; do
	read -r engine _ _ _ _ ms <<<"$(loads chess "$limit")"
	[ "$limit" = 0 ] && unlimited=$ms
	printf 'chess.kif, gametree.gdl_network_time %5d ms: %-7s median %7.0f ms of %d loads (%.0f ms past the limit), %.2fx the unlimited load\n' \
		"$limit" "$engine" "$ms" "$BENCH_RUNS" "$(awk -v m="$ms" -v l="$limit" 'BEGIN { print (l > 0 ? m - l : 0) }')" \
		"$(awk -v m="$ms" -v u="$unlimited" 'BEGIN { print m / u }')"
done

# chess.kif on the prover (loaded at gametree.gdl_memory 512MB: at the 1GB
# default it runs on its network): its first use in a fresh session
# compiles it (what every `gametree best` pays), median of BENCH_RUNS
# sessions.
gt_psql -qAt -d gametree_bench -c "SET gametree.gdl_memory = '512MB'" \
	-c "SELECT FROM gametree.load_game('chess_kif', (SELECT kif FROM bench_kif WHERE name = 'chess'))"
for _ in $(seq "$BENCH_RUNS"); do
	psql_timed -c '\timing on' -c "SELECT FROM gametree.initial('chess_kif')" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
done | median | awk -v runs="$BENCH_RUNS" '{ printf "chess.kif (prover) first use in a fresh session (compiling): median %.2f s of %d sessions\n", $1 / 1000, runs }'
out=$({
	echo '\timing on'
	for d in 1 2; do echo "SELECT gametree.perft('chess_kif', gametree.initial('chess_kif'), $d);"; done
	for _ in $(seq "$BENCH_RUNS"); do echo "SELECT gametree.perft('chess_kif', gametree.initial('chess_kif'), 3);"; done
} | psql_timed)
echo "$out" | awk -v runs="$BENCH_RUNS" '
	/^Time:/ { t[++nt] = $2 / 1000; next }
	/^[0-9]+$/ { c[++nc] = $1 }
	END {
		if (c[1] != 20 || c[2] != 400) { printf "chess.kif perft 1, 2: %s, %s (want 20, 400)\n", c[1], c[2] > "/dev/stderr"; exit 1 }
		n = 0
		for (i = 3; i <= nc; i++) {
			if (c[i] != 8902) { printf "chess.kif perft 3: %s (want 8902)\n", c[i] > "/dev/stderr"; exit 1 }
			v[++n] = t[i]
		}
		for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "chess.kif (prover) perft 3: 8902 leaves, median %.3f s of %d runs, %.0f nodes/s; perft 2 %.3f s; first perft 1 in a fresh session (compiling) %.1f s\n",
			m, runs, 8902 / m, t[2], t[1]
	}'
