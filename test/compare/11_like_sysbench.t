#!/usr/bin/env bash
# 11_like_sysbench.t — `microbench --db-driver=pgsql` makes the backend do
# what sysbench 1.0's pgsql driver makes it do: the server runs under
# callgrind collecting inside PostgresMain only (the socket reads, where a
# backend waits for its client, and the statistics flush, which runs on a
# timer, left out), each client runs N1 and then N2 events with one seed
# (so the first N1 events of both runs are the same), and the backend's
# instructions per event are (total(N2) - total(N1)) / (N2 - N1): what
# connecting, preparing and exiting cost cancels.  For point-query
# (oltp_point_select) and read-only with ranges of 10 and 100 rows
# (oltp_read_only --range_size), the two clients agree within 0.2%.
# glibc's malloc runs with fixed thresholds: left to itself it gives the
# heap's top back to the kernel and takes it again at every statement or
# not, by where that top happens to lie after all that came before (worth
# 0.1-0.3% of a point query on Postgres 15, one backend or the other),
# which says nothing about what the client sent.  The
# table and its indexes are in shared buffers first: a block read from
# disk in one run and not in the other is not the client's doing.
set -u
. "$(dirname "$0")/lib.sh"

SYSBENCH=${MB_SYSBENCH:-$(command -v sysbench)}
port=55498
rows=10000
run_as() {  # run_as USER COMMAND...: as USER when we are root
    local user=$1; shift
    if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}
needed() {  # needed STATUS WHAT LOG: a step the rest depends on
    ok "$1" "$2"
    [ "$1" -eq 0 ] && return
    echo "Bail out! $2 failed: $(tail -5 "$3" 2>/dev/null | tr '\n' ' ')"
    exit 1
}
await_pg() {  # await_pg PID: until the server accepts connections, or is gone
    local i
    for i in $(seq 600); do
        "$PG_PREFIX/bin/pg_isready" -q -h "$pg" -p $port && return
        kill -0 "$1" 2>/dev/null || return
        sleep 0.1
    done
}
if [ -z "$SYSBENCH" ]; then
    echo "1..0 # SKIP sysbench is not installed"
    exit 0
fi

chmod 755 "$scratch"
pg="$scratch/pg"
mkdir -p "$pg/cg"
chmod 1777 "$pg/cg"
[ "$(id -u)" = 0 ] && chown postgres: "$pg"
user=$(run_as postgres id -un)
run_as postgres "$PG_PREFIX/bin/initdb" -D "$pg/data" --auth=trust --no-sync -E UTF8 --locale=C >"$pg/initdb.log" 2>&1
needed $? "initdb" "$pg/initdb.log"
settings=(-c port=$port -c listen_addresses= -c unix_socket_directories="$pg"
          -c shared_buffers=256MB -c autovacuum=off)

# the table, loaded by a server not under valgrind
run_as postgres "$PG_PREFIX/bin/pg_ctl" -D "$pg/data" -w -l "$pg/load.log" -o "${settings[*]}" start >/dev/null
needed $? "the server starts" "$pg/load.log"
"$PG_PREFIX/bin/createdb" -h "$pg" -p $port -U "$user" sbtest
"$MB" --db-driver=pgsql --pgsql-host="$pg" --pgsql-port=$port --pgsql-user="$user" --pgsql-db=sbtest \
    --tables=1 --table-size=$rows prepare >"$pg/prepare.log" 2>&1
needed $? "10,000 rows prepared" "$pg/prepare.log"
"$PG_PREFIX/bin/psql" -X -q -h "$pg" -p $port -U "$user" -d sbtest -c "VACUUM ANALYZE sbtest1" \
    -c "SET client_min_messages = warning" -c "CREATE EXTENSION microbench" >/dev/null
run_as postgres "$PG_PREFIX/bin/pg_ctl" -D "$pg/data" -w -m fast stop >/dev/null

# counted: inside PostgresMain, less the reads from the socket and the timed statistics flush
# (--toggle-collect switches collection on entering and off leaving each, nested)
tunables=glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=67108864
run_as postgres env GLIBC_TUNABLES=$tunables valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect=PostgresMain --toggle-collect=secure_read --toggle-collect=pgstat_report_stat \
    --callgrind-out-file="$pg/cg/cg.%p" --dump-instr=no --dump-line=no \
    "$PG_PREFIX/bin/postgres" -D "$pg/data" "${settings[@]}" >"$pg/server.log" 2>&1 &
