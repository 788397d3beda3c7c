# bench/bench.sh: helpers for the benchmarks (sourced).  Statements are
# timed by psql's \timing on the private cluster, so connection set-up is
# not counted.
source "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"

BENCH_RUNS=${BENCH_RUNS:-5}

# Seconds one statement takes in database $1.
bench_seconds() {
	local db=$1 sql=$2
	gt_psql -d "$db" -qAt -c '\timing on' -c "$sql" | awk '/^Time:/ { printf "%.6f\n", $2 / 1000 }'
}

# Median of BENCH_RUNS timings of one statement.
bench_median() {
	local db=$1 sql=$2
	for _ in $(seq "$BENCH_RUNS"); do bench_seconds "$db" "$sql"; done |
		sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}
