#!/usr/bin/env bash
# The one command to start with: installs what is missing, builds and
# installs gametree, starts the private cluster and shows the extension at
# work in the database "gametree".
source "$(dirname "$0")/lib.sh"
gt_setup
if ! gt_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'gametree'" | grep -q 1; then
	gt_psql -q -d postgres -c "CREATE DATABASE gametree"
fi
# Trees others made in this database stay; the demo replaces only its own.
gt_psql -q -d gametree -c "CREATE EXTENSION IF NOT EXISTS gametree" -c "ALTER EXTENSION gametree UPDATE"

gt_psql -q -d gametree -f "$GT_ROOT/tools/demo.sql"

# A game from its rules: tic-tac-toe as GDL (test/data/gdl/ticTacToe.kif).
echo
echo "=== a game from its rules: ticTacToe.kif loaded from GDL, against the built-in tic-tac-toe"
gt_psql -q -d gametree -v file="$GT_ROOT/test/data/gdl/ticTacToe.kif" <<'SQL'
\set kif `cat :'file'`
SET client_min_messages = warning;
\o /dev/null
SELECT gametree.unload_game(name) FROM gametree.gdl_games WHERE name = 'demo_ttt_kif';
\o
SELECT game, roles, facts, actions, rules, nodes, engine FROM gametree.load_game('demo_ttt_kif', :'kif');
SELECT d AS depth, gametree.perft('demo_ttt_kif', gametree.initial('demo_ttt_kif'), d) AS gdl,
       gametree.perft('tictactoe', gametree.initial('tictactoe'), d) AS native
FROM generate_series(1, 9) d;
SELECT gametree.bestmove('demo_ttt_kif', gametree.initial('demo_ttt_kif'), time_limit => NULL, max_depth => 9);
SQL

# The command-line client, on the database the demo uses (the PG* variables
# name the cluster).
client="$GT_ROOT/client/gametree -d gametree"
echo
echo "=== the command-line client (make install puts it on the PATH as gametree)"
echo "--- gametree list"
$client list
echo "--- gametree best chess --fen '<the scholar's mate position>' --time 1s"
$client best chess --fen 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1' --time 1s
echo "--- gametree analyse tictactoe --time none --depth 9 (every first move, solved)"
$client analyse tictactoe --time none --depth 9
echo "--- gametree best demo_ttt_kif --time none --depth 9 (the game from GDL: moves as JSON)"
$client best demo_ttt_kif --time none --depth 9
cat <<MSG

Done.  Open psql on this database with:  bash tools/psql.sh
(the cluster keeps running; stop it with: bash tools/psql.sh --stop)
MSG
