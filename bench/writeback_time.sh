#!/usr/bin/env bash
# A Monte Carlo bestmove with a tree (tree =>) on connect four keeps to its
# time_limit, write-back included, whatever gametree.search_store_states
# allows it to write: for each time limit and setting, a fresh tree, one
# call, its time (clock_timestamp() in the server), the states the tree
# holds afterwards and what is left pending.
source "$(dirname "$0")/bench.sh"
gt_setup
gt_fresh_database gametree_bench
db=gametree_bench

printf '%-10s %12s %8s %8s %8s\n' time_limit store_states seconds states pending
for limit in '1 s' '3 s'; do
	for store in 100 10000 100000; do
		gt_psql -d $db -qAt <<-SQL | tail -1
			SET client_min_messages = warning;
			SELECT gametree.drop_tree(name) FROM gametree.trees WHERE name = 'wb';
			SELECT gametree.create_tree('wb', 'connect4');
			SET gametree.search_store_states = $store;
			SELECT clock_timestamp() AS began \gset
			SELECT gametree.bestmove('connect4', gametree.initial('connect4'), '$limit', NULL, 'mcts', 'wb');
			SELECT format('%-10s %12s %8s %8s %8s', '$limit', $store,
			              round(extract(epoch FROM clock_timestamp() - :'began')::numeric, 2), states, pending)
			FROM gametree.trees WHERE name = 'wb';
		SQL
	done
done
