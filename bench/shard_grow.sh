#!/usr/bin/env bash
# bench/shard_grow.sh: connect four grown over two nodes against one node
# (issue 24), and on the coordinator alone as the reference.
#
#   bash bench/shard_grow.sh                    # depth 10, 2.48M states, 3 runs: about 15 minutes
#   BENCH_QUICK=1 bash bench/shard_grow.sh      # depth 7, 76,959 states, 1 run: a smoke run
#   BENCH_DEPTH=9 BENCH_RUNS=5 bash bench/shard_grow.sh
#   BENCH_STATES=2000000 bash bench/shard_grow.sh   # max_states => 2000000 instead of max_depth
#
# It builds and installs the extension and starts the private cluster
# (gt_setup, which holds the install lock until the script ends), the
# coordinator, and two nodes (gt_start_server, as gt_start_node starts
# them: node I in $(gt_cluster_dir)/node<I>, its own unix socket, port
# GAMETREE_PORT + 100 + I, but with shared_buffers BENCH_NODE_BUFFERS,
# default 512MB as the coordinator's), each with a fresh database
# gametree_bench; the coordinator's gametree_bench has postgres_fdw, dblink and the foreign servers node1
# and node2 (gt_node_servers_sql).  The nodes are stopped at the end.
#
# The configurations, run in turn in every round so that drift affects
# them alike: "one server" (a plain tree on the coordinator, no sharding),
# "1 node" (create_tree(..., nodes => ARRAY['node1'])) and "2 nodes"
# (ARRAY['node1', 'node2']).  Each run drops the trees, creates a fresh
# one, CHECKPOINTs every server and times CALL gametree.grow (psql's
# \timing) in a session that also reads, before and after, the CPU time
# (utime + stime in /proc/<pid>/stat, children reaped included) of its
# own backend (the coordinator's backend, which relays every state and
# value between nodes) and of every process of each server's postmaster
# tree.  The grow's NOTICEs are captured with the time they arrived: the
# last one per level ends the level, the final one tells the propagation
# waves and the states and bytes shipped between nodes.
#
# Printed per configuration, medians of BENCH_RUNS runs (default 3): the
# states, the wall time of CALL grow, states/s, the seconds of the levels
# (expansion and shipping) and of the final propagation, the waves, bytes
# shipped per state, the CPU seconds of the coordinator's backend, of the
# nodes' servers and of the coordinator's other processes, and the
# coordinator backend's share of all that CPU; then the speed-up of 2
# nodes over 1 node (the goal: 1.6 or more) and over one server; the CPU
# per state and per state shipped; and, on paper from those costs, the
# time and speed-up at 8, 64 and 256 nodes (the model is told where it is
# computed, and in bench/README.md).
#
# Then, unless BENCH_PROFILE=0, one more 2-node grow, not timed, sampled
# every 100 ms (pg_stat_activity of each node through dblink, and whether
# the coordinator's backend is on the CPU or waiting for the nodes): the
# share of samples each node spends expanding, sending or receiving states,
# reading its part for the propagation, sending or taking values,
# propagating, or idle, and how often both nodes are idle while the
# coordinator works (the relay as the bottleneck).
#
# Internal modes (run through psql's \! by the script itself):
#   shard_grow.sh --cpu-ticks PID...   clock ticks of each PID's process tree
#   shard_grow.sh --sample PID         the sampler of the profile run

# Clock ticks (utime + stime + cutime + cstime) of each process given and
# all its descendants, on one line.
if [ "${1:-}" = --cpu-ticks ]; then
	shift
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v roots="$*" '
		{
			pid = $1; s = $0; sub(/.*\) /, "", s); split(s, f, " ")
			parent[pid] = f[2]; ticks[pid] = f[12] + f[13] + f[14] + f[15]
		}
		END {
			n = split(roots, r, " ")
			for (i = 1; i <= n; i++) {
				total = 0
				for (p in ticks) {
					q = p
					while (q != r[i] && (q in parent) && q > 1) q = parent[q]
					if (q == r[i]) total += ticks[p]
				}
				printf "%s%d", (i > 1 ? " " : ""), total
			}
			print ""
		}'
	exit 0
fi

