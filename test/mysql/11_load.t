#!/usr/bin/env bash
# 11_load.t — microbench load: a run that landed in the results file
# (results database down) goes into microbench.runs with one command, with
# the values the file has; each run loads in a transaction of its own, so a
# bad line is named by file and line and the runs before it stay; a missing
# file is one line and exit 2; standard input works; a run already in the
# database (its run_uid) is skipped, so loading twice adds nothing.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

runs() { pg_value "SELECT count(*) FROM microbench.runs"; }
# load ARGS...: the client's load, stdout and stderr kept apart
load() { "$MBM" load "$@" >"$dir/out" 2>"$dir/err"; }
# relabel NEW: the run of r.jsonl as another run, labelled NEW (a copy with
# its run_uid would be the same run)
relabel() { sed "s/\"loadme\"/\"$1\"/; s/\"run_uid\": \"[^\"]*\", //" "$dir/r.jsonl"; }

# ---- a run the results database did not take ----
mbm --table-size=5000 --time=0.5 --warmup-time=0 --label=loadme --rand-seed=11 \
    --results-file="$dir/r.jsonl" --results-db="host=$dir port=1 dbname=nothing connect_timeout=2" \
    run point-query >"$dir/run.out" 2>&1
is "$?:$(wc -l <"$dir/r.jsonl")" "1:1" "a run with the results database down exits 1 and lands in the file"
grep -qF "microbench load $dir/r.jsonl --results-db='host=$dir port=1 dbname=nothing connect_timeout=2'" "$dir/run.out"
ok $? "the hint is the load command, with the file and the --results-db given"
line=$(cat "$dir/r.jsonl")

