#!/usr/bin/env bash
# Search speed and time keeping of bestmove, per game.
#
#  - nodes per second: alpha-beta positions (and Monte Carlo iterations) per
#    second of 1-second searches from the initial position, median of
#    BENCH_RUNS runs, next to the game's perft leaf rate measured in the
#    same run (the ratio is how much a search node costs over a bare move);
#  - time-limit overrun: 100 calls of bestmove(time_limit => '50 ms') from
#    positions 0..19 random plies into the game, the time each call took
#    beyond 50 ms (median and maximum), per method;
#  - the same for chess loaded from GDL (test/data/gdl/chess.kif), which the
#    prover evaluates at milliseconds a position (20 calls at 200 ms from
#    0..9 plies in, per method), and for grow of a tree of it (5 calls at
#    1 s, each on a fresh tree).
#
#   BENCH_RUNS=3 bash bench/search_speed.sh
#   GAMES= bash bench/search_speed.sh      # chess.kif's part alone
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench

# The rate a search reports at DEBUG1 ("... 12345 per second").
search_rate() {
	local game=$1 method=$2
	for _ in $(seq "$BENCH_RUNS"); do
		gt_psql -d gametree_bench -qAt -c "SET client_min_messages = debug1" \
			-c "SELECT gametree.bestmove('$game', gametree.initial('$game'), '1 second', NULL, '$method')" 2>&1 |
			sed -n 's/.*, \([0-9]*\) per second$/\1/p'
	done | sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

gt_psql -q -d gametree_bench <<'SQL'
-- A position k random plies into the game (seeded: every run gets the same).
CREATE FUNCTION random_position(game text, plies int, seed float8) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := gametree.initial(game);
BEGIN
  PERFORM setseed(seed);
  FOR i IN 1..plies LOOP
    EXIT WHEN gametree.terminal(game, s);
    s := gametree.next(game, s, (SELECT m FROM gametree.legal(game, s) m ORDER BY random() LIMIT 1));
  END LOOP;
  IF gametree.terminal(game, s) THEN
    RETURN gametree.initial(game);
  END IF;
  RETURN s;
END $$;
-- Milliseconds beyond the limit of calls at limit_ms, from positions 0..plies-1 random plies in.
CREATE FUNCTION overrun(game text, method text, calls int DEFAULT 100, limit_ms int DEFAULT 50, plies int DEFAULT 20)
RETURNS TABLE (median float8, maximum float8) LANGUAGE plpgsql AS $$
DECLARE
  over float8[] := '{}';
  s jsonb;
  t timestamptz;
BEGIN
  FOR i IN 0..calls - 1 LOOP
    s := random_position(game, i % plies, i / 100.0);
    t := clock_timestamp();
    PERFORM gametree.bestmove(game, s, make_interval(secs => limit_ms / 1000.0), NULL, method);
    over := over || (extract(epoch FROM clock_timestamp() - t) * 1000 - limit_ms);
  END LOOP;
  RETURN QUERY SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY o), max(o) FROM unnest(over) o;
END $$;
SQL

printf '| game | perft leaves/s | alpha-beta nodes/s | perft/alpha-beta | MCTS iterations/s | overrun at 50 ms, alpha-beta: median / max | MCTS: median / max |\n'
printf '|---|---|---|---|---|---|---|\n'
for game in ${GAMES-tictactoe connect4 checkers chess}; do
	case $game in
		tictactoe) depth=9 ;;
		connect4) depth=8 ;;
		checkers) depth=9 ;;
		chess) depth=5 ;;
	esac
	nodes=$(gt_psql -d gametree_bench -qAt -c "SELECT gametree.perft('$game', gametree.initial('$game'), $depth)")
	secs=$(bench_median gametree_bench "SELECT gametree.perft('$game', gametree.initial('$game'), $depth)")
	ab=$(search_rate "$game" alphabeta)
	mc=$(search_rate "$game" mcts)
	ab_over=$(gt_psql -d gametree_bench -qAt -F ' / ' -c "SELECT round(median::numeric, 2), round(maximum::numeric, 2) FROM overrun('$game', 'alphabeta')")
	mc_over=$(gt_psql -d gametree_bench -qAt -F ' / ' -c "SELECT round(median::numeric, 2), round(maximum::numeric, 2) FROM overrun('$game', 'mcts')")
	awk -v g="$game" -v n="$nodes" -v s="$secs" -v ab="$ab" -v mc="$mc" -v abo="$ab_over" -v mco="$mc_over" \
		'BEGIN { p = n / s; printf "| %s | %.1f M | %.2f M | %.0f | %.0f k | %s ms | %s ms |\n", g, p / 1e6, ab / 1e6, p / ab, mc / 1e3, abo, mco }'
done
echo "(median of $BENCH_RUNS runs for the rates; tic-tac-toe's alpha-beta solves the game in a few ms, so its rate is of that search)"

# chess.kif, evaluated by the prover (loaded at gametree.gdl_memory 512MB:
# at the 1GB default it runs on its network).  Compiled in each session
# before the calls are timed (the first use of a game in a connection
# compiles it).
gt_psql -q -d gametree_bench -v kif="$(cat "$GT_ROOT/test/data/gdl/chess.kif")" \
	<<<"SET gametree.gdl_memory = '512MB'; SELECT engine FROM gametree.load_game('chess_kif', :'kif')" >/dev/null
gt_psql -q -d gametree_bench <<'SQL'
-- Milliseconds beyond 1 s of CALL grow on fresh trees.
CREATE FUNCTION grow_overrun(game text, calls int) RETURNS TABLE (median float8, maximum float8) LANGUAGE plpgsql AS $$
DECLARE
  over float8[] := '{}';
  t timestamptz;
BEGIN
  FOR i IN 1..calls LOOP
    PERFORM gametree.create_tree('overrun_tree', game);
    t := clock_timestamp();
    CALL gametree.grow('overrun_tree', time_limit => '1 s');
    over := over || (extract(epoch FROM clock_timestamp() - t) * 1000 - 1000);
    PERFORM gametree.drop_tree('overrun_tree');
  END LOOP;
  RETURN QUERY SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY o), max(o) FROM unnest(over) o;
END $$;
SQL
echo
printf '| chess.kif (prover) | overrun: median / max |\n'
printf '|---|---|\n'
for method in alphabeta mcts maxn; do
	over=$(gt_psql -d gametree_bench -qAt -F ' / ' -c "SELECT 1 FROM gametree.initial('chess_kif')" \
		-c "SELECT round(median::numeric, 2), round(maximum::numeric, 2) FROM overrun('chess_kif', '$method', 20, 200, 10)" | tail -1)
	printf '| bestmove, %s, 200 ms | %s ms |\n' "$method" "$over"
done
over=$(gt_psql -d gametree_bench -qAt -F ' / ' -c "SET client_min_messages = warning" -c "SELECT 1 FROM gametree.initial('chess_kif')" \
	-c "SELECT round(median::numeric, 2), round(maximum::numeric, 2) FROM grow_overrun('chess_kif', 5)" | tail -1)
printf '| grow, 1 s | %s ms |\n' "$over"
