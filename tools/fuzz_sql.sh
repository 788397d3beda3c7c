#!/usr/bin/env bash
# tools/fuzz_sql.sh: a SQL-level fuzzer of gametree. It feeds generated and
# mutated inputs through every SQL function of the extension, in every
# argument position, and checks that the server never crashes and never
# reports an internal error (SQLSTATE XX000). Any other error is a fine
# answer to a bad input and is counted by SQLSTATE. Inputs include games
# loaded from GDL (the samples of test/data/gdl, mutated, or with hostile
# pieces) and then used, unloaded and loaded again, and SET LOCAL of
# gametree's settings (all of them, as pg_settings lists them) to hostile
# values before a call.
#
#   bash tools/fuzz_sql.sh [N] [options]
#
#   N               inputs to run (default 100000)
#   --seed S        seed of the run (default 1); a seed and N give the same inputs
#   --no-ddl        do not change the definitions of tree tables (ALTER TABLE,
#                   rules, triggers), only their rows
#   --keep-going    go on after a crash (each crash restarts every session of
#                   the server, so the default is to stop at the first one)
#   --replay I,...  print the SQL of inputs I,... (run against a fresh setup
#                   of the same seed) and run it, instead of a run
#   --by-arg        also print the counts per mutated argument
#   --batch B       inputs per transaction (default 200)
#
# It uses the installed extension (it neither builds nor installs) in the
# private cluster of tools/lib.sh, started when it is not running, and a
# database of its own, gametree_fuzz, made afresh each time. The generator
# is tools/fuzz_sql.sql (PL/pgSQL); see the comment at its top. Input i
# depends only on the seed and i, so a run can be repeated and any input
# replayed alone.
#
# Crashes: the inputs run in batches of B, one transaction each, and the
# script notes which batch ran last. When the connection dies (or the
# server log shows "terminated by signal"), the inputs of that batch are
# replayed one at a time in sessions of their own to find the one that
# crashes; its SQL is printed. A batch that exceeds its statement timeout
# (FUZZ_BATCH_TIMEOUT, default 60 s; a batch takes about a second) is
# searched the same way for a hang, an input over FUZZ_INPUT_TIMEOUT (20 s).
#
# Output: a table per function (inputs tried, accepted, rejected by
# SQLSTATE), the internal errors with a reproducer each, and a last line
#   sql fuzz: N inputs, C crashes, X internal errors (XX000); rejections by SQLSTATE: 22023=..., ...
# The exit status is 1 on a crash, a hang or an internal error, 2 when the
# run itself failed (for instance when the extension was reinstalled under
# it: rerun then).
#
# Environment: GAMETREE_PORT as for tools/lib.sh; FUZZ_PGHOST, FUZZ_PGPORT
# and FUZZ_SERVER_LOG point it at another server instead (such as a
# throwaway cluster, where a crash disturbs nobody); FUZZ_DB names the
# database.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

N=100000
SEED=1
DDL=true
KEEP_GOING=false
REPLAY=
BY_ARG=false
BATCH=200
POOL=150
while [ $# -gt 0 ]; do
	case "$1" in
		--seed) SEED=$2; shift 2 ;;
		--no-ddl) DDL=false; shift ;;
		--keep-going) KEEP_GOING=true; shift ;;
		--replay) REPLAY=$2; shift 2 ;;
		--by-arg) BY_ARG=true; shift ;;
		--batch) BATCH=$2; shift 2 ;;
		-h|--help) sed -n '2,/^source/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		[0-9]*) N=$1; shift ;;
		*) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
for v in "$N" "$SEED" "$BATCH"; do
	[[ "$v" =~ ^[0-9]+$ ]] || { echo "not a number: $v" >&2; exit 2; }
done

if [ -n "${FUZZ_PGHOST:-}" ]; then
	export PGHOST=$FUZZ_PGHOST PGPORT=${FUZZ_PGPORT:-5432} PGUSER=${FUZZ_PGUSER:-postgres}
	SERVER_LOG=${FUZZ_SERVER_LOG:-}
else
	gt_start_cluster
	SERVER_LOG="$(gt_cluster_dir)/server.log"
