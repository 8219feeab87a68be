#!/usr/bin/env bash
# 07_stopping.t — runs that do not end normally, and secrets.
#
# SIGINT and SIGTERM stop run, suite and prepare within about two seconds
# (KILL QUERY for a client stuck in a statement), print what was measured
# marked as interrupted, record nothing of the interrupted run and end with
# status 130 or 143; a server that drops the benchmark's connections ends
# the run with one line naming the client and the server's error, exit 1,
# nothing recorded; a suite whose results database goes away keeps every
# run in the results file, carries on and exits 1.  The passwords (MySQL's
# and the results database's) show up in no command line, output, result
# row or JSON line.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
cleanup() {
    # what a failed check left running (our own jobs, not yet reaped) must not outlive the test
    local job
    for job in $(jobs -p); do kill -KILL "$job" 2>/dev/null; done
    my_value "DROP DATABASE IF EXISTS mb_stop" 2>/dev/null
    my_root "DROP USER IF EXISTS mb_secret@localhost" 2>/dev/null
    psql -X -q -d "$MB_RESULTS_DB" -c "DROP DATABASE IF EXISTS mb_gone" -c "DROP ROLE IF EXISTS mb_writer" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

my_root() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb --no-defaults -h127.0.0.1 -P"$MYSQL_PORT" -uroot \
        -N -B -e "$1"
}

# mbm_bg OUT ERR ARGS...: start the client in the background, its pid in
# $bg_pid.  A script's background job inherits SIGINT ignored, and the
# client (rightly) leaves an ignored SIGINT ignored: perl puts the default
# back before it execs the client, so the pid is the client's own.
mbm_bg() {
    local out=$1 err=$2
    shift 2
    # emptied here: the job's own redirection happens in the background,
    # and a wait_for on OUT must not see the previous run's lines
    : >"$out"
    : >"$err"
    MYSQL_PWD="$MB_MYSQL_PASSWORD" perl -e '$SIG{INT} = $SIG{TERM} = "DEFAULT"; exec @ARGV or die "exec: $!\n"' -- \
        "$MBM" --mysql-socket="$MYSQL_SOCKET" --mysql-user=bench --mysql-db=sbtest "$@" >"$out" 2>"$err" &
    bg_pid=$!
}

# wait_for COMMAND...: until it succeeds, at most 10 s
wait_for() {
    local i
    for ((i = 0; i < 200; i++)); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}

# stop_and_time SIGNAL PID: send the signal, wait; sets $rc and $ms (signal to exit)
stop_and_time() {
    local t0
    t0=$(date +%s%N)
    kill -"$1" "$2"
    wait "$2"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
}

runs() {
    pg_value "SELECT count(*) FROM microbench.runs WHERE label = '$1'"
}

run_opts=(--table-size=5000 --results-db="$MB_RESULTS_DB")

# ---- SIGINT in the measured window
mbm_bg "$dir/out" "$dir/err" "${run_opts[@]}" --threads=2 --time=30 --warmup-time=0 --report-interval=0.2 \
    --label=stop-int --results-file="$dir/int.jsonl" run point-query
wait_for grep -q '^\[' "$dir/out"
stop_and_time INT "$bg_pid"
is "$rc" 130 "SIGINT in the measured window: exit status 130"
ok $((ms < 1500 ? 0 : 1)) "... within a moment (${ms} ms)"
grep -q -E '^interrupted by SIGINT after [0-9.]+ s of the measured window: not recorded$' "$dir/out"
ok $? "... says it was interrupted and is not recorded"
grep -q -E '^    transactions: +[1-9][0-9]* ' "$dir/out" && grep -q '95th percentile' "$dir/out"
ok $? "... after the usual summary of what was measured"
is "$(runs stop-int):$([ -e "$dir/int.jsonl" ] && echo file)" "0:" "... and records neither a row nor a JSON line"
is "$(cat "$dir/err")" "" "... with nothing on stderr"

# ---- SIGTERM in the warm-up
executes=$(my_status COM_STMT_EXECUTE)
mbm_bg "$dir/out" "$dir/err" "${run_opts[@]}" --time=1 --warmup-time=30 --label=stop-term \
    --results-file="$dir/term.jsonl" run read-only_range=10
warming_up() {
    [ "$(my_status COM_STMT_EXECUTE)" -gt $((executes + 100)) ]
}
wait_for warming_up
stop_and_time TERM "$bg_pid"
is "$rc" 143 "SIGTERM in the warm-up: exit status 143"
is "$(tail -n 1 "$dir/out")" "interrupted by SIGTERM during warm-up: nothing measured, not recorded" \
   "... says nothing was measured"
is "$(runs stop-term):$([ -e "$dir/term.jsonl" ] && echo file)" "0:" "... and records nothing"

