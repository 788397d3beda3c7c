#!/usr/bin/env bash
# test/t/gdl_stored_check.sh: is a GDL game's compiled network stored, read
# back by new sessions, and refused when damaged?  load_game stores the
# network in gametree.gdl_games.network; a backend that names the game
# first reads it (a DEBUG1 message says so) instead of grounding the rules.
# Bytes of another format are set aside quietly, damaged bytes with a
# WARNING: either way the game is compiled from its text and plays as
# before.  Each check runs in a new session, where the game is new.
#
#   bash test/t/gdl_stored_check.sh
#
# It uses the installed extension (run tools/check.sh or tools/demo.sh
# first) and the private cluster of tools/lib.sh, in a database of its
# own, gametree_gdl_stored, dropped at the end.  The byte offsets it damages
# are read from the counts at the head of the bytes (network_store.c), as
# little-endian int32: this machine's order.  A few seconds.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines, then `1..N`; the exit
# status is 1 when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

DB=gametree_gdl_stored
DATA=$GT_ROOT/test/data

cleanup() {
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_start_cluster >/dev/null
unset PGOPTIONS PGSERVICE
gt_fresh_database "$DB" || { echo "Bail out! cannot create database $DB"; exit 1; }

# q SQL: the query's rows, unaligned, in a new session; warnings and errors on stdout too.
q() { gt_psql -qAt -d "$DB" -c "SET client_min_messages = warning" -c "$1" 2>&1; }
# qd SQL: the same, with the DEBUG1 messages.
qd() { gt_psql -qAt -d "$DB" -c "SET client_min_messages = debug1" -c "$1" 2>&1 | grep -v '^DEBUG: *\(drop\|rehashing\)'; }

# is DESCRIPTION OUTPUT WANT: passes when OUTPUT is exactly WANT.
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "have: $2
want: $3"; fi
}
# has DESCRIPTION OUTPUT PATTERN: passes when OUTPUT has a line matching PATTERN (grep -E).
has() {
	if grep -qE "$3" <<<"$2"; then ok "$1"; else not_ok "$1" "have: $2
want a line matching: $3"; fi
}

load() {
	gt_psql -qAt -d "$DB" -v kif="$(cat "$2")" <<<"SELECT engine FROM gametree.load_game('$1', :'kif');" 2>&1
}

PERFT="SELECT string_agg(gametree.perft('ttt', gametree.initial('ttt'), d)::text, ',' ORDER BY d) FROM generate_series(1, 4) d"

# --------------------------------------------------------------- stored
is "ticTacToe.kif loads on the network" "$(load ttt "$DATA/gdl/ticTacToe.kif")" network
is "cycles.kif (positive recursion: cycle groups) loads on the network" "$(load cyc "$DATA/games/cycles.kif")" network
out=$(gt_psql -qAt -d "$DB" -v kif="$(cat "$DATA/gdl/englishDraughts.kif")" \
	<<<"SET gametree.gdl_memory = '1MB'; SELECT engine FROM gametree.load_game('draughts', :'kif');" 2>&1)
is "englishDraughts.kif within 1MB loads on the prover" "$out" prover
is "gdl_games holds a network for the network's games, none for the prover's" \
	"$(q "SELECT string_agg(name || ':' || (network IS NOT NULL), ' ' ORDER BY name) FROM gametree.gdl_games")" \
	"cyc:true draughts:false ttt:true"

out=$(qd "$PERFT")
has "a new session reads the stored network of ticTacToe" "$out" 'DEBUG: +game "ttt": read its stored network'
has "and plays it: perft 1..4 = 9,72,504,3024" "$out" '^9,72,504,3024$'
out=$(qd "SELECT string_agg(gametree.perft('cyc', gametree.initial('cyc'), d)::text, ',' ORDER BY d) FROM generate_series(1, 5) d")
has "cycles.kif read back: perft 1..5 of tools/gdl_cycles_perft.py" "$out" '^12,144,1608,16236,151884$'
has "from its stored network" "$out" 'read its stored network'
out=$(qd "SELECT gametree.perft('draughts', gametree.initial('draughts'), 3)")
if grep -q 'stored network' <<<"$out"; then not_ok "the prover's game is compiled from its text" "$out"
else ok "the prover's game is compiled from its text"; fi
is "random games on the stored network are those of the text compiled (load_game's session)" \
	"$(q "SELECT states FROM gametree.playouts('ttt', max_playouts => 500, seed => 4)")" \
	"$(gt_psql -qAt -d "$DB" -v kif="$(cat "$DATA/gdl/ticTacToe.kif")" \
		<<<"SELECT 1 FROM gametree.load_game('ttt_again', :'kif') \\g /dev/null
SELECT states FROM gametree.playouts('ttt_again', max_playouts => 500, seed => 4);" 2>&1)"

