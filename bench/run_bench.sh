#!/usr/bin/env bash
# bench/run_bench.sh — benchmark microbench against its peers, as RATIOS.
#
# Starts one throwaway Postgres cluster (test/pg_cluster.sh, stopped and
# removed on exit), creates database mb_bench with the microbench extension,
# and compares, in alternating rounds whose medians are reported:
#
#   1. in-server point-query QPS (bench_run, one background-worker client)
#      vs a PL/pgSQL procedure looping over the same statement
#      SELECT c FROM sbtest1 WHERE id = $1 with a COMMIT after every event;
#   2. the same in-server QPS vs `sysbench oltp_point_select` over the unix
#      socket (one client thread) on the very same sbtest1 table;
#   3. bench_prepare's wall-clock time vs `sysbench oltp_point_select prepare`
#      for the same number of rows (PREPARE_ROWS, 1 table), both timed by
#      date(1);
#   4. in-server point-query QPS with its costs counted (the default) vs
#      with microbench.collect_costs = off: what counting costs;
#   5. bench_prepare's time with its direct page writes (the default) vs
#      with microbench.direct_load = off (Postgres's bulk-insert path), in
#      the same rounds as 3.
#
# QPS ratios are ours/peer (higher is better), the prepare ratio is
# ours/peer seconds (lower is better).  Each round's contenders run back to
# back (the QPS contenders in mirrored halves), so they share the machine's
# conditions and a round's two figures are a pair.  The summary's ratio,
# its interval and a goal's verdict come from the results schema's
# compare() over those pairs (summary_row, bench/lib.sh): met, MISSED, or
# unresolved when the interval holds the goal.
#
# Needs: the extension installed (make install), sysbench, test/pg_cluster.sh
# (it also starts the summary's results database).
# Settings (environment):
#   ROUNDS=8            alternating rounds per comparison (two turns of the
#                       QPS rounds' rotation)
#   RUN_SECONDS=6       measured seconds per contender and QPS round
#                       (integer), run as two halves in mirrored order
#   WARMUP=1            warm-up seconds before each QPS run (integer, excluded)
#   TABLE_SIZE=100000   rows in sbtest1 for the QPS runs: a table that stays
#                       in shared buffers, so what differs between the
#                       contenders (the harness) is not drowned by misses
#   PREPARE_ROWS=1000000  rows in each timed prepare
#   BENCH_PORT=5510     port of the throwaway cluster (socket only, no TCP)
#   BENCH_DB=mb_bench   database name
#   PIN_CPU=0           CPU for the server's backends and benchmark workers
#                       in the QPS runs (sysbench gets the others); "none"
#                       to not pin.  On a shared VM the vCPUs differ in
#                       speed from run to run, which makes side-by-side
#                       figures bimodal: pinning both contenders to one CPU
#                       compares like with like.  The prepares run first
#                       and unpinned: using every CPU is part of loading
# Usage: bench/run_bench.sh        (or `make bench` from the top level)
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_settings ROUNDS=8 RUN_SECONDS=6 WARMUP=1 TABLE_SIZE=100000 PREPARE_ROWS=1000000 \
    BENCH_PORT=5510 BENCH_DB=mb_bench PIN_CPU=0
need sysbench "apt-get install sysbench"
need psql

bench_workdir mb_bench pg
pg_start "$BENCH_DB"

# sysbench's pgsql driver hands --pgsql-host to libpq, which takes a path
# starting with '/' as the unix-socket directory; the cluster has no TCP
# listener (listen_addresses = ''), so every sysbench run below is on the socket.
sb=(sysbench --db-driver=pgsql --pgsql-host="$PGHOST" --pgsql-port="$PGPORT"
    --pgsql-user="$PGUSER" --pgsql-db="$BENCH_DB" --tables=1)

createdb "$BENCH_DB"
q -c "CREATE EXTENSION microbench"

# The PL/pgSQL peer: the same statement as bench_run's point-query (the id is
# computed into a variable first, so the query is "WHERE id = $1" with an
# index lookup; a volatile random() in the WHERE clause would force a seq
# scan), a COMMIT after every event, a warm-up that is not counted, and
# QPS = iterations / elapsed seconds by clock_timestamp().
q <<'SQL'
CREATE PROCEDURE public.peer_point_query(secs float8, warmup float8, n integer,
                                         INOUT qps float8 DEFAULT NULL,
                                         INOUT iters bigint DEFAULT NULL)
LANGUAGE plpgsql AS $proc$
DECLARE
    v        text;
    id_      integer;
    i        bigint := 0;
    t0       timestamptz;
    deadline timestamptz;