server=$!
at_exit "kill -INT \$(head -1 '$pg/data/postmaster.pid' 2>/dev/null) 2>/dev/null; wait $server 2>/dev/null"
await_pg $server
"$PG_PREFIX/bin/pg_isready" -q -h "$pg" -p $port
needed $? "the server starts under callgrind" "$pg/server.log"
# every block of the table and its indexes in shared buffers: no run reads one from disk
like "$("$PG_PREFIX/bin/psql" -X -q -A -t -h "$pg" -p $port -U "$user" -d sbtest -c "SELECT bench_prewarm()")" \
     '^[0-9]+$' "the table and its indexes read into shared buffers"

# client WHO WORKLOAD EVENTS: one run of either client, one thread, seed 7
client() {
    local who=$1 workload=$2 events=$3
    case $who in
    sysbench)
        local script=oltp_point_select extra=()
        case $workload in
        read-only_range=*) script=oltp_read_only extra=(--range_size=${workload#read-only_range=}) ;;
        esac
        "$SYSBENCH" $script "${extra[@]}" --db-driver=pgsql --pgsql-host="$pg" --pgsql-port=$port \
            --pgsql-user="$user" --pgsql-db=sbtest --tables=1 --table-size=$rows --rand-type=uniform \
            --rand-seed=7 --threads=1 --events=$events --time=0 run ;;
    microbench)
        "$MB" --db-driver=pgsql --pgsql-host="$pg" --pgsql-port=$port --pgsql-user="$user" \
            --pgsql-db=sbtest --tables=1 --table-size=$rows --rand-seed=7 --threads=1 \
            --events=$events --time=0 --warmup-time=0 --server-status=off \
            --results-file=/dev/null run "$workload" ;;
    esac
}
# backend_total WHO WORKLOAD EVENTS: the instructions of the backend that served the run
# (its dump is written when it exits: the new file with the largest total)
backend_total() {
    local before after f i
    before=$(ls "$pg/cg")
    client "$@" >"$pg/client.log" 2>&1 || { echo "client failed: $(tail -2 "$pg/client.log" | tr '\n' ' ')" >&2; return 1; }
    for i in $(seq 300); do
        after=$(ls "$pg/cg")
        [ -n "$(comm -13 <(echo "$before") <(echo "$after") | while read -r f; do
                    grep -l '^totals:' "$pg/cg/$f"; done)" ] && break
        sleep 0.1
    done
    sleep 0.5
    after=$(ls "$pg/cg")
    for f in $(comm -13 <(echo "$before") <(echo "$after")); do
        awk '/^totals:/ { print $2 }' "$pg/cg/$f"
    done | sort -n | tail -1
}
# per_event WHO WORKLOAD N1 N2
per_event() {
    local a b
    a=$(backend_total "$1" "$2" "$3") && b=$(backend_total "$1" "$2" "$4") || return 1
    python3 -c 'import sys; a, b, n1, n2 = map(int, sys.argv[1:]); print("%.1f" % ((b - a) / (n2 - n1)))' "$a" "$b" "$3" "$4"
}

# workload N1 N2: the events less for a heavier statement, each above what the per-event spread needs
for spec in "point-query 500 3500" "read-only_range=10 100 700" "read-only_range=100 50 350"; do
    set -- $spec
    workload=$1
    # a client's first session pays once what its later ones do not (the backend's caches)
    client sysbench "$workload" 20 >/dev/null 2>&1
    client microbench "$workload" 20 >/dev/null 2>&1
    sb=$(per_event sysbench "$@")
    mb=$(per_event microbench "$@")
    if [ -z "$sb" ] || [ -z "$mb" ]; then
        ok 1 "$workload: both clients counted (sysbench '$sb', microbench '$mb')"
        continue
    fi
    off=$(python3 -c 'import sys; sb, mb = map(float, sys.argv[1:]); print("%.3f" % (abs(mb / sb - 1) * 100))' "$sb" "$mb")
    ok "$(python3 -c 'import sys; print(0 if float(sys.argv[1]) <= 0.2 else 1)' "$off")" \
       "$workload: backend instructions per event, sysbench $sb, microbench $mb: $off% apart (at most 0.2%)"
done

done_testing
