#!/usr/bin/env bash
# bench/ggp_match.sh: the GGP player (gametree ggp, its default search:
# Monte Carlo with the match's tree as memory) against two baselines of the
# project's own, each a gametree ggp process of its own: a uniformly random
# player (--method random) and a plain Monte Carlo player (--method flat:
# random playouts from each action at the root, as ggp-base's
# SampleMonteCarloGamer plays).  The matches are run by tools/ggp_manager.py
# over HTTP, as a game manager would, MATCHES per game and opponent with the
# roles alternating (gametree first in the odd ones).
#
#   bash bench/ggp_match.sh                         # 20 matches each, start 10 s, play 2 s: hours
#   MATCHES=4 GAMES="ticTacToe connect4" bash bench/ggp_match.sh
#   OPPONENTS=flat START=10 PLAY=2 MARGIN=300 bash bench/ggp_match.sh
#   PARALLEL=2 bash bench/ggp_match.sh              # two matches at a time: half the hours
#
# Printed per opponent and game: gametree's wins, draws and losses, its
# score (a win 1, a draw 1/2; the goals: 90% or more against random, 65%
# or more against flat), the median and longest time gametree's replies to
# play took, the least margin left on a clock by any reply of either
# player, and the replies that were errors (late, illegal: none expected).
# Both players run on this machine: while one searches, the other answers
# its noop at once, so each search has a core; PARALLEL matches at a time
# (default 1) keep that while there are as many cores.
source "$(dirname "$0")/bench.sh"
MATCHES=${MATCHES:-20}
GAMES=${GAMES:-ticTacToe connect4 breakthrough}
OPPONENTS=${OPPONENTS:-random flat}
START=${START:-10}
PLAY=${PLAY:-2}
PARALLEL=${PARALLEL:-1}
MARGIN=${MARGIN:-300}
DB=gametree_bench
WORK=$(mktemp -d)
BASE_PORT=$((${GAMETREE_PORT:-5439} + 4100))
PIDS=()
cleanup() {
	local status=$?
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$WORK"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_setup
gt_fresh_database "$DB"
make -s -C "$GT_ROOT/client" >/dev/null
export PGDATABASE=$DB GT_PSQL="$GT_PGBIN/psql"
for g in $GAMES; do
	gt_psql -q -d "$DB" -v kif="$(cat "$GT_ROOT/test/data/gdl/$g.kif")" <<<"SELECT FROM gametree.load_game('mgr_$g', :'kif')" >/dev/null
done

# player PORT OPTIONS...: a player process, waited for until it answers.
player() {
	local port=$1; shift
	"$GT_ROOT/client/gametree" ggp --http-port "$port" --margin "$MARGIN" "$@" 2>>"$WORK/player$port.log" &
	PIDS+=($!)
	for _ in $(seq 50); do
		curl -s -m 1 -X POST --data-binary '(info)' "http://127.0.0.1:$port/" >/dev/null && return
		sleep 0.1
	done
	echo "player on port $port did not start" >&2
	exit 1
}
player $((BASE_PORT + 0))
player $((BASE_PORT + 1)) --method random
player $((BASE_PORT + 2)) --method flat
# The matches running in the background (the players are background jobs too).
wait_matches() { for job in $(jobs -p); do case " ${PIDS[*]} " in *" $job "*) ;; *) wait "$job" ;; esac; done; }
port_of() { case $1 in random) echo $((BASE_PORT + 1)) ;; flat) echo $((BASE_PORT + 2)) ;; esac; }

echo "== gametree ggp against $OPPONENTS on $GAMES: $MATCHES matches each, start clock $START s, play clock $PLAY s, margin $MARGIN ms"
for opponent in $OPPONENTS; do
	for g in $GAMES; do
		for i in $(seq "$MATCHES"); do
			us="http://127.0.0.1:$BASE_PORT/" them="http://127.0.0.1:$(port_of "$opponent")/"
			if [ $((i % 2)) = 1 ]; then first=$us second=$them; else first=$them second=$us; fi
			(
				python3 "$GT_ROOT/tools/ggp_manager.py" --kif "$GT_ROOT/test/data/gdl/$g.kif" --game "mgr_$g" \
					--db "$DB" --start "$START" --play "$PLAY" --id "bench.$opponent.$g.$i" \
					--player "$first" --player "$second" >"$WORK/$opponent.$g.$i.json" 2>>"$WORK/manager.err"
				printf '%s %s %d: %s\n' "$opponent" "$g" "$i" \
					"$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(json.dumps(s['goals']), len(s['moves']), 'moves', s['errors'], 'errors')" "$WORK/$opponent.$g.$i.json" 2>/dev/null)"
			) &
			[ $((i % PARALLEL)) = 0 ] && wait_matches
		done
		wait_matches
	done
done

python3 - "$WORK" "$OPPONENTS" "$GAMES" "$MATCHES" "$PLAY" <<'EOF'
import json, os, statistics, sys
work, opponents, games, matches, play = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), int(sys.argv[4]), float(sys.argv[5])
goal = {"random": 0.90, "flat": 0.65}
print()
print("| opponent | game | matches | wins | draws | losses | score | goal | gametree's play replies: median s | longest s | least margin left s | errors |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for o in opponents:
    total = n_all = 0
    for g in games:
        w = d = l = errors = n = 0
        times, margins = [], []
        for i in range(1, matches + 1):
            path = os.path.join(work, "%s.%s.%d.json" % (o, g, i))
            try:
                s = json.load(open(path))
            except (OSError, ValueError):
                errors += 1
                continue
            n += 1
            ours = s["roles"][0 if i % 2 == 1 else 1]
            mine, theirs = s["goals"][ours], max(v for r, v in s["goals"].items() if r != ours)
            w += mine > theirs
            d += mine == theirs
            l += mine < theirs
            errors += s["errors"]
            if s["worst_margin"] is not None:
                margins.append(s["worst_margin"])
            times += [r["seconds"] for r in s["replies"] if r["role"] == ours and r["request"] == "play"
                      and r["seconds"] is not None and r["seconds"] > 0.05]
        score = (w + d / 2) / n if n else 0
        total += w + d / 2
        n_all += n
        print("| %s | %s | %d | %d | %d | %d | %.0f%% | %.0f%% | %s | %s | %s | %d |" % (
            o, g, n, w, d, l, 100 * score, 100 * goal[o],
            "%.3f" % statistics.median(times) if times else "-", "%.3f" % max(times) if times else "-",
            "%.3f" % min(margins) if margins else "-", errors))
    if n_all:
        print("| %s | all | %d | | | | %.0f%% | %.0f%% | | | | |" % (o, n_all, 100 * total / n_all, 100 * goal[o]))
EOF