# ---- SIGINT while every client waits on a lock: KILL QUERY, not a long wait
mbm_bg "$dir/out" "$dir/err" "${run_opts[@]}" --threads=2 --time=30 --warmup-time=0 --report-interval=0.2 \
    --label=stop-lock --results-file="$dir/lock.jsonl" run point-query
wait_for grep -q '^\[' "$dir/out"
my_value "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(30)" >/dev/null 2>&1 &
locker=$!
waiting() {
    [ "$(my_value "SELECT COUNT(*) FROM information_schema.PROCESSLIST
                   WHERE STATE = 'Waiting for table metadata lock'")" = 2 ]
}
wait_for waiting
ok $? "two clients are stuck behind LOCK TABLES"
stop_and_time INT "$bg_pid"
is "$rc" 130 "SIGINT with the clients stuck in a statement: exit status 130"
ok $((ms < 2500 ? 0 : 1)) "... within about two seconds (${ms} ms)"
grep -q "still busy 1.0 s after the stop; sent KILL QUERY to 2" "$dir/out"
ok $? "... having sent KILL QUERY for the stuck clients"
is "$(my_value "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'Waiting for table metadata lock'")" 0 \
   "... so the server is not left running their statements"
is "$(runs stop-lock):$([ -e "$dir/lock.jsonl" ] && echo file)" "0:" "... and records nothing"
my_value "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(30)%'" |
    while read -r id; do my_value "KILL $id" 2>/dev/null; done
wait "$locker" 2>/dev/null

# ---- the server drops the benchmark's connections mid-run
mbm_bg "$dir/out" "$dir/err" "${run_opts[@]}" --threads=2 --time=30 --warmup-time=0 --report-interval=0.2 \
    --label=stop-gone --results-file="$dir/gone.jsonl" run read-write_range=10
