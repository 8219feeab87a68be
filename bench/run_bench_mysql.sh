#!/usr/bin/env bash
# bench/run_bench_mysql.sh — benchmark microbench-mysql against sysbench on
# MariaDB, as RATIOS.
#
# Starts one throwaway MariaDB server (test/mariadb_server.sh, stopped and
# removed on exit) and compares, in alternating rounds whose medians are
# reported, on the very same sbtest1 table, one client thread, over the unix
# socket:
#
#   1. point-query QPS: `microbench-mysql run point-query` vs
#      `sysbench oltp_point_select run` (both: SELECT c FROM sbtest1 WHERE
#      id = ?, a server-side prepared statement, autocommit, one query per
#      event, ids uniform in [1, TABLE_SIZE]; sysbench's default
#      --rand-type=special is overridden to uniform to match);
#   2. client CPU per query: user+sys CPU of each whole client process (the
#      shell's `time`, i.e. getrusage of the child) divided by the number of
#      prepared statements the server executed for it (the change in
#      Com_stmt_execute, warm-up included, because the CPU is too);
#   3. prepare wall-clock time: `microbench-mysql prepare` vs `sysbench
#      oltp_point_select prepare` for the same number of rows (1 table),
#      both timed by date(1).  Before each timed prepare (untimed): sbtest1 is
#      dropped and the buffer pool's dirty pages are flushed, so neither side
#      pays for the other's leftover writes.
#
# QPS ratio is ours/peer (higher is better); the CPU and prepare ratios are
# ours/peer (lower is better).  Ratios are of the medians.
#
# Passwords: both clients connect as "bench" with the password in MYSQL_PWD,
# never on a command line.  sysbench 1.0.20 given no --mysql-password passes a
# NULL password to MariaDB Connector/C, which then reads MYSQL_PWD.
#
# The server's buffer pool is raised at run time to BUFFER_POOL_MB (the
# throwaway server starts with 256M), so that a 1M-row sbtest1 (~230 MB)
# stays in memory and the QPS runs measure clients, not page reads.
#
# Needs: mysql_client/microbench-mysql (make -C mysql_client), sysbench,
# the mariadb client, test/mariadb_server.sh (mariadb-server installed).
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

ROUNDS=${ROUNDS:-5}
RUN_SECONDS=${RUN_SECONDS:-5}
WARMUP=${WARMUP:-1}
TABLE_SIZE=${TABLE_SIZE:-1000000}
BENCH_PORT=${BENCH_PORT:-3420}
BUFFER_POOL_MB=${BUFFER_POOL_MB:-1024}

me=run_bench_mysql.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/bench/lib.sh"
require_positive_ints ROUNDS RUN_SECONDS BENCH_PORT BUFFER_POOL_MB
require_row_counts TABLE_SIZE
require_non_negative_ints WARMUP

client=$top/mysql_client/microbench-mysql
[ -x "$client" ] || { echo "$me: $client not found (make -C mysql_client)" >&2; exit 1; }
command -v sysbench >/dev/null || { echo "$me: sysbench not found (apt-get install sysbench)" >&2; exit 1; }
mariadb_cli=$(command -v mariadb || command -v mysql) || { echo "$me: mariadb client not found" >&2; exit 1; }
if (exec 3<>"/dev/tcp/127.0.0.1/$BENCH_PORT") 2>/dev/null; then
    echo "$me: port $BENCH_PORT is in use; set BENCH_PORT" >&2; exit 1
fi

bench_workdir mb_bench_mysql mariadb

eval "$("$top/test/mariadb_server.sh" start "$server" "$BENCH_PORT")"
# Everything goes over the socket: with MYSQL_HOST=127.0.0.1 set, the mariadb
# client would use TCP even when given --socket.
unset MYSQL_HOST MYSQL_TCP_PORT
export MYSQL_PWD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
sock=$MYSQL_SOCKET

q() { "$mariadb_cli" --no-defaults -hlocalhost --socket="$sock" -ubench -N -B sbtest "$@"; }
status() { q -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f2; }

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

