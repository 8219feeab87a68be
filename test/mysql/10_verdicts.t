#!/usr/bin/env bash
# 10_verdicts.t — what a verdict needs beyond one QPS per run
# (results_schema/17_verdicts.sql): the QPS of each second of the measured
# window (qps_per_second), the host-speed canary right before and right
# after it (canary_before_us, canary_after_us) and a fingerprint of the
# tables the run read (data_state), its round and server start (round,
# instance) and how long the client threads ran and waited for a CPU
# (cpu_run_seconds, cpu_wait_seconds, cpu_wait_per_second), in the results
# database and in the JSON line.  No check depends on how fast the machine is: sample counts
# follow from --time alone, sums are checked against the run's own queries.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# A value of the last run of a label: last COLUMN-EXPRESSION LABEL
last() {
    pg_value "SELECT $1 FROM microbench.runs WHERE label = '$2' ORDER BY run_id DESC LIMIT 1"
}

# A value of the JSON line in FILE: json_value FILE EXPRESSION-OVER-doc
json_value() {
    psql -X -A -t -q -d "$MB_RESULTS_DB" -v doc="$(cat "$1")" \
        <<<"SELECT $2 FROM (SELECT (:'doc')::jsonb AS doc) d"
}

# run LABEL SECONDS [OPTION...] WORKLOAD: a run into the results database
run() {
    local label=$1 seconds=$2; shift 2
    mbm --table-size=5000 --time="$seconds" --warmup-time=0 --label="$label" \
        --results-db="$MB_RESULTS_DB" run "$@" >"$dir/$label.out" 2>&1
}

# this file's labels start empty, also when it runs again on the same results database
pg_value "DELETE FROM microbench.runs WHERE label LIKE 'verdict-%'" >/dev/null

# a fresh sbtest1: earlier tests deleted and inserted rows
mbm --table-size=5000 prepare >/dev/null
ok $? "sbtest1 prepared again"

# ---- qps_per_second: one sample per second of the window, whatever --report-interval
run verdict-2.2 2.2 point-query
ok $? "a 2.2 s run succeeds"
is "$(last "array_length(qps_per_second, 1)" verdict-2.2)" 2 \
   "2.2 s: 2 samples, the 0.2 s tail dropped"
# the tail holds less than 0.5 s of the 2.2 s, so its share of the queries is under half
is "$(last "(SELECT sum(x) FROM unnest(qps_per_second) x) BETWEEN queries * 0.5 AND queries * 1.02" verdict-2.2)" t \
   "2.2 s: the two samples hold the queries but the tail's ($(last "round((SELECT sum(x) FROM unnest(qps_per_second) x))" verdict-2.2) of $(last queries verdict-2.2))"

run verdict-2.6 2.6 --report-interval=0.7 point-query
ok $? "a 2.6 s run with --report-interval=0.7 succeeds"
is "$(grep -c '^\[ ' "$dir/verdict-2.6.out")" 3 "... and prints its 3 progress lines"
is "$(last "array_length(qps_per_second, 1)" verdict-2.6)" 3 \
   "2.6 s: 3 samples, the 0.6 s tail kept, whatever the progress interval"
# sum of qps x duration: two full seconds and the tail, which lasts to the end of the window
weighted="qps_per_second[1] + qps_per_second[2] + qps_per_second[3] * (elapsed_seconds - 2)"
is "$(last "abs($weighted - queries) <= 0.02 * queries" verdict-2.6)" t \
   "2.6 s: sum of qps x duration = queries within 2% ($(last "round($weighted)" verdict-2.6) vs $(last queries verdict-2.6))"

echo "# 2.6 s: qps_per_second $(last qps_per_second verdict-2.6), queries $(last queries verdict-2.6), elapsed $(last elapsed_seconds verdict-2.6) s"

run verdict-0.3 0.3 point-query
ok $? "a 0.3 s run succeeds"
is "$(last "array_length(qps_per_second, 1)" verdict-0.3)" 1 "0.3 s: exactly 1 sample"
is "$(last "abs(qps_per_second[1] * elapsed_seconds - queries) <= 0.02 * queries" verdict-0.3)" t \
   "0.3 s: the one sample covers the whole window ($(last "round(qps_per_second[1] * elapsed_seconds)" verdict-0.3) vs $(last queries verdict-0.3) queries)"

mbm --table-size=5000 --events=300 --warmup-time=0 --label=verdict-events \
    --results-db="$MB_RESULTS_DB" run point-query >"$dir/events.out" 2>&1
ok $? "a run bounded by --events=300 succeeds"
is "$(last "array_length(qps_per_second, 1) >= 1" verdict-events)" t "... and has at least 1 sample"

is "$(pg_value "SELECT count(*) FROM microbench.runs, unnest(qps_per_second) x
                WHERE label LIKE 'verdict-%' AND NOT x > 0")" 0 "every sample of every run is > 0"

# ---- the canary, before and after the window
is "$(pg_value "SELECT count(*) FROM microbench.runs WHERE label LIKE 'verdict-%'
                AND canary_before_us > 0 AND canary_after_us > 0")" 4 \
   "canary_before_us and canary_after_us > 0 in every run's row"
grep -Eq '^    canary: +[0-9]+ us before, [0-9]+ us after$' "$dir/verdict-0.3.out"
ok $? "the summary shows the canary"

# ---- data_state: the tables the run read, before it
state() { last "data_state ->> '$1'" "$2"; }
is "$(last "(data_state->>'data_bytes')::bigint > 0 AND (data_state->>'index_bytes')::bigint > 0
            AND (data_state->>'rows')::bigint > 0" verdict-0.3)" t \
   "data_state: data_bytes, index_bytes and rows > 0 for the prepared table"
