#!/usr/bin/env bash
# 07_counted.t — microbench compare --metric instructions: without valgrind
# a counted comparison is refused before any work (one line naming the
# package, exit 2, nothing made, no server started), as are several
# clients; a setting that changes the work of a query (no index-only scans)
# is a difference on the cell it touches and the same within 0.5% on one
# it does not, with the replicates of every cell within 0.1% of each
# other, whatever else the machine is doing, and so are the estimated
# cycles of --cache-sim (refused without a counted metric); the runs say what counted
# them; --metric both writes both reports; MariaDB is counted too (the
# thread that serves the client), and an A/A of a read and a write is the
# same within 0.5%, its replicates within 0.1%.
set -u
. "$(dirname "$0")/lib.sh"

MB="$root/client/microbench"
left_before=$(work_dirs_left)
counted=(--table-size 10000 --max-minutes 0)

# ---- refusals: one line, exit 2, nothing made, no server started
mkdir -p "$scratch/nobin"
for tool in pg_config sh; do ln -s "$(command -v $tool)" "$scratch/nobin/$tool"; done
PATH="$scratch/nobin" "$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric instructions \
    --out "$scratch/novalgrind" >"$scratch/out" 2>"$scratch/err"
rc=$?
is "$rc:$(wc -l <"$scratch/err"):$(grep -c 'apt-get install valgrind' "$scratch/err"):$([ -e "$scratch/novalgrind" ] && echo made || echo none):$(servers_left)" \
   "2:1:1:none:0" "no valgrind on PATH: exit 2, one line naming the package, nothing made, no server"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric instructions --clients 2 \
    --out "$scratch/clients" >"$scratch/out" 2>"$scratch/err"
is "$?:$(grep -c 'counts the work of one client' "$scratch/err")" "2:1" "--metric instructions with --clients 2: refused"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric cycles \
    --out "$scratch/metric" >"$scratch/out" 2>"$scratch/err"
is "$?:$(grep -c 'qps, instructions or both' "$scratch/err")" "2:1" "an unknown --metric: refused"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --cache-sim \
    --out "$scratch/cachesim" >"$scratch/out" 2>"$scratch/err"
is "$?:$(grep -c 'give --metric instructions or both' "$scratch/err")" "2:1" "--cache-sim without a counted metric: refused"

# ---- Postgres: one setting that changes the plan of one workload.  Three
# rounds: two cells are too few to pool a spread, and two replicates alone
# give an interval on one degree of freedom, which a busy machine's 0.05%
# between replicates of estimated cycles can widen past 0.5%
out="$scratch/ab"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set b:enable_indexonlyscan=off \
    --metric instructions --cache-sim --workloads point-query,range-covered-pk "${counted[@]}" --rounds 3 \
    --out "$out" >"$scratch/ab.out" 2>"$scratch/ab.err"
ok $? "counted A/B: exit 0 ($(tail -1 "$scratch/ab.err"))"
cell() { grep -E " $2\$" "$1" | awk '{ print $1 }'; }   # cell REPORT WORKLOAD
# replicates_apart RUNS.JSONL: the builds and cells whose counts per query
# stray more than 0.1% from each other (or have one replicate), or "all within 0.1%"
replicates_apart() {
    python3 -c '
import json, sys
cells = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    cells.setdefault((r["label"], r["workload"]), []).append(r["instructions"] / r["queries"])
print(" ".join("%s/%s:%d" % (k[0], k[1], len(v)) for k, v in sorted(cells.items()) if len(v) < 2 or max(v) / min(v) - 1 > 0.001) or "all within 0.1%")' "$1"
}
is "$(cell "$out/report.txt" point-query)" "1.00=" "point-query, untouched by the setting: the same within 0.5%"
like "$(cell "$out/report.txt" range-covered-pk)" '^0\.[0-9][0-9]$' \
   "range-covered-pk without index-only scans: a difference (b runs more instructions: $(cell "$out/report.txt" range-covered-pk))"
