#!/usr/bin/env bash
# (c) Memory of the backend that grows connect four to MEM_STATES states
# (default 2,000,000) in one CALL gametree.grow, with gametree.work_memory =
# MEM_WORK (default 1GB): it must stay within that setting, not grow with
# the tree beyond it.  The backend's private memory (RssAnon in
# /proc/<pid>/status) is sampled every second; VmRSS and VmHWM also count
# the shared_buffers pages it touched, so they are shown but are not the
# figure.  The figure is the ratio of the peak RssAnon while the tree grew
# from half its final size to the end, to the peak before: about 1 when
# bounded.
source "$(dirname "$0")/bench.sh"
MEM_STATES=${MEM_STATES:-2000000}
MEM_WORK=${MEM_WORK:-1GB}
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench
app=gametree_grow_memory
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT

PGAPPNAME=$app gt_psql -d $db -qAt -c "SET client_min_messages = warning" \
	-c "SET gametree.work_memory = '$MEM_WORK'" \
	-c "SELECT gametree.create_tree('mem', 'connect4')" \
	-c "CALL gametree.grow('mem', max_states => $MEM_STATES)" >/dev/null &
grower=$!

pid=
while [ -z "$pid" ] && kill -0 $grower 2>/dev/null; do
	pid=$(gt_psql -d $db -qAt -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND datname = '$db' AND backend_type = 'client backend'")
	[ -n "$pid" ] || sleep 0.1
done
[ -n "$pid" ] || { wait $grower; echo "FAIL: the growing session ended before it was seen" >&2; exit 1; }

# One line a second: seconds, states stored (committed with every batch),
# RssAnon, VmRSS, VmHWM in kB.  The backend may exit between two reads.
start=$(date +%s.%N)
while kill -0 $grower 2>/dev/null; do
	status=$(cat "/proc/$pid/status" 2>/dev/null) || break
	states=$(gt_psql -d $db -qAt -c "SELECT coalesce((SELECT states FROM gametree.trees WHERE name = 'mem'), 0)")
	awk -v t="$(date +%s.%N)" -v t0="$start" -v s="$states" '
		$1 == "RssAnon:" { anon = $2 } $1 == "VmRSS:" { rss = $2 } $1 == "VmHWM:" { hwm = $2 }
		END { printf "%.0f %d %d %d %d\n", t - t0, s, anon, rss, hwm }' <<<"$status" >>"$samples"
	sleep 1
done
wait $grower

final=$(gt_psql -d $db -qAt -F' ' -c "SELECT states, edges FROM gametree.tree_stats('mem')")
# Propagation (at the end) holds the whole tree and brings a peak: the
# table shows, for each tenth of the run, the largest RssAnon seen in it.
awk -v final="$final" -v work="$MEM_WORK" '
	{ t[NR] = $1; s[NR] = $2; anon[NR] = $3; rss[NR] = $4; hwm[NR] = $5 }
	END {
		split(final, f, " ")
		printf "connect4 grow to %d states, %d edges, in %d s; backend memory sampled every second:\n",
			f[1], f[2], t[NR]
		printf "%8s %10s %12s %14s %12s %12s\n", "seconds", "states", "RssAnon MB", "peak since MB",
			"VmRSS MB", "VmHWM MB"
		from = 1
		for (k = 1; k <= 10; k++) {
			to = int(NR * k / 10 + 0.5)
			if (to < from)
				continue
			top = 0
			for (i = from; i <= to; i++)
				if (anon[i] > top) top = anon[i]
			printf "%8d %10d %12.1f %14.1f %12.1f %12.1f\n", t[to], s[to], anon[to] / 1024, top / 1024,
				rss[to] / 1024, hwm[to] / 1024
			from = to + 1
		}
		# Halves by tree size: the rate falls as the tree grows, so halves in
		# time would not compare like with like.
		for (i = 1; i <= NR; i++) {
			if (s[i] <= f[1] / 2) { if (anon[i] > first) first = anon[i] }
			else if (anon[i] > second) second = anon[i]
			if (anon[i] > peak) { peak = anon[i]; at = i }
		}
		printf "peak RssAnon %.1f MB (at %d s, %d states), VmHWM %.1f MB; gametree.work_memory %s\n",
			peak / 1024, t[at], s[at], hwm[NR] / 1024, work
		printf "peak RssAnon, second half / first half of the states: %.2f (%.1f / %.1f MB)\n",
			first ? second / first : 0, second / 1024, first / 1024
	}' "$samples"