BEGIN
    deadline := clock_timestamp() + make_interval(secs => warmup);
    WHILE clock_timestamp() < deadline LOOP
        id_ := floor(random() * n)::integer + 1;
        SELECT c INTO v FROM sbtest1 WHERE id = id_;
        COMMIT;
    END LOOP;
    t0 := clock_timestamp();
    deadline := t0 + make_interval(secs => secs);
    LOOP
        id_ := floor(random() * n)::integer + 1;
        SELECT c INTO v FROM sbtest1 WHERE id = id_;
        COMMIT;
        i := i + 1;
        EXIT WHEN clock_timestamp() >= deadline;
    END LOOP;
    iters := i;
    qps := i / extract(epoch FROM clock_timestamp() - t0);
END
$proc$;
SQL

pg_version=$(q -c "SHOW server_version")
echo "microbench benchmark: Postgres $pg_version, $(sysbench --version), $(nproc) CPUs"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE PREPARE_ROWS=$PREPARE_ROWS (1 table, 1 client)"
echo

# ---- 3. prepare time: bench_prepare vs sysbench prepare --------------------
# Before each timed prepare (untimed): drop sbtest1 and CHECKPOINT, so neither
# side inherits the other's dirty buffers or a checkpoint in progress.
prep_ours() {  # prep_ours on|off: with microbench.direct_load on or off
    q -c "DROP TABLE IF EXISTS sbtest1" -c "CHECKPOINT"
    local t0 t1
    t0=$(now)
    q -c "SET microbench.direct_load = $1" -c "SELECT * FROM bench_prepare(1, $PREPARE_ROWS)" >"$log/prep_ours.out"
    t1=$(now)
    elapsed "$t0" "$t1"
}
prep_peer() {
    q -c "DROP TABLE IF EXISTS sbtest1" -c "CHECKPOINT"
    local t0 t1
    t0=$(now)
    "${sb[@]}" --table-size="$PREPARE_ROWS" oltp_point_select prepare >"$log/prep_sysbench.out" 2>&1
    t1=$(now)
    elapsed "$t0" "$t1"
}

# An untimed prepare first: a new cluster has no WAL segments to recycle
# yet, and the first timed prepare would pay for creating them alone.
prep_ours on >/dev/null

prep_o=() prep_p=() prep_b=()
echo "raw: prepare seconds ($PREPARE_ROWS rows; odd rounds ours, ours through buffers, sysbench; even rounds the reverse)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    if ((r % 2)); then
        o=$(prep_ours on); b=$(prep_ours off); p=$(prep_peer)
    else
        p=$(prep_peer); b=$(prep_ours off); o=$(prep_ours on)
    fi
    # three decimals: at two, 0.124x would print and pass as 0.12x
    r_buf=$(ratio "$o" "$b" 3) r_peer=$(ratio "$o" "$p" 3)
    prep_o+=("$o") prep_p+=("$p") prep_b+=("$b")
    printf '  round %d: ours %8.3f s  through buffers %8.3f s (%5.3fx)  sysbench %8.3f s (%5.3fx)   (loadavg %s)\n' \
        "$r" "$o" "$b" "$r_buf" "$p" "$r_peer" "$la"
done
echo

