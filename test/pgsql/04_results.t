#!/usr/bin/env bash
# 04_results.t — a wire run's row, and the report that sets it against the
# in-server runs of the same label: the row says driver pgsql and names the
# server exactly as the extension's rows do (dbms, version, version text,
# compiler), carries the server's counters over the window, the per-second
# QPS and the data fingerprint; bench_protocol(label) compares the two
# drivers workload by workload; with no driver chosen, a report gives each
# path a column of its own (pg, pg-wire), and one that would pool two
# drivers in one side refuses with a hint instead.
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT

pg_value "DELETE FROM microbench.runs WHERE label = 'proto'" >/dev/null
# three runs a side, taking turns
for round in 1 2 3; do
    mbp --label=proto --time=1 --warmup-time=0.5 --results-db="$MB_RESULTS_DB" run point-query >"$out" 2>&1
    is "$?" 0 "round $round: the wire run is recorded"
    pg_value "SELECT count(*) FROM bench_run('point-query', seconds => 1, warmup => 0.5, label => 'proto')" >/dev/null
done

row=$(pg_value "SELECT dbms = 'postgres', version = current_setting('server_version'),
                       version_string = version(),
                       compiler IS NOT DISTINCT FROM substring(version(), 'compiled by ([^,]+)'),
                       ps_mode, events > 0 AND qps > 0
                FROM microbench.runs WHERE label = 'proto' AND driver = 'pgsql' ORDER BY run_id LIMIT 1")
is "$row" "t|t|t|t|auto|t" "the wire row: postgres, this server's version, version text and compiler, prepared statements"
is "$(pg_value "SELECT count(*) FROM microbench.runs WHERE label = 'proto' GROUP BY driver ORDER BY driver" | tr '\n' ' ')" \
   "3 3 " "three rows of driver extension and three of driver pgsql"
row=$(pg_value "SELECT (server_status ->> 'xact_commit')::bigint > 0,
                       (server_status ->> 'blks_hit')::bigint > 0,
                       cardinality(qps_per_second) >= 1, data_state ? 'live_rows'
                FROM microbench.runs WHERE label = 'proto' AND driver = 'pgsql' ORDER BY run_id LIMIT 1")
is "$row" "t|t|t|t" "the wire row has the server's commits and buffer hits over the window, QPS per second and the data state"
row=$(pg_value "SELECT cpu_note, cpu_user_seconds > 0 AND cpu_system_seconds >= 0 AND voluntary_cs > 0,
                       microbench.metric_value(r, 'server_user_share') BETWEEN 0.001 AND 1
                FROM microbench.runs r WHERE label = 'proto' AND driver = 'pgsql' ORDER BY run_id LIMIT 1")
is "$row" "the server's 1 backend of the clients' sessions (/proc)|t|t" \
   "the wire row has its backend's CPU and context switches over the window, and a user share between 0 and 1"
is "$(pg_value "SELECT count(*) FROM microbench.runs w JOIN microbench.runs i
                  ON (w.version, w.version_string, w.compiler)
                     IS NOT DISTINCT FROM (i.version, i.version_string, i.compiler)
                WHERE w.label = 'proto' AND i.label = 'proto' AND w.run_id = (SELECT min(run_id)
                      FROM microbench.runs WHERE label = 'proto' AND driver = 'pgsql')
                  AND i.driver = 'extension'")" 3 \
   "wire and in-server rows name the same build"

report=$(pg_value "SELECT bench_protocol('proto')")
ok "$(grep -Eq '^[0-9.]+[=?]? +point-query$' <<<"$report"; echo $?)" "bench_protocol: a point-query cell ($(grep point-query <<<"$report"))"
ok "$(grep -q 'wire QPS / in-server QPS' <<<"$report"; echo $?)" "bench_protocol: says what the ratio is"
ratio=$(pg_value "SELECT round(ratio::numeric, 6) FROM microbench.compare('proto', 'proto',
                  base_driver => 'extension', other_driver => 'pgsql') WHERE workload = 'point-query'")
# (of each run's steady rate) over the pairs it keeps: on a busy machine a pair whose two runs waited
# for a CPU unlike the others is set aside, and its runs count for nothing
want=$(pg_value "WITH kept AS (
                   SELECT unnest(base_run_ids) AS run_id FROM microbench.comparison_pairs('proto', 'proto',
                       base_driver => 'extension', other_driver => 'pgsql')
                   WHERE workload = 'point-query' AND NOT set_aside
                   UNION ALL
                   SELECT unnest(other_run_ids) FROM microbench.comparison_pairs('proto', 'proto',
                       base_driver => 'extension', other_driver => 'pgsql')
                   WHERE workload = 'point-query' AND NOT set_aside)
                 SELECT round((exp(avg(ln(v)) FILTER (WHERE driver = 'pgsql'))
                        / exp(avg(ln(v)) FILTER (WHERE driver = 'extension')))::numeric, 6)
                 FROM microbench.runs r JOIN kept USING (run_id),
                      LATERAL (SELECT microbench.metric_value(r, 'qps')) AS steady(v)")
is "$ratio" "$want" "compare(): the ratio is the wire runs' geometric mean over the in-server runs' (of the pairs kept)"

# no driver named, two drivers under one label: a column per path, not pooled
pg_value "SELECT count(*) FROM bench_run('point-query', seconds => 0.5, warmup => 0, label => 'proto-b')" >/dev/null
report=$(pg_value "SELECT bench_report('proto', 'proto-b')")
ok "$(grep -Eq '^pg +pg-wire$' <<<"$report" && grep -Eq '^[0-9.]+[=?]? +- +point-query$' <<<"$report"; echo $?)" \
   "no driver named: columns pg and pg-wire, the wire's without a side in proto-b ($(grep point-query <<<"$report"))"
# one side's driver named, the other side's runs of two drivers: refused
psql -X -A -t -q -d "$MB_PG_DB" -v VERBOSITY=verbose \
    -c "SELECT bench_report('proto', 'proto-b', other_driver => 'extension')" >"$out" 2>&1
ok "$(grep -q '22023' "$out" && grep -q 'more than one driver' "$out"; echo $?)" \
   "a side of runs of two drivers beside a chosen driver is refused (22023): $(grep -m1 ERROR "$out")"
ok "$(grep -qi 'HINT:.*driver' "$out"; echo $?)" "... with a hint to pass a driver"
ok "$(pg_value "SELECT bench_report('proto', 'proto', base_driver => 'extension', other_driver => 'pgsql')" \
      | grep -q 'point-query'; echo $?)" "bench_report(label, label, base_driver, other_driver) works"

done_testing
