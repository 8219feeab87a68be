#!/usr/bin/env bash
# test/run_pg_tests.sh — the Postgres tests on a real throwaway cluster.
#
# Starts a private cluster (test/pg_cluster.sh) on MB_TEST_PORT (default
# 5498), turns autovacuum off (its commits would blur the commit counts the
# tests take), runs test/pg_suite.sh against it and stops the cluster
# whatever happens.  Expects the extension to be installed (make install).
#
#   test/run_pg_tests.sh [test/sql/NN_name.sql ...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/microbench-test.XXXXXX)
port=${MB_TEST_PORT:-5498}
trap '"$here/pg_cluster.sh" stop "$dir"' EXIT

eval "$("$here/pg_cluster.sh" start "$dir" "$port")"
psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "ALTER SYSTEM SET autovacuum = off" \
    -c "SELECT pg_reload_conf()" >/dev/null
MB_TEST_EXISTING_SERVER=0 "$here/pg_suite.sh" "$@"
