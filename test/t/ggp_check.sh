#!/usr/bin/env bash
# test/t/ggp_check.sh: the General Game Playing player (gametree ggp) driven
# over HTTP by a game manager of the project's own (tools/ggp_manager.py),
# every player a real client/gametree process on a loopback port.
#
#   bash test/t/ggp_check.sh
#
# It uses the installed extension (run tools/check.sh first), builds the
# client when it is missing, starts the private cluster when it is not
# running and works in a database of its own, gametree_ggp, dropped at the
# end with the players stopped.  Matches: ticTacToe, connect4 and
# breakthrough (two gametree players), tictactoe_3player (three),
# roshambo2 and blocker (simultaneous moves), two matches at once on the
# same players, and a match that hostile requests (a bad S-expression, an
# unknown match, 10 MB of body, a connection half closed, too slow) run
# beside; chess.kif on a start clock shorter than its network's compile
# (the prover, then the network compiled after the match); then every one of the 16 samples of test/data/gdl for three
# plies and an (abort ...), one player per role (up to six).  Every reply must be well-formed, legal and within its clock;
# each player's record in gametree.matches must hold the manager's moves,
# final state and goals, and replay to them.  About four minutes.
#
# Output: TAP; the exit status is 1 when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

CLIENT="$GT_ROOT/client/gametree"
MANAGER="$GT_ROOT/tools/ggp_manager.py"
DB=gametree_ggp
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-ggp.XXXXXX")
# The players' ports: free ones above the private cluster's, one per player process.
BASE_PORT=$((${GAMETREE_PORT:-5439} + 4000))
PLAYERS=()

