#!/usr/bin/env bash
# test/t/concurrency_check.sh: two roles on one server, one loading, unloading
# and reloading games from GDL while the other grows, searches and propagates
# trees of them.  Does the server stay up, does every error say something
# true, and is every tree consistent afterwards?
#
#   bash test/t/concurrency_check.sh
#
# It uses the installed extension (it neither builds nor installs; run
# tools/check.sh or tools/demo.sh first) and the private cluster of
# tools/lib.sh, in a database of its own, gametree_concurrency, dropped at the
# end (GT_CONCURRENCY_KEEP=1 keeps it, and the workers' logs). It creates the
# roles alice and bob (LOGIN; the private cluster trusts local connections)
# when they are missing, each with a schema of its own, and runs for
# GT_CONCURRENCY_SECONDS (default 60) five sessions, each a psql fed one
# operation at a time:
#
#   bob1, bob2    load, unload and reload (unload and load in one
#                 transaction, READ COMMITTED or REPEATABLE READ, a quarter of
#                 them rolled back) the games bob_ttt, bob_c4, bob_nim,
#                 bob_ttt3 and bob_swap from test/data/gdl/ (ticTacToe,
#                 connect4, nim1, tictactoe_3player), with a changed comment
#                 or changed rules under the same name (tic-tac-toe's draw
#                 worth 40/60, nim with a smaller heap, and bob_swap taking
#                 any of three games, roles and all); unloads of games that
#                 alice's trees use must fail with 2BP01;
#   alice1..3     on three shared tree names (so two sessions often work on
#                 one tree at once), and a fourth tree of tic-tac-toe that
#                 is never dropped: create_tree of bob's games and of the
#                 built-in tictactoe and connect4 (also in a REPEATABLE READ
#                 transaction), CALL grow with small limits under
#                 gametree.progress_interval '50ms' and a small
#                 grow_batch_size (also inside a transaction block),
#                 grow_step, propagate(tree, false) and (tree, true), bestmove
#                 and analyse with tree => by Monte Carlo and by alpha-beta
#                 with short time limits, drop_tree, and an unload of bob's
#                 game (42501).
#
# An error that is a true answer in such a race (a game unloaded or a tree
# dropped meanwhile, a game in use, a serialization failure, a lock wait past
# lock_timeout, ...) is counted; any other error fails the run, and so do an
# internal error (XX000), a deadlock (40P01), a lost connection, a restart of
# the server (pg_postmaster_start_time() changed) and a backend that the
# server log says ended by a signal.  Afterwards, for every tree: the
# counters in gametree.trees equal the counts of its tables; every state's id
# is gametree.state_hash() of its state, and its goal and control those of
# the game as loaded now; every expanded state's edges are its successors by
# those rules; values name the game's roles; propagate(tree, false) leaves
# nothing pending, and the values it leaves equal those that propagate(tree,
# true) computes from scratch after it.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines with `#` notes (the
# operations per kind and the errors per SQLSTATE), then `1..N`; the exit
# status is 1 when a check failed.  About 60 s plus 5 to 15 s.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

