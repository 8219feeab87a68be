#!/usr/bin/env bash
# 09_turns.t — microbench compare --turns: per round and read workload,
# both builds' servers start from pristine data and are up at once, their
# timed runs take turns (a b, b a, a b), on Postgres and MariaDB alike; a
# write keeps one run per start; the model counts a round's turns on one
# start as one pair; a stop signal in the middle of the turns stops both
# servers and leaves nothing behind.
set -u
. "$(dirname "$0")/lib.sh"

both=(--pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --mariadb a="$MARIADBD" --mariadb b="$MARIADBD"
      --table-size 5000 --max-minutes 0)

"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --turns 0 --out "$scratch/refused" \
    >/dev/null 2>"$scratch/err"
is "$?:$(grep -c -e '--turns must be a number from 1 to 100' "$scratch/err"):$([ -e "$scratch/refused" ] && echo made || echo none)" \
   "2:1:none" "--turns 0: refused with one line, nothing made"

# the results go into a database of the test's own too, to ask the model what it paired
rdb="$scratch/results-db"
chmod 711 "$scratch"
at_exit '"$root/test/pg_cluster.sh" stop "$rdb"'
"$root/test/pg_cluster.sh" start "$rdb" 5494 >/dev/null
conninfo="host=$rdb port=5494 user=postgres dbname=postgres"

out="$scratch/turns"
"$MB" compare "${both[@]}" --workloads point-query,update-index --rounds 2 --turns 3 \
    --seconds 0.5 --warmup 0.3 --confidence 0.999 --results-db "$conninfo" --out "$out" \
    >"$scratch/turns.out" 2>"$scratch/turns.err"
ok $? "A/A with --turns 3 on both DBMS: exit 0 ($(tail -1 "$scratch/turns.err"))"
is "$(wc -l <"$out/runs.jsonl")" 32 "2 DBMS x 2 labels x 2 rounds x (3 turns of a read + 1 run of a write): 32 runs"
is "$(python3 -c '
import json, sys, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
per = collections.Counter((r["dbms"], r["label"], r["workload"], r["round"], r["instance"]) for r in runs)
print(len(per), sorted(set(per.values())), len({r["instance"] for r in runs}))' "$out/runs.jsonl")" \
   "16 [1, 3] 16" "a start per build, workload and round: three turns on a read'"'"'s, one run on a write'"'"'s"
# the turns' order per DBMS, workload and round as the manifest lists the runs
order=$(python3 -c '
import json, sys
seen = {}
for o in json.load(open(sys.argv[1]))["order"]:
    seen.setdefault((o["dbms"], o["round"], o["workload"]), []).append(o["label"])
print("|".join(d + " " + str(r) + " " + w + ": " + " ".join(l) for (d, r, w), l in seen.items()))' "$out/manifest.json")
is "$order" "postgres 1 point-query: a b b a a b|mariadb 1 point-query: a b b a a b|mariadb 1 update-index: b a|postgres 1 update-index: b a|postgres 2 point-query: b a a b b a|mariadb 2 point-query: b a a b b a|postgres 2 update-index: a b|mariadb 2 update-index: a b" \
   "the builds take turns, a b / b a, the first turning from one workload and round to the next"
is "$(python3 -c '
import json, sys, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
first = collections.defaultdict(set)
for r in runs:
    earlier = [x for x in runs if x["instance"] == r["instance"] and x["started_at"] < r["started_at"]]
    if not earlier:
        first[(r["dbms"], r["workload"])].add(json.dumps(r["data_state"], sort_keys=True))
print(sorted(set(len(s) for s in first.values())))' "$out/runs.jsonl")" "[1]" \
   "every start's first turn read the same data as every other's: pristine"
is "$(psql -X -A -t -d "$conninfo" -c "SELECT string_agg(DISTINCT pairs::text, ',') || ' ' || count(*)
      FROM microbench.compare('a', 'b') WHERE base_runs > 0")" "2 4" \
   "the model counts a round's turns on one start as one pair: 2 pairs a cell, 4 cells"
is "$(cells "$out/report.txt" | grep -vcE '[=?]$')" 0 "A/A: no cell is a difference"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"]["turns"])' "$out/manifest.json")" 3 \
   "the manifest says how many turns a start ran"
is "$(grep -cE '^   round [12]  (postgres|mariadb) +(point-query|update-index) +[ab] +[0-9]+ QPS  \(run ' "$scratch/turns.out")" 32 \
   "a progress line per turn and run"
nothing_left "--turns"

# ---- TERM while the turns run: both servers stopped, the runs so far kept
out="$scratch/term"
"$MB" compare "${both[@]}" --workloads point-query --rounds 1 --turns 20 --seconds 0.5 --warmup 0.2 \
    --out "$out" >"$scratch/term.out" 2>&1 &
pid=$!
for i in $(seq 600); do [ "$(cat "$out/runs.jsonl" 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.1; done
is "$(pgrep -fc -- "-D $work_dir_re/turn-[01] ")" 2 "both Postgres servers up at once while the turns run"
kill -TERM "$pid"
wait "$pid"
is "$?:$(grep -c 'interrupted by SIGTERM' "$scratch/term.out")" "143:1" "TERM in the turns: exit 143, said so"
ok "$([ -s "$out/runs.jsonl" ] && [ -s "$out/report.txt" ]; echo $?)" "... the runs so far kept and reported"
nothing_left "TERM in the turns"

done_testing
