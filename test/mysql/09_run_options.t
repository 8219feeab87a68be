#!/usr/bin/env bash
# 09_run_options.t — the options that drive a run as sysbench users expect
# (docs/run-options.md): ignored errors under concurrency, SQL text instead
# of prepared statements, a rate limit, an event limit and reconnects.  Each
# is checked against what the server counted (SHOW GLOBAL STATUS, the
# general query log), not only against what the client says.  Bad values of
# these options are in 05_errors.t.
#
# Two small databases of their own: mb_opts, 100 rows where four writers
# collide, and mb_trap, whose sbtest1 refuses every UPDATE with an error.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
cleanup() {
    my_value "SET GLOBAL general_log = 0" 2>/dev/null
    my_root "DROP DATABASE IF EXISTS mb_opts; DROP DATABASE IF EXISTS mb_trap" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

my_root() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb --no-defaults -h127.0.0.1 -P"$MYSQL_PORT" -uroot \
        -N -B -e "$1"
}

# A value of the last run of a label: last COLUMN-EXPRESSION LABEL
last() {
    pg_value "SELECT $1 FROM microbench.runs WHERE label = '$2' ORDER BY run_id DESC LIMIT 1"
}
runs() {
    pg_value "SELECT count(*) FROM microbench.runs WHERE label = '$1'"
}
# a counter of the run's SHOW GLOBAL STATUS deltas; absent means it did not change
status_of() {               # status_of VARIABLE LABEL
    last "coalesce(server_status ->> '$1', '0')" "$2"
}

pg_value "DELETE FROM microbench.runs WHERE label LIKE 'opt-%'" >/dev/null
rec=(--results-db="$MB_RESULTS_DB" --warmup-time=0)

my_root "CREATE DATABASE mb_opts; CREATE DATABASE mb_trap"
mbm --mysql-db=mb_opts --table-size=100 prepare >/dev/null &&
    mbm --mysql-db=mb_trap --table-size=100 prepare >/dev/null
ok $? "two 100-row table sets prepared (mb_opts, mb_trap)"
my_root "CREATE TRIGGER mb_trap.refuse BEFORE UPDATE ON mb_trap.sbtest1 FOR EACH ROW
         SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'this table refuses updates', MYSQL_ERRNO = 1644"

# ---- errors under concurrency: 4 writers on 100 rows
qpe=$(mbm list | awk '$1 == "read-write_range=10" { print $NF }')
mbm --mysql-db=mb_opts --table-size=100 --threads=4 --time=3 --label=opt-rw "${rec[@]}" \
    run read-write_range=10 >"$dir/rw.out" 2>&1
ok $? "read-write_range=10, 4 threads on 100 rows, 3 s: completes"
sed -n '/ignored errors:/,/^$/p' "$dir/rw.out" | sed 's/^/# /'
errors=$(last errors opt-rw)
is "$(last "jsonb_typeof(errors_by_code)" opt-rw)" object \
   "errors_by_code is a JSON object: $(last "errors_by_code::text" opt-rw), errors $errors"
is "$(last "(SELECT coalesce(sum(v::bigint), 0) FROM jsonb_each_text(errors_by_code) e(k, v))" opt-rw)" "$errors" \
   "errors ($errors) is the sum of errors_by_code"
is "$(last "(SELECT coalesce(bool_and(k IN ('1213', '1205', '1062')), true) FROM jsonb_object_keys(errors_by_code) k)" opt-rw)" t \
   "only the ignored codes occur"
is "$(last ignored_errors opt-rw)" "1213,1205,1062" "the default ignored codes are recorded"
is "$(last "events > 0 AND queries = events * $qpe AND qps > 0 AND lat_p95_ms > 0" opt-rw)" t \
   "the rest is sane: $(last events opt-rw) events, queries = events x $qpe, qps $(last "round(qps)" opt-rw)"
is "$(status_of Com_rollback opt-rw)" "$errors" \
   "the server saw one ROLLBACK per ignored error (Com_rollback = $errors)"
is "$(status_of Com_commit opt-rw)" "$(last events opt-rw)" \
   "... and one COMMIT per counted event: failed events are not in events"
grep -q -E "^    ignored errors: +$errors " "$dir/rw.out"
ok $? "the summary shows the same count of ignored errors"

# the same table with keys drawn from 1..10 only: hot rows, where InnoDB
# picks deadlock victims every few dozen events
mbm --mysql-db=mb_opts --table-size=10 --threads=4 --time=2 --label=opt-rw-hot "${rec[@]}" \
    run read-write_range=10 >"$dir/hot.out" 2>&1
