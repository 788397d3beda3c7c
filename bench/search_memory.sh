#!/usr/bin/env bash
# Memory of search (issue 20): what a bestmove at a large
# gametree.search_memory costs when it does little, and what the backend
# keeps after it; and the peak of Monte Carlo search over 4,096 joint moves.
#  - alpha-beta, chess, search_memory = SEARCH_MEMORY (default 2GB,
#    gametree.max_memory raised to match): the time of a depth-1 search, then
#    of a 10-second one, and the backend's VmRSS and memory contexts before
#    and after (the table used to be zero-filled at the full setting and kept);
#  - MCTS for 2 s on a game of two roles that pick one of 64 numbers at once
#    (4,096 joint moves), search_memory = MCTS_MEMORY (default 16MB), in a
#    fresh backend: its VmHWM (peak) over its VmRSS before the search.
source "$(dirname "$0")/bench.sh"
SEARCH_MEMORY=${SEARCH_MEMORY:-2GB}
MCTS_MEMORY=${MCTS_MEMORY:-16MB}
gt_setup
gt_fresh_database gametree_bench

gt_psql -d gametree_bench -qAt -F ' ' -v mem="$SEARCH_MEMORY" <<'SQL'
CREATE FUNCTION pg_temp.mb(field text) RETURNS numeric LANGUAGE sql AS $$
  SELECT round((regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), field || ':\s+(\d+) kB'))[1]::numeric / 1024, 1) $$;
CREATE FUNCTION pg_temp.contexts_mb() RETURNS numeric LANGUAGE sql AS $$
  SELECT round(sum(total_bytes) / 1048576.0, 1) FROM pg_backend_memory_contexts $$;
SELECT gametree.legal('chess', gametree.initial('chess')) IS NULL \g /dev/null
SET gametree.max_memory = '64GB';
SET gametree.search_memory = :'mem';
SELECT 'before:', pg_temp.mb('VmRSS') || ' MB resident,', pg_temp.contexts_mb() || ' MB in memory contexts';
SELECT clock_timestamp() AS t0 \gset
SELECT gametree.bestmove('chess', gametree.initial('chess'), NULL, 1) \g /dev/null
SELECT 'depth-1 search at search_memory ' || :'mem' || ':', round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, 1) || ' ms';
SELECT gametree.bestmove('chess', gametree.initial('chess'), '10 s') \g /dev/null
SELECT 'after it and a 10 s search:', pg_temp.mb('VmRSS') || ' MB resident,', pg_temp.contexts_mb() || ' MB in memory contexts';
SQL

# The game, and a fresh backend that compiles it before the search.
kif=$(cat "$GT_ROOT/test/data/games/pick64.kif")

gt_psql -d gametree_bench -qAt -v kif="$kif" <<<"SELECT 1 FROM gametree.load_game('bench_pick64', :'kif')" >/dev/null
gt_psql -d gametree_bench -qAt -F ' ' -v mem="$MCTS_MEMORY" <<'SQL'
CREATE FUNCTION pg_temp.mb(field text) RETURNS numeric LANGUAGE sql AS $$
  SELECT round((regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), field || ':\s+(\d+) kB'))[1]::numeric / 1024, 1) $$;
SELECT count(*) FROM gametree.legal('bench_pick64', gametree.initial('bench_pick64')) \g /dev/null
SET gametree.search_memory = :'mem';
SELECT pg_temp.mb('VmRSS') AS rss \gset
SELECT gametree.bestmove('bench_pick64', gametree.initial('bench_pick64'), '2 s', NULL, 'mcts') \g /dev/null
SELECT 'MCTS, 4,096 joint moves, search_memory ' || :'mem' || ': peak', pg_temp.mb('VmHWM') - :rss || ' MB over the',
       :rss || ' MB resident before';
SQL
gt_psql -d gametree_bench -qAt -c "SELECT gametree.unload_game('bench_pick64')" >/dev/null