like "$(grep -c 'cells: instructions(a) / instructions(b)' "$out/report.txt")" '^1$' "the report says its cells are instructions(a) / instructions(b)"
like "$(grep 'metric: instructions per query, counted' "$out/report.txt")" 'cachegrind [0-9.]+' "... and what counted them"
is "$(replicates_apart "$out/runs.jsonl")" "all within 0.1%" "the replicates of every build and cell agree within 0.1%"
# --cache-sim: the simulated caches' figures, and a verdict on estimated cycles
is "$(cell "$out/report-cycles.txt" point-query)" "1.00=" "estimated cycles: point-query the same within 0.5%"
like "$(cell "$out/report-cycles.txt" range-covered-pk)" '^0\.[0-9][0-9]$' \
   "estimated cycles: range-covered-pk without index-only scans a difference ($(cell "$out/report-cycles.txt" range-covered-pk))"
is "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(all(r["estimated_cycles"] > r["instructions"] and r["i1_misses"] > 0 and r["d1_misses"] > 0 and r["ll_misses"] >= 0
          and "LL 8388608 B, 64 B, 16-way" in r["hw_counters_note"] for r in rows),
      max(abs(a["estimated_cycles"] / a["queries"] / (b["estimated_cycles"] / b["queries"]) - 1)
          for a in rows for b in rows if (a["label"], a["workload"]) == (b["label"], b["workload"])) < 0.001)' "$out/runs.jsonl")" \
   "True True" "every run has its misses and estimated cycles (more than its instructions) on the fixed cache model, replicates within 0.1%"
is "$(grep -c 'run options\|warning' "$out/report.txt")" 0 "a counted report has no run options (the passes' event counts are the runner's) and no timed warnings"
is "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(len(rows), all(r["instructions_counter"].startswith("cachegrind ") and len(r["client_pids"]) == 1 and "background worker" in r["hw_counters_note"] for r in rows))' "$out/runs.jsonl")" \
   "12 True" "12 runs (3 rounds of 2 cells, 2 builds), each counted by cachegrind, for its background worker, and saying so"
is "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(m["metric"], m["counted"]["threshold"], sorted(p["workload"] for p in m["counted"]["passes"]), {o["metric"] for o in m["order"]})' "$out/manifest.json")" \
   "instructions 0.005 ['point-query', 'range-covered-pk'] {'instructions'}" "the manifest names the metric, its threshold and each cell's passes"

# ---- both metrics, A/A, one workload
out="$scratch/both"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric both --workloads point-query \
    --rounds 2 --seconds 1 --warmup 0.2 "${counted[@]}" --out "$out" >"$scratch/both.out" 2>"$scratch/both.err"
ok $? "--metric both: exit 0 ($(tail -1 "$scratch/both.err"))"
is "$(ls "$out" | grep -c '^report')" 6 "report.{txt,md,svg} for QPS and report-instructions.{txt,md,svg}"
is "$(grep -c 'cells: QPS(b) / QPS(a)' "$out/report.txt"):$(cell "$out/report-instructions.txt" point-query)" "1:1.00=" \
   "QPS in report.txt; the instructions of an A/A the same within 0.5% in report-instructions.txt"
is "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(sum(r.get("instructions_counter") is None for r in rows), sum(str(r.get("instructions_counter")).startswith("cachegrind") for r in rows))' "$out/runs.jsonl")" \
   "4 4" "4 timed runs and 4 counted ones"

# ---- MariaDB: a read and a write, counted on the thread that serves the client
out="$scratch/ma"
"$MB" compare --mariadb a="$MARIADBD" --mariadb b="$MARIADBD" --metric instructions \
    --workloads point-query,update-index "${counted[@]}" --rounds 4 --threshold 0.005 \
    --out "$out" >"$scratch/ma.out" 2>"$scratch/ma.err"
ok $? "MariaDB counted A/A: exit 0 ($(tail -1 "$scratch/ma.err"))"
is "$(cell "$out/report.txt" point-query) $(cell "$out/report.txt" update-index)" "1.00= 1.00=" \
   "MariaDB's A/A of a read and a write: the same within 0.5%"
is "$(replicates_apart "$out/runs.jsonl")" "all within 0.1%" "MariaDB's replicates of every build and cell agree within 0.1%"
like "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(" ".join(sorted({r["instructions_counter"].split()[0] for r in rows})), min(r["instructions"] / r["queries"] for r in rows) > 1000)' "$out/runs.jsonl")" \
   '^callgrind True$' "MariaDB's runs counted by callgrind, over a thousand instructions a query"

is "$(servers_left):$(work_dirs_left)" "0:$left_before" "no server or work directory left"
done_testing
