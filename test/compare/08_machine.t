#!/usr/bin/env bash
# 08_machine.t — microbench compare says whether the machine was quiet: with
# a busy loop pinned to the servers' CPU the whole time, every run shares
# its CPU with it, so every run is busy, named in the warnings with the
# loop's share, its pair kept (a cell with no quiet pairs keeps its busy
# ones, marked so), and the report's first line and the manifest say the machine was busy.  Every
# timed run keeps its QPS per tenth of a second and a steady rate.
# Whether a machine is quiet cannot be asserted (CI's is not): a run
# without the loop only has to say one or the other.  --wait-quiet waits
# at most the minutes given; a bad value is refused.
set -u
. "$(dirname "$0")/lib.sh"

short=(--workloads point-query --table-size 10000 --seconds 2 --warmup 0.5 --max-minutes 0)

"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --wait-quiet=soon \
    --out "$scratch/bad" >"$scratch/out" 2>"$scratch/err"
is "$?:$(wc -l <"$scratch/err"):$([ -e "$scratch/bad" ] && echo made || echo none)" "2:1:none" \
   "--wait-quiet=soon: refused, one line, nothing made"

# ---- a busy loop on the servers' CPU (0) the whole time
taskset -c 0 sh -c 'while :; do :; done' &
loop=$!
at_exit "kill $loop 2>/dev/null"
out="$scratch/busy"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --rounds 2 "${short[@]}" \
    --out "$out" >"$scratch/busy.out" 2>"$scratch/busy.err"
rc=$?
kill $loop 2>/dev/null
wait $loop 2>/dev/null
ok $rc "an A/A beside a busy loop: exit 0 ($(tail -1 "$scratch/busy.err"))"
like "$(head -1 "$out/report.txt")" '^-- machine: busy \(.*4 of 4 runs shared their CPUs with a neighbour' \
     "report.txt's first line: the machine was busy, all 4 runs shared their CPU"
like "$(head -1 "$out/report.md")" '^machine: busy \(' "... and report.md's"
busy_warning=$(grep 'warning: pg: ' "$out/report.txt" | grep 'busy neighbour')
like "$busy_warning" \
     '4 run\(s\) shared their CPUs with a busy neighbour .*point-query round 1 a [0-9]+% \([^)]* [0-9]+%\) kept' \
     "the warnings name every busy run, its share and its busiest neighbour"
like "$(grep -c '  busy: others took' "$scratch/busy.out")" '^4$' "each busy run's progress line says so"
# busy throughout, the cell has no quiet pair to stand on: its busy pairs
# are kept (their spread is the noise the interval must carry), and say so
is "$(grep -oE '%( \([^)]*\))? kept' <<<"$busy_warning" | wc -l)" 4 "no quiet pairs: all 4 busy runs' pairs kept, each marked so"
is "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
print(m["verdict"], len(m["checks"]), [c["before_round"] for c in m["checks"]], m["busy_runs"], m["runs"])' "$out/manifest.json")" \
   "busy 2 [1, 2] 4 4" "the manifest: busy, a check before each round, 4 busy runs of 4"
is "$(python3 -c '
import json, sys
bad, named = [], False
for l in open(sys.argv[1]):
    r = json.loads(l)
    t = r.get("qps_tenths") or []
    if not (r.get("busy_share", 0) > 0.2 and 18 <= len(t) <= 22 and r.get("qps_steady", 0) > 0
            and 0 <= r.get("steady_set_aside", -1) < 1 and "busiest:" in r.get("busy_note", "")):
        bad.append("%s/%s" % (r["label"], r["round"]))
    named = named or " sh " in r.get("busy_note", "")
print(" ".join(bad) or ("all" if named else "the loop (sh) named in no note"))' "$out/runs.jsonl")" "all" \
   "every run: busy share over 0.2 with a note, 20 tenths of 2 s, a steady rate and the share set aside; the loop (sh) among the busiest"

# ---- without the loop: one or the other, said; --wait-quiet waits at most its minutes
out="$scratch/calm"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --rounds 1 --wait-quiet=0.2 "${short[@]}" \
    --out "$out" >"$scratch/calm.out" 2>"$scratch/calm.err"
ok $? "an A/A with --wait-quiet=0.2: exit 0 ($(tail -1 "$scratch/calm.err"))"
like "$(head -1 "$out/report.txt")" '^-- machine: (quiet \(\+-[0-9.]+%|busy \()' "the first line says quiet or busy"
# a check every 5 s at most, for 0.2 minutes: no more than 4
like "$(grep -c '== machine check before round 1' "$scratch/calm.out")" '^[1-4]$' \
     "--wait-quiet=0.2 stopped waiting after its 12 s ($(grep -c '== machine check before round 1' "$scratch/calm.out") check(s))"
is "$(servers_left)" 0 "no server left"
done_testing