ok $? "read-write on 10 hot rows, 4 threads: completes"
sed -n '/ignored errors:/,/^$/p' "$dir/hot.out" | sed 's/^/# /'
errors=$(last errors opt-rw-hot)
is "$(last "errors > 0 AND errors = (SELECT sum(v::bigint) FROM jsonb_each_text(errors_by_code) e(k, v))" opt-rw-hot)" t \
   "errors are counted ($errors), by code: $(last "errors_by_code::text" opt-rw-hot)"
is "$(status_of Innodb_deadlocks opt-rw-hot)" "$(last "coalesce(errors_by_code ->> '1213', '0')" opt-rw-hot)" \
   "... the server's Innodb_deadlocks = the events counted under 1213"
is "$(status_of Com_rollback opt-rw-hot):$(status_of Com_commit opt-rw-hot)" "$errors:$(last events opt-rw-hot)" \
   "... one ROLLBACK per ignored error, one COMMIT per counted event"
is "$(last "queries = events * $qpe AND lat_p95_ms > 0" opt-rw-hot)" t "... and failed events are not in queries"
grep -q -E "^        error 1213 +$(last "coalesce(errors_by_code ->> '1213', '0')" opt-rw-hot) " "$dir/hot.out"
ok $? "the summary shows the errors by code"

# ---- an error that is not ignored stops the run; an ignored one does not
mbm --mysql-db=mb_trap --table-size=100 --time=2 --ignore-errors=none --label=opt-trap \
    --results-file="$dir/trap.jsonl" "${rec[@]}" run update-index >"$dir/out" 2>"$dir/err"
rc=$?
is "$rc:$(wc -l <"$dir/err")" "1:1" "--ignore-errors=none: a failing UPDATE stops the run, exit 1, one line"
grep -q -E "^microbench: client 1: UPDATE sbtest1 SET k = k \+ 1 WHERE id = \?: this table refuses updates \(1644\)$" "$dir/err"
ok $? "... naming the statement and the error ($(cat "$dir/err"))"
is "$(runs opt-trap):$([ -e "$dir/trap.jsonl" ] && echo file)" "0:" "... and records nothing"

mbm --mysql-db=mb_trap --table-size=100 --threads=2 --time=0.5 --ignore-errors=1644 \
    --label=opt-trap-ignored "${rec[@]}" run update-index >"$dir/out" 2>&1
ok $? "--ignore-errors=1644: the same run completes"
is "$(last "events = 0 AND errors > 100 AND errors_by_code = jsonb_build_object('1644', errors)" opt-trap-ignored)" t \
   "... every event failed and was counted: 0 events, $(last errors opt-trap-ignored) errors, all 1644"
is "$(last "concat_ws('|', ignored_errors, coalesce(lat_avg_ms::text, 'null'), queries)" opt-trap-ignored)" "1644|null|0" \
   "... the codes recorded; failed events leave no latency and no queries"
is "$(status_of Com_update opt-trap-ignored)" "$(last errors opt-trap-ignored)" \
   "... the server ran every one of them (Com_update = errors): the clients went on"

# the JSON line carries the same columns
mbm --mysql-db=mb_trap --table-size=100 --threads=2 --time=0 --events=50 --ignore-errors=1644 \
    --label=opt-trap-file --results-file="$dir/t.jsonl" run update-index >"$dir/out" 2>&1
ok $? "--events=50 with every event failing: completes"
doc=$(cat "$dir/t.jsonl")
is "$(psql -X -A -t -q -d "$MB_RESULTS_DB" -v doc="$doc" <<<"SELECT concat_ws('|', (d->>'events')::int + (d->>'errors')::int,
        d->'errors_by_code' = jsonb_build_object('1644', (d->>'errors')::int), d->>'ignored_errors',
        d->>'event_limit', d->>'sessions', d->>'ps_mode', coalesce(d->>'rate', 'null'), coalesce(d->>'reconnect', 'null'))
      FROM (SELECT (:'doc')::jsonb AS d) x")" "50|t|1644|50|2|auto|null|null" \
   "... failed events count towards the limit (events + errors = 50); the JSON line has every run option"

# ---- SQL text instead of prepared statements
mbm --table-size=5000 --time=1 --db-ps-mode=disable --label=opt-ps-off "${rec[@]}" run point-query >"$dir/out" 2>&1
ok $? "--db-ps-mode=disable: point-query completes"
ev=$(last events opt-ps-off)
is "$(status_of Com_stmt_execute opt-ps-off):$(status_of Com_stmt_prepare opt-ps-off)" "0:0" \
   "... nothing prepared or executed as a prepared statement"
