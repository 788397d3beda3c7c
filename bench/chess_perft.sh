#!/usr/bin/env bash
# Chess perft speed: gametree.perft inside PostgreSQL against Stockfish's
# `go perft` on the same machine in the same run, one core each.  Prints the
# median of 3 runs per position (nodes/s) and the ratio gametree/Stockfish.
# Usage: bash bench/chess_perft.sh [runs]   (see bench/README-chess.md)
source "$(dirname "$0")/../tools/lib.sh"
runs=${1:-3}
stockfish=/usr/games/stockfish
if [ ! -x "$stockfish" ]; then
	gt_log "installing stockfish"
	gt_as_root apt-get install -y -qq stockfish >/dev/null
fi
gt_setup	# holds the install lock until the script ends
cd "$GT_ROOT"
gt_fresh_database gametree_bench
export PGDATABASE=gametree_bench

# name|FEN|depth
positions=(
	"start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6"
	"kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"
)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }

# Seconds of one Stockfish start and quit, subtracted from its perft times.
startup=$(for i in $(seq "$runs"); do
	t0=$(now); printf 'quit\n' | "$stockfish" >/dev/null; t1=$(now)
	echo "$t1 - $t0" | bc -l
done | median)

printf '%-9s %5s %11s %10s %12s %10s %12s %7s\n' position depth nodes "sql s" "sql n/s" "sf s" "sf n/s" ratio
for p in "${positions[@]}"; do
	IFS='|' read -r name fen depth <<<"$p"
	# Per run one session: the first query loads the library and builds the
	# tables; \timing then reports the server time of the perft alone.
	sql_times=()
	nodes=
	for i in $(seq "$runs"); do
		out=$(gt_psql -At -c "SELECT gametree.perft('chess', gametree.from_fen('chess', '$fen'), 1)" \
			-c '\timing on' -c "SELECT gametree.perft('chess', gametree.from_fen('chess', '$fen'), $depth)")
		nodes=$(echo "$out" | grep -E '^[0-9]+$' | tail -1)
		sql_times+=("$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ print $1 / 1000 }')")
	done
	sql_s=$(printf '%s\n' "${sql_times[@]}" | median)

	sf_s=$(for i in $(seq "$runs"); do
		t0=$(now)
		sf_nodes=$(printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$depth" | "$stockfish" |
			sed -n 's/^Nodes searched: //p')
		t1=$(now)
		[ "$sf_nodes" = "$nodes" ] || { echo "stockfish counts $sf_nodes, gametree $nodes" >&2; exit 1; }
		echo "$t1 - $t0 - $startup" | bc -l
	done | median)

	printf '%-9s %5s %11s %10.3f %12.0f %10.3f %12.0f %7.2f\n' "$name" "$depth" "$nodes" \
		"$sql_s" "$(echo "$nodes / $sql_s" | bc -l)" "$sf_s" "$(echo "$nodes / $sf_s" | bc -l)" \
		"$(echo "$sf_s / $sql_s" | bc -l)"
done
echo "ratio = gametree nodes/s / Stockfish nodes/s (Stockfish time less its start-up, ${startup}s)"