# ------------------------------------------------------------- set aside
# int32 number k of the bytes (0-based), and the bytes with it replaced.
q "CREATE FUNCTION public.int32_at(b bytea, k int) RETURNS int LANGUAGE sql AS
   \$\$ SELECT get_byte(b, 4 * k) | (get_byte(b, 4 * k + 1) << 8) | (get_byte(b, 4 * k + 2) << 16)
             | (get_byte(b, 4 * k + 3) << 24) \$\$;
   CREATE FUNCTION public.with_int32(b bytea, k int, v int) RETURNS bytea LANGUAGE sql AS
   \$\$ SELECT set_byte(set_byte(set_byte(set_byte(b, 4 * k, v & 255), 4 * k + 1, (v >> 8) & 255),
                                 4 * k + 2, (v >> 16) & 255), 4 * k + 3, (v >> 24) & 255) \$\$;" >/dev/null
# damage SQL-EXPRESSION-OF-network: rewrites ttt's stored network (as the superuser).
damage() { q "UPDATE gametree.gdl_games SET network = $1 WHERE name = 'ttt'" >/dev/null; }
GOOD=$(q "SELECT encode(network, 'hex') FROM gametree.gdl_games WHERE name = 'ttt'")
restore() { q "UPDATE gametree.gdl_games SET network = decode('$GOOD', 'hex') WHERE name = 'ttt'" >/dev/null; }

damage "public.with_int32(network, 1, 999)"
out=$(qd "$PERFT")
has "bytes of another format: set aside quietly (DEBUG1)" "$out" 'DEBUG: +game "ttt": its stored network is not used: another format'
has "and the text compiled: the same perft" "$out" '^9,72,504,3024$'
if grep -q WARNING <<<"$out"; then not_ok "no warning for another format" "$out"; else ok "no warning for another format"; fi
restore
damage "public.with_int32(network, 0, x'746e7467'::int)"
out=$(qd "$PERFT")
has "the other byte order (a dump restored elsewhere): set aside quietly too" "$out" \
	'DEBUG: +game "ttt": its stored network is not used: another byte order'
restore

# Counts (int32 2..12): nodes, base, inputs, roles, rules, literals, goals, order, groups, group nodes, terminal.
damage "substring(network from 1 for 60)"
has "bytes cut short: a WARNING names the game and why" "$(q "$PERFT")" \
	'WARNING: +game "ttt": its stored network is not used: its bytes end early'
has "and it still plays from its text" "$(q "$PERFT")" '^9,72,504,3024$'
restore
damage "public.with_int32(network, 12, public.int32_at(network, 2))"
has "terminal past the last node: refused" "$(q "$PERFT")" 'not used: its legal, next or terminal nodes'
restore
# the first literal of the first rule: after the head (2), counts (11), role_inputs (roles + 1),
# rule_start (nodes + 1) and literal_start (rules + 1)
damage "public.with_int32(network, 13 + public.int32_at(network, 5) + 1 + public.int32_at(network, 2) + 1
                                   + public.int32_at(network, 6) + 1, public.int32_at(network, 2) << 1)"
has "a literal naming no node: refused" "$(q "$PERFT")" 'not used: a literal'
restore
# the order: its first step and its last swapped, so a step reads a later one
ORDER_AT="13 + public.int32_at(network, 5) + 1 + public.int32_at(network, 2) + 1 + public.int32_at(network, 6) + 1
          + public.int32_at(network, 7) + public.int32_at(network, 4) + public.int32_at(network, 3) + 3 * public.int32_at(network, 8)"
damage "public.with_int32(public.with_int32(network, $ORDER_AT, public.int32_at(network, $ORDER_AT + public.int32_at(network, 9) - 1)),
                          $ORDER_AT + public.int32_at(network, 9) - 1, public.int32_at(network, $ORDER_AT))"
has "steps out of dependency order (propagation might not end): refused" "$(q "$PERFT")" \
	'not used: the order of its steps'
has "and the game plays from its text" "$(q "$PERFT")" '^9,72,504,3024$'
restore
is "restored, the network is read again" "$(qd "SELECT 1 FROM gametree.perft('ttt', gametree.initial('ttt'), 1)" | grep -c 'read its stored network')" 1

# -------------------------------------------------------- upgrade, unload
is "unload_game drops the row, network and all" \
	"$(q "SELECT gametree.unload_game('ttt'); SELECT count(*) FROM gametree.gdl_games WHERE name = 'ttt'" | tail -n 1)" 0
is "roles cannot write gdl_games.network" \
	"$(q "CREATE ROLE gdl_stored_role; SET ROLE gdl_stored_role; UPDATE gametree.gdl_games SET network = NULL" | grep -o 'permission denied for table gdl_games')" \
	"permission denied for table gdl_games"
q "DROP ROLE IF EXISTS gdl_stored_role" >/dev/null

echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
