#!/usr/bin/env bash
# test/t/tools_check.sh: builds and briefly runs every tool the repository
# ships for finding bugs, so that none stops building or running unnoticed:
# the decoder fuzzer (fuzz/, libFuzzer) for a few seconds, and the SQL and
# GDL fuzzers with a small count.  A TAP line per tool, with its summary.
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
rm -f "$out"
[ "$FAILED" -eq 0 ]
