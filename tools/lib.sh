# tools/lib.sh: shared by the gametree scripts (sourced, not run).
# Installs what is missing, builds and installs the extension, and runs a
# private PostgreSQL cluster inside the checkout on a unix socket, and the
# nodes that sharded trees are spread over beside it.
set -euo pipefail

GT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GT_PGVERSION=15
GT_PGBIN=/usr/lib/postgresql/$GT_PGVERSION/bin
GT_PACKAGES="postgresql-$GT_PGVERSION postgresql-server-dev-$GT_PGVERSION libjson-c-dev libpq-dev
  postgresql-$GT_PGVERSION-pgtap libtap-parser-sourcehandler-pgtap-perl make gcc graphviz
  curl python3"

gt_log() { printf '== %s\n' "$*" >&2; }

# Runs a command as root, through sudo when we are not root.
gt_as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

gt_install_packages() {
	local missing=()
	for p in $GT_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	gt_log "installing ${missing[*]}"
	gt_as_root apt-get update -qq
	gt_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Serialises build+install+test across checkouts of this machine: they share
# PostgreSQL's extension directory.  A script run by one that holds the lock
# inherits it (descriptor 9): taking it again would wait for ever.
gt_lock() {
	[ -n "${GT_LOCK_HELD:-}" ] && return
	exec 9>"${TMPDIR:-/tmp}/gametree-install.lock"
	flock 9
	export GT_LOCK_HELD=1
}

gt_build() {
	gt_log "building and installing the extension"
	make -s -C "$GT_ROOT" PG_CONFIG="$GT_PGBIN/pg_config" >/dev/null
	gt_as_root make -s -C "$GT_ROOT" PG_CONFIG="$GT_PGBIN/pg_config" install >/dev/null
}

# The cluster runs as an unprivileged OS user: postgres when we are root.
gt_cluster_user() {
	if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi
}

gt_as_cluster_user() {
	local user; user=$(gt_cluster_user)
	if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- "$@"; fi
}

gt_cluster_dir() {
	local dir="$GT_ROOT/.cluster"
	# The cluster user must reach the checkout; otherwise keep it in /tmp.
	if ! gt_as_cluster_user test -x "$GT_ROOT"; then
		dir="${TMPDIR:-/tmp}/gametree-cluster-$(printf '%s' "$GT_ROOT" | md5sum | cut -c1-8)"
	fi
	echo "$dir"
}

# gt_start_server DIR PORT SHARED_BUFFERS WHAT: creates a cluster in DIR/data
# (initdb as the cluster user, trust authentication) unless there is one,
# and starts it on the unix socket DIR/socket and PORT alone (no TCP), its
# log in DIR/server.log; reuses it when it already runs.  WHAT names it in
# the messages.  The private cluster and the nodes are started by it.
gt_start_server() {
	local dir=$1 port=$2 shared_buffers=$3 what=$4
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		gt_log "creating $what in $dir"
		mkdir -p "$dir/socket"
		[ "$(id -u)" -eq 0 ] && chown -R "$(gt_cluster_user)" "$dir"
		gt_as_cluster_user "$GT_PGBIN/initdb" -D "$dir/data" -U postgres --auth=trust \
			--encoding=UTF8 --no-locale >"$dir/initdb.log"
	fi
	if ! gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
		gt_log "starting $what (socket $dir/socket, port $port)"
		# The server must not inherit open descriptors such as a held flock.
		(
			for fd in $(ls "/proc/$BASHPID/fd"); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
			gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
				-o "-k '$dir/socket' -p $port -c listen_addresses='' -c shared_buffers=$shared_buffers -c max_wal_size=4GB" \
				start >/dev/null
		)
	fi
}

# Starts the private cluster, or reuses it when it already runs.
gt_start_cluster() {
	local dir; dir=$(gt_cluster_dir)
	export PGHOST="$dir/socket" PGPORT=${GAMETREE_PORT:-5439} PGUSER=postgres PGDATABASE=postgres
	gt_start_server "$dir" "$PGPORT" 512MB "the private cluster"
	# Where the cluster runs, for the client (gametree), which finds this
	# file from the current directory at run time: a libpq connection string.
	printf "host='%s' port=%s user=postgres dbname=gametree\n" "$PGHOST" "$PGPORT" >"$GT_ROOT/.gametree-cluster"
}

gt_stop_cluster() {
	local dir; dir=$(gt_cluster_dir)
	gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" -m fast stop
}

# Nodes: N more local servers for sharded trees (README.md, "Trees on
# several servers"), each run as the private cluster is, in
# $(gt_cluster_dir)/node<I> with its own socket directory, on port
# GAMETREE_PORT + 100 + I, so that the nodes of several checkouts (each with
# its own GAMETREE_PORT) do not collide.  I counts from 1.
gt_node_dir() { echo "$(gt_cluster_dir)/node$1"; }
gt_node_socket() { echo "$(gt_node_dir "$1")/socket"; }
gt_node_port() { echo $((${GAMETREE_PORT:-5439} + 100 + $1)); }

# gt_start_node I: creates node I unless it exists, and starts it unless it
# runs.  A node holds a share of a tree: a smaller cache than the cluster's.
gt_start_node() {
	gt_start_server "$(gt_node_dir "$1")" "$(gt_node_port "$1")" 128MB "node $1"
}

# gt_stop_node I [MODE]: stops node I (pg_ctl's MODE, default fast) when it
# runs.
gt_stop_node() {
	local data; data="$(gt_node_dir "$1")/data"
	gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$data" status >/dev/null 2>&1 || return 0
	gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$data" -m "${2:-fast}" -w stop >/dev/null
}

gt_start_nodes() {
	local i
	for ((i = 1; i <= $1; i++)); do gt_start_node "$i"; done
}

gt_stop_nodes() {
	local i
	for ((i = 1; i <= $1; i++)); do gt_stop_node "$i" "${2:-fast}"; done
}

# gt_node_psql I PSQL-ARGUMENTS...: gt_psql on node I (as postgres; the
# database is -d's, or PGDATABASE).
gt_node_psql() {
	local i=$1; shift
	PGHOST=$(gt_node_socket "$i") PGPORT=$(gt_node_port "$i") PGUSER=postgres gt_psql "$@"
}

# gt_fresh_node_databases N DB [EXTENSION...]: gt_fresh_database DB on each
# of nodes 1 to N.
gt_fresh_node_databases() {
	local n=$1 i; shift
	for ((i = 1; i <= n; i++)); do
		PGHOST=$(gt_node_socket "$i") PGPORT=$(gt_node_port "$i") PGUSER=postgres gt_fresh_database "$@"
	done
}

# gt_node_servers_sql N DB: SQL that, run on a coordinator database with
# postgres_fdw, names nodes 1 to N as the foreign servers node1 to nodeN
# (their database DB) and maps the current user to postgres on each.
gt_node_servers_sql() {
	local i
	for ((i = 1; i <= $1; i++)); do
		printf "CREATE SERVER node%d FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '%s', port '%d', dbname '%s');\n" \
			"$i" "$(gt_node_socket "$i")" "$(gt_node_port "$i")" "$2"
		printf "CREATE USER MAPPING FOR CURRENT_USER SERVER node%d OPTIONS (user 'postgres');\n" "$i"
	done
}

gt_psql() {
	"$GT_PGBIN/psql" -X -v ON_ERROR_STOP=1 "$@"
}

gt_drop_database() {
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1" >/dev/null 2>&1
}

# The start of the scripts that drive the client (test/t/client_check.sh,
# test/t/ggp_check.sh): the client built, the cluster started, and a fresh
# database DB, the client's default (PGDATABASE), the caller's options
# (PGOPTIONS, PGSERVICE) cleared.  Bails out when it cannot.
gt_client_test_setup() {
	[ -x "$GT_ROOT/client/gametree" ] || make -s -C "$GT_ROOT/client" >/dev/null ||
		{ echo "Bail out! cannot build the client"; exit 1; }
	gt_start_cluster
	export PGDATABASE=$1
	unset PGOPTIONS PGSERVICE
	gt_fresh_database "$1" || { echo "Bail out! cannot create database $1"; exit 1; }
}

# A fresh database with the extension (and the extra extensions named).
gt_fresh_database() {
	local db=$1; shift
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
	for ext in "$@" gametree; do
		gt_psql -q -d "$db" -c "CREATE EXTENSION $ext"
	done
}

# SQL listing where the counts that depth_stats, outcomes and tree_stats
# read differ from counting the tables of tree TREE (an SQL literal or psql
# variable) with tables STATES, GRAPH and MOVES: no rows when they agree.
gt_counts_differ_sql() {
	local tree=$1 states=$2 graph=$3 moves=$4
	cat <<-EOF
	WITH kept AS (SELECT depth, states, expanded, terminal, proven, edges FROM gametree.depth_stats($tree)),
	     counted AS (SELECT s.depth, count(*), count(*) FILTER (WHERE s.expanded AND s.goal IS NULL),
	                        count(*) FILTER (WHERE s.goal IS NOT NULL), count(*) FILTER (WHERE s.proven),
	                        coalesce(sum(e.n), 0)::bigint
	                 FROM $states s LEFT JOIN (SELECT init_id, count(*) AS n FROM $graph GROUP BY init_id) e
	                      ON e.init_id = s.id GROUP BY s.depth),
	     kept_outcomes AS (SELECT role, wins, draws, losses, unproven FROM gametree.outcomes($tree)),
	     counted_outcomes AS (SELECT r.role, count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 100),
	                                 count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric > 0
	                                                  AND (s.utility ->> r.role)::numeric < 100),
	                                 count(*) FILTER (WHERE s.proven AND (s.utility ->> r.role)::numeric = 0),
	                                 count(*) FILTER (WHERE NOT s.proven)
	                          FROM unnest((SELECT g.roles FROM gametree.games() g
	                                       WHERE g.game = (SELECT game FROM gametree.tree_info($tree)))) r(role)
	                          CROSS JOIN $states s GROUP BY r.role)
	(SELECT 'depth_stats, not counted' AS what, k::text AS row FROM (TABLE kept EXCEPT TABLE counted) k)
	UNION ALL (SELECT 'counted, not in depth_stats', c::text FROM (TABLE counted EXCEPT TABLE kept) c)
	UNION ALL (SELECT 'outcomes, not counted', k::text FROM (TABLE kept_outcomes EXCEPT TABLE counted_outcomes) k)
	UNION ALL (SELECT 'counted, not in outcomes', c::text FROM (TABLE counted_outcomes EXCEPT TABLE kept_outcomes) c)
	UNION ALL (SELECT 'moves', t.moves || ' kept, ' || m.n || ' counted' FROM gametree.tree_info($tree) t,
	           (SELECT count(*) AS n FROM $moves) m WHERE t.moves <> m.n)
	EOF
}

