#!/usr/bin/env bash
# test/t/client_check.sh: the command-line client (client/gametree) against
# the private cluster, every command through the binary itself, its output
# and exit status checked.
#
#   bash test/t/client_check.sh
#
# It uses the installed extension (it neither installs nor rebuilds the
# extension; run tools/check.sh or tools/demo.sh first), builds the client
# when it is missing (make -C client), starts the private cluster when it
# is not running, and works in a database of its own, gametree_client,
# dropped at the end. About a minute; graphviz (dot) is needed for the show
# checks, util-linux script for play on a pseudo-terminal.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines with `#` notes, then
# `1..N`; the exit status is 1 when a check failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

CLIENT="$GT_ROOT/client/gametree"
DB=gametree_client
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-client.XXXXXX")
BG_PID=

cleanup() {
	if [ -n "$BG_PID" ] && kill -0 "$BG_PID" 2>/dev/null; then
		kill "$BG_PID" 2>/dev/null
		wait "$BG_PID" 2>/dev/null
	fi
	[ -n "${UCI_CHILD:-}" ] && kill "$UCI_CHILD" 2>/dev/null
	gt_drop_database "$DB"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

gt_client_test_setup "$DB"


# check DESCRIPTION COMMAND...: passes when the command succeeds; shows the
# last run's output otherwise.
check() {
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what" "$(cat "$WORK/out" "$WORK/err" 2>/dev/null)"; fi
}

# run ARGS...: the client, output in $WORK/out and $WORK/err, status in $RC.
run() {
	"$CLIENT" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

q() { gt_psql -At -d "$DB" -c "$1"; }

has() { grep -qE -- "$1" "$WORK/out"; }
has_err() { grep -qE -- "$1" "$WORK/err"; }
status_is() { [ "$RC" -eq "$1" ]; }
lines_err() { [ "$(wc -l <"$WORK/err")" -eq "$1" ]; }

# same DESCRIPTION TABLE_A TABLE_B: the two tables hold the same rows (EXCEPT both ways).
same_table() {
	local diff
	diff=$(q "SELECT (SELECT count(*) FROM (TABLE $2 EXCEPT TABLE $3) x) + (SELECT count(*) FROM (TABLE $3 EXCEPT TABLE $2) y)")
	if [ "$diff" = 0 ]; then ok "$1"; else not_ok "$1" "$diff rows differ"; fi
}

START=$(date +%s)

# ------------------------------------------------------------- basic commands

note "list, new, grow, stats, best, analyse, drop"
run list
check "list: no trees yet" eval 'status_is 0 && has "^no trees in database '"$DB"'"'
run new ttt tictactoe
check "new prints the root's id (the initial state's hash)" \
	eval 'status_is 0 && [ "$(cat "$WORK/out")" = "$(q "SELECT gametree.state_hash('"'tictactoe'"', gametree.initial('"'tictactoe'"'))")" ]'
run grow ttt
check "grow: the whole tic-tac-toe tree, a summary line" \
	eval 'status_is 0 && has "^public.ttt: 5478 states \(\+5477\), 16167 edges, frontier 0;"'
run list
check "list: the tree, in aligned columns" \
	eval 'status_is 0 && has "^tree +game +states +edges +frontier +pending +owner$" && has "^ttt +tictactoe +5478 +16167 +0 +0 +postgres$"'
run stats ttt
check "stats: counts, root value, depth_stats and outcomes" \
	eval 'status_is 0 && has "^states +5478: 4520 expanded, 958 terminal, 0 frontier, 5478 proven" &&
	      has "^root +proven \{\"oplayer\": 50, \"xplayer\": 50\}" && has "^ +9 +78 +0 +78 +78 +0$" &&
	      has "^xplayer +2936 +1068 +1474 +0$"'
run best tictactoe --state '[["cell",1,1,"x"],["cell",1,2,"x"],["cell",2,2,"o"],["control","oplayer"]]' --time none --depth 7
check "best: o blocks at 1,3" eval 'status_is 0 && [ "$(cat "$WORK/out")" = "1,3" ]'
run best chess --fen 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1' --time none --depth 3
check "best: chess in UCI (the scholar's mate f3f7)" eval 'status_is 0 && [ "$(cat "$WORK/out")" = "f3f7" ]'
run best checkers --fen 'W:W17,18,21:B9,10' --time none --depth 6 --json
check "best --json: the joint move" \
	eval 'status_is 0 && [ "$(cat "$WORK/out")" = "[[\"does\",\"black\",\"noop\"],[\"does\",\"white\",[\"move\",17,14]]]" ]'
q "SELECT 1 FROM gametree.load_game('take_away', \$\$(role first) (role second) (init (stones 4)) (init (control first))
   (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
   (<= (legal ?p (take 1)) (true (control ?p)) (true (stones ?n)) (succ ?m ?n))
   (<= (legal ?p (take 2)) (true (control ?p)) (true (stones ?n)) (succ ?m ?n) (succ ?k ?m))
   (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
   (<= (next (stones ?m)) (does ?p (take 1)) (true (stones ?n)) (succ ?m ?n))
   (<= (next (stones ?k)) (does ?p (take 2)) (true (stones ?n)) (succ ?m ?n) (succ ?k ?m))
   (<= (next (control second)) (true (control first))) (<= (next (control first)) (true (control second)))
   (<= terminal (true (stones 0))) (<= (goal ?p 0) (true (control ?p)) (true (stones 0)))
   (<= (goal ?p 100) (role ?p) (not (true (control ?p))) (true (stones 0)))\$\$)" >/dev/null
run best take_away --time none --depth 6
check "best: a game from GDL, its move as compact JSON (take 1 of 4 stones)" \
	eval 'status_is 0 && [ "$(cat "$WORK/out")" = "[\"take\",1]" ]'
run analyse tictactoe --state '[["cell",2,2,"x"],["control","oplayer"]]' --time none --depth 8
check "analyse: every move, corners drawing first, in a table" \
	eval 'status_is 0 && [ "$(wc -l <"$WORK/out")" -eq 9 ] && has "^move +utility +proven +visits +depth +line$" &&
	      [ "$(sed -n "2,5p" "$WORK/out" | grep -cE "^[13],[13] +50 +yes")" -eq 4 ] &&
	      [ "$(sed -n "6,9p" "$WORK/out" | grep -cE "^[123],[123] +0 +yes")" -eq 4 ]'
run analyse connect4 --time none --depth 4 --json
check "analyse --json: an array of 7 objects" \
	eval 'status_is 0 && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 7 and {\"move\",\"utility\",\"proven\",\"pv\"} <= set(d[0])" "$WORK/out"'
run best nosuchgame
check "an unknown game: exit 1, one line on stderr with the SQLSTATE, then the server's hint" \
	eval 'status_is 1 && lines_err 2 && has_err "^gametree: ERROR 22023: " && has_err "^HINT:  Known games: "'
run show
check "a missing argument: exit 2, one line" eval 'status_is 2 && lines_err 1 && has_err "^gametree: usage: gametree show"'
run show ttt --format svg
check "show --format svg: exit 2" eval 'status_is 2 && lines_err 1 && has_err "format must be dot or json"'
run uci --fen x
check "an option a command does not take: exit 2" eval 'status_is 2 && lines_err 1 && has_err "uci does not take --fen"'

# ------------------------------------------- load, unload; DETAIL and HINT

note "load and unload a GDL file; the server's DETAIL and HINT"
run new x chesss
check "an error with a hint: the server's HINT on a line of its own, as psql shows it" \
	eval 'status_is 1 && lines_err 2 && has_err "^gametree: ERROR 22023: unknown game \"chesss\"$" &&
	      has_err "^HINT:  Known games: .*chess.*gametree.games\(\) lists them\.$"'
# a description with quotes and dollar signs: it travels as a parameter, never pasted
printf '%s\n' "; it's \$\$ a game" '(role a) (init (p)) (<= (legal a go) (true (p))) (<= (next (q)) (does a go))' \
	'(<= terminal (true (q))) (<= (goal a 100) (true (q))) (<= (goal a 0) (true (p)))' >"$WORK/one.kif"
run load one_step "$WORK/one.kif"
check "load NAME FILE: the game loaded from the file, a summary line" \
	eval 'status_is 0 && has "^one_step: roles a; [0-9]+ facts, 1 actions, [0-9]+ rules, [0-9]+ nodes; engine network$"'
check "load: the stored text is the file's, byte for byte" \
	eval '[ "$(q "SELECT kif FROM gametree.gdl_games WHERE name = '"'one_step'"'")" = "$(cat "$WORK/one.kif")" ]'
run best one_step --time none --depth 1
check "a loaded game plays (its move as compact JSON)" eval 'status_is 0 && [ "$(cat "$WORK/out")" = "\"go\"" ]'
run load ONE_STEP - <"$WORK/one.kif"
check "an error with a detail: DETAIL and HINT lines (load from the standard input)" \
	eval 'status_is 1 && lines_err 3 && has_err "^gametree: ERROR 42710: game \"one_step\" is already loaded$" &&
	      has_err "^DETAIL:  Game names that differ only in case name the same game\.$" && has_err "^HINT:  SELECT gametree.unload_game"'
run load chess "$WORK/one.kif"
check "a built-in game's own name: refused, without the detail on case" \
	eval 'status_is 1 && has_err "^gametree: ERROR 42710: game \"chess\" is built in$" && ! has_err "^DETAIL"'
run load nofile "$WORK/missing.kif"
check "load of a missing file: exit 1, one line naming it" eval 'status_is 1 && lines_err 1 && has_err "^gametree: cannot open \".*missing.kif\": No such file"'
printf '(role a)\0' >"$WORK/nul.kif"
run load nul "$WORK/nul.kif"
check "load of a file holding a NUL byte: exit 1, said" eval 'status_is 1 && lines_err 1 && has_err "holds a NUL byte \(at byte 8\)"'
run unload one_step
check "unload NAME: the game is gone" eval 'status_is 0 && [ "$(q "SELECT count(*) FROM gametree.gdl_games WHERE name = '"'one_step'"'")" = 0 ]'
run unload one_step
check "unload of a game not loaded: exit 1, the hint" eval 'status_is 1 && has_err "ERROR 42704: game \"one_step\" is not loaded" && has_err "^HINT:  "'

# ------------------------------------------------------- a bad connection

note "connection errors"
"$CLIENT" -d "host=$WORK/nowhere port=1 dbname=x" list >"$WORK/out" 2>"$WORK/err"
RC=$?
check "no server at a connection string: exit 2, libpq's message with its line break, no hint" \
	eval 'status_is 2 && lines_err 2 && has_err "^gametree: connection to server .* failed: No such file or directory$" &&
	      has_err "^	Is the server running" && ! has_err HINT && [ ! -s "$WORK/out" ]'
"$CLIENT" -d "bogus_option=1" list >"$WORK/out" 2>"$WORK/err"
RC=$?
check "an invalid connection string: exit 2, exactly one line on stderr" \
	eval 'status_is 2 && lines_err 1 && has_err "^gametree: .*bogus_option"'
"$CLIENT" -d "postgresql:///$DB?host=$PGHOST&port=$PGPORT&user=postgres" list >"$WORK/out" 2>"$WORK/err"
RC=$?
check "a URI in -d works" eval 'status_is 0 && has "^ttt "'

# The private cluster is found at run time, from the current directory (the
# file .gametree-cluster that tools/lib.sh writes) or GAMETREE_CLUSTER; never
# from a path built into the binary.
note "the private cluster, found at run time"
mkdir -p "$WORK/co/sub/dir" "$WORK/stopped" "$WORK/elsewhere"
printf "host='%s' port=%s user=postgres dbname=%s\n" "$PGHOST" "$PGPORT" "$DB" >"$WORK/co/.gametree-cluster"
printf "host='%s' port=1 user=postgres dbname=x\n" "$WORK/stopped" >"$WORK/stopped/.gametree-cluster"
# run_bare DIR ARGS...: the client from DIR, nothing naming a server
run_bare() {
	local dir=$1; shift
	(cd "$dir" && env -u PGHOST -u PGPORT -u PGDATABASE -u PGUSER -u PGHOSTADDR -u GAMETREE_CLUSTER \
		"$CLIENT" "$@") >"$WORK/out" 2>"$WORK/err"
	RC=$?
}
run_bare "$WORK/co/sub/dir" list
check "a subdirectory of a checkout: its cluster, from .gametree-cluster above" eval 'status_is 0 && has "^ttt "'
run_bare "$WORK/co/sub/dir" --help
check "--help says which cluster it uses, and how it finds it" \
	eval 'status_is 0 && has "^Here: the private cluster of $WORK/co \(running\),$" && has "GAMETREE_CLUSTER" && has "gametree-cluster"'
run_bare "$WORK/stopped" list
check "a stopped cluster: exit 2, said so, with the way to start it" \
	eval 'status_is 2 && lines_err 2 && has_err "^gametree: the private cluster of $WORK/stopped is not running" &&
	      has_err "^HINT:  Start it with $WORK/stopped/tools/psql.sh"'
(cd "$WORK/elsewhere" && env -u PGHOST -u PGPORT -u PGDATABASE -u PGUSER GAMETREE_CLUSTER="$WORK/co" "$CLIENT" list) >"$WORK/out" 2>"$WORK/err"
RC=$?
check "GAMETREE_CLUSTER names a checkout" eval 'status_is 0 && has "^ttt "'
run_bare "$WORK/elsewhere" --help
check "outside any checkout: no cluster built in, libpq's defaults (the binary's checkout has one)" \
	eval 'status_is 0 && has "^Here: no private cluster" && [ -f "$GT_ROOT/.gametree-cluster" ]'

# ------------------------------------------------- grow --jobs 2 equals one session

note "grow --jobs 2"
run new ttt2 tictactoe
run grow ttt2 --jobs 2
check "grow --jobs 2: exit 0, the whole tree" eval 'status_is 0 && has "^public.ttt2: 5478 states"'
same_table "grow --jobs 2 equals one session: _states" ttt_states ttt2_states
same_table "grow --jobs 2 equals one session: _moves" ttt_moves ttt2_moves
same_table "grow --jobs 2 equals one session: _graph" ttt_graph ttt2_graph

# ------------------------------------------------------------------- show

note "show"
run show ttt --depth 2
cp "$WORK/out" "$WORK/ttt.dot"
check "show: DOT, one node a state within 2 plies, one edge a move" \
	eval 'status_is 0 && has "^digraph \"ttt\" \{" && [ "$(grep -c "\[label=\"[XO.]\{3\}\\\\n" "$WORK/ttt.dot")" -eq 82 ] &&
	      [ "$(grep -c -- " -> " "$WORK/ttt.dot")" -eq 81 ] && grep -q "label=\"2,2\"" "$WORK/ttt.dot"'
check "show: the legend names the colours, not a role (no fill: not proven)" \
	eval 'grep -q "orange: oplayer wins, no fill: not proven; dashed" "$WORK/ttt.dot" && ! grep -q "white: not proven" "$WORK/ttt.dot"'
check "show: node colours by proven result (the root a draw, grey)" \
	eval 'grep -qE "^  \"s$(q "SELECT root_id FROM gametree.trees WHERE name = '"'ttt'"'")\" .*fillcolor=\"#d9d9d9\"" "$WORK/ttt.dot"'
if command -v dot >/dev/null; then
	dot -Tsvg "$WORK/ttt.dot" >"$WORK/ttt.svg" 2>"$WORK/dot.err"
	DOT_RC=$?
	check "dot -Tsvg renders it without errors or warnings" \
		eval '[ $DOT_RC -eq 0 ] && [ ! -s "$WORK/dot.err" ] && grep -q "<svg" "$WORK/ttt.svg"'
else
	not_ok "dot -Tsvg renders it (graphviz is not installed: apt-get install graphviz)"
fi
run show ttt --depth 2 --format json
check "show --format json parses: 82 nodes, 81 edges, the root a draw" \
	eval 'status_is 0 && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert (len(d[\"nodes\"]), len(d[\"edges\"])) == (82, 81), (len(d[\"nodes\"]), len(d[\"edges\"]))
root = [n for n in d[\"nodes\"] if n[\"id\"] == d[\"root\"]][0]
assert root[\"result\"] == \"draw\" and root[\"board\"] == [\"...\"] * 3 and root[\"ply\"] == 0
ids = {n[\"id\"] for n in d[\"nodes\"]}
assert all(e[\"from\"] in ids and e[\"to\"] in ids for e in d[\"edges\"])
" "$WORK/out"'
# a partial tree with Monte Carlo visits: dashed frontier nodes, wider edges
run new part connect4
run grow part --depth 2
run best connect4 --tree part --method mcts --time none --depth 2
run show part --depth 3
cp "$WORK/out" "$WORK/part.dot"
check "show of a partial tree: unexpanded nodes dashed, edges wider with visits" \
	eval 'status_is 0 && grep -q "style=\"filled,dashed\"" "$WORK/part.dot" && grep -qE "penwidth=[2-9]\.[0-9]+" "$WORK/part.dot"'
if command -v dot >/dev/null; then
	dot -Tsvg "$WORK/part.dot" >"$WORK/part.svg" 2>"$WORK/dot.err"
	DOT_RC=$?
	check "dot -Tsvg renders the partial tree without errors or warnings" eval '[ $DOT_RC -eq 0 ] && [ ! -s "$WORK/dot.err" ]'
fi
run show ttt --root 42
check "show --root of a state not in the tree: exit 1, one line" eval 'status_is 1 && lines_err 1 && has_err "state 42 is not in tree ttt"'

# --------------------------------------------------------------- play on a pty

note "play"
# x plays every cell in turn; the engine's cells are refused, the game ends.
printf '4 4\n1,1\nundo\n1 1\nfoo\n1 2\n1 3\n2 1\n2 2\n2 3\n3 1\n3 2\n3 3\n' >"$WORK/moves"
if command -v script >/dev/null; then
	script -qec "'$CLIENT' play tictactoe --as xplayer --time 100ms" /dev/null <"$WORK/moves" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	tr -d '\r' <"$WORK/out" >"$WORK/play.out"
	mv "$WORK/play.out" "$WORK/out"
	check "play on a pseudo-terminal: a whole game to its result, exit 0" \
		eval 'status_is 0 && has "^result: xplayer [0-9]+, oplayer [0-9]+: (a draw|xplayer wins|oplayer wins) \(you (win|lose|draw)\)$"'
	check "play: an illegal move is refused with the server's reason, and asked again" \
		eval 'grep -A1 "refused: illegal tictactoe move \[\"mark\", 4, 4\]: not a legal action of role \"xplayer\"" "$WORK/out" | grep -q "your move (xplayer): "'
	check "play: a move that cannot be read is refused, and asked again" \
		eval 'has "not a move: \"foo\"; expected a row and a column"'
	check "play: undo takes back the move and the engine's reply" \
		eval 'has "took back your last move$" && has "oplayer plays [123],[123]$"'
	check "play: the board after each move" eval '[ "$(grep -c "^  ---+---+---$" "$WORK/out")" -ge 20 ]'
else
	not_ok "play on a pseudo-terminal (util-linux script is not installed)"
fi
"$CLIENT" play connect4 --as black --time 200ms <<<$'9\n4\nquit' >"$WORK/out" 2>"$WORK/err"
RC=$?
check "play from a pipe: the engine opens, lines echoed, quit ends with exit 0" \
	eval 'status_is 0 && has "^red plays [1-7]$" && has "^your move \(black\): 9$" && has "^refused: illegal connect4 move" &&
	      has "^game abandoned$" && [ ! -s "$WORK/err" ]'
# An over-long line is one move: "1 1", blanks, "9" is refused whole, never played as "1 1".
"$CLIENT" play tictactoe --as xplayer --time 100ms <<<"1 1$(printf ' %.0s' $(seq 2000))9"$'\nquit' >"$WORK/out" 2>"$WORK/err"
RC=$?
check "play: a 2 KB line is refused whole, not played as its first part" \
	eval 'status_is 0 && has "^not a move: \"1 1 +9\"" && ! has "plays" && has "^game abandoned$"'
# Chess in SAN; the record at the end (PGN), in --record's file too
"$CLIENT" play chess --time none --depth 1 --record "$WORK/game.pgn" <<<$'e4\nNf3\nBc4\nquit' >"$WORK/out" 2>"$WORK/err"
RC=$?
check "play chess: moves typed in SAN, the engine's moves in SAN" \
	eval 'status_is 0 && has "^your move \(white\): Nf3$" && has "^black plays ([NBRQK][a-h]?[1-8]?x?[a-h][1-8]|[a-h][1-8]|[a-h]x[a-h][1-8])[+#]?$" && ! has "refused: illegal chess move \"(e4|Nf3)\""'
check "play: the game's record at the end, PGN for chess, an abandoned game's result *" \
	eval 'has "^\[Event \"gametree play\"\]$" && has "^\[White \"you\"\]$" && has "^\[Black \"gametree\"\]$" &&
	      has "^\[Result \"\*\"\]$" && has "^\[Date \"[0-9]{4}\.[0-9]{2}\.[0-9]{2}\"\]$" && has "^1\. e4 [^ ]+ 2\. Nf3 [^ ]+ (3\. Bc4 [^ ]+ )?\*$"'
check "play --record FILE: the same record in the file" \
	eval '[ -s "$WORK/game.pgn" ] && [ "$(sed -n "/^\[Event/,\$p" "$WORK/out")" = "$(cat "$WORK/game.pgn")" ]'
"$CLIENT" play chess --fen '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - -' --time none --depth 1 <<<'Ra8#' >"$WORK/out" 2>"$WORK/err"
RC=$?
check "play from a 4-field FEN to a mate: the record has its FEN, the mate and 1-0" \
	eval 'status_is 0 && has "^\[Result \"1-0\"\]$" && has "^\[SetUp \"1\"\]$" &&
	      has "^\[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"\]$" && has "^1\. Ra8# 1-0$"'
"$CLIENT" play checkers --as white --time none --depth 1 <<<$'23-18\nquit' >"$WORK/out" 2>"$WORK/err"
RC=$?
check "play checkers: PDN, the engine (black) first: GameType 21, 1. its move, then yours" \
	eval 'status_is 0 && has "^\[GameType \"21\"\]$" && has "^\[Black \"gametree\"\]$" && has "^1\. [0-9]+-[0-9]+ [0-9]+-[0-9]+( 2\. [0-9]+-[0-9]+)? \*$"'
run play chess --record "$WORK/nowhere/game.pgn"
check "play --record to a directory that does not exist: exit 2 before the game" \
	eval 'status_is 2 && lines_err 1 && has_err "cannot write the record to" && ! has "your move"'
run play tictactoe --as nobody
check "play --as an unknown role: exit 2" eval 'status_is 2 && lines_err 1 && has_err "has no role \"nobody\""'

# ------------------------------------------------------------------------ uci

note "uci"
# uci_send LINE; uci_expect REGEX SECONDS: a line matching, or fail (the lines read are in $WORK/uci.log).
uci_start() {
	coproc UCI { exec "$CLIENT" uci --time 200ms 2>"$WORK/uci.err"; }
	# bash unsets UCI_PID when the coprocess ends: keep the pid under a name of ours.
	UCI_CHILD=$UCI_PID
	: >"$WORK/uci.log"
}
uci_send() { printf '%s\n' "$1" >&"${UCI[1]}"; }
uci_expect() {
	local line deadline=$(($(date +%s) + $2))
	while [ "$(date +%s)" -le "$deadline" ]; do
		IFS= read -r -t 1 line <&"${UCI[0]}" || { [ -n "${UCI_CHILD:-}" ] && kill -0 "$UCI_CHILD" 2>/dev/null && continue; return 1; }
		printf '%s\n' "$line" >>"$WORK/uci.log"
		if [[ $line =~ $1 ]]; then LAST=$line; return 0; fi
	done
	return 1
}
uci_fail() { not_ok "$1" "$(cat "$WORK/uci.log" "$WORK/uci.err")"; }

uci_start
uci_send uci
if uci_expect '^uciok$' 5 && grep -q '^id name gametree' "$WORK/uci.log"; then ok "uci: id name, id author, uciok"; else uci_fail "uci: uciok"; fi
uci_send "setoption name Hash value 64"
uci_send isready
if uci_expect '^readyok$' 5; then ok "isready: readyok (setoption accepted)"; else uci_fail "isready: readyok"; fi
uci_send ucinewgame
uci_send "position startpos moves e2e4 e7e5"
T0=$(date +%s%N)
uci_send "go movetime 200"
if uci_expect '^bestmove ' 10; then
	ELAPSED=$((($(date +%s%N) - T0) / 1000000))
	MOVE=$(awk '{ print $2 }' <<<"$LAST")
	if [[ $MOVE =~ ^[a-h][1-8][a-h][1-8][qrbn]?$ ]] &&
		[ "$(q "SELECT gametree.next('chess', gametree.next('chess', gametree.next('chess', gametree.initial('chess'),
		           '\"e2e4\"'), '\"e7e5\"'), '\"$MOVE\"') IS NOT NULL" 2>/dev/null)" = t ]; then
		ok "go movetime 200: bestmove $MOVE, legal after 1. e4 e5 (${ELAPSED} ms)"
	else
		uci_fail "go movetime 200: bestmove $MOVE is not legal after 1. e4 e5"
	fi
	if grep -qE '^info depth [0-9]+ score (cp -?[0-9]+|mate -?[0-9]+) time [0-9]+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$' "$WORK/uci.log"; then
		ok "an info line before it: depth, score, time, pv"
	else
		uci_fail "an info line before bestmove"
	fi
else
	uci_fail "go movetime 200: bestmove"
fi
uci_send "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
uci_send "go wtime 3000 btime 3000 winc 100 binc 100"
if uci_expect '^bestmove ' 10 && [ "$LAST" = "bestmove a1a8" ] && grep -q '^info .*score mate 1 ' "$WORK/uci.log"; then
	ok "go wtime/btime: the mate in one, score mate 1"
else
	uci_fail "go wtime/btime: the mate in one"
fi
uci_send "position startpos moves d2d4"
uci_send "go infinite"
sleep 1
uci_send isready
if uci_expect '^readyok$' 3; then ok "isready during go infinite: readyok at once"; else uci_fail "isready during go infinite"; fi
T0=$(date +%s%N)
uci_send stop
if uci_expect '^bestmove [a-h][1-8][a-h][1-8]' 3; then
	ok "stop: bestmove within $((($(date +%s%N) - T0) / 1000000)) ms"
else
	uci_fail "stop: bestmove"
fi
uci_send "go depth 2"
if uci_expect '^bestmove ' 10 && grep -q '^info depth 2 ' "$WORK/uci.log"; then ok "go depth 2"; else uci_fail "go depth 2"; fi
uci_send "position startpos moves e2e5"
uci_send "go movetime 100"
if uci_expect '^bestmove 0000$' 5 && grep -q '^info string error in position: illegal chess move "e2e5"' "$WORK/uci.log"; then
	ok "an illegal move in position: info string, bestmove 0000"
else
	uci_fail "an illegal move in position"
fi
uci_send "position startpos"
uci_send "go movetime 10000"
sleep 0.3
uci_send quit
T0=$(date +%s)
wait "$UCI_CHILD" 2>/dev/null
UCI_STATUS=$?
UCI_CHILD=
if [ "$UCI_STATUS" -eq 0 ] && [ $(($(date +%s) - T0)) -le 2 ] && [ ! -s "$WORK/uci.err" ]; then
	ok "quit during a search: exit 0 at once, nothing on stderr"
else
	not_ok "quit during a search" "status $UCI_STATUS; $(cat "$WORK/uci.err")"
fi
sleep 0.5
if [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE datname = '$DB' AND query LIKE '%gametree.analyse%' AND state = 'active' AND pid <> pg_backend_pid()")" = 0 ]; then
	ok "no search left running on the server after quit"
else
	not_ok "no search left running on the server after quit"
fi

# The end of the input stops go infinite as stop does: with no one left to
# send stop, the search would go on for ever.
T0=$(date +%s%N)
{ echo "position startpos moves d2d4"; echo "go infinite"; sleep 1; } | timeout 30 "$CLIENT" uci >"$WORK/out" 2>"$WORK/err"
RC=$?
ELAPSED=$((($(date +%s%N) - T0) / 1000000))
check "end of input during go infinite: bestmove, exit 0 within 5 s (${ELAPSED} ms, 1 s of it input)" \
	eval 'status_is 0 && [ "$ELAPSED" -le 5000 ] && has "^bestmove [a-h][1-8][a-h][1-8]" && [ ! -s "$WORK/err" ]'
# A line longer than any read is one command: a 100 KB position (20,000
# moves, the first illegal) is one error, and no part of it runs as a command.
{ printf 'position startpos moves'; printf ' a1a1%.0s' $(seq 20000); printf '\nisready\n'; } |
	timeout 30 "$CLIENT" uci >"$WORK/out" 2>"$WORK/err"
RC=$?
check "a 100 KB line: one error for the whole line, then readyok" \
	eval 'status_is 0 && [ "$(grep -c "^info string" "$WORK/out")" -eq 1 ] &&
	      has "^info string error in position: illegal chess move \"a1a1\"" && ! has "unknown command" &&
	      [ "$(tail -n 1 "$WORK/out")" = readyok ] && [ ! -s "$WORK/err" ]'
# A password read from a pipe (no terminal: setsid) takes its whole line and
# no more: the commands after it reach uci (the cluster trusts any password).
{ printf 'p%.0s' $(seq 3000); printf '\nisready\n'; } | setsid -w "$CLIENT" -W uci >"$WORK/out" 2>"$WORK/err"
RC=$?
check "-W from a pipe: a 3000-character password, then the commands after it" \
	eval 'status_is 0 && [ "$(cat "$WORK/out")" = readyok ]'

# ------------------------------------------------------- Ctrl-C during grow

note "SIGINT during grow (connect four, 8 plies)"
run new c4ref connect4
run grow c4ref --depth 8
check "the reference: connect four to 8 plies, uninterrupted" eval 'status_is 0 && has "^public.c4ref: 261234 states"'
run new c4int connect4
run grow c4int --depth 5
SHALLOW=$(q "SELECT states FROM gametree.trees WHERE name = 'c4int'")
# small batches, so that some are committed before the interrupt (a first batch holding
# the whole frontier would go on in memory to the end)
PGOPTIONS='-c gametree.grow_batch_size=500' "$CLIENT" grow c4int --depth 8 --jobs 2 >"$WORK/out" 2>"$WORK/err" &
BG_PID=$!
sleep 1
for _ in $(seq 50); do
	[ "$(q "SELECT states FROM gametree.trees WHERE name = 'c4int'")" -gt "$SHALLOW" ] && break
	sleep 0.1
done
kill -INT "$BG_PID"
wait "$BG_PID"
RC=$?
BG_PID=
PARTIAL=$(q "SELECT states FROM gametree.trees WHERE name = 'c4int'")
note "$SHALLOW states at 5 plies, $PARTIAL when interrupted, 261234 in all"
check "SIGINT: exit 1, 'cancelled: the tree is resumable', part of the tree committed" \
	eval 'status_is 1 && has_err "^gametree: cancelled: the tree is resumable \(run grow again\)$" &&
	      [ "$PARTIAL" -gt "$SHALLOW" ] && [ "$PARTIAL" -lt 261234 ]'
if [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE datname = '$DB' AND query LIKE 'CALL gametree.grow%' AND state = 'active'")" = 0 ]; then
	ok "no grow left running on the server"
else
	not_ok "no grow left running on the server"
fi
run grow c4int --depth 8
check "a second grow completes it" eval 'status_is 0 && has "^public.c4int: 261234 states"'
check "equal counts to the uninterrupted grow" \
	eval '[ "$(q "SELECT states, edges, frontier, pending FROM gametree.trees WHERE name = '"'c4int'"'")" = "$(q "SELECT states, edges, frontier, pending FROM gametree.trees WHERE name = '"'c4ref'"'")" ]'
same_table "equal _states to the uninterrupted grow" c4ref_states c4int_states
same_table "equal _graph to the uninterrupted grow" c4ref_graph c4int_graph

# ------------------------------------- a time limit too short to propagate

note "grow --time shorter than a propagation of the tree"
# A fresh session estimates a propagation of c4int (261,234 states) at more
# than a second: grow expands for the whole limit and says why it leaves the
# propagation pending (it used to store nothing and say nothing).
before=$(q "SELECT states FROM gametree.trees WHERE name = 'c4int'")
run grow c4int --time 1s
check "grow --time 1s on a large tree: states added" \
	eval 'status_is 0 && has "^public.c4int: [0-9]+ states \(\+[1-9][0-9]*\), .*; [0-9]+\.[0-9]s, "'
check "and the NOTICE saying why, with its numbers, DETAIL and HINT" \
	eval 'has_err "^NOTICE:  grow public.c4int: time_limit 1 s is too short to propagate the tree: expanding for all of it, propagation left pending$" &&
	      has_err "^DETAIL:  Propagating [0-9]+ states and [0-9]+ edges needs about [0-9.]+ s " &&
	      has_err "^HINT:  Run SELECT gametree.propagate\('"'public.c4int'"', false\);"'
gt_psql -d "$DB" -c "CALL gametree.grow('c4int', time_limit => '300 ms')" >"$WORK/out" 2>"$WORK/err"
RC=$?
check "psql: the same NOTICE for CALL gametree.grow" \
	eval 'status_is 0 && has_err "^NOTICE:  grow public.c4int: time_limit 0.3 s is too short to propagate the tree"'
check "the states it stored are counted pending" \
	eval '[ "$(q "SELECT states > '"$before"' AND pending > 0 FROM gametree.trees WHERE name = '"'c4int'"'")" = t ]'
# Not on a terminal, a plain progress line comes after 5 s; its ETA (for a
# target far away) is minutes, in the one format of every time the client
# prints (it printed 0m10s beside 9.6s).  Without a time limit nothing
# propagates meanwhile; Ctrl-C ends it.
"$CLIENT" grow c4int --states 100000000 >"$WORK/out" 2>"$WORK/err" &
BG_PID=$!
sleep 6.5
kill -INT "$BG_PID"
wait "$BG_PID"
RC=$?
BG_PID=
check "times in one format: seconds to a tenth after the minutes (elapsed 5.0s, ETA in minutes)" \
	eval 'status_is 1 && has_err "^public.c4int: [0-9]+ states, [0-9]+ edges, frontier [0-9]+, [0-9]+ states/s, [0-9]\.[0-9]s, ETA ([0-9]+h)?[0-9]+m[0-9]{2}\.[0-9]s$"'

# ------------------------------------------------------------------- drop

run drop ttt2
check "drop: exit 0, the tree is gone" eval 'status_is 0 && [ "$(q "SELECT count(*) FROM gametree.trees WHERE name = '"'ttt2'"'")" = 0 ]'
run drop ttt2
check "drop of a missing tree: exit 1, the error and its hint" eval 'status_is 1 && lines_err 2 && has_err "unknown tree" && has_err "^HINT:  "'

note "time: $(($(date +%s) - START)) s"
echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
