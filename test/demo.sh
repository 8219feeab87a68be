#!/usr/bin/env bash
# test/demo.sh — the README's first command (`make demo`): a throwaway
# Postgres cluster, small sbtest tables, a few microbenchmarks run in-server,
# and their results printed from microbench.runs.  Stops the cluster it
# started.  DEMO_SECONDS and DEMO_ROWS shorten or lengthen it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
seconds=${DEMO_SECONDS:-5}
rows=${DEMO_ROWS:-200000}
dir=$(mktemp -d /tmp/microbench-demo.XXXXXX)
trap '"$here/pg_cluster.sh" stop "$dir"' EXIT

echo "== starting a throwaway Postgres cluster in $dir"
eval "$("$here/pg_cluster.sh" start "$dir" "${DEMO_PORT:-5497}")"
export PGDATABASE=microbench_demo
createdb "$PGDATABASE"

psql -X -q -v ON_ERROR_STOP=1 -v rows="$rows" -v secs="$seconds" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION microbench;
\echo == loading sbtest1 with :rows rows (bench_prepare)
SELECT table_name, rows_loaded, round(load_seconds::numeric, 2) AS load_s,
       round(index_seconds::numeric, 2) AS index_s
FROM bench_prepare(1, :rows);
SET client_min_messages = notice;
\echo == running microbenchmarks, :secs s each, 1 client (progress every second for the first)
SELECT workload, round(qps) AS qps FROM bench_run('point-query', seconds => :secs, warmup => 1, label => 'demo', report_interval => 1);
SELECT workload, round(qps) AS qps FROM bench_run('random-points_range=100', seconds => :secs, warmup => 1, label => 'demo');
SELECT workload, round(qps) AS qps FROM bench_run('range-covered-pk', seconds => :secs, warmup => 1, label => 'demo');
SELECT workload, round(qps) AS qps FROM bench_run('read-only_range=100', seconds => :secs, warmup => 1, label => 'demo');
SELECT workload, round(qps) AS qps FROM bench_run('update-index', seconds => :secs, warmup => 1, label => 'demo');
SELECT workload, round(qps) AS qps FROM bench_run('write-only', seconds => :secs, warmup => 1, label => 'demo');
\echo == results in microbench.runs
SELECT workload, events, queries, round(qps) AS qps, round(tps) AS tps,
       round(lat_avg_ms::numeric, 3) AS avg_ms, round(lat_p95_ms::numeric, 3) AS p95_ms,
       round(lat_max_ms::numeric, 3) AS max_ms
FROM microbench.runs WHERE label = 'demo' ORDER BY run_id;
SQL
echo "== done; the cluster is stopped and removed"
