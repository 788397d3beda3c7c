#!/usr/bin/env bash
# Local nodes for sharded trees: N more PostgreSQL servers run as the private
# cluster is (tools/lib.sh), node I in $(gt_cluster_dir)/node<I> on its own
# unix socket and port GAMETREE_PORT + 100 + I.
#
#   bash tools/nodes.sh start [N]     starts nodes 1 to N (default 3), each
#                                     with the database gametree and the
#                                     extension in it (kept when there)
#   bash tools/nodes.sh stop [N]      stops them
#   bash tools/nodes.sh status [N]    says which run, with socket and port
#   bash tools/nodes.sh servers [N]   prints the SQL that names them on a
#                                     coordinator database (foreign servers
#                                     node1 to nodeN and user mappings), e.g.
#     bash tools/nodes.sh servers 3 | bash tools/psql.sh
#
# It uses the installed extension: run tools/demo.sh or tools/check.sh first.
source "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: bash tools/nodes.sh start|stop|status|servers [N]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
command=$1 n=${2:-3}
case $n in '' | *[!0-9]* | 0) echo "N must be a number of nodes, 1 or more" >&2; exit 2 ;; esac

case $command in
start)
	gt_start_nodes "$n"
	for ((i = 1; i <= n; i++)); do
		if [ -z "$(gt_node_psql "$i" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'gametree'")" ]; then
			gt_node_psql "$i" -q -d postgres -c "CREATE DATABASE gametree"
		fi
		gt_node_psql "$i" -q -d gametree -c "SET client_min_messages = warning" \
			-c "CREATE EXTENSION IF NOT EXISTS gametree" -c "ALTER EXTENSION gametree UPDATE"
	done
	echo "$n nodes run; to name them on a coordinator database (with postgres_fdw):"
	echo "  bash tools/nodes.sh servers $n | bash tools/psql.sh"
	;;
stop) gt_stop_nodes "$n" ;;
status)
	for ((i = 1; i <= n; i++)); do
		state=stopped
		gt_as_cluster_user "$GT_PGBIN/pg_ctl" -D "$(gt_node_dir "$i")/data" status >/dev/null 2>&1 && state=running
		echo "node$i: $state, socket $(gt_node_socket "$i"), port $(gt_node_port "$i")"
	done
	;;
servers) gt_node_servers_sql "$n" gametree ;;
*) usage ;;
esac
