#!/usr/bin/env bash
# test/t/shard_crash_check.sh: does a sharded tree (issue 24) survive a
# node, or its coordinator's session, dying in the middle of a grow, so
# that the next grow finishes it into the tree one server grows
# uninterrupted?  And are sharded trees and their nodes' passwords kept
# from other roles?
#
#   bash test/t/shard_crash_check.sh
#
# It uses the installed extension (it neither builds nor installs; run
# tools/check.sh first), the private cluster of tools/lib.sh as the
# coordinator and three nodes (gt_start_nodes), stopped on exit, each with
# a fresh database gametree_shard_crash, set up as test/t/shard_check.sh
# does.  On the coordinator, one_c4 is connect four grown to
# GT_SHARD_CRASH_DEPTH plies (default 8) on the coordinator alone, and each
# of these is connect four sharded over node1..3, grown to the same depth
# and cut short once:
#
#   c4_kill    kill -9 of node 2's backend running its expansion of depth
#              GT_SHARD_CRASH_DEPTH - 1 (node 2's postmaster then restarts
#              all its backends and recovers);
#   c4_stop    pg_ctl stop -m immediate of node 3 while it stores states
#              shipped to it (gametree.shard_accept) after depth
#              GT_SHARD_CRASH_DEPTH - 2 was expanded; a grow while node 3 is
#              down; node 3 started again;
#   c4_term    pg_terminate_backend of the coordinator's session while the
#              nodes propagate (gametree.shard_propagate);
#   c4_cancel  pg_cancel_backend of the coordinator's session during node
#              2's last expansion, and the next grow in the same session
#              (its dblink links were closed by the cancel).
#
# Each interrupted grow must fail, a node's failure with an error naming
# the node ("node 2 of tree public.c4_kill (server node2): ..."); the next
# grow must succeed, and the tree then equal one_c4 as shard_check.sh
# compares them (compare in tools/lib.sh: states with every column, edges,
# the graph view's values, moves, the counts, the principal variation).
#
# Then two roles that are not superusers, gt_shard_alice and gt_shard_bob,
# on the coordinator and on the nodes.  gametree, as postgres_fdw and
# dblink, lets a role that is not a superuser connect to a node only with
# a password that the node asked for (its user mapping's password,
# PQconnectionUsedPassword), and the nodes trust every local connection
# (initdb --auth=trust).  So on each
# node the roles get a password and a line of pg_hba.conf that asks it of
# them, before the trust lines (scram-sha-256; removed on exit), reloaded;
# on the coordinator each role gets USAGE on the servers and user mappings
# (user, password), its own schema there and on each node.  Checked:
#   - alice without a user mapping for node1 cannot create a sharded tree:
#     the error names node 1 and the missing mapping, and nothing is left;
#     nor with a mapping without a password, nor with one as postgres
#     (whom the node trusts) with a password the node does not ask for;
#   - with her mappings, alice creates and grows tic-tac-toe to depth 4
#     over the nodes, equal to her one-server tree, its parts hers;
#   - bob cannot read alice's tree through the coordinator (nor on a node
#     with his own mapping), grow it or drop it; alice cannot read or grow
#     postgres's trees; their trees are unchanged;
#   - pg_user_mappings shows bob alice's mappings without their options
#     (her password): only alice and superusers see them.
# When a grown-again tree lacks states, notes say where they are (in
# which nodes' outboxes, not shipped).  About two and a half minutes
# (each comparison through the coordinator some 17 s).
#
# GT_SHARD_KEEP=1 keeps the databases, the roles and the nodes running.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines with `#` notes
# (timings among them), then `1..N`; the exit status is 1 when a check
# failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

