# tools/lib.sh: shared by the gametree scripts (sourced, not run).
# Installs what is missing, builds and installs the extension, and runs a
# private PostgreSQL cluster inside the checkout on a unix socket.
set -euo pipefail

GT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GT_PGVERSION=15
GT_PGBIN=/usr/lib/postgresql/$GT_PGVERSION/bin
GT_PACKAGES="postgresql-$GT_PGVERSION postgresql-server-dev-$GT_PGVERSION libjson-c-dev libpq-dev
  postgresql-$GT_PGVERSION-pgtap libtap-parser-sourcehandler-pgtap-perl make gcc graphviz"

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

# Starts the private cluster, or reuses it when it already runs.
gt_start_cluster() {
	local dir; dir=$(gt_cluster_dir)
	export PGHOST="$dir/socket" PGPORT=${GAMETREE_PORT:-5439} PGUSER=postgres PGDATABASE=postgres
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		gt_log "creating a private cluster in $dir"
		mkdir -p "$dir/socket"
		[ "$(id -u)" -eq 0 ] && chown -R "$(gt_cluster_user)" "$dir"
		gt_as_cluster_user "$GT_PGBIN/initdb" -D "$dir/data" -U postgres --auth=trust \
			--encoding=UTF8 --no-locale >"$dir/initdb.log"
	fi
	if ! gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
		gt_log "starting the private cluster (socket $PGHOST, port $PGPORT)"
		# The server must not inherit open descriptors such as a held flock.
		(
			for fd in $(ls "/proc/$BASHPID/fd"); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
			gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
				-o "-k '$PGHOST' -p $PGPORT -c listen_addresses='' -c shared_buffers=512MB -c max_wal_size=4GB" \
				start >/dev/null
		)
	fi
	# Where the cluster runs, for the client (gametree), which finds this
	# file from the current directory at run time: a libpq connection string.
	printf "host='%s' port=%s user=postgres dbname=gametree\n" "$PGHOST" "$PGPORT" >"$GT_ROOT/.gametree-cluster"
}

gt_stop_cluster() {
	local dir; dir=$(gt_cluster_dir)
	gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$dir/data" -m fast stop
}

gt_psql() {
	"$GT_PGBIN/psql" -X -v ON_ERROR_STOP=1 "$@"
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
