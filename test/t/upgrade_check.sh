#!/usr/bin/env bash
# Upgrade test: installs gametree 0.1.0 (built from its release commit),
# grows a tree with it, runs ALTER EXTENSION UPDATE, and checks that the
# extension's objects then equal those of a fresh install of the current
# version, and that the old tree still works.  Then the same from 0.2.0
# (its last commit) with trees of tictactoe, connect4 and a game from GDL,
# whose JSONB states the update to 0.3.0 turns into gametree.state values:
# the same JSON, the new CHECK, trees that grow on.  Prints "ok N - ..." lines.
# Run by tools/check.sh; needs the current version installed (gt_setup).
source "$(dirname "$0")/../../tools/lib.sh"
gt_start_cluster

OLD_VERSION=0.1.0
OLD_COMMIT=8abb0ef           # the 0.1.0 release
PREVIOUS_VERSION=0.2.0
PREVIOUS_COMMIT=86e7962      # the last commit of 0.2.0
NEW_VERSION=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$GT_ROOT/gametree.control")
libdir=$("$GT_PGBIN/pg_config" --pkglibdir)
extdir=$("$GT_PGBIN/pg_config" --sharedir)/extension
work=$(mktemp -d)
n=0 failed=0

# The old version is installed beside the current one under its own library
# name, so that the current library stays in place for everything else.
cleanup() {
	gt_as_root rm -f "$libdir/gametree-$OLD_VERSION.so" "$extdir/gametree--$OLD_VERSION.sql" \
		"$libdir/gametree-$PREVIOUS_VERSION.so" "$extdir/gametree--$PREVIOUS_VERSION.sql"
	gt_psql -q -d postgres -c "DROP DATABASE IF EXISTS gametree_upgraded" \
		-c "DROP DATABASE IF EXISTS gametree_upgraded_020" \
		-c "DROP DATABASE IF EXISTS gametree_fresh" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

check() {  # check <description> <command...>: one TAP line
	local description=$1; shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $description"; else echo "not ok $n - $description"; failed=$((failed + 1)); fi
}

# install_old <version> <commit>: builds that commit and installs it as that version.
install_old() {
	local version=$1 commit=$2 src="$work/$1"
	gt_log "building gametree $version from $commit"
	mkdir -p "$src"
	git -C "$GT_ROOT" archive "$commit" | tar -x -C "$src"
	make -s -C "$src" PG_CONFIG="$GT_PGBIN/pg_config" >/dev/null 2>&1
	gt_as_root install -m 755 "$src/gametree.so" "$libdir/gametree-$version.so"
	sed "s|MODULE_PATHNAME|\$libdir/gametree-$version|g" "$src/gametree--$version.sql" >"$src/old.sql"
	gt_as_root install -m 644 "$src/old.sql" "$extdir/gametree--$version.sql"
}
install_old "$OLD_VERSION" "$OLD_COMMIT"
install_old "$PREVIOUS_VERSION" "$PREVIOUS_COMMIT"

# update <database> <version>: what a user does, in one session: the new
# library takes the place of the old one (here the old one has a name of
# its own, so its functions are pointed at the current library, as
# installing it over the old file would), then ALTER EXTENSION UPDATE.
update() {
	gt_psql -q -d "$1" -c "UPDATE pg_catalog.pg_proc SET probin = '\$libdir/gametree'
		WHERE probin = '\$libdir/gametree-$2'" -c "ALTER EXTENSION gametree UPDATE TO '$NEW_VERSION'"
}

gt_psql -q -d postgres -c "DROP DATABASE IF EXISTS gametree_upgraded" -c "CREATE DATABASE gametree_upgraded" \
	-c "DROP DATABASE IF EXISTS gametree_fresh" -c "CREATE DATABASE gametree_fresh"
gt_psql -q -d gametree_fresh -c "CREATE EXTENSION gametree"
# Each step in its own session: a backend never loads both libraries.
gt_psql -q -d gametree_upgraded -c "CREATE EXTENSION gametree VERSION '$OLD_VERSION'" \
	-c "SELECT gametree.create_tree('t', 'tictactoe')" -c "CALL gametree.grow('t', max_depth => 4)" \
	-c "SELECT * FROM gametree.grow_step('t', 5)" >/dev/null
update gametree_upgraded "$OLD_VERSION"

check "the upgraded extension is version $NEW_VERSION" test \
	"$(gt_psql -At -d gametree_upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'gametree'")" = "$NEW_VERSION"