# The sampler: every 100 ms, the coordinator backend PID's wait (cpu or its
# wait event) and what each node's client backends run, classified.
if [ "${1:-}" = --sample ]; then
	classify="SELECT coalesce(string_agg(c, ''+'' ORDER BY c), ''idle'') FROM (SELECT CASE
		WHEN query LIKE ''CALL gametree.shard_grow%'' THEN ''expand''
		WHEN query LIKE ''%gametree.shard_outbox(%'' THEN ''send-states''
		WHEN query LIKE ''SELECT gametree.shard_accept(%'' THEN ''accept-states''
		WHEN query LIKE ''%gametree.shard_part(%'' THEN ''read-part''
		WHEN query LIKE ''%gametree.shard_values(%'' THEN ''send-values''
		WHEN query LIKE ''SELECT gametree.shard_take_%'' THEN ''accept-values''
		WHEN query LIKE ''SELECT gametree.shard_propagate(%, -1)'' THEN ''propagate-wave''
		WHEN query LIKE ''SELECT gametree.shard_propagate%'' THEN ''propagate-depth''
		ELSE ''other'' END AS c
		FROM pg_stat_activity WHERE state = ''active'' AND backend_type = ''client backend''
		AND pid <> pg_backend_pid() AND datname = current_database()) a"
	exec "$PSQL_BIN" -X -qAt -F' ' -d gametree_bench <<-EOF
		SELECT dblink_connect('sample1', 'node1') \\g /dev/null
		SELECT dblink_connect('sample2', 'node2') \\g /dev/null
		SELECT coalesce((SELECT coalesce(wait_event, 'cpu') FROM pg_stat_activity WHERE pid = $2), 'gone'),
		       (SELECT * FROM dblink('sample1', '$classify') AS t(c text)),
		       (SELECT * FROM dblink('sample2', '$classify') AS t(c text)) \\watch 0.1
	EOF
fi

# Depth 10 is 2,482,043 states, the same tree in every configuration
# (max_states stops a sharded grow after the level that passes it, and
# one server's within a level).
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	BENCH_RUNS=${BENCH_RUNS:-1}
	[ -n "${BENCH_STATES:-}" ] || BENCH_DEPTH=${BENCH_DEPTH:-7}
fi
BENCH_RUNS=${BENCH_RUNS:-3}
[ -n "${BENCH_STATES:-}" ] || BENCH_DEPTH=${BENCH_DEPTH:-10}
BENCH_PROFILE=${BENCH_PROFILE:-1}
BENCH_NODE_BUFFERS=${BENCH_NODE_BUFFERS:-512MB}
source "$(dirname "$0")/bench.sh"
case ${BENCH_DEPTH:-0}${BENCH_STATES:-0}${BENCH_RUNS} in *[!0-9]*)
	echo "BENCH_DEPTH, BENCH_STATES and BENCH_RUNS are whole numbers" >&2; exit 2 ;; esac
if [ -n "${BENCH_STATES:-}" ]; then
	GROW_ARGS="max_states => $BENCH_STATES"
else
	GROW_ARGS="max_depth => $BENCH_DEPTH"
fi
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
DB=gametree_bench
NODES=2
CONFIGS="plain 1 2"
export PSQL_BIN="$GT_PGBIN/psql"

BENCH_WORK=$(mktemp -d)
export BENCH_WORK
cleanup() {
	local status=$?
	gt_stop_nodes "$NODES" || true
	rm -rf "$BENCH_WORK"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_setup
unset PGOPTIONS PGSERVICE
# The nodes get the coordinator's cache (gt_start_node gives them less), so
# that a node and the one server differ only in what they run: stopped
# first, since a node that already runs would be reused as it is.
gt_stop_nodes "$NODES"
for ((i = 1; i <= NODES; i++)); do
	gt_start_server "$(gt_node_dir "$i")" "$(gt_node_port "$i")" "$BENCH_NODE_BUFFERS" "node $i"
done
gt_fresh_node_databases "$NODES" "$DB"
gt_fresh_database "$DB" postgres_fdw dblink
gt_node_servers_sql "$NODES" "$DB" | gt_psql -q -d "$DB"

postmaster_of() { head -n 1 "$1/data/postmaster.pid"; }
POSTMASTERS="$(postmaster_of "$(gt_cluster_dir)")"
for ((i = 1; i <= NODES; i++)); do POSTMASTERS+=" $(postmaster_of "$(gt_node_dir "$i")")"; done
export POSTMASTERS
TICKS=$(getconf CLK_TCK)

tree_of() { [ "$1" = plain ] && echo one || echo "n$1"; }
label_of() { case $1 in plain) echo "one server" ;; 1) echo "1 node" ;; *) echo "$1 nodes" ;; esac; }

