# bench/bench.sh: helpers for the benchmarks (sourced).  Statements are
# timed by psql's \timing on the private cluster, so connection set-up is
# not counted.  The job helpers (bench_size_rows, bench_grow_run) work on
# whatever build is installed, so that one script can run them against two
# builds (bench_build_base, bench_install; compact_states.sh).
source "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"

BENCH_RUNS=${BENCH_RUNS:-5}

# Seconds one statement takes in database $1.
bench_seconds() {
	local db=$1 sql=$2
	gt_psql -d "$db" -qAt -c '\timing on' -c "$sql" | awk '/^Time:/ { printf "%.6f\n", $2 / 1000 }'
}

# The statements that load a GDL game at BENCH_GDL_MEMORY (its
# gametree.gdl_memory and max_memory) when that is set; nothing otherwise.
bench_gdl_load_settings() {
	[ -z "${BENCH_GDL_MEMORY:-}" ] ||
		echo "SET gametree.max_memory = '$BENCH_GDL_MEMORY'; SET gametree.gdl_memory = '$BENCH_GDL_MEMORY';"
}

# The path of the KIF file named $1 in test/data/gdl or test/data/games.
bench_kif_of() {
	local f
	for f in "$GT_ROOT/test/data/gdl/$1.kif" "$GT_ROOT/test/data/games/$1.kif"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "no KIF file named $1" >&2
	exit 1
}