before=$(runs)
load "$dir/r.jsonl" --results-db="$MB_RESULTS_DB"
is "$?" 0 "load exits 0"
is "$(cat "$dir/out")" "loaded 1 run into microbench.runs from $dir/r.jsonl" "it says, in one line, how many runs from which file"
is "$(wc -c <"$dir/err")" 0 "... and nothing on stderr"
is "$(runs)" "$((before + 1))" "the run is one new row in microbench.runs"
row=$(pg_value "SELECT concat_ws('|', dbms, label, workload, phase, seed, events, queries, driver,
                                 to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'))
                FROM microbench.runs WHERE label = 'loadme'")
want="mariadb|loadme|point-query|post|11|$(json_field "$line" events)|$(json_field "$line" queries)|mysql|$(json_field "$line" started_at | cut -c1-26)"
is "$row" "$want" "the row has the file's dbms, label, workload, phase, seed, events, queries, driver and start"
is "$(pg_value "SELECT qps = '$(json_field "$line" qps)'::float8 AND lat_p95_ms = '$(json_field "$line" lat_p95_ms)'::float8
                       AND array_length(qps_per_second, 1) > 0
                FROM microbench.runs WHERE label = 'loadme'")" "t" \
   "... and its qps, p95 latency and per-second QPS"

# ---- loading the same file again: the run is there, it is skipped ----
load "$dir/r.jsonl" --results-db="$MB_RESULTS_DB"
is "$?" 0 "loading the same file again exits 0"
is "$(runs)" "$((before + 1))" "... and adds no row"
grep -q "^loaded 0 runs into microbench.runs from $dir/r.jsonl; skipped 1 already there" "$dir/out"
ok $? "... and says it skipped the run already there ($(cat "$dir/out"))"

# ---- several files, blank lines skipped, counted per file ----
relabel second >"$dir/a.jsonl"
{ echo; relabel third; echo "   "; echo; } >"$dir/b.jsonl"
load "$dir/a.jsonl" "$dir/b.jsonl" --results-db="$MB_RESULTS_DB"
is "$?:$(cat "$dir/out")" "0:loaded 2 runs into microbench.runs from $dir/a.jsonl (1), $dir/b.jsonl (1)" \
   "two files, blank lines skipped: one line with the count per file"
is "$(pg_value "SELECT string_agg(label, ',' ORDER BY label) FROM microbench.runs WHERE label IN ('second', 'third')")" \
   "second,third" "... and both runs are in microbench.runs"

# ---- a bad line: the runs before it stay, the line named, a second load finishes ----
before=$(runs)
{ relabel bad1; echo; echo '{"dbms": "mariadb", "workload": '; } >"$dir/bad.jsonl"
relabel bad0 >"$dir/good.jsonl"
load "$dir/good.jsonl" "$dir/bad.jsonl" --results-db="$MB_RESULTS_DB"
is "$?:$(wc -l <"$dir/err")" "1:1" "a line that is not JSON: exit 1, one line on stderr"
grep -q "^microbench: load: $dir/bad.jsonl:3: invalid input syntax for type json" "$dir/err"
ok $? "... naming the file and line and the server's reason ($(cat "$dir/err"))"
grep -q "2 runs before it loaded (and 0 already there): load again once it is fixed" "$dir/err"
ok $? "... and saying how many runs loaded before it"
is "$(runs):$(wc -c <"$dir/out")" "$((before + 2)):0" "... which they did, each in its own transaction"
sed -i 3d "$dir/bad.jsonl"
load "$dir/good.jsonl" "$dir/bad.jsonl" --results-db="$MB_RESULTS_DB"
is "$?:$(cat "$dir/out"):$(runs)" \
   "0:loaded 0 runs into microbench.runs from $dir/good.jsonl (0), $dir/bad.jsonl (0); skipped 2 already there (the same run_uid):$((before + 2))" \
   "loading again once the line is fixed adds nothing twice"
before=$(runs)

# a JSON line push_run() refuses (a dbms microbench.runs does not take)
relabel bad2 | sed 's/"dbms": "mariadb"/"dbms": "oracle"/' >"$dir/bad2.jsonl"
load - "$dir/bad2.jsonl" --results-db="$MB_RESULTS_DB" <"$dir/good.jsonl"
is "$?:$(wc -l <"$dir/err")" "1:1" "a line microbench.runs refuses: exit 1, one line"
grep -q "^microbench: load: $dir/bad2.jsonl:1: .*runs_dbms_check" "$dir/err"
ok $? "... naming the line and the constraint ($(cat "$dir/err"))"
is "$(runs)" "$before" "... and nothing is loaded"

printf '[1, 2]\n' >"$dir/array.jsonl"
load "$dir/array.jsonl" --results-db="$MB_RESULTS_DB"
grep -q "array.jsonl:1: not a JSON object" "$dir/err"
is "$?:$(runs)" "0:$before" "a line that is not a JSON object is refused and named"

# ---- a missing file: one line, exit 2, nothing loaded ----
load "$dir/good.jsonl" "$dir/missing.jsonl" --results-db="$MB_RESULTS_DB"
is "$?:$(wc -l <"$dir/err")" "2:1" "a missing file: exit 2, one line on stderr"
grep -q "cannot read $dir/missing.jsonl: No such file or directory" "$dir/err"
ok $? "... naming the file ($(cat "$dir/err"))"
is "$(runs)" "$before" "... and the other file's run is not loaded"
load "$dir" --results-db="$MB_RESULTS_DB"
is "$?:$(wc -l <"$dir/err")" "2:1" "a directory: exit 2, one line"
load --results-db="$MB_RESULTS_DB"
is "$?:$(wc -l <"$dir/err")" "2:1" "no file: exit 2, one line"

# ---- standard input ----
relabel stdin >"$dir/stdin.jsonl"
load - --results-db="$MB_RESULTS_DB" <"$dir/stdin.jsonl"
is "$?:$(cat "$dir/out")" "0:loaded 1 run into microbench.runs from standard input" "- reads standard input"
is "$(pg_value "SELECT count(*) FROM microbench.runs WHERE label = 'stdin'")" 1 "... and its run is in microbench.runs"
load - - --results-db="$MB_RESULTS_DB" </dev/null
is "$?:$(wc -l <"$dir/err")" "2:1" "- twice: exit 2, one line"

# ---- the results database: from libpq's environment, never with a password ----
relabel fromenv >"$dir/env.jsonl"
PGDATABASE=microbench_results "$MBM" load "$dir/env.jsonl" >"$dir/out" 2>"$dir/err"
is "$?:$(pg_value "SELECT count(*) FROM microbench.runs WHERE label = 'fromenv'")" "0:1" \
   "without --results-db, load reaches libpq's PGHOST/PGDATABASE"
load "$dir/r.jsonl" --results-db="$MB_RESULTS_DB password=sekrit"
is "$?:$(wc -l <"$dir/err")" "2:1" "a password in --results-db is refused"
grep -q sekrit "$dir/err"
is "$?" 1 "... without showing it"
load "$dir/r.jsonl" --results-db="host=$dir port=1 dbname=nothing connect_timeout=2"
is "$?:$(wc -l <"$dir/err")" "2:1" "an unreachable results database: exit 2, one line"
grep -q "cannot reach the results database" "$dir/err"
ok $? "... saying so ($(cat "$dir/err"))"

# the \copy recipe (10_runs.sql) goes through push_run() too: a run already there stays one
psql -X -q -d "$MB_RESULTS_DB" \
    -c "\\copy microbench.import_queue (doc) FROM '$dir/stdin.jsonl' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')" \
    -c "SELECT microbench.import_runs()" >/dev/null
is "$(pg_value "SELECT count(*) FROM microbench.runs WHERE label = 'stdin'"):$(pg_value "SELECT count(*) FROM microbench.import_queue")" \
   "1:0" "import_runs() skips a run already loaded, and empties the queue"

done_testing
