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
cat <<MSG

Done.  Open psql on this database with:  bash tools/psql.sh
(the cluster keeps running; stop it with: bash tools/psql.sh --stop)
MSG
