#!/usr/bin/env bash
# load_game of a description with N facts without arguments, each its own
# relation ((f1) (f2) ...) beside a minimal valid game: issue 20 defect 4,
# where reading and grounding were quadratic in the number of relations
# (300,000 facts, 2.9 MB, took about 115 s).  Median of BENCH_RUNS loads
# per size, each in a fresh session, followed by unload_game (not timed);
# the engine the load chose and the backend's peak RSS (VmHWM, of the
# session's last load) are shown too.  The texts pass 1 MB from 100,000
# facts: the script raises gametree.gdl_max_size to 16MB when the setting
# exists.
#
#   bash bench/gdl_parse.sh                           # 20k, 80k, 300k facts
#   GDL_PARSE_SIZES="20000 80000" BENCH_RUNS=5 bash bench/gdl_parse.sh
BENCH_RUNS=${BENCH_RUNS:-3}
GDL_PARSE_SIZES=${GDL_PARSE_SIZES:-"20000 80000 300000"}
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
cd "$GT_ROOT"

median() { sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }

gt_psql -q -d gametree_bench -c "CREATE TABLE bench_kif (facts integer PRIMARY KEY, kif text NOT NULL)"
for n in $GDL_PARSE_SIZES; do
	gt_psql -q -d gametree_bench -v n="$n" <<-'SQL'
		INSERT INTO bench_kif
		SELECT :n, '(role r) (init s) (legal r go) (next s) (<= terminal (true s)) (goal r 100) '
		           || string_agg('(f' || i || ')', ' ')
		FROM generate_series(1, :n) i;
	SQL
done

printf '%8s %10s %-8s %10s %12s\n' facts "text kB" engine "median s" "peak RSS MB"
for n in $GDL_PARSE_SIZES; do
	times=() engine= rss=
	for _ in $(seq "$BENCH_RUNS"); do
		out=$(timeout 900 "$GT_PGBIN/psql" -X -v ON_ERROR_STOP=1 -d gametree_bench -qAt -v n="$n" <<-'SQL'
			SELECT FROM gametree.games() LIMIT 0;
			SELECT count(*) > 0 AS has_max_size FROM pg_settings WHERE name = 'gametree.gdl_max_size' \gset
			\if :has_max_size
			SET gametree.gdl_max_size = '16MB';
			\endif
			SELECT kif FROM bench_kif WHERE facts = :n \gset
			\timing on
			SELECT 'engine', engine FROM gametree.load_game('bench_facts', :'kif');
			\timing off
			SELECT 'rss', substring(pg_read_file('/proc/self/status') from 'VmHWM:\s*(\d+) kB');
			SELECT FROM gametree.unload_game('bench_facts');
		SQL
		)
		engine=$(echo "$out" | sed -n 's/^engine|//p')
		rss=$(echo "$out" | sed -n 's/^rss|//p')
		times+=("$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ print $1 / 1000 }')")
	done
	printf '%8d %10d %-8s %10.3f %12d\n' "$n" \
		"$(gt_psql -d gametree_bench -qAt -c "SELECT length(kif) / 1024 FROM bench_kif WHERE facts = $n")" \
		"$engine" "$(printf '%s\n' "${times[@]}" | median)" $((rss / 1024))
done
echo "(load_game alone, median of $BENCH_RUNS loads, each in a fresh session)"