# grow_step left states stale in 0.1.0: the upgrade counts them pending.
check "states left stale by $OLD_VERSION are pending after the upgrade" test \
	"$(gt_psql -At -d gametree_upgraded -c "SELECT pending FROM gametree.trees WHERE name = 't'")" = 1

# The tree grown by 0.1.0 goes on growing, to tic-tac-toe's 5,478 positions.
gt_psql -q -d gametree_upgraded -c "CALL gametree.grow('t')" 2>&1 | sed 's/^/# /' || true
stats=$(gt_psql -At -d gametree_upgraded -c "SELECT states || ' ' || frontier || ' ' || root_proven FROM gametree.tree_stats('t')" 2>&1) || true
check "a tree grown by $OLD_VERSION grows on after the upgrade (states frontier proven: $stats)" \
	test "$stats" = "5478 0 true"
check "the upgrade dropped the stale column of its states (pending counts instead)" test \
	"$(gt_psql -At -d gametree_upgraded -c "SELECT count(*) FROM pg_attribute WHERE attrelid = 'public.t_states'::regclass AND attname = 'stale' AND NOT attisdropped")" = 0
check "its values are what propagation from scratch computes" test \
	"$(gt_psql -At -d gametree_upgraded -c "CREATE TEMP TABLE before AS SELECT id, utility, mobility, proven, best_move FROM public.t_states" \
		-c "SELECT gametree.propagate('t') IS NULL" \
		-c "SELECT count(*) FROM (SELECT * FROM before EXCEPT SELECT id, utility, mobility, proven, best_move FROM public.t_states) d" | tail -n 1)" = 0
check "the catalog counters agree with its tables" test \
	"$(gt_psql -At -d gametree_upgraded -c "SELECT states = (SELECT count(*) FROM public.t_states) FROM gametree.trees WHERE name = 't'")" = t
check "drop_tree removes it" gt_psql -q -o /dev/null -d gametree_upgraded -c "SELECT gametree.drop_tree('t')"


# With the tree dropped, both databases hold the extension alone: its objects
# as pg_dump writes them for pg_upgrade (which lists extension members),
# without the OIDs and session keys that differ between databases.
objects() {
	"$GT_PGBIN/pg_dump" --schema-only --binary-upgrade -d "$1" |
		grep -vE '^(--|SET |SELECT pg_catalog\.(set_config|binary_upgrade_)|\\(un)?restrict |WHERE oid = .[0-9]+.;$)' | grep -v '^$'
}
objects gametree_fresh >"$work/fresh.sql"
objects gametree_upgraded >"$work/upgraded.sql"
check "an upgraded catalog equals a fresh $NEW_VERSION install ($(grep -c '' "$work/fresh.sql") lines of pg_dump)" \
	diff -u "$work/fresh.sql" "$work/upgraded.sql"

