#!/usr/bin/env bash
# test/run_suites.sh — run several make targets as test suites: every one
# runs even when an earlier one failed (a red pgTAP file must not hide the
# client's results), then a summary says which passed and which failed, with
# how long each took, and the exit status is non-zero if any failed.
#
#   test/run_suites.sh unit-test pg-test mysql-test ...   (make test uses it)
set -uo pipefail

cd "$(dirname "$0")/.."
failed=()
summary=()
for target in "$@"; do
    echo "== make $target"
    t0=$(date +%s)
    if ${MAKE:-make} --no-print-directory "$target"; then
        summary+=("$(printf '%-14s passed  %4d s' "$target" $(($(date +%s) - t0)))")
    else
        summary+=("$(printf '%-14s FAILED  %4d s' "$target" $(($(date +%s) - t0)))")
        failed+=("$target")
    fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
echo "all ${#summary[@]} suites passed"
