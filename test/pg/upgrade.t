#!/usr/bin/env bash
# test/pg/upgrade.t — version 0.1 updated to 0.2 is version 0.2.
#
# Creates one database with the frozen 0.1 script and one with a fresh 0.2,
# records a result under 0.1, runs ALTER EXTENSION microbench UPDATE, and
# compares every extension object of the two databases (functions with
# signatures, results, attributes, bodies and grants; tables with columns,
# constraints and indexes; views; comments: test/pg/extension_objects.sql).
# Under 0.1 the 0.2 library must refuse to run, saying how to update; after
# the update the old result must still be there and a run must work, and a
# run the MySQL/MariaDB client recorded as driver microbench-mysql is a
# mysql run.
#
# The same for the results schema loaded as plain SQL: a database holding
# 0.1's results schema (the first part of the frozen 0.1 script) gets
# results_schema/upgrade/*.sql and results_schema/*.sql loaded over it, as
# docs/client.md says to, and must then hold the objects of the schema
# loaded into an empty database, with its runs kept.
#
# Run by test/run_pg_tests.sh and make installcheck; needs PGHOST, PGPORT,
# PGUSER of a server with microbench 0.1 and 0.2 scripts installed and a
# role that may create databases.
set -u
. "$(dirname "$0")/../tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
old_db=microbench_upgrade_from_01
new_db=microbench_upgrade_fresh_02
plain_old_db=microbench_upgrade_plain_01
plain_new_db=microbench_upgrade_plain_02
cleanup() {
    for db in "$old_db" "$new_db" "$plain_old_db" "$plain_new_db"; do dropdb --if-exists "$db" 2>/dev/null; done
}
trap cleanup EXIT
cleanup
createdb "$old_db" && createdb "$new_db" || { echo "Bail out! cannot create the test databases"; exit 1; }

q() {   # q DB SQL: one value, errors to stdout so that checks can see them
    psql -X -A -t -q -d "$1" -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "$2" 2>&1
}
objects() { psql -X -A -t -q -d "$1" -v ON_ERROR_STOP=1 -f "$here/extension_objects.sql"; }

q "$old_db" "CREATE EXTENSION microbench VERSION '0.1'" >/dev/null
q "$new_db" "CREATE EXTENSION microbench" >/dev/null
is "$(q "$old_db" "SELECT extversion FROM pg_extension WHERE extname = 'microbench'")" 0.1 \
    "CREATE EXTENSION ... VERSION '0.1' installs the frozen 0.1 script"
is "$(q "$new_db" "SELECT extversion FROM pg_extension WHERE extname = 'microbench'")" 0.2 \
    "a plain CREATE EXTENSION installs 0.2"

objects "$old_db" >"${TMPDIR:-/tmp}/mb_upgrade_old.$$"
objects "$new_db" >"${TMPDIR:-/tmp}/mb_upgrade_new.$$"
old_objects="${TMPDIR:-/tmp}/mb_upgrade_old.$$"
new_objects="${TMPDIR:-/tmp}/mb_upgrade_new.$$"
trap 'cleanup; rm -f "$old_objects" "$new_objects"' EXIT
ok "$([ "$(wc -l <"$new_objects")" -gt 200 ] && echo 0 || echo 1)" \
    "the object list of 0.2 is complete ($(wc -l <"$new_objects") lines)"
ok "$(cmp -s "$old_objects" "$new_objects" && echo 1 || echo 0)" \
    "0.1 and 0.2 differ before the update (the comparison can see a difference)"

# the 0.2 library under the 0.1 definitions: refused, with the way out
for call in "SELECT count(*) FROM bench_workloads()" \
            "SELECT bench_run('point-query', seconds => 0.1)" \
            "SELECT count(*) FROM bench_suite_plan()" \
            "SELECT count(*) FROM bench_prepare(1, 10)"; do
    out=$(q "$old_db" "$call")
    ok "$(case "$out" in *"SQL definitions are version 0.1, but its library is version 0.2"*"ALTER EXTENSION microbench UPDATE"*) echo 0 ;; *) echo 1 ;; esac)" \
        "under 0.1: $call is refused with the update hint"
