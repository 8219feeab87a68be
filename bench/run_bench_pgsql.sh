#!/usr/bin/env bash
# bench/run_bench_pgsql.sh — the client's pgsql driver (`microbench
# --db-driver=pgsql`) against sysbench's pgsql driver, as RATIOS.
#
# Starts one throwaway Postgres cluster (test/pg_cluster.sh, socket only,
# stopped and removed on exit) with its postmaster and every server process
# pinned to PIN_CPU, creates database sbtest, loads sbtest1 once with
# `microbench --db-driver=pgsql prepare` (then VACUUM ANALYZE, CHECKPOINT and
# pg_prewarm), and compares, in alternating rounds whose medians are
# reported, one client thread over the unix socket, each client pinned to
# the other CPU(s):
#
#   1. point-query QPS: `microbench --db-driver=pgsql run point-query` vs
#      `sysbench --db-driver=pgsql oltp_point_select run` on the very same
#      sbtest1 table (both: SELECT c FROM sbtest1 WHERE id = $1 as a
#      server-side prepared statement, --db-ps-mode=auto on both; autocommit,
#      one query per event; ids uniform in [1, TABLE_SIZE]: sysbench's default
#      --rand-type=special is overridden to uniform to match);
#   2. client CPU per query: user+sys CPU of each whole client process (the
#      shell's `time`, i.e. getrusage of the child: start-up, connection,
#      warm-up and the measured window) divided by the number of times the
#      server executed the point select for it (the change in
#      pg_stat_statements' calls, warm-up included, because the CPU is too);
#      and, as information, the same inside the measured window only (the
#      client's utime+stime from /proc/PID/stat and the server's count, both
#      read 0.5 s after the warm-up and 0.5 s before the end): the steady
#      state, without either client's start-up and shut-down;
#   3. (information, no goal) the same QPS over the wire against in-server:
#      `SELECT qps FROM bench_run('point-query', ...)` (a background-worker
#      client, no protocol), when `CREATE EXTENSION microbench` works in the
#      cluster, i.e. the extension is installed in this Postgres.  The ratio
#      wire / in-server is what the protocol path costs.
#
# Warm-up: ours --warmup-time=WARMUP (events before the window, not
# counted); sysbench 1.0 has no --warmup-time (it refuses the option), so it
# runs WARMUP + RUN_SECONDS with --report-checkpoints=WARMUP, which resets
# its counters after the warm-up: its final "queries:" line covers only the
# last RUN_SECONDS, as ours does.
#
# QPS ratio is ours/sysbench (higher is better), the CPU ratio ours/sysbench
# (lower is better).  Each round's contenders run back to back, so they
# share the machine's conditions and a round's figures are a pair; the
# summary's ratios, their intervals and the goals' verdicts come from the
# results schema's compare() over the pairs (summary_row, bench/lib.sh), in
# a second throwaway cluster started for the summary.
#
# Needs: client/microbench (make -C client; the script runs a
# copy taken at its start), sysbench, psql,
# pg_stat_statements (postgresql-contrib; test/pg_cluster.sh preloads it),
# test/pg_cluster.sh; optionally the extension installed (make install) for
# row 3.
# Settings (environment):
#   ROUNDS=5            alternating rounds
#   RUN_SECONDS=5       measured seconds per QPS run (integer)
#   WARMUP=2            warm-up seconds before each QPS run (integer, excluded)
#   TABLE_SIZE=100000   rows in sbtest1
#   BENCH_PORT=5551     port of the throwaway cluster (socket only, no TCP)
#   BENCH_DB=sbtest     database name
#   PIN_CPU=0           CPU of the server (postmaster, backends, workers);
#                       the clients get the other CPU(s); "none" to not pin
# Usage: bench/run_bench_pgsql.sh
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_settings ROUNDS=5 RUN_SECONDS=5 WARMUP=2 TABLE_SIZE=100000 BENCH_PORT=5551 BENCH_DB=sbtest PIN_CPU=0
require_pin_cpu
client=$top/client/microbench
need_client "$client"
need sysbench "apt-get install sysbench"
need psql