DB=gametree_concurrency
SECONDS_TO_RUN=${GT_CONCURRENCY_SECONDS:-60}
case $SECONDS_TO_RUN in '' | *[!0-9]*) echo "GT_CONCURRENCY_SECONDS must be a number of seconds" >&2; exit 2 ;; esac
TREES=(t1 t2 t3)
# A fourth tree, of a built-in game, that alice grows, searches and
# propagates with the others but never drops: the checks afterwards always
# have a tree that went through the race.
KEPT=kept
BOB_GAMES=(bob_ttt bob_c4 bob_nim bob_ttt3 bob_swap)
TREE_GAMES=("${BOB_GAMES[@]}" tictactoe connect4)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-concurrency.XXXXXX")
cleanup() {
	local status=$?
	if [ "${GT_CONCURRENCY_KEEP:-0}" = 1 ]; then
		gt_log "kept the database $DB and the workers' logs in $WORK"
	else
		gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" \
			>/dev/null 2>&1
		rm -rf "$WORK"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_start_cluster
unset PGOPTIONS PGSERVICE
SERVER_LOG=$(gt_cluster_dir)/server.log
gt_fresh_database "$DB" || { echo "Bail out! cannot create database $DB"; exit 1; }

# q SQL: the query's rows, unaligned, as the superuser; errors on stdout too.
q() { gt_psql -qAt -d "$DB" -c "SET client_min_messages = warning" -c "$1" 2>&1; }

# ------------------------------------------------------------------ setup

# The roles are the cluster's, shared with test/pgtap/security.sql and others:
# create them only when missing.  The texts of the games go into a table
# that both may read, so that an operation names them instead of sending
# kilobytes.
out=$( {
	cat <<-'EOF'
	SET client_min_messages = warning;
	DO $$ BEGIN
	  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN; END IF;
	  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bob') THEN CREATE ROLE bob LOGIN; END IF;
	END $$;
	ALTER ROLE alice LOGIN;
	ALTER ROLE bob LOGIN;
	CREATE SCHEMA alice AUTHORIZATION alice;
	CREATE SCHEMA bob AUTHORIZATION bob;
	CREATE TABLE public.kifs (file text PRIMARY KEY, kif text NOT NULL);
	GRANT SELECT ON public.kifs TO PUBLIC;
	EOF
	for file in ticTacToe connect4 nim1 tictactoe_3player; do
		printf "\\\\set f :gdl '/%s.kif'\n\\\\set kif \`cat :'f'\`\nINSERT INTO public.kifs VALUES ('%s', :'kif');\n" "$file" "$file"
	done
	cat <<-'EOF'
	-- Changed rules under the same name: a draw worth 40 to x and 60 to o,
	-- and nim with heap b of 3 instead of 5.
	INSERT INTO public.kifs
	SELECT 'ticTacToe_40_60', replace(replace(kif, '(<= (goal xplayer 50)', '(<= (goal xplayer 40)'),
	                                  '(<= (goal oplayer 50)', '(<= (goal oplayer 60)')
	FROM public.kifs WHERE file = 'ticTacToe'
	UNION ALL
	SELECT 'nim1_small', replace(kif, '(init (heap b 5))', '(init (heap b 3))') FROM public.kifs WHERE file = 'nim1';
	SELECT 'variants unchanged: ' || string_agg(a.file, ', ')
	FROM public.kifs a JOIN public.kifs b ON b.kif = a.kif AND b.file <> a.file HAVING count(*) > 0;
	EOF
	} | gt_psql -qAt -d "$DB" -v gdl="$GT_ROOT/test/data/gdl" 2>&1
)
if [ -z "$out" ]; then
	ok "setup: roles alice and bob with schemas of their own, the GDL texts and their variants"
else
	not_ok "setup: roles alice and bob with schemas of their own, the GDL texts and their variants" "$out"
	echo "1..$TESTS"
	exit 1
fi
gt_psql -qAt -d "$DB" -U alice -c "SELECT gametree.create_tree('alice.$KEPT', 'tictactoe')" \
	>/dev/null 2>>"$WORK/setup.err"
# Loaded once before the run, so that alice finds games from the start.
for g in "${BOB_GAMES[@]}"; do
	gt_psql -qAt -d "$DB" -U bob -c "SELECT game FROM gametree.load_game('$g',
	  (SELECT kif FROM public.kifs WHERE file = '$(case $g in bob_c4) echo connect4 ;; bob_nim) echo nim1 ;;
	                                                     bob_ttt3) echo tictactoe_3player ;; *) echo ticTacToe ;; esac)'))" \
		>/dev/null 2>>"$WORK/setup.err"
done

STARTED=$(q "SELECT pg_postmaster_start_time()")
LOG_FROM=$(($(wc -l <"$SERVER_LOG") + 1))
note "$SECONDS_TO_RUN s, server started $STARTED"

# ------------------------------------------------------------- operations

# pick WORD...: one of the words, at random.
pick() { local a=("$@"); printf '%s' "${a[RANDOM % ${#a[@]}]}"; }