cleanup() {
	for pid in "${PLAYERS[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${PLAYERS[@]}"; do wait "$pid" 2>/dev/null; done
	gt_drop_database "$DB"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_client_test_setup "$DB"
export GT_PSQL="$GT_PGBIN/psql"

q() { gt_psql -At -d "$DB" -c "$1"; }

# start_player N [OPTIONS]: player N on port BASE_PORT + N, its log in $WORK/player<N>.log.
start_player() {
	local n=$1; shift
	"$CLIENT" ggp --http-port $((BASE_PORT + n)) "$@" 2>"$WORK/player$n.log" &
	PLAYERS[$n]=$!
	for _ in $(seq 50); do
		curl -s -m 1 -X POST --data-binary '(info)' "http://127.0.0.1:$((BASE_PORT + n))/" >/dev/null && return 0
		sleep 0.1
	done
	echo "Bail out! player $n did not start: $(cat "$WORK/player$n.log")"
	exit 1
}
url() { echo "http://127.0.0.1:$((BASE_PORT + $1))/"; }

# The manager's copies of the games: its rules, under names of its own.
for f in ticTacToe connect4 breakthrough tictactoe_3player roshambo2 blocker; do
	gt_psql -q -d "$DB" -v kif="$(cat "$GT_ROOT/test/data/gdl/$f.kif")" \
		<<<"SELECT FROM gametree.load_game('mgr_$f', :'kif')" >/dev/null || { echo "Bail out! cannot load $f"; exit 1; }
done

# The players keep the default margin (300 ms) back from each clock: on a
# busy two-core machine a reply has stalled 0.2 s past its search's end,
# which a 150 ms margin on breakthrough's 0.5 s clock did not absorb.
for n in 1 2 3; do start_player "$n"; done

# match NAME ID START PLAY PLAYER... [MANAGER OPTION...]: runs a match; its summary in $WORK/ID.json, status in $WORK/ID.rc.
match() {
	local name=$1 id=$2 start=$3 play=$4; shift 4
	local players=()
	while [ $# -gt 0 ] && [[ $1 != --* ]]; do players+=(--player "$(url "$1")"); shift; done
	python3 "$MANAGER" --kif "$GT_ROOT/test/data/gdl/$name.kif" --game "mgr_$name" --db "$DB" \
		--start "$start" --play "$play" --id "$id" "${players[@]}" "$@" >"$WORK/$id.json" 2>"$WORK/$id.err"
	echo $? >"$WORK/$id.rc"
}

# field ID EXPR: a value of the match's summary (python expression over s).
field() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$WORK/$1.json" 2>/dev/null; }

# ended ID: waits (20 s at most) for the players to end their records of the match, which they do after replying to the stop or abort.
ended() {
	for _ in $(seq 200); do
		[ "$(q "SELECT count(*) FROM gametree.matches WHERE match_id = '$1' AND status = 'playing'")" = 0 ] && return
		sleep 0.1
	done
}

# check_match ID: every reply well-formed, legal and in time, and each player's record equal to the manager's match.
check_match() {
	local id=$1 rc; rc=$(cat "$WORK/$id.rc")
	ended "$id"
	if [ "$rc" = 0 ]; then
		ok "$id: $(field "$id" "len(s['moves'])") joint moves, goals $(field "$id" "json.dumps(s['goals'])"), every reply legal and within its clock (worst margin $(field "$id" "s['worst_margin']") s)"
	else
		not_ok "$id: the match ran without errors" "$(cat "$WORK/$id.err"; field "$id" "json.dumps([r for r in s['replies'] if r['error']])")"
		return
	fi
	local state goals nmoves players
	state=$(field "$id" "json.dumps(s['state'])")
	goals=$(field "$id" "json.dumps(s['goals'])")
	nmoves=$(field "$id" "len(s['moves'])")
	players=$(field "$id" "len(s['roles'])")
	local bad
	bad=$(q "SELECT count(*) FROM gametree.matches
	         WHERE match_id = '$id' AND status = 'done' AND state = '$state'::jsonb AND goals = '$goals'::jsonb
	           AND jsonb_array_length(moves) = $nmoves AND tree IS NULL")
	if [ "$bad" = "$players" ]; then
		ok "$id: the $players players' records hold the manager's $nmoves moves, final state and goals; their trees are dropped"
	else
		not_ok "$id: $players records of the match as the manager played it" \
			"$(q "SELECT id, role, status, goals, jsonb_array_length(moves), tree FROM gametree.matches WHERE match_id = '$id'")"
	fi
	# The moves recorded are the manager's, and replay to its final state and goals.
	local manager_moves
	manager_moves=$(field "$id" "json.dumps(s['moves'])")
	bad=$(q "SELECT count(*) FROM gametree.matches m
	         WHERE m.match_id = '$id' AND (m.moves <> '$manager_moves'::jsonb
	            OR (SELECT (r.state, r.goals) FROM gametree.match_replay(m.id) r ORDER BY r.ply DESC LIMIT 1)
	               IS DISTINCT FROM ('$state'::jsonb, '$goals'::jsonb))")
	if [ "$bad" = 0 ]; then
		ok "$id: the records' moves are the manager's and replay to its final state and goals"
	else
		not_ok "$id: the records replay to the manager's final state" \
			"$(q "SELECT m.id, r.ply, r.state, r.goals FROM gametree.matches m, gametree.match_replay(m.id) r WHERE m.match_id = '$id' ORDER BY r.ply DESC LIMIT 3")"
	fi
}

# The protocol's simple requests.
reply=$(curl -s -m 5 -X POST --data-binary '( INFO )' "$(url 1)")
[ "$reply" = "((name gametree) (status available))" ] && ok "(info) answers ((name gametree) (status available))" ||
	not_ok "(info) answers ((name gametree) (status available))" "$reply"
reply=$(curl -s -m 5 -X POST --http1.0 --data-binary '(preview ((role a) (init (p)) (<= (legal a go) (true (p))) (<= (next (p)) (true (p))) (<= terminal (not (true (p)))) (<= (goal a 100) (true (p)))) 10)' "$(url 1)")
[ "$reply" = ready ] && ok "(preview RULES 10) over HTTP/1.0 loads the rules and answers ready" ||
	not_ok "(preview ...) answers ready" "$reply"
headers=$(curl -s -m 5 -i -X OPTIONS "$(url 1)")
grep -qi '^Access-Control-Allow-Origin: \*' <<<"$headers" && grep -q '^HTTP/1.0 200' <<<"$headers" &&
	ok "OPTIONS (a browser's preflight) answers 200 with Access-Control-Allow-Origin: *" ||
	not_ok "OPTIONS answers with the CORS headers" "$headers"

# Two-player matches, one at a time.
match ticTacToe ttt.1 3 1 1 2
check_match ttt.1
match breakthrough bt.1 3 0.5 2 1
check_match bt.1
# Simultaneous moves.
match roshambo2 rps.1 2 1 1 2
check_match rps.1
match blocker blocker.1 2 1 2 1
check_match blocker.1
# Three players, all gametree.
match tictactoe_3player ttt3.1 3 1 1 2 3
check_match ttt3.1

# Two matches at once on the same two players, while hostile requests come in.
match connect4 c4.1 3 1 1 2 &
both=$!
match ticTacToe ttt.2 3 1 2 1 &
other=$!
sleep 4
reply=$(curl -s -m 5 -w ' %{http_code}' -X POST --data-binary '(play ttt.2 ((mark 1 1) noop)' "$(url 1)")
[[ "$reply" == "error: not an S-expression"*" 400" ]] && ok "a request that is no S-expression gets 400 and an error" ||
	not_ok "a bad S-expression gets 400" "$reply"
reply=$(curl -s -m 5 -w ' %{http_code}' -X POST --data-binary '(play no.such.match nil)' "$(url 1)")
[[ "$reply" == "error: no match no.such.match is being played 400" ]] && ok "a play of an unknown match gets 400 and an error" ||
	not_ok "an unknown match gets 400" "$reply"
head -c $((10 * 1024 * 1024)) /dev/zero | tr '\0' '(' >"$WORK/big"
reply=$(curl -s -m 10 -w ' %{http_code}' -X POST --data-binary @"$WORK/big" "$(url 1)" 2>&1)
[[ "$reply" == *"413" || "$reply" == *" 000" ]] && ok "a body of 10 MB is refused (413) before it is read: $(tail -c 60 <<<"$reply")" ||
	not_ok "a body of 10 MB is refused" "$reply"
python3 - "$((BASE_PORT + 1))" <<'EOF' && ok "a connection half closed mid-request, and one that falls silent, are dropped" || not_ok "half-closed and silent connections are dropped"
import socket, sys
port = int(sys.argv[1])
half = socket.create_connection(("127.0.0.1", port))
half.sendall(b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n(play ttt.2")
half.shutdown(socket.SHUT_WR)
half.settimeout(40)
assert half.recv(100) == b"", "a reply to half a request"
half.close()
silent = socket.create_connection(("127.0.0.1", port))
silent.sendall(b"POST / HTTP/1.1\r\nConte")
silent.close()
EOF
wait $both $other
check_match c4.1
check_match ttt.2
grep -q "a connection dropped" "$WORK/player1.log" && ok "the player logged the dropped connections" ||
	not_ok "the player logged the dropped connections" "$(tail -n 20 "$WORK/player1.log")"

# The log: one line per request, with its time.
lines=$(grep -c -- '-> 200 ' "$WORK/player2.log")
[ "$lines" -gt 20 ] && ok "player 2 logged each request with its reply and time ($lines lines)" ||
	not_ok "player 2 logged its requests" "$(tail -n 5 "$WORK/player2.log")"

# A start clock too short for chess.kif's network (about 6 s against 4 s):
# the players load the game on the prover within it, play on it, and after
# the match one of them compiles the network and stores it, which the
# samples' chess match below then finds.
gt_psql -q -d "$DB" -v kif="$(cat "$GT_ROOT/test/data/gdl/chess.kif")" \
	<<<"SELECT FROM gametree.load_game('mgr_chess', :'kif')" >/dev/null
chess_engine() { q "SELECT string_agg(engine, ',') FROM gametree.gdl_games WHERE name LIKE 'ggp\_%' AND kif LIKE '%threatened_with_capture%'"; }
match chess chess.late 4 8 1 2 --max-plies 2
ended chess.late
records=$(q "SELECT count(*) FILTER (WHERE status = 'aborted' AND tree IS NULL
                                      AND moves = '$(field chess.late "json.dumps(s['moves'][:-1])")'::jsonb)
             || '/' || count(*) FROM gametree.matches WHERE match_id = 'chess.late'")
[ "$(cat "$WORK/chess.late.rc")" = 0 ] && [ "$records" = 2/2 ] &&
	ok "chess.late: $(field chess.late "len(s['moves'])") joint moves legal and in time (worst margin $(field chess.late "s['worst_margin']") s), then aborted; $records records" ||
	not_ok "chess.late: legal and in time, and aborted" "rc $(cat "$WORK/chess.late.rc"), records $records; $(cat "$WORK/chess.late.err"; field chess.late "json.dumps([r for r in s['replies'] if r['error']])")"
logged=$(grep -h "chess.late: " "$WORK/player1.log" "$WORK/player2.log" | grep -c "the game's network compiled and stored")
for _ in $(seq 600); do [ "$(chess_engine)" = network ] && [ "$logged" = 1 ] && break; sleep 0.1
	logged=$(grep -h "chess.late: " "$WORK/player1.log" "$WORK/player2.log" | grep -c "the game's network compiled and stored"); done
loads=$(grep -h "chess.late: .* of the start clock left" "$WORK/player1.log" "$WORK/player2.log" | grep -o '[0-9.]* s of the start clock left' | paste -sd, | sed 's/,/, /g')
[ "$(chess_engine)" = network ] && [ "$logged" = 1 ] &&
	ok "chess.kif on a 4 s start clock: both players ready on the prover in time ($loads), the network compiled and stored after the match by the one that loaded the game" ||
	not_ok "chess.kif's network compiled after a match on the prover" "engine $(chess_engine), $logged compiles logged; $(grep -h "chess.late" "$WORK/player1.log" "$WORK/player2.log" | grep -v -- '-> 200' | head -n 8)"

# Every GDL sample, three plies then (abort ...): one player process per role
# (up to six; the three processes serve several roles of a match as other
# matches' players do not: a match id is the player's key).
for kif in "$GT_ROOT"/test/data/gdl/*.kif; do
	f=$(basename "$kif" .kif)
	gt_psql -q -d "$DB" -v kif="$(cat "$kif")" <<<"SELECT FROM gametree.load_game('mgr_$f', :'kif')" >/dev/null 2>&1
	nroles=$(q "SELECT cardinality(roles) FROM gametree.games() WHERE game = 'mgr_$f'")
	[ -n "$nroles" ] || { not_ok "$f loads for the manager"; continue; }
	players=()
	for ((r = 1; r <= nroles; r++)); do players+=($((10 + r))); done
	for p in "${players[@]}"; do [ -n "${PLAYERS[$p]:-}" ] || start_player "$p"; done
	id="sample.$(tr 'A-Z' 'a-z' <<<"$f")"
	# Every player compiles the rules before it can answer, up to six at once on two cores (chineseCheckers3:
	# about 3 s); chess.kif's network, which chess.late stored, is read in about 0.3 s by each player's backend,
	# and its longer clock covers a run where chess.late failed to store it (a load of about 7 s on its own).
	start=8
	[ "$f" = chess ] && start=30
	match "$f" "$id" "$start" 1 "${players[@]}" --max-plies 3
	rc=$(cat "$WORK/$id.rc")
	ended "$id"
	# (abort ...) carries no moves: an aborted match's records lack its last joint move
	records=$(q "SELECT count(*) FILTER (WHERE status = CASE WHEN $(field "$id" "str(s['aborted']).lower()") THEN 'aborted' ELSE 'done' END
	                                      AND tree IS NULL AND moves = '$(field "$id" "json.dumps(s['moves'][:-1] if s['aborted'] else s['moves'])")'::jsonb)
	             || '/' || count(*) FROM gametree.matches WHERE match_id = '$id'")
	if [ "$rc" = 0 ] && [ "$records" = "$nroles/$nroles" ]; then
		ok "$f: $nroles players, $(field "$id" "len(s['moves'])") joint moves legal and in time (worst margin $(field "$id" "s['worst_margin']") s), then $(field "$id" "'aborted' if s['aborted'] else 'over'"); $records records"
	else
		not_ok "$f: $nroles players play, legal and in time, and abort" "rc $rc, records $records; $(cat "$WORK/$id.err"; field "$id" "json.dumps([r for r in s['replies'] if r['error']])"; grep -h -- "$id" "$WORK"/player*.log | grep -v -- '-> 200' | head -n 8)"
	fi
done

# A player stopped (SIGTERM) mid-match aborts it: the record says so, the tree is dropped.
curl -s -m 10 -X POST --data-binary "(start stopped.1 xplayer ($(sed 's/;.*//' "$GT_ROOT/test/data/gdl/ticTacToe.kif" | tr -s '\r\n\t' ' ')) 2 1)" "$(url 3)" >"$WORK/start3"
kill -TERM "${PLAYERS[3]}"
wait "${PLAYERS[3]}"
status=$?
row=$(q "SELECT status, tree IS NULL, goals IS NULL FROM gametree.matches WHERE match_id = 'stopped.1'")
[ "$(cat "$WORK/start3")" = ready ] && [ "$status" = 0 ] && [ "$row" = "aborted|t|t" ] &&
	ok "SIGTERM stops the player (status 0) and aborts its match: record aborted, tree dropped" ||
	not_ok "SIGTERM aborts the matches" "start: $(cat "$WORK/start3"), exit $status, record $row; $(tail -n 3 "$WORK/player3.log")"
none_left=$(q "SELECT count(*) FROM gametree.trees WHERE name LIKE 'ggp\_%'")
[ "$none_left" = 0 ] && ok "no match tree is left behind" || not_ok "no match tree is left behind" "$none_left trees"

echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
