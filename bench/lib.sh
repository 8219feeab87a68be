# bench/lib.sh — what the benchmark scripts share: wall-clock stamps,
# medians and ratios, the load average printed with each round (other load
# on a shared machine skews timings, so every round shows it), the scratch
# directory with its throwaway server, removed whatever happens, and the
# CPU pinning of server and clients.  Sourced by bench/run_bench.sh,
# bench/run_bench_mysql.sh, bench/run_bench_pgsql.sh, bench/compare_clients.sh
# and bench/profile_point_query.sh, each of which sets me (its name) and top (the
# repository) first.

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

load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%." d "f", a / b }'; }   # ratio A B [DECIMALS]

# verdict OP GOAL RATIO...: whether per-round ratios meet "ratio OP GOAL"
# (OP: >=, <=, >, <), as a sign test over the rounds.  If the true median
# ratio were the goal, each round would meet it with probability 1/2;
# "met" when as many rounds as meet it would happen by chance at most 5% of
# the time (5 rounds: all 5; 8 rounds: 7), "MISSED" when as few would,
# else "unresolved": the rounds do not tell the ratio from the goal, and a
# median that crosses the goal by noise neither passes nor fails.
verdict() {
    local op=$1 goal=$2
    shift 2
    awk -v op="$op" -v g="$goal" -v list="$*" 'BEGIN {
        n = split(list, r, " "); k = 0
        for (i = 1; i <= n; i++)
            k += op == ">=" ? r[i] >= g : op == "<=" ? r[i] <= g : op == "<" ? r[i] < g : r[i] > g
        # P(X >= k) and P(X <= k) for X ~ Binomial(n, 1/2)
        c = 1; up = 0; down = 0
        for (j = 0; j <= n; j++) { p = c / 2 ^ n; if (j >= k) up += p; if (j <= k) down += p; c = c * (n - j) / (j + 1) }
        printf "%s (%d of %d rounds)", up <= 0.05 ? "met" : (down <= 0.05 ? "MISSED" : "unresolved"), k, n
    }'
}

# the CPUs other than $1, as a taskset list ("1" on a 2-CPU machine)
other_cpus() { awk -v n="$(nproc)" -v p="$1" 'BEGIN { s = ""; for (i = 0; i < n; i++) if (i != p) s = s (s == "" ? "" : ",") i; print s }'; }
# the CPUs a process may run on (its Cpus_allowed_list), e.g. "0"
cpus_of() { awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# a row count as the tables label it: 100k, 1M, 12345
size_label() { awk -v n="$1" 'BEGIN { if (n % 1000000 == 0) printf "%dM", n / 1000000; else if (n % 1000 == 0) printf "%dk", n / 1000; else printf "%d", n }'; }

# bench_workdir NAME KIND: $workdir (NAME.XXXXXX under TMPDIR), $log in it,
# and $server, the directory of a throwaway KIND server (pg: test/pg_cluster.sh,
# mariadb: test/mariadb_server.sh).  On exit, however it comes, the server
# is stopped and the directory removed; after a failure the logs' last
# lines go to stderr first.
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
    if [ $rc -ne 0 ] && [ -d "$log" ]; then
        echo "$me: failed (exit $rc); last log lines:" >&2
        tail -n 20 "$log"/* 2>/dev/null >&2 || true
    fi
    rm -rf "$workdir"
}

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