# From 0.2.0: trees of two built-in games and of a game from GDL, whose
# JSONB states the update turns into gametree.state('<game>').
DB=gametree_upgraded_020
TREES="t_ttt:tictactoe t_c4:connect4 t_gdl:upgrade_ttt"
gt_psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
gt_psql -q -d "$DB" -v kif_file="$GT_ROOT/test/data/gdl/ticTacToe.kif" >/dev/null <<-EOF
	CREATE EXTENSION gametree VERSION '$PREVIOUS_VERSION';
	\set kif \`cat :'kif_file'\`
	SELECT gametree.load_game('upgrade_ttt', :'kif');
	SELECT gametree.create_tree('t_ttt', 'tictactoe');
	CALL gametree.grow('t_ttt', max_depth => 4);
	SELECT gametree.create_tree('t_c4', 'connect4');
	CALL gametree.grow('t_c4', max_depth => 4);
	SELECT gametree.create_tree('t_gdl', 'upgrade_ttt');
	CALL gametree.grow('t_gdl', max_depth => 3);
	CREATE TABLE public.saved AS
	  SELECT 't_ttt' AS tree, id, state::text AS state FROM public.t_ttt_states
	  UNION ALL SELECT 't_c4', id, state::text FROM public.t_c4_states
	  UNION ALL SELECT 't_gdl', id, state::text FROM public.t_gdl_states;
	EOF
update "$DB" "$PREVIOUS_VERSION"
check "the extension updated from $PREVIOUS_VERSION is version $NEW_VERSION" test \
	"$(gt_psql -At -d "$DB" -c "SELECT extversion FROM pg_extension WHERE extname = 'gametree'")" = "$NEW_VERSION"
for entry in $TREES; do
	tree=${entry%%:*} game=${entry#*:}
	check "$tree: its states column is gametree.state('$game') NOT NULL" test \
		"$(gt_psql -At -d "$DB" -c "SELECT format_type(atttypid, atttypmod) || ' ' || attnotnull FROM pg_attribute
			WHERE attrelid = 'public.${tree}_states'::regclass AND attname = 'state'")" = "gametree.state('$game') true"
	check "$tree: every state prints the JSON $PREVIOUS_VERSION stored" test \
		"$(gt_psql -At -d "$DB" -c "SELECT count(*) FROM ((SELECT id, state FROM public.saved WHERE tree = '$tree'
			EXCEPT SELECT id, state::text FROM public.${tree}_states)
			UNION ALL (SELECT id, state::text FROM public.${tree}_states
			EXCEPT SELECT id, state FROM public.saved WHERE tree = '$tree')) d")" = 0
	check "$tree: its one CHECK is ${tree}_states_check, id = gametree.state_hash(state)" test \
		"$(gt_psql -At -d "$DB" -c "SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), '; ')
			FROM pg_constraint WHERE conrelid = 'public.${tree}_states'::regclass AND contype = 'c'")" = \
		"${tree}_states_check CHECK ((id = gametree.state_hash(state)))"
done
check "the CHECK refuses a row whose id is not its state's hash" test \
	"$(gt_psql -At -d "$DB" -c "UPDATE public.t_c4_states SET id = id + 1 WHERE depth = 0" 2>&1 | grep -c 'violates check constraint')" = 1
# The trees go on growing, tic-tac-toe to its 5,478 positions, and propagate as from scratch.
gt_psql -q -d "$DB" -c "CALL gametree.grow('t_ttt')" -c "CALL gametree.grow('t_c4', max_depth => 5)" \
	-c "CALL gametree.grow('t_gdl', max_depth => 5)" 2>&1 | sed 's/^/# /' || true
stats=$(gt_psql -At -d "$DB" -c "SELECT states || ' ' || frontier || ' ' || root_proven FROM gametree.tree_stats('t_ttt')" 2>&1) || true
check "a tic-tac-toe tree grown by $PREVIOUS_VERSION grows on to the end (states frontier proven: $stats)" \
	test "$stats" = "5478 0 true"
for entry in t_c4:5 t_gdl:5; do
	tree=${entry%%:*} depth=${entry#*:}
	check "$tree grows on to depth $depth" test \
		"$(gt_psql -At -d "$DB" -c "SELECT max(depth) FROM public.${tree}_states" 2>&1)" = "$depth"
	check "$tree: its values are what propagation from scratch computes" test \
		"$(gt_psql -At -d "$DB" -c "CREATE TEMP TABLE before AS SELECT id, utility, mobility, proven, best_move FROM public.${tree}_states" \
			-c "SELECT gametree.propagate('$tree') IS NULL" \
			-c "SELECT count(*) FROM (SELECT * FROM before EXCEPT SELECT id, utility, mobility, proven, best_move FROM public.${tree}_states) d" 2>&1 | tail -n 1)" = 0
done

echo "1..$n"
[ "$failed" -eq 0 ]
