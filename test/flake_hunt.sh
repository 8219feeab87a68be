#!/usr/bin/env bash
# test/flake_hunt.sh — run `make test` many times in a row to find tests that
# fail only sometimes: first QUIET times as they are, then HOGGED times with
# a CPU-busy loop on every core (the loops are stopped by this script
# whatever happens).  Each run's output goes to LOGDIR/run-N.log; a table
# of pass/fail and minutes per run is printed as runs finish.  Stops at the
# first failure (its log says what failed) unless --keep-going.
#
#   test/flake_hunt.sh [--keep-going] [QUIET [HOGGED [LOGDIR]]]   (10 3 /tmp/microbench-flake-hunt)
set -uo pipefail

keep_going=0
[ "${1:-}" = --keep-going ] && { keep_going=1; shift; }
quiet=${1:-10}
hogged=${2:-3}
logdir=${3:-/tmp/microbench-flake-hunt}
cd "$(dirname "$0")/.."
mkdir -p "$logdir"

hogs=()
stop_hogs() { [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null; hogs=(); }
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

failed=0
run=0
printf '%-4s %-7s %-7s %s\n' run load result minutes | tee "$logdir/summary.txt"
for kind in quiet hogged; do
    count=$quiet
    [ "$kind" = hogged ] && count=$hogged
    for _ in $(seq "$count"); do
        run=$((run + 1))
        if [ "$kind" = hogged ]; then
            for _ in $(seq "$(nproc)"); do
                (trap - INT TERM; while :; do :; done) &
                hogs+=($!)
            done
        fi
        t0=$(date +%s)
        if make test >"$logdir/run-$run.log" 2>&1; then result=passed; else result=FAILED; failed=$((failed + 1)); fi
        stop_hogs
        printf "%-4s %-7s %-7s %s\n" "$run" "$kind" "$result" "$(awk "BEGIN { printf \"%.1f\", ($(date +%s) - $t0) / 60 }")" \
            | tee -a "$logdir/summary.txt"
        if [ "$result" = FAILED ]; then
            grep -E '^(not ok|Failed|failed:|.*FAILED)' "$logdir/run-$run.log" | head -20 | sed 's/^/    /'
            [ "$keep_going" = 1 ] || exit 1
        fi
    done
done
echo "$run runs, $failed failed (logs in $logdir)"
[ "$failed" = 0 ]
