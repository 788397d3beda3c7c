#!/usr/bin/env bash
# test/t/crash_check.sh: is a tree consistent after the server crashes in the
# middle of gametree.grow, and does a second grow finish it into exactly the
# tree that an uninterrupted grow makes?
#
#   bash test/t/crash_check.sh
#
# It uses the installed extension (it neither builds nor installs; run
# tools/demo.sh or tools/check.sh first) and a throwaway cluster of its own:
# initdb into a fresh mktemp -d directory, a unix socket there, port 5449
# (GAMETREE_CRASH_PORT), removed on exit. The shared cluster in .cluster/ is
# never touched. In one database it grows three connect four trees to
# GAMETREE_CRASH_DEPTH plies (default 7, about 5 s):
#   ref  uninterrupted, the reference;
#   k    the growing backend is killed with kill -9 (the postmaster then
#        restarts every backend and recovers), then grown again;
#   i    the server is stopped with pg_ctl stop -m immediate and started
#        again, then the tree is grown again.
# After each crash the tree is checked for consistency, and after the second
# grow it is compared with ref, row for row.
#
# The crash comes once the grow's row in gametree.grow_progress shows that
# its committed batches expanded a share of the states that ref's grow
# expanded: GAMETREE_CRASH_KILL_AT (default 0.5: in the middle of the
# expansion) for kill -9, GAMETREE_CRASH_STOP_AT (default 1: every batch is
# committed, the final propagation runs) for the immediate stop. Any share
# above 0 means at least one committed batch. The interrupted grows run
# with gametree.propagate_interval = GAMETREE_CRASH_PROPAGATE_MS (default
# 1000), so that the crash also finds values propagated in between; the
# reference and the second grows keep the default (5 minutes, more than
# they take). GAMETREE_CRASH_KEEP=1 keeps the cluster's directory (server log
# included) instead of removing it.
#
# Output: `ok N - ...` / `not ok N - ...` lines, `# ...` notes and timings,
# then `N passed, N failed`; the exit status is non-zero when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"

PORT=${GAMETREE_CRASH_PORT:-5449}
DEPTH=${GAMETREE_CRASH_DEPTH:-7}
GAME=connect4
DB=gametree_crash

if [ "$PORT" = "${GAMETREE_PORT:-5439}" ] || [ "$PORT" = 5439 ]; then
	echo "GAMETREE_CRASH_PORT must differ from the shared cluster's port ($PORT)" >&2
	exit 2
fi
KILL_AT=${GAMETREE_CRASH_KILL_AT:-0.5}
STOP_AT=${GAMETREE_CRASH_STOP_AT:-1}
PROPAGATE_MS=${GAMETREE_CRASH_PROPAGATE_MS:-1000}
case $PROPAGATE_MS in '' | *[!0-9]*) echo "GAMETREE_CRASH_PROPAGATE_MS must be a number" >&2; exit 2 ;; esac
case $DEPTH in '' | *[!0-9]*) echo "GAMETREE_CRASH_DEPTH must be a number" >&2; exit 2 ;; esac
for share in "$KILL_AT" "$STOP_AT"; do
	awk -v x="$share" 'BEGIN { exit !(x ~ /^[0-9]*\.?[0-9]+$/ && x + 0 <= 1) }' ||
		{ echo "GAMETREE_CRASH_KILL_AT and GAMETREE_CRASH_STOP_AT are shares from 0 to 1" >&2; exit 2; }
done

# The extension must be installed already: this script does not build.
SHAREDIR=$("$GT_PGBIN/pg_config" --sharedir)
PKGLIBDIR=$("$GT_PGBIN/pg_config" --pkglibdir)
if [ ! -f "$SHAREDIR/extension/gametree.control" ] || [ ! -f "$PKGLIBDIR/gametree.so" ]; then
	echo "gametree is not installed for $GT_PGBIN (no $SHAREDIR/extension/gametree.control" \
		"or $PKGLIBDIR/gametree.so): install it first, e.g. with bash tools/demo.sh" >&2
	exit 2
fi

# ---------------------------------------------------------------- the cluster

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-crash.XXXXXX")
DATA=$WORK/data
SERVER_LOG=$WORK/server.log
BG_PID=

