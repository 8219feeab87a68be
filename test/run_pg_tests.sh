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
CREATE SCHEMA tiny;
CREATE SCHEMA trap;
SET search_path = dist;
SELECT count(*) FROM public.bench_prepare(1, 10000, seed => 43);
ALTER SYSTEM SET autovacuum = off;
SELECT pg_reload_conf();
-- for 12_privileges.sql: a role with no grants, and a member of
-- microbench_user with its own schema and tables
RESET search_path;
CREATE ROLE mb_plain LOGIN;
CREATE ROLE mb_granted LOGIN IN ROLE microbench_user;
CREATE SCHEMA plain AUTHORIZATION mb_plain;
CREATE SCHEMA granted AUTHORIZATION mb_granted;
CREATE SCHEMA granted_scratch AUTHORIZATION mb_granted;
SET ROLE mb_granted;
SET search_path = granted;
SELECT count(*) FROM public.bench_prepare(1, 2000, seed => 44);
RESET ROLE;
-- for 15_run_options.sql: a 100-row table on which concurrent writers
-- collide, and one whose every UPDATE fails (SQLSTATE 22012)
SELECT count(*) FROM public.bench_prepare(1, 100, target_schema => 'tiny');
SELECT count(*) FROM public.bench_prepare(1, 100, target_schema => 'trap');
CREATE FUNCTION trap.refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'this table refuses updates' USING ERRCODE = 'division_by_zero';
END $$;
CREATE TRIGGER refuse_update BEFORE UPDATE ON trap.sbtest1
    FOR EACH ROW EXECUTE FUNCTION trap.refuse_update();
ALTER SYSTEM SET pg_stat_statements.track_planning = on;
SELECT pg_reload_conf();
SQL

# The suite commits after every run, which a pgTAP file (one transaction)
# cannot do: run it here, in its own schema, and let 11_suite.sql check the
# rows.  The second suite fails on purpose at its 12th run (a trigger
# refuses range-covered-pk's row) to show that earlier runs survive.
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE SCHEMA suite;
SET search_path = suite, public;
CALL bench_suite('suite-ok', read_seconds => 0.2, write_seconds => 0.2, insert_seconds => 0.2,
                 warmup => 0, table_size => 2000);
CALL bench_suite('suite-options', read_seconds => 0.2, write_seconds => 0.2, warmup => 0,
                 workloads => ARRAY['point-query', 'update-index'], ps_mode => 'disable',
                 ignore_errors => ARRAY['40P01'], rate => 500, reconnect => 20);
CREATE FUNCTION suite.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.label = 'suite-fail' AND NEW.workload = 'range-covered-pk' THEN
        RAISE EXCEPTION 'refused on purpose';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER refuse BEFORE INSERT ON microbench.runs FOR EACH ROW EXECUTE FUNCTION suite.refuse();
SQL
if psql -X -q -c "SET client_min_messages = warning" -c "SET search_path = suite, public" \
        -c "CALL bench_suite('suite-fail', read_seconds => 0.2, write_seconds => 0.2, insert_seconds => 0.2,
                         warmup => 0, workloads => ARRAY['point-query', 'range-covered-pk', 'scan'])" \
        >/dev/null 2>&1; then
    echo "the failing suite did not fail" >&2
    exit 1
fi
psql -X -q -c "DROP TRIGGER refuse ON microbench.runs" >/dev/null

tests=("$here"/sql/*.sql)
if [ $# -gt 0 ]; then tests=("$@"); fi
pg_prove --ext .sql --failures "${tests[@]}"

# the SVG report, rendered in headless Chromium and checked pixel by pixel;
# then every way to stop a run, ending with a crash that restarts the cluster
if [ $# -eq 0 ]; then
    prove --failures "$here/report/svg_test.sh" "$here/pg/verdicts.t" "$here/pg/stopping.t"
fi