checkpoint_all() {
	gt_psql -q -d "$DB" -c CHECKPOINT
	for ((i = 1; i <= NODES; i++)); do gt_node_psql "$i" -q -d "$DB" -c CHECKPOINT; done
}

# grow_once CONFIG RUN [profile]: one timed grow; appends to
# $BENCH_WORK/CONFIG.runs one line:
#   states seconds levels_s propagation_s waves bytes coord_backend_s coord_other_s nodes_s
#   shipped first_levels_s levels
# (the CPU in seconds; first_levels_s: the seconds of each of the levels of
# depths 0 to 3, which expand 1 to 238 states: a level's fixed cost).
# With "profile", the grow is sampled and not timed.
grow_once() {
	local config=$1 run=$2 profile=${3:-} tree nodes="" out notices before after
	tree=$(tree_of "$config")
	out=$BENCH_WORK/$config.$run.out
	notices=$BENCH_WORK/$config.$run.notices
	[ "$config" = plain ] || nodes=", nodes => ARRAY[$(seq -f "'node%g'" -s ', ' 1 "$config")]"
	gt_psql -q -d "$DB" -c "SET client_min_messages = warning" \
		-c "SELECT gametree.drop_tree(name) FROM gametree.trees" \
		-c "SELECT gametree.create_tree('$tree', 'connect4'$nodes)" >/dev/null
	checkpoint_all
	before=$BENCH_WORK/before after=$BENCH_WORK/after
	# The grow's session reads the CPU ticks of its own backend and of the
	# servers' process trees around the CALL; its NOTICEs (stderr) get the
	# time they arrived.
	{
		echo "SELECT pg_backend_pid() AS pid \\gset"
		echo "\\setenv BENCH_PID :pid"
		if [ -n "$profile" ]; then
			echo "\\! bash '$SELF' --sample \"\$BENCH_PID\" >'$BENCH_WORK/samples' & echo \$! >'$BENCH_WORK/sampler'"
			echo "SELECT pg_sleep(1);"
		fi
		echo "\\! bash '$SELF' --cpu-ticks \"\$BENCH_PID\" \$POSTMASTERS >'$before'"
		echo "\\warn BENCH start"
		echo "\\timing on"
		echo "CALL gametree.grow('$tree', $GROW_ARGS);"
		echo "\\timing off"
		echo "\\warn BENCH end"
		# Backends that ended are reaped (their time moves to the postmaster's).
		echo "SELECT pg_sleep(0.5);"
		echo "\\! bash '$SELF' --cpu-ticks \"\$BENCH_PID\" \$POSTMASTERS >'$after'"
		[ -z "$profile" ] || echo "\\! kill \$(cat '$BENCH_WORK/sampler')"
		echo "SELECT 'states', states FROM gametree.trees WHERE name = '$tree';"
	} | gt_psql -qAt -F' ' -d "$DB" 2>&1 >"$out" |
		while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >"$notices" || true
	if ! grep -q '^Time:' "$out" || grep -q 'ERROR:' "$notices"; then
		echo "grow of $tree failed:" >&2
		cut -d' ' -f2- "$notices" >&2
		exit 1
	fi
	[ -z "$profile" ] || return 0
	awk -v ticks="$TICKS" -v before="$(cat "$before")" -v after="$(cat "$after")" '
		FNR == 1 { file++ }
		file == 1 && /^Time:/ { seconds = $2 / 1000 }
		file == 1 && $1 == "states" { states = $2 }
		file == 2 && / BENCH start/ { start = $1 }
		file == 2 && / depth [0-9]+ expanded on / { levels = $1; nlevels++ }
		file == 2 && / depth 3 expanded on / { first_levels = $1 }
		file == 2 && / propagated in [0-9]+ waves/ {
			propagated = $1
			for (i = 1; i <= NF; i++) {
				if ($i == "waves,") waves = $(i - 1)
				if ($i == "bytes") bytes = $(i - 1)
				if ($i == "states" && $(i + 1) == "and") shipped = $(i - 1)
			}
		}
		END {
			split(before, b, " "); split(after, a, " ")
			backend = (a[1] - b[1]) / ticks
			other = (a[2] - b[2]) / ticks - backend
			nodes = 0
			for (i = 3; i in a; i++) nodes += (a[i] - b[i]) / ticks
			if (levels == "") { levels = start; propagated = start; first_levels = start }
			printf "%d %.3f %.3f %.3f %d %d %.2f %.2f %.2f %d %.4f %d\n", states, seconds, levels - start,
				propagated - levels, waves, bytes, backend, other, nodes, shipped, (first_levels - start) / 4, nlevels
		}' "$out" "$notices" >>"$BENCH_WORK/$config.runs"
}

