#!/usr/bin/env bash
# test/t/shard_check.sh: does a tree sharded over three servers (issue 24)
# hold, row for row, the tree that one server grows, and answer the same
# through the coordinator?
#
#   bash test/t/shard_check.sh
#
# It uses the installed extension (it neither builds nor installs; run
# tools/check.sh or tools/demo.sh first), the private cluster of
# tools/lib.sh as the coordinator and three nodes started by gt_start_nodes
# (tools/lib.sh: node I in $(gt_cluster_dir)/node<I>, its own unix socket,
# port GAMETREE_PORT + 100 + I), stopped on exit.  Each node gets a fresh
# database gametree_shard with gametree; the coordinator a database
# gametree_shard with postgres_fdw, dblink (for the checks' own reads of
# the nodes: gametree does not use it) and gametree, and the foreign
# servers node1 to node3 with user mappings (gt_node_servers_sql).  There:
#
#   ttt  tic-tac-toe over node1..3, grown in full, beside one_ttt, the
#        same on the coordinator alone;
#   c4   connect four over node1..3 to GT_SHARD_C4_DEPTH plies (default 8,
#        about 250,000 states), beside one_c4.
#
# For each pair: the states (id, state, goal, depth, control, expanded,
# utility, mobility, proven, best_move), edges (init_id, move_id, next_id,
# and the values the graph view shows) and moves read through the
# coordinator equal the one-server tree's, both ways and with duplicates
# counted, and so do the counts; the states and edges read on each node
# directly (COPY out of its own tables) add up to the one-server tree's,
# each row on one node only; each node holds only rows that the
# coordinator's foreign partitions on it take (their partition bounds,
# applied on the coordinator to the node's keys read through dblink);
# tree_stats, depth_stats, outcomes and the principal
# variation from the root give the same rows.  On ttt, the README's SQL
# examples that read a tree (those naming ttt_states, ttt_graph,
# ttt_moves or 'ttt' and changing no tree) print the same on both.  Last,
# drop_tree removes ttt on the coordinator and on every node, leaving c4,
# and then c4.  About a minute.
#
# GT_SHARD_KEEP=1 keeps the databases and leaves the nodes running.
#
# Output: TAP, `ok N - ...` / `not ok N - ...` lines with `#` notes
# (timings among them), then `1..N`; the exit status is 1 when a check
# failed.
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/lib.sh"
set +e