done
is "$(psql -X -q -d "$old_db" -v VERBOSITY=verbose -c "SELECT count(*) FROM bench_workloads()" 2>&1 \
      | sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\):.*/\1/p')" 55000 \
    "the refusal's SQLSTATE is 55000 (object not in prerequisite state)"

# a result recorded under 0.1 must survive the update
q "$old_db" "INSERT INTO microbench.runs (dbms, version, workload, phase, label, seconds, warmup,
                 clients, tables, table_size, rand_type, started_at, ended_at, elapsed_seconds,
                 events, queries, tps, qps)
             VALUES ('postgres', '15', 'point-query', 'post', 'kept', 1, 0, 1, 1, 100, 'uniform',
                     now() - interval '1 s', now(), 1, 1000, 3000, 1000, 3000)" >/dev/null
q "$old_db" "INSERT INTO microbench.runs (dbms, version, workload, phase, label, seconds, warmup,
                 clients, tables, table_size, rand_type, started_at, ended_at, elapsed_seconds,
                 events, queries, tps, qps, driver)
             VALUES ('mariadb', '10.11', 'point-query', 'post', 'kept', 1, 0, 1, 1, 100, 'uniform',
                     now() - interval '1 s', now(), 1, 500, 1500, 500, 1500, 'microbench-mysql')" >/dev/null
q "$old_db" "INSERT INTO microbench.datasets (schema_name, tables, table_size) VALUES ('kept', 1, 100)" >/dev/null

out=$(q "$old_db" "ALTER EXTENSION microbench UPDATE")
is "$out" "" "ALTER EXTENSION microbench UPDATE from 0.1 succeeds"
is "$(q "$old_db" "SELECT extversion FROM pg_extension WHERE extname = 'microbench'")" 0.2 \
    "the updated extension is 0.2"
objects "$old_db" >"$old_objects"
if cmp -s "$old_objects" "$new_objects"; then
    ok 0 "0.1 updated to 0.2 has exactly the objects of a fresh 0.2"
else
    ok 1 "0.1 updated to 0.2 has exactly the objects of a fresh 0.2"
    diff "$old_objects" "$new_objects" | sed 's/^/#   /' | cut -c1-200
fi
is "$(q "$old_db" "SELECT label || ' ' || qps || ' ' || (qps_per_second IS NULL) FROM microbench.runs WHERE dbms = 'postgres'")" \
    "kept 3000 true" "the result recorded under 0.1 is still there, with the new columns empty"
is "$(q "$old_db" "SELECT string_agg(dbms || ' ' || driver, ', ' ORDER BY dbms) FROM microbench.runs")" \
    "mariadb mysql, postgres extension" "the client's run recorded as microbench-mysql is now driver mysql"
is "$(q "$old_db" "SELECT runs || ' ' || median_qps || ' ' || driver FROM microbench.label_stats WHERE label = 'kept' AND dbms = 'postgres'")" \
    "1 3000 extension" "the reports read it"
is "$(q "$old_db" "SELECT tables || ' ' || table_size FROM microbench.datasets WHERE schema_name = 'kept'")" \
    "1 100" "the datasets recorded under 0.1 are still there"
is "$(q "$old_db" "SELECT count(*) FROM microbench.workloads")" 32 "the catalog has the 32 workloads once"

q "$old_db" "SELECT count(*) FROM bench_prepare(1, 1000, seed => 1)" >/dev/null
# bounded by events, not seconds: on a starved machine a 0.3-second window
# once ended before the first event (its plan and catalog reads) did
is "$(q "$old_db" "SELECT workload || ' ' || events FROM bench_run('point-query', seconds => 0, events => 50, warmup => 0, label => 'after-update')")" \
    "point-query 50" "after the update a run works"

