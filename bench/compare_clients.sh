#!/usr/bin/env bash
# bench/compare_clients.sh — the client's mysql driver before and after a
# change (by default: the move behind the driver interface, on top of commit
# 4f80e27), as RATIOS new/old on MariaDB.
#
# Starts one throwaway MariaDB server (test/mariadb_server.sh, stopped and
# removed on exit) pinned to PIN_CPU, loads sbtest1 once with the new
# client's `prepare`, and compares, in alternating rounds whose medians are
# reported, `run point-query` of the old and the new client (each pinned to
# the other CPU(s); one client thread, unix socket, the same table):
#
#   1. point-query QPS, new/old (higher is better);
#   2. client CPU per query, new/old (lower is better): user+sys CPU of the
#      whole client process (the shell's `time`) divided by the number of
#      prepared statements the server executed for it (the change in
#      Com_stmt_execute, warm-up included, because the CPU is too).
#
# Both are information (a refactor should leave them at 1.0 within the
# noise); no goal is checked.
#
# The old client is OLD_CLIENT if set; otherwise it is built from OLD_REV
# (`git archive OLD_REV`, extracted and `make -C mysql_client` in the
# scratch directory: the working tree and its .git are not touched).  Both
# binaries are copied at the start, so a rebuild of mysql_client/ during the
# run cannot change either between rounds.
#
# Needs: the new client (make -C mysql_client), git (unless OLD_CLIENT is
# given), the mariadb client, test/mariadb_server.sh (mariadb-server).
# Settings (environment):
#   OLD_CLIENT=         the client before; unset: built from OLD_REV
#   OLD_REV=4f80e27     the commit to build it from
#   NEW_CLIENT=mysql_client/microbench   the client after
#   ROUNDS=5            alternating rounds
#   RUN_SECONDS=5       measured seconds per run (integer)
#   WARMUP=2            warm-up seconds before each run (--warmup-time, excluded)
#   TABLE_SIZE=100000   rows in sbtest1
#   BENCH_PORT=3351     TCP port of the throwaway server (loopback; unused here)
#   PIN_CPU=0           CPU of mariadbd (all its threads); the clients get the
#                       other CPU(s); "none" to not pin
#   MB_MYSQL_ROOT_PASSWORD=microbench  password of the server's accounts
# Usage: bench/compare_clients.sh
#        OLD_CLIENT=/tmp/mb-old/mysql_client/microbench-mysql bench/compare_clients.sh
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script

ROUNDS=${ROUNDS:-5}
RUN_SECONDS=${RUN_SECONDS:-5}
WARMUP=${WARMUP:-2}
TABLE_SIZE=${TABLE_SIZE:-100000}
BENCH_PORT=${BENCH_PORT:-3351}
PIN_CPU=${PIN_CPU:-0}
OLD_REV=${OLD_REV:-4f80e27}

me=compare_clients.sh
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/bench/lib.sh"
require_positive_ints ROUNDS RUN_SECONDS BENCH_PORT
require_row_counts TABLE_SIZE
require_non_negative_ints WARMUP
require_pin_cpu

NEW_CLIENT=${NEW_CLIENT:-$top/mysql_client/microbench}
[ -x "$NEW_CLIENT" ] || { echo "$me: $NEW_CLIENT not found (make -C mysql_client)" >&2; exit 1; }
if [ -n "${OLD_CLIENT:-}" ]; then
    [ -x "$OLD_CLIENT" ] || { echo "$me: OLD_CLIENT $OLD_CLIENT is not an executable" >&2; exit 1; }
else
    git -C "$top" rev-parse --verify -q "$OLD_REV^{commit}" >/dev/null \
        || { echo "$me: no commit $OLD_REV in $top (set OLD_REV, or OLD_CLIENT to a built client)" >&2; exit 1; }
