#!/usr/bin/env bash
# test/run_pg_tests.sh — run the pgTAP tests against a real throwaway cluster.
#
# Starts a private cluster (test/pg_cluster.sh), creates a test database with
# pgtap, pg_stat_statements and microbench installed and small sbtest tables
# loaded, runs every test/sql/*.sql with pg_prove, and stops the cluster
# whatever happens.  Expects the extension to be installed (make install).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/microbench-test.XXXXXX)
port=${MB_TEST_PORT:-5498}
trap '"$here/pg_cluster.sh" stop "$dir"' EXIT

eval "$("$here/pg_cluster.sh" start "$dir" "$port")"
export PGDATABASE=microbench_test
createdb "$PGDATABASE"
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CREATE EXTENSION pgtap;
CREATE EXTENSION pg_stat_statements;
CREATE EXTENSION microbench;
SET client_min_messages = warning;
SELECT count(*) FROM bench_prepare(2, 10000, seed => 42);
CREATE SCHEMA dist;
SET search_path = dist;
SELECT count(*) FROM public.bench_prepare(1, 10000, seed => 43);
ALTER SYSTEM SET autovacuum = off;
SELECT pg_reload_conf();
SQL

tests=("$here"/sql/*.sql)
if [ $# -gt 0 ]; then tests=("$@"); fi
pg_prove --ext .sql --failures "${tests[@]}"
