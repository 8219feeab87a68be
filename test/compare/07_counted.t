#!/usr/bin/env bash
# 07_counted.t — microbench compare --metric instructions: without valgrind
# a counted comparison is refused before any work (one line naming the
# package, exit 2, nothing made, no server started), as are several
# clients; a setting that changes the work of a query (no index-only scans)
# is a difference on the cell it touches and the same within 0.5% on one
# it does not, whatever else the machine is doing, and so are the
# estimated cycles of --cache-sim (refused without a counted metric); each
# round draws its own seed, the same for both builds; no read's window
# reads a block from disk; the runs say what counted them and what share
# the harness ran; --metric both writes both reports; MariaDB is counted
# too (the commands of the thread that serves the client), and an A/A of a
# read and a write is the same within 0.5%, each round's two counts within
# 0.2% of each other for the read, 0.5% for the write.  Every run has two
# counts, a REP string instruction once (a CPU's) and once a repetition
# (valgrind's), and so has each function.  Each run keeps its functions: the report's first
# ten of the cell without index-only scans include the heap fetch, and it
# says how much they explain; in an A/A no function differs.
set -u
. "$(dirname "$0")/lib.sh"

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
# rounds: a count is decided on three seeds; then rounds go on for a cell
# whose estimated cycles are still undecided (the simulated caches see
# where each start put the server's memory: point-query's cycles were
# once left undecided by three), up to a ceiling
out="$scratch/ab"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set b:enable_indexonlyscan=off \
    --metric instructions --cache-sim --workloads point-query,range-covered-pk --table-size 10000 \
    --max-minutes 10 --rounds 3 \
    --out "$out" >"$scratch/ab.out" 2>"$scratch/ab.err"
ok $? "counted A/B: exit 0 ($(tail -1 "$scratch/ab.err"))"
cell() { grep -E " $2\$" "$1" | awk '{ print $1 }'; }   # cell REPORT WORKLOAD
# rows RUNS.JSONL EXPRESSION: a python expression over rows (the runs), printed
rows() { python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(eval(sys.argv[2]))' "$1" "$2"; }
is "$(cell "$out/report.txt" point-query)" "1.00=" "point-query, untouched by the setting: the same within 0.5%"
like "$(cell "$out/report.txt" range-covered-pk)" '^0\.[0-9][0-9]$' \
   "range-covered-pk without index-only scans: a difference (b runs more instructions: $(cell "$out/report.txt" range-covered-pk))"
like "$(grep -c 'cells: instructions(a) / instructions(b)' "$out/report.txt")" '^1$' "the report says its cells are instructions(a) / instructions(b)"
like "$(grep 'metric: instructions per query, counted' "$out/report.txt")" 'callgrind [0-9.]+, REP once: a REP string instruction once, as a CPU counts it' \
   "... and what counted them, a REP string instruction once"
like "$(grep 'harness:' "$out/report.txt")" 'built with gcc [0-9.]+ for every build: [0-9.-]+% of a query' \
   "... and what share of a query the harness ran, built with one compiler for both builds"
is "$(rows "$out/runs.jsonl" '" ".join("%d:%s" % (k, sorted({r["seed"] for r in rows if r["round"] == k})) for k in (1, 2, 3))')" \
   "1:[2] 2:[3] 3:[4]" "each round draws its own seed (--seed + round), the same for both builds"
is "$(rows "$out/runs.jsonl" 'sorted({(r["shared_blks_read"], r["warmup_events"]) for r in rows})')" "[(0, 10)]" \
   "every read's window reads no block from disk, after 10 warm-up events"
# --cache-sim: the simulated caches' figures, and a verdict on estimated cycles
is "$(cell "$out/report-cycles.txt" point-query)" "1.00=" "estimated cycles: point-query the same within 0.5%"
like "$(cell "$out/report-cycles.txt" range-covered-pk)" '^0\.[0-9][0-9]$' \
   "estimated cycles: range-covered-pk without index-only scans a difference ($(cell "$out/report-cycles.txt" range-covered-pk))"
is "$(rows "$out/runs.jsonl" 'all(r["estimated_cycles"] > r["instructions"] and r["i1_misses"] > 0 and r["d1_misses"] > 0
          and r["ll_misses"] >= 0 and "LL 8388608 B, 64 B, 16-way" in r["hw_counters_note"] for r in rows)')" \
   "True" "every run has its misses and estimated cycles (more than its instructions) on the fixed cache model"
is "$(grep -c 'run options\|warning' "$out/report.txt")" 0 "a counted report has no run options (the windows' event counts are the runner's) and no warnings"
is "$(rows "$out/runs.jsonl" 'len([r for r in rows if r["round"] <= 3]), len(rows) % 2, all(r["instructions_counter"].startswith("callgrind ") and len(r["client_pids"]) == 1
          and "window of the background worker" in r["hw_counters_note"] and 0 < r["harness_instructions"] < r["instructions"] for r in rows)')" \
   "(12, 0, True)" "12 runs in the first 3 rounds (2 cells, 2 builds), later ones in pairs, each counted by callgrind in its worker's window, saying so"