NODES=3
DB=gametree_shard
C4_DEPTH=${GT_SHARD_C4_DEPTH:-8}
case $C4_DEPTH in '' | *[!0-9]*) echo "GT_SHARD_C4_DEPTH must be a number of plies" >&2; exit 2 ;; esac
NODE_ARRAY="ARRAY[$(for ((i = 1; i <= NODES; i++)); do printf "%s'node%d'" "${sep:-}" "$i"; sep=', '; done)]"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gametree-shard.XXXXXX")
cleanup() {
	local status=$?
	if [ "${GT_SHARD_KEEP:-0}" = 1 ]; then
		gt_log "kept the database $DB on the coordinator and on the nodes, which still run"
	else
		gt_psql -q -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" \
			>/dev/null 2>&1
		gt_stop_nodes "$NODES"
	fi
	rm -rf "$WORK"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# node_table NODE TREE SUFFIX: the node's table of its share of TREE,
# schema-qualified, from the node's catalog.
node_table() {
	run "$1" "SELECT format('%I.%I', schema, name || '_$3') FROM gametree.tree_info('$2')"
}

# compare_nodes TREE ONE: the states and edges that the nodes hold, read on
# each node, add up to ONE's, each row once; each node holds only the rows
# that the coordinator's foreign partitions on it take.
compare_nodes() {
	local t=$1 one=$2 started i what columns key table out bounds
	started=$(now)
	for what in states edges; do
		if [ "$what" = states ]; then
			columns="id, md5(state::text), goal, depth, control, expanded, utility, mobility, proven, best_move"
			key=id
		else
			columns="init_id, move_id, next_id"
			key=init_id
		fi
		q "COPY (SELECT $columns FROM ${one}_$what) TO STDOUT" | LC_ALL=C sort >"$WORK/one" ||
			{ not_ok "$t: the $what read on the nodes add up to ${one}'s" "cannot read ${one}_$what"; continue; }
		: >"$WORK/nodes"
		for ((i = 1; i <= NODES; i++)); do
			if ! table=$(node_table "$i" "$t" "$what" 2>&1) || [ -z "$table" ]; then
				not_ok "$t: the $what read on the nodes add up to ${one}'s" "node $i has no tree $t: $table"
				continue 2
			fi
			if ! out=$(run "$i" "COPY (SELECT $columns FROM $table) TO STDOUT" 2>&1 >>"$WORK/nodes"); then
				not_ok "$t: the $what read on the nodes add up to ${one}'s" "node $i, $table: $out"
				continue 2
			fi
			note "$t: node $i holds $(run "$i" "SELECT count(*) FROM $table") $what in $table"
			# Which of the node's rows its partitions on the coordinator take.
			bounds=$(q "SELECT string_agg('(' || pg_get_partition_constraintdef(p.relid) || ')', ' OR ')
			            FROM pg_partition_tree('${t}_$what'::regclass) p
			            JOIN pg_foreign_table f ON f.ftrelid = p.relid
			            JOIN pg_foreign_server s ON s.oid = f.ftserver
			            WHERE p.isleaf AND s.srvname = 'node$i'" 2>&1)
			if [ -z "$bounds" ]; then
				ok "$t: node $i holds only $what of its own range # SKIP ${t}_$what has no foreign partition on node$i"
			else
				none "$t: node $i holds only $what of its own range ($key within the bounds of ${t}_$what's partitions on node$i)" \
					"SELECT d.$key FROM dblink('node$i', 'SELECT $key FROM $table') AS d($key bigint)
					 WHERE NOT coalesce($bounds, false)"
			fi
		done
		LC_ALL=C sort -o "$WORK/nodes" "$WORK/nodes"
		if cmp -s "$WORK/one" "$WORK/nodes"; then
			ok "$t: the $what read on the nodes add up to ${one}'s ($(wc -l <"$WORK/one") rows, each on one node)"
		else
			not_ok "$t: the $what read on the nodes add up to ${one}'s" \
				"$(wc -l <"$WORK/one") rows in $one, $(wc -l <"$WORK/nodes") on the nodes; < $one, > nodes:
$(diff "$WORK/one" "$WORK/nodes" | grep '^[<>]' | head -n 10)"
		fi
	done
	note "time: $t read on the nodes $(since "$started") s"
}

# grow_pair TREE ONE GAME GROW_ARGUMENTS: creates TREE over the nodes and
# ONE on the coordinator, grows both with GROW_ARGUMENTS (", max_depth =>
# 8" or nothing); returns non-zero when the sharded tree is not there.
grow_pair() {
	local t=$1 one=$2 game=$3 args=$4 out started
	if out=$(q "SELECT gametree.create_tree('$one', '$game')" 2>&1) &&
		out=$(q "CALL gametree.grow('$one'$args)" 2>&1); then
		:
	else
		not_ok "$one: created and grown on the coordinator alone" "$out"
		return 1
	fi
	if out=$(q "SELECT gametree.create_tree('$t', '$game', nodes => $NODE_ARRAY)" 2>&1); then
		ok "$t: create_tree of $game over $NODE_ARRAY"
		SHARDED+=("$t")
	else
		not_ok "$t: create_tree of $game over $NODE_ARRAY" "$out"
		return 1
	fi
	started=$(now)
	if out=$(q "CALL gametree.grow('$t'$args)" 2>&1); then
		ok "$t: grow$args over the nodes"
	else
		not_ok "$t: grow$args over the nodes" "$out"
		return 1
	fi
	note "time: grow of $t over the nodes $(since "$started") s"
}

# The README's SQL examples that read a tree: each run on ttt and, with its
# names changed, on one_ttt, in a transaction rolled back.  A block is
# picked when it names ttt_states, ttt_graph, ttt_moves, ttt_edges or
# 'ttt', and not when it creates, grows, expands, propagates or drops a
# tree or loads a game.
readme_queries() {
	local line block blocks=0 a b
	awk -v work="$WORK" '
		/^ *```sql *$/ { infence = 1; text = ""; opened = NR; next }
		infence && /^ *``` *$/ {
			infence = 0
			if (text ~ /ttt_(states|graph|moves|edges)|'"'ttt'"'/ &&
			    text !~ /gametree\.(create_tree|grow|grow_step|expand|propagate|drop_tree|load_game|unload_game)/) {
				file = work "/readme_" opened ".sql"
				printf "BEGIN;\n%sROLLBACK;\n", text >file
				close(file)
				print opened >(work "/readme_blocks")
			}
			next
		}
		infence { sub(/^ +/, ""); text = text $0 "\n" }
	' "$GT_ROOT/README.md"
	touch "$WORK/readme_blocks"
	for line in $(cat "$WORK/readme_blocks"); do
		blocks=$((blocks + 1))
		block=$WORK/readme_$line.sql
		sed -E "s/\\<ttt_(states|graph|moves|edges)\\>/one_ttt_\\1/g; s/'ttt'/'one_ttt'/g" "$block" >"$block.one"
		a=$(gt_psql -d "$DB" -f "$block" 2>&1)
		b=$(gt_psql -d "$DB" -f "$block.one" 2>&1)
		if [ "$a" = "$b" ] && ! grep -q ERROR <<<"$a"; then
			ok "README.md line $line: the same answer on ttt as on one_ttt"
		else
			not_ok "README.md line $line: the same answer on ttt as on one_ttt" \
				"$(diff <(printf '%s\n' "$b") <(printf '%s\n' "$a") | head -n 20)"
		fi
	done
	[ "$blocks" -gt 0 ] || not_ok "README.md has SQL examples that read the tree ttt" "none found"
}

# dropped TREE: nothing of TREE remains on the coordinator or on a node.
dropped() {
	local t=$1 i
	none "$t: after drop_tree no relation named ${t}_... remains on the coordinator" \
		"SELECT c.oid::regclass FROM pg_class c WHERE c.relname LIKE '${t}\\_%'"
	none "$t: after drop_tree gametree.trees has no row of it on the coordinator" \
		"SELECT schema, name FROM gametree.trees WHERE name = '$t'"
	for ((i = 1; i <= NODES; i++)); do
		none "$t: after drop_tree no relation named ${t}_... remains on node $i" \
			"SELECT c.oid::regclass FROM pg_class c WHERE c.relname LIKE '${t}\\_%'" "$i"
		none "$t: after drop_tree gametree.trees has no row of it on node $i" \
			"SELECT schema, name FROM gametree.trees WHERE name = '$t'" "$i"
	done
}

# -------------------------------------------------------------------- run

TOTAL_START=$(now)
SHARDED=()  # the sharded trees created
gt_start_cluster
unset PGOPTIONS PGSERVICE

started=$(now)
if ! out=$(gt_start_nodes "$NODES" 2>&1 && gt_fresh_node_databases "$NODES" "$DB" 2>&1); then
	echo "Bail out! cannot start the nodes with a database $DB: $out"
	exit 1
fi
ok "$NODES nodes run, each with a fresh database $DB with gametree"
note "time: nodes started $(since "$started") s"
if ! out=$(gt_fresh_database "$DB" postgres_fdw dblink 2>&1 && gt_node_servers_sql "$NODES" "$DB" | gt_psql -q -d "$DB" 2>&1); then
	echo "Bail out! cannot set up the coordinator's database $DB: $out"
	exit 1
fi
ok "the coordinator's database $DB with postgres_fdw, dblink, gametree and the servers node1 to node$NODES"
for ((i = 1; i <= NODES; i++)); do
	none "node$i is reached from the coordinator, on port $(gt_node_port "$i")" \
		"SELECT port FROM dblink('node$i', 'SELECT current_setting(''port'')') AS t(port text)
		 WHERE port <> '$(gt_node_port "$i")'"
done

# The README's worked example of a sharded tree (Trees on several servers):
# its SQL block, marked as run here, prints its text block, trailing blanks
# aside; then its tree c4 is dropped, for the c4 below.
gt_log "the README's worked example"
example_sql=$(awk '/^-- not run: needs the nodes \(test\/t\/shard_check.sh runs this block and checks its output\)$/ { on = 1; next }
	on && /^```/ { exit } on { print }' "$GT_ROOT/README.md")
example_out=$(awk '/^-- not run: needs the nodes \(test\/t\/shard_check.sh runs this block and checks its output\)$/ { seen = 1 }
	seen && /^```text$/ { on = 1; next } on && /^```/ { exit } on { print }' "$GT_ROOT/README.md")
if [ -z "$example_sql" ] || [ -z "$example_out" ]; then
	not_ok "README.md: the worked example of Trees on several servers and its output are found"
else
	got=$(printf '%s\n' "$example_sql" | PGOPTIONS="-c client_min_messages=warning" "$GT_PGBIN/psql" -X -d "$DB" 2>&1 | sed 's/[[:space:]]*$//')
	want=$(printf '%s\n' "$example_out" | sed 's/[[:space:]]*$//')
	if [ "$got" = "$want" ]; then
		ok "README.md: the worked example of Trees on several servers prints what the README shows"
	else
		not_ok "README.md: the worked example of Trees on several servers prints what the README shows" \
			"$(diff <(printf '%s\n' "$want") <(printf '%s\n' "$got"))"
	fi
	q "SELECT gametree.drop_tree('c4')" >/dev/null 2>&1 || true
fi

gt_log "tic-tac-toe in full over the nodes and on the coordinator alone"
if grow_pair ttt one_ttt tictactoe ""; then
	none "ttt: 5478 states, 16167 edges and 18 moves, as tic-tac-toe has" \
		"SELECT * FROM (SELECT (SELECT count(*) FROM ttt_states) AS states, (SELECT count(*) FROM ttt_edges) AS edges,
		                       (SELECT count(*) FROM ttt_moves) AS moves) c
		 WHERE (states, edges, moves) <> (5478, 16167, 18)"
	compare ttt one_ttt
	compare_nodes ttt one_ttt
	readme_queries
fi

gt_log "connect four to depth $C4_DEPTH over the nodes and on the coordinator alone"
if grow_pair c4 one_c4 connect4 ", max_depth => $C4_DEPTH"; then
	compare c4 one_c4
	compare_nodes c4 one_c4
fi

gt_log "drop_tree"
for t in "${SHARDED[@]}"; do
	if out=$(q "SELECT gametree.drop_tree('$t')" 2>&1); then
		ok "$t: drop_tree"
		dropped "$t"
		[ "$t" = ttt ] && [[ " ${SHARDED[*]} " == *" c4 "* ]] && none "c4: after ttt was dropped, its share on every node is still there" \
			"SELECT 'node' || n FROM generate_series(1, $NODES) n
			 WHERE NOT EXISTS (SELECT FROM dblink('node' || n, 'SELECT 1 FROM gametree.trees WHERE name = ''c4''')
			                   AS t(one integer))"
	else
		not_ok "$t: drop_tree" "$out"
	fi
done

note "time: total $(since "$TOTAL_START") s"
echo "1..$TESTS"
[ "$FAILED" -eq 0 ]
