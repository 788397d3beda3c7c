#!/usr/bin/env bash
# test/t/tools_check.sh: builds and briefly runs every tool the repository
# ships for finding bugs, so that none stops building or running unnoticed:
# the decoder fuzzer (fuzz/, libFuzzer) for a few seconds, and the SQL and
# GDL fuzzers with a small count; and the retrograde solver behind
# test/data/checkers_kings.tsv, which must give its rows again.  A TAP line
# per tool, with its summary.
#
#   bash test/t/tools_check.sh
#
# The SQL and GDL fuzzers use the extension installed in the private
# cluster (tools/lib.sh).
source "$(dirname "$0")/../../tools/lib.sh"
cd "$GT_ROOT"

out=$(mktemp)
run() {
	local what=$1
	shift
	if "$@" >"$out" 2>&1; then
		ok "$what: $(grep -E "crashes" "$out" | tail -n 1)"
	else
		not_ok "$what" "$(tail -n 30 "$out")"
	fi
}

run "the decoder fuzzer builds and runs 5 s without a crash" bash tools/fuzz_decoders.sh 5
run "the SQL fuzzer runs 1000 inputs without a crash or an internal error" bash tools/fuzz_sql.sh 1000
run "the GDL fuzzer runs 40 descriptions without a crash or an internal error" bash tools/fuzz_gdl.sh 40

# The test data's own solvers: the retrograde count of checkers kings still
# builds and gives the rows of two kings against one that the data holds.
ckretro=$(mktemp)
if ${CC:-cc} -O2 -Wall -o "$ckretro" tools/ckretro/ckretro.c 2>"$out" &&
	"$ckretro" 2 1 4 20261126 2>>"$out" | diff - <(grep -v 'K.*K.*K.*K' test/data/checkers_kings.tsv | tail -n +2) >>"$out"; then
	ok "tools/ckretro rebuilds the two-against-one rows of test/data/checkers_kings.tsv: $(head -n 1 "$out")"
else
	not_ok "tools/ckretro rebuilds the two-against-one rows of test/data/checkers_kings.tsv" "$(cat "$out")"
fi
rm -f "$out" "$ckretro"
[ "$FAILED" -eq 0 ]
