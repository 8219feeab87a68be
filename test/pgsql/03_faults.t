#!/usr/bin/env bash
# 03_faults.t — the pgsql driver when things go wrong, as the mysql driver
# handles them: deadlocks among 4 read-write clients are rolled back,
# counted by SQLSTATE and the run goes on; Ctrl-C while every client waits
# on a lock cancels their statements (pg_cancel_backend) and ends with 130,
# nothing recorded, no session left; a server stopped mid-run ends the run
# with one line naming the client and exit 1, nothing recorded.  Waits are
# for the event expected, with generous ceilings, never fixed times.
set -u
. "$(dirname "$0")/tap.sh"

here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
# a cluster of this test's own, stopped under a run (pg_cluster.sh makes
# the directory its server's own: not inside $dir, which only we can enter)
second=$(mktemp -d /tmp/microbench-pgsql-stopped.XXXXXX)
cleanup() {
    local job
    for job in $(jobs -p); do kill -KILL "$job" 2>/dev/null; done
    "$here/pg_cluster.sh" stop "$second" >/dev/null 2>&1
    pg_value "DROP SCHEMA IF EXISTS tiny CASCADE" >/dev/null 2>&1
    rm -rf "$dir"
}
trap cleanup EXIT

# mb_bg OUT ERR ARGS...: the client in the background, its pid in $bg_pid,
# with SIGINT as a terminal would give it (a script's background job
# starts with SIGINT ignored, which the client rightly leaves ignored)
mb_bg() {
    local out=$1 err=$2
    shift 2
    : >"$out"
    : >"$err"
    perl -e '$SIG{INT} = $SIG{TERM} = "DEFAULT"; exec @ARGV or die "exec: $!\n"' -- \
        "$MB" --db-driver=pgsql "$@" >"$out" 2>"$err" &
    bg_pid=$!
}

# wait_for SECONDS COMMAND...: until it succeeds, at most SECONDS
wait_for() {
    local limit=$1 i
    shift
    for ((i = 0; i < limit * 20; i++)); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}

sessions_left() {
    [ "$(psql -X -A -t -q -d postgres -c "SELECT count(*) FROM pg_stat_activity
                                         WHERE application_name = 'microbench'")" = 0 ]
}

# ---- deadlocks: 4 clients writing 10 rows
pg_value "CREATE SCHEMA tiny" >/dev/null
tiny_db="dbname=$MB_PG_DB options=-csearch_path=tiny"
"$MB" --db-driver=pgsql --pgsql-db="$tiny_db" --table-size=10 prepare >/dev/null 2>&1
"$MB" --db-driver=pgsql --pgsql-db="$tiny_db" --table-size=10 --threads=4 --time=120 --events=3000 \
    --warmup-time=0 --results-file="$dir/dl.jsonl" run read-write_range=10 >"$dir/out" 2>"$dir/err"
is "$?" 0 "read-write, 4 clients on 10 rows: the run ends normally"
line=$(cat "$dir/dl.jsonl")
errors=$(json_field "$line" errors)
is "$(( $(json_field "$line" events) + errors ))" 3000 "... its 3000 events were measured or rolled back ($errors)"
deadlocks=$(printf '%s' "$line" | sed -nE 's/.*"errors_by_code": \{[^}]*"40P01": ([0-9]+).*/\1/p')
ok "$([ "${deadlocks:-0}" -gt 0 ]; echo $?)" "... deadlocks were rolled back and counted by SQLSTATE (${deadlocks:-0} 40P01)"
is "$(json_field "$line" ignored_errors)" "40P01,40001,55P03,23505" "... the default ignored SQLSTATEs are recorded"
ok "$(grep -q 'error 40P01' "$dir/out"; echo $?)" "... the summary counts them by code"

# ---- Ctrl-C while every client waits on a lock
# the lock is taken once the run's events are under way, so that what
# waits on it is the clients' events, not the run's set-up
mb_bg "$dir/out" "$dir/err" --pgsql-db="$MB_PG_DB" --threads=2 --time=120 --warmup-time=0 \
    --report-interval=0.5 --results-file="$dir/int.jsonl" --table-size=5000 run update-index
wait_for 60 grep -q '^\[' "$dir/out"
psql -X -q -d "$MB_PG_DB" -c "BEGIN; LOCK TABLE sbtest1 IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120)" \
    >/dev/null 2>&1 &
locker=$!
# (a function: wait_for must read the count anew at every try)
lock_waiters_are() {
    [ "$(pg_value "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'microbench'
                   AND wait_event_type = 'Lock'")" = "$1" ]
}
wait_for 60 lock_waiters_are 2
ok $? "two clients wait on the lock"
kill -INT "$bg_pid"
wait "$bg_pid"
is "$?" 130 "Ctrl-C with both clients blocked: exit 130"
ok "$(grep -q 'sent a cancel to 2' "$dir/out"; echo $?)" "... their statements were cancelled: $(grep 'busy' "$dir/out" | head -1)"
ok "$(grep -q 'not recorded' "$dir/out"; echo $?)" "... and nothing was recorded"
ok "$([ ! -s "$dir/int.jsonl" ]; echo $?)" "... the results file is empty"
wait_for 30 sessions_left
ok $? "... no session of the client is left on the server"
kill "$locker" 2>/dev/null
pg_value "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid()" >/dev/null
wait "$locker" 2>/dev/null

# ---- the server stops under a run
main_host=$PGHOST main_port=$PGPORT
eval "$("$here/pg_cluster.sh" start "$second" "$((PGPORT - 1))")"
stopped_host=$PGHOST stopped_port=$PGPORT
PGHOST=$main_host PGPORT=$main_port
PGHOST=$stopped_host PGPORT=$stopped_port createdb sbtest
PGHOST=$stopped_host PGPORT=$stopped_port \
    "$MB" --db-driver=pgsql --pgsql-db=sbtest --table-size=1000 prepare >/dev/null 2>&1
PGHOST=$stopped_host PGPORT=$stopped_port \
    mb_bg "$dir/out" "$dir/err" --pgsql-db=sbtest --table-size=1000 --threads=2 --time=120 \
    --warmup-time=0 --report-interval=0.5 --results-file="$dir/gone.jsonl" run point-query
wait_for 60 grep -q '^\[' "$dir/out"
"$here/pg_cluster.sh" stop "$second" >/dev/null 2>&1
wait_for 60 test ! -d "/proc/$bg_pid"
wait "$bg_pid"
is "$?" 1 "the server stopped under the run: exit 1"
is "$(wc -l <"$dir/err" | tr -d ' ')" 1 "... one line: $(cat "$dir/err")"
ok "$(grep -Eq '^microbench: client [12]: .*\((57P01|08006)\)' "$dir/err"; echo $?)" "... naming the client and the SQLSTATE"
ok "$([ ! -s "$dir/gone.jsonl" ]; echo $?)" "... and nothing was recorded"

done_testing
