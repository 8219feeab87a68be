#!/usr/bin/env bash
# test/run_pgsql_tests.sh — the client's pgsql driver against a real
# throwaway Postgres (test/pg_cluster.sh, pg_stat_statements preloaded) with
# the extension installed, so that the same database holds in-server runs
# and wire runs of the same tables and bench_report can set them side by
# side.  A role that must give a password (scram) is there for the
# wrong-password test.  Stops the cluster whatever happens.  Expects the
# client to be built and the extension installed (make install).
#
#   test/run_pgsql_tests.sh [test/pgsql/NN_name.t ...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
dir=$(mktemp -d /tmp/microbench-pgsql-test.XXXXXX)
port=${MB_TEST_PGSQL_PORT:-5495}
trap '"$here/pg_cluster.sh" stop "$dir"' EXIT

eval "$("$here/pg_cluster.sh" start "$dir" "$port")"
# autovacuum's commits would blur the commit counts the tests take
psql -X -q -d postgres -v ON_ERROR_STOP=1 \
    -c "ALTER SYSTEM SET autovacuum = off" \
    -c "CREATE ROLE mb_password_user LOGIN PASSWORD 'the-right-one'" >/dev/null
hba=$(psql -X -A -t -d postgres -c "SHOW hba_file")
if [ "$(id -u)" = 0 ]; then as_owner() { runuser -u postgres -- "$@"; }; else as_owner() { "$@"; }; fi
as_owner sh -c "{ echo 'local all mb_password_user scram-sha-256'; cat '$hba'; } > '$hba.new' && mv '$hba.new' '$hba'"
psql -X -q -d postgres -c "SELECT pg_reload_conf()" >/dev/null
createdb sbtest
psql -X -q -d sbtest -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pg_stat_statements" \
    -c "CREATE EXTENSION microbench" >/dev/null

export MB="$root/client/microbench"
export MB_PG_DB=sbtest
export MB_RESULTS_DB="host=$PGHOST port=$PGPORT user=$PGUSER dbname=sbtest"
"$MB" --db-driver=pgsql --pgsql-db=sbtest --table-size=5000 prepare >/dev/null

tests=("$here"/pgsql/*.t)
if [ $# -gt 0 ]; then tests=("$@"); fi
prove ${PROVE_FLAGS:---failures --timer} "${tests[@]}"
