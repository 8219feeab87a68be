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
# noise); no goal is checked.  The summary's ratios and their intervals
# come from the results schema's compare() over the rounds' pairs
# (summary_row, bench/lib.sh), in a throwaway Postgres started for it.
#
# The old client is OLD_CLIENT if set; otherwise it is built from OLD_REV
# (`git archive OLD_REV`, extracted and `make -C client` in the scratch
# directory, or `make -C mysql_client` for a revision from before the
# client moved there: the working tree and its .git are not touched).  Both
# binaries are copied at the start, so a rebuild of client/ during the run
# cannot change either between rounds.
#
# Needs: the new client (make -C client), git (unless OLD_CLIENT is
# given), the mariadb client, test/mariadb_server.sh (mariadb-server),
# Postgres (pg_config; test/pg_cluster.sh) for the summary.
# Settings (environment):
#   OLD_CLIENT=         the client before; unset: built from OLD_REV
#   OLD_REV=4f80e27     the commit to build it from
#   NEW_CLIENT=client/microbench   the client after
#   ROUNDS=5            alternating rounds
#   RUN_SECONDS=5       measured seconds per run (integer)
#   WARMUP=2            warm-up seconds before each run (--warmup-time, excluded)
#   TABLE_SIZE=100000   rows in sbtest1
#   BENCH_PORT=3351     TCP port of the throwaway server (loopback; unused here)
#   PIN_CPU=0           CPU of mariadbd (all its threads); the clients get the
#                       other CPU(s); "none" to not pin
#   MB_MYSQL_ROOT_PASSWORD=microbench  password of the server's accounts
# Usage: bench/compare_clients.sh
#        OLD_CLIENT=/tmp/mb-old/client/microbench bench/compare_clients.sh
set -euo pipefail
shopt -s inherit_errexit        # a failing step inside $(...) fails the script
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_settings ROUNDS=5 RUN_SECONDS=5 WARMUP=2 TABLE_SIZE=100000 BENCH_PORT=3351 PIN_CPU=0 \
    OLD_REV=4f80e27 NEW_CLIENT="$top/client/microbench"
require_pin_cpu
need_client "$NEW_CLIENT"
if [ -n "${OLD_CLIENT:-}" ]; then
    [ -x "$OLD_CLIENT" ] || { echo "$me: OLD_CLIENT $OLD_CLIENT is not an executable" >&2; exit 1; }
else
    git -C "$top" rev-parse --verify -q "$OLD_REV^{commit}" >/dev/null \
        || { echo "$me: no commit $OLD_REV in $top (set OLD_REV, or OLD_CLIENT to a built client)" >&2; exit 1; }
fi
need "${PG_CONFIG:-pg_config}" "apt-get install postgresql postgresql-server-dev-all: the summary's results database"
mariadb_preflight

bench_pinning

bench_workdir mb_compare_clients mariadb

if [ -z "${OLD_CLIENT:-}" ]; then
    mkdir -p "$workdir/src"
    git -C "$top" archive "$OLD_REV" | tar -x -C "$workdir/src"
    # the client's folder: client/ since the move, mysql_client/ before it
    old_dir=$workdir/src/client
    [ -d "$old_dir" ] || old_dir=$workdir/src/mysql_client
    make -C "$old_dir" >"$log/build_old.out" 2>&1
    # early revisions built the client as microbench-mysql only
    OLD_CLIENT=$old_dir/microbench
    [ -x "$OLD_CLIENT" ] || OLD_CLIENT=$old_dir/microbench-mysql
    old_label="built from $(git -C "$top" rev-parse --short "$OLD_REV")"
else
    old_label=$OLD_CLIENT
fi
cp "$OLD_CLIENT" "$workdir/old"
cp "$NEW_CLIENT" "$workdir/new"

mariadb_start "${srv_pin[@]}"

# The same options for both; no --mysql-password: it comes from MYSQL_PWD.
conn=(--mysql-socket="$sock" --mysql-user=bench --mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE")

echo "mysql driver before/after: MariaDB $(q -e 'SELECT VERSION()'), $(nproc) CPUs"
echo "old: $old_label"
echo "new: $NEW_CLIENT"
echo "ROUNDS=$ROUNDS RUN_SECONDS=$RUN_SECONDS WARMUP=$WARMUP TABLE_SIZE=$TABLE_SIZE (1 table, 1 client thread, unix socket)"
bench_check_pinning

# ---- the data set: the new client's, flushed, read once ---------------------
"${cli_pin[@]}" "$workdir/new" "${conn[@]}" prepare >"$log/prepare.out" 2>&1
check_rows prepare
mariadb_ready_sbtest1
echo "sbtest1: $(mariadb_sizes), innodb_buffer_pool_size $(($(q -e 'SELECT @@innodb_buffer_pool_size') / 1048576))M"
echo

# One run of old|new, measured seconds $2 (RUN_SECONDS by default);
# prints "QPS CPU-us/query CPU-seconds executes".
qps_run() {
    local e0 e1
    e0=$(status Com_stmt_execute)
    timed "$log/cpu_$1" "$log/run_$1.out" "${cli_pin[@]}" "$workdir/$1" "${conn[@]}" --threads=1 \
        --time="${2:-$RUN_SECONDS}" --warmup-time="$WARMUP" --results-file="$workdir/results.jsonl" run point-query
    e1=$(status Com_stmt_execute)
    run_figures "the $1 client" "$log/run_$1.out" "$log/cpu_$1" $((e1 - e0))
}

# An untimed pass of each (not reported): first use is paid by neither round.
qps_run old 2 >/dev/null; qps_run new 2 >/dev/null

round_line() {  # round loadavg, then old's and new's QPS CPU-us/query CPU-seconds executes
    printf '  round %d: QPS old %9.1f  new %9.1f (new/old %5.3fx)   CPU us/q old %6.2f (%.2fs/%d)  new %6.2f (%.2fs/%d) (new/old %5.3fx)   (loadavg %s)\n' \
        "$1" "$3" "$7" "$(ratio "$7" "$3" 3)" "$4" "$5" "$6" "$8" "$9" "${10}" "$(ratio "$8" "$4" 3)" "$2"
}
echo "raw: point-query QPS (${RUN_SECONDS}s measured + ${WARMUP}s warm-up each; odd rounds old first, even rounds new first)"
echo "     and client CPU us/query (user+sys of the whole process / server-counted executes, warm-up included)"
qps_cpu_rounds old new round_line
qo=("${qps_a[@]}") qn=("${qps_b[@]}") co=("${cpu_a[@]}") cn=("${cpu_b[@]}")
echo

# ---- summary ---------------------------------------------------------------
# every row judged by the results schema's compare() (bench/lib.sh)
judge_start
echo "$(size_label "$TABLE_SIZE") rows"
summary_header new old
summary_row "point-query QPS, mysql driver new vs old" %.0f rate qn qo
summary_row "client CPU us/query, new vs old" %.2f cost cn co
