#!/usr/bin/env bash
# test/pg/verdicts.t — verdicts on real runs, in the protocol the demo and
# microbench compare use: two labels taking turns workload by workload
# (A B, then B A, ...) on the same table.
#   - the same configuration under two labels: no cell is a difference;
#   - the same, with a CPU-busy loop on every core from the second round on:
#     still no cell is a difference (the slowdown hits both labels);
#   - synchronous_commit on against off: the write cells are differences
#     (at the default 95%) and above 1.
# Each run says its round, so the two labels' runs of a round are a pair.
# A/A checks use confidence => 0.999: at the default 95% a correct test
# still calls about one A/A report in twenty a difference somewhere, and a
# test must not fail by chance.  Every run must also carry its per-second
# samples, canary timings, data fingerprint, round, instance and CPU waits.
#
# Run by test/run_pg_tests.sh; needs PGHOST, PGPORT, PGUSER, PGDATABASE of
# a database with microbench installed and sbtest1 loaded in public.
set -u
. "$(dirname "$0")/../tap.sh"

hog_pids=()
trap 'kill "${hog_pids[@]}" 2>/dev/null; q "ALTER DATABASE \"$PGDATABASE\" RESET synchronous_commit" >/dev/null' EXIT

q() { psql -X -A -t -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "$1"; }

# interleave A B ROUNDS SECONDS WORKLOAD...: A B on one run, B A on the next
interleave() {
    local a=$1 b=$2 rounds=$3 seconds=$4 round workload i=0 label
    shift 4
    for round in $(seq "$rounds"); do
        for workload in "$@"; do
            i=$((i + 1))
            if [ $((i % 2)) = 1 ]; then set_order="$a $b"; else set_order="$b $a"; fi
            for label in $set_order; do
                [ -n "${on_label:-}" ] && "$on_label" "$label"
                q "SELECT run_id FROM bench_run('$workload', seconds => $seconds, warmup => 0.2,
                                                  label => '$label', phase => 'post', round => $round)" >/dev/null \
                    || { echo "# bench_run $workload $label failed"; return 1; }
            done
        done
        [ -n "${after_round:-}" ] && "$after_round" "$round"
    done
    return 0
}

reads=(point-query read-only_range=10 range-covered-pk points-covered-si)
significant() {   # significant BASE OTHER: cells called a difference at 99.9%
    q "SELECT count(*) FROM microbench.compare('$1', '$2', confidence => 0.999) WHERE verdict = 'difference'"
}

q "DELETE FROM microbench.runs WHERE label LIKE 'vt-%'" >/dev/null

# ---- A/A on a quiet machine ------------------------------------------------
interleave vt-a1 vt-a2 3 1 "${reads[@]}"
ok $? "A/A: 3 rounds of 4 read workloads under two labels, interleaved"
is "$(significant vt-a1 vt-a2)" 0 "A/A: no cell is a significant difference"
is "$(q "SELECT count(*) FROM microbench.compare('vt-a1', 'vt-a2') WHERE ci_low IS NOT NULL AND method = 'pairs' AND pairs + set_aside = 3")" 4 \
   "A/A: every cell has an interval from its 3 pairs (less any set aside)"
is "$(q "SELECT count(*) FROM microbench.runs WHERE label IN ('vt-a1', 'vt-a2')
         AND cardinality(qps_per_second) = 1 AND qps_per_second[1] > 0
         AND canary_before_us > 0 AND canary_after_us > 0
         AND (data_state->>'table_bytes')::bigint > 0 AND (data_state->>'index_bytes')::bigint > 0
         AND (data_state->>'live_rows') IS NOT NULL AND (data_state->>'all_visible') IS NOT NULL
         AND round BETWEEN 1 AND 3 AND instance ~ '^port [0-9]+, started '
         AND cpu_run_seconds > 0 AND cpu_wait_seconds >= 0
         AND cardinality(cpu_wait_per_second) = 1 AND cpu_wait_per_second[1] BETWEEN 0 AND 1")" 24 \
   "every run has one per-second sample (1 s), canaries, a data fingerprint, its round, instance and CPU waits"
is "$(q "SELECT count(*) FROM microbench.compare_warnings('vt-a1', 'vt-a2') WHERE kind = 'data-state'")" 0 \
   "reads that change nothing: no data-state warning"
report=$(q "SELECT bench_report('vt-a1', 'vt-a2', confidence => 0.999)")
echo "$report" | grep -E '^[0-9]' | grep -vqE '^[0-9.]+[=?] ' ; is $? 1 "A/A report: every cell printed with = or ? (no difference)"
echo "$report" | sed -n '/warning/s/^/# /p'

# ---- A/A with a CPU-busy loop on every core from round 2 on -----------------
start_hog() {
    if [ "$1" = 1 ]; then
        for _ in $(seq "$(nproc)"); do
            timeout 60 sh -c 'while :; do :; done' & hog_pids+=($!)
        done
    fi
}
after_round=start_hog
interleave vt-h1 vt-h2 3 1 "${reads[@]}"
ok $? "A/A with a busy loop on every core from round 2: runs done"
after_round=
kill "${hog_pids[@]}" 2>/dev/null; hog_pids=()
is "$(significant vt-h1 vt-h2)" 0 "A/A under a load that starts part-way: no cell is a significant difference"
q "SELECT bench_report('vt-h1', 'vt-h2', confidence => 0.999)" | sed -n '/warning/s/^/# /p'
q "SELECT label, workload, round(qps) FROM microbench.runs WHERE label LIKE 'vt-h%' AND workload = 'point-query' ORDER BY run_id" | sed 's/^/# /'

# ---- synchronous_commit on against off ---------------------------------------------
# set for the test database only (the clients of each run are new sessions
# of it), so that on an existing server nothing else changes
use_sync() {
    local v=on
    [ "$1" = vt-off ] && v=off
    q "ALTER DATABASE \"$PGDATABASE\" SET synchronous_commit = $v" >/dev/null
}
on_label=use_sync
# Six rounds a side.  With three (an interval on about two degrees of
# freedom), a run of make test with a busy loop on every core and, beside
# this suite, microbench compare's suite committing on the same disk once
# left a write cell's interval reaching below 1: commit waits for the WAL
# flush swing most from round to round exactly when the disk is shared.
interleave vt-on vt-off 6 1 update-index update-nonindex
ok $? "synchronous_commit on against off: 6 rounds of 2 write workloads, interleaved"
on_label=
sync_cells=$(q "SELECT count(*) FROM microbench.compare('vt-on', 'vt-off') WHERE verdict = 'difference' AND ci_low > 1")
is "$sync_cells" 2 "commits that do not wait for the WAL flush: both write cells differences, above 1"
# on failure, what the verdict rested on, where prove shows it (stderr)
[ "$sync_cells" = 2 ] || {
    q "SELECT workload, round(ratio::numeric, 2), round(ci_low::numeric, 2), round(ci_high::numeric, 2)
       FROM microbench.compare('vt-on', 'vt-off')"
    q "SELECT label, workload, round(qps) FROM microbench.runs WHERE label IN ('vt-on', 'vt-off') ORDER BY run_id"
} | sed 's/^/# /' >&2

q "DELETE FROM microbench.runs WHERE label LIKE 'vt-%'" >/dev/null
done_testing