gt_setup() {
	gt_install_packages
	gt_lock
	gt_build
	gt_start_cluster
}

# TAP lines of the check scripts: ok and not_ok number the checks (TESTS)
# and count them (PASSED, FAILED); not_ok shows its second argument, at
# most 30 lines, as notes.
TESTS=0 PASSED=0 FAILED=0
ok() {
	TESTS=$((TESTS + 1)) PASSED=$((PASSED + 1))
	printf 'ok %d - %s\n' "$TESTS" "$1"
}
not_ok() {
	TESTS=$((TESTS + 1)) FAILED=$((FAILED + 1))
	printf 'not ok %d - %s\n' "$TESTS" "$1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | head -n 30 | sed 's/^/#   /'
}
note() { printf '# %s\n' "$*"; }

# The checks of the sharded tree scripts (test/t/shard_check.sh,
# test/t/shard_crash_check.sh) on the database DB, which the script sets,
# of the coordinator (the private cluster) or of a node.  Other scripts
# define their own run, q, none and same in their place.
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# run WHERE SQL: the query's rows, unaligned, on the coordinator's database
# (WHERE empty) or on node WHERE's.  The comparisons sort and hash wide rows.
run() {
	if [ -z "$1" ]; then
		PGOPTIONS='-c work_mem=256MB' gt_psql -At -d "$DB" -c "$2"
	else
		gt_node_psql "$1" -At -d "$DB" -c "$2"
	fi
}
q() { run "" "$1"; }

