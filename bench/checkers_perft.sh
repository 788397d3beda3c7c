#!/usr/bin/env bash
# Checkers perft from the initial position: gametree.perft in SQL (the
# game's fast path) against the npm package rapid-draughts, both counting
# the last ply in bulk; the median of 3 runs each, in nodes (leaves) per
# second, and their ratio.  Usage: bench/checkers_perft.sh [depth], default 10.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
depth=${1:-10}
runs=3

if [ ! -d "$BENCH/node_modules/rapid-draughts" ]; then
	echo "== installing rapid-draughts (bench/package.json) into bench/node_modules" >&2
	(cd "$BENCH" && npm install --no-audit --no-fund --silent)
fi

# rapid-draughts first, so the install lock is not held while node runs
echo "== rapid-draughts $(node -p "require('$BENCH/node_modules/rapid-draughts/package.json').version"), node $(node --version)" >&2
rapid=$(node "$BENCH/checkers_perft_rapid.mjs" "$depth" "$runs" | tee /dev/stderr | tail -1)
read -r rapid_leaves rapid_nps <<<"$rapid"

source "$BENCH/../tools/lib.sh"
gt_setup
gt_fresh_database gametree_bench
sql=$(gt_psql -q -d gametree_bench -At -F ' ' <<SQL
CREATE FUNCTION pg_temp.timed_perft(depth int, OUT leaves bigint, OUT seconds float8) AS \$\$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	leaves := gametree.perft('checkers', gametree.initial('checkers'), depth);
	seconds := extract(epoch FROM clock_timestamp() - t0);
END
\$\$ LANGUAGE plpgsql;
SELECT (pg_temp.timed_perft($depth)).* FROM generate_series(1, $runs);
SQL
)
echo "$sql" | awk '{ printf "sql run %d: %d leaves in %.3f s\n", NR, $1, $2 }' >&2
sql_leaves=$(echo "$sql" | head -1 | cut -d' ' -f1)
sql_nps=$(echo "$sql" | awk '{ print $1 / $2 }' | sort -g | sed -n "$(((runs + 1) / 2))p")

if [ "$sql_leaves" != "$rapid_leaves" ]; then
	echo "perft($depth) differs: gametree $sql_leaves, rapid-draughts $rapid_leaves" >&2
	exit 1
fi
awk -v d="$depth" -v n="$sql_leaves" -v s="$sql_nps" -v r="$rapid_nps" 'BEGIN {
	printf "checkers perft(%d) = %d\n", d, n
	printf "gametree (SQL)   %12.0f nodes/s\n", s
	printf "rapid-draughts   %12.0f nodes/s\n", r
	printf "ratio            %12.1f x\n", s / r
}'
