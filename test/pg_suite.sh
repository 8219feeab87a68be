#!/usr/bin/env bash
# test/pg_suite.sh — the Postgres test suite against the server that PGHOST,
# PGPORT and PGUSER name: a test database with pgTAP, pg_stat_statements
# and microbench and its small sbtest tables, then every test/sql/*.sql
# with pg_prove and the shell tests (SVG render, verdicts, upgrade, load
# recovery, stopping).
#
#   test/run_pg_tests.sh       on a throwaway cluster it starts (make test)
#   make installcheck          on an existing server (PGXS convention)
#
# On an existing server (MB_TEST_EXISTING_SERVER=1) it changes nothing
# outside its own database MB_TEST_DB (default microbench_installcheck) and
# roles mb_plain and mb_granted, drops them at the end, and skips the one
# test that would crash the server.  It needs a superuser, pg_stat_statements
# in shared_preload_libraries, max_worker_processes >= 16, and the
# microbench and pgtap extensions installed (make install).
#
#   test/pg_suite.sh [test/sql/NN_name.sql ...]   only those pgTAP files
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
existing=${MB_TEST_EXISTING_SERVER:-0}
export PGDATABASE=${MB_TEST_DB:-$([ "$existing" = 1 ] && echo microbench_installcheck || echo microbench_test)}

fail() { echo "pg_suite: $*" >&2; exit 1; }
sql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
value() { psql -X -A -t -q -d postgres -v ON_ERROR_STOP=1 -c "$1"; }

value "SELECT 1" >/dev/null || fail "cannot connect to the server (set PGHOST, PGPORT, PGUSER)"
[ "$(value "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")" = t ] \
    || fail "the tests need a superuser (they create roles and read server files)"
[ "$(value "SELECT count(*) FROM pg_available_extensions WHERE name IN ('microbench', 'pgtap', 'pg_stat_statements')")" = 3 ] \
    || fail "microbench, pgtap and pg_stat_statements must be installed (make install; apt-get install postgresql-NN-pgtap)"
case ",$(value "SHOW shared_preload_libraries" | tr -d ' ')," in
*,pg_stat_statements,*) ;;
*) fail "pg_stat_statements must be in shared_preload_libraries (the statement tests read it)" ;;
esac
[ "$(value "SHOW max_worker_processes")" -ge 16 ] \
    || fail "max_worker_processes must be at least 16 (benchmark clients are background workers)"
# On a cluster of its own (make test, CI's matrix) the suite proves the
# direct load's pages identical to Postgres's own: the extensions that
# check them must be there, or those checks would only be skipped.
if [ "$existing" = 0 ]; then
    [ "$(value "SELECT count(*) FROM pg_available_extensions WHERE name IN ('pageinspect', 'amcheck', 'pg_visibility')")" = 3 ] \
        || fail "pageinspect, amcheck and pg_visibility must be installed (contrib): they prove the loaded pages"
fi

# which load path this build has (microbench.direct_pages), and whether
# that is the one expected of it (check_pg_version.sh says)
direct_pages=$(value "LOAD 'microbench'; SHOW microbench.direct_pages")
echo "pg_suite: $(value "SELECT version()" | cut -d, -f1), direct pages: $direct_pages" >&2
if [ -n "${MB_EXPECT_DIRECT_PAGES:-}" ] && [ "$direct_pages" != "$MB_EXPECT_DIRECT_PAGES" ]; then
    fail "this build's direct pages are $direct_pages, expected $MB_EXPECT_DIRECT_PAGES"
fi

cleanup() {
    if [ "$existing" = 1 ]; then
        dropdb --if-exists "$PGDATABASE" 2>/dev/null || true
        value "DROP ROLE IF EXISTS mb_plain" >/dev/null 2>&1 || true
        value "DROP ROLE IF EXISTS mb_granted" >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT
cleanup
createdb "$PGDATABASE"

sql >/dev/null <<SQL
ALTER DATABASE "$PGDATABASE" SET pg_stat_statements.track = 'all';
ALTER DATABASE "$PGDATABASE" SET pg_stat_statements.track_planning = on;
SQL
sql >/dev/null <<'SQL'
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
RESET search_path;
-- for 12_privileges.sql: a role with no grants, and a member of
-- microbench_user with its own schema and tables
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mb_plain') THEN CREATE ROLE mb_plain LOGIN; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mb_granted') THEN CREATE ROLE mb_granted LOGIN; END IF;
END $$;
GRANT microbench_user TO mb_granted;
CREATE SCHEMA plain AUTHORIZATION mb_plain;
CREATE SCHEMA granted AUTHORIZATION mb_granted;
CREATE SCHEMA granted_scratch AUTHORIZATION mb_granted;
SET ROLE mb_granted;
SET search_path = granted;
SELECT count(*) FROM public.bench_prepare(1, 2000, seed => 44);
RESET ROLE;
RESET search_path;
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
-- Autovacuum's own commits would show in the commit counts the tests take
-- (04_transactions.sql) and its work in the dead-row fingerprints: keep it
-- off these tables (the throwaway cluster also turns it off altogether).
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE c.relname ~ '^sbtest[0-9]+$' AND c.relkind = 'r' LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = off)', t);
    END LOOP;
END $$;
SQL

# The suite commits after every run, which a pgTAP file (one transaction)
# cannot do: run it here, in its own schema, and let 11_suite.sql check the
# rows.  The second suite fails on purpose at its 12th run (a trigger
# refuses range-covered-pk's row) to show that earlier runs survive.
sql >/dev/null <<'SQL'
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
    fail "the failing suite did not fail"
fi
psql -X -q -c "DROP TRIGGER refuse ON microbench.runs" >/dev/null

tests=("$here"/sql/*.sql)
if [ $# -gt 0 ]; then tests=("$@"); fi
status=0
pg_prove --ext .sql --failures --timer "${tests[@]}" || status=1

# the SVG report, rendered in headless Chromium and checked pixel by pixel;
# verdicts on real interleaved runs; their error rates by simulation; the update from 0.1; directly loaded
# tables through crashes (on a cluster of its own); then every way to
# stop a run, ending (on a throwaway cluster) with a crash that restarts it;
# last, bench/'s summary judged by compare() (its own throwaway cluster)
if [ $# -eq 0 ]; then
    shell_tests=("$here/pg/verdicts.t" "$here/pg/calibration.t" "$here/pg/upgrade.t" "$here/pg/load_recovery.t"
                 "$here/pg/stopping.t" "$here/pg/bench_judge.t")
    if command -v chromium >/dev/null; then
        shell_tests=("$here/report/svg_test.sh" "${shell_tests[@]}")
    else
        echo "pg_suite: chromium is not installed: the SVG render test is skipped" >&2
    fi
    MB_TEST_EXISTING_SERVER=$existing prove --failures --timer "${shell_tests[@]}" || status=1
fi
exit $status