# Flush every dirty page (untimed), then restore the flushing settings.
settle() {
    local pct cap capmax i
    read -r pct cap capmax < <(q -e "SELECT @@innodb_max_dirty_pages_pct, @@innodb_io_capacity, @@innodb_io_capacity_max")
    q -e "SET GLOBAL innodb_io_capacity_max = 100000, GLOBAL innodb_io_capacity = 50000, GLOBAL innodb_max_dirty_pages_pct = 0"
    for ((i = 0; i < 1200; i++)); do
        [ "$(status Innodb_buffer_pool_pages_dirty)" = 0 ] && break
        sleep 0.1
    done
    q -e "SET GLOBAL innodb_max_dirty_pages_pct = $pct, GLOBAL innodb_io_capacity = $cap, GLOBAL innodb_io_capacity_max = $capmax"
}
check_rows() {
    local n
    n=$(q -e "SELECT COUNT(*) FROM sbtest1")
    [ "$n" = "$TABLE_SIZE" ] || { echo "$me: $1 left $n rows in sbtest1, not $TABLE_SIZE" >&2; return 1; }
}

echo "microbench-mysql benchmark: MariaDB $(q -e 'SELECT VERSION()'), $(sysbench --version), $(nproc) CPUs"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE (1 table, 1 client thread, unix socket)"
echo "innodb_buffer_pool_size $(($(q -e 'SELECT @@innodb_buffer_pool_size') / 1048576))M"
echo