is "$(status_of Com_select opt-ps-off)" "$ev" "... one text SELECT per event: Com_select = events ($ev)"
is "$(last ps_mode opt-ps-off)" disable "... and recorded"
mbm --table-size=5000 --time=1 --label=opt-ps-on "${rec[@]}" run point-query >"$dir/out" 2>&1
is "$(status_of Com_stmt_execute opt-ps-on):$(status_of Com_select opt-ps-on)" \
   "$(last events opt-ps-on):$(last events opt-ps-on)" \
   "--db-ps-mode=auto (the default): Com_stmt_execute = events; MariaDB counts Com_select in both modes"
is "$(last ps_mode opt-ps-on)" auto "... and recorded"
echo "# point-query QPS: prepared $(last "round(qps)" opt-ps-on), text $(last "round(qps)" opt-ps-off)"

# the values are in the text the server got: the general query log, as a table
my_value "SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1"
mbm --table-size=5000 --time=0.3 --db-ps-mode=disable --label=opt-ps-log "${rec[@]}" \
    run update-nonindex >"$dir/out" 2>&1
my_value "SET GLOBAL general_log = 0"
ev=$(last events opt-ps-log)
logged() {
    my_value "SELECT COUNT(*) FROM mysql.general_log WHERE command_type = '$1'
              AND CONVERT(argument USING utf8mb4) REGEXP '$2'"
}
is "$(logged Query "^UPDATE sbtest1 SET c = ''[0-9-]{119}'' WHERE id = [0-9]+\$")" "$ev" \
   "update-nonindex as text: each event's UPDATE with its quoted c value and id ($ev events)"
is "$(my_value "SELECT COUNT(*) FROM mysql.general_log WHERE command_type IN ('Prepare', 'Execute')")" 0 \
   "... and no Prepare or Execute"
my_value "TRUNCATE mysql.general_log"

# ---- rate limit
mbm --table-size=5000 --threads=2 --time=3 --rate=2000 --label=opt-rate "${rec[@]}" run point-query >"$dir/out" 2>&1
ok $? "--rate=2000 with 2 threads: completes"
is "$(last "abs(tps / 2000 - 1) < 0.05" opt-rate)" t "2000 events/s held within 5% ($(last "round(tps::numeric, 1)" opt-rate)/s)"
is "$(last "concat_ws('|', rate, sessions)" opt-rate)" "2000|2" "... recorded, with one session per thread"
mbm --table-size=5000 --time=1 --label=opt-unpaced "${rec[@]}" run point-query >/dev/null 2>&1
mbm --table-size=5000 --time=1 --rate=1e7 --label=opt-saturated "${rec[@]}" run point-query >/dev/null 2>&1
sat=$(last lat_avg_ms opt-saturated)
flat=$(last lat_avg_ms opt-unpaced)
is "$(pg_value "SELECT $sat > 100 * $flat")" t \
   "a rate far above capacity: latency from the scheduled start grows (avg $sat ms vs $flat ms)"

# ---- event limit
mbm --table-size=5000 --threads=2 --time=0 --events=1000 --label=opt-events "${rec[@]}" run point-query >"$dir/out" 2>&1
ok $? "--events=1000 --time=0: completes"
is "$(last "concat_ws('|', events, errors, event_limit, seconds)" opt-events)" "1000|0|1000|0" \
   "... stops at exactly 1000 events, recorded with no time limit"
is "$(status_of Com_stmt_execute opt-events)" 1000 "... the server executed exactly 1000"
mbm --table-size=5000 --time=0.5 --events=1000000000 --label=opt-events-time "${rec[@]}" run point-query >/dev/null 2>&1
is "$(last "elapsed_seconds < 2 AND events < 1000000000" opt-events-time)" t \
   "with --time and --events, whichever comes first ends the run"

# ---- reconnect: 100 events, a new connection every 10
conns0=$(my_status CONNECTIONS)
mbm --table-size=5000 --time=0 --events=100 --reconnect=10 --label=opt-reconnect "${rec[@]}" \
    run point-query >"$dir/out" 2>&1
ok $? "--reconnect=10 --events=100: completes"
conns1=$(my_status CONNECTIONS)
is "$(last "concat_ws('|', sessions, events, reconnect)" opt-reconnect)" "10|100|10" \
   "sessions = 10 for 100 events, none opened after the last"
# the client's other connections: the table check and the monitor; and the
# my_status connection that read conns1
is "$((conns1 - conns0 - 2 - 1))" 10 "the server's Connections grew by the same 10 (+2 of the client's own, +1 ours)"
is "$(status_of Connections opt-reconnect):$(status_of Com_stmt_prepare opt-reconnect)" "9:9" \
   "... 9 of them inside the window, each preparing its statement again"
grep -q -E "^    sessions: +10 " "$dir/out"
ok $? "the summary shows the sessions"

done_testing
