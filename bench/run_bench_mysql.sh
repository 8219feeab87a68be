#!/usr/bin/env bash
# bench/run_bench_mysql.sh — benchmark microbench (driver mysql) against sysbench on
# MariaDB, as RATIOS.
#
# Starts one throwaway MariaDB server (test/mariadb_server.sh, stopped and
# removed on exit) and compares, in alternating rounds whose medians are
# reported, on the very same sbtest1 table, one client thread, over the unix
# socket:
#
#   1. point-query QPS: `microbench run point-query` vs
#      `sysbench oltp_point_select run` (both: SELECT c FROM sbtest1 WHERE
#      id = ?, a server-side prepared statement, autocommit, one query per
#      event, ids uniform in [1, TABLE_SIZE]; sysbench's default
#      --rand-type=special is overridden to uniform to match);
#   2. client CPU per query: user+sys CPU of each whole client process (the
#      shell's `time`, i.e. getrusage of the child) divided by the number of
#      prepared statements the server executed for it (the change in
#      Com_stmt_execute, warm-up included, because the CPU is too);
#   3. prepare wall-clock time: `microbench prepare` vs `sysbench
#      oltp_point_select prepare` for the same number of rows (1 table),
#      both timed by date(1).  Before each timed prepare (untimed): sbtest1 is
#      dropped and the buffer pool's dirty pages are flushed, so neither side
#      pays for the other's leftover writes.
#
# QPS ratio is ours/peer (higher is better); the CPU and prepare ratios are
# ours/peer (lower is better).  A round's two figures are a pair; the
# summary's ratios, their intervals and the goals' verdicts come from the
# results schema's compare() over the pairs (summary_row, bench/lib.sh), in
# a throwaway Postgres started for the summary.
#
# Passwords: both clients connect as "bench" with the password in MYSQL_PWD,
# never on a command line.  sysbench 1.0.20 given no --mysql-password passes a
# NULL password to MariaDB Connector/C, which then reads MYSQL_PWD.
#
# The server's buffer pool is raised at run time to BUFFER_POOL_MB (the
# throwaway server starts with 256M), so that a 1M-row sbtest1 (~230 MB)
# stays in memory and the QPS runs measure clients, not page reads.
#
# Needs: client/microbench (make -C client), sysbench,
# the mariadb client, test/mariadb_server.sh (mariadb-server installed),
# Postgres (pg_config; test/pg_cluster.sh) for the summary.
# Settings (environment):
#   ROUNDS=5            alternating rounds per comparison
#   RUN_SECONDS=5       measured seconds per QPS run (integer)
#   WARMUP=1            warm-up seconds before each QPS run (integer, excluded
#                       from QPS: client --warmup-time, sysbench
#                       --report-checkpoints, which resets its counters)
#   TABLE_SIZE=1000000  rows in sbtest1 (prepare and QPS)
#   BENCH_PORT=3420     TCP port of the throwaway server (loopback; unused here)
#   BUFFER_POOL_MB=1024 innodb_buffer_pool_size set at run time
#   MB_MYSQL_ROOT_PASSWORD=microbench  password of the server's accounts
# Usage: bench/run_bench_mysql.sh
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_settings ROUNDS=5 RUN_SECONDS=5 WARMUP=1 TABLE_SIZE=1000000 BENCH_PORT=3420 BUFFER_POOL_MB=1024
client=$top/client/microbench
need_client "$client"
need sysbench "apt-get install sysbench"
need "${PG_CONFIG:-pg_config}" "apt-get install postgresql postgresql-server-dev-all: the summary's results database"
mariadb_preflight

bench_workdir mb_bench_mysql mariadb
mariadb_start

ours=("$client" --mysql-socket="$sock" --mysql-user=bench --mysql-db=sbtest
      --tables=1 --table-size="$TABLE_SIZE")
# No --mysql-password: the password comes from MYSQL_PWD (see the top).
sb=(sysbench --db-driver=mysql --mysql-socket="$sock" --mysql-user=bench --mysql-db=sbtest
    --tables=1 --table-size="$TABLE_SIZE")

q -e "SET GLOBAL innodb_buffer_pool_size = $((BUFFER_POOL_MB * 1048576))"
for ((i = 0; i < 600; i++)); do      # the resize runs in the background
    rs=$(status Innodb_buffer_pool_resize_status)
    [[ -z $rs || $rs == *[Cc]ompleted* ]] && break
    sleep 0.1