# Server on PIN_CPU, clients on the others.  The cluster is started under
# taskset, so initdb, pg_ctl, the postmaster and every process it forks
# (backends, background workers, checkpointer, ...) inherit the one CPU.
bench_pinning

bench_workdir mb_bench_pgsql pg
# A copy of the client, so that a rebuild of client/ during the run
# (make replaces the file) cannot change the binary between rounds.
cp "$client" "$workdir/microbench"
client=$workdir/microbench

pg_start "$BENCH_DB" "${srv_pin[@]}"

# Both clients on the socket: libpq takes a host starting with '/' as the
# socket directory, and the cluster has no TCP listener anyway.
ours=("${cli_pin[@]}" "$client" --db-driver=pgsql --pgsql-host="$PGHOST" --pgsql-port="$PGPORT"
      --pgsql-user="$PGUSER" --pgsql-db="$BENCH_DB" --tables=1 --table-size="$TABLE_SIZE")
sb=("${cli_pin[@]}" sysbench --db-driver=pgsql --pgsql-host="$PGHOST" --pgsql-port="$PGPORT"
    --pgsql-user="$PGUSER" --pgsql-db="$BENCH_DB" --tables=1 --table-size="$TABLE_SIZE")

createdb "$BENCH_DB"
q -c "CREATE EXTENSION pg_stat_statements"
inserver=
if q -c "CREATE EXTENSION microbench" 2>"$log/create_extension.err"; then inserver=1; fi

echo "microbench pgsql driver benchmark: Postgres $(q -c 'SHOW server_version'), $(sysbench --version), $(nproc) CPUs"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE (1 table, 1 client thread, unix socket)"
bench_check_pinning
[ -n "$inserver" ] || echo "in-server row skipped: CREATE EXTENSION microbench failed ($(head -n 1 "$log/create_extension.err"))"

# ---- the data set: loaded once, read by every run ---------------------------
# ours prepare (COPY, then the k index), vacuumed and pre-warmed.
"${ours[@]}" prepare >"$log/prepare.out" 2>&1
check_rows prepare
pg_ready_sbtest1
echo

# How many times the server has executed the point select, for every client
# (pg_stat_statements keeps one entry per statement text and parameter type:
# ours says "id = $1", sysbench "id=$1"; both are counted).
executes() {
    q -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
          WHERE regexp_replace(query, '\s+', '', 'g') = 'SELECTcFROMsbtest1WHEREid=\$1'"
}

# CPU ticks (user+sys, all threads) the process PID has used so far.
ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
clk_tck=$(getconf CLK_TCK)
sleep_until() { sleep "$(awk -v t="$1" -v n="$(now)" 'BEGIN { d = t - n; printf "%.3f", (d > 0 ? d : 0) }')"; }