# kif_of GAME: an SQL expression for one of the texts bob loads under the
# name GAME, at random: the file, the file with a comment of its own (the
# same rules), or rules changed under the same name.
kif_of() {
	local file
	case $1 in
	bob_ttt) file=$(pick ticTacToe ticTacToe ticTacToe_40_60) ;;
	bob_c4) file=connect4 ;;
	bob_nim) file=$(pick nim1 nim1 nim1_small) ;;
	bob_ttt3) file=tictactoe_3player ;;
	bob_swap) file=$(pick ticTacToe tictactoe_3player nim1_small) ;;
	esac
	if ((RANDOM % 2)); then
		printf "(SELECT kif FROM public.kifs WHERE file = '%s')" "$file"
	else
		printf "(SELECT kif || E'\\\\n; variant %d' FROM public.kifs WHERE file = '%s')" "$RANDOM" "$file"
	fi
}

# Each operation function sets OP (its kind) and SQL (the statements).
bob_op() {
	local g r end
	g=$(pick "${BOB_GAMES[@]}")
	r=$((RANDOM % 100))
	end=$( ((RANDOM % 4)) && echo COMMIT || echo ROLLBACK)
	if ((r < 25)); then
		OP=load SQL="SELECT game FROM gametree.load_game('$g', $(kif_of "$g"));"
	elif ((r < 50)); then
		OP=unload SQL="SELECT gametree.unload_game('$g');"
	elif ((r < 70)); then
		OP=reload_read_committed
		SQL="BEGIN; SELECT gametree.unload_game('$g'); SELECT game FROM gametree.load_game('$g', $(kif_of "$g")); $end;"
	elif ((r < 92)); then
		# The snapshot is taken before alice creates or grows the tree that
		# uses the game: the unload must see the tree all the same.
		OP=reload_repeatable_read
		SQL="BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM gametree.trees;
		     SELECT pg_sleep(0.05 * $((RANDOM % 4))); SELECT gametree.unload_game('$g');
		     SELECT game FROM gametree.load_game('$g', $(kif_of "$g")); $end;"
	else
		OP=play SQL="SELECT gametree.perft('$g', gametree.initial('$g'), 2);"
	fi
}

alice_op() {
	local t r tree method fn limit
	t=$(pick "${TREES[@]}" "$KEPT")
	tree=alice.$t
	r=$((RANDOM % 100))
	# The kept tree is never dropped, nor created again: it grows instead.
	if [ "$t" = "$KEPT" ] && { ((r < 13)) || ((r >= 93)); }; then
		r=20
	fi
	method=$(pick mcts alphabeta)
	fn=$(pick bestmove analyse)
	limit="'$((50 + RANDOM % 150)) ms'"
	if ((r < 10)); then
		OP=create_tree SQL="SELECT gametree.create_tree('$tree', '$(pick "${TREE_GAMES[@]}")');"
	elif ((r < 13)); then
		OP=create_tree_repeatable_read
		SQL="BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM gametree.gdl_games; SELECT pg_sleep(0.05);
		     SELECT gametree.create_tree('$tree', '$(pick "${TREE_GAMES[@]}")');
		     SELECT * FROM gametree.grow_step('$tree', 20); COMMIT;"
	elif ((r < 27)); then
		OP=grow SQL="CALL gametree.grow('$tree', max_states => $((200 + RANDOM % 2800)), time_limit => '2 s');"
	elif ((r < 30)); then
		OP=grow_in_transaction
		SQL="BEGIN; CALL gametree.grow('$tree', max_states => $((200 + RANDOM % 1000)), time_limit => '1 s'); COMMIT;"
	elif ((r < 42)); then
		OP=grow_step SQL="SELECT * FROM gametree.grow_step('$tree', $((10 + RANDOM % 60)));"
	elif ((r < 52)); then
		OP=propagate_incremental SQL="SELECT gametree.propagate('$tree', false);"
	elif ((r < 58)); then
		OP=propagate_from_scratch SQL="SELECT gametree.propagate('$tree', true);"
	elif ((r < 93)); then
		# A state of the tree that is not terminal, searched with the tree
		# as the search's memory.
		OP=${fn}_$method
		SQL="SELECT count(*) FROM gametree.trees t
		     CROSS JOIN LATERAL (SELECT state FROM ${tree}_states WHERE goal IS NULL ORDER BY random() LIMIT 1) s
		     CROSS JOIN LATERAL (SELECT $([ "$fn" = analyse ] && echo "*" || echo "x") FROM
		       gametree.$fn(t.game, s.state, time_limit => $limit, method => '$method', tree => '$tree') x) r
		     WHERE t.schema = 'alice' AND t.name = '$t';"
	elif ((r < 98)); then
		OP=drop_tree SQL="SELECT gametree.drop_tree('$tree');"
	else
		OP=unload_bobs_game SQL="SELECT gametree.unload_game('$(pick "${BOB_GAMES[@]}")');"
	fi
}