started=$(date +%s)
gt_log "connect four, $GROW_ARGS: one server, 1 node, 2 nodes; $BENCH_RUNS runs"
for ((run = 1; run <= BENCH_RUNS; run++)); do
	for config in $CONFIGS; do
		grow_once "$config" "$run"
		gt_log "run $run, $(label_of "$config"): $(tail -n 1 "$BENCH_WORK/$config.runs")"
	done
done

column() { awk -v c="$2" '{ print $c }' "$BENCH_WORK/$1.runs" | bench_median_of; }
echo
echo "connect four, grow($GROW_ARGS), medians of $BENCH_RUNS runs ($(nproc) cores):"
echo
echo "| configuration | states | CALL grow s | states/s | levels s | propagation s | waves | bytes shipped / state | coordinator backend CPU s | nodes' servers CPU s | coordinator's other processes CPU s | coordinator backend's share of the CPU |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for config in $CONFIGS; do
	awk -v label="$(label_of "$config")" -v states="$(column "$config" 1)" -v s="$(column "$config" 2)" \
		-v l="$(column "$config" 3)" -v p="$(column "$config" 4)" -v w="$(column "$config" 5)" \
		-v bytes="$(column "$config" 6)" -v cb="$(column "$config" 7)" -v co="$(column "$config" 8)" \
		-v cn="$(column "$config" 9)" -v plain="$([ "$config" = plain ] && echo 1)" 'BEGIN {
		if (plain)
			printf "| %s | %d | %.2f | %.0f | - | - | - | - | %.2f | - | %.2f | - |\n", label, states, s, states / s, cb, co
		else
			printf "| %s | %d | %.2f | %.0f | %.2f | %.2f | %d | %.0f | %.2f | %.2f | %.2f | %.0f%% |\n", label, states, s,
				states / s, l, p, w, bytes / states, cb, cn, co, 100 * cb / (cb + cn + co)
	}'
done
echo
rate() { awk -v s="$(column "$1" 1)" -v t="$(column "$1" 2)" 'BEGIN { print s / t }'; }
awk -v one="$(rate 1)" -v two="$(rate 2)" -v plain="$(rate plain)" 'BEGIN {
	printf "speed-up of 2 nodes over 1 node: %.2fx (states/s; the goal: 1.6x or more)\n", two / one
	printf "2 nodes over one server: %.2fx; 1 node over one server: %.2fx\n", two / plain, one / plain
}'
awk -v c="$(column 2 7)" -v s="$(column 2 1)" -v n="$(column 2 9)" -v n1="$(column 1 9)" -v s1="$(column 1 1)" \
	-v b="$(column 2 6)" -v g="$(column 2 10)" -v p="$(column plain 7)" -v sp="$(column plain 1)" \
	-v f1="$(column 1 11)" -v f2="$(column 2 11)" 'BEGIN {
	printf "CPU per state: one server %.2f us; 1 node: its server %.2f us; 2 nodes: their servers %.2f us, the coordinator %.2f us\n",
		p * 1e6 / sp, n1 * 1e6 / s1, n * 1e6 / s, c * 1e6 / s
	printf "2 nodes: %d states shipped, %.2f per state; %.0f bytes and %.2f us of the coordinator per state shipped\n",
		g, g / s, b / g, c * 1e6 / g
	printf "a level'"'"'s fixed cost (depths 0 to 3): %.3f s on 1 node, %.3f s on 2 nodes\n", f1, f2
}'

