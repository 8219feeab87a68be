#!/usr/bin/env bash
# 12_wire.t — microbench compare --path: Postgres builds measured over the
# wire with the pgsql driver, as sysbench measures them.  A --path that is
# not one of the three, or one without a --pg build, is refused before any
# work.  Counted over the wire, a setting that changes the plan of one
# workload (no index-only scans) is a difference on range-covered-pk and
# the same within 0.5% on point-query; each row says which backends were
# counted and how; the manifest names the path and the counted server's
# command line.  Timed with --path both, the report has a pg and a pg-wire
# column, and the runs are of both drivers.  Nothing is left behind.
set -u
. "$(dirname "$0")/lib.sh"

left_before=$(work_dirs_left)
rows() { python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(eval(sys.argv[2]))' "$1" "$2"; }
cell() { grep -E " $2\$" "$1" | awk '{ print $1 }'; }   # cell REPORT WORKLOAD

# ---- refusals: one line, exit 2, nothing made
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --path sideways --out "$scratch/p1" \
    >"$scratch/out" 2>"$scratch/err"
is "$?:$(wc -l <"$scratch/err"):$(grep -c 'in-server, wire or both' "$scratch/err"):$([ -e "$scratch/p1" ] && echo made || echo none)" \
   "2:1:1:none" "--path sideways: refused in one line, nothing made"
"$MB" compare --mariadb a="$MARIADBD" --mariadb b="$MARIADBD" --path wire --out "$scratch/p2" \
    >"$scratch/out" 2>"$scratch/err"
is "$?:$(grep -c 'give --pg builds' "$scratch/err")" "2:1" "--path without a --pg build: refused"

# ---- counted over the wire: three rounds, a count is decided on three seeds
out="$scratch/wire"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set b:enable_indexonlyscan=off --path wire \
    --metric instructions --workloads point-query,range-covered-pk --table-size 10000 --rounds 3 \
    --max-minutes 0 --out "$out" >"$scratch/wire.out" 2>"$scratch/wire.err"
status=$?
ok $status "counted over the wire: exit 0 ($(tail -1 "$scratch/wire.err"))"
# what the runner said, where a CI log shows it, when it did not succeed
[ $status = 0 ] || tail -40 "$scratch/wire.out" "$scratch/wire.err" | sed 's/^/# /' >&2
is "$(head -2 "$out/report.txt" | tail -1)" "pg-wire" "the report's column is pg-wire"
is "$(cell "$out/report.txt" point-query)" "1.00=" "point-query, untouched by the setting: the same within 0.5% over the wire"
like "$(cell "$out/report.txt" range-covered-pk)" '^0\.[0-9][0-9]$' \
   "range-covered-pk without index-only scans: a difference over the wire ($(cell "$out/report.txt" range-covered-pk))"
is "$(rows "$out/runs.jsonl" 'sorted({(r["driver"], r["dbms"]) for r in rows})')" "[('pgsql', 'postgres')]" \
   "every run is the pgsql driver's against Postgres"
is "$(rows "$out/runs.jsonl" 'sum("over the wire, the backends of the client" in r["hw_counters_note"] and "workers (pids" in r["hw_counters_note"] and r["instructions"] > 0 for r in rows)')" 12 \
   "each of the 12 counted rows has its count and names the backends counted"
is "$(rows "$out/runs.jsonl" 'all(0 < r["instructions"] <= r["instructions_valgrind"] and r["instructions_counter"].endswith(", REP once") for r in rows)')" \
   "True" "... both counts, a REP string instruction once (a CPU's, never above valgrind's) and valgrind's"
pq=$(rows "$out/runs.jsonl" '" ".join("%.0f" % (r["instructions"] / r["queries"]) for r in rows if r["workload"] == "point-query")')
like "$pq" '^(([3-6][0-9]{4}) ?){6}$' "point-query over the wire: 30,000-69,999 instructions a query in the backend ($pq)"
is "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
s = [x for x in m["counted"]["servers"] if x["dbms"] == "postgres-wire"]
print(m["runs"]["postgres_path"], len(s), all("--toggle-collect=PostgresMain" in x["command"] for x in s),
      any("--instr-atstart=no" in x["command"] for x in s))' "$out/manifest.json")" \
   "wire 2 True False" \
   "the manifest names the path and each build's counted server, collecting inside PostgresMain, instrumented from its start"
# callgrind_control's gdbserver breaking into a postmaster as a SIGCHLD
# arrives aborts callgrind: over the wire it is never run
is "$(find "$out/logs" -name callgrind.log | wc -l)" 0 "callgrind_control never run on a counted server over the wire"
# round 1 takes turns (a cell's first run sets its window for both builds);
# rounds 2 and 3 run the builds side by side, each its own server and logs
is "$(rows "$out/runs.jsonl" '" ".join("%d:%s" % k for k in sorted({(r["round"], r["instance"].split(",")[0]) for r in rows}))')" \
   "1:port 55401 2:port 55410 2:port 55411 3:port 55410 3:port 55411" \
   "round 1 on the runner's port; rounds 2 and 3 on a port a build, side by side"
is "$(ls "$out/logs/counted-postgres-wire-a/server.log" "$out/logs/counted-postgres-wire-b/server.log" | wc -l)" 2 \
   "each side's server log is under logs/counted-postgres-wire-LABEL"

# ---- timed, both paths: a column each
out="$scratch/both"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --path both --workloads point-query \
    --table-size 10000 --seconds 0.5 --warmup 0.2 --rounds 1 --max-minutes 0 --out "$out" \
    >"$scratch/both.out" 2>"$scratch/both.err"
ok $? "timed, both paths: exit 0 ($(tail -1 "$scratch/both.err"))"
like "$(grep -m1 -E '^pg +pg-wire$' "$out/report.txt")" 'pg-wire' "the report has a pg and a pg-wire column"
like "$(grep -E ' point-query$' "$out/report.txt" | head -1)" '^[0-9.]+[=?]? +[0-9.]+[=?]? +point-query$' \
   "point-query has a cell in each ($(grep -E ' point-query$' "$out/report.txt" | head -1))"
is "$(rows "$out/runs.jsonl" '" ".join("%s:%d" % (d, sum(r["driver"] == d for r in rows)) for d in ("extension", "pgsql"))')" \
   "extension:2 pgsql:2" "two in-server runs and two over the wire"
like "$(grep -c 'pg-wire: Postgres over the wire' "$out/report.txt")" '^[1-9]' "the legend says which column is which"
nothing_left "after the wire comparisons"

done_testing