NODES=3
DB=gametree_shard_crash
DEPTH=${GT_SHARD_CRASH_DEPTH:-8}
case $DEPTH in '' | *[!0-9]*) echo "GT_SHARD_CRASH_DEPTH must be a number of plies" >&2; exit 2 ;; esac
[ "$DEPTH" -ge 4 ] || { echo "GT_SHARD_CRASH_DEPTH must be at least 4" >&2; exit 2; }
NODE_ARRAY="ARRAY['node1', 'node2', 'node3']"
ALICE=gt_shard_alice BOB=gt_shard_bob
ALICE_PASSWORD="alice-$RANDOM$RANDOM" BOB_PASSWORD="bob-$RANDOM$RANDOM"
HBA_MARK="# test/t/shard_crash_check.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-shard-crash.XXXXXX")
BG_PID=
cleanup() {
	local status=$? i
	if [ -n "$BG_PID" ] && kill -0 "$BG_PID" 2>/dev/null; then
		kill "$BG_PID" 2>/dev/null
		wait "$BG_PID" 2>/dev/null
	fi
	if [ "${GT_SHARD_KEEP:-0}" = 1 ]; then
		gt_log "kept the database $DB and the roles on the coordinator and on the nodes, which still run"
	else
		gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" \
			-c "DROP ROLE IF EXISTS $ALICE" -c "DROP ROLE IF EXISTS $BOB" >/dev/null 2>&1
		for ((i = 1; i <= NODES; i++)); do
			gt_node_psql "$i" -q -d postgres -c "SET client_min_messages = warning" \
				-c "DROP DATABASE IF EXISTS $DB" -c "DROP ROLE IF EXISTS $ALICE" -c "DROP ROLE IF EXISTS $BOB" \
				>/dev/null 2>&1
			gt_as_cluster_user sed -i "/$(sed 's/[/.]/\\&/g' <<<"$HBA_MARK")\$/d" \
				"$(gt_node_dir "$i")/data/pg_hba.conf" 2>/dev/null
		done
		gt_stop_nodes "$NODES"
	fi
	rm -rf "$WORK"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# node_backend NODE CONDITION: the pid of a backend of node NODE running a
# statement in $DB for which CONDITION (SQL on its row of
# pg_stat_activity) holds, once one shows while the background grow runs
# (two minutes at most); fails when none does.  The node looks every 2 ms
# for a second at a time (a propagation of the whole tree can take less
# than a new connection's start), and between seconds the script checks
# that the grow still runs (psql prints the function's creation first).
node_backend() {
	local node=$1 condition=$2 pid i
	for ((i = 0; i < 120; i++)); do
		pid=$(run "$node" "CREATE FUNCTION pg_temp.watch() RETURNS integer LANGUAGE plpgsql AS \$w\$
			DECLARE
				found integer;
			BEGIN
				FOR k IN 1..500 LOOP
					PERFORM pg_stat_clear_snapshot();
					SELECT pid INTO found FROM pg_stat_activity WHERE datname = current_database()
					   AND state = 'active' AND pid <> pg_backend_pid() AND ($condition) LIMIT 1;
					IF found IS NOT NULL THEN
						RETURN found;
					END IF;
					PERFORM pg_sleep(0.002);
				END LOOP;
				RETURN NULL;
			END \$w\$;
			SELECT pg_temp.watch()" 2>/dev/null | tail -n 1)
		[ -n "$pid" ] && { echo "$pid"; return 0; }
		kill -0 "$BG_PID" 2>/dev/null || return 1
	done
	return 1
}

# Conditions on a node's statement: expanding depth D of tree T, storing
# states shipped, propagating.
expanding() { printf "query ~ '^CALL gametree\\.shard_grow\\(''public\\.%s'', %d,'" "$1" "$2"; }
ACCEPTING="query ~ '^SELECT gametree\.shard_accept\('"
PROPAGATING="query ~ '^SELECT gametree\.(shard_)?propagate\('"

# grow_in_background TREE: CALL gametree.grow(TREE, max_depth => DEPTH) in
# a session of the coordinator named $TREE-grow (application_name), its
# output in $WORK/TREE.out, its psql's exit status in $WORK/TREE.status.
grow_in_background() {
	(
		PGAPPNAME="$1-grow" gt_psql -d "$DB" -c "CALL gametree.grow('$1', max_depth => $DEPTH)" >"$WORK/$1.out" 2>&1
		echo $? >"$WORK/$1.status"
	) &
	BG_PID=$!
}

# grow_failed TREE EXPECTED: the background grow of TREE ended with an
# error, whose line in psql's output starts with EXPECTED (a grep -E
# pattern: "ERROR:  node 2 of tree ...").
grow_failed() {
	local t=$1 expected=$2
	wait "$BG_PID"
	BG_PID=
	if [ "$(cat "$WORK/$t.status")" != 0 ] && grep -qE "^$expected" "$WORK/$t.out"; then
		ok "$t: the interrupted grow fails: $(grep -m1 -E '^(ERROR|FATAL):' "$WORK/$t.out" | cut -c1-150)"
	else
		not_ok "$t: the interrupted grow fails with $expected" \
			"exit status $(cat "$WORK/$t.status"); $(grep -v '^NOTICE' "$WORK/$t.out")"
	fi
}

# node_up NODE: node NODE answers within a minute (after its recovery).
node_up() {
	local i
	for ((i = 0; i < 600; i++)); do
		run "$1" "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# nodes_idle WHAT: no node runs a statement of gametree for the grow that
# WHAT cut short any more, within ten seconds: the coordinator cancelled
# them, or (when its session is gone) they saw their client gone
# (client_connection_check_interval).
nodes_idle() {
	local started i node busy; started=$(now)
	for ((i = 0; i < 100; i++)); do
		busy=
		for ((node = 1; node <= NODES; node++)); do
			busy+=$(run "$node" "SELECT ' node $node: ' || left(query, 60) FROM pg_stat_activity
			                     WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()
			                     AND query ~ '^(CALL|SELECT) gametree\.'" 2>/dev/null)
		done
		[ -z "$busy" ] && break
		sleep 0.1
	done
	if [ -z "$busy" ]; then
		ok "after $1, no node runs a statement of that grow any more (within $(since "$started") s)"
	else
		not_ok "after $1, no node runs a statement of that grow any more (within ten seconds)" "$busy"
	fi
}

# missing TREE: notes, when TREE lacks states of one_c4, where they went:
# how many wait in each node's outbox, not shipped.  For the report of a
# failure.
missing() {
	local t=$1 i
	[ "$(q "SELECT count(*) FROM ${t}_states")" = "$(q "SELECT count(*) FROM one_c4_states")" ] && return
	note "$t: where the states missing from it are:"
	q "WITH missing AS MATERIALIZED (SELECT id, depth FROM one_c4_states EXCEPT SELECT id, depth FROM ${t}_states)
	   SELECT 'missing: ' || count(*) || ' at depths ' || string_agg(DISTINCT depth::text, ',') FROM missing
	   UNION ALL
	   SELECT 'node' || n || ': ' || count(DISTINCT o.id) || ' of them in its outbox, not shipped'
	   FROM generate_series(1, $NODES) n,
	        dblink('node' || n, 'SELECT id FROM public.${t}_outbox') AS o(id bigint)
	   WHERE o.id IN (SELECT id FROM missing) GROUP BY n" 2>&1 | sed 's/^/#   /'
	sed -n 's/^NOTICE:  /#   the interrupted grow said: /p' "$WORK/$t.out" | tail -n 3
}

# grow_again TREE: the grow after the interruption succeeds, and the tree
# then equals one_c4.
grow_again() {
	local t=$1 out started; started=$(now)
	if out=$(q "CALL gametree.grow('$t', max_depth => $DEPTH)" 2>&1); then
		ok "$t: grown again to depth $DEPTH after the interruption"
		note "time: $t grown again $(since "$started") s"
		compare "$t" one_c4
		missing "$t"
	else
		not_ok "$t: grown again to depth $DEPTH after the interruption" "$out"
	fi
}

create_sharded() {
	local out
	if out=$(q "SELECT gametree.create_tree('$1', 'connect4', nodes => $NODE_ARRAY)" 2>&1); then
		ok "$1: create_tree of connect4 over $NODE_ARRAY"
	else
		not_ok "$1: create_tree of connect4 over $NODE_ARRAY" "$out"
		return 1
	fi
}

# signal_grow terminate|cancel TREE: pg_terminate_backend or
# pg_cancel_backend of the coordinator's session growing TREE in the
# background; prints how many sessions it signalled.  The sessions are
# picked first (a WHERE clause may call the function before it filters).
signal_grow() {
	q "WITH growing AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE application_name = '$2-grow')
	   SELECT count(*) FROM growing WHERE pg_$1_backend(pid)"
}

# fails DESCRIPTION EXPECTED SQL [ROLE]: SQL run on the coordinator (as
# ROLE) fails with an error whose message matches EXPECTED (grep -E).
fails() {
	local out
	if out=$(PGUSER=${4:-postgres} q "$3" 2>&1); then
		not_ok "$1" "it succeeded: $out"
	elif grep -qE "^ERROR:  $2" <<<"$out"; then
		ok "$1: $(grep -m1 '^ERROR:' <<<"$out" | cut -c9- | cut -c1-150)"
	else
		not_ok "$1" "expected ERROR:  $2, got: $out"
	fi
}

# -------------------------------------------------------------------- run

TOTAL_START=$(now)
gt_start_cluster
unset PGOPTIONS PGSERVICE PGAPPNAME

started=$(now)
if ! out=$(gt_start_nodes "$NODES" 2>&1 && gt_fresh_node_databases "$NODES" "$DB" 2>&1); then
	echo "Bail out! cannot start the nodes with a database $DB: $out"
	exit 1
fi
if ! out=$(gt_fresh_database "$DB" postgres_fdw dblink 2>&1 && gt_node_servers_sql "$NODES" "$DB" | gt_psql -q -d "$DB" 2>&1); then
	echo "Bail out! cannot set up the coordinator's database $DB: $out"
	exit 1
fi
ok "$NODES nodes and the coordinator run, each with a fresh database $DB"
note "time: nodes started $(since "$started") s"

started=$(now)
if ! out=$(q "SELECT gametree.create_tree('one_c4', 'connect4')" 2>&1 &&
	q "CALL gametree.grow('one_c4', max_depth => $DEPTH)" 2>&1); then
	echo "Bail out! cannot grow one_c4 on the coordinator: $out"
	exit 1
fi
note "time: one_c4 grown on the coordinator alone $(since "$started") s"

gt_log "kill -9 of node 2's backend expanding depth $((DEPTH - 1))"
if create_sharded c4_kill; then
	grow_in_background c4_kill
	if pid=$(node_backend 2 "$(expanding c4_kill $((DEPTH - 1)))"); then
		sleep 0.3
		gt_as_cluster_user kill -9 "$pid"
		note "killed node 2's backend $pid"
	else
		not_ok "c4_kill: node 2 expands depth $((DEPTH - 1))" "$(cat "$WORK/c4_kill.out")"
	fi
	grow_failed c4_kill "ERROR:  node 2 of tree public\.c4_kill \(server node2\): "
	nodes_idle "node 2's backend was killed"
	if node_up 2; then
		ok "node 2 is back after its crash recovery"
		grow_again c4_kill
	else
		not_ok "node 2 is back after its crash recovery" "$(tail -n 5 "$(gt_node_dir 2)/server.log")"
	fi
fi

gt_log "pg_ctl stop -m immediate of node 3 storing states shipped after depth $((DEPTH - 2))"
if create_sharded c4_stop; then
	grow_in_background c4_stop
	# Once node 3 holds states of depth DEPTH - 1, it expanded depth DEPTH - 2.
	if pid=$(node_backend 3 "$ACCEPTING AND EXISTS (SELECT FROM public.c4_stop_states WHERE depth = $((DEPTH - 1)))"); then
		gt_stop_node 3 immediate
		note "stopped node 3 (immediate) while its backend $pid stored states"
	else
		not_ok "c4_stop: node 3 stores states shipped after depth $((DEPTH - 2))" "$(cat "$WORK/c4_stop.out")"
	fi
	grow_failed c4_stop "ERROR:  node 3 of tree public\.c4_stop \(server node3\): "
	NODES=2 nodes_idle "node 3 stopped"
	fails "c4_stop: a grow while node 3 is down fails naming it" \
		"node 3 of tree public\.c4_stop \(server node3\): could not establish connection" \
		"CALL gametree.grow('c4_stop', max_depth => $DEPTH)"
	if out=$(gt_start_node 3 2>&1) && node_up 3; then
		ok "node 3 started again"
		grow_again c4_stop
	else
		not_ok "node 3 started again" "$out"
	fi
fi

gt_log "pg_terminate_backend of the coordinator's session while the nodes propagate"
if create_sharded c4_term; then
	grow_in_background c4_term
	if node_backend 1 "$PROPAGATING" >/dev/null; then
		out=$(signal_grow terminate c4_term)
		note "terminated $out coordinator session(s) growing c4_term"
	else
		not_ok "c4_term: node 1 propagates" "$(cat "$WORK/c4_term.out")"
	fi
	grow_failed c4_term "FATAL:  terminating connection due to administrator command"
	nodes_idle "the coordinator's session was terminated"
	grow_again c4_term
fi

gt_log "pg_cancel_backend of the coordinator's session while node 2 expands depth $((DEPTH - 1)), and a grow again in that session"
if create_sharded c4_cancel; then
	(
		PGAPPNAME=c4_cancel-grow gt_psql -d "$DB" -v ON_ERROR_STOP=0 \
			-c "CALL gametree.grow('c4_cancel', max_depth => $DEPTH)" \
			-c "CALL gametree.grow('c4_cancel', max_depth => $DEPTH)" >"$WORK/c4_cancel.out" 2>&1
		echo $? >"$WORK/c4_cancel.status"
	) &
	BG_PID=$!
	if node_backend 2 "$(expanding c4_cancel $((DEPTH - 1)))" >/dev/null; then
		sleep 0.3
		out=$(signal_grow cancel c4_cancel)
		note "cancelled $out coordinator session(s) growing c4_cancel"
	else
		not_ok "c4_cancel: node 2 expands depth $((DEPTH - 1))" "$(cat "$WORK/c4_cancel.out")"
	fi
	wait "$BG_PID"
	BG_PID=
	errors=$(grep '^ERROR:' "$WORK/c4_cancel.out")
	if [ "$errors" = "ERROR:  canceling statement due to user request" ] &&
		[ "$(grep -c '^CALL$' "$WORK/c4_cancel.out")" = 1 ]; then
		ok "c4_cancel: the cancelled grow fails, the next one in the same session succeeds"
		compare c4_cancel one_c4
		missing c4_cancel
	else
		not_ok "c4_cancel: the cancelled grow fails, the next one in the same session succeeds" \
			"$(grep -v '^NOTICE' "$WORK/c4_cancel.out")"
	fi
fi

# ------------------------------------------------------------- security

gt_log "roles that are not superusers: $ALICE and $BOB"
started=$(now)
setup_out=$(
	set -e
	exec 2>&1
	for ((i = 1; i <= NODES; i++)); do
		gt_node_psql "$i" -q -d "$DB" \
			-c "SET client_min_messages = warning" \
			-c "DROP ROLE IF EXISTS $ALICE" -c "DROP ROLE IF EXISTS $BOB" \
			-c "CREATE ROLE $ALICE LOGIN PASSWORD '$ALICE_PASSWORD'" \
			-c "CREATE ROLE $BOB LOGIN PASSWORD '$BOB_PASSWORD'" \
			-c "CREATE SCHEMA $ALICE AUTHORIZATION $ALICE" -c "CREATE SCHEMA $BOB AUTHORIZATION $BOB"
		# Before the trust lines: the first line that matches decides.
		hba="$(gt_node_dir "$i")/data/pg_hba.conf"
		grep -qF "$HBA_MARK" "$hba" ||
			gt_as_cluster_user sed -i "1i local all $ALICE,$BOB scram-sha-256 $HBA_MARK" "$hba"
		gt_node_psql "$i" -q -d "$DB" -c "SELECT pg_reload_conf()" >/dev/null
	done
	gt_psql -q -d "$DB" -c "SET client_min_messages = warning" \
		-c "DROP ROLE IF EXISTS $ALICE" -c "DROP ROLE IF EXISTS $BOB" \
		-c "CREATE ROLE $ALICE LOGIN" -c "CREATE ROLE $BOB LOGIN" \
		-c "CREATE SCHEMA $ALICE AUTHORIZATION $ALICE" -c "CREATE SCHEMA $BOB AUTHORIZATION $BOB" \
		-c "GRANT USAGE ON SCHEMA $ALICE TO $BOB" \
		-c "GRANT USAGE ON FOREIGN SERVER node1, node2, node3 TO $ALICE, $BOB"
	for ((i = 1; i <= NODES; i++)); do
		# Alice's mapping for node1 comes later: first she goes without.
		[ "$i" = 1 ] || PGUSER=$ALICE q "CREATE USER MAPPING FOR CURRENT_USER SERVER node$i
		                                 OPTIONS (user '$ALICE', password '$ALICE_PASSWORD')"
		PGUSER=$BOB q "CREATE USER MAPPING FOR CURRENT_USER SERVER node$i OPTIONS (user '$BOB', password '$BOB_PASSWORD')"
	done
)
if [ $? -ne 0 ]; then
	not_ok "the roles $ALICE and $BOB on the coordinator and the nodes, with passwords on the nodes" "$setup_out"
else
	ok "the roles $ALICE and $BOB on the coordinator and the nodes, with passwords on the nodes"
fi
if PGHOST=$(gt_node_socket 1) PGPORT=$(gt_node_port 1) PGPASSWORD=wrong gt_psql -d "$DB" -U "$ALICE" \
	-c "SELECT 1" >/dev/null 2>&1; then
	not_ok "node 1 asks $ALICE for her password" "a wrong password was taken"
else
	ok "node 1 asks $ALICE for her password (a wrong one is refused)"
fi

# alice_cannot_create DESCRIPTION ERROR: her create_tree over the nodes fails
# with "node 1 of tree ...: ERROR" (a grep -E pattern).
alice_cannot_create() {
	fails "$ALICE $1 cannot create a sharded tree" "node 1 of tree $ALICE\.a_ttt \(server node1\): $2" \
		"SELECT gametree.create_tree('a_ttt', 'tictactoe', nodes => $NODE_ARRAY)" "$ALICE"
}
alice_cannot_create "without a user mapping for node1" "user mapping not found"
PGUSER=$ALICE q "CREATE USER MAPPING FOR CURRENT_USER SERVER node1 OPTIONS (user '$ALICE')" >/dev/null
alice_cannot_create "with a user mapping for node1 without a password" "password is required"
PGUSER=$ALICE q "ALTER USER MAPPING FOR CURRENT_USER SERVER node1 OPTIONS (SET user 'postgres', ADD password 'any')" \
	>/dev/null
alice_cannot_create "mapped to postgres, whom node 1 trusts without asking a password," "password is required"
PGUSER=$ALICE q "DROP USER MAPPING FOR CURRENT_USER SERVER node1" >/dev/null
none "nothing is left of $ALICE's tree that could not be created, on the coordinator and the nodes" \
	"SELECT 'coordinator', name FROM gametree.trees WHERE name = 'a_ttt'
	 UNION ALL SELECT 'node' || n, t.name FROM generate_series(1, $NODES) n,
	           dblink('node' || n, 'SELECT name FROM gametree.trees WHERE name = ''a_ttt''') AS t(name text)"

if out=$(PGUSER=$ALICE q "CREATE USER MAPPING FOR CURRENT_USER SERVER node1
                          OPTIONS (user '$ALICE', password '$ALICE_PASSWORD')
                          ; SELECT gametree.create_tree('a_ttt', 'tictactoe', nodes => $NODE_ARRAY)" 2>&1) &&
	out=$(PGUSER=$ALICE q "CALL gametree.grow('a_ttt', max_depth => 4)" 2>&1) &&
	out=$(PGUSER=$ALICE q "SELECT gametree.create_tree('one_a_ttt', 'tictactoe')" 2>&1) &&
	out=$(PGUSER=$ALICE q "CALL gametree.grow('one_a_ttt', max_depth => 4)" 2>&1); then
	ok "$ALICE, with user mappings (her password) for the three nodes, creates and grows a_ttt over them"
	PGUSER=$ALICE compare a_ttt one_a_ttt
	none "a_ttt: its parts on the nodes belong to $ALICE" \
		"SELECT 'node' || n, t.name, t.owner FROM generate_series(1, $NODES) n,
		        dblink('node' || n, 'SELECT tablename::text, tableowner::text FROM pg_tables
		                             WHERE tablename LIKE ''a\\_ttt\\_%''') AS t(name text, owner text)
		 WHERE t.owner <> '$ALICE'
		 UNION ALL SELECT 'node' || n, 'no tables', NULL FROM generate_series(1, $NODES) n
		 WHERE NOT EXISTS (SELECT FROM dblink('node' || n, 'SELECT 1 FROM pg_tables
		                                                    WHERE tablename = ''a_ttt_states''') AS t(one int))"
else
	not_ok "$ALICE, with user mappings (her password) for the three nodes, creates and grows a_ttt over them" "$out"
fi

A_COUNTS="SELECT states, edges FROM gametree.tree_info('$ALICE.a_ttt')"
a_counts=$(q "$A_COUNTS")
fails "$BOB cannot read $ALICE's sharded tree through the coordinator" \
	"permission denied for table a_ttt_states" "SELECT count(*) FROM $ALICE.a_ttt_states" "$BOB"
fails "$BOB cannot read the foreign partitions of $ALICE's tree either" \
	"permission denied for (foreign )?table a_ttt_states_1" "SELECT count(*) FROM $ALICE.a_ttt_states_1" "$BOB"
fails "$BOB cannot read $ALICE's part on node 1 through dblink with his own mapping" \
	"permission denied for schema $ALICE" \
	"SELECT * FROM dblink('node1', 'SELECT count(*) FROM $ALICE.a_ttt_states') AS t(n bigint)" "$BOB"
fails "$BOB cannot grow $ALICE's sharded tree" \
	"permission denied to write tree \"$ALICE\.a_ttt\"" "CALL gametree.grow('$ALICE.a_ttt', max_depth => 5)" "$BOB"
fails "$BOB cannot drop $ALICE's sharded tree" \
	"must be owner of table a_ttt_states" "SELECT gametree.drop_tree('$ALICE.a_ttt')" "$BOB"
fails "$ALICE cannot read postgres's sharded tree" \
	"permission denied for table c4_kill_states" "SELECT count(*) FROM public.c4_kill_states" "$ALICE"
fails "$ALICE cannot grow postgres's sharded tree" \
	"permission denied to write tree \"public\.c4_kill\"" "CALL gametree.grow('public.c4_kill', max_depth => 9)" "$ALICE"
none "$ALICE's tree is as she left it, on every node" \
	"SELECT * FROM (VALUES ('$a_counts')) v(counts) WHERE counts = ''
	 OR counts <> (SELECT states || '|' || edges FROM gametree.tree_info('$ALICE.a_ttt'))
	 OR EXISTS (SELECT FROM generate_series(1, $NODES) n
	            WHERE NOT EXISTS (SELECT FROM dblink('node' || n, 'SELECT 1 FROM gametree.trees WHERE name = ''a_ttt''')
	                              AS t(one int)))"
none "postgres's tree c4_kill is still one_c4's" \
	"SELECT s.id FROM c4_kill_states s FULL JOIN one_c4_states o USING (id) WHERE s.id IS NULL OR o.id IS NULL"

out=$(PGUSER=$BOB q "SELECT count(*) FILTER (WHERE umoptions IS NULL) || ' of ' || count(*)
                     FROM pg_user_mappings WHERE usename = '$ALICE'" 2>&1)
if [ "$out" = "3 of 3" ]; then
	ok "pg_user_mappings shows $BOB $ALICE's three mappings without their options"
else
	not_ok "pg_user_mappings shows $BOB $ALICE's three mappings without their options" "$out"
fi
out=$(PGUSER=$BOB q "SELECT count(*) FROM pg_user_mappings WHERE umoptions::text LIKE '%$ALICE_PASSWORD%'" 2>&1)
[ "$out" = 0 ] && ok "$ALICE's password is nowhere in pg_user_mappings as $BOB reads it" ||
	not_ok "$ALICE's password is nowhere in pg_user_mappings as $BOB reads it" "$out"
fails "$BOB cannot read the catalog pg_user_mapping" "permission denied for table pg_user_mapping" \
	"SELECT umoptions FROM pg_catalog.pg_user_mapping" "$BOB"
out=$(PGUSER=$ALICE q "SELECT count(*) FROM pg_user_mappings WHERE usename = '$ALICE'
                       AND 'password=$ALICE_PASSWORD' = ANY (umoptions)" 2>&1)
[ "$out" = 3 ] && ok "$ALICE reads her own mappings' options (so the check above hides something)" ||
	not_ok "$ALICE reads her own mappings' options (so the check above hides something)" "$out"
note "time: roles $(since "$started") s"

note "time: total $(since "$TOTAL_START") s"
echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
