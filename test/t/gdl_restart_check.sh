#!/usr/bin/env bash
# test/t/gdl_restart_check.sh: does a game loaded from GDL outlive a restart
# of the server?  gametree.load_game stores the description in
# gametree.gdl_games; after a restart every backend must compile it again
# from there, whatever function it calls first.
#
#   bash test/t/gdl_restart_check.sh
#
# It uses the installed extension (it neither builds nor installs; run
# tools/check.sh or tools/demo.sh first) and the private cluster of
# tools/lib.sh, in a database of its own, gametree_gdl_restart, dropped at
# the end. It loads test/data/gdl/ticTacToe.kif, grows a tree of it two
# plies deep, then stops the private cluster (pg_ctl stop -m fast: every
# session on it, of any database, is ended) and starts it again, and checks
# in new sessions that the game is listed, plays (perft) and grows its tree
# to the end. The cluster is left running, also when a check or the
# restart fails. A few seconds.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines with `#` notes, then
# `1..N`; the exit status is 1 when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

DB=gametree_gdl_restart
GAME=restart_ttt
KIF=$GT_ROOT/test/data/gdl/ticTacToe.kif

cleanup() {
	# Whatever happened, the private cluster runs when we leave.
	gt_start_cluster >/dev/null 2>&1 || echo "# could not start the private cluster again" >&2
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_start_cluster
unset PGOPTIONS PGSERVICE
gt_fresh_database "$DB" || { echo "Bail out! cannot create database $DB"; exit 1; }


# q SQL: the query's rows, unaligned, in a new session; errors on stdout too.
q() { gt_psql -qAt -d "$DB" -c "SET client_min_messages = warning" -c "$1" 2>&1; }

# is DESCRIPTION SQL WANT: passes when the query prints exactly WANT.
is() {
	local out
	out=$(q "$2")
	if [ "$out" = "$3" ]; then ok "$1"; else not_ok "$1" "have: $out
want: $3"; fi
}

# --------------------------------------------------------- before the restart

# Runs sql, 'ok' or the error's SQLSTATE and message (kept across the restart).
q "CREATE FUNCTION public.try(sql text) RETURNS text LANGUAGE plpgsql AS \$\$
   BEGIN EXECUTE sql; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END \$\$" >/dev/null

# kif_query SQL: runs SQL in a new session where :'kif' is the text of $KIF.
kif_query() {
	gt_psql -qAt -d "$DB" -v kif_file="$KIF" 2>&1 <<-EOF
		\\set kif \`cat :'kif_file'\`
		$1
	EOF
}

note "load $KIF as $GAME, grow a tree of it two plies deep"
out=$(kif_query "SELECT array_to_string(roles, ',') FROM gametree.load_game('$GAME', :'kif');")
if [ "$out" = "xplayer,oplayer" ]; then
	ok "load_game: $GAME with roles xplayer, oplayer"
else
	not_ok "load_game: $GAME with roles xplayer, oplayer" "$out"
fi
is "before the restart: perft 1..4" \
	"SELECT string_agg(gametree.perft('$GAME', gametree.initial('$GAME'), d)::text, ',' ORDER BY d) FROM generate_series(1, 4) d" \
	"9,72,504,3024"
q "SELECT gametree.create_tree('restart_tree', '$GAME')" >/dev/null
q "CALL gametree.grow('restart_tree', max_depth => 2)" >/dev/null
is "a tree of it, grown two plies deep: 82 states" "SELECT states FROM gametree.trees WHERE name = 'restart_tree'" "82"
BEFORE_HASH=$(q "SELECT gametree.state_hash('$GAME', gametree.initial('$GAME'))")

# ----------------------------------------------------------------- restart

note "restart the private cluster"
STARTED_BEFORE=$(q "SELECT pg_postmaster_start_time()")
if out=$(gt_stop_cluster 2>&1); then
	ok "the private cluster stops"
else
	not_ok "the private cluster stops" "$out"
fi
if out=$(gt_start_cluster 2>&1) && q "SELECT 1" >/dev/null; then
	ok "and starts again"
else
	not_ok "and starts again" "$out"
	echo "Bail out! the private cluster does not start"
	exit 1
fi
STARTED_AFTER=$(q "SELECT pg_postmaster_start_time()")
if [ -n "$STARTED_AFTER" ] && [ "$STARTED_AFTER" != "$STARTED_BEFORE" ]; then
	ok "it is a new server (started $STARTED_AFTER, before $STARTED_BEFORE)"
else
	not_ok "it is a new server" "start time before: $STARTED_BEFORE, after: $STARTED_AFTER"
fi

# ---------------------------------------------------------- after the restart

# Each q is a new session: the first call of each compiles the game anew.
is "after the restart, games() lists $GAME with its roles" \
	"SELECT array_to_string(roles, ',') FROM gametree.games() WHERE game = '$GAME'" \
	"xplayer,oplayer"
out=$(kif_query "SELECT kif = :'kif' FROM gametree.gdl_games WHERE name = '$GAME';")
if [ "$out" = t ]; then ok "gametree.gdl_games still holds its text"; else not_ok "gametree.gdl_games still holds its text" "$out"; fi
is "in a new session whose first call is perft: perft 1..4 = 9, 72, 504, 3,024" \
	"SELECT string_agg(gametree.perft('$GAME', gametree.initial('$GAME'), d)::text, ',' ORDER BY d) FROM generate_series(1, 4) d" \
	"9,72,504,3024"
is "perft 9 = 127,872 (the published count)" \
	"SELECT gametree.perft('$GAME', gametree.initial('$GAME'), 9)" "127872"
is "the initial state's hash is the one before the restart" \
	"SELECT gametree.state_hash('$GAME', gametree.initial('$GAME'))" "$BEFORE_HASH"
is "in a new session whose first call is grow: the tree grows on" \
	"SELECT public.try('CALL gametree.grow(''restart_tree'')')" "ok"
is "to the whole game: 5,478 states, 16,167 edges, a proven draw" \
	"SELECT t.states, t.edges, t.frontier, s.utility, s.proven FROM gametree.trees t
	 JOIN restart_tree_states s ON s.id = t.root_id WHERE t.name = 'restart_tree'" \
	'5478|16167|0|{"oplayer": 50, "xplayer": 50}|t'
is "unload_game is still refused while the tree uses the game (2BP01)" \
	"SELECT left(public.try('SELECT gametree.unload_game(''$GAME'')'), 5)" "2BP01"
q "SELECT gametree.drop_tree('restart_tree')" >/dev/null
is "with the tree dropped, it unloads" "SELECT public.try('SELECT gametree.unload_game(''$GAME'')')" "ok"
is "and the game is gone" "SELECT count(*) FROM gametree.games() WHERE game = '$GAME'" "0"

echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
