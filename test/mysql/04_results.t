#!/usr/bin/env bash
# 04_results.t — a run lands in microbench.runs with the same columns the
# extension writes (dbms mariadb, version, label, parameters, host); without
# a results database, or when it is down, the result goes to a JSON-lines file
# that microbench.import_runs() loads.  Nothing measured is lost.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

before=$(pg_value "SELECT count(*) FROM microbench.runs")
mbm --table-size=5000 --time=0.5 --warmup-time=0 --label=gcc --phase=pre --rand-type=pareto \
    --rand-seed=9 --results-db="$MB_RESULTS_DB" run read-only_range=100 >"$dir/out" 2>&1
ok $? "run with --results-db succeeds"
is "$(pg_value "SELECT count(*) FROM microbench.runs") " "$((before + 1)) " "the run is one new row in microbench.runs"
row=$(pg_value "SELECT concat_ws('|', dbms, version = '$(my_value "SELECT SUBSTRING_INDEX(VERSION(), '-', 1)")', label, workload, phase,
                 tables, table_size, range_size, clients, rand_type, seed, seconds, driver)
                FROM microbench.runs ORDER BY run_id DESC LIMIT 1")
is "$row" "mariadb|t|gcc|read-only_range=100|pre|1|5000|100|1|pareto|9|0.5|mysql" \
   "dbms, version, label, workload and every parameter are recorded"
is "$(pg_value "SELECT (queries = events * 16 AND qps > 0 AND lat_p95_ms > 0 AND host <> '' AND cpu_cores > 0
                        AND version_string LIKE '%MariaDB%' AND compiler IS NULL)
                FROM microbench.runs ORDER BY run_id DESC LIMIT 1")" "t" \
   "figures, host and version string are recorded; compiler is NULL (the server does not say)"
grep -q "recorded as run" "$dir/out"
ok $? "the client says which run id it recorded"

# no results database: a JSON line, and the printed recipe loads it
mbm --table-size=5000 --time=0.5 --warmup-time=0 --label=file --results-file="$dir/r.jsonl" \
    run point-query >"$dir/out" 2>&1
ok $? "run without --results-db succeeds"
is "$(wc -l <"$dir/r.jsonl")" 1 "the result is one JSON line"
grep -q "microbench load $dir/r.jsonl --results-db=" "$dir/out"
ok $? "the client prints how to load the file (11_load.t loads it that way)"
psql -X -q -d "$MB_RESULTS_DB" \
    -c "\\copy microbench.import_queue (doc) FROM '$dir/r.jsonl' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')" \
    -c "SELECT microbench.import_runs()" >/dev/null
is "$(pg_value "SELECT concat_ws('|', events, queries, dbms) FROM microbench.runs WHERE label = 'file'")" \
   "$(json_field "$(cat "$dir/r.jsonl")" events)|$(json_field "$(cat "$dir/r.jsonl")" queries)|mariadb" \
   "the imported row matches the file"

# results database down: fall back to the file, say so, exit non-zero
mbm --table-size=5000 --time=0.5 --warmup-time=0 --label=down --results-file="$dir/down.jsonl" \
    --results-db="host=$dir port=1 dbname=nothing connect_timeout=2" run point-query >"$dir/out" 2>"$dir/err"
rc=$?
is "$rc" 1 "an unreachable results database exits 1"
is "$(wc -l <"$dir/down.jsonl" 2>/dev/null)" 1 "... and keeps the result in the file"
grep -q "keeping the result in $dir/down.jsonl" "$dir/err"
ok $? "... and says where it is"

done_testing
