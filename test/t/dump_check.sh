#!/usr/bin/env bash
# test/t/dump_check.sh: does pg_dump and restore keep a database of trees?
# (issue 23: states are gametree.state values, whose text form the dump
# writes and whose input reads them back, by the game the column's type
# modifier names, a game from GDL included.)
#
#   bash test/t/dump_check.sh
#
# It uses the installed extension (it neither builds nor installs) and the
# private cluster of tools/lib.sh.  In a database of its own, gametree_dump,
# it loads test/data/gdl/ticTacToe.kif as dump_ttt, grows trees of connect4
# and of dump_ttt a few plies, and makes a user table with gametree.state
# columns of both games.  It dumps that database plain (psql restores it)
# and custom (-Fc, pg_restore restores it) into two new databases, and
# checks in each: the tables hold the same rows, written the same way
# (COPY's text form: a state's JSON), the columns print the same types,
# a recorded match replays and goes on, a new one takes the next id,
# the trees grow on and propagate as the original's do, and a binary COPY
# of a tree's states out and back in gives the same rows.  The databases
# are dropped at the end.  Half a minute.
#
# The trees' state column is whatever create_tree makes (jsonb before
# 0.3.0's store change, gametree.state('<game>') after it): the checks
# compare what is there.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines, then `1..N`; the exit
# status is 1 when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

DB=gametree_dump
RESTORED=(gametree_dump_plain gametree_dump_custom)
KIF=$GT_ROOT/test/data/gdl/ticTacToe.kif
TREES=(t_c4 t_gdl)
work=$(mktemp -d)
n=0 failed=0

