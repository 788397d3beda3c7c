#!/usr/bin/env bash
# tools/client_valgrind.sh: the command-line client under valgrind (memcheck):
# one grow (two sessions, tic-tac-toe), one show (JSON), one play game fed from a pipe (a
# 2 KB line among its moves), one uci session (position, go movetime, go infinite and
# stop, quit) and one ended by its input (a 100 KB line, go infinite, the end of the input).
#
#   bash tools/client_valgrind.sh
#
# Uses the installed extension and the private cluster (started when it is
# not running), in a database of its own, gametree_valgrind, dropped at the
# end; builds the client when it is missing; installs valgrind from apt
# when it is missing. Prints each run's error summary and leaks; exits 1
# when a run has a memory error or a definite leak (or fails), else 0.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set +e

CLIENT="$GT_ROOT/client/gametree"
DB=gametree_valgrind
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-valgrind.XXXXXX")

cleanup() {
	gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! command -v valgrind >/dev/null; then
	gt_log "installing valgrind"
	gt_as_root apt-get install -y -qq --no-install-recommends valgrind >/dev/null || { echo "no valgrind" >&2; exit 2; }
fi
[ -x "$CLIENT" ] || make -s -C "$GT_ROOT/client" >/dev/null || { echo "cannot build the client" >&2; exit 2; }
gt_start_cluster
export PGDATABASE=$DB
unset PGOPTIONS PGSERVICE
gt_fresh_database "$DB" || exit 2

FAILED=0

# vg NAME STDIN_COMMAND ARGS...: runs the client under memcheck, its input
# from STDIN_COMMAND's output; prints the summary.
vg() {
	local name=$1 feed=$2 status errors definite; shift 2
	eval "$feed" | valgrind --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite --track-origins=yes --error-exitcode=99 \
		--log-file="$WORK/$name.vg" "$CLIENT" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
	status=${PIPESTATUS[1]}
	errors=$(grep -hoE 'ERROR SUMMARY: [0-9]+' "$WORK/$name.vg" | grep -oE '[0-9]+$')
	definite=$(grep -hoE 'definitely lost: [0-9,]+ bytes' "$WORK/$name.vg" | grep -oE '[0-9,]+' | tr -d , )
	printf '%-5s exit %s; %s; definitely lost: %s bytes\n' "$name" "$status" \
		"$(grep -hoE 'ERROR SUMMARY: .*' "$WORK/$name.vg" | sed 's/ *(suppressed.*//')" "${definite:-0}"
	if [ "$status" -ne 0 ] || [ "${errors:-0}" -ne 0 ] || [ "${definite:-0}" -ne 0 ]; then
		FAILED=1
		grep -vE '^==[0-9]+== ?$' "$WORK/$name.vg" | sed 's/^/    /' | head -n 80
		sed 's/^/    stderr: /' "$WORK/$name.err" | head -n 5
	fi
}

"$CLIENT" new vgt tictactoe >/dev/null || exit 2
vg grow ":" grow vgt --jobs 2
vg show ":" show vgt --depth 2 --format json
vg play "printf '4 4\n1 1%2000s9\n1 1\nundo\n2 2\nmoves\n1 1\n1 2\n1 3\n2 1\n2 3\n3 1\n3 2\n3 3\n'" play tictactoe --time 100ms
vg uci "{ echo uci; echo isready; echo 'position startpos moves e2e4 e7e5'; echo 'go movetime 300'; sleep 3;
          echo 'position startpos moves e2e4 e7e5 g1f3'; echo 'go infinite'; sleep 2; echo stop; sleep 1; echo quit; }" uci
vg uci_eof "{ printf 'position startpos moves'; printf ' a1a1%.0s' \$(seq 20000); echo;
              echo 'position startpos moves e2e4'; echo 'go infinite'; sleep 2; }" uci
grep -q '^result: ' "$WORK/play.out" || { echo "play did not reach the end of the game"; FAILED=1; }
[ "$(grep -c '^bestmove ' "$WORK/uci.out")" -eq 2 ] || { echo "uci did not answer both go commands"; FAILED=1; }
[ "$(grep -c '^bestmove ' "$WORK/uci_eof.out")" -eq 1 ] || { echo "uci did not answer go infinite at the end of its input"; FAILED=1; }
exit $FAILED