cleanup() {
	local status=$?
	if [ -n "$BG_PID" ] && kill -0 "$BG_PID" 2>/dev/null; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
	if [ -f "$DATA/postmaster.pid" ]; then
		gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	if [ "${GAMETREE_CRASH_KEEP:-0}" = 1 ]; then
		gt_log "kept $WORK (server log: $SERVER_LOG)"
	else
		rm -rf "$WORK"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir "$WORK/socket"
[ "$(id -u)" -eq 0 ] && chown -R "$(gt_cluster_user)" "$WORK"
export PGHOST=$WORK/socket PGPORT=$PORT PGUSER=postgres PGDATABASE=$DB
unset PGSERVICE PGOPTIONS

start_server() {
	# Like gt_start_cluster: the server must not inherit our descriptors.
	(
		for fd in $(ls "/proc/$BASHPID/fd"); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
		gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$DATA" -l "$SERVER_LOG" -w -t 300 \
			-o "-k '$PGHOST' -p $PORT -c listen_addresses='' -c restart_after_crash=on" \
			start >/dev/null
	)
}


# ------------------------------------------------------------------- checks

finish() {
	note "time: total $(since "$TOTAL_START") s"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] && exit 0
	exit 1
}

# now, since, q, none and same are tools/lib.sh's (times; a query on $DB, no rows, the same rows).

# The structure of tree $1 holds together: run after a crash, before it is
# grown again, and once more after.
consistency() {
	local t=$1 when=$2 s=${1}_states g=${1}_graph m=${1}_moves
	none "$t $when: every edge's init_id is a state" \
		"SELECT g.init_id, g.move_id FROM $g g WHERE NOT EXISTS (SELECT FROM $s s WHERE s.id = g.init_id)"
	none "$t $when: every edge's next_id is a state" \
		"SELECT g.init_id, g.move_id, g.next_id FROM $g g WHERE NOT EXISTS (SELECT FROM $s s WHERE s.id = g.next_id)"
	none "$t $when: every edge's move_id is a move" \
		"SELECT g.init_id, g.move_id FROM $g g WHERE NOT EXISTS (SELECT FROM $m m WHERE m.id = g.move_id)"
	none "$t $when: every expanded non-terminal state has an edge" \
		"SELECT s.id, s.depth FROM $s s WHERE s.expanded AND s.goal IS NULL
		   AND NOT EXISTS (SELECT FROM $g g WHERE g.init_id = s.id)"
	none "$t $when: no unexpanded state has an edge" \
		"SELECT s.id, s.depth FROM $s s WHERE NOT s.expanded AND EXISTS (SELECT FROM $g g WHERE g.init_id = s.id)"
	none "$t $when: every expanded non-terminal state has one edge per legal move" \
		"SELECT s.id, s.depth, coalesce(e.n, 0) AS edges, l.n AS legal
		 FROM $s s LEFT JOIN (SELECT init_id, count(*) AS n FROM $g GROUP BY init_id) e ON e.init_id = s.id
		 CROSS JOIN LATERAL (SELECT count(*) AS n FROM gametree.legal('$GAME', s.state)) l
		 WHERE s.expanded AND s.goal IS NULL AND coalesce(e.n, 0) <> l.n"
	none "$t $when: terminal states are expanded, others are expanded only above max_depth" \
		"SELECT s.id, s.depth, s.expanded, s.goal FROM $s s
		 WHERE (s.goal IS NOT NULL AND NOT s.expanded) OR (s.goal IS NULL AND s.expanded AND s.depth >= $DEPTH)"
	none "$t $when: no edge leads more than one ply deeper (breadth first depths)" \
		"SELECT g.init_id, a.depth, g.next_id, b.depth FROM $g g JOIN $s a ON a.id = g.init_id
		 JOIN $s b ON b.id = g.next_id WHERE b.depth > a.depth + 1"
	none "$t $when: with nothing pending, every edge carries the utility, mobility and proven flag of the state it leads to" \
		"SELECT g.init_id, g.move_id, g.utility, b.utility AS next_utility, g.mobility, b.mobility AS next_mobility,
		        g.proven, b.proven AS next_proven
		 FROM $g g JOIN $s b ON b.id = g.next_id
		 WHERE (SELECT pending FROM gametree.tree_info('$t')) = 0
		   AND (g.utility, g.mobility, g.proven) IS DISTINCT FROM
		       (CASE WHEN b.expanded THEN b.utility ELSE gametree.heuristic(b.state) END, b.mobility, b.proven)"
	none "$t $when: with nothing pending, every expanded non-terminal state has the best utility of its edges for the role in control" \
		"SELECT s.id, s.depth, s.control, s.utility, e.best
		 FROM $s s JOIN (SELECT init_id, max((utility ->> c.control)::numeric) AS best
		                 FROM $g JOIN (SELECT id, control FROM $s) c ON c.id = init_id GROUP BY init_id) e
		      ON e.init_id = s.id
		 WHERE (SELECT pending FROM gametree.tree_info('$t')) = 0
		   AND s.expanded AND s.goal IS NULL AND s.control IS NOT NULL
		   AND (s.utility ->> s.control)::numeric IS DISTINCT FROM e.best"
	none "$t $when: the counts depth_stats, outcomes and tree_stats read equal the real counts" \
		"$(gt_counts_differ_sql "'$t'" "$s" "$g" "$m")"
	none "$t $when: gametree.trees counters (states, edges, frontier) equal the real counts" \
		"SELECT c.states, c.edges, c.frontier, r.states AS real_states, r.edges AS real_edges,
		        r.frontier AS real_frontier
		 FROM gametree.tree_info('$t') c,
		      (SELECT (SELECT count(*) FROM $s) AS states, (SELECT count(*) FROM $g) AS edges,
		              (SELECT count(*) FROM $s WHERE NOT expanded) AS frontier) r
		 WHERE (c.states, c.edges, c.frontier) IS DISTINCT FROM (r.states, r.edges, r.frontier)"
}