# ---- 3. prepare time: microbench-mysql prepare vs sysbench prepare ---------
prep() {  # ours|sysbench
    q -e "DROP TABLE IF EXISTS sbtest1"
    settle
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
    if ((r % 2)); then o=$(prep ours); p=$(prep sysbench); else p=$(prep sysbench); o=$(prep ours); fi
    prep_o+=("$o") prep_p+=("$p")
    printf '  round %d: ours %8.3f s  sysbench %8.3f s  ratio %5.2fx   (loadavg %s)\n' "$r" "$o" "$p" "$(ratio "$o" "$p")" "$la"
done
echo

# ---- 1 + 2. point-query QPS and client CPU per query -----------------------
# One data set for all QPS runs: microbench-mysql's, flushed, and read once
# through the primary key so every run finds it in the buffer pool.
q -e "DROP TABLE IF EXISTS sbtest1"
"${ours[@]}" prepare >"$log/prep_final.out" 2>&1
check_rows "the final prepare"
settle
q -e "SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest1 FORCE INDEX (PRIMARY)" >/dev/null
echo "sbtest1: $(q -e "SELECT CONCAT(ROUND(data_length / 1048576), ' MB data, ', ROUND(index_length / 1048576), ' MB secondary index') FROM information_schema.tables WHERE table_schema = 'sbtest' AND table_name = 'sbtest1'")"

# One QPS run of ours|sysbench; prints "QPS CPU-us/query CPU-seconds executes".
qps_run() {
    local out=$log/run_$1.out cpu=$log/cpu_$1 e0 e1 v n u s
    local TIMEFORMAT='%3U %3S'
    e0=$(status Com_stmt_execute)
    if [ "$1" = ours ]; then
        { time "${ours[@]}" --threads=1 --time="$RUN_SECONDS" --warmup-time="$WARMUP" \
              --results-file="$workdir/results.jsonl" run point-query >"$out" 2>&1; } 2>"$cpu"
    else
        # --report-checkpoints=WARMUP resets the counters after the warm-up,
        # so the final "queries:" line covers only the last RUN_SECONDS.
        local args=(--threads=1 --time=$((RUN_SECONDS + WARMUP)) --rand-type=uniform)
        ((WARMUP > 0)) && args+=(--report-checkpoints="$WARMUP")
        { time "${sb[@]}" "${args[@]}" oltp_point_select run >"$out" 2>&1; } 2>"$cpu"
    fi
    e1=$(status Com_stmt_execute)
    v=$(sed -n 's/^ *queries: *[0-9]* *(\([0-9.]*\) per sec\.).*/\1/p' "$out" | tail -n 1)
    n=$(sed -n 's/^ *queries: *\([0-9]*\) .*/\1/p' "$out" | tail -n 1)
    if [ -z "$v" ] || [ -z "$n" ]; then
        echo "$me: no 'queries:' line in $1's output" >&2; cat "$out" >&2; return 1
    fi
    # The server's count covers the warm-up too, so it must be the larger.
    ((e1 - e0 >= n)) || { echo "$me: server counted $((e1 - e0)) executes, $1 reported $n queries" >&2; return 1; }
    read -r u s <"$cpu"
    awk -v v="$v" -v u="$u" -v s="$s" -v e=$((e1 - e0)) \
        'BEGIN { printf "%.1f %.3f %.3f %d", v, (u + s) * 1e6 / e, u + s, e }'
}

qo=() qs=() co=() cs=()
echo "raw: point-query QPS (${RUN_SECONDS}s measured + ${WARMUP}s warm-up each; order alternates per round)"
echo "     and client CPU us/query (user+sys of the whole process / server-counted executes, warm-up included)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    if ((r % 2)); then o=$(qps_run ours); s=$(qps_run sysbench); else s=$(qps_run sysbench); o=$(qps_run ours); fi
    read -r oq ou oc on <<<"$o"
    read -r sq su sc sn <<<"$s"
    qo+=("$oq") qs+=("$sq") co+=("$ou") cs+=("$su")
    printf '  round %d: QPS ours %9.1f  sysbench %9.1f (%5.2fx)   CPU us/q ours %6.2f (%.2fs/%d)  sysbench %6.2f (%.2fs/%d) (%5.2fx)   (loadavg %s)\n' \
        "$r" "$oq" "$sq" "$(ratio "$oq" "$sq")" "$ou" "$oc" "$on" "$su" "$sc" "$sn" "$(ratio "$ou" "$su")" "$la"
done
echo

# ---- summary ---------------------------------------------------------------
row() {  # metric ours peer ratio goal-op goal per-round-ratio...
    printf '%-46s %11s %11s %8sx   %-2s %-5s %s\n' "$1" "$2" "$3" "$4" "$5" "$6x" "$(verdict "$5" "$6" "${@:7}")"
}
# each round's ratios, for the verdicts (a sign test, bench/lib.sh)
rq=() rc=() rp=()
for i in "${!qo[@]}"; do rq+=("$(ratio "${qo[i]}" "${qs[i]}" 3)") rc+=("$(ratio "${co[i]}" "${cs[i]}" 3)"); done
for i in "${!prep_o[@]}"; do rp+=("$(ratio "${prep_o[i]}" "${prep_p[i]}" 3)"); done
mqo=$(median "${qo[@]}") mqs=$(median "${qs[@]}")
mco=$(median "${co[@]}") mcs=$(median "${cs[@]}")
po=$(median "${prep_o[@]}") pp=$(median "${prep_p[@]}")
rows_label=$(awk -v n="$TABLE_SIZE" 'BEGIN { if (n % 1000000 == 0) printf "%dM", n / 1000000; else if (n % 1000 == 0) printf "%dk", n / 1000; else printf "%d", n }')
echo "medians of $ROUNDS alternating rounds (goal: a sign test over the rounds, met or MISSED only at 5% or less, else unresolved)"
printf '%-46s %11s %11s %9s   %s\n' metric ours peer ratio goal
row "point-query QPS vs sysbench (MariaDB, socket)" "$(printf '%.0f' "$mqo")" "$(printf '%.0f' "$mqs")" "$(ratio "$mqo" "$mqs")" ">=" 1.05 "${rq[@]}"
row "client CPU us/query vs sysbench" "$(printf '%.2f' "$mco")" "$(printf '%.2f' "$mcs")" "$(ratio "$mco" "$mcs")" "<" 1.00 "${rc[@]}"
row "prepare seconds ($rows_label rows) vs sysbench" "$po" "$pp" "$(ratio "$po" "$pp")" "<=" 0.50 "${rp[@]}"
