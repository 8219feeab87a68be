#!/usr/bin/env bash
# 10_window.t — a counted window holds the measured events and nothing
# else: counted by hand as docs/compare.md shows (the server started under
# callgrind with the runner's options, the tables read into the buffers,
# the window marked by the worker or around the client), the count of 2N
# events is twice the count of N within 0.1% (MariaDB: 0.2%, below), so
# nothing fixed is left in a window, and a read's window reads no block
# from disk.  Postgres (the worker marks its own window) and MariaDB (the
# client stops at the window's ends, callgrind_control zeroes and dumps).
# Then the runner's count of a cell agrees with the same count by hand
# (valgrind's totals line, each REP repetition one: the runner's
# instructions_valgrind).
set -u
. "$(dirname "$0")/lib.sh"

run_as() {  # run_as USER COMMAND...: as USER when we are root
    local user=$1; shift
    if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}
# ratio A B: B / (2 A) - 1 as a per cent with 3 decimals
doubled_off() { python3 -c 'import sys; a, b = map(float, sys.argv[1:3]); print("%.3f" % (abs(b / (2 * a) - 1) * 100))' "$1" "$2"; }
within() { python3 -c 'import sys; print(float(sys.argv[1]) <= float(sys.argv[2]))' "$1" "$2"; }
# totals FILE: the instructions of a callgrind dump
totals() { awk '/^totals:/ { print $2 }' "$1"; }
# needed STATUS WHAT LOG: a step the rest depends on; when it failed, its log and the end
needed() {
    ok "$1" "$2"
    [ "$1" -eq 0 ] && return
    echo "Bail out! $2 failed: $(tail -5 "$3" 2>/dev/null | tr '\n' ' ')"
    exit 1
}
# await_pg SOCKETDIR PORT PID: until the server of PID accepts connections, or is gone
await_pg() {
    local i
    for i in $(seq 600); do
        "$PG_PREFIX/bin/pg_isready" -q -h "$1" -p "$2" && return
        kill -0 "$3" 2>/dev/null || return
        sleep 0.1
    done
}
# the servers run as postgres and mysql, in directories under this test's own
chmod 755 "$scratch"

# ---- Postgres: the worker marks its own window
pg="$scratch/pg"
mkdir -p "$pg/cg"
chmod 1777 "$pg/cg"
[ "$(id -u)" = 0 ] && chown postgres: "$pg"
run_as postgres "$PG_PREFIX/bin/initdb" -D "$pg/data" --auth=trust --no-sync -E UTF8 --locale=C >"$pg/initdb.log" 2>&1
needed $? "initdb" "$pg/initdb.log"
run_as postgres valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
    --callgrind-out-file="$pg/cg/cg.%p" --dump-instr=no --dump-line=no \
    "$PG_PREFIX/bin/postgres" -D "$pg/data" -c port=55497 -c listen_addresses= \
    -c unix_socket_directories="$pg" -c shared_buffers=256MB >"$pg/server.log" 2>&1 &
pg_server=$!
at_exit "kill -INT \$(head -1 '$pg/data/postmaster.pid' 2>/dev/null) 2>/dev/null; wait $pg_server 2>/dev/null"
await_pg "$pg" 55497 $pg_server
psql_pg() { "$PG_PREFIX/bin/psql" -X -q -A -t -h "$pg" -p 55497 -U "$(run_as postgres id -un)" -v ON_ERROR_STOP=1 "$@"; }
psql_pg -d postgres -c "CREATE DATABASE microbench" &&
    psql_pg -d microbench -c "SET client_min_messages = warning" -c "CREATE EXTENSION microbench" \
        -c "SELECT count(*) FROM bench_prepare(1, 10000, seed => 1)" >/dev/null