is "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
c = m["counted"]
print(m["metric"], c["threshold"], sorted(w["workload"] for w in c["windows"]), c["warmup_events"], len(c["servers"]),
      {o["metric"] for o in m["order"]})' "$out/manifest.json")" \
   "instructions 0.005 ['point-query', 'range-covered-pk'] 10 2 {'instructions'}" \
   "the manifest names the metric, its threshold, each cell's window, the warm-up and each build's counted server"
# two counts: a REP string instruction once (a CPU's), and once a repetition (valgrind's)
is "$(rows "$out/runs.jsonl" 'all(0 < r["instructions"] <= r["instructions_valgrind"] and r["instructions_counter"].endswith(", REP once")
          and all(len(f) == 6 and f[2] <= f[4] and f[3] <= f[5] for f in r["functions"])
          and sum(f[4] for f in r["functions"]) == r["instructions_valgrind"] for r in rows)')" \
   "True" "every run has both counts, a CPU's never above valgrind's, and so has each of its functions"
is "$(python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["counted"]["harness"]
print(h["label"], h["compiler"].startswith("gcc "), "-O2" in h["cflags"], bool(h["cc"]))' "$out/manifest.json")" \
   "a True True True" "the manifest names the harness: its build, compiler and flags"
# where the difference comes from: each function's instructions of the window
is "$(rows "$out/runs.jsonl" 'all(sum(f[2] for f in r["functions"]) == r["instructions"]
          and any(f[0] == "microbench.so" and f[1] == "run_event" for f in r["functions"])
          and any(f[0] == "postgres" and f[1] == "ExecutorRun" and f[3] > f[2] for f in r["functions"]) for r in rows)')" \
   "True" "every run keeps its functions: their own instructions add up to the window's, the extension's and the server's by object, inclusive beyond self"
section() { sed -n "/^### $2 /,/^### /p" "$1"; }   # section REPORT.md "pg WORKLOAD:"
rcp=$(section "$out/report.md" "pg range-covered-pk:")
top_ten=$(grep -E '^\| ' <<<"$rcp" | sed -n '2,11p')
like "$(grep -c . <<<"$top_ten"):$(grep -cE '^\| (heap_hot_search_buffer|heapam_index_fetch_tuple|index_fetch_heap) \| postgres \| 0\.0 \| [0-9,]+ \| \+' <<<"$top_ten")" \
   '^10:[1-3]$' "range-covered-pk without index-only scans: the first ten functions include the heap fetch, run by b only"
like "$(grep -c 'visibilitymap_get_status\|index_deform_tuple' <<<"$top_ten")" '^[1-2]$' \
   "... and what the index-only scan did instead, run by a only"
like "$(grep -o 'the first ten explain [^;]*of it' <<<"$rcp")" '^the first ten explain \+[0-9,]+ \([0-9.]+%\) of it$' \
   "... and the report says how much of the cell's difference the first ten explain"
like "$(grep -o '[0-9]* of [0-9]* functions differ' <<<"$rcp")" '^[1-9][0-9]* of [0-9]+ functions differ$' "... and how many functions differ"
like "$(grep -o 'The deepest call carrying half the difference or more: [^,]*' <<<"$rcp")" \
   ': (ExecScan|index_fetch_heap|heapam_index_fetch_tuple|[a-z_]+@plt|\(no symbol\))$' \
   "... and the deepest call both builds make that carries half of it: the scan or the heap fetch"
# (a libc string function may differ: its cost follows where the heap puts
# its strings, which a setting on b's command line moves: methodology.md)
like "$(section "$out/report.md" "pg point-query:" | grep -E '^\| ' | sed -n '2,11p' | grep -v ' (=) |' |
        grep -cvE '^\| __(mem|str)[a-z0-9_]* \| libc')" '^0$' \
   "point-query, untouched by the setting: no function of the server differs"
like "$(grep -o 'class="functions-bar" data-function="[^"]*"' "$out/report.svg" | head -5 | tr '\n' ' ')" \
   'data-function="heap_hot_search_buffer"' "the SVG draws the functions of the cell that differs, the heap's among them"

# ---- both metrics, A/A, one workload
out="$scratch/both"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric both --workloads point-query \
    --rounds 3 --seconds 1 --warmup 0.2 "${counted[@]}" --out "$out" >"$scratch/both.out" 2>"$scratch/both.err"
ok $? "--metric both: exit 0 ($(tail -1 "$scratch/both.err"))"
is "$(ls "$out" | grep -c '^report')" 9 \
   "report.{txt,md,svg} for QPS, report-instructions.{txt,md,svg} and report-count-clock.{txt,md,svg}"
is "$(grep -c 'cells: QPS(b) / QPS(a)' "$out/report.txt"):$(cell "$out/report-instructions.txt" point-query)" "1:1.00=" \
   "QPS in report.txt; the instructions of an A/A the same within 0.5% in report-instructions.txt"
is "$(rows "$out/runs.jsonl" '"%d %d" % (sum(r.get("instructions_counter") is None for r in rows),
          sum(str(r.get("instructions_counter")).startswith("callgrind") for r in rows))')" \
   "6 6" "6 timed runs and 6 counted ones"
