#!/usr/bin/env bash
# tools/fuzz_decoders.sh: builds fuzz/decode_fuzzer (clang, libFuzzer,
# AddressSanitizer, UBSan) from the extension's sources and fuzzes the state,
# move and FEN decoders and the games' unpack for a bounded time, after
# fuzz/pack_check has checked the games' packings.  See fuzz/README.md.
#
#   bash tools/fuzz_decoders.sh [SECONDS]    # default 60, or $GT_FUZZ_SECONDS
#
# No PostgreSQL server or cluster is involved.  Build products, the corpus
# the fuzzer grows and crash inputs go to fuzz/build/ (gitignored).  The last
# line is the summary; the exit status is non-zero when anything crashed.
set -euo pipefail
# shellcheck source=tools/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${1:-${GT_FUZZ_SECONDS:-60}}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 [SECONDS]" >&2
	exit 2
fi

# libFuzzer's runtime is a Recommends of clang, which gt_install_packages skips.
GT_PACKAGES="clang libclang-rt-14-dev make postgresql-server-dev-$GT_PGVERSION"
gt_install_packages

fuzz=$GT_ROOT/fuzz
build=$fuzz/build
gt_log "building fuzz/decode_fuzzer and fuzz/pack_check"
make -s -C "$fuzz" PG_CONFIG="$GT_PGBIN/pg_config" decode_fuzzer pack_check >/dev/null

# The games' packings first: every state of small trees and of random
# playouts unpacks to its own bytes (fuzz/pack_check.c).
gt_log "checking the games' packings"
"$fuzz/pack_check"

artifacts=$build/artifacts/$(date +%Y%m%d-%H%M%S)
log=$artifacts/fuzz.log
mkdir -p "$build/corpus" "$artifacts"
gt_log "fuzzing for $seconds s (log: ${log#"$GT_ROOT"/})"
status=0
# New inputs go to fuzz/build/corpus; fuzz/corpus holds the seeds.
"$fuzz/decode_fuzzer" -max_total_time="$seconds" -timeout=10 -max_len=4096 \
	-rss_limit_mb=4096 -dict="$fuzz/decoders.dict" -artifact_prefix="$artifacts/" \
	-print_final_stats=1 "$build/corpus" "$fuzz/corpus" >"$log" 2>&1 || status=$?

crashes=$(find "$artifacts" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
if [ "$status" -ne 0 ] && [ "$crashes" -eq 0 ]; then
	crashes=1					# the fuzzer died without saving an input
fi

# The harness prints its counts at a normal exit; after a crash only
# libFuzzer's progress lines tell how many inputs ran.
stats=$(grep '^decode_fuzzer stats:' "$log" | tail -n 1 || true)
if [ -n "$stats" ]; then
	inputs=$(sed -E 's/.* inputs=([0-9]+).*/\1/' <<<"$stats")
	accepted=$(sed -E 's/.* accepted=([0-9]+).*/\1/' <<<"$stats")
	unparsed=$(sed -E 's/.* unparsed=([0-9]+).*/\1/' <<<"$stats")
	rejected=$(sed -E 's/.*rejected:(.*)/\1/; s/^ //; s/ /, /g' <<<"$stats")
	rejected=${rejected:-none}
	counts="$inputs inputs ($accepted accepted, $unparsed unparsed)"
else
	inputs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)
	counts="${inputs:-?} inputs"
	rejected="not counted (the fuzzer stopped at the crash)"
fi

if [ "$crashes" -gt 0 ]; then
	echo "== the fuzzer found a problem; its report:" >&2
	grep -E -A 30 '^(==[0-9]+==ERROR|finding:|internal error|.*runtime error:|ALARM: working on the last Unit)' "$log" |
		head -n 40 >&2 || true
	for f in "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-*; do
		[ -e "$f" ] || continue
		echo "== input: ${f#"$GT_ROOT"/}; replay it with:" >&2
		echo "   GT_FUZZ_VERBOSE=1 fuzz/decode_fuzzer ${f#"$GT_ROOT"/}" >&2
	done
fi
echo "decoders: $counts, $crashes crashes, rejections by SQLSTATE: $rejected"
[ "$crashes" -eq 0 ]