# Tree $1, grown to the end after its crash, equals the reference tree.
compare_with_ref() {
	local t=$1 when=$2
	same "$t $when: states (id, state, goal, depth, control, expanded) equal ref's" \
		"SELECT id, state, goal, depth, control, expanded FROM ${t}_states" \
		"SELECT id, state, goal, depth, control, expanded FROM ref_states"
	same "$t $when: moves (id, move) equal ref's" \
		"SELECT id, move FROM ${t}_moves" "SELECT id, move FROM ref_moves"
	same "$t $when: edges (init_id, move_id, next_id) equal ref's" \
		"SELECT init_id, move_id, next_id FROM ${t}_graph" "SELECT init_id, move_id, next_id FROM ref_graph"
	same "$t $when: state values (utility, mobility, proven, best_move) equal ref's" \
		"SELECT id, utility, mobility, proven, best_move FROM ${t}_states" \
		"SELECT id, utility, mobility, proven, best_move FROM ref_states"
	same "$t $when: edge values (utility, mobility, proven) equal ref's" \
		"SELECT init_id, move_id, utility, mobility, proven FROM ${t}_graph" \
		"SELECT init_id, move_id, utility, mobility, proven FROM ref_graph"
	none "$t $when: the root's utility, mobility and proven flag equal ref's" \
		"SELECT a.utility, b.utility AS ref_utility, a.mobility, b.mobility AS ref_mobility,
		        a.proven, b.proven AS ref_proven
		 FROM ${t}_states a JOIN ref_states b ON b.id = a.id WHERE a.depth = 0
		   AND (a.utility, a.mobility, a.proven) IS DISTINCT FROM (b.utility, b.mobility, b.proven)"
	none "$t $when: gametree.trees counters equal ref's" \
		"SELECT a.states, a.edges, a.frontier, b.states, b.edges, b.frontier
		 FROM gametree.tree_info('$t') a, gametree.tree_info('ref') b
		 WHERE (a.states, a.edges, a.frontier) IS DISTINCT FROM (b.states, b.edges, b.frontier)"
}

# A one-line fingerprint of a tree's rows, for the notes.
fingerprint() {
	q "SELECT format('states %s, edges %s, frontier %s, pending %s, md5 %s/%s', c.states, c.edges, c.frontier,
	          c.pending,
	          left((SELECT md5(string_agg(format('%s %s %s %s %s %s %s', id, state, depth, expanded,
	                                              utility, mobility, proven), E'\n' ORDER BY id))
	                FROM ${1}_states), 8),
	          left((SELECT md5(string_agg(format('%s %s %s %s %s %s', init_id, move_id, next_id,
	                                              utility, mobility, proven), E'\n' ORDER BY init_id, move_id))
	                FROM ${1}_graph), 8))
	   FROM gametree.tree_info('$1') c"
}