is "$(grep -c 'No function differs beyond the count.s spread' "$out/report-instructions.md"):$(grep -c 'functions-bar' "$out/report-instructions.svg")" \
   "1:0" "an A/A's functions: none differs, and the SVG draws none"
# count and clock: an A/A's count implies 1.00 whatever the share; the
# worker's share of its own time is user code, up to 1; whether the QPS
# interval reaches 1.00 is chance (5%), so the mark is read, not fixed
row=$(grep -E ' point-query$' "$out/report-count-clock.txt" | head -1)
like "$row" '^1\.00   (0\.[0-9][0-9]|1\.00)  (0\.99|1\.00|1\.01) +[0-9.]+[=<>?] +point-query$' \
   "report-count-clock.txt: count 1.00, a share up to 1, implied 1.00, the QPS ratio and its mark ($row)"
like "$(grep '^-- consistent:' "$out/report-count-clock.txt")" '^-- consistent: pg [01] of 1$' \
   "... and how many cells agree"
is "$(grep -c '^## What the counts say about QPS' "$out/report.md"):$(grep -c '<circle class="cell"' "$out/report-count-clock.svg"):$(grep -c 'class="diagonal"' "$out/report-count-clock.svg")" \
   "1:1:1" "report.md's section on count and clock; the SVG's point and diagonal"
grep -q '^-- count and clock: b vs a, from instructions' "$out/both.out" 2>/dev/null ||
    grep -q '^-- count and clock: b vs a, from instructions' "$scratch/both.out"
ok $? "the text report is printed too"

# ---- MariaDB: a read and a write, counted on the thread that serves the client
out="$scratch/ma"
"$MB" compare --mariadb a="$MARIADBD" --mariadb b="$MARIADBD" --metric instructions \
    --workloads point-query,update-index "${counted[@]}" --rounds 4 --threshold 0.005 \
    --out "$out" >"$scratch/ma.out" 2>"$scratch/ma.err"
ok $? "MariaDB counted A/A: exit 0 ($(tail -1 "$scratch/ma.err"))"
is "$(cell "$out/report.txt" point-query) $(cell "$out/report.txt" update-index)" "1.00= 1.00=" \
   "MariaDB's A/A of a read and a write: the same within 0.5%"
# (a MariaDB connection's count moves by up to 0.07% with where its heap
# puts the database name each execution compares, test/compare/10_window.t;
# a write's by up to 0.3% between server starts, InnoDB's background work
# not always falling the same way: within the A/A's 0.5%)
is "$(rows "$out/runs.jsonl" '" ".join(sorted("%s/%d" % (w, k) for w, most in (("point-query", 0.002), ("update-index", 0.005))
          for k in range(1, 5)
          if (lambda v: len(v) != 2 or max(v) / min(v) - 1 > most)(
             [r["instructions"] / r["queries"] for r in rows if r["workload"] == w and r["round"] == k]))) or "all within"')" \
   "all within" "MariaDB's two counts of every round (one seed) agree: the read's within 0.2%, the write's within 0.5%"
like "$(rows "$out/runs.jsonl" '(" ".join(sorted({r["instructions_counter"].split()[0] for r in rows})),
          min(r["instructions"] / r["queries"] for r in rows) > 1000,
          all(r["count_settings"].startswith("innodb_force_recovery=2: no purge") for r in rows),
          all(0 < r["instructions"] <= r["instructions_valgrind"] and r["instructions_counter"].endswith(", REP once")
              for r in rows))')" \
   "^\('callgrind', True, True, True\)$" \
   "MariaDB's runs counted by callgrind, over a thousand instructions a query (both counts, a CPU's never above valgrind's), the one setting that differs named"
like "$(grep 'counted server:' "$out/report.txt")" '^-- counted server: ma: innodb_force_recovery=2: no purge' \
   "... and the report says which setting differs from a timed server's, and why"
is "$(grep -c 'No function differs beyond the count.s spread' "$out/report.md"):$(rows "$out/runs.jsonl" 'all(
          any(f[0] == "mariadbd" and f[1].startswith("dispatch_command") for f in r["functions"]) for r in rows)')" \
   "2:True" "MariaDB's A/A: no function of either cell differs; the command threads' functions are kept"

is "$(servers_left):$(work_dirs_left)" "0:$left_before" "no server or work directory left"
done_testing
