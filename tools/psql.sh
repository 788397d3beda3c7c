#!/usr/bin/env bash
# psql on the private cluster's "gametree" database (started when needed).
# --stop stops the cluster instead.
source "$(dirname "$0")/lib.sh"
if [ "${1:-}" = "--stop" ]; then gt_stop_cluster; exit; fi
gt_start_cluster
exec "$GT_PGBIN/psql" -d gametree "$@"