fi
mariadb_cli=$(command -v mariadb || command -v mysql) || { echo "$me: mariadb client not found" >&2; exit 1; }
if (exec 3<>"/dev/tcp/127.0.0.1/$BENCH_PORT") 2>/dev/null; then
    echo "$me: port $BENCH_PORT is in use; set BENCH_PORT" >&2; exit 1
fi

bench_pinning

bench_workdir mb_compare_clients mariadb

if [ -z "${OLD_CLIENT:-}" ]; then
    mkdir -p "$workdir/src"
    git -C "$top" archive "$OLD_REV" | tar -x -C "$workdir/src"
    make -C "$workdir/src/mysql_client" >"$log/build_old.out" 2>&1
    OLD_CLIENT=$workdir/src/mysql_client/microbench-mysql
    old_label="built from $(git -C "$top" rev-parse --short "$OLD_REV")"
else
    old_label=$OLD_CLIENT
fi
cp "$OLD_CLIENT" "$workdir/old"
cp "$NEW_CLIENT" "$workdir/new"

# mariadbd and every thread it starts inherit the CPU of taskset.
eval "$("${srv_pin[@]}" "$top/test/mariadb_server.sh" start "$server" "$BENCH_PORT")"
# Everything goes over the socket: with MYSQL_HOST=127.0.0.1 set, the mariadb
# client would use TCP even when given --socket.
unset MYSQL_HOST MYSQL_TCP_PORT
export MYSQL_PWD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
sock=$MYSQL_SOCKET

q() { "$mariadb_cli" --no-defaults -hlocalhost --socket="$sock" -ubench -N -B sbtest "$@"; }
status() { q -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f2; }

