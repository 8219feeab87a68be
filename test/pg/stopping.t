#!/usr/bin/env bash
# test/pg/stopping.t — every way a run can be stopped, against the real
# server: query cancel, statement_timeout, pg_terminate_backend of the caller
# or of one client, an error inside a client (its table dropped mid-run) and
# a client killed with SIGKILL (the postmaster restarts).  Each must return
# control promptly with a message saying what happened, leave no microbench
# worker behind and record nothing for the unfinished run, while finished
# runs (in a bench_suite too, the crash included) survive.  Also checks that
# a granted role's clients show in pg_stat_activity as that role.
#
# "Promptly" is checked against a generous ceiling (20 s, for a busy
# machine) on runs asked to last 300 s, so only the stop can end them; the
# time each stop took is printed.
#
# Run by test/pg_suite.sh after the pgTAP files (the SIGKILL case restarts
# the cluster, so it comes last, and is skipped on a server the tests did
# not start: MB_TEST_EXISTING_SERVER=1); needs PGHOST, PGPORT, PGUSER,
# PGDATABASE of a database with microbench installed.
set -u
. "$(dirname "$0")/../tap.sh"

dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT

q() { psql -X -A -t -q -v ON_ERROR_STOP=1 -c "$1"; }
now() { date +%s.%N; }
elapsed_since() { awk "BEGIN { printf \"%.2f\", $(now) - $1 }"; }
under() { awk "BEGIN { exit !($1 < $2) }"; }         # under SECONDS LIMIT
workers() { q "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'microbench'"; }

# start NAME SQL [PGOPTIONS...]: run SQL in the background as mbstop-NAME
start() {
    local name=$1 sql=$2; shift 2
    PGAPPNAME="mbstop-$name" PGOPTIONS="-c search_path=stop,public $*" \
        psql -X -q -v ON_ERROR_STOP=1 -c "$sql" >"$dir/$name.out" 2>"$dir/$name.err" &
    bg_pid=$!
}

ceiling=20
# wait_running N: until N benchmark clients are running events (60 s at most)
wait_running() {
    local i
    for i in $(seq 1200); do
        [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'microbench'
                 AND query LIKE 'microbench %'")" -ge "$1" ] && return 0
        sleep 0.05
    done
    return 1
}

# wait_gone PID: until the background psql exits (60 s at most); sets rc and took
wait_gone() {
    local t0; t0=$(now)
    local i
    for i in $(seq 3000); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.02
    done
    took=$(elapsed_since "$t0")
    wait "$1"; rc=$?
}

# workers_gone: are all microbench workers gone (30 s at most)?
workers_gone() {
    local i
    for i in $(seq 600); do
        [ "$(workers)" = 0 ] && return 0
        sleep 0.05
    done
    return 1
}

caller_pid() { q "SELECT pid FROM pg_stat_activity WHERE application_name = 'mbstop-$1'"; }
rows() { q "SELECT count(*) FROM microbench.runs WHERE label = '$1'"; }

# check_stopped NAME MESSAGE_REGEX: the common checks after a stop
check_stopped() {
    local name=$1 want=$2
    ok "$((rc == 0))" "$name: the call fails (exit $rc)"
    ok "$(under "$took" $ceiling; echo $?)" "$name: control returns promptly ($took s)"
    grep -Eq "$want" "$dir/$name.err"
    ok $? "$name: the message says what happened ($(grep -E 'ERROR|FATAL' "$dir/$name.err" | head -1))"
    workers_gone
    ok $? "$name: no microbench worker is left"
    is "$(rows "stop-$name")" 0 "$name: no result row for the unfinished run"
}

run_sql() { echo "SELECT bench_run('$1', seconds => 300, warmup => 0, clients => 2, label => 'stop-$2')"; }

psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS stop;
SET search_path = stop;
SELECT count(*) FROM public.bench_prepare(1, 5000);
SQL

# ---- query cancel -----------------------------------------------------------
start cancel "$(run_sql point-query cancel)"
wait_running 2
q "SELECT pg_cancel_backend($(caller_pid cancel))" >/dev/null
wait_gone "$bg_pid"
check_stopped cancel "canceling statement due to user request"

# ---- statement_timeout ------------------------------------------------------
t0=$(now)
start timeout "$(run_sql point-query timeout)" "-c statement_timeout=1500"
wait_gone "$bg_pid"
took=$(awk "BEGIN { printf \"%.2f\", $(elapsed_since "$t0") - 1.5 }")
check_stopped timeout "canceling statement due to statement timeout"

# ---- pg_terminate_backend of the caller ---------------------------------------
start terminate "$(run_sql update-index terminate)"
wait_running 2
q "SELECT pg_terminate_backend($(caller_pid terminate))" >/dev/null
wait_gone "$bg_pid"
check_stopped terminate "terminating connection due to administrator command"