wait_for grep -q '^\[' "$dir/out"
t0=$(date +%s%N)
for id in $(my_value "SELECT ID FROM information_schema.PROCESSLIST
                      WHERE USER = 'bench' AND ID <> CONNECTION_ID() AND COMMAND <> 'Daemon'"); do
    my_value "KILL CONNECTION $id" 2>/dev/null
done
wait "$bg_pid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
is "$rc" 1 "connections killed mid-run: exit 1"
ok $((ms < 3000 ? 0 : 1)) "... at once, not at the end of the window (${ms} ms)"
is "$(wc -l <"$dir/err")" 1 "... with one line on stderr"
grep -q -E '^microbench: client [12]: [^:]+ \([0-9]{4}\)$' "$dir/err"
ok $? "... naming the client and the lost connection with its error number ($(head -c 120 "$dir/err"))"
is "$(runs stop-gone):$([ -e "$dir/gone.jsonl" ] && echo file)" "0:" "... and records nothing"

# ---- SIGINT in a suite: the runs before it stay recorded, the suite stops
mbm_bg "$dir/out" "$dir/err" --table-size=5000 --read-time=1 --warmup-time=0 --label=stop-suite \
    --results-file="$dir/suite.jsonl" --workloads=point-query,read-only_range=10 suite
wait_for grep -q '^\[4 of 6\]' "$dir/out"
sleep 0.3
stop_and_time INT "$bg_pid"
is "$rc" 130 "SIGINT in a suite: exit status 130"
is "$(sed -E 's/.*"workload": "([^"]*)".*/\1/' "$dir/suite.jsonl" | tr '\n' ,)" "point-query," \
   "... the run finished before it is kept, the interrupted one is not"
grep -q "suite interrupted by SIGINT at step 4 of 6; earlier runs are recorded" "$dir/err"
ok $? "... and it says where it stopped"
grep -q '^\[5 of 6\]' "$dir/out"
ok $((! $?)) "... and runs nothing after"

# ---- the results database goes away mid-suite: every run kept, the suite carries on.
# As it takes the first run it shuts the client out: no later connection gets in.
PGOPTIONS='-c client_min_messages=warning' psql -X -q -d "$MB_RESULTS_DB" \
    -c "DROP DATABASE IF EXISTS mb_gone" -c "CREATE DATABASE mb_gone" \
    -c "DROP ROLE IF EXISTS mb_writer" -c "CREATE ROLE mb_writer LOGIN"
cat "$(dirname "$0")"/../../results_schema/*.sql | psql -X -q -v ON_ERROR_STOP=1 -d "$MB_RESULTS_DB dbname=mb_gone" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d "$MB_RESULTS_DB dbname=mb_gone" -c "
    GRANT USAGE ON SCHEMA microbench TO mb_writer;
    GRANT SELECT, INSERT ON microbench.runs TO mb_writer;
    GRANT USAGE ON ALL SEQUENCES IN SCHEMA microbench TO mb_writer;
    CREATE FUNCTION public.go_away() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS
        \$\$BEGIN ALTER ROLE mb_writer NOLOGIN; RETURN NULL; END\$\$;
    CREATE TRIGGER go_away AFTER INSERT ON microbench.runs EXECUTE FUNCTION public.go_away();"
mbm --table-size=5000 --read-time=0.3 --warmup-time=0 --label=db-gone \
    --results-db="$MB_RESULTS_DB dbname=mb_gone user=mb_writer" --results-file="$dir/db-gone.jsonl" \
    --workloads=point-query,read-only_range=10 suite >"$dir/out" 2>"$dir/err"
rc=$?
is "$rc" 1 "results database gone mid-suite: exit 1"
is "$(psql -X -A -t -q -d "$MB_RESULTS_DB dbname=mb_gone" -c "SELECT count(*) FROM microbench.runs"):$(wc -l <"$dir/db-gone.jsonl")" \
   "1:3" "... the first run is in the database, the other three in the file"
is "$(grep -c "cannot reach the results database: .*; keeping the result in $dir/db-gone.jsonl" "$dir/err")" 3 \
   "... each saying why and where it is kept"
grep -q "^suite done" "$dir/out"
ok $? "... the suite ran to its end"
grep -q "the results database did not take 3 run(s); they are in $dir/db-gone.jsonl" "$dir/err"
ok $? "... and says at the end where they are"
psql -X -q -d "$MB_RESULTS_DB" -c "DROP DATABASE mb_gone" -c "DROP ROLE mb_writer"

# ---- SIGINT in prepare: the load stops, prepare says to run it again
my_value "CREATE DATABASE IF NOT EXISTS mb_stop"
mbm_bg "$dir/out" "$dir/err" --mysql-db=mb_stop --table-size=1000000 prepare
loading() {
    [ "$(my_value "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'LOAD DATA%'")" = 1 ]
}
wait_for loading
stop_and_time INT "$bg_pid"
is "$rc" 130 "SIGINT in prepare: exit status 130"
ok $((ms < 2500 ? 0 : 1)) "... within two seconds (${ms} ms)"
is "$(cat "$dir/err")" \
   "microbench: prepare interrupted by SIGINT after loading 0 of 1 table(s): run prepare again" \
   "... and says the tables are incomplete"
my_value "DROP DATABASE mb_stop"

# ---- secrets: no password in --help, ps, output, the result row or the JSON line
secret='Zq7-hidden-4096'
pg_secret='Pg3-unseen-8192'
my_root "CREATE USER mb_secret@localhost IDENTIFIED BY '$secret'; GRANT ALL ON sbtest.* TO mb_secret@localhost"
MYSQL_PWD=$secret PGPASSWORD=$pg_secret "$MBM" --help >"$dir/help"
grep -q -e "$secret" -e "$pg_secret" "$dir/help"
ok $((! $?)) "--help shows no password, even with MYSQL_PWD and PGPASSWORD set"

MYSQL_PWD=$secret PGPASSWORD=$pg_secret perl -e '$SIG{INT} = $SIG{TERM} = "DEFAULT"; exec @ARGV' -- \
    "$MBM" --mysql-socket="$MYSQL_SOCKET" --mysql-user=mb_secret --table-size=5000 --time=1 --warmup-time=0 \
    --report-interval=0.2 --label=secret --results-db="$MB_RESULTS_DB" run point-query >"$dir/out" 2>&1 &
pid=$!
wait_for grep -q '^\[' "$dir/out"
tr '\0' ' ' <"/proc/$pid/cmdline" >"$dir/cmdline"
ps -o args= -p "$pid" >>"$dir/cmdline"
wait "$pid"
ok $? "a run as a user with a password succeeds"
grep -q -e "$secret" -e "$pg_secret" "$dir/cmdline"
ok $((! $?)) "the running client's command line (/proc/PID/cmdline, ps) has no password"
grep -q "mb_secret" "$dir/cmdline"
ok $? "... though it is the right process"
pg_value "SELECT r::text FROM microbench.runs r WHERE label = 'secret'" >"$dir/row"
is "$(wc -l <"$dir/row")" 1 "the run is recorded"
grep -q -e "$secret" -e "$pg_secret" "$dir/row" "$dir/out"
ok $((! $?)) "... and no column of its row, nor its output, holds a password"
MYSQL_PWD=$secret PGPASSWORD=$pg_secret "$MBM" --mysql-socket="$MYSQL_SOCKET" --mysql-user=mb_secret \
    --table-size=5000 --time=0.3 --warmup-time=0 --label=secret --results-file="$dir/secret.jsonl" \
    run point-query >"$dir/out" 2>&1
is "$(wc -l <"$dir/secret.jsonl")" 1 "a run without a results database writes its JSON line"
grep -q -e "$secret" -e "$pg_secret" "$dir/secret.jsonl" "$dir/out"
ok $((! $?)) "... which, like the output, holds no password"

done_testing