# Pinned from here on: backends and background workers inherit the
# postmaster's CPU affinity, sysbench gets the other CPUs.  The prepares
# above ran unpinned, each tool using the machine as it would: sysbench's
# client and its server backend, bench_prepare's parallel index builds.
sb_pin=()
if [ "$PIN_CPU" != none ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    pg_pin_postmaster
    others=$(other_cpus "$PIN_CPU")
    sb_pin=(taskset -c "$others")
    echo "QPS runs: server pinned to CPU $PIN_CPU, sysbench to CPU(s) $others (PIN_CPU=none to not pin)"
fi

# ---- 1 + 2. point-query QPS ------------------------------------------------
# One data set for all QPS runs: bench_prepare's, vacuumed and pre-warmed.
q -c "SELECT * FROM bench_prepare(1, $TABLE_SIZE)" >/dev/null
pg_ready_sbtest1

# Each takes the measured seconds, RUN_SECONDS by default, and prints the QPS.
qps_ours() {
    q -c "SELECT round(qps::numeric, 1) FROM bench_run('point-query', seconds => ${1:-$RUN_SECONDS}, warmup => $WARMUP, clients => 1)"
}
# the same with microbench.collect_costs off: what counting the costs costs
qps_ours_uncounted() {
    PGOPTIONS='-c client_min_messages=warning -c microbench.collect_costs=off' \
        psql -X -q -At -v ON_ERROR_STOP=1 -d "$BENCH_DB" \
        -c "SELECT round(qps::numeric, 1) FROM bench_run('point-query', seconds => ${1:-$RUN_SECONDS}, warmup => $WARMUP, clients => 1)"
}
qps_proc() {
    q -F ' ' -c "CALL peer_point_query(${1:-$RUN_SECONDS}, $WARMUP, $TABLE_SIZE)" | awk '{ printf "%.1f", $1 }'
}
qps_sysbench() {
    local v
    sysbench_window "${1:-$RUN_SECONDS}"
    "${sb_pin[@]}" "${sb[@]}" --table-size="$TABLE_SIZE" "${sb_window[@]}" oltp_point_select run >"$log/sysbench_run.out" 2>&1
    v=$(queries_rate "$log/sysbench_run.out")
    [ -n "$v" ] || { echo "$me: no 'queries:' line in sysbench output" >&2; cat "$log/sysbench_run.out" >&2; return 1; }
    echo "$v"
}

# An untimed warm-up pass of each contender (not reported), so that round 1
# does not pay for first use (caches, plans, page faults) on one side only.
qps_ours 2 >/dev/null; qps_ours_uncounted 2 >/dev/null; qps_proc 2 >/dev/null; qps_sysbench 2 >/dev/null

# Each round runs every contender twice, for half of RUN_SECONDS each time,
# in one order and then in the reverse (A B C D D C B A).  Every
# contender's two halves then centre on the same moment, so a drift of the
# host's speed during the round (this VM changes speed within seconds)
# weighs on all of them alike instead of favouring whoever ran first.  The
# first order rotates from round to round (A B C D, B C D A, C D A B, ...),
# so that over four rounds each contender runs once in each pair of
# positions (1st and 8th, 2nd and 7th, ...): a dip of the host's speed
# in the middle of a round does not always fall on the same contenders.
# A contender's QPS for the round is the mean of its halves, weighted by
# their seconds.
half1=$(((RUN_SECONDS + 1) / 2)) half2=$((RUN_SECONDS / 2))
declare -A half_qps
run_contender() {  # name seconds: record the QPS of one half
    case $1 in
    ours) half_qps[$1]+=" $(qps_ours "$2")" ;;
    costs_off) half_qps[$1]+=" $(qps_ours_uncounted "$2")" ;;
    plpgsql) half_qps[$1]+=" $(qps_proc "$2")" ;;
    sysbench) half_qps[$1]+=" $(qps_sysbench "$2")" ;;
    esac
}
round_qps() {  # name: the seconds-weighted mean of its halves
    awk -v h1="$half1" -v h2="$half2" -v q="${half_qps[$1]}" \
        'BEGIN { n = split(q, v, " "); printf "%.1f", n == 1 ? v[1] : (v[1] * h1 + v[2] * h2) / (h1 + h2) }'
}
contenders=(ours costs_off plpgsql sysbench)
qo=() qn=() qp=() qs=()
echo "raw: point-query QPS (${RUN_SECONDS}s measured per contender and round, in halves of ${half1}s and ${half2}s, each after ${WARMUP}s of warm-up; order A B C D D C B A, rotated each round)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    half_qps=()
    first=$(((r - 1) % ${#contenders[@]}))
    order=("${contenders[@]:first}" "${contenders[@]:0:first}")
    for c in "${order[@]}"; do run_contender "$c" "$half1"; done
    if ((half2 > 0)); then
        for ((i = ${#order[@]} - 1; i >= 0; i--)); do run_contender "${order[i]}" "$half2"; done
    fi
    o=$(round_qps ours); n=$(round_qps costs_off); p=$(round_qps plpgsql); s=$(round_qps sysbench)
    qo+=("$o") qn+=("$n") qp+=("$p") qs+=("$s")
    printf '  round %d (%s first): ours %10.1f  costs off %10.1f (%5.3fx)  plpgsql+COMMIT %10.1f (%5.3fx)  sysbench %10.1f (%5.3fx)   (loadavg %s)\n' \
        "$r" "${order[0]}" "$o" "$n" "$(ratio "$o" "$n" 3)" "$p" "$(ratio "$o" "$p" 3)" "$s" "$(ratio "$o" "$s" 3)" "$la"
done
echo

# ---- summary ---------------------------------------------------------------
# every row judged by the results schema's compare() (bench/lib.sh)
judge_start
rows_label=$(size_label "$PREPARE_ROWS")
summary_header ours peer
summary_row "point-query QPS vs PL/pgSQL+COMMIT" %.0f rate qo qp ">=" 1.5
summary_row "point-query QPS, costs counted vs not" %.0f rate qo qn ">=" 0.99
summary_row "point-query QPS vs sysbench (socket)" %.0f rate qo qs ">=" 4
summary_row "prepare seconds ($rows_label rows) vs sysbench" %.3f cost prep_o prep_p "<=" 0.12
# no goal: a figure, read with its rounds
summary_row "prepare seconds, direct vs through buffers" %.3f cost prep_o prep_b
