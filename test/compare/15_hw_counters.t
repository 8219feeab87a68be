#!/usr/bin/env bash
# 15_hw_counters.t — on a machine with hardware counters, a CPU's count and
# the counted runs' (callgrind, a REP string instruction once, as a CPU
# counts it) of the same cell agree within 1%: an A/A of point-query,
# --metric both, the timed runs' instructions per query (perf_event, the
# worker's) against the counted ones' (valgrind, the window's).  And the
# count-and-clock report sets the hardware's instructions and cycles
# beside.  Most virtual machines, this project's among them, have no
# counters: there the test says so in one skipped check.
set -u
. "$(dirname "$0")/lib.sh"

# perf stat says "<not supported>" where the kernel or the hypervisor has no counters
probe=$(perf stat -x, -e instructions:u true 2>&1 >/dev/null)
if [ $? != 0 ] || ! grep -Eq '^[0-9]+,' <<<"$probe"; then
    ok 0 "# skip: no hardware counters here ($(head -c 120 <<<"${probe:-perf not installed}" | tr '\n' ' '))"
    done_testing
    exit 0
fi

out="$scratch/hw"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric both --workloads point-query \
    --table-size 10000 --rounds 3 --seconds 2 --warmup 0.5 --max-minutes 0 --out "$out" \
    >"$scratch/hw.out" 2>"$scratch/hw.err"
ok $? "--metric both A/A on a machine with counters: exit 0 ($(tail -1 "$scratch/hw.err"))"

# per label: the median instructions per query of its timed runs (the
# hardware's) and of its counted runs (valgrind's, REP once), and the note
per_query() { # LABEL WHICH(timed|counted)
    python3 - "$out/runs.jsonl" "$1" "$2" <<'PY'
import json, statistics, sys
path, label, which = sys.argv[1:]
rows = [json.loads(l) for l in open(path)]
v = [r["instructions"] / r["queries"] for r in rows
     if r["label"] == label and r.get("instructions") and r["queries"]
     and (r.get("instructions_counter") == "perf_event") == (which == "timed")]
print("%.1f" % statistics.median(v) if v else "none")
PY
}
for label in a b; do
    hw=$(per_query "$label" timed) vg=$(per_query "$label" counted)
    like "$hw $vg" '^[0-9.]+ [0-9.]+$' "$label: instructions per query from both counters ($hw by the CPU, $vg by valgrind)"
    if [[ "$hw $vg" =~ ^[0-9.]+\ [0-9.]+$ ]]; then
        is "$(awk -v h="$hw" -v v="$vg" 'BEGIN { d = h / v - 1; print (d < 0 ? -d : d) <= 0.01 }')" 1 \
           "$label: the CPU's count and valgrind's (REP once) agree within 1%"
    fi
done
like "$(grep '^-- hardware counters: pg point-query' "$out/report-count-clock.txt")" \
     '^-- hardware counters: pg point-query: instructions [0-9.]+, cycles [0-9.]+' \
     "report-count-clock.txt sets the hardware's instructions and cycles beside"
done_testing