# The category of an error (SQLSTATE, message) that is a true answer in
# this race, or nothing.
expected_error() {
	case "$1 $2" in
	"22023 unknown game"*) echo "game unloaded meanwhile" ;;
	"2BP01 game "*" is used by trees"*) echo "game used by trees" ;;
	"42704 game "*" is not loaded"*) echo "game not loaded" ;;
	"42710 game "*" is already loaded"*) echo "game already loaded" ;;
	"40001 "*) echo "serialization failure" ;;
	"55P03 "*) echo "lock wait past lock_timeout" ;;
	"25P02 "*) echo "after an earlier error in the transaction" ;;
	"22023 unknown tree"* | "42P01 "*) echo "tree dropped meanwhile" ;;
	"55000 tree "*" was dropped by another session"*) echo "tree dropped meanwhile" ;;
	"42P07 tree "*" already exists"*) echo "tree exists" ;;
	"22023 tree "*" plays "*) echo "tree made again of another game" ;;
	"22023 the state is not in tree"*) echo "tree made again" ;;
	"0A000 "*"alpha-beta needs two roles that take turns"*) echo "alpha-beta on a game it does not apply to" ;;
	"42501 permission denied to unload game"*) echo "alice may not unload bob's game" ;;
	esac
}

# worker NAME ROLE OPFUNCTION SETTINGS: runs operations from OPFUNCTION in
# one psql session of ROLE until the deadline, one at a time, each followed
# by a marker that the worker waits for; markers and errors both go to
# psql's stderr, which keeps their order.  Writes to $WORK/NAME.log one line
# per operation ("op KIND ok|error") and per error ("error KIND SQLSTATE
# MESSAGE"), and "lost KIND ..." when the session ended or stopped answering.
worker() {
	local name=$1 role=$2 opfn=$3 settings=$4 n=0 line state msg failed log=$WORK/$1.log
	coproc PSQL { exec "$GT_PGBIN/psql" -X -q -d "$DB" -U "$role" 2>&1 >/dev/null; }
	local to=${PSQL[1]} from=${PSQL[0]}
	printf '%s\n' '\set VERBOSITY verbose' '\set ON_ERROR_STOP 0' "$settings" >&"$to"
	while [ "$(date +%s)" -lt "$DEADLINE" ]; do
		n=$((n + 1))
		"$opfn"
		printf '\\warn @op %s\n%s\n\\warn @end %d\n' "$OP" "$SQL" "$n" >&"$to" 2>/dev/null ||
			{ echo "lost $OP: the session is gone" >>"$log"; break; }
		failed=0
		while :; do
			if ! IFS= read -r -t 120 line <&"$from"; then
				echo "lost $OP: no answer (session ended, or 120 s passed)" >>"$log"
				break 2
			fi
			case $line in
			"@end $n") break ;;
			*"ERROR:  "[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]": "*)
				msg=${line#*ERROR:  }
				state=${msg%%:*}
				msg=${msg#*: }
				printf 'error %s %s %s\n' "$OP" "$state" "$msg" >>"$log"
				failed=1
				;;
			*"FATAL:"* | *"server closed the connection"* | *"connection to server was lost"* | *"no connection to the server"*)
				echo "lost $OP: $line" >>"$log"
				failed=1
				;;
			esac
		done
		echo "op $OP $([ "$failed" = 0 ] && echo ok || echo error)" >>"$log"
	done
	exec {to}>&-
	wait "$PSQL_PID" 2>/dev/null
}

SESSION="SET client_min_messages = warning; SET lock_timeout = '5s'; SET statement_timeout = '30s';"
ALICE_SESSION="$SESSION SET search_path = alice, public; SET gametree.progress_interval = '50ms';
  SET gametree.grow_batch_size = 50; SET gametree.propagate_interval = '200ms';"