# none DESCRIPTION SQL [NODE]: passes when the query (listing violations)
# returns no row, on the coordinator or on NODE; otherwise shows how many
# and the first ones.
none() {
	local out
	if ! out=$(run "${3:-}" "WITH v AS MATERIALIZED ($2) SELECT count(*)::text FROM v
	                        UNION ALL (SELECT left(v::text, 300) FROM v LIMIT 5)" 2>&1); then
		not_ok "$1" "error: $out"
	elif [ "$(head -n1 <<<"$out")" = 0 ]; then
		ok "$1"
	else
		not_ok "$1" "$(head -n1 <<<"$out") rows, e.g.:
$(tail -n +2 <<<"$out")"
	fi
}

# same DESCRIPTION SQL_A SQL_B: passes when both queries return the same
# rows, as many times each (EXCEPT ALL both ways); each query runs once,
# which halves the time on a tree read through its foreign partitions.
same() {
	none "$1" "WITH a AS MATERIALIZED ($2), b AS MATERIALIZED ($3)
	           (SELECT 'only in the first' AS side, x.* FROM (TABLE a EXCEPT ALL TABLE b) x)
	           UNION ALL (SELECT 'only in the second', y.* FROM (TABLE b EXCEPT ALL TABLE a) y)"
}

STATE_COLUMNS="id, state::text, goal, depth, control, expanded, utility, mobility, proven, best_move"

# compare TREE ONE: the sharded tree TREE, read through the coordinator,
# equals the one-server tree ONE.
compare() {
	local t=$1 one=$2 started; started=$(now)
	none "$t: as many states, edges and moves as $one, and some" \
		"SELECT a.states, b.states, a.edges, b.edges, a.moves, b.moves
		 FROM (SELECT (SELECT count(*) FROM ${t}_states) AS states, (SELECT count(*) FROM ${t}_edges) AS edges,
		              (SELECT count(*) FROM ${t}_moves) AS moves) a,
		      (SELECT (SELECT count(*) FROM ${one}_states) AS states, (SELECT count(*) FROM ${one}_edges) AS edges,
		              (SELECT count(*) FROM ${one}_moves) AS moves) b
		 WHERE (a.states, a.edges, a.moves) IS DISTINCT FROM (b.states, b.edges, b.moves) OR a.states < 2"
	same "$t: states ($STATE_COLUMNS) equal ${one}'s" \
		"SELECT $STATE_COLUMNS FROM ${t}_states" "SELECT $STATE_COLUMNS FROM ${one}_states"
	same "$t: edges (init_id, move_id, next_id) equal ${one}'s" \
		"SELECT init_id, move_id, next_id FROM ${t}_edges" "SELECT init_id, move_id, next_id FROM ${one}_edges"
	same "$t: the graph view's edges and values (utility, mobility, proven, visits, total) equal ${one}'s" \
		"SELECT init_id, move_id, next_id, utility, mobility, proven, visits, total FROM ${t}_graph" \
		"SELECT init_id, move_id, next_id, utility, mobility, proven, visits, total FROM ${one}_graph"
	same "$t: moves (id, move) equal ${one}'s" "SELECT id, move FROM ${t}_moves" "SELECT id, move FROM ${one}_moves"
	same "$t: tree_stats equals ${one}'s" \
		"SELECT * FROM gametree.tree_stats('$t')" "SELECT * FROM gametree.tree_stats('$one')"
	same "$t: depth_stats equals ${one}'s" \
		"SELECT * FROM gametree.depth_stats('$t')" "SELECT * FROM gametree.depth_stats('$one')"
	same "$t: outcomes equal ${one}'s" \
		"SELECT * FROM gametree.outcomes('$t')" "SELECT * FROM gametree.outcomes('$one')"
	same "$t: the principal variation from the root equals ${one}'s" \
		"SELECT * FROM gametree.principal_variation('$t', (SELECT root_id FROM gametree.tree_info('$t')))" \
		"SELECT * FROM gametree.principal_variation('$one', (SELECT root_id FROM gametree.tree_info('$one')))"
	note "time: $t against $one through the coordinator $(since "$started") s"
}
