#!/usr/bin/env bash
# test/run_suites.sh — run several make targets as test suites, JOBS at a
# time: every one runs even when another failed (a red pgTAP file must not
# hide the client's results), then a summary says which passed and which
# failed, with how long each took, and the exit status is non-zero if any
# failed.
#
# The suites share nothing (each starts its own servers on its own ports in
# its own temporary directories), so on a machine with two or more cores
# they run side by side; a suite's output is kept in a file and printed
# whole when it ends, so the output of two suites never interleaves.  Start
# the longest suite first: the others fill the second lane behind it.  The
# suites' prerequisites (build, install) must be made before: two makes
# installing the same files at once would race.
#
# A suite still running after SUITE_MAX_MINUTES (default 40; 0: no limit)
# is stopped and failed, and whatever it printed so far is shown: a suite
# that hangs must fail where its last output says where it hung, not run
# on until an outer time limit kills the whole job with nothing printed.
# An interrupt (INT or TERM) likewise prints what each running suite had
# printed before it stops them.
#
#   test/run_suites.sh [-j JOBS] target ...   (make test uses it; JOBS 2)
set -uo pipefail

jobs=1
if [ "${1:-}" = -j ]; then
    jobs=${2:?usage: run_suites.sh [-j JOBS] target ...}
    shift 2
fi
case $jobs in
    '' | *[!0-9]* | 0) echo "run_suites.sh: -j wants a whole number of at least 1, not '$jobs'" >&2; exit 2 ;;
esac
# wait -n -p (which job ended) came with bash 5.1
if [ "$jobs" -gt 1 ] && { [ "${BASH_VERSINFO[0]}" -lt 5 ] ||
    { [ "${BASH_VERSINFO[0]}" -eq 5 ] && [ "${BASH_VERSINFO[1]}" -lt 1 ]; }; }; then
    echo "run_suites.sh: bash $BASH_VERSION runs one suite at a time (side by side needs 5.1)"
    jobs=1
fi

max_minutes=${SUITE_MAX_MINUTES:-40}
case $max_minutes in
    '' | *[!0-9]*) echo "run_suites.sh: SUITE_MAX_MINUTES wants a whole number of minutes, not '$max_minutes'" >&2; exit 2 ;;
esac
# timeout signals its whole process group (the suite's scripts, whose EXIT
# traps stop their servers), then kills what is left
time_limit=()
[ "$max_minutes" -gt 0 ] && time_limit=(timeout --kill-after=30 "$((max_minutes * 60))")

cd "$(dirname "$0")/.."
# the suites' output until each is printed; removed however this script ends
logdir=$(mktemp -d /tmp/microbench-suites.XXXXXX)
trap 'rm -rf "$logdir"' EXIT

# Each suite runs in a process group of its own (set -m): Ctrl-C reaches
# only this script, which passes the signal on to every process of every
# running suite (their EXIT traps stop their servers).  A suite started in
# the background with SIGINT ignored cannot be interrupted at all, so TERM
# is passed on as TERM, not turned into INT.
set -m
declare -A target_of=() started=() seconds=() result=()
stop_all() {   # stop_all SIGNAL
    for pid in "${!target_of[@]}"; do kill -"$1" -- "-$pid" 2>/dev/null; done
    wait 2>/dev/null
    for pid in "${!target_of[@]}"; do
        target=${target_of[$pid]}
        echo "== make $target (stopped by SIG$1 after $(($(date +%s) - started[$target])) s; its output so far)"
        cat "$logdir/$target.log"
    done
    exit $((128 + $([ "$1" = INT ] && echo 2 || echo 15)))
}
trap 'stop_all INT' INT
trap 'stop_all TERM' TERM

report() {   # target status: print the suite's whole output and remember how it went
    local target=$1 status=$2
    seconds[$target]=$(($(date +%s) - started[$target]))
    if [ "$status" = 0 ]; then result[$target]=passed; else result[$target]=FAILED; fi
    if [ "$status" != 0 ] && [ "$max_minutes" -gt 0 ] && [ "${seconds[$target]}" -ge $((max_minutes * 60)) ]; then
        result[$target]="FAILED: over $max_minutes min, stopped"
    fi
    echo "== make $target (${result[$target]}, ${seconds[$target]} s)"
    cat "$logdir/$target.log"
}

pending=("$@")
while [ ${#pending[@]} -gt 0 ] || [ ${#target_of[@]} -gt 0 ]; do
    while [ ${#pending[@]} -gt 0 ] && [ ${#target_of[@]} -lt "$jobs" ]; do
        target=${pending[0]}
        pending=("${pending[@]:1}")
        started[$target]=$(date +%s)
        "${time_limit[@]}" ${MAKE:-make} --no-print-directory "$target" >"$logdir/$target.log" 2>&1 </dev/null &
        target_of[$!]=$target
        [ "$jobs" -gt 1 ] && echo "== started make $target"
    done
    if [ "$jobs" -gt 1 ]; then
        wait -n -p ended "${!target_of[@]}"
        status=$?
    else
        ended=${!target_of[*]}     # the one running suite
        wait "$ended"
        status=$?
    fi
    target=${target_of[$ended]}
    unset "target_of[$ended]"
    report "$target" "$status"
done

echo "== summary"
failed=()
for target in "$@"; do
    printf '%-14s %-7s %4d s\n' "$target" "${result[$target]}" "${seconds[$target]}"
    [ "${result[$target]}" = passed ] || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
echo "all $# suites passed"
