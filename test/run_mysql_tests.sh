#!/usr/bin/env bash
# test/run_mysql_tests.sh — run the client's tests against a real throwaway
# MariaDB (test/mariadb_server.sh) and a real throwaway Postgres holding the
# results schema, loaded as plain SQL from results_schema/ (no extension), as
# a central results database would be.  Stops both servers whatever happens.
# Expects client/microbench to be built.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
mydir=$(mktemp -d /tmp/microbench-mysql-test.XXXXXX)
pgdir=$(mktemp -d /tmp/microbench-results-test.XXXXXX)
trap '"$here/mariadb_server.sh" stop "$mydir"; "$here/pg_cluster.sh" stop "$pgdir"' EXIT

export MB_MYSQL_ROOT_PASSWORD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
export MB_MYSQL_PASSWORD=$MB_MYSQL_ROOT_PASSWORD
eval "$("$here/mariadb_server.sh" start "$mydir" "${MB_TEST_MYSQL_PORT:-3398}")"
eval "$("$here/pg_cluster.sh" start "$pgdir" "${MB_TEST_RESULTS_PORT:-5496}")"
unset MYSQL_HOST   # the client's own options choose socket or TCP
createdb microbench_results
export MB_RESULTS_DB="host=$PGHOST port=$PGPORT user=$PGUSER dbname=microbench_results"
cat "$root"/results_schema/*.sql | psql -X -q -v ON_ERROR_STOP=1 -d "$MB_RESULTS_DB" >/dev/null
export MBM="$root/client/microbench"

MYSQL_PWD="$MB_MYSQL_PASSWORD" "$MBM" --mysql-socket="$MYSQL_SOCKET" --mysql-user=bench \
    --table-size=5000 prepare >/dev/null

tests=("$here"/mysql/*.t)
if [ $# -gt 0 ]; then tests=("$@"); fi
prove --failures --timer "${tests[@]}"