# ---- pg_terminate_backend of one client ---------------------------------------
start worker "$(run_sql read-write_range=10 worker)"
wait_running 2
q "SELECT pg_terminate_backend(min(pid)) FROM pg_stat_activity WHERE backend_type = 'microbench'" >/dev/null
wait_gone "$bg_pid"
check_stopped worker "ERROR: +benchmark client [12] was terminated"

# ---- an error inside a client: its table dropped mid-run -------------------------
start dropped "$(run_sql point-query dropped)"
wait_running 2
q "DROP TABLE stop.sbtest1"
wait_gone "$bg_pid"
check_stopped dropped 'ERROR: +benchmark client [12] failed: relation "sbtest1" does not exist'
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
    -c "SELECT count(*) FROM bench_prepare(1, 5000, target_schema => 'stop')" >/dev/null

# ---- cancel in the middle of a suite: the runs it finished stay ----------------
suite_sql="CALL bench_suite('stop-suite', read_seconds => 3, warmup => 0,
           workloads => ARRAY['point-query', 'points-covered-pk', 'points-covered-si', 'range-covered-pk'])"
start suite "$suite_sql"
for i in $(seq 1200); do [ "$(rows stop-suite)" -ge 2 ] && break; sleep 0.05; done
q "SELECT pg_cancel_backend($(caller_pid suite))" >/dev/null
wait_gone "$bg_pid"
ok "$((rc == 0))" "suite: the cancelled CALL fails (exit $rc)"
ok "$(under "$took" $ceiling; echo $?)" "suite: control returns promptly ($took s)"
ok "$([ "$(rows stop-suite)" -ge 2 ]; echo $?)" "suite: the $(rows stop-suite) runs finished before the cancel are kept"
is "$(q "SELECT count(*) FROM microbench.runs WHERE label = 'stop-suite' AND elapsed_seconds < 2.9")" 0 \
   "suite: every kept run is a whole one"
workers_gone
ok $? "suite: no microbench worker is left"

# ---- a granted role's clients run as that role -----------------------------------
PGUSER=mb_granted PGAPPNAME=mbstop-granted PGOPTIONS="-c search_path=granted,public" \
    psql -X -q -v ON_ERROR_STOP=1 \
    -c "SELECT bench_run('point-query', seconds => 4, warmup => 0, clients => 2, label => 'stop-granted')" \
    >"$dir/granted.out" 2>"$dir/granted.err" &
bg_pid=$!
wait_running 2
is "$(q "SELECT string_agg(DISTINCT a.usename, ',') || '|' || bool_or(r.rolsuper)
         FROM pg_stat_activity a JOIN pg_roles r ON r.oid = a.usesysid
         WHERE a.backend_type = 'microbench'")" "mb_granted|false" \
   "pg_stat_activity shows a granted role's clients as that role, not a superuser"
wait_gone "$bg_pid"
is "$rc:$(rows stop-granted)" "0:1" "... and its run finishes and is recorded"

# ---- SIGKILL of a client: the postmaster restarts, finished runs survive ----------
if [ "${MB_TEST_EXISTING_SERVER:-0}" = 1 ]; then
    echo "ok $((tap_count + 1)) # skip a SIGKILL restarts a server these tests did not start"
    tap_count=$((tap_count + 1))
    done_testing
    exit $?
fi
q "SELECT bench_run('point-query', seconds => 0.3, warmup => 0, label => 'stop-before-crash', tables => 1)" >/dev/null
start crash "${suite_sql//stop-suite/stop-crash}"
for i in $(seq 1200); do [ "$(rows stop-crash)" -ge 1 ] && break; sleep 0.05; done
wait_running 1
kill -9 "$(q "SELECT min(pid) FROM pg_stat_activity WHERE backend_type = 'microbench'")"
wait_gone "$bg_pid"
ok "$((rc == 0))" "crash: the CALL fails (exit $rc)"
ok "$(under "$took" $ceiling; echo $?)" "crash: control returns promptly ($took s)"
grep -Eq "crash of another server process|server closed the connection" "$dir/crash.err"
ok $? "crash: the message says the server restarted ($(grep -m1 -E 'WARNING|FATAL|server closed' "$dir/crash.err"))"
for i in $(seq 600); do pg_isready -q && q "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
is "$(rows stop-before-crash)" 1 "crash: a run finished before the crash survives it"
ok "$([ "$(rows stop-crash)" -ge 1 ]; echo $?)" "crash: the suite's $(rows stop-crash) finished runs survive it"
is "$(q "SELECT count(*) FROM microbench.runs WHERE label = 'stop-crash' AND elapsed_seconds < 2.9")" 0 \
   "crash: no unfinished run was recorded"
is "$(workers)" 0 "crash: no microbench worker after the restart"

done_testing