# One QPS run of ours|sysbench, measured seconds $2 (RUN_SECONDS by default);
# prints "QPS CPU-us/query CPU-seconds executes steady-CPU-us/query".
# The client runs in the background so that its CPU can also be read from
# /proc/PID/stat inside its measured window (from 0.5 s after the warm-up to
# 0.5 s before the end, with the server's executes read at the same two
# moments): the steady-state CPU per query, without start-up and shut-down.
qps_run() {
    local secs=${2:-$RUN_SECONDS} out=$log/run_$1.out cpu=$log/cpu_$1 e0 e1 f
    local bg pid t0 c0 c1 w0 w1 i cmd
    if [ "$1" = ours ]; then
        cmd=("${ours[@]}" --threads=1 --time="$secs" --warmup-time="$WARMUP" --db-ps-mode=auto
             --results-file="$workdir/results.jsonl" run point-query)
    else
        sysbench_window "$secs"
        cmd=("${sb[@]}" "${sb_window[@]}" --db-ps-mode=auto oltp_point_select run)
    fi
    e0=$(executes)
    t0=$(now)
    timed "$cpu" "$out" "${cmd[@]}" &
    bg=$!
    pid=        # the client: the background shell's child (taskset execs it)
    for ((i = 0; i < 500 && ${#pid} == 0; i++)); do
        pid=$(ps -o pid= --ppid "$bg" | tr -d ' ') || true
        [ -n "$pid" ] || sleep 0.01
    done
    sleep_until "$(awk -v t="$t0" -v w="$WARMUP" 'BEGIN { printf "%.3f", t + w + 0.5 }')"
    c0=$(ticks "$pid") w0=$(executes)
    sleep_until "$(awk -v t="$t0" -v w="$WARMUP" -v s="$secs" 'BEGIN { printf "%.3f", t + w + s - 0.5 }')"
    c1=$(ticks "$pid") w1=$(executes)
    wait "$bg" || { echo "$me: $1 failed" >&2; cat "$out" >&2; return 1; }
    e1=$(executes)
    f=$(run_figures "$1" "$out" "$cpu" $((e1 - e0)))
    if [ -z "$c0" ] || [ -z "$c1" ] || ((w1 <= w0)); then
        echo "$me: could not read $1's CPU inside its measured window (pid '$pid')" >&2; return 1
    fi
    echo "$f $(awk -v c=$((c1 - c0)) -v hz="$clk_tck" -v w=$((w1 - w0)) 'BEGIN { printf "%.3f", c / hz * 1e6 / w }')"
}
# In-server QPS: bench_run's background worker on the server's CPU.
qps_inserver() {
    q -c "SELECT round(qps::numeric, 1) FROM bench_run('point-query', seconds => ${1:-$RUN_SECONDS}, warmup => $WARMUP, clients => 1)"
}

# An untimed warm-up pass of each contender (not reported), so that round 1
# does not pay for first use (caches, plans, page faults) on one side only.
qps_run ours 2 >/dev/null; qps_run sysbench 2 >/dev/null
[ -z "$inserver" ] || qps_inserver 2 >/dev/null

qo=() qs=() qi=() co=() cs=() ko=() ks=()
echo "raw: point-query QPS (${RUN_SECONDS}s measured + ${WARMUP}s warm-up each; odd rounds ours first, even rounds ours last),"
echo "     client CPU us/query (user+sys of the whole process / server-counted executes, warm-up included)"
echo "     and, after 'steady', the same inside the measured window (/proc/PID/stat; start-up and shut-down excluded)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    i=
    if ((r % 2)); then
        o=$(qps_run ours); s=$(qps_run sysbench); [ -z "$inserver" ] || i=$(qps_inserver)
    else
        [ -z "$inserver" ] || i=$(qps_inserver); s=$(qps_run sysbench); o=$(qps_run ours)
    fi
    read -r oq ou oc on ok <<<"$o"
    read -r sq su sc sn sk <<<"$s"
    qo+=("$oq") qs+=("$sq") co+=("$ou") cs+=("$su") ko+=("$ok") ks+=("$sk")
    ins=
    if [ -n "$i" ]; then
        qi+=("$i")
        ins=$(printf '  in-server %9.1f (wire/in-server %5.3fx)' "$i" "$(ratio "$oq" "$i" 3)")
    fi
    printf '  round %d: QPS ours %9.1f  sysbench %9.1f (%5.3fx)%s\n' "$r" "$oq" "$sq" "$(ratio "$oq" "$sq" 3)" "$ins"
    printf '           CPU us/q ours %6.2f (%.2fs/%d)  sysbench %6.2f (%.2fs/%d) (%5.3fx)   steady ours %6.2f  sysbench %6.2f (%5.3fx)   (loadavg %s)\n' \
        "$ou" "$oc" "$on" "$su" "$sc" "$sn" "$(ratio "$ou" "$su" 3)" "$ok" "$sk" "$(ratio "$ok" "$sk" 3)" "$la"
done
echo

# ---- summary ---------------------------------------------------------------
# every row judged by the results schema's compare() (bench/lib.sh)
judge_start
echo "$(size_label "$TABLE_SIZE") rows"
summary_header ours peer
summary_row "point-query QPS vs sysbench pgsql (socket)" %.0f rate qo qs ">=" 1.0
summary_row "client CPU us/query vs sysbench pgsql" %.2f cost co cs "<=" 1.0
summary_row "  the same, measured window only (steady)" %.2f cost ko ks
[ -z "$inserver" ] || summary_row "point-query QPS, wire / in-server" %.0f rate qo qi