gt_log "running bob1, bob2 (games) and alice1..3 (trees) for $SECONDS_TO_RUN s"
DEADLINE=$(($(date +%s) + SECONDS_TO_RUN))
pids=()
worker bob1 bob bob_op "$SESSION SET search_path = bob, public;" & pids+=($!)
worker bob2 bob bob_op "$SESSION SET search_path = bob, public;" & pids+=($!)
for i in 1 2 3; do
	worker "alice$i" alice alice_op "$ALICE_SESSION" & pids+=($!)
done
wait "${pids[@]}"
note "time: workers done after $(($(date +%s) - DEADLINE + SECONDS_TO_RUN)) s"
CHECKS_FROM=$(date +%s)

# ----------------------------------------------------------- the answers

cat "$WORK"/*.log >"$WORK/all.log" 2>/dev/null
note "operations (ok / error), per kind:"
awk '$1 == "op" { n[$2 " " $3]++; k[$2] = 1 }
     END { for (x in k) printf "#   %-28s %6d ok %6d error\n", x, n[x " ok"], n[x " error"] }' \
	"$WORK/all.log" | sort
unexpected= counts=
while read -r kind state msg; do
	category=$(expected_error "$state" "$msg")
	if [ -z "$category" ]; then
		unexpected+="$kind: $state: $msg"$'\n'
		category=UNEXPECTED
	fi
	printf '%s\t%s\n' "$state" "$category"
done < <(grep '^error ' "$WORK/all.log" | cut -d' ' -f2-) >"$WORK/errors.tsv"
note "errors per SQLSTATE:"
sort "$WORK/errors.tsv" | uniq -c | sort -rn | awk -F'\t' '{ printf "#   %s (%s)\n", $1, $2 }' | sed 's/^#   *\([0-9]*\) /#   \1 x /'

count_ok() { awk -v k="$1" '$1 == "op" && $2 == k && $3 == "ok"' "$WORK/all.log" | wc -l; }
count_state() { grep -c "^error [^ ]* $1 " "$WORK/all.log"; }

lost=$(grep '^lost ' "$WORK/all.log")
if [ -z "$lost" ]; then ok "no session lost its connection"; else not_ok "no session lost its connection" "$lost"; fi
if [ "$(count_state XX000)" = 0 ]; then
	ok "no internal error (XX000)"
else
	not_ok "no internal error (XX000)" "$(grep '^error [^ ]* XX000 ' "$WORK/all.log" | sort | uniq -c | sort -rn)"
fi
if [ "$(count_state 40P01)" = 0 ]; then
	ok "no deadlock (40P01)"
else
	not_ok "no deadlock (40P01): $(count_state 40P01)" "$(grep '^error [^ ]* 40P01 ' "$WORK/all.log" | sort | uniq -c | sort -rn)"
fi
if [ -z "$unexpected" ]; then
	ok "every other error is a true answer in this race"
else
	not_ok "every other error is a true answer in this race" "$(sed '/^$/d' <<<"$unexpected" | sort | uniq -c | sort -rn)"
fi

# The run did what it is meant to: games reloaded while trees used others
# (or earlier texts of the same), unloads refused for games in use, and every
# kind of tree operation succeeded at least once.
reloads=$(($(count_ok reload_read_committed) + $(count_ok reload_repeatable_read)))
refused=$(count_state 2BP01)
if [ "$reloads" -gt 0 ] && [ "$refused" -gt 0 ] && [ "$(count_ok load)" -gt 0 ] && [ "$(count_ok unload)" -gt 0 ]; then
	ok "bob loaded, unloaded and reloaded games ($reloads reloads), and $refused unloads of games in use were refused"
else
	not_ok "bob loaded, unloaded and reloaded games, and unloads of games in use were refused" \
		"reloads $reloads, loads $(count_ok load), unloads $(count_ok unload), refused with 2BP01: $refused"
fi
missing=
for k in create_tree grow grow_in_transaction grow_step propagate_incremental propagate_from_scratch \
	bestmove_mcts bestmove_alphabeta analyse_mcts analyse_alphabeta drop_tree; do
	[ "$(count_ok "$k")" -gt 0 ] || missing+=" $k"
done
if [ -z "$missing" ]; then
	ok "alice created, grew, searched (mcts and alpha-beta), propagated and dropped trees"
else
	not_ok "alice's operations each succeeded at least once" "never:$missing"
fi

# ----------------------------------------------------------- the server

now_started=$(q "SELECT pg_postmaster_start_time()")
if [ "$now_started" = "$STARTED" ]; then
	ok "the server did not restart (pg_postmaster_start_time() $STARTED)"
else
	not_ok "the server did not restart" "started $STARTED before, $now_started now"
fi
bad_log=$(tail -n "+$LOG_FROM" "$SERVER_LOG" |
	grep -E 'terminated by signal|was terminated by|exited with exit code|PANIC|TRAP:|all server processes terminated|deadlock detected' |
	head -n 20)
if [ -z "$bad_log" ]; then
	ok "the server log shows no backend ended by a signal, no crash and no deadlock"
else
	not_ok "the server log shows no backend ended by a signal, no crash and no deadlock" "$bad_log"
fi

# ------------------------------------------------------------- the trees

mapfile -t trees < <(q "SELECT format('%s|%s', quote_ident(schema) || '.' || quote_ident(name), game)
                        FROM gametree.trees ORDER BY schema, name")
note "trees afterwards: $(q "SELECT coalesce(string_agg(format('%s.%s (%s: %s states, %s edges, frontier %s, pending %s)',
        schema, name, game, states, edges, frontier, pending), ', ' ORDER BY name), 'none') FROM gametree.trees")"
if [ "${#trees[@]}" -gt 0 ]; then
	ok "${#trees[@]} trees are left to check"
else
	not_ok "trees are left to check" "alice dropped them all"
fi

# each_tree DESCRIPTION SQL [PRELUDE]: SQL lists a tree's violations; it
# and PRELUDE (statements run first in the same session, quiet) see the
# psql variables states, moves and graph (the tree's tables), tree and game.
# Passes when no tree has any violation; otherwise shows how many and the
# first ones.
each_tree() {
	local description=$1 sql=$2 prelude=${3:-} entry tree game out problems=
	for entry in "${trees[@]}"; do
		IFS='|' read -r tree game <<<"$entry"
		out=$(gt_psql -qAt -d "$DB" -v tree="$tree" -v game="$game" -v states="${tree}_states" \
			-v moves="${tree}_moves" -v graph="${tree}_graph" 2>&1 <<-EOF
			SET client_min_messages = warning;
			$prelude
			WITH v AS MATERIALIZED ($sql)
			SELECT count(*)::text || ' rows, e.g.:' FROM v HAVING count(*) > 0
			UNION ALL (SELECT left(v::text, 300) FROM v LIMIT 5);
			EOF
		) || out="error: $out"
		[ -z "$out" ] || problems+="$tree ($game): $out"$'\n'
	done
	if [ -z "$problems" ]; then ok "$description"; else not_ok "$description" "$problems"; fi
}

each_tree "every tree: gametree.trees' states, edges and frontier equal the counts of its tables, pending >= 0" \
	"SELECT c.states, c.edges, c.frontier, c.pending, r.*
	 FROM gametree.tree_info(:'tree') c,
	      (SELECT (SELECT count(*) FROM :states) AS real_states, (SELECT count(*) FROM :graph) AS real_edges,
	              (SELECT count(*) FROM :states WHERE NOT expanded) AS real_frontier) r
	 WHERE (c.states, c.edges, c.frontier) IS DISTINCT FROM (r.real_states, r.real_edges, r.real_frontier)
	    OR c.pending < 0"
each_tree "every tree: the counts depth_stats, outcomes and tree_stats read equal the counts of its tables" \
	"$(gt_counts_differ_sql ":'tree'" :states :graph :moves)"
each_tree "every tree's game is loaded, and its root is one of its states" \
	"SELECT 'game not loaded' WHERE NOT EXISTS (SELECT FROM gametree.games() WHERE game = :'game')
	 UNION ALL
	 SELECT 'root missing' FROM gametree.tree_info(:'tree') c
	 WHERE NOT EXISTS (SELECT FROM :states s WHERE s.id = c.root_id)"
each_tree "every state's id is gametree.state_hash(game, state) under the game as loaded now" \
	"SELECT id, state FROM :states WHERE id <> gametree.state_hash(:'game', state)"
each_tree "every state's goal and control are the game's, and terminal states are expanded" \
	"SELECT id, goal, control, expanded FROM :states
	 WHERE goal IS DISTINCT FROM gametree.goal(:'game', state)
	    OR control IS DISTINCT FROM gametree.control(:'game', state)
	    OR (goal IS NOT NULL AND NOT expanded)"
each_tree "every edge's ends and move exist" \
	"SELECT g.init_id, g.move_id, g.next_id FROM :graph g
	 WHERE NOT EXISTS (SELECT FROM :states s WHERE s.id = g.init_id)
	    OR NOT EXISTS (SELECT FROM :states s WHERE s.id = g.next_id)
	    OR NOT EXISTS (SELECT FROM :moves m WHERE m.id = g.move_id)"
each_tree "every expanded state's edges are its successors by the game's rules, and no other state has edges" \
	"WITH have AS (SELECT g.init_id, m.move, g.next_id FROM :graph g JOIN :moves m ON m.id = g.move_id),
	      want AS (SELECT s.id, x.move, gametree.state_hash(:'game', x.next)
	               FROM :states s CROSS JOIN LATERAL gametree.successors(:'game', s.state) x
	               WHERE s.expanded AND s.goal IS NULL)
	 (SELECT 'stored, not a successor' AS what, * FROM (TABLE have EXCEPT TABLE want) a)
	 UNION ALL (SELECT 'a successor, not stored', * FROM (TABLE want EXCEPT TABLE have) b)"
each_tree "every utility, mobility and Monte Carlo total names exactly the game's roles" \
	"WITH r AS (SELECT array_agg(x ORDER BY x) AS roles FROM gametree.games() g, unnest(g.roles) x
	            WHERE g.game = :'game'),
	      v AS (SELECT 'state utility' AS kind, id::text AS at, utility AS value FROM :states
	            UNION ALL SELECT 'state mobility', id::text, mobility FROM :states
	            UNION ALL SELECT 'edge utility', init_id || '/' || move_id, utility FROM :graph
	            UNION ALL SELECT 'edge mobility', init_id || '/' || move_id, mobility FROM :graph
	            UNION ALL SELECT 'edge total', init_id || '/' || move_id, total FROM :graph)
	 SELECT v.kind, v.at, v.value FROM v, r WHERE v.value IS NOT NULL
	   AND (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(v.value) k) IS DISTINCT FROM r.roles"
each_tree "Monte Carlo visits are counted exactly where a total is" \
	"SELECT init_id, move_id, visits, total FROM :graph WHERE visits < 0 OR (visits > 0) <> (total IS NOT NULL)"
each_tree "after propagate(tree, false) nothing is pending" \
	"SELECT pending FROM gametree.tree_info(:'tree') WHERE pending <> 0" \
	"CREATE TEMP TABLE incremental AS SELECT gametree.propagate(:'tree', false);"
# The values incremental propagation left, against those that propagation
# from scratch computes from the same rows right after: expansions whose
# pending count another writer erased were never propagated, and show here.
each_tree "the values propagate(tree, false) leaves equal those propagate(tree, true) computes after it" \
	"(SELECT 'state' AS what, a.id::text AS at, a.utility AS incremental, b.utility AS from_scratch,
	         a.mobility, b.mobility, a.proven, b.proven, a.best_move, b.best_move
	  FROM before_states a JOIN :states b USING (id)
	  WHERE (a.utility, a.mobility, a.proven, a.best_move) IS DISTINCT FROM (b.utility, b.mobility, b.proven, b.best_move))
	 UNION ALL
	 (SELECT 'edge', a.init_id || '/' || a.move_id, a.utility, b.utility, a.mobility, b.mobility, a.proven, b.proven,
	         NULL, NULL
	  FROM before_graph a JOIN :graph b USING (init_id, move_id)
	  WHERE (a.utility, a.mobility, a.proven) IS DISTINCT FROM (b.utility, b.mobility, b.proven))" \
	"CREATE TEMP TABLE incremental AS SELECT gametree.propagate(:'tree', false);
	 CREATE TEMP TABLE before_states AS SELECT id, utility, mobility, proven, best_move FROM :states;
	 CREATE TEMP TABLE before_graph AS SELECT init_id, move_id, utility, mobility, proven FROM :graph;
	 CREATE TEMP TABLE from_scratch AS SELECT gametree.propagate(:'tree', true);"

note "time: checks of the trees $(($(date +%s) - CHECKS_FROM)) s"
echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
