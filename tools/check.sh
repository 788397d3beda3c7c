#!/usr/bin/env bash
# Runs every test of test/ (test/README.md) against the private cluster:
# pg_regress (test/regress/, make installcheck), pgTAP (test/pgtap/, make
# prove) and the scripts of test/t/.  Ends with "N passed, N failed" and
# exits non-zero on any failure.
source "$(dirname "$0")/lib.sh"
gt_setup
cd "$GT_ROOT"

passed=0 failed=0
log=$(mktemp -d)

gt_log "pg_regress: $(ls test/regress/sql/*.sql | wc -l) files"
regress_status=0
make -s installcheck PG_CONFIG="$GT_PGBIN/pg_config" >"$log/regress.out" 2>&1 || regress_status=$?
cat "$log/regress.out"
passed=$((passed + $(grep -cE '^(ok|test) .*\.\.\. ok|^ok [0-9]+ ' "$log/regress.out" || true)))
regress_failed=$(grep -cE '\.\.\. FAILED|^not ok ' "$log/regress.out" || true)
# pg_regress can also stop without a FAILED line (a missing expected file).
[ "$regress_status" -ne 0 ] && [ "$regress_failed" -eq 0 ] && regress_failed=1
failed=$((failed + regress_failed))
[ -f test/regress/regression.diffs ] && cat test/regress/regression.diffs

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

gt_log "pgTAP: $(ls test/pgtap/*.sql | wc -l) files"
make -s prove PG_CONFIG="$GT_PGBIN/pg_config" >"$log/tap.out" 2>&1 || true
cat "$log/tap.out"
passed=$((passed + $(grep -cE '^ok [0-9]+' "$log/tap.out" || true)))
failed=$((failed + $(grep -cE '^not ok [0-9]+' "$log/tap.out" || true)))
# A test file that dies or plans wrong fails the run even if no assertion did.
grep -qE '^Result: PASS' "$log/tap.out" || failed=$((failed + 1))

# A script that prints "ok N - ..." / "not ok N - ..." lines; one that
# stops before its first test (no database, say) counts as one failure.
ran_scripts=()
tap_script() {
	local name=$1 status=0 stage_failed; shift
	ran_scripts+=("$2")
	"$@" >"$log/$name.out" 2>&1 || status=$?
	cat "$log/$name.out"
	passed=$((passed + $(grep -cE '^ok [0-9]+' "$log/$name.out" || true)))
	stage_failed=$(grep -cE '^not ok [0-9]+' "$log/$name.out" || true)
	[ "$status" -ne 0 ] && [ "$stage_failed" -eq 0 ] && stage_failed=1
	failed=$((failed + stage_failed))
}

gt_log "layers: includes point down, SQL entry points only in src/sql/"
tap_script layers bash test/t/layers.sh

gt_log "upgrade from 0.1.0 and from 0.2.0"
tap_script upgrade bash test/t/upgrade_check.sh

gt_log "pg_dump and restore of trees and gametree.state columns"
tap_script dump bash test/t/dump_check.sh

gt_log "crash safety: kill -9 and an immediate stop during grow"
tap_script crash bash test/t/crash_check.sh

gt_log "README samples"
tap_script readme bash test/t/readme_check.sh

gt_log "the command-line client"
tap_script client bash test/t/client_check.sh

gt_log "the GGP player: matches over HTTP with a game manager, hostile requests, records replayed"
tap_script ggp bash test/t/ggp_check.sh

gt_log "two roles at once: games loaded, unloaded and reloaded while trees of them grow"
tap_script concurrency bash test/t/concurrency_check.sh

gt_log "a tree sharded over three local nodes equals the same tree grown on one server"
tap_script shard bash test/t/shard_check.sh

gt_log "sharded trees: a node killed or stopped, the coordinator's session ended mid-grow; roles and their passwords"
tap_script shard_crash bash test/t/shard_crash_check.sh

gt_log "solve as a batch job: connect four proven in trees, a cancel, a terminated session, other sessions at once"
tap_script solve bash test/t/solve_check.sh

gt_log "the tools that find bugs still build and run: the decoder, SQL and GDL fuzzers"
tap_script tools bash test/t/tools_check.sh

gt_log "GDL networks stored by load_game: read back by new sessions, refused when damaged"
tap_script gdl_stored bash test/t/gdl_stored_check.sh

# Last: it restarts the private cluster (ending every session on it).
gt_log "a game loaded from GDL outlives a restart of the server"
tap_script gdl_restart bash test/t/gdl_restart_check.sh


# Every script of test/t/ runs: one added there but not listed above fails.
for script in test/t/*.sh; do
	case " ${ran_scripts[*]} " in
		*" $script "*) ;;
		*) echo "not ok - $script is not run by tools/check.sh"; failed=$((failed + 1)) ;;
	esac
done

rm -rf "$log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