# On paper: N nodes, each on its own machine.  Each node expands S/N states
# at the 1-node CPU per state, plus its share of the work of the states
# shipped (the outbox, sending, storing, values: the 2-node servers' CPU
# beyond the 1-node's, per state shipped); the coordinator relays every
# state shipped, one after another (its CPU per state shipped); every level
# and every propagation step costs the fixed time of a level, which grows
# with the nodes (the coordinator asks them one after another).  With
# uniform ids a share (N-1)/N of the children are another node's: the
# states shipped per state are the 2-node figure times 2(N-1)/N.
echo
awk -v s="$(column 1 1)" -v t1="$(column 1 2)" -v n1="$(column 1 9)" -v n2="$(column 2 9)" -v g="$(column 2 10)" \
	-v c="$(column 2 7)" -v f1="$(column 1 11)" -v f2="$(column 2 11)" -v levels="$(column 1 12)" \
	-v t2="$(column 2 2)" 'BEGIN {
	n1 /= s; g2 = g / s; x = (n2 / s - n1) / g2; c /= g
	fb = f2 - f1; fa = f1 - fb; rounds = 2 * levels
	printf "On paper (S = %d states; node CPU %.2f us a state, %.2f us more per state shipped; coordinator %.2f us per state shipped;\n", s, n1 * 1e6, x * 1e6, c * 1e6
	printf "  a level or propagation step %.4f s + %.4f s per node, %d of them):\n", fa, fb, rounds
	for (i = 1; i <= 5; i++) {
		n = (i == 1) ? 1 : (i == 2) ? 2 : (i == 3) ? 8 : (i == 4) ? 64 : 256
		gn = g2 * 2 * (n - 1) / n
		nodes = s * (n1 + x * gn) / n; relay = s * c * gn; fixed = rounds * (fa + fb * n)
		t = nodes + relay + fixed
		if (n == 1) base = t
		printf "  %4d %-5s %7.1f s = nodes %7.1f + coordinator relay %5.1f + fixed %6.1f; speed-up over 1 node %5.2fx%s\n", n, (n == 1) ? "node:" : "nodes:", t, nodes, relay, fixed, base / t,
			(n == 1) ? sprintf(" (measured %.1f s)", t1) : (n == 2) ? sprintf(" (measured %.1f s on 2 shared cores)", t2) : ""
	}
	printf "  the bound: the coordinator relays %.2f states shipped per state at %.2f us: %.1f s, at most %.1fx over 1 node, whatever the nodes\n",
		2 * g2, c * 1e6, s * c * 2 * g2, base / (s * c * 2 * g2)
}'

if [ "$BENCH_PROFILE" = 1 ]; then
	gt_log "profile: one more grow over 2 nodes, sampled every 100 ms"
	grow_once 2 profile profile
	echo
	echo "Profile of one 2-node grow (samples every 100 ms; not timed):"
	awk '
		# The samples of the CALL alone: not those of the sleeps around it.
		NF == 3 && $1 != "gone" && $1 != "PgSleep" {
			n++
			coord[$1 == "cpu" ? "on the CPU" : "waiting (" $1 ")"]++
			what[$2]++; what[$3]++
			if ($2 == "idle" && $3 == "idle") both_idle[$1 == "cpu" ? "on the CPU" : "waiting"]++
			if ($2 != "idle" && $3 != "idle") both_busy++
		}
		END {
			printf "  %d samples\n", n
			for (k in coord) printf "  coordinator backend %s: %.0f%%\n", k, 100 * coord[k] / n
			for (k in what) printf "  a node %s: %.0f%% of node-samples\n", k, 50 * what[k] / n
			printf "  both nodes busy: %.0f%%\n", 100 * both_busy / n
			for (k in both_idle) printf "  both nodes idle, coordinator %s: %.0f%%\n", k, 100 * both_idle[k] / n
		}' "$BENCH_WORK/samples" | sort
fi
echo
echo "The run took $(($(date +%s) - started)) s."