needed $? "a server under callgrind, the extension and 10,000 rows in it" "$pg/server.log"
like "$(psql_pg -d microbench -c "SELECT bench_prewarm()")" '^[0-9]+$' "bench_prewarm reads the tables and indexes into shared buffers"
# pg_window EVENTS: "instructions blocks_read" of a point-query window of EVENTS events
pg_window() {
    local row pid
    row=$(psql_pg -d microbench -F ' ' -c "SELECT client_pids[1], shared_blks_read FROM bench_run('point-query',
            seconds => 0, warmup => 0, warmup_events => 10, events => $1, seed => 2, count_window => true)")
    pid=${row%% *}
    echo "$(totals "$pg/cg/cg.$pid.1") ${row#* }"
}
read -r n1 read1 < <(pg_window 1000)
read -r n2 read2 < <(pg_window 2000)
off=$(doubled_off "$n1" "$n2")
is "$(within "$off" 0.1)" True "Postgres: 2,000 events count twice 1,000 within 0.1% (1,000: $n1, 2,000: $n2, $off% off)"
is "$read1 $read2" "0 0" "Postgres: no block read from disk inside either window"
cg=$(ls "$pg/cg" | grep -E '^cg\.[0-9]+\.1$' | head -1)
is "$(grep -c '^desc: Trigger: Client Request: microbench window$' "$pg/cg/$cg")" 1 \
   "the dump is the window's, named by the worker's client request"

# ---- MariaDB: the client stops at the window's ends, the runner marks them
my="$scratch/my"
mkdir -p "$my/cg"
chmod 1777 "$my/cg"
[ "$(id -u)" = 0 ] && chown mysql: "$my"
installer=$(command -v mariadb-install-db || echo /usr/bin/mariadb-install-db)
run_as mysql "$installer" --no-defaults --datadir="$my/data" --auth-root-authentication-method=socket \
    --skip-test-db >"$my/install.log" 2>&1
needed $? "install-db" "$my/install.log"
pool_max=""
"$MARIADBD" --verbose --help 2>/dev/null | grep -q 'innodb-buffer-pool-size-max' && pool_max=--innodb-buffer-pool-size-max=512M
run_as mysql valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
    --callgrind-out-file="$my/cg/cg.%p" --dump-instr=no --dump-line=no --separate-threads=yes \
    --collect-jumps=no '--toggle-collect=dispatch_command*' \
    "$MARIADBD" --no-defaults --datadir="$my/data" --socket="$my/my.sock" --pid-file="$my/data/m.pid" \
    --log-error="$my/error.log" --skip-networking --skip-log-bin --innodb-buffer-pool-size=512M \
    --innodb-use-native-aio=0 $pool_max --innodb-force-recovery=2 >"$my/server.log" 2>&1 &
my_server=$!
at_exit "kill -TERM \$(cat '$my/data/m.pid' 2>/dev/null) 2>/dev/null; wait $my_server 2>/dev/null"
client=("$MB" --db-driver=mysql --mysql-socket="$my/my.sock" --mysql-user=root --mysql-db=sbtest --table-size=10000)
for i in $(seq 1200); do
    mariadb --no-defaults -S "$my/my.sock" -uroot -e "SELECT 1" >/dev/null 2>&1 && break
    kill -0 $my_server 2>/dev/null || break
    sleep 0.1
done
mariadb --no-defaults -S "$my/my.sock" -uroot -e "CREATE DATABASE sbtest" &&
    "${client[@]}" --rand-seed=1 prepare >"$my/prepare.log" 2>&1 &&
    mariadb --no-defaults -S "$my/my.sock" -uroot sbtest \
        -e "SELECT SUM(LENGTH(pad)) FROM sbtest1 FORCE INDEX (PRIMARY); SELECT SUM(k) FROM sbtest1 FORCE INDEX (k_1)" >/dev/null &&
    run_as mysql callgrind_control --instr=on "$(cat "$my/data/m.pid")" >/dev/null