fi
DB=${FUZZ_DB:-gametree_fuzz}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Quiet sessions, but for replays, whose statements come as NOTICEs.
export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
psql_db() { "$GT_PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

log_size() {
	if [ -n "$SERVER_LOG" ] && [ -r "$SERVER_LOG" ]; then stat -c %s "$SERVER_LOG"; else echo 0; fi
}

# Lines of the server log written since byte offset $1.
log_since() {
	if [ -n "$SERVER_LOG" ] && [ -r "$SERVER_LOG" ]; then tail -c +"$(($1 + 1))" "$SERVER_LOG"; fi
}

# After a crash the server restarts all sessions and recovers: wait for it.
wait_server() {
	for _ in $(seq 1 120); do
		"$GT_PGBIN/pg_isready" -q -d "$DB" && psql_db -Atc "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 1
	done
	echo "the server does not accept connections any more" >&2
	exit 2
}

setup() {
	gt_log "database $DB: the extension, the generator, pools and trees (seed $SEED)"
	"$GT_PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres \
		-c "SET client_min_messages = warning" \
		-c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
	psql_db -c "CREATE EXTENSION gametree"
	psql_db -f "$GT_ROOT/tools/fuzz_sql.sql"
	# The sample GDL descriptions, copied as tools/check.sh copies them into
	# reference_gdl: psql reads each file into a variable.
	for file in "$GT_ROOT"/test/data/gdl/*.kif; do
		psql_db -v name="$(basename "$file" .kif)" -v file="$file" <<-'EOF'
			\set kif `cat :'file'`
			INSERT INTO fuzz.kif VALUES (:'name', :'kif');
		EOF
	done
	psql_db -Atc "SELECT fuzz.setup($SEED, $DDL, $POOL)" >"$WORK/setup.txt"
	gt_log "setup: $(cat "$WORK/setup.txt")"
	preflight "the extension does not work in a fresh database"
}

# Every function once with valid arguments: after a reinstall in the middle
# of a run, the library may no longer match the SQL objects of the database.
preflight() {
	local problem
	problem=$(psql_db -Atc "SELECT fuzz.preflight()")
	if [ -n "$problem" ]; then
		echo "$1: $problem" >&2
		echo "(was the extension reinstalled meanwhile? then rerun)" >&2
		exit 2
	fi
}

# Replays input $1 in a session of its own; its statements go to $2.
# Returns psql's status (2: the connection died).
replay_one() {
	local rc=0
	PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=notice" psql_db -At -c "SET statement_timeout = '${FUZZ_INPUT_TIMEOUT:-20s}'" \
		-c "SELECT fuzz.one($1, 'replay')" >"$2" 2>&1 || rc=$?
	return $rc
}

# Prints a replay (NOTICE lines) as SQL, long lines cut.
show_replay() {
	sed -e 's/^NOTICE:  //' -e '/^$/d' "$1" | cut -c1-"${2:-2000}" | sed 's/^/    /'
}

if [ -n "$REPLAY" ]; then
	setup
	for i in ${REPLAY//,/ }; do
		rc=0
		replay_one "$i" "$WORK/replay.txt" || rc=$?
		sed -e 's/^NOTICE:  //' -e '/^$/d' "$WORK/replay.txt"
		[ "$rc" -eq 2 ] && { echo "-- the connection died: a crash"; wait_server; }
	done
	exit 0
fi

START_TIME=$(date +%s%N)
setup
LOG_OFFSET=$(log_size)
VACUUM_TABLES=$(psql_db -Atc "SELECT fuzz.tables()")

CRASHES=0
HANGS=0
STOPPED=false
: >"$WORK/failures.txt"
next=1
gt_log "running $N inputs in batches of $BATCH"
while [ "$next" -le "$N" ]; do
	rc=0
	{
		echo "SET statement_timeout = '${FUZZ_BATCH_TIMEOUT:-60s}';"
		for ((a = next; a <= N; a += BATCH)); do
			echo "SELECT fuzz.run($a, $((a + BATCH - 1 < N ? a + BATCH - 1 : N)));"
			# the dead rows of rolled-back inputs
			[ $(((a / BATCH) % 10)) -eq 9 ] && echo "VACUUM $VACUUM_TABLES;"
		done
	} | psql_db -At 2>"$WORK/run.err" | while read -r upto; do
		# a progress line at every tenth of the run
		if [ $(((upto / BATCH) % ((N / BATCH / 10) > 0 ? N / BATCH / 10 : 1))) -eq 0 ]; then
			gt_log "$upto of $N inputs"
		fi
	done || rc=${PIPESTATUS[1]}
	[ "$rc" -eq 0 ] && break

	# Something stopped the batch: a crash, a hang, or a failure of the run.
	crashed=false
	grep -q "terminated abnormally\|connection to server was lost\|server closed the connection" "$WORK/run.err" && crashed=true
	log_since "$LOG_OFFSET" | grep -q "terminated by signal" && crashed=true
	hung=false
	grep -q "statement timeout" "$WORK/run.err" && hung=true
	if ! $crashed && ! $hung; then
		echo "the run failed:" >&2
		cat "$WORK/run.err" >&2
		exit 2
	fi
	wait_server
	done_upto=$(psql_db -Atc "SELECT done FROM fuzz.progress")
	lo=$((done_upto + 1))
	hi=$((lo + BATCH - 1 < N ? lo + BATCH - 1 : N))
	$crashed && gt_log "the server crashed in inputs $lo-$hi: replaying them one by one"
	$hung && gt_log "inputs $lo-$hi exceeded the statement timeout: replaying them one by one"
	culprit=
	for ((i = lo; i <= hi; i++)); do
		before=$(log_size)
		rc=0
		replay_one "$i" "$WORK/replay-$i.txt" || rc=$?
		if [ "$rc" -eq 2 ] || log_since "$before" | grep -q "terminated by signal"; then
			culprit=$i
			CRASHES=$((CRASHES + 1))
			wait_server
			{
				echo "CRASH at input $i:"
				log_since "$before" | grep "terminated by signal" | head -1 | sed 's/^/    /'
				show_replay "$WORK/replay-$i.txt"
			} >>"$WORK/failures.txt"
			break
		fi
		if grep -q "statement timeout" "$WORK/replay-$i.txt"; then
			culprit=$i
			HANGS=$((HANGS + 1))
			{
				echo "HANG (over ${FUZZ_INPUT_TIMEOUT:-20s}) at input $i:"
				show_replay "$WORK/replay-$i.txt"
			} >>"$WORK/failures.txt"
			break
		fi
		rm -f "$WORK/replay-$i.txt"
	done
	if [ -z "$culprit" ]; then
		# not reproduced by one input alone: report the batch
		if $crashed; then CRASHES=$((CRASHES + 1)); else HANGS=$((HANGS + 1)); fi
		{
			echo "$($crashed && echo CRASH || echo HANG) in inputs $lo-$hi, not reproduced by any one of them alone"
			log_since "$LOG_OFFSET" | grep "terminated by signal" | tail -1 | sed 's/^/    /'
		} >>"$WORK/failures.txt"
		psql_db -c "INSERT INTO fuzz.skip SELECT generate_series($lo, $hi)"
	else
		psql_db -c "INSERT INTO fuzz.skip VALUES ($culprit)"
	fi
	LOG_OFFSET=$(log_size)
	$KEEP_GOING || { STOPPED=true; break; }
	next=$lo
done
ELAPSED=$((($(date +%s%N) - START_TIME) / 1000000000))
wait_server
preflight "the extension stopped working during the run"

# The counts.
echo
psql_db -P footer=off <<'SQL'
\pset null ''
WITH c AS (SELECT fn, sqlstate, sum(n) AS n FROM fuzz.counts GROUP BY fn, sqlstate),
byfn AS (
    SELECT fn, sum(n) AS tried, coalesce(sum(n) FILTER (WHERE sqlstate = '00000'), 0) AS accepted,
           coalesce(sum(n) FILTER (WHERE sqlstate <> '00000'), 0) AS rejected,
           string_agg(sqlstate || '=' || n, ' ' ORDER BY n DESC, sqlstate) FILTER (WHERE sqlstate <> '00000') AS "rejected by SQLSTATE"
    FROM c GROUP BY fn)
SELECT fn AS function, tried, accepted, rejected, "rejected by SQLSTATE" FROM byfn
ORDER BY fn IN ('tree_edit', 'setting', 'fuzzer'), fn;
SQL
if $BY_ARG; then
	echo
	psql_db -P footer=off -c "SELECT fn AS function, arg AS mutated, sum(n) AS tried,
	    coalesce(sum(n) FILTER (WHERE sqlstate = '00000'), 0) AS accepted,
	    string_agg(sqlstate || '=' || n, ' ' ORDER BY n DESC, sqlstate) FILTER (WHERE sqlstate <> '00000') AS \"rejected by SQLSTATE\"
	    FROM fuzz.counts GROUP BY fn, arg ORDER BY fn, arg"
fi
echo "(tree_edit: the edits of tree tables made before tree calls, rejected by their constraints or not;"
echo " setting: settings changed before calls; neither counts as an input)"

# Functions of the extension that no input called (new ones need a generator).
missing=$(psql_db -Atc "SELECT string_agg(DISTINCT p.proname, ', ') FROM pg_proc p
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'gametree'
    WHERE p.proname NOT IN (SELECT fn FROM fuzz.counts)")
[ -n "$missing" ] && echo "WARNING: functions of gametree that no input called: $missing"

harness=$(psql_db -Atc "SELECT coalesce(sum(n), 0) FROM fuzz.counts WHERE sqlstate = 'HARNESS'")
[ "$harness" -gt 0 ] && echo "WARNING: $harness inputs failed inside the generator (GENERATOR FAULT below)"

# Internal errors and signs of a changed installation, one reproducer per kind.
XX=$(psql_db -Atc "SELECT count(*) FROM fuzz.findings WHERE sqlstate LIKE 'XX%'")
XXOTHER=$(psql_db -Atc "SELECT coalesce(string_agg(sqlstate || ' ' || n, ', '), '') FROM
    (SELECT sqlstate, count(*) AS n FROM fuzz.findings WHERE sqlstate LIKE 'XX%' AND sqlstate <> 'XX000' GROUP BY 1) s")
ENV=$(psql_db -Atc "SELECT count(*) FROM fuzz.findings WHERE sqlstate NOT LIKE 'XX%' AND sqlstate <> 'HARNESS'")
if [ "$XX" -gt 0 ] || [ "$ENV" -gt 0 ] || [ "$harness" -gt 0 ]; then
	echo
	psql_db -At -F $'\t' -c "SELECT min(i), sqlstate, count(*), string_agg(DISTINCT fn, ','), min(message)
	    FROM fuzz.findings GROUP BY sqlstate, regexp_replace(message, '[0-9]+', 'N', 'g') ORDER BY 1" |
	while IFS=$'\t' read -r i st n fns msg; do
		case "$st" in XX*) kind="INTERNAL ERROR" ;; HARNESS) kind="GENERATOR FAULT" ;; *) kind="LIBRARY CHANGED" ;; esac
		echo "$kind $st in $n call(s) of $fns: $(echo "$msg" | cut -c1-300)"
		echo "  first at input $i; its SQL (bash tools/fuzz_sql.sh --seed $SEED --replay $i):"
		replay_one "$i" "$WORK/finding.txt" || true
		show_replay "$WORK/finding.txt" 1000
	done
	[ "$ENV" -gt 0 ] && echo "($ENV errors say that the installed library changed during the run: rerun)"
fi
if [ -s "$WORK/failures.txt" ]; then
	echo
	cat "$WORK/failures.txt"
fi

# Inputs counted: those of the committed batches; a crash's input is one more.
inputs=$(psql_db -Atc "SELECT done - (SELECT count(*) FROM fuzz.skip s WHERE s.i <= done) FROM fuzz.progress")
inputs=$((inputs + CRASHES + HANGS))
stopped=
$STOPPED && stopped=" (stopped at the first crash or hang; --keep-going goes on)"
rejections=$(psql_db -Atc "SELECT coalesce(string_agg(sqlstate || '=' || n, ', ' ORDER BY n DESC, sqlstate), 'none')
    FROM (SELECT sqlstate, sum(n) AS n FROM fuzz.counts
          WHERE sqlstate NOT IN ('00000', 'HARNESS') AND sqlstate NOT LIKE 'XX%'
            AND fn NOT IN ('tree_edit', 'setting', 'fuzzer')
          GROUP BY sqlstate) s")
calls=$(psql_db -Atc "SELECT coalesce(sum(n), 0) FROM fuzz.counts WHERE fn NOT IN ('tree_edit', 'setting', 'fuzzer')")
echo
echo "seed $SEED, $calls calls of gametree functions, $ELAPSED s"
hangs=
[ "$HANGS" -gt 0 ] && hangs=", $HANGS hangs"
[ -n "$XXOTHER" ] && XXOTHER=", of which $XXOTHER"
echo "sql fuzz: $inputs inputs$stopped, $CRASHES crashes$hangs, $XX internal errors (XX000$XXOTHER); rejections by SQLSTATE: $rejections"
[ "$CRASHES" -gt 0 ] || [ "$HANGS" -gt 0 ] || [ "$XX" -gt 0 ] && exit 1
[ "$ENV" -gt 0 ] && exit 2
exit 0
