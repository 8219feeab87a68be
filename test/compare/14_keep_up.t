#!/usr/bin/env bash
# 14_keep_up.t — microbench compare --keep-up: each build's server starts
# once a round from pristine data and stays up for every timed run of the
# round, on Postgres and MariaDB alike; the reads run first, and before
# each run of a write its server's tables are loaded again, so that it
# reads what a fresh start would; the model counts a start's runs of a
# workload as one pair; it is refused without timed runs; a stop signal
# while the servers are up stops them and leaves nothing behind.
set -u
. "$(dirname "$0")/lib.sh"

both=(--pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --mariadb a="$MARIADBD" --mariadb b="$MARIADBD"
      --table-size 5000 --max-minutes 0)

"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --keep-up --metric instructions \
    --out "$scratch/refused" >/dev/null 2>"$scratch/err"
is "$?:$(grep -c -e '--keep-up keeps the servers of timed runs up: give --metric qps or both too' "$scratch/err"):$([ -e "$scratch/refused" ] && echo made || echo none)" \
   "2:1:none" "--keep-up with counted runs only: refused with one line, nothing made"

rdb="$scratch/results-db"
chmod 711 "$scratch"
at_exit '"$root/test/pg_cluster.sh" stop "$rdb"'
"$root/test/pg_cluster.sh" start "$rdb" 5493 >/dev/null
conninfo="host=$rdb port=5493 user=postgres dbname=postgres"

out="$scratch/keep-up"
"$MB" compare "${both[@]}" --workloads insert,point-query --rounds 2 --keep-up --turns 2 \
    --seconds 0.5 --warmup 0.2 --confidence 0.999 --results-db "$conninfo" --out "$out" \
    >"$scratch/keep-up.out" 2>"$scratch/keep-up.err"
ok $? "A/A with --keep-up --turns 2 on both DBMS: exit 0 ($(tail -1 "$scratch/keep-up.err"))"
is "$(wc -l <"$out/runs.jsonl")" 32 "2 DBMS x 2 labels x 2 rounds x 2 workloads x 2 turns: 32 runs"
is "$(python3 -c '
import json, sys, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
starts = collections.defaultdict(set)
for r in runs:
    starts[(r["dbms"], r["label"], r["round"])].add(r["instance"])
print(len(starts), sorted(len(s) for s in starts.values())[-1], len({r["instance"] for r in runs}))' "$out/runs.jsonl")" \
   "8 1 8" "one start per build and round, for all its workloads"
is "$(python3 -c '
import json, sys, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
on = collections.defaultdict(list)
for r in runs:
    on[r["instance"]].append(r)
bad = [i for i, rs in on.items()
       if max(r["started_at"] for r in rs if r["workload"] == "point-query")
          > min(r["started_at"] for r in rs if r["workload"] == "insert")]
print(len(bad))' "$out/runs.jsonl")" 0 "on every start the read ran before the write, though the write is named first"
is "$(python3 -c '
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
print(sorted({(r["data_state"]["live_rows"], r["data_state"]["dead_rows"])
              for r in runs if r["dbms"] == "postgres"}))' "$out/runs.jsonl")" "[(5000, 0)]" \
   "Postgres: every run, each insert turn too, read the 5000 rows of the pristine data, none dead"
is "$(python3 -c '
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["dbms"] == "mariadb"]
print(len({r["data_state"]["data_bytes"] for r in runs}), sorted({r["data_state"]["history_length"] for r in runs}))' \
      "$out/runs.jsonl")" "1 [0]" \
   "MariaDB: every run, each insert turn too, read tables of one size with nothing left to purge"
is "$(psql -X -A -t -d "$conninfo" -c "SELECT string_agg(DISTINCT pairs::text, ',') || ' ' || count(*)
      FROM microbench.compare('a', 'b') WHERE base_runs > 0")" "2 4" \
   "the model counts a start's turns of a workload as one pair: 2 pairs a cell, 4 cells"
is "$(cells "$out/report.txt" | grep -vcE '[=?]$')" 0 "A/A: no cell is a difference"
is "$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["runs"]; print(r["keep_up"], r["turns"])' "$out/manifest.json")" "True 2" \
   "the manifest says the servers were kept up, and how many turns"
ok "$(grep -qE 'per run .* \(copy .*, reload [0-9.]+\)' "$scratch/keep-up.out"; echo $?)" \
   "the summary says what loading the tables again took"
nothing_left "--keep-up"

# ---- TERM while the servers are up: all stopped, the runs so far kept
out="$scratch/term"
"$MB" compare "${both[@]}" --workloads point-query,insert --rounds 1 --keep-up --turns 20 --seconds 0.5 \
    --warmup 0.2 --out "$out" >"$scratch/term.out" 2>&1 &
pid=$!
for i in $(seq 600); do [ "$(cat "$out/runs.jsonl" 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
is "$?:$(grep -c 'interrupted by SIGTERM' "$scratch/term.out")" "143:1" "TERM with the servers kept up: exit 143, said so"
ok "$([ -s "$out/runs.jsonl" ] && [ -s "$out/report.txt" ]; echo $?)" "... the runs so far kept and reported"
nothing_left "TERM with the servers kept up"

done_testing