needed $? "a MariaDB under callgrind, 10,000 rows read into its buffer pool, instrumented" "$my/error.log"
# my_window EVENTS: the instructions of the commands of a point-query window of EVENTS events
my_window() {
    local pid stops=0 state part sum=0 f server
    server=$(cat "$my/data/m.pid")
    "${client[@]}" --rand-seed=2 --time=0 --events="$1" --warmup-events=10 --window-stop \
        --results-file="$my/runs.jsonl" run point-query >"$my/client.log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
        if [ "$state" = T ]; then
            stops=$((stops + 1))
            if [ $stops = 1 ]; then run_as mysql callgrind_control -z "$server" >/dev/null
            else run_as mysql callgrind_control -d window "$server" >/dev/null; fi
            kill -CONT "$pid"
        fi
        sleep 0.02
    done
    wait "$pid" || { echo "client failed"; return; }
    part=$(ls "$my/cg" | sed -n "s/^cg\.$server\.\([0-9]*\)-.*/\1/p" | sort -n | tail -1)
    for f in "$my/cg/cg.$server.$part"-*; do
        grep -q dispatch_command "$f" && sum=$((sum + $(totals "$f")))
    done
    echo "$sum $stops"
}
read -r m1 stops1 < <(my_window 1000)
read -r m2 stops2 < <(my_window 2000)
is "$stops1 $stops2" "2 2" "the client stopped twice a run, as the window opened and closed"
off=$(doubled_off "$m1" "$m2")
# (a MariaDB connection's count moves by up to 0.07% with where its heap
# puts the copy of the database name every execution compares: strcmp's
# cost depends on the string's place in its page)
is "$(within "$off" 0.2)" True "MariaDB: 2,000 events count twice 1,000 within 0.2% (1,000: $m1, 2,000: $m2, $off% off)"
is "$(python3 -c '
import json, sys
print(max(json.loads(l).get("server_status", {}).get("Innodb_buffer_pool_reads", 0) for l in open(sys.argv[1])))' "$my/runs.jsonl")" \
   0 "MariaDB: no page read from disk inside either window"
kill -TERM "$(cat "$my/data/m.pid")"; wait "$my_server" 2>/dev/null

# ---- the runner's count of a cell, and the same count by hand: its kept work
# directory, its server's command line from the manifest, the round's seed
# and the cell's events (a count depends on the server's command line: its
# options decide where the heap puts what, and malloc's work with it)
out="$scratch/runner"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric instructions --workloads point-query \
    --table-size 10000 --rounds 1 --max-minutes 0 --keep --out "$out" >"$scratch/runner.out" 2>&1
needed $? "a counted round of point-query, its work directory kept" "$scratch/runner.out"
work=$(sed -n 's/^kept: //p' "$scratch/runner.out")
read -r events seed command < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["counted"]
print(m["windows"][0]["events"], m["seed_of_round_1"], [s["command"] for s in m["servers"] if s["label"] == "a"][0])' "$out/manifest.json")
runner=$(python3 -c '
import json, sys
print([r["instructions_valgrind"] for r in map(json.loads, open(sys.argv[1])) if r["label"] == "a"][0])' "$out/runs.jsonl")
run_as postgres cp -a "$work/pristine-$("$PG_PREFIX/bin/postgres" --version | sed 's/.* \([0-9]*\).*/\1/')" "$work/run"
rm -rf "$work/count"; mkdir -m 1777 "$work/count"
run_as postgres sh -c "exec $command" >"$scratch/hand.log" 2>&1 &
hand_server=$!
at_exit "kill -INT \$(head -1 '$work/run/postmaster.pid' 2>/dev/null) 2>/dev/null; wait $hand_server 2>/dev/null; rm -rf '$work'"
await_pg "$work" 55401 $hand_server
psql_hand() { "$PG_PREFIX/bin/psql" -X -q -A -t -h "$work" -p 55401 -U "$(run_as postgres id -un)" -d microbench "$@"; }
psql_hand -c "SELECT bench_prewarm()" >/dev/null
pid=$(psql_hand -c "SELECT client_pids[1] FROM bench_run('point-query', seconds => 0, warmup => 0,
        warmup_events => 10, events => $events, seed => $seed, count_window => true)")
hand=$(totals "$work/count/cg.$pid.1")
off=$(python3 -c 'import sys; a, b = map(float, sys.argv[1:3]); print("%.3f" % (abs(a / b - 1) * 100))' "$runner" "${hand:-1}")
is "$(within "$off" 0.1)" True "the runner's count of $events events and the same count by hand agree within 0.1% (runner $runner, by hand $hand)"
kill -INT "$(head -1 "$work/run/postmaster.pid")"; wait "$hand_server" 2>/dev/null
kill -INT "$(head -1 "$pg/data/postmaster.pid")"; wait "$pg_server" 2>/dev/null
is "$(servers_left)" 0 "no server left running"
done_testing