# The median of the numbers on standard input, one a line.
bench_median_of() {
	sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

# Median of BENCH_RUNS timings of one statement.
bench_median() {
	local db=$1 sql=$2
	for _ in $(seq "$BENCH_RUNS"); do bench_seconds "$db" "$sql"; done | bench_median_of
}

# One session of database $1: a first perft of game $2 (it compiles a game
# from GDL), then BENCH_RUNS timed perfts at depth $3; prints "leaves
# median_seconds".
bench_perft_median() {
	local db=$1 game=$2 depth=$3 out
	out=$({
		echo "SELECT gametree.perft('$game', gametree.initial('$game'), 1);"
		echo '\timing on'
		for _ in $(seq "$BENCH_RUNS"); do
			echo "SELECT gametree.perft('$game', gametree.initial('$game'), $depth);"
		done
	} | gt_psql -v ON_ERROR_STOP=1 -d "$db" -qAt) || return 1
	echo "$(grep -E '^[0-9]+$' <<<"$out" | tail -n 1) $(awk '/^Time:/ { printf "%.6f\n", $2 / 1000 }' <<<"$out" | bench_median_of)"
}

# Seconds the statements take together, one after another in one session
# of database $1.
bench_session_seconds() {
	local db=$1 sql args=()
	shift
	for sql in "$@"; do args+=(-c "$sql"); done
	gt_psql -d "$db" -qAt -c '\timing on' -c 'SET client_min_messages = warning' "${args[@]}" |
		awk '/^Time:/ { t += $2 } END { printf "%.6f\n", t / 1000 }'
}

# Makes public.position(moves text) in database $1: the connect four
# position after the columns of moves, one digit 1-7 a disc, as
# tools/c4solve and test/data/connect4_*.tsv write them.
bench_connect4_position_function() {
	gt_psql -q -d "$1" <<-'EOF'
		CREATE FUNCTION public.position(moves text) RETURNS jsonb LANGUAGE sql AS $$
		  SELECT gametree.play('connect4', gametree.initial('connect4'),
		                       coalesce(jsonb_agg(jsonb_build_array('drop', c::int) ORDER BY i), '[]'))
		  FROM string_to_table(moves, NULL) WITH ORDINALITY AS d(c, i)
		$$;
	EOF
}

# A job is game:grow arguments (after the tree name; "," separates several),
# e.g. "connect4:max_depth=>8".  Sets job_game, and job_args as they follow
# the tree name in CALL gametree.grow (", max_depth=>8", or nothing).
bench_parse_job() {
	job_game=${1%%:*}
	job_args=${1#*:}
	job_args=${job_args:+, ${job_args//,/, }}
}

# The suffix of the table that holds tree $2's edges in database $1: _edges
# from 0.3.0 on, _graph before (the builds compared may differ).
bench_edges_suffix() {
	if [ "$(gt_psql -d "$1" -qAt -c "SELECT to_regclass('public.$2_edges') IS NOT NULL")" = t ]; then
		echo _edges
	else
		echo _graph
	fi
}

# Grows a fresh tree "sized" of job $2 in database $1 with one CALL grow,
# VACUUMs it (the free-space and visibility maps exist as on a settled
# tree) and prints "tree <states> <edges>", then "<table> <heap bytes, TOAST
# included> <index bytes>" for states, moves and edges.  Drops every tree of
# the database first.
bench_size_rows() {
	local db=$1 edges
	bench_parse_job "$2"
	gt_psql -d "$db" -qAt -c "SELECT gametree.drop_tree(name) FROM gametree.trees" >/dev/null
	gt_psql -d "$db" -qAt -c "SELECT gametree.create_tree('sized', '$job_game')" \
		-c "SET client_min_messages = warning" -c "CALL gametree.grow('sized'$job_args)" >/dev/null
	edges=$(bench_edges_suffix "$db" sized)
	gt_psql -d "$db" -qAt -c "VACUUM (ANALYZE) sized_states, sized_moves, sized$edges" >/dev/null
	gt_psql -d "$db" -qAt -F' ' -v edges="sized$edges" <<-'SQL'
		SELECT 'tree', states, edges FROM gametree.trees WHERE name = 'sized';
		SELECT t, pg_table_size(r), pg_indexes_size(r)
		FROM (VALUES ('states', 'public.sized_states'::regclass), ('moves', 'public.sized_moves'::regclass),
		             ('edges', (:'edges')::regclass)) v(t, r);
	SQL
}

# One run of job $2 in database $1: grows a fresh tree "grown" with one CALL
# grow (its final propagation included); copies its final rows with plain
# INSERT INTO copy SELECT * FROM grown, one statement per table, into an
# empty tree's tables (the same columns, indexes and constraints: the
# ceiling); copies its states again into a tree whose states table has no
# CHECK (id = state_hash(state)) (the price of the CHECK is the difference);
# then propagates the grown tree from scratch.  Prints one line:
#   <states> <edges> <pending> <grow s> <ceiling s> <ceiling's states s> <states without the CHECK s> <propagate s>
# Drops every tree of the database first.
bench_grow_run() {
	local db=$1 grow ceiling_states ceiling_rest unchecked propagate edges
	bench_parse_job "$2"
	gt_psql -d "$db" -qAt -c "SELECT gametree.drop_tree(name) FROM gametree.trees" >/dev/null
	gt_psql -d "$db" -qAt -c "SELECT gametree.create_tree('grown', '$job_game')" >/dev/null
	grow=$(bench_session_seconds "$db" "CALL gametree.grow('grown'$job_args)")
	gt_psql -d "$db" -qAt -c "SELECT gametree.create_tree('copy', '$job_game')" -c "DELETE FROM copy_states" \
		-c "SELECT gametree.create_tree('unchecked', '$job_game')" -c "DELETE FROM unchecked_states" \
		-c "DO \$\$ DECLARE c name; BEGIN
			FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = 'unchecked_states'::regclass AND contype = 'c' LOOP
				EXECUTE format('ALTER TABLE unchecked_states DROP CONSTRAINT %I', c);
			END LOOP; END \$\$" \
		-c "CHECKPOINT" >/dev/null
	ceiling_states=$(bench_session_seconds "$db" "INSERT INTO copy_states SELECT * FROM grown_states")
	edges=$(bench_edges_suffix "$db" grown)
	ceiling_rest=$(bench_session_seconds "$db" "INSERT INTO copy_moves SELECT * FROM grown_moves" \
		"INSERT INTO copy$edges SELECT * FROM grown$edges")
	gt_psql -d "$db" -qAt -c "CHECKPOINT" >/dev/null
	unchecked=$(bench_session_seconds "$db" "INSERT INTO unchecked_states SELECT * FROM grown_states")
	propagate=$(bench_session_seconds "$db" "SELECT gametree.propagate('grown')")
	printf '%s %s %s %s %s %s\n' \
		"$(gt_psql -d "$db" -qAt -F' ' -c "SELECT states, edges, pending FROM gametree.trees WHERE name = 'grown'")" \
		"$grow" "$(awk -v a="$ceiling_states" -v b="$ceiling_rest" 'BEGIN { printf "%.6f", a + b }')" \
		"$ceiling_states" "$unchecked" "$propagate"
}

# Builds commit $1 in a temporary worktree (removed when the script exits)
# and the working tree; sets bench_base_dir and bench_base_commit.  Takes
# the install lock (held until the script exits): the builds are installed
# in turn by bench_install.
bench_build_base() {
	bench_base_commit=$(git -C "$GT_ROOT" rev-parse --verify "$1^{commit}") || exit 2
	gt_install_packages
	gt_lock
	bench_work=$(mktemp -d)
	trap 'git -C "$GT_ROOT" worktree remove --force "$bench_work/base" >/dev/null 2>&1; rm -rf "$bench_work"' EXIT
	bench_base_dir=$bench_work/base
	git -C "$GT_ROOT" worktree add -q --detach "$bench_base_dir" "$bench_base_commit"
	gt_log "building $1 (${bench_base_commit:0:10}) and the working tree"
	make -s -C "$bench_base_dir" PG_CONFIG="$GT_PGBIN/pg_config" >/dev/null
	make -s -C "$GT_ROOT" PG_CONFIG="$GT_PGBIN/pg_config" >/dev/null
	gt_start_cluster
}

# Installs the build in directory $1 (bench_base_dir or GT_ROOT) and
# restarts the private cluster, so that no backend keeps the other library.
bench_install() {
	gt_as_root make -s -C "$1" PG_CONFIG="$GT_PGBIN/pg_config" install >/dev/null
	gt_stop_cluster >/dev/null
	gt_start_cluster >/dev/null
}
