#!/usr/bin/env bash
# 08_costs.t — what a run cost, over its measured window only: the client
# threads' CPU, the server's SHOW GLOBAL STATUS deltas (server_status), and,
# for a server on this host, the host's CPU and the disk under the datadir.
# Checked against what the server and the kernel say independently, in the
# results database, in the JSON-lines fallback, in microbench.run_costs and
# in bench_report(metric => 'client_cpu_per_query').
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
old_dirty_pct=$(my_value "SELECT @@GLOBAL.innodb_max_dirty_pages_pct")
cleanup() {
    my_value "SET GLOBAL innodb_max_dirty_pages_pct = $old_dirty_pct" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT

# A value of the last run of a label: last COLUMN-EXPRESSION LABEL
last() {
    pg_value "SELECT $1 FROM microbench.runs r WHERE label = '$2' ORDER BY run_id DESC LIMIT 1"
}

# A value of the JSON line in FILE: json_value FILE EXPRESSION-OVER-doc
json_value() {
    psql -X -A -t -q -d "$MB_RESULTS_DB" -v doc="$(cat "$1")" \
        <<<"SELECT $2 FROM (SELECT (:'doc')::jsonb AS doc) d"
}

# this file's labels start empty, also when it runs again on the same results database
pg_value "DELETE FROM microbench.runs WHERE label LIKE 'costs-%'" >/dev/null

# The block device of the datadir, found here without the client: the file
# system's device number (stat %d), looked up in /proc/diskstats.
datadir=$(my_value "SELECT @@datadir")
dev=$(stat -c '%d' "$datadir")
want_device=$(awk -v maj=$(((dev >> 8) & 0xfff)) -v min=$(((dev & 0xff) | ((dev >> 12) & 0xfff00))) \
    '$1 == maj && $2 == min { print $3 }' /proc/diskstats)
# what /proc/stat's "cpu" line adds up
cpus=$(grep -c '^cpu[0-9]' /proc/stat)

# A fresh sbtest1: earlier tests deleted rows, and a point select of a
# deleted id reads no row.  Purge of their writes would put redo into the
# read-only window below: let the history list drain first (at most 10 s).
mbm --table-size=5000 prepare >/dev/null
ok $? "sbtest1 prepared again"
for ((i = 0; i < 100; i++)); do
    [ "$(my_status INNODB_HISTORY_LIST_LENGTH)" = 0 ] && break
    sleep 0.1
done

# ---- a point-query run into the results database
# (in a subshell, whose `times` then gives the client process's whole CPU;
# the server process's CPU around it, from the kernel, bounds what its
# connection threads used)
server_pid=$(cat "$(my_value "SELECT @@pid_file")")
server_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$server_pid/stat"; }
ticks_before=$(server_ticks)
(
    mbm --table-size=5000 --threads=2 --time=2 --warmup-time=0 --label=costs-a \
        --results-db="$MB_RESULTS_DB" run point-query >"$dir/out" 2>&1
    rc=$?
    times >"$dir/times"     # not in a pipeline: that would be a fresh process
    exit $rc
)
ok $? "point-query run with --results-db succeeds"
process_cpu=$(awk '{ for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
                   END { printf "%.3f", s }' <(tail -n 1 "$dir/times"))
server_process_cpu=$(awk -v a="$ticks_before" -v b="$(server_ticks)" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.3f", (b - a) / hz }')

ev=$(last events costs-a)
is "$(last "(client_cpu_user_seconds + client_cpu_system_seconds) > 0" costs-a)" t \
   "client CPU per query > 0 ($(last "round(((client_cpu_user_seconds + client_cpu_system_seconds) * 1e6 / queries)::numeric, 2)" costs-a) us)"
is "$(last "client_cpu_user_seconds + client_cpu_system_seconds <= clients * elapsed_seconds" costs-a)" t \
   "client CPU <= threads x elapsed ($(last "round((client_cpu_user_seconds + client_cpu_system_seconds)::numeric, 3) || ' s <= ' || clients || ' x ' || round(elapsed_seconds::numeric, 3)" costs-a))"
is "$(last "client_cpu_user_seconds + client_cpu_system_seconds <= $process_cpu + 0.01" costs-a)" t \
   "client CPU <= the client process's whole CPU ($process_cpu s): each thread counted once"
is "$(last "server_status ->> 'Com_stmt_execute'" costs-a)" "$ev" \
   "server_status: Com_stmt_execute = events, exactly ($ev)"
is "$(last "server_status ->> 'Com_show_status'" costs-a)" 1 \
   "server_status: the monitor's one SHOW STATUS in the window shows in Com_show_status"
# MariaDB 10.6+ has no Innodb_rows_read (MDEV-28539); its Rows_read counts the same rows
rows_var=$(last "CASE WHEN server_status ? 'Innodb_rows_read' THEN 'Innodb_rows_read' ELSE 'Rows_read' END" costs-a)
is "$(last "(server_status ->> '$rows_var')::bigint >= events" costs-a)" t \
   "server_status: $rows_var delta >= events ($(last "server_status ->> '$rows_var'" costs-a) >= $ev)"
is "$(last "coalesce((server_status ->> 'Innodb_os_log_written')::float8, 0) / queries < 1" costs-a)" t \
   "point-query writes ~no redo: Innodb_os_log_written < 1 byte per query ($(last "coalesce(server_status ->> 'Innodb_os_log_written', '0')" costs-a) bytes)"
is "$(last "jsonb_typeof(server_status) = 'object'
            AND NOT EXISTS (SELECT 1 FROM jsonb_each(server_status) e WHERE jsonb_typeof(e.value) <> 'number' OR e.value = '0')" costs-a)" t \
   "server_status is an object of changed counters, every delta a JSON number"
is "$(pg_value "SELECT abs(c.client_cpu_us_per_query
                           - (r.client_cpu_user_seconds + r.client_cpu_system_seconds) * 1e6 / r.queries) < 1e-9
                FROM microbench.run_costs c JOIN microbench.runs r USING (run_id)
                WHERE r.label = 'costs-a'")" t \
   "run_costs: client_cpu_us_per_query = (client user + sys) * 1e6 / queries"
host_ratio=$(last "round(((host_cpu_user_seconds + host_cpu_system_seconds + host_cpu_iowait_seconds
                           + host_cpu_idle_seconds) / ($cpus * elapsed_seconds))::numeric, 2)" costs-a)
is "$(last "(host_cpu_user_seconds + host_cpu_system_seconds + host_cpu_iowait_seconds + host_cpu_idle_seconds)
            / ($cpus * elapsed_seconds) BETWEEN 0.7 AND 1.5" costs-a)" t \
   "host CPU seconds add up to about $cpus CPUs x elapsed ($host_ratio)"
is "$(last "host_context_switches > 0" costs-a)" t "host context switches are counted"
if [ -n "$want_device" ]; then
    is "$(last "coalesce(disk_device, 'NULL: ' || disk_note)" costs-a)" "$want_device" \
       "disk_device is the datadir's block device ($want_device)"
    is "$(last "disk_reads >= 0 AND disk_read_kb >= 0 AND disk_writes >= 0 AND disk_write_kb >= 0 AND disk_note IS NULL" costs-a)" t \
       "... with its reads and writes"
else
    is "$(last "disk_device IS NULL AND disk_reads IS NULL AND disk_note LIKE '%not a block device%'" costs-a)" t \
       "the datadir is on no block device: disk columns NULL, disk_note says why"
    ok 0 "# skip: no block device to count"
fi
is "$(last "num_nulls(wal_records, wal_fpi,
                      wal_bytes, shared_blks_hit, shared_blks_read, shared_blks_dirtied, shared_blks_written,
                      instructions, cycles, hw_counters_note)" costs-a)" 10 \
   "what the client cannot know (WAL, buffers, hardware counters) is NULL"
# the server's connection threads of the two sessions (information_schema.PROCESSLIST's TID)
is "$(last cpu_note costs-a)" "the server's 2 threads of the clients' sessions (/proc)" \
   "cpu_note: the CPU columns are the server's two connection threads'"
is "$(last "cpu_user_seconds > 0 AND cpu_system_seconds > 0 AND voluntary_cs > 0" costs-a)" t \
   "their user and system CPU and context switches are counted ($(last "round((cpu_user_seconds * 1e6 / queries)::numeric, 1) || ' / ' || round((cpu_system_seconds * 1e6 / queries)::numeric, 1)" costs-a) us user / system a query)"
is "$(last "cpu_user_seconds + cpu_system_seconds <= $server_process_cpu + 0.02" costs-a)" t \
   "... no more than the whole server process used around the run ($server_process_cpu s, the kernel's)"
is "$(last "microbench.metric_value(r, 'server_user_share') BETWEEN 0.001 AND 1" costs-a "r.*")" t \
   "server_user_share: the user share of the two clients' time, between 0 and 1 ($(last "round(microbench.metric_value(r, 'server_user_share')::numeric, 3)" costs-a "r.*"))"
grep -q -E '^    client CPU \(us\): +[0-9]+\.[0-9]+$' "$dir/out" &&
    grep -q -E "^    server CPU user / system \(us\): +[0-9.]+ / [0-9.]+ +\([0-9]+% of the clients' time in its user code\)$" "$dir/out" &&
    grep -q -E '^    host CPU \(us\): +[0-9.]+ +\(host [0-9]+% busy\)$' "$dir/out" &&
    grep -q -E "^    ($rows_var|Handler_read_key): +[0-9.]+$" "$dir/out"
ok $? "the summary has a 'Cost per query' block: client CPU, host CPU, server counters"

# ---- update-index: redo and data-file writes.  InnoDB leaves dirty pages
# in memory for long; with innodb_max_dirty_pages_pct = 0 its page cleaner
# writes them out at once, so the data files are written within the window.
my_value "SET GLOBAL innodb_max_dirty_pages_pct = 0"
mbm --table-size=5000 --time=1 --warmup-time=0 --label=costs-w --results-db="$MB_RESULTS_DB" \
    run update-index >"$dir/out" 2>&1
ok $? "update-index run succeeds"
my_value "SET GLOBAL innodb_max_dirty_pages_pct = $old_dirty_pct"
is "$(last "(server_status ->> 'Innodb_os_log_written')::bigint > 0
            AND (server_status ->> 'Innodb_data_written')::bigint > 0" costs-w)" t \
   "update-index: Innodb_os_log_written and Innodb_data_written deltas > 0 ($(last "server_status ->> 'Innodb_os_log_written' || ' and ' || (server_status ->> 'Innodb_data_written')" costs-w) bytes)"
is "$(last "server_status ->> 'Com_stmt_execute' = events::text" costs-w)" t \
   "update-index: Com_stmt_execute = events"
is "$(pg_value "SELECT w.innodb_log_bytes_per_query > 100 * coalesce(a.innodb_log_bytes_per_query, 0)
                FROM microbench.run_costs w, microbench.run_costs a
                WHERE w.label = 'costs-w' AND a.label = 'costs-a'")" t \
   "run_costs: update-index writes far more redo per query than point-query"

# ---- over TCP to 127.0.0.1 (still this host), no results database: the JSON line
mbm --mysql-host=127.0.0.1 --mysql-port="$MYSQL_PORT" --table-size=5000 --time=0.5 \
    --warmup-time=0 --label=costs-json --results-file="$dir/r.jsonl" run point-query >"$dir/out" 2>&1
ok $? "run over TCP to 127.0.0.1 into the results file succeeds"
cost_columns="cpu_user_seconds cpu_system_seconds voluntary_cs involuntary_cs wal_records wal_fpi wal_bytes
    shared_blks_hit shared_blks_read shared_blks_dirtied shared_blks_written instructions cycles hw_counters_note
    host_cpu_user_seconds host_cpu_system_seconds host_cpu_iowait_seconds host_cpu_idle_seconds
    host_context_switches disk_device disk_reads disk_read_kb disk_writes disk_write_kb disk_note
    client_cpu_user_seconds client_cpu_system_seconds server_status cpu_note"
is "$(json_value "$dir/r.jsonl" "(SELECT string_agg(k, ',') FROM
        unnest(string_to_array(regexp_replace('$cost_columns', '\s+', ' ', 'g'), ' ')) k
        WHERE NOT doc ? k)")" "" \
   "the JSON line has every cost column, as the database row does"
is "$(pg_value "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'microbench'
                AND table_name = 'runs' AND column_name = ANY (string_to_array(regexp_replace('$cost_columns', '\s+', ' ', 'g'), ' '))")" 29 \
   "... the 29 cost columns of microbench.runs"
is "$(json_value "$dir/r.jsonl" "jsonb_typeof(doc -> 'server_status') || ' ' || (doc -> 'server_status' ->> 'Com_stmt_execute' = doc ->> 'events')")" \
   "object true" "JSON line: server_status is an object, its Com_stmt_execute = events"
is "$(json_value "$dir/r.jsonl" "jsonb_typeof(doc -> 'client_cpu_user_seconds') || ' ' || jsonb_typeof(doc -> 'client_cpu_system_seconds')
        || ' ' || jsonb_typeof(doc -> 'host_cpu_user_seconds') || ' ' || jsonb_typeof(doc -> 'host_context_switches')
        || ' ' || jsonb_typeof(doc -> 'cpu_user_seconds') || ' ' || jsonb_typeof(doc -> 'hw_counters_note')")" \
   "number number number number number null" \
   "JSON line: client, host and server CPU are numbers (127.0.0.1 is local), the hw note null"
is "$(json_value "$dir/r.jsonl" "coalesce(doc ->> 'disk_device', 'NULL: ' || (doc ->> 'disk_note'))")" \
   "${want_device:-NULL: $(json_value "$dir/r.jsonl" "doc ->> 'disk_note'")}" \
   "JSON line: the same disk device"

# ---- a server by any other name is taken for a remote one: 127.1 is this
# host too, but it stands in here for a remote server (the test server
# listens on loopback only)
mbm --mysql-host=127.1 --mysql-port="$MYSQL_PORT" --table-size=5000 --time=0.3 \
    --warmup-time=0 --label=costs-remote --results-db="$MB_RESULTS_DB" run point-query >"$dir/out" 2>&1
ok $? "run over TCP to 127.1 succeeds"
is "$(last "num_nonnulls(host_cpu_user_seconds, host_cpu_system_seconds, host_cpu_iowait_seconds,
                         host_cpu_idle_seconds, host_context_switches, disk_device, disk_reads,
                         disk_read_kb, disk_writes, disk_write_kb) || ' ' || disk_note
            || ' ' || (client_cpu_user_seconds IS NOT NULL) || ' ' || (server_status IS NOT NULL)
            || ' ' || num_nonnulls(cpu_user_seconds, cpu_system_seconds, voluntary_cs, involuntary_cs)
            || ' ' || cpu_note" costs-remote)" \
   "0 the server is not on this host true true 0 not read: the server is not on this host" \
   "not local: host, disk and server CPU columns NULL, the notes say why; client CPU and server_status still there"
grep -q -E '^    host CPU, disk: +not counted: the server is not on this host$' "$dir/out"
ok $? "... and the summary says so"

# ---- bench_report over two client labels, by client CPU per query
mbm --table-size=5000 --threads=1 --time=0.5 --warmup-time=0.3 --label=costs-b \
    --results-db="$MB_RESULTS_DB" run point-query >/dev/null 2>&1
ok $? "a second label's point-query run, with a warm-up"
is "$(last "server_status ->> 'Com_stmt_execute' = events::text" costs-b)" t \
   "with a warm-up too, Com_stmt_execute = events: the clients pause for the first snapshot"
report=$(pg_value "SELECT microbench.bench_report('costs-a', 'costs-b', 'text', 'post', metric => 'client_cpu_per_query')")
cell=$(awk '$2 == "point-query" { print $1 }' <<<"$report")
is "${cell%[=?]}" "$(pg_value "SELECT to_char(b.client_cpu_us_per_query / a.client_cpu_us_per_query, 'FM999990.00')
                             FROM microbench.run_costs a, microbench.run_costs b
                             WHERE a.label = 'costs-a' AND b.label = 'costs-b'")" \
   "bench_report(metric => 'client_cpu_per_query'): the point-query cell is costs-b's client CPU per query over costs-a's ($cell)"
grep -q "metric: client_cpu_per_query" <<<"$report"
ok $? "... and the report says which metric it compares"

done_testing
