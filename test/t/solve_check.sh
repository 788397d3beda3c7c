#!/usr/bin/env bash
# test/t/solve_check.sh: CALL gametree.solve as a batch job, where the
# pgTAP test (inside one transaction) cannot go: connect four positions
# proven in trees, its commits, a cancel, a terminated session, and other
# sessions on the same tree at once.  The positions' values are those
# tools/c4solve established (test/data/connect4_proofs.tsv and
# connect4_values.tsv): 2452141724415 is black's win, 36556423 black's
# (red to move loses), 27546666277 black's.
#
#   bash test/t/solve_check.sh
#
# It uses the installed extension and the private cluster (tools/lib.sh),
# in a database of its own, gametree_solve, dropped at the end.  Checks,
# as TAP lines:
# - the 14 positions after 12 and 14 plies of connect4_proofs.tsv, each
#   proven in a tree of its own: the root's value is c4solve's, its best
#   move a column of that value, its proof checks;
# - a solve cancelled by statement_timeout keeps what it wrote (rows of
#   _proof, committed at each write), its proof checks (the README's
#   query, pg_temp.proof_faults) and the tree's counters equal its
#   tables; a new CALL proves the value from there;
# - the same after pg_terminate_backend;
# - solve, grow, bestmove with the tree and propagate on one tree at once
#   for a few seconds: no error but a lock wait's, no deadlock; then the
#   proof checks, the counters agree, the value is c4solve's, and a
#   propagation from scratch keeps it.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e
gt_start_cluster
DB=gametree_solve
gt_fresh_database "$DB" || { echo "Bail out! cannot create database $DB"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-solve.XXXXXX")
trap 'rm -rf "$WORK"; [ -n "${GT_SOLVE_KEEP:-}" ] || gt_drop_database "$DB"' EXIT

q() { gt_psql -qAt -d "$DB" -c "\i $GT_ROOT/test/pgtap/helpers.psql" -c "$1" 2>&1; }
expect() { # DESCRIPTION WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "want: $2
have: $3"; fi
}
position() { # the connect four position after the columns of $1, as jsonb
	printf "gametree.play('connect4', gametree.initial('connect4'), (SELECT jsonb_agg(jsonb_build_array('drop', c::int) ORDER BY i) FROM string_to_table('%s', NULL) WITH ORDINALITY d(c, i)))" "$1"
}
consistent() { # TREE: its proof checks and its counters equal its tables
	expect "$1: the proof checks (no claim its children do not bear out)" 0 \
		"$(q "SELECT faults FROM pg_temp.proof_faults('$1', 'red')")"
	expect "$1: the counters in the catalogs equal its tables" "" \
		"$(gt_psql -qAt -d "$DB" -c "$(gt_counts_differ_sql "'$1'" "$1_states" "$1_edges" "$1_moves")" 2>&1)"
}
root_value() { q "SELECT coalesce((utility ->> 'red') || ' ' || proven, 'none') FROM $1_states WHERE depth = 0"; }

# Positions after 12 and 14 plies, each in a tree of its own.
bad=()
proven=0
while IFS=$'\t' read -r moves plies value columns; do
	[ "$plies" = 12 ] || [ "$plies" = 14 ] || continue
	q "SELECT gametree.create_tree('c4_$moves', 'connect4', $(position "$moves"))" >/dev/null
	gt_psql -qAt -d "$DB" -c "SET client_min_messages = warning" -c "CALL gametree.solve('c4_$moves')" >/dev/null 2>&1
	# The root's value for the side to move, its best move's column, and the proof check's faults.
	IFS='|' read -r got column faults < <(q "
		SELECT CASE WHEN NOT s.proven THEN 'unproven' WHEN (s.utility ->> s.control)::int = 100 THEN 'win'
		            WHEN (s.utility ->> s.control)::int = 50 THEN 'draw' ELSE 'loss' END,
		       (SELECT a -> 2 ->> 1 FROM jsonb_array_elements(m.move) a WHERE a ->> 1 = s.control),
		       (SELECT faults FROM pg_temp.proof_faults('c4_$moves', 'red'))
		FROM c4_${moves}_states s LEFT JOIN c4_${moves}_moves m ON m.id = s.best_move WHERE s.depth = 0")
	best=$(cut -d, -f"${column:-1}" <<<"$columns")
	if [ "$got" = "$value" ] && [ -n "$column" ] && [ "$best" = "$value" ] && [ "$faults" = 0 ]; then
		proven=$((proven + 1))
	else
		bad+=("$moves: $got, best column $column ($best), $faults faults; c4solve: $value")
	fi
	q "SELECT gametree.drop_tree('c4_$moves')" >/dev/null
done < <(tail -n +2 "$GT_ROOT/test/data/connect4_proofs.tsv")
if [ "$proven" = 14 ]; then
	ok "14 positions after 12 and 14 plies proven in trees: c4solve's values, best moves that keep them, the proofs check"
else
	not_ok "14 positions after 12 and 14 plies proven in trees ($proven)" "$(printf '%s\n' "${bad[@]}")"
fi

# A cancel.
q "SELECT gametree.create_tree('cancelled', 'connect4', $(position 2452141724415))" >/dev/null
out=$(gt_psql -qAt -d "$DB" -c "SET gametree.solve_write_interval = '200ms'" -c "SET statement_timeout = '8s'" \
	-c "CALL gametree.solve('cancelled')" 2>&1)
expect "a solve cut short by statement_timeout is cancelled (57014)" 1 "$(grep -c 'canceling statement due to statement timeout' <<<"$out")"
rows=$(q "SELECT count(*) FROM cancelled_proof WHERE lo > 0 OR hi < 100")
[ "${rows:-0}" -gt 0 ] 2>/dev/null && ok "it kept what it wrote: $rows claims in cancelled_proof" ||
	not_ok "it kept what it wrote" "claims: $rows"
consistent cancelled
gt_psql -qAt -d "$DB" -c "CALL gametree.solve('cancelled')" >/dev/null 2>&1
expect "a new CALL proves black's win from there" "0 true" "$(root_value cancelled)"
consistent cancelled

# A session terminated.
q "SELECT gametree.create_tree('terminated', 'connect4', $(position 36556423))" >/dev/null
gt_psql -qAt -d "$DB" -c "SET application_name = 'solve_check_victim'" -c "SET gametree.solve_write_interval = '200ms'" \
	-c "CALL gametree.solve('terminated')" >"$WORK/terminated.out" 2>&1 &
victim=$!
sleep 8
q "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'solve_check_victim'" >/dev/null
wait "$victim"
expect "pg_terminate_backend ends the solve" 1 "$(grep -c 'terminating connection due to administrator command' "$WORK/terminated.out")"
consistent terminated
gt_psql -qAt -d "$DB" -c "CALL gametree.solve('terminated')" >/dev/null 2>&1
expect "a new CALL proves black's win from there" "0 true" "$(root_value terminated)"
consistent terminated

# Sessions at once on one tree.
q "SELECT gametree.create_tree('shared', 'connect4', $(position 27546666277))" >/dev/null
worker() { # NAME SQL...: runs the statements again and again for 8 s, one per session
	local name=$1 end=$((SECONDS + 8)); shift
	while [ $SECONDS -lt $end ]; do
		for sql in "$@"; do
			gt_psql -qAt -d "$DB" -c "SET lock_timeout = '20s'" -c "SET gametree.progress_interval = '10min'" \
				-c "$sql" >>"$WORK/$name.out" 2>&1 || echo "failed: $sql" >>"$WORK/$name.out"
		done
	done
}
worker solve "SET gametree.solve_write_interval = '100ms'; CALL gametree.solve('shared', time_limit => '2 s')" &
worker grow "CALL gametree.grow('shared', max_depth => 5, time_limit => '1 s')" &
worker search "SELECT gametree.bestmove('connect4', $(position 27546666277), '300 ms', tree => 'shared') IS NOT NULL" \
	"SELECT gametree.propagate('shared') >= 0" &
wait
errors=$(cat "$WORK"/solve.out "$WORK"/grow.out "$WORK"/search.out | grep -E 'ERROR|failed' | grep -v 'lock timeout' | sort | uniq -c)
expect "solve, grow, bestmove and propagate at once: no error" "" "$errors"
gt_psql -qAt -d "$DB" -c "CALL gametree.solve('shared')" >/dev/null 2>&1
expect "the shared tree's root: black's win, proven" "0 true" "$(root_value shared)"
consistent shared
gt_psql -qAt -d "$DB" -c "SELECT gametree.propagate('shared', from_scratch => true)" >/dev/null 2>&1
expect "a propagation from scratch keeps it" "0 true" "$(root_value shared)"
consistent shared

echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