# ---- the plain results schema, loaded again over 0.1's
# 0.1's results schema is its install script up to the extension's own
# functions, less the line that refuses psql
plain_objects() {   # the schema microbench's functions, relations with columns, and triggers
    psql -X -A -t -q -d "$1" -v ON_ERROR_STOP=1 -c "
        SELECT 'function ' || p.oid::regprocedure || ' returns ' || pg_get_function_result(p.oid)
               || ' body=' || md5(p.prosrc)
        FROM pg_proc p WHERE p.pronamespace = 'microbench'::regnamespace
        UNION ALL
        SELECT 'column ' || c.relkind::text || ' ' || c.oid::regclass || '.' || a.attname || ' '
               || format_type(a.atttypid, a.atttypmod)
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = 'microbench'::regnamespace AND c.relkind IN ('r', 'v', 'c')
        UNION ALL
        SELECT 'trigger ' || t.tgrelid::regclass || ' ' || t.tgname
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE c.relnamespace = 'microbench'::regnamespace AND NOT t.tgisinternal
        ORDER BY 1"
}
load_plain() {      # load_plain DB FILE...: the files as one psql script, notices left out
    local db=$1; shift
    cat "$@" | PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -d "$db" 2>&1 >/dev/null
}
script_01=$root/extension/sql/microbench--0.1.sql
functions_at=$(grep -n '^-- microbench_functions.sql ' "$script_01" | cut -d: -f1)
createdb "$plain_old_db" && createdb "$plain_new_db" || { echo "Bail out! cannot create the plain databases"; exit 1; }
out=$(sed -n "2,$((functions_at - 1))p" "$script_01" | load_plain "$plain_old_db" -)
is "$out" "" "0.1's results schema loads as plain SQL (lines 2-$((functions_at - 1)) of its script)"
q "$plain_old_db" "INSERT INTO microbench.runs (dbms, version, workload, phase, label, seconds, warmup,
                       clients, tables, table_size, rand_type, started_at, ended_at, elapsed_seconds,
                       events, queries, tps, qps)
                   VALUES ('postgres', '15', 'point-query', 'post', 'kept', 1, 0, 1, 1, 100, 'uniform',
                           now() - interval '1 s', now(), 1, 1000, 3000, 1000, 3000)" >/dev/null
out=$(load_plain "$plain_new_db" "$root"/results_schema/*.sql)
is "$out" "" "the results schema loads into an empty database"
plain_old=$(plain_objects "$plain_old_db")
plain_new=$(plain_objects "$plain_new_db")
ok "$([ "$plain_old" != "$plain_new" ]; echo $?)" \
    "0.1's results schema and the present one differ before the load (the comparison can see a difference)"
out=$(load_plain "$plain_old_db" "$root"/results_schema/upgrade/*.sql "$root"/results_schema/*.sql)
is "$out" "" "results_schema/upgrade/*.sql and results_schema/*.sql load over 0.1's results schema"
plain_old=$(plain_objects "$plain_old_db")
if [ "$plain_old" = "$plain_new" ]; then
    ok 0 "0.1's results schema loaded again has exactly the objects of the present one ($(wc -l <<<"$plain_new") lines)"
else
    ok 1 "0.1's results schema loaded again has exactly the objects of the present one"
    diff <(echo "$plain_old") <(echo "$plain_new") | sed 's/^/#   /' | cut -c1-200
fi
is "$(q "$plain_old_db" "SELECT label || ' ' || qps FROM microbench.runs")" "kept 3000" \
    "the run recorded under 0.1's results schema is still there"
out=$(load_plain "$plain_new_db" "$root"/results_schema/upgrade/*.sql "$root"/results_schema/*.sql)
is "$out" "" "the present schema loads again over itself, upgrade steps first"
is "$(plain_objects "$plain_new_db")" "$plain_new" "... and is the same schema after it"

done_testing
