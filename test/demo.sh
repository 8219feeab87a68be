#!/usr/bin/env bash
# test/demo.sh — the README's first command (`make demo`).
#
# Starts a throwaway Postgres (with the extension) and a throwaway MariaDB,
# loads small sbtest tables in both, and runs the standard suite twice on
# each under two labels that differ in one setting a user understands:
#   durable  synchronous_commit = on,  innodb_flush_log_at_trx_commit = 1
#   relaxed  synchronous_commit = off, innodb_flush_log_at_trx_commit = 2
# Each suite runs DEMO_REPEATS times, so the report can tell real effects
# from noise: cells are medians, and a ratio inside the runs' own spread is
# marked ~ (short runs on a shared machine are noisy; commit-bound writes
# still stand out).  Then prints bench_report('durable', 'relaxed') — the
# seed's layout, with pg and ma columns — and writes the SVG chart.  Stops
# both servers.  DEMO_SECONDS (per benchmark), DEMO_REPEATS and DEMO_ROWS
# make it shorter or longer.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
secs=${DEMO_SECONDS:-0.3}
repeats=${DEMO_REPEATS:-2}
rows=${DEMO_ROWS:-20000}
out=${DEMO_OUT:-$root/results}
pgdir=$(mktemp -d /tmp/microbench-demo-pg.XXXXXX)
mydir=$(mktemp -d /tmp/microbench-demo-my.XXXXXX)
trap '"$here/mariadb_server.sh" stop "$mydir"; "$here/pg_cluster.sh" stop "$pgdir"' EXIT
mkdir -p "$out"
started=$(date +%s)

echo "== starting a throwaway Postgres and a throwaway MariaDB"
eval "$("$here/pg_cluster.sh" start "$pgdir" "${DEMO_PG_PORT:-5497}")"
export MB_MYSQL_ROOT_PASSWORD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
eval "$("$here/mariadb_server.sh" start "$mydir" "${DEMO_MYSQL_PORT:-3397}")"
unset MYSQL_HOST
export PGDATABASE=microbench_demo
createdb "$PGDATABASE"
psql -X -q -c "CREATE EXTENSION microbench" >/dev/null
results_db="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$PGDATABASE"

mbm() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" "$root/mysql_client/microbench-mysql" \
        --mysql-socket="$MYSQL_SOCKET" --mysql-user=bench --mysql-db=sbtest "$@"
}
my_sql() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb --no-defaults -hlocalhost \
        --socket="$MYSQL_SOCKET" -ubench -e "$1"
}

# suite LABEL PG_SYNCHRONOUS_COMMIT MARIADB_FLUSH_AT_COMMIT REP: one pass
suite() {
    echo "== label $1 ($4 of $repeats): synchronous_commit = $2, innodb_flush_log_at_trx_commit = $3"
    psql -X -q -c "ALTER SYSTEM SET synchronous_commit = $2" -c "SELECT pg_reload_conf()" >/dev/null
    my_sql "SET GLOBAL innodb_flush_log_at_trx_commit = $3"

    echo "   postgres: bench_suite, $rows rows, ${secs}s per benchmark"
    psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
        -c "CALL bench_suite('$1', read_seconds => $secs, write_seconds => $secs,
                             insert_seconds => $secs, warmup => 0.1, table_size => $rows)"
    echo "   mariadb:  microbench-mysql suite, $rows rows, ${secs}s per benchmark"
    mbm --table-size="$rows" prepare >/dev/null
    mbm --table-size="$rows" --read-time="$secs" --write-time="$secs" --insert-time="$secs" \
        --warmup-time=0.1 --label="$1" --results-db="$results_db" suite >"$out/demo-mariadb-$1-$4.log"
}

# The labels take turns, so that a machine that slows down or speeds up
# during the demo shows as spread within each label (marked ~) rather than
# as a difference between them.
for rep in $(seq "$repeats"); do
    suite durable on 1 "$rep"
    suite relaxed off 2 "$rep"
done

echo
echo "== bench_report('durable', 'relaxed'): QPS(relaxed) / QPS(durable)"
echo
psql -X -A -t -c "SELECT bench_report('durable', 'relaxed')"
psql -X -A -t -c "SELECT bench_report('durable', 'relaxed', 'svg')" >"$out/demo-report.svg"
psql -X -A -t -c "SELECT bench_report('durable', 'relaxed', 'markdown')" >"$out/demo-report.md"
echo
echo "== written: $out/demo-report.svg (open it in a browser), $out/demo-report.md"
echo "== $(psql -X -A -t -c "SELECT count(*) FROM microbench.runs") runs recorded; done in $(( $(date +%s) - started ))s; servers stopped"