# grow tree $1 to DEPTH in its own session; prints the session's pid.
grow() {
	gt_psql -qAt -d "$DB" -c "SET client_min_messages = warning" -c "SELECT pg_backend_pid()" \
		-c "CALL gametree.grow('$1', max_depth => $DEPTH)"
}

# The expanded count in the grow_progress row of backend $1, or nothing.
progress_expanded() { q "SELECT expanded FROM gametree.grow_progress WHERE pid = $1"; }

# The grow_progress row of backend $1 (pid, expanded, done), or nothing.
progress_row() {
	q "SELECT format('pid %s, expanded %s, done %s', pid, expanded, CASE WHEN done THEN 'true' ELSE 'false' END)
	   FROM gametree.grow_progress WHERE pid = $1"
}

# Starts growing tree $1 in the background and waits until its committed
# batches expanded at least $2 states (at least 1); sets GROW_PID (the
# backend).
start_background_grow() {
	local t=$1 want=$2 started out
	gt_psql -q -d "$DB" -c "SET client_min_messages = warning" -c "SET gametree.propagate_interval = $PROPAGATE_MS" \
		-c "CALL gametree.grow('$t', max_depth => $DEPTH)" >"$WORK/grow_$t.out" 2>&1 &
	BG_PID=$!
	started=$(now)
	GROW_PID=
	while [ -z "$GROW_PID" ]; do
		if ! kill -0 "$BG_PID" 2>/dev/null; then
			wait "$BG_PID" || true
			BG_PID=
			not_ok "$t: grow still running after $want expansions" \
				"it ended first (set the share lower): $(cat "$WORK/grow_$t.out")"
			return 1
		fi
		out=$(q "SELECT p.pid FROM gametree.grow_progress p JOIN pg_stat_activity a ON a.pid = p.pid
		         WHERE a.datname = current_database() AND a.query LIKE 'CALL gametree.grow(''$t''%'
		           AND p.expanded >= greatest($want, 1) AND NOT p.done" 2>/dev/null || true)
		[ -n "$out" ] && GROW_PID=$out || sleep 0.02
	done
	note "grow of $t: $want or more expansions committed after $(since "$started") s (backend pid $GROW_PID)"
}

# Is backend $1 still inside its CALL, with its progress row not done?
still_growing() {
	[ "$(q "SELECT count(*) FROM pg_stat_activity a JOIN gametree.grow_progress p ON p.pid = a.pid
	        WHERE a.pid = $1 AND a.state = 'active' AND a.query LIKE 'CALL gametree.grow(%'
	          AND NOT p.done" 2>/dev/null)" = 1 ]
}

# Waits for the background grow's psql; GROW_STATUS: its exit status (0:
# the CALL ended before the crash).
wait_background_grow() {
	GROW_STATUS=0
	wait "$BG_PID" || GROW_STATUS=$?
	BG_PID=
	note "the interrupted psql exited with status $GROW_STATUS: $(tr '\n' ' ' <"$WORK/grow_$1.out")"
}

ready_count() { grep -c 'database system is ready to accept connections' "$SERVER_LOG" || true; }

# Waits until the server log has more than $1 "ready to accept connections"
# lines and a connection works.
wait_for_server() {
	local started=$(now)
	until [ "$(ready_count)" -gt "$1" ] && q "SELECT 1" >/dev/null 2>&1; do
		if awk -v a="$started" -v b="$(now)" 'BEGIN { exit !(b - a > 300) }'; then
			echo "the server did not accept connections within 300 s; log: $(tail -n 20 "$SERVER_LOG")" >&2
			return 1
		fi
		sleep 0.1
	done
}

log_lines() { wc -l <"$SERVER_LOG"; }

# The server log from line $1 on.
log_since() { tail -n "+$1" "$SERVER_LOG"; }

# After the crash of tree $1's grow (dead session $2): report, check, grow
# again, compare.
after_crash() {
	local t=$1 pid=$2 row dead_expanded resumed_expanded started resumed_pid out
	note "$t after the crash: $(fingerprint "$t")"
	row=$(progress_row "$pid")
	dead_expanded=$(progress_expanded "$pid")
	note "$t: gametree.grow_progress row of the dead session: ${row:-none}"
	# The crash may come just after the CALL ended (the final propagation
	# is short): then, and only then, the row says done.
	if [ "$GROW_STATUS" = 0 ]; then
		if [[ $row == *"done true"* ]]; then
			ok "$t: the grow ended just before the crash, and its grow_progress row says done = true"
		else
			not_ok "$t: the grow ended just before the crash, and its grow_progress row says done = true" "$row"
		fi
	elif [ -n "$row" ] && [[ $row == *"done true"* ]]; then
		not_ok "$t: the dead session's grow_progress row does not claim done = true" "$row"
	else
		ok "$t: the dead session's grow_progress row does not claim done = true"
	fi
	started=$(now)
	consistency "$t" "after the crash"
	note "time: consistency checks of $t after the crash $(since "$started") s"

	started=$(now)
	if out=$(grow "$t" 2>&1); then
		resumed_pid=$(head -n1 <<<"$out")
		resumed_expanded=$(progress_expanded "$resumed_pid")
		ok "$t: a second grow in the same database (next to the dead session's row) succeeds"
	else
		resumed_expanded=
		not_ok "$t: a second grow in the same database (next to the dead session's row) succeeds" "$out"
	fi
	note "time: second grow of $t $(since "$started") s"
	note "$t after the second grow: $(fingerprint "$t")"
	note "$t: gametree.grow_progress now: $(q "SELECT coalesce(string_agg(format('pid %s, expanded %s, done %s',
	        pid, expanded, CASE WHEN done THEN 'true' ELSE 'false' END), '; ' ORDER BY pid), 'no rows')
	        FROM gametree.grow_progress")"
	# The dead session's row is recognised as such (its pid and start name no
	# live session) and removed when the next grow starts.
	if [ "$(q "SELECT count(*) FROM gametree.grow_progress WHERE pid = $pid AND NOT done")" = 0 ]; then
		ok "$t: the next grow removed the dead session's grow_progress row"
	else
		not_ok "$t: the next grow removed the dead session's grow_progress row" "$(progress_row "$pid")"
	fi

	# Both sessions together expanded what the reference session expanded.
	if [ -n "$dead_expanded" ] && [ -n "$resumed_expanded" ]; then
		if [ $((dead_expanded + resumed_expanded)) -eq "$REF_EXPANDED" ]; then
			ok "$t: expanded by the dead session + by the second grow = by ref's grow ($dead_expanded + $resumed_expanded = $REF_EXPANDED)"
		else
			not_ok "$t: expanded by the dead session + by the second grow = by ref's grow" \
				"$dead_expanded + $resumed_expanded <> $REF_EXPANDED"
		fi
	else
		ok "$t: expanded by the dead session + by the second grow = by ref's grow # SKIP grow_progress row missing (dead: '$dead_expanded', second: '$resumed_expanded')"
	fi

	started=$(now)
	consistency "$t" "after the second grow"
	compare_with_ref "$t" "after the second grow"
	note "time: checks of $t after the second grow $(since "$started") s"
}

# -------------------------------------------------------------------- run

TOTAL_START=$(now)
gt_log "throwaway cluster in $WORK (socket, port $PORT)"
t0=$(now)
gt_as_cluster_user "$GT_PGBIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --no-locale \
	>"$WORK/initdb.log"
start_server
note "time: initdb and start $(since "$t0") s"

# CREATE EXTENSION may meet a concurrent make install half done: try again.
for try in 1 2 3; do
	if out=$(gt_fresh_database "$DB" 2>&1); then break; fi
	[ "$try" = 3 ] && { echo "could not create the database $DB with gametree: $out" >&2; exit 1; }
	gt_log "creating the extension failed, trying again: $out"
	sleep 3
done
note "gametree $(q "SELECT extversion FROM pg_extension WHERE extname = 'gametree'"), $GAME from $((DEPTH > 3 ? DEPTH - 3 : 1)) to $DEPTH plies"
q "SELECT gametree.create_tree(t, '$GAME') FROM unnest(ARRAY['ref', 'k', 'i']) t" >/dev/null
# Each tree is grown to PRE_DEPTH first: a batch that holds the whole
# frontier, as a fresh tree's first one does, goes on in memory and would
# grow the tree in one batch, leaving nothing to interrupt.  From there the
# grows take the frontier in batches and end with a propagation.
PRE_DEPTH=$((DEPTH > 3 ? DEPTH - 3 : 1))
for t in ref k i; do q "CALL gametree.grow('$t', max_depth => $PRE_DEPTH)" >/dev/null; done
PRE_EXPANDED=$(q "SELECT count(*) FROM ref_states WHERE expanded AND goal IS NULL")

# 1. The reference, uninterrupted.
gt_log "1. reference: grow ref to depth $DEPTH"
t0=$(now)
out=$(grow ref 2>&1) || { not_ok "ref: grow succeeds" "$out"; finish; }
REF_TIME=$(since "$t0")
ok "ref: grow succeeds"
note "time: reference grow $REF_TIME s"
note "ref: $(fingerprint ref)"
# The states a grow expands: every non-terminal one it marked expanded
# beyond those of the grow to PRE_DEPTH.
REF_EXPANDED=$(($(q "SELECT count(*) FROM ref_states WHERE expanded AND goal IS NULL") - PRE_EXPANDED))
none "ref: its grow_progress row counts every non-terminal state it expanded ($REF_EXPANDED)" \
	"SELECT x.pid, p.expanded FROM (SELECT $(head -n1 <<<"$out") AS pid) x
	 LEFT JOIN gametree.grow_progress p ON p.pid = x.pid WHERE p.expanded IS DISTINCT FROM $REF_EXPANDED"
t0=$(now)
consistency ref "uninterrupted"
none "ref: nothing is pending after grow" "SELECT pending FROM gametree.tree_info('ref') WHERE pending <> 0"
note "time: consistency checks of ref $(since "$t0") s"
KILL_WANT=$(awk -v x="$KILL_AT" -v n="$REF_EXPANDED" 'BEGIN { k = int(x * n + 0.999999); print (k < 1 ? 1 : k) }')
STOP_WANT=$(awk -v x="$STOP_AT" -v n="$REF_EXPANDED" 'BEGIN { k = int(x * n + 0.999999); print (k < 1 ? 1 : k) }')

# crash_during_grow TREE WANT WHAT CRASH RECOVERED_LINE: starts a grow of
# TREE, and once it has expanded WANT states runs the function CRASH (which
# sets CRASHED_AT); then waits for the server, checks that its log shows
# RECOVERED_LINE, and checks the tree (after_crash).
crash_during_grow() {
	local t=$1 want=$2 what=$3 crash=$4 recovered=$5 t0 readies from
	t0=$(now)
	start_background_grow "$t" "$want" || finish
	VICTIM=$GROW_PID
	if still_growing "$VICTIM"; then
		note "$t: at $what: $(progress_row "$VICTIM") (ref's grow expanded $REF_EXPANDED)"
		ok "$t: grow still running at $what"
	else
		not_ok "$t: grow still running at $what" \
			"it ended first; lower GAMETREE_CRASH_KILL_AT or _STOP_AT (now $(progress_row "$VICTIM"))"
	fi
	readies=$(ready_count)
	from=$(($(log_lines) + 1))
	"$crash"
	wait_background_grow "$t"
	[ "$crash" = stop_immediately ] && start_server
	wait_for_server "$readies"
	note "time: grow of $t until $what $(awk -v a="$t0" -v b="$CRASHED_AT" 'BEGIN { printf "%.2f", b - a }') s," \
		"recovery until connections are accepted $(since "$CRASHED_AT") s"
	if log_since "$from" | grep -F "$recovered" >/dev/null; then
		ok "$t: the server recovered after $what"
	else
		not_ok "$t: the server recovered after $what" "$(log_since "$from")"
	fi
	after_crash "$t" "$VICTIM"
}

# kill -9 of the growing backend: the postmaster restarts all backends.
kill_backend() {
	kill -KILL "$VICTIM"
	CRASHED_AT=$(now)
}

stop_immediately() {
	gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null
	CRASHED_AT=$(now)
}

gt_log "2. kill -9 the backend growing k"
crash_during_grow k "$KILL_WANT" "kill -9" kill_backend "all server processes terminated; reinitializing"
gt_log "3. pg_ctl stop -m immediate while i grows"
crash_during_grow i "$STOP_WANT" "the immediate stop" stop_immediately \
	"database system was not properly shut down; automatic recovery in progress"
finish
