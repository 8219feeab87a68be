#!/usr/bin/env bash
# bench/profile_point_query.sh — where an in-server point-query event's time
# goes: Postgres's work for the statement and the transaction, against the
# harness's own (the event loop, value drawing, latency histogram, clocks).
#
# Starts a throwaway cluster (test/pg_cluster.sh, pinned to PIN_CPU, stopped
# and removed on exit), loads TABLE_SIZE rows with bench_prepare, runs
# bench_run('point-query') with one client, and samples that client's
# background worker with `perf record` (the software cpu-clock event, which
# works in VMs without hardware counters; DWARF call graphs, so no frame
# pointers are needed).  Each sample goes to the part named by the innermost
# frame on its stack that belongs to a known part (below); a frame in
# microbench.so that is not one makes it the harness's.  The shares become
# microseconds per event through the run's own CPU time per event
# (cpu_user_seconds + cpu_system_seconds over events, from microbench.runs).
#
# Needs: perf, python3, the extension installed in pg_config's Postgres.
# Settings (environment): TABLE_SIZE (100000), RUN_SECONDS (8, the run),
# PERF_SECONDS (4, sampled inside the run), PIN_CPU (0), BENCH_PORT (5512).
# A Postgres built with symbols (e.g. a source build) names static
# functions too; with Debian's stripped server they fall into "other".
#
#   bench/profile_point_query.sh
#   PG_CONFIG=/path/to/pg_config bench/profile_point_query.sh
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_settings TABLE_SIZE=100000 RUN_SECONDS=8 PERF_SECONDS=4 PIN_CPU=0 BENCH_PORT=5512
((PERF_SECONDS + 3 <= RUN_SECONDS)) || { echo "$me: RUN_SECONDS must be at least PERF_SECONDS + 3" >&2; exit 2; }
need perf "apt-get install linux-perf"
need python3

bench_workdir mb_profile pg
pg_start postgres
[ "$PIN_CPU" = none ] || pg_pin_postmaster

q -c "CREATE EXTENSION microbench"
q -c "SELECT * FROM bench_prepare(1, $TABLE_SIZE)" >/dev/null
q -c "VACUUM (ANALYZE) sbtest1" -c "CHECKPOINT"
echo "Postgres $(q -c 'SHOW server_version'), $TABLE_SIZE rows, server on CPU $PIN_CPU; sampling ${PERF_SECONDS}s of a ${RUN_SECONDS}s run"

q -c "SELECT run_id FROM bench_run('point-query', seconds => $RUN_SECONDS, warmup => 1, clients => 1)" \
    >"$log/run_id" 2>"$log/run.err" &
run_pid=$!
worker=
for _ in $(seq 100); do
    worker=$(q -c "SELECT pid FROM pg_stat_activity WHERE backend_type LIKE 'microbench%' OR query LIKE 'microbench point-query client%' LIMIT 1")
    [ -n "$worker" ] && break
    sleep 0.05
done
[ -n "$worker" ] || { echo "$me: the benchmark's worker did not appear" >&2; exit 1; }
sleep 1.5                                   # past the warm-up
perf record -q -e cpu-clock -F 4999 --call-graph dwarf,16384 -p "$worker" \
    -o "$log/perf.data" -- sleep "$PERF_SECONDS" >/dev/null 2>&1
wait "$run_pid"
run_id=$(cat "$log/run_id")
read -r qps us_per_event < <(q -F ' ' -c "SELECT round(qps::numeric), (cpu_user_seconds + cpu_system_seconds) * 1e6 / events
                                         FROM microbench.runs WHERE run_id = $run_id")
echo "run $run_id: $qps QPS, $(printf '%.2f' "$us_per_event") us of worker CPU per event"
echo

perf script -i "$log/perf.data" -F ip,sym,dso 2>/dev/null | python3 -c '
import sys, collections
us = float(sys.argv[1])
# The innermost of these frames on a stack names its part.
parts = [
    ("statement: executor (start, run, end)", """CreateQueryDesc FreeQueryDesc ExecutorStart ExecutorRun
        ExecutorFinish ExecutorEnd standard_ExecutorStart standard_ExecutorRun standard_ExecutorFinish
        standard_ExecutorEnd pgss_ExecutorStart pgss_ExecutorRun pgss_ExecutorFinish pgss_ExecutorEnd"""),
    ("statement: plan cache", "GetCachedPlan ReleaseCachedPlan"),
    ("statement: snapshot, command counter", """GetTransactionSnapshot PushActiveSnapshot
        PushActiveSnapshotWithLevel PopActiveSnapshot CommandCounterIncrement UpdateActiveSnapshotCommandId"""),
    ("transaction: start", "StartTransactionCommand SetCurrentStatementStartTimestamp"),
    ("transaction: commit", "CommitTransactionCommand"),
    ("statistics report", "pgstat_report_stat"),
    ("SPI: connect, call, result table", """SPI_connect SPI_connect_ext SPI_finish SPI_execute_plan
        _SPI_execute_plan SPI_execute_plan_extended spi_printtup spi_dest_startup CreateDestReceiver
        SPI_freetuptable _SPI_pquery _SPI_convert_params"""),
]
owner = {}
for name, funcs in parts:
    for f in funcs.split():
        owner[f] = name
harness = "harness: loop, values, latency, clocks"
counts = collections.Counter()
harness_leaves = collections.Counter()
stack = []
def close():
    if not stack:
        return
    part = None
    for sym, dso in stack:                     # leaf first
        base = sym.split("+")[0]
        if base in owner:
            part = owner[base]
            break
        if "microbench" in dso:
            part = harness
            harness_leaves[stack[0][0].split("+")[0]] += 1
            break
    counts[part or "other (interrupts, kernel, unattributed)"] += 1
for line in sys.stdin:
    s = line.strip()
    if not s:
        close(); stack = []
        continue
    bits = s.split(None, 1)
    if len(bits) < 2:
        continue
    rest = bits[1]
    dso = rest[rest.rfind("(") + 1:-1] if rest.endswith(")") else ""
    sym = rest[:rest.rfind("(")].strip() if rest.endswith(")") else rest
    stack.append((sym, dso))
close()
total = sum(counts.values())
print("%-42s %7s %9s" % ("part of an event", "share", "us/event"))
order = [p[0] for p in parts] + [harness, "other (interrupts, kernel, unattributed)"]
for name in order:
    if counts[name]:
        print("%-42s %6.1f%% %9.3f" % (name, 100.0 * counts[name] / total, us * counts[name] / total))
print("%-42s %6.1f%% %9.3f   (%d samples)" % ("total", 100.0, us, total))
print()
print("the harness part by the function each sample was in:")
for name, n in harness_leaves.most_common(8):
    print("  %-40s %6.1f%% %9.3f" % (name, 100.0 * n / total, us * n / total))
' "$us_per_event"
