#!/usr/bin/env bash
# Runs every test: pg_regress (sql/ + expected/) and pgTAP (test/, through
# pg_prove) against the private cluster.  Ends with "N passed, N failed" and
# exits non-zero on any failure.
source "$(dirname "$0")/lib.sh"
gt_setup
cd "$GT_ROOT"

passed=0 failed=0
log=$(mktemp -d)

gt_log "pg_regress: $(ls sql/*.sql | wc -l) files"
regress_status=0
make -s installcheck PG_CONFIG="$GT_PGBIN/pg_config" >"$log/regress.out" 2>&1 || regress_status=$?
cat "$log/regress.out"
passed=$((passed + $(grep -cE '^(ok|test) .*\.\.\. ok|^ok [0-9]+ ' "$log/regress.out" || true)))
regress_failed=$(grep -cE '\.\.\. FAILED|^not ok ' "$log/regress.out" || true)
# pg_regress can also stop without a FAILED line (a missing expected file).
[ "$regress_status" -ne 0 ] && [ "$regress_failed" -eq 0 ] && regress_failed=1
failed=$((failed + regress_failed))
[ -f regression.diffs ] && cat regression.diffs

# Only the module magic, _PG_init and the SQL entry points (gametree_*) leave
# the library (src/exports.map), so no internal name collides with another
# library loaded into the same server process.
gt_log "exported symbols of gametree.so"
stray=$(nm -D --defined-only gametree.so | awk '$2 ~ /^[TtWw]$/ { print $3 }' |
	grep -vE '^(Pg_magic_func|_PG_init|gametree_[a-z_0-9]+|pg_finfo_gametree_[a-z_0-9]+)$' || true)
if [ -z "$stray" ]; then
	echo "ok - every exported function of gametree.so is prefixed"
	passed=$((passed + 1))
else
	echo "not ok - unprefixed exported functions: $stray"
	failed=$((failed + 1))
fi

gt_log "pgTAP: $(ls test/*.sql | wc -l) files"
gt_fresh_database gametree_tap pgtap dblink
# Published and independently computed counts (test/data/README.md), for
# the tests to compare with.
gt_psql -q -d gametree_tap \
	-c "CREATE TABLE public.reference_perft (game text, name text, position text, depth int, count bigint,
	                                          count_with_early_ends bigint, source text)" \
	-c "CREATE TABLE public.reference_perft_move_rules (game text, name text, position text, depth int,
	                                                     count bigint, source text)" \
	-c "CREATE TABLE public.reference_positions (game text, ply int, count bigint, source text)" \
	-c "CREATE TABLE public.reference_chess_mates (fen text, mate_in int, stockfish_bestmove text,
	                                               mating_moves text, winning_moves text)" \
	-c "CREATE TABLE public.reference_chess_avoid_mate (fen text, blundering_moves text, safe_moves_count int)" \
	-c "CREATE TABLE public.reference_connect4_values (moves text, plies int, value text, column_values text)" \
	-c "CREATE TABLE public.reference_connect4_exact (moves text, plies int, score int, column_scores text)"
for table in perft perft_move_rules positions chess_mates chess_avoid_mate connect4_values connect4_exact; do
	gt_psql -q -d gametree_tap \
		-c "\\copy public.reference_$table FROM 'test/data/$table.tsv' WITH (FORMAT csv, DELIMITER E'\\t', HEADER true)"
done
# The GDL game descriptions (test/data/gdl/README.md), one row per file, the
# text less its final newline: psql reads each file into a variable, and
# :'kif' quotes it.
gt_psql -q -d gametree_tap -c "CREATE TABLE public.reference_gdl (name text PRIMARY KEY, file text, kif text)"
for file in test/data/gdl/*.kif; do
	gt_psql -q -d gametree_tap -v name="$(basename "$file" .kif)" -v file="$file" <<-'EOF'
		\set kif `cat :'file'`
		INSERT INTO public.reference_gdl VALUES (:'name', :'file', :'kif');
	EOF
done
cd "$GT_ROOT"
pg_prove --verbose --dbname gametree_tap --ext .sql -r test/ >"$log/tap.out" 2>&1 || true
cat "$log/tap.out"
passed=$((passed + $(grep -cE '^ok [0-9]+' "$log/tap.out" || true)))
failed=$((failed + $(grep -cE '^not ok [0-9]+' "$log/tap.out" || true)))
# A test file that dies or plans wrong fails the run even if no assertion did.
grep -qE '^Result: PASS' "$log/tap.out" || failed=$((failed + 1))

# A script that prints "ok N - ..." / "not ok N - ..." lines; one that
# stops before its first test (no database, say) counts as one failure.
tap_script() {
	local name=$1 status=0 stage_failed; shift
	"$@" >"$log/$name.out" 2>&1 || status=$?
	cat "$log/$name.out"
	passed=$((passed + $(grep -cE '^ok [0-9]+' "$log/$name.out" || true)))
	stage_failed=$(grep -cE '^not ok [0-9]+' "$log/$name.out" || true)
	[ "$status" -ne 0 ] && [ "$stage_failed" -eq 0 ] && stage_failed=1
	failed=$((failed + stage_failed))
}

gt_log "layers: includes point down, SQL entry points only in src/sql/"
tap_script layers bash test/layers.sh

gt_log "upgrade from 0.1.0"
tap_script upgrade bash tools/upgrade_check.sh

gt_log "crash safety: kill -9 and an immediate stop during grow"
tap_script crash bash tools/crash_check.sh

gt_log "README samples"
tap_script readme bash tools/readme_check.sh

gt_log "the command-line client"
tap_script client bash tools/client_check.sh

gt_log "two roles at once: games loaded, unloaded and reloaded while trees of them grow"
tap_script concurrency bash tools/concurrency_check.sh

gt_log "the tools that find bugs still build and run: the decoder, SQL and GDL fuzzers"
tap_script tools bash tools/tools_check.sh

# Last: it restarts the private cluster (ending every session on it).
gt_log "a game loaded from GDL outlives a restart of the server"
tap_script gdl_restart bash tools/gdl_restart_check.sh

rm -rf "$log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