# the runs so far only read: the server still says the same about sbtest1
is "$(state data_bytes verdict-0.3) $(state index_bytes verdict-0.3) $(state rows verdict-0.3)" \
   "$(my_value "SELECT CONCAT_WS(' ', DATA_LENGTH, INDEX_LENGTH, TABLE_ROWS) FROM information_schema.TABLES
                WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'")" \
   "data_state: they are sbtest1's DATA_LENGTH, INDEX_LENGTH and TABLE_ROWS"
is "$(last "jsonb_typeof(data_state->'history_length') = 'number' AND (data_state->>'history_length') ~ '^[0-9]+$'" verdict-0.3)" t \
   "data_state: history_length is an integer >= 0 ($(state history_length verdict-0.3))"

# after writes, the next run's fingerprint still loads, with every key
run verdict-writes 1 update-index
ok $? "a 1 s update-index run succeeds"
run verdict-after 0.3 point-query
ok $? "the next run succeeds"
is "$(last "data_state ?& array['data_bytes', 'index_bytes', 'rows', 'history_length']
            AND (data_state->>'data_bytes')::bigint > 0 AND (data_state->>'rows')::bigint > 0
            AND (data_state->>'history_length') ~ '^[0-9]+$'" verdict-after)" t \
   "after a write workload, the next run's data_state has every key ($(last data_state verdict-after))"

# ---- round, instance, CPU run and wait times (a busy machine may give the
# client thread little of the window: that it ran, and no more than the
# window, is what holds whatever else runs)
mbm --table-size=5000 --time=2.2 --warmup-time=0 --label=verdict-round --round=4 \
    --results-db="$MB_RESULTS_DB" run point-query >"$dir/round.out" 2>&1
ok $? "a run with --round=4 succeeds"
is "$(last "round" verdict-round)" 4 "round: as given"
is "$(last "instance ~ '^port [0-9]+, started [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\$'" verdict-round)" t \
   "instance: the server's port and start, asked of the server ($(last instance verdict-round))"
is "$(last "instance" verdict-0.3)" "$(last "instance" verdict-round)" "... the same for every run of one server start"
is "$(last "cpu_run_seconds > 0.05 AND cpu_wait_seconds >= 0 AND cpu_run_seconds + cpu_wait_seconds <= elapsed_seconds * clients + 0.05" verdict-round)" t \
   "cpu_run_seconds and cpu_wait_seconds: the client thread's, within the window ($(last "round(cpu_run_seconds::numeric, 3) || ' + ' || round(cpu_wait_seconds::numeric, 3)" verdict-round) s of $(last "round(elapsed_seconds::numeric, 3)" verdict-round) s)"
is "$(last "cardinality(cpu_wait_per_second) = cardinality(qps_per_second)
            AND (SELECT bool_and(x BETWEEN 0 AND 1) FROM unnest(cpu_wait_per_second) x)" verdict-round)" t \
   "cpu_wait_per_second: a share in 0..1 for each second ($(last cpu_wait_per_second verdict-round))"
mbm --table-size=5000 --time=0.3 --warmup-time=0 --label=verdict-named --instance='mariadb a, start 7' \
    --results-db="$MB_RESULTS_DB" run point-query >/dev/null 2>&1
is "$(last "coalesce(round::text, 'null') || ' ' || instance" verdict-named)" "null mariadb a, start 7" \
   "--instance names the start as a runner knows it; no --round: none"

# ---- the JSON line: the same fields, and import_runs() keeps them
mbm --table-size=5000 --time=1.6 --warmup-time=0 --label=verdict-file --results-file="$dir/r.jsonl" \
    run point-query >"$dir/file.out" 2>&1
ok $? "a run into the results file succeeds"
is "$(json_value "$dir/r.jsonl" "concat_ws('|', jsonb_typeof(doc->'qps_per_second'), jsonb_array_length(doc->'qps_per_second'),
       (doc->>'canary_before_us')::float8 > 0, (doc->>'canary_after_us')::float8 > 0,
       doc->'data_state' ?& array['data_bytes', 'index_bytes', 'rows', 'history_length'],
       doc->>'instance' LIKE 'port %', jsonb_array_length(doc->'cpu_wait_per_second'),
       (doc->>'cpu_run_seconds')::float8 > 0)")" "array|2|t|t|t|t|2|t" \
   "the JSON line has qps_per_second (2 samples for 1.6 s), both canaries > 0, data_state, instance and CPU times"
psql -X -q -d "$MB_RESULTS_DB" \
    -c "\\copy microbench.import_queue (doc) FROM '$dir/r.jsonl' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')" \
    -c "SELECT microbench.import_runs()" >/dev/null
ok $? "import_runs() loads the line"
is "$(last "qps_per_second::text" verdict-file)" \
   "$(json_value "$dir/r.jsonl" "(SELECT array_agg(x::float8 ORDER BY i) FROM jsonb_array_elements_text(doc->'qps_per_second') WITH ORDINALITY a(x, i))::text")" \
   "import_runs() keeps qps_per_second as the array the file had"
is "$(last "concat_ws('|', canary_before_us, canary_after_us, data_state::text, instance, cpu_wait_seconds, cpu_wait_per_second::text)" verdict-file)" \
   "$(json_value "$dir/r.jsonl" "concat_ws('|', (doc->>'canary_before_us')::float8, (doc->>'canary_after_us')::float8, (doc->'data_state')::text,
                                   doc->>'instance', (doc->>'cpu_wait_seconds')::float8,
                                   (SELECT array_agg(x::float8 ORDER BY i) FROM jsonb_array_elements_text(doc->'cpu_wait_per_second') WITH ORDINALITY a(x, i))::text)")" \
   "... and the canaries, data_state, instance and CPU waits"

done_testing
