#!/usr/bin/env bash
# tools/fuzz_gdl.sh: fuzzes the GDL engine with mutated game descriptions
# (tools/fuzz_gdl.py says how they are made) and checks that the server
# never crashes and never reports an internal error (XX000). Rejections
# are fine answers and are counted by step and SQLSTATE.
#
#   bash tools/fuzz_gdl.sh [N] [--seed S]     (default N 500, seed 1)
#
# Uses the installed extension in the private cluster of tools/lib.sh and a
# database of its own, gametree_fuzz_gdl, made afresh.
source "$(dirname "$0")/lib.sh"
n=500 seed=1
while [ $# -gt 0 ]; do
	case $1 in
		--seed) seed=$2; shift 2 ;;
		*) n=$1; shift ;;
	esac
done
gt_setup
gt_fresh_database gametree_fuzz_gdl
out=$(mktemp)
# Backends the server log says a signal ended (grep -c prints 0 and fails when none did).
signal_ends() {
	grep -c 'terminated by signal' "$(gt_cluster_dir)/server.log" 2>/dev/null || true
}
log_before=$(signal_ends)
start=$(date +%s)
python3 "$GT_ROOT/tools/fuzz_gdl.py" "$seed" "$n" | gt_psql -X -d gametree_fuzz_gdl >"$out" 2>&1
status=$?
log_after=$(signal_ends)
crashes=$((${log_after:-0} - ${log_before:-0}))
internal=$(grep -c 'fuzz [a-z]* XX000' "$out" || true)
echo "seed $seed, $n descriptions in $(($(date +%s) - start)) s: $crashes crashes, $internal internal errors"
grep -o 'fuzz [a-z]* [0-9A-Zok]*' "$out" | sort | uniq -c | sort -k2,2 -k1,1rn
rm -f "$out"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] && [ "$internal" -eq 0 ]
