# bench/lib.sh — what the benchmark scripts share, so that each script
# holds only what it compares: its settings with their checks, the tools it
# needs, the scratch directory with its throwaway server (stopped and
# removed whatever happens), the server's start and the CPU pinning of
# server and clients, how a run's QPS and client CPU are read, and the
# statistics (medians and per-round ratios), and the summary's rows, each
# judged by the results schema's compare() in a throwaway results database.
# Other load on a shared machine skews timings, so every round prints the
# load average (load).
#
# Sourced by every script in bench/ right after `set -euo pipefail` and
# `shopt -s inherit_errexit`; sets me (the script's name, for messages)
# and top (the repository).
me=${BASH_SOURCE[1]:-lib.sh}
me=${me##*/}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# ---- settings and what the script needs ------------------------------------

# bench_settings NAME=DEFAULT...: each setting from the environment, or its
# default when unset or empty, then checked by its kind, which a setting
# has in every script alike: positive integers first, then row counts,
# then non-negative integers, so that of several wrong settings the one
# named is the one that always was.  PIN_CPU is left to require_pin_cpu:
# the scripts that pin with bench_pinning check it up front, the others
# only hand it to taskset.
bench_settings() {
    local a n positive=() rows=() non_negative=()
    for a; do
        n=${a%%=*}
        printf -v "$n" '%s' "${!n:-${a#*=}}"
        case $n in
        ROUNDS | RUN_SECONDS | PERF_SECONDS | BENCH_PORT | BUFFER_POOL_MB) positive+=("$n") ;;
        TABLE_SIZE | PREPARE_ROWS) rows+=("$n") ;;
        WARMUP) non_negative+=("$n") ;;
        esac
    done
    ((${#positive[@]} == 0)) || require_positive_ints "${positive[@]}"
    ((${#rows[@]} == 0)) || require_row_counts "${rows[@]}"
    ((${#non_negative[@]} == 0)) || require_non_negative_ints "${non_negative[@]}"
}

# Settings checks, each exiting 2 with a one-line message naming the setting:
# require_positive_ints VAR..., require_non_negative_ints VAR...,
# require_row_counts VAR... (positive, and ids are int4: at most 2^31 - 1),
# and require_pin_cpu (PIN_CPU: a CPU number or none).
require_positive_ints() {
    local v
    for v; do [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$me: $v must be a positive integer, not '${!v}'" >&2; exit 2; }; done
}
require_non_negative_ints() {
    local v
    for v; do [[ ${!v} =~ ^[0-9]+$ ]] || { echo "$me: $v must be a non-negative integer, not '${!v}'" >&2; exit 2; }; done
}
require_row_counts() {
    local v n
    require_positive_ints "$@"
    for v; do
        n=${!v}
        # the length first: bash arithmetic wraps past 2^63
        ((${#n} <= 10 && n <= 2147483647)) || { echo "$me: $v must be at most 2147483647, not $n" >&2; exit 2; }
    done
}
require_pin_cpu() {
    [[ $PIN_CPU == none || $PIN_CPU =~ ^[0-9]+$ ]] || { echo "$me: PIN_CPU must be a CPU number or none, not '$PIN_CPU'" >&2; exit 2; }
}

# need COMMAND [HINT]: exits 1, naming COMMAND (and how to get it), unless
# it is on the PATH.
need() {
    command -v "$1" >/dev/null || { echo "$me: $1 not found${2:+ ($2)}" >&2; exit 1; }
}
# need_client FILE: exits 1 unless the client FILE is built (client/).
need_client() {
    [ -x "$1" ] || { echo "$me: $1 not found (make -C client)" >&2; exit 1; }
}

# ---- timing and statistics --------------------------------------------------

load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%." d "f", a / b }'; }   # ratio A B [DECIMALS]
# a row count as the tables label it: 100k, 1M, 12345
size_label() { awk -v n="$1" 'BEGIN { if (n % 1000000 == 0) printf "%dM", n / 1000000; else if (n % 1000 == 0) printf "%dk", n / 1000; else printf "%d", n }'; }

# alternate ROUND FUNCTION A B: FUNCTION A and FUNCTION B back to back, A
# first in odd rounds and B first in even ones, so that neither always
# runs on what the other left (caches, the host's speed); their outputs in
# alt[0] (A's) and alt[1] (B's).
alternate() {
    alt=()
    if (($1 % 2)); then
        alt[0]=$("$2" "$3"); alt[1]=$("$2" "$4")
    else
        alt[1]=$("$2" "$4"); alt[0]=$("$2" "$3")
    fi
}

# qps_cpu_rounds A B LINE: ROUNDS rounds of qps_run A and qps_run B
# (alternate), each printing "QPS CPU-us/query CPU-seconds executes"
# (run_figures); their QPS in qps_a and qps_b, their CPU per query in cpu_a
# and cpu_b, one entry a round.  After each round LINE ROUND LOADAVG, then
# A's four figures and B's, prints it; the load average is taken at the
# round's start.
qps_cpu_rounds() {
    local r la fa fb
    qps_a=() qps_b=() cpu_a=() cpu_b=()
    for ((r = 1; r <= ROUNDS; r++)); do
        la=$(load)
        alternate "$r" qps_run "$1" "$2"
        read -r -a fa <<<"${alt[0]}"
        read -r -a fb <<<"${alt[1]}"
        qps_a+=("${fa[0]}") qps_b+=("${fb[0]}") cpu_a+=("${fa[1]}") cpu_b+=("${fb[1]}")
        "$3" "$r" "$la" "${fa[@]}" "${fb[@]}"
    done
}

# ---- a client run's figures -------------------------------------------------

# timed CPU OUT COMMAND...: runs COMMAND with its output in OUT and its
# user and system CPU seconds in CPU ("U S": the shell's `time`, i.e.
# getrusage of the child, so the whole process: start-up, connection,
# warm-up, the measured window, shut-down).
timed() {
    local cpu=$1 out=$2 TIMEFORMAT='%3U %3S'
    shift 2
    { time "$@" >"$out" 2>&1; } 2>"$cpu"
}

# sysbench_window SECONDS: sb_window, sysbench's options for one client
# thread measured for SECONDS after WARMUP seconds.  sysbench 1.0 has no
# --warmup-time, so it runs WARMUP + SECONDS with --report-checkpoints=WARMUP,
# which resets its counters after the warm-up: the final "queries:" line
# covers only the last SECONDS, as the client's does.  Ids uniform, as the
# client and bench_run draw them (sysbench 1.0 defaults to special).
sysbench_window() {
    sb_window=(--threads=1 --rand-type=uniform --time=$(($1 + WARMUP)))
    ((WARMUP > 0)) && sb_window+=(--report-checkpoints="$WARMUP")
    return 0
}

# queries_rate OUT, queries_count OUT: X and N of the last
# "queries: N (X per sec.)" line of sysbench's or the client's output
# (the client prints sysbench's summary); empty without one.
queries_rate() { sed -n 's/^ *queries: *[0-9]* *(\([0-9.]*\) per sec\.).*/\1/p' "$1" | tail -n 1; }
queries_count() { sed -n 's/^ *queries: *\([0-9]*\) .*/\1/p' "$1" | tail -n 1; }

# run_figures WHO OUT CPU EXECUTES: one run's "QPS CPU-us/query
# CPU-seconds executes" from WHO's output OUT, its CPU seconds (timed) and
# the statements the server executed for it meanwhile, warm-up included
# because the CPU is too.  Fails, saying why, without a "queries:" line or
# when the server counted fewer than the client reported.
run_figures() {
    local who=$1 out=$2 cpu=$3 e=$4 v n u s
    v=$(queries_rate "$out")
    n=$(queries_count "$out")
    if [ -z "$v" ] || [ -z "$n" ]; then
        echo "$me: no 'queries:' line in $who's output" >&2; cat "$out" >&2; return 1
    fi
    # The server's count covers the warm-up too, so it must be the larger.
    ((e >= n)) || { echo "$me: server counted $e executes, $who reported $n queries" >&2; return 1; }
    read -r u s <"$cpu"
    awk -v v="$v" -v u="$u" -v s="$s" -v e="$e" \
        'BEGIN { printf "%.1f %.3f %.3f %d", v, (u + s) * 1e6 / e, u + s, e }'
}

# ---- the scratch directory and its throwaway server -------------------------

# bench_workdir NAME KIND: $workdir (NAME.XXXXXX under TMPDIR), $log in it,
# and $server, the directory of a throwaway KIND server (pg: test/pg_cluster.sh,
# mariadb: test/mariadb_server.sh).  On exit, however it comes, the server
# is stopped (and the summary's results database, judge_start) and the
# directory removed; after a failure the logs' last lines go to stderr first.
bench_workdir() {
    workdir=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    chmod 755 "$workdir"        # the server may run as user postgres or mysql
    bench_server_kind=$2
    server=$workdir/$2
    log=$workdir/log
    mkdir -p "$log"
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}
bench_cleanup() {
    local rc=$?
    case $bench_server_kind in
    pg) "$top/test/pg_cluster.sh" stop "$server" >/dev/null 2>&1 || true ;;
    mariadb) "$top/test/mariadb_server.sh" stop "$server" >/dev/null 2>&1 || true ;;
    esac
    # the summary's results database (judge_start), if it was started
    [ ! -d "$workdir/judge" ] || "$top/test/pg_cluster.sh" stop "$workdir/judge" >/dev/null 2>&1 || true
    if [ $rc -ne 0 ] && [ -d "$log" ]; then
        echo "$me: failed (exit $rc); last log lines:" >&2
        tail -n 20 "$log"/* 2>/dev/null >&2 || true
    fi
    rm -rf "$workdir"
}

# pg_start DB [PREFIX...]: starts the cluster in $server on BENCH_PORT (under
# PREFIX, e.g. "${srv_pin[@]}", which every server process inherits), with
# the connection in PGHOST, PGPORT and PGUSER and none of the caller's other
# libpq settings; q runs psql on database DB, quietly, stopping at the
# first error.
pg_start() {
    pg_db=$1
    shift
    unset PGDATABASE PGSERVICE PGOPTIONS PGHOSTADDR
    eval "$("$@" "$top/test/pg_cluster.sh" start "$server" "$BENCH_PORT")"
    q() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -v ON_ERROR_STOP=1 -d "$pg_db" "$@"; }
}
# pg_pin_postmaster: the running postmaster onto PIN_CPU; backends and
# workers started from now on inherit it.
pg_pin_postmaster() {
    taskset -p -c "$PIN_CPU" "$(head -n 1 "$server/data/postmaster.pid")" >/dev/null
}
# pg_ready_sbtest1: sbtest1 vacuumed, so every run reads the same
# all-visible, hinted heap, and pulled into shared buffers (pg_prewarm, from
# postgresql-contrib, if present) so the first round does not start cold;
# prints its sizes.
pg_ready_sbtest1() {
    q -c "VACUUM (ANALYZE) sbtest1" -c "CHECKPOINT"
    if q -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" 2>/dev/null; then
        q -c "SELECT pg_prewarm('sbtest1_pkey'), pg_prewarm('sbtest1')" >/dev/null
    fi
    echo "sbtest1: $(q -c "SELECT pg_size_pretty(pg_relation_size('sbtest1')) || ' heap, ' || pg_size_pretty(pg_relation_size('sbtest1_pkey')) || ' primary key, shared_buffers ' || current_setting('shared_buffers')")"
}

# mariadb_preflight: mariadb_cli, the mariadb (or mysql) command-line
# client; exits 1 without one, or when BENCH_PORT is taken (the server
# would fail to start after the scratch set-up).
mariadb_preflight() {
    mariadb_cli=$(command -v mariadb || command -v mysql) || { echo "$me: mariadb client not found" >&2; exit 1; }
    if (exec 3<>"/dev/tcp/127.0.0.1/$BENCH_PORT") 2>/dev/null; then
        echo "$me: port $BENCH_PORT is in use; set BENCH_PORT" >&2; exit 1
    fi
}
# mariadb_start [PREFIX...]: starts the server in $server on BENCH_PORT
# (under PREFIX: mariadbd and every thread it starts inherit the CPU of
# taskset); sock is its socket, MYSQL_PWD the accounts' password (never on
# a command line), q runs the mariadb client as user bench on database
# sbtest, status NAME reads a global status variable.
mariadb_start() {
    eval "$("$@" "$top/test/mariadb_server.sh" start "$server" "$BENCH_PORT")"
    # Everything goes over the socket: with MYSQL_HOST=127.0.0.1 set, the
    # mariadb client would use TCP even when given --socket.
    unset MYSQL_HOST MYSQL_TCP_PORT
    export MYSQL_PWD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
    sock=$MYSQL_SOCKET
    q() { "$mariadb_cli" --no-defaults -hlocalhost --socket="$sock" -ubench -N -B sbtest "$@"; }
    status() { q -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f2; }
}
# mariadb_settle: every dirty page flushed (untimed), then the flushing
# settings restored, so that no run pays for an earlier one's writes.
mariadb_settle() {
    local pct cap capmax i
    read -r pct cap capmax < <(q -e "SELECT @@innodb_max_dirty_pages_pct, @@innodb_io_capacity, @@innodb_io_capacity_max")
    q -e "SET GLOBAL innodb_io_capacity_max = 100000, GLOBAL innodb_io_capacity = 50000, GLOBAL innodb_max_dirty_pages_pct = 0"
    for ((i = 0; i < 1200; i++)); do
        [ "$(status Innodb_buffer_pool_pages_dirty)" = 0 ] && break
        sleep 0.1
    done
    q -e "SET GLOBAL innodb_max_dirty_pages_pct = $pct, GLOBAL innodb_io_capacity = $cap, GLOBAL innodb_io_capacity_max = $capmax"
}
# mariadb_ready_sbtest1: sbtest1 flushed and read once through the primary
# key, so every run finds it in the buffer pool.
mariadb_ready_sbtest1() {
    mariadb_settle
    q -e "SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest1 FORCE INDEX (PRIMARY)" >/dev/null
}
# mariadb_sizes: sbtest1's data and secondary index, in MB.
mariadb_sizes() {
    q -e "SELECT CONCAT(ROUND(data_length / 1048576), ' MB data, ', ROUND(index_length / 1048576), ' MB secondary index') FROM information_schema.tables WHERE table_schema = 'sbtest' AND table_name = 'sbtest1'"
}

# check_rows WHAT: fails, naming WHAT, unless sbtest1 holds TABLE_SIZE rows.
check_rows() {
    local n
    case $bench_server_kind in
    pg) n=$(q -c "SELECT count(*) FROM sbtest1") ;;
    mariadb) n=$(q -e "SELECT COUNT(*) FROM sbtest1") ;;
    esac
    [ "$n" = "$TABLE_SIZE" ] || { echo "$me: $1 left $n rows in sbtest1, not $TABLE_SIZE" >&2; return 1; }
}

# ---- the summary: every row judged by compare() ----------------------------
# A row's ratio, its interval and its verdict on a goal come from the
# results schema's compare(), the function behind every report of
# microbench compare, so that the harness is held to the statistics it
# sells: each round's two figures are a pair, the ratio is the pairs'
# geometric mean (their trimmed mean from ten rounds on), and the interval
# is Student's t on the pairs' spread.  A goal "ratio OP GOAL" is met when
# the whole interval lies on its side, MISSED when the whole interval lies
# on the other, else unresolved: the rounds cannot tell the ratio from the
# goal.  The runs are inserted and judged in a transaction that is rolled
# back: nothing stays in the database.

# judge_start: a throwaway results database for the summary ($workdir/judge,
# test/pg_cluster.sh, stopped with the rest), the schema loaded from
# results_schema/.  Started after the measuring, so it disturbs no round.
judge_start() {
    "$top/test/pg_cluster.sh" start "$workdir/judge" "$BENCH_PORT" >"$workdir/judge.env" 2>"$log/judge_start.err" \
        || { echo "$me: the results database for the summary did not start" >&2; cat "$log/judge_start.err" >&2; return 1; }
    judge_env=$(<"$workdir/judge.env")
    judge_db=postgres
    cat "$top"/results_schema/*.sql | judge_psql >"$log/judge_schema.out"
}
# judge_psql ARG...: psql on judge_db, reached by judge_env (the variables
# pg_cluster.sh printed; empty: the caller's own), quietly, stopping at the
# first error; in a subshell, so the measured server's settings stay.
judge_psql() {
    (
        eval "$judge_env"
        unset PGDATABASE PGSERVICE PGHOSTADDR
        PGOPTIONS='-c client_min_messages=warning' psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 -d "$judge_db" "$@"
    )
}

# judge KIND OURS PEER [OP GOAL]: the ratio ours/peer of the figures in the
# arrays named OURS and PEER (one a round, paired by round), as
# "RATIO LOW HIGH LEVEL VERDICT" (VERDICT: met, MISSED, unresolved, or -
# without a goal; LOW, HIGH and LEVEL - without an interval).  KIND says
# which way is better: rate (QPS: higher) or cost (seconds, CPU per query:
# lower).  A rate is a run's QPS as it is; a cost goes in turned over (a
# run's rate is 1 / cost) with the sides swapped, so that compare()'s
# ratio, other / base, reads ours / peer either way.  OP: >=, >, <=, <.
judge() {
    local kind=$1 op=${4:--} goal=${5:-0}
    local -n judged_ours=$2 judged_peer=$3
    case $kind in rate | cost) ;; *) echo "$me: judge: KIND must be rate or cost, not '$kind'" >&2; return 2 ;; esac
    case $op in '>=' | '>' | '<=' | '<' | -) ;; *) echo "$me: judge: OP must be >=, >, <= or <, not '$op'" >&2; return 2 ;; esac
    ((${#judged_ours[@]} == ${#judged_peer[@]})) \
        || { echo "$me: judge: $2 has ${#judged_ours[@]} rounds, $3 ${#judged_peer[@]}" >&2; return 2; }
    local judged_figure
    for judged_figure in "${judged_ours[@]}" "${judged_peer[@]}"; do
        # a ratio is taken on the log scale: a figure must be above 0
        [[ $judged_figure =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] \
            && awk -v f="$judged_figure" 'BEGIN { exit !(f > 0) }' \
            || { echo "$me: judge: a figure must be a number above 0, not '$judged_figure'" >&2; return 2; }
    done
    judge_psql -v kind="$kind" -v op="$op" -v goal="$goal" \
        -v ours="${judged_ours[*]}" -v peer="${judged_peer[*]}" <<'SQL'
BEGIN;
-- each round's two figures as two runs of that round; the catalog's
-- point-query names the cell, whatever was measured
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                             rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                             events, queries, qps, tps, round)
SELECT 'postgres', 'bench', s.label, 'point-query', 'post', 1, 0, 1, 'uniform', 1, 0,
       now() + f.round * interval '1 minute', now() + f.round * interval '1 minute' + interval '1 second',
       1, 1, 1, s.rate, s.rate, f.round
FROM unnest(string_to_array(:'ours', ' ')::float8[], string_to_array(:'peer', ' ')::float8[])
     WITH ORDINALITY AS f(ours, peer, round),
     LATERAL (VALUES ('ours', f.ours), ('peer', f.peer)) AS v(label, figure),
     LATERAL (SELECT v.label, CASE :'kind' WHEN 'rate' THEN v.figure ELSE 1 / v.figure END AS rate) AS s;
SELECT round(c.ratio::numeric, 3),
       coalesce(round(c.ci_low::numeric, 3)::text, '-'), coalesce(round(c.ci_high::numeric, 3)::text, '-'),
       coalesce(round((100 * c.level)::numeric, 1)::text || '%', '-'),
       -- (an end that lands exactly on the goal is left unresolved, strict or not)
       CASE WHEN :'op' = '-' THEN '-'
            WHEN c.ci_low IS NULL THEN 'unresolved'
            WHEN :'op' IN ('>=', '>') AND c.ci_low > :'goal'::float8 THEN 'met'
            WHEN :'op' IN ('>=', '>') AND c.ci_high < :'goal'::float8 THEN 'MISSED'
            WHEN :'op' IN ('<=', '<') AND c.ci_high < :'goal'::float8 THEN 'met'
            WHEN :'op' IN ('<=', '<') AND c.ci_low > :'goal'::float8 THEN 'MISSED'
            ELSE 'unresolved' END
FROM microbench.compare(CASE :'kind' WHEN 'rate' THEN 'peer' ELSE 'ours' END,
                        CASE :'kind' WHEN 'rate' THEN 'ours' ELSE 'peer' END, 'qps_mean') AS c;
ROLLBACK;
SQL
}

# summary_header OURS PEER: the summary's title and column heads, OURS and
# PEER naming the two sides (ours and peer, new and old).
summary_header() {
    echo "summary of $ROUNDS alternating rounds: each side's median; ratio $1/$2 and its interval from compare() over the rounds' pairs; a goal met or MISSED only when the whole interval lies on one side of it"
    printf '%-46s %11s %11s %8s  %-15s %s\n' metric "$1" "$2" ratio interval goal
}
# summary_row NAME FORMAT KIND OURS PEER [OP GOAL]: one line of the summary:
# NAME, each side's median (printf FORMAT), and judge's ratio, interval and
# verdict on "ratio OP GOAL" (without a goal: information).
summary_row() {
    local name=$1 format=$2 kind=$3 ours=$4 peer=$5 op=${6:-} goal=${7:-}
    local -n row_ours=$4 row_peer=$5
    local ratio low high level verdict goal_text interval
    read -r ratio low high level verdict < <(judge "$kind" "$ours" "$peer" ${op:+"$op" "$goal"})
    [ -n "$ratio" ] || { echo "$me: no ratio for '$name'" >&2; return 1; }
    interval="-"
    [ "$low" = - ] || interval="$low-${high}x"
    goal_text="(information, no goal)"
    [ -z "$op" ] || goal_text="$op ${goal}x  $verdict"
    printf "%-46s %11s %11s %7sx  %-15s %s\n" "$name" "$(printf "$format" "$(median "${row_ours[@]}")")" \
        "$(printf "$format" "$(median "${row_peer[@]}")")" "$ratio" "$interval" "$goal_text"
}

# ---- CPU pinning ------------------------------------------------------------

# the CPUs other than $1, as a taskset list ("1" on a 2-CPU machine)
other_cpus() { awk -v n="$(nproc)" -v p="$1" 'BEGIN { s = ""; for (i = 0; i < n; i++) if (i != p) s = s (s == "" ? "" : ",") i; print s }'; }
# the CPUs a process may run on (its Cpus_allowed_list), e.g. "0"
cpus_of() { awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# bench_pinning: srv_pin and cli_pin, taskset prefixes that put the server
# on CPU PIN_CPU and the clients on the others; both empty with PIN_CPU=none.
bench_pinning() {
    srv_pin=() cli_pin=()
    [ "$PIN_CPU" = none ] && return 0
    command -v taskset >/dev/null || { echo "$me: taskset not found (util-linux); PIN_CPU=none to not pin" >&2; exit 1; }
    (($(nproc) >= 2)) || { echo "$me: pinning needs 2 CPUs, this machine has $(nproc); PIN_CPU=none to not pin" >&2; exit 1; }
    ((PIN_CPU < $(nproc))) || { echo "$me: no CPU $PIN_CPU (CPUs 0..$(($(nproc) - 1)))" >&2; exit 2; }
    srv_pin=(taskset -c "$PIN_CPU")
    cli_pin=(taskset -c "$(other_cpus "$PIN_CPU")")
}
# bench_check_pinning: says how server and clients are pinned, after
# checking, with pinning on, that the server started under srv_pin can
# run on PIN_CPU only: every thread of mariadbd, or the postmaster and
# every process it forked.  Exits 1 if not.
bench_check_pinning() {
    if ((${#srv_pin[@]} == 0)); then
        echo "not pinned (PIN_CPU=none)"
        return 0
    fi
    local pid ids=() kids=() tasks=() what label cpus
    case $bench_server_kind in
    mariadb)
        pid=$(cat "$server/mariadbd.pid")
        tasks=(/proc/"$pid"/task/*)
        ids=("${tasks[@]#/proc/}")
        what="mariadbd threads" label="mariadbd (all ${#ids[@]} threads)"
        ;;
    pg)
        pid=$(head -n 1 "$server/data/postmaster.pid")
        # shellcheck disable=SC2207 # pids: words without blanks or globs
        kids=($(ps -o pid= --ppid "$pid"))
        ids=("$pid" "${kids[@]}")
        what="server processes" label="server (postmaster and its ${#kids[@]} processes)"
        ;;
    esac
    cpus=$(for pid in "${ids[@]}"; do cpus_of "$pid"; done | sort -u | paste -sd' ')
    [ "$cpus" = "$PIN_CPU" ] || { echo "$me: $what allowed on CPU(s) '$cpus', not $PIN_CPU" >&2; exit 1; }
    echo "$label pinned to CPU $PIN_CPU, clients to CPU(s) $(other_cpus "$PIN_CPU") (PIN_CPU=none to not pin)"
}