# The same options for both; no --mysql-password: it comes from MYSQL_PWD.
conn=(--mysql-socket="$sock" --mysql-user=bench --mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE")

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

echo "mysql driver before/after: MariaDB $(q -e 'SELECT VERSION()'), $(nproc) CPUs"
echo "old: $old_label"
echo "new: $NEW_CLIENT"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE (1 table, 1 client thread, unix socket)"
if ((${#srv_pin[@]})); then
    spid=$(cat "$server/mariadbd.pid")
    threads=(/proc/"$spid"/task/*)
    cpus=$(for t in "${threads[@]}"; do cpus_of "${t#/proc/}"; done | sort -u | paste -sd' ')
    [ "$cpus" = "$PIN_CPU" ] || { echo "$me: mariadbd threads allowed on CPU(s) '$cpus', not $PIN_CPU" >&2; exit 1; }
    echo "mariadbd (all ${#threads[@]} threads) pinned to CPU $PIN_CPU, clients to CPU(s) $(other_cpus "$PIN_CPU") (PIN_CPU=none to not pin)"
else
    echo "not pinned (PIN_CPU=none)"
fi

# ---- the data set: the new client's, flushed, read once ---------------------
"${cli_pin[@]}" "$workdir/new" "${conn[@]}" prepare >"$log/prepare.out" 2>&1
n=$(q -e "SELECT COUNT(*) FROM sbtest1")
[ "$n" = "$TABLE_SIZE" ] || { echo "$me: prepare left $n rows in sbtest1, not $TABLE_SIZE" >&2; exit 1; }
settle
q -e "SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest1 FORCE INDEX (PRIMARY)" >/dev/null
echo "sbtest1: $(q -e "SELECT CONCAT(ROUND(data_length / 1048576), ' MB data, ', ROUND(index_length / 1048576), ' MB secondary index') FROM information_schema.tables WHERE table_schema = 'sbtest' AND table_name = 'sbtest1'"), innodb_buffer_pool_size $(($(q -e 'SELECT @@innodb_buffer_pool_size') / 1048576))M"
echo

# One run of old|new, measured seconds $2 (RUN_SECONDS by default);
# prints "QPS CPU-us/query CPU-seconds executes".
qps_run() {
    local secs=${2:-$RUN_SECONDS} out=$log/run_$1.out cpu=$log/cpu_$1 e0 e1 v n u s
    local TIMEFORMAT='%3U %3S'
    e0=$(status Com_stmt_execute)
    { time "${cli_pin[@]}" "$workdir/$1" "${conn[@]}" --threads=1 --time="$secs" --warmup-time="$WARMUP" \
          --results-file="$workdir/results.jsonl" run point-query >"$out" 2>&1; } 2>"$cpu"
    e1=$(status Com_stmt_execute)
    v=$(sed -n 's/^ *queries: *[0-9]* *(\([0-9.]*\) per sec\.).*/\1/p' "$out" | tail -n 1)
    n=$(sed -n 's/^ *queries: *\([0-9]*\) .*/\1/p' "$out" | tail -n 1)
    if [ -z "$v" ] || [ -z "$n" ]; then
        echo "$me: no 'queries:' line in the $1 client's output" >&2; cat "$out" >&2; return 1
    fi
    # The server's count covers the warm-up too, so it must be the larger.
    ((e1 - e0 >= n)) || { echo "$me: server counted $((e1 - e0)) executes, the $1 client reported $n queries" >&2; return 1; }
    read -r u s <"$cpu"
    awk -v v="$v" -v u="$u" -v s="$s" -v e=$((e1 - e0)) \
        'BEGIN { printf "%.1f %.3f %.3f %d", v, (u + s) * 1e6 / e, u + s, e }'
}

# An untimed pass of each (not reported): first use is paid by neither round.
qps_run old 2 >/dev/null; qps_run new 2 >/dev/null

qo=() qn=() co=() cn=() rq=() rc=()
echo "raw: point-query QPS (${RUN_SECONDS}s measured + ${WARMUP}s warm-up each; odd rounds old first, even rounds new first)"
echo "     and client CPU us/query (user+sys of the whole process / server-counted executes, warm-up included)"
for ((r = 1; r <= ROUNDS; r++)); do
    la=$(load)
    if ((r % 2)); then o=$(qps_run old); n=$(qps_run new); else n=$(qps_run new); o=$(qps_run old); fi
    read -r oq ou oc on <<<"$o"
    read -r nq nu nc nn <<<"$n"
    qo+=("$oq") qn+=("$nq") co+=("$ou") cn+=("$nu")
    rq+=("$(ratio "$nq" "$oq" 3)") rc+=("$(ratio "$nu" "$ou" 3)")
    printf '  round %d: QPS old %9.1f  new %9.1f (new/old %5.3fx)   CPU us/q old %6.2f (%.2fs/%d)  new %6.2f (%.2fs/%d) (new/old %5.3fx)   (loadavg %s)\n' \
        "$r" "$oq" "$nq" "$(ratio "$nq" "$oq" 3)" "$ou" "$oc" "$on" "$nu" "$nc" "$nn" "$(ratio "$nu" "$ou" 3)" "$la"
done
echo

# ---- summary ---------------------------------------------------------------
mqo=$(median "${qo[@]}") mqn=$(median "${qn[@]}")
mco=$(median "${co[@]}") mcn=$(median "${cn[@]}")
echo "medians of $ROUNDS alternating rounds, $(size_label "$TABLE_SIZE") rows (ratio: median of per-round ratios new/old; med/med: ratio of the medians)"
printf '%-46s %11s %11s %8s %9s   %s\n' metric new old ratio med/med goal
printf '%-46s %11s %11s %7.3fx %8.3fx   %s\n' "point-query QPS, mysql driver new vs old" \
    "$(printf '%.0f' "$mqn")" "$(printf '%.0f' "$mqo")" "$(median "${rq[@]}")" "$(ratio "$mqn" "$mqo" 3)" "(information, no goal)"
printf '%-46s %11s %11s %7.3fx %8.3fx   %s\n' "client CPU us/query, new vs old" \
    "$(printf '%.2f' "$mcn")" "$(printf '%.2f' "$mco")" "$(median "${rc[@]}")" "$(ratio "$mcn" "$mco" 3)" "(information, no goal)"