done

echo "microbench (driver mysql) benchmark: MariaDB $(q -e 'SELECT VERSION()'), $(sysbench --version), $(nproc) CPUs"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE (1 table, 1 client thread, unix socket)"
echo "innodb_buffer_pool_size $(($(q -e 'SELECT @@innodb_buffer_pool_size') / 1048576))M"
echo

# ---- 3. prepare time: microbench prepare vs sysbench prepare ---------
prep() {  # ours|sysbench
    q -e "DROP TABLE IF EXISTS sbtest1"
    mariadb_settle
    local t0 t1
    t0=$(now)
    if [ "$1" = ours ]; then
        "${ours[@]}" prepare >"$log/prep_ours.out" 2>&1
    else
        "${sb[@]}" oltp_point_select prepare >"$log/prep_sysbench.out" 2>&1
    fi
    t1=$(now)
    check_rows "$1 prepare"
    elapsed "$t0" "$t1"
}

prep_o=() prep_p=()
echo "raw: prepare seconds ($TABLE_SIZE rows; odd rounds ours first, even rounds sysbench first)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    alternate "$r" prep ours sysbench
    o=${alt[0]} p=${alt[1]}
    prep_o+=("$o") prep_p+=("$p")
    printf '  round %d: ours %8.3f s  sysbench %8.3f s  ratio %5.2fx   (loadavg %s)\n' "$r" "$o" "$p" "$(ratio "$o" "$p")" "$la"
done
echo

# ---- 1 + 2. point-query QPS and client CPU per query -----------------------
# One data set for all QPS runs: the client's, flushed, and read once
# through the primary key so every run finds it in the buffer pool.
q -e "DROP TABLE IF EXISTS sbtest1"
"${ours[@]}" prepare >"$log/prep_final.out" 2>&1
check_rows "the final prepare"
mariadb_ready_sbtest1
echo "sbtest1: $(mariadb_sizes)"

# One QPS run of ours|sysbench; prints "QPS CPU-us/query CPU-seconds executes".
qps_run() {
    local e0 e1 out=$log/run_$1.out cpu=$log/cpu_$1
    e0=$(status Com_stmt_execute)
    if [ "$1" = ours ]; then
        timed "$cpu" "$out" "${ours[@]}" --threads=1 --time="$RUN_SECONDS" --warmup-time="$WARMUP" \
            --results-file="$workdir/results.jsonl" run point-query
    else
        sysbench_window "$RUN_SECONDS"
        timed "$cpu" "$out" "${sb[@]}" "${sb_window[@]}" oltp_point_select run
    fi
    e1=$(status Com_stmt_execute)
    run_figures "$1" "$out" "$cpu" $((e1 - e0))
}

round_line() {  # round loadavg, then ours's and sysbench's QPS CPU-us/query CPU-seconds executes
    printf '  round %d: QPS ours %9.1f  sysbench %9.1f (%5.2fx)   CPU us/q ours %6.2f (%.2fs/%d)  sysbench %6.2f (%.2fs/%d) (%5.2fx)   (loadavg %s)\n' \
        "$1" "$3" "$7" "$(ratio "$3" "$7")" "$4" "$5" "$6" "$8" "$9" "${10}" "$(ratio "$4" "$8")" "$2"
}
echo "raw: point-query QPS (${RUN_SECONDS}s measured + ${WARMUP}s warm-up each; order alternates per round)"
echo "     and client CPU us/query (user+sys of the whole process / server-counted executes, warm-up included)"
qps_cpu_rounds ours sysbench round_line
qo=("${qps_a[@]}") qs=("${qps_b[@]}") co=("${cpu_a[@]}") cs=("${cpu_b[@]}")
echo

# ---- summary ---------------------------------------------------------------
# every row judged by the results schema's compare() (bench/lib.sh)
judge_start
summary_header ours peer
summary_row "point-query QPS vs sysbench (MariaDB, socket)" %.0f rate qo qs ">=" 1.05
summary_row "client CPU us/query vs sysbench" %.2f cost co cs "<" 1.00
summary_row "prepare seconds ($(size_label "$TABLE_SIZE") rows) vs sysbench" %.3f cost prep_o prep_p "<=" 0.50
