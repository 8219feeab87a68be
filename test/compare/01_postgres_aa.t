#!/usr/bin/env bash
# 01_postgres_aa.t — the same Postgres installation under two labels: exit 0,
# no cell is a difference, every run of both labels in runs.jsonl, the order
# alternating run by run, the manifest, and nothing left behind.
set -u
. "$(dirname "$0")/lib.sh"

left_before=$(work_dirs_left)
out="$scratch/aa"
# A/A runs use --confidence 0.999: at the default 95% a correct comparison
# still calls about one A/A cell in twenty a difference, more on a machine
# whose load changes during the run, and a test must not fail by chance.
"$COMPARE" --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --rounds 2 --max-minutes 0 --seconds 1 --warmup 0.2 --confidence 0.999 \
    --workloads point-query,update-index --table-size 10000 --out "$out" >"$scratch/out" 2>&1
ok $? "A/A on Postgres: exit 0"
is "$(wc -l <"$out/runs.jsonl")" 8 "runs.jsonl holds 2 labels x 2 workloads x 2 rounds"
is "$(runs_of "$out/runs.jsonl" | awk '{ print $1, $2, $3 }' | sort | uniq -c | awk '{ print $1 }' | sort -u)" 2 \
   "each label ran each workload twice, as postgres"
is "$(for f in report.txt report.md report.svg manifest.json; do [ -s "$out/$f" ] && echo "$f"; done | wc -l)" 4 \
   "report.txt, report.md, report.svg and manifest.json are written"
is "$(cells "$out/report.txt" | grep -vcE '[=?]$')" 0 "A/A: no cell is a difference (each marked = or ?)"
is "$(cells "$out/report.txt" | wc -l)" 2 "two cells: point-query and update-index"
grep -q '^-- pg: Postgres$' "$out/report.txt"; ok $? "the report says what pg means"
# the order: per round and workload the two labels, the first one alternating
firsts=$(order_of "$out/manifest.json" | awk 'NR % 2 == 1 { print $2 }' | paste -sd' ' -)
is "$firsts" "a b b a" "the order alternates: a b, b a in round 1, then b a, a b in round 2"
is "$(runs_of "$out/runs.jsonl" | awk '{ print $1 }' | paste -sd' ' -)" "a b b a b a a b" \
   "runs.jsonl is in the order run"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))
print(m["status"], m["mode"], len(m["builds"]), m["builds"][0]["version"].startswith("postgres (PostgreSQL)"),
      m["runs"]["rounds"], m["data"]["postgres"])' "$out/manifest.json")" \
   "done together 2 True 2 copied from one template" \
   "manifest: status, mode, builds with their version, rounds, how the data was made"
is "$(python3 -c 'import json,sys
print(all(len(json.loads(l)["qps_per_second"]) >= 1 and json.loads(l)["canary_before_us"] > 0
          and json.loads(l)["data_state"]["table_bytes"] > 0 for l in open(sys.argv[1])))' "$out/runs.jsonl")" True \
   "every run carries its per-second samples, canary and data fingerprint"
is "$(servers_left)" 0 "no server left running"
is "$(work_dirs_left)" "$left_before" "no work directory left in /tmp"
done_testing