cleanup() {
	for db in "$DB" "${RESTORED[@]}"; do
		gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

check() {  # check <description> <command...>: one TAP line
	local description=$1; shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $description"; else echo "not ok $n - $description"; failed=$((failed + 1)); fi
}

gt_start_cluster
unset PGOPTIONS PGSERVICE
gt_fresh_database "$DB" || { echo "Bail out! cannot create database $DB"; exit 1; }
gt_psql -q -d "$DB" -v kif_file="$KIF" >/dev/null <<-'EOF' || { echo "Bail out! cannot set up $DB"; exit 1; }
	\set kif `cat :'kif_file'`
	SELECT gametree.load_game('dump_ttt', :'kif');
	SELECT gametree.create_tree('t_c4', 'connect4');
	CALL gametree.grow('t_c4', max_depth => 3);
	SELECT gametree.create_tree('t_gdl', 'dump_ttt');
	CALL gametree.grow('t_gdl', max_depth => 3);
	CREATE TABLE public.positions (name text PRIMARY KEY, c4 gametree.state('connect4'),
	                               ttt gametree.state('dump_ttt'));
	INSERT INTO public.positions
	  SELECT 'initial', gametree.initial('connect4'), gametree.initial('dump_ttt')
	  UNION ALL
	  SELECT 'first ' || m.move::text, m.next, NULL
	  FROM gametree.successors('connect4', gametree.initial('connect4')) m;
	SELECT gametree.match_begin('dump.1', 'dump_ttt', 'xplayer', '10 s', '2 s', 't_gdl');
	SELECT gametree.match_move(1, '[["does", "xplayer", ["mark", 2, 2]], ["does", "oplayer", "noop"]]');
	SELECT gametree.match_begin('dump.2', 'connect4', 'red', '10 s', '2 s');
	SELECT gametree.match_end(2, aborted => true);
	EOF

# A table's rows in COPY's text form, sorted: the same text in two
# databases is the same rows, states as their JSON.
rows() {  # rows <db> <table>
	gt_psql -d "$1" -c "\\copy (SELECT * FROM $2) TO STDOUT" | LC_ALL=C sort
}
# The type of each column of the tables compared, as format_type prints it.
types() {  # types <db>
	gt_psql -At -d "$1" -c "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY 1, 2"
}
tables() {  # tables [with_catalog]
	local t
	echo public.positions
	[ -n "${1:-}" ] && echo gametree.trees gametree.gdl_games gametree.matches
	for t in "${TREES[@]}"; do echo "public.${t}_states public.${t}_moves public.${t}_graph"; done
}
# same_rows <db> <other db> <what> [with_catalog]: every table holds the same rows in both.
same_rows() {
	local t differ=0
	for t in $(tables "${4:-}"); do
		if ! diff <(rows "$1" "$t") <(rows "$2" "$t") >"$work/diff" 2>&1; then
			echo "# $t differs between $1 and $2 ($3):"; head -5 "$work/diff" | sed 's/^/#   /'
			differ=1
		fi
	done
	[ "$differ" -eq 0 ]
}

"$GT_PGBIN/pg_dump" -d "$DB" -f "$work/plain.sql" 2>"$work/dump.err"
check "pg_dump writes a plain dump" test -s "$work/plain.sql"
"$GT_PGBIN/pg_dump" -Fc -d "$DB" -f "$work/dump.custom" 2>>"$work/dump.err"
check "pg_dump -Fc writes a custom dump" test -s "$work/dump.custom"
for db in "${RESTORED[@]}"; do
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
done
check "psql restores the plain dump without an error" \
	gt_psql -q -o /dev/null -d gametree_dump_plain -v ON_ERROR_STOP=1 -f "$work/plain.sql"
check "pg_restore restores the custom dump without an error" \
	"$GT_PGBIN/pg_restore" --exit-on-error -d gametree_dump_custom "$work/dump.custom"

states_type=$(gt_psql -At -d "$DB" -c "SELECT format_type(atttypid, atttypmod) FROM pg_attribute
	WHERE attrelid = 'public.t_gdl_states'::regclass AND attname = 'state'")
echo "# the trees' states column is $states_type"

for db in "${RESTORED[@]}"; do
	check "$db: the trees, the catalog and the user table hold the same rows, states as the same JSON" \
		same_rows "$DB" "$db" restored with_catalog
	check "$db: every column prints the same type (gametree.state('<game>') too)" \
		diff <(types "$DB") <(types "$db")
	check "$db: a state of the GDL game is of it" test \
		"$(gt_psql -At -d "$db" -c "SELECT gametree.game_of(ttt) FROM public.positions WHERE name = 'initial'")" = dump_ttt
	# the identity's sequence is dumped too: a new match does not take a restored one's id
	check "$db: a recorded match replays to its state, goes on, and a new one takes the next id" test \
		"$(gt_psql -At -d "$db" -c "SELECT (SELECT state FROM gametree.match_replay(1) ORDER BY ply DESC LIMIT 1) = state
			FROM gametree.matches WHERE id = 1" \
			-c "SELECT gametree.terminal('dump_ttt', gametree.match_move(1, '[[\"does\", \"xplayer\", \"noop\"],
				[\"does\", \"oplayer\", [\"mark\", 1, 1]]]'))" \
			-c "SELECT gametree.match_begin('dump.3', 'connect4', 'red', '1 s', '1 s')" 2>&1 | tr '\n' ' ')" = "t f 3 "
done

# The trees grow on, and propagate, alike in all three databases.
for db in "$DB" "${RESTORED[@]}"; do
	gt_psql -q -o /dev/null -d "$db" -c "CALL gametree.grow('t_c4', max_depth => 4)" \
		-c "CALL gametree.grow('t_gdl', max_depth => 5)" -c "SELECT gametree.propagate('t_c4')" \
		-c "SELECT gametree.propagate('t_gdl')" 2>"$work/grow.err" ||
		{ echo "# growing in $db:"; sed 's/^/#   /' "$work/grow.err"; }
done
for db in "${RESTORED[@]}"; do
	check "$db: the restored trees grow and propagate as the original's do" same_rows "$DB" "$db" grown
done
check "the trees grew (connect4: $(gt_psql -At -d "$DB" -c "SELECT states FROM gametree.tree_stats('t_c4')") states)" test \
	"$(gt_psql -At -d "$DB" -c "SELECT count(*) FROM public.t_c4_states WHERE depth = 4")" -gt 0

# A binary COPY of a tree's states out and back in (state_send, state_recv
# when the column is gametree.state).
copied=$(gt_psql -At -d "$DB" -c "SET client_min_messages = warning" \
	-c "\\copy public.t_gdl_states TO '$work/states.bin' (FORMAT binary)" \
	-c "CREATE TABLE public.copied (LIKE public.t_gdl_states)" \
	-c "\\copy public.copied FROM '$work/states.bin' (FORMAT binary)" \
	-c "SELECT count(*) FROM ((TABLE public.copied EXCEPT TABLE public.t_gdl_states)
	                         UNION ALL (TABLE public.t_gdl_states EXCEPT TABLE public.copied)) d" 2>&1 | tail -n 1)
check "a binary COPY of a tree's states out and back in gives the same rows (rows differing: $copied)" test "$copied" = 0

echo "1..$n"
[ "$failed" -eq 0 ]
