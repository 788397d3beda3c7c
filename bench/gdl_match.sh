#!/usr/bin/env bash
# Alpha-beta against Monte Carlo search on two-player games loaded from GDL,
# which have no heuristic: what 'auto' should pick for them (README,
# Search).  Each game of test/data/gdl named (default: breakthrough and
# connect4) is played from OPENINGS openings (two seeded random plies from
# the start), each twice with the colours swapped, MOVETIME a move for
# both methods; a game still going after MAX_PLIES plies counts as a draw.
# Score: a win 1, a draw 1/2.  Both methods play in one backend, one after
# the other: alpha-beta's table is the search's own, so nothing is shared.
#
#   bash bench/gdl_match.sh [kif-name ...]
#   MOVETIME='200 ms' OPENINGS=4 MAX_PLIES=200
# About 5 minutes with the defaults.
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench

MOVETIME=${MOVETIME:-200 ms}
OPENINGS=${OPENINGS:-4}
MAX_PLIES=${MAX_PLIES:-200}
[ $# -gt 0 ] || set -- breakthrough connect4

gt_psql -q -d gametree_bench <<'SQL'
-- One game: alpha-beta plays the first role when ab_first; the method that
-- won ('alphabeta', 'mcts' or 'draw') and the plies played.
CREATE FUNCTION match(game text, opening int, ab_first boolean, movetime interval, max_plies int,
                      OUT winner text, OUT plies int) LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := gametree.initial(game);
  roles text[] := (SELECT g.roles FROM gametree.gdl_games g WHERE g.name = game);
  goals jsonb;
  ab_role text;
BEGIN
  ab_role := CASE WHEN ab_first THEN roles[1] ELSE roles[2] END;
  PERFORM setseed(opening / 100.0);
  FOR i IN 1..2 LOOP
    s := gametree.next(game, s, (SELECT l FROM gametree.legal(game, s) l ORDER BY random() LIMIT 1));
  END LOOP;
  plies := 0;
  WHILE NOT gametree.terminal(game, s) AND plies < max_plies LOOP
    s := gametree.next(game, s, gametree.bestmove(game, s, movetime, NULL,
           CASE WHEN gametree.control(game, s) = ab_role THEN 'alphabeta' ELSE 'mcts' END));
    plies := plies + 1;
  END LOOP;
  IF NOT gametree.terminal(game, s) THEN
    winner := 'draw';
    RETURN;
  END IF;
  goals := gametree.goal(game, s);
  winner := CASE WHEN (goals->>roles[1])::int = (goals->>roles[2])::int THEN 'draw'
                 WHEN ((goals->>roles[1])::int > (goals->>roles[2])::int) = ab_first THEN 'alphabeta'
                 ELSE 'mcts' END;
END $$;
SQL

printf '| game | engine | games | alpha-beta wins | Monte Carlo wins | draws | alpha-beta score | mean plies |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for kif in "$@"; do
	# Loaded as NAME_kif: connect4 and chess name built-in games.
	file="$GT_ROOT/test/data/gdl/$kif.kif" name=${kif}_kif
	engine=$(gt_psql -d gametree_bench -qAt -v kif="$(cat "$file")" -v name="$name" \
		<<<"SELECT engine FROM gametree.load_game(:'name', :'kif')")
	gt_psql -d gametree_bench -qAt -F ' | ' -v name="$name" -v file="$kif.kif" -v engine="$engine" -v movetime="$MOVETIME" \
		-v openings="$OPENINGS" -v max_plies="$MAX_PLIES" <<-'SQL'
		SELECT '| ' || :'file', :'engine', count(*),
		       count(*) FILTER (WHERE winner = 'alphabeta'), count(*) FILTER (WHERE winner = 'mcts'),
		       count(*) FILTER (WHERE winner = 'draw'),
		       round(100.0 * (count(*) FILTER (WHERE winner = 'alphabeta') +
		                      count(*) FILTER (WHERE winner = 'draw') / 2.0) / count(*)) || ' %',
		       round(avg(plies)) || ' |'
		FROM generate_series(1, :openings) o, (VALUES (true), (false)) c(ab_first),
		     LATERAL match(:'name', o, c.ab_first, :'movetime'::interval, :max_plies) m;
	SQL
done
echo "($OPENINGS openings, each with both colours; $MOVETIME a move for both; a draw after $MAX_PLIES plies)"
