#!/usr/bin/env bash
# 02_postgres_sync.t — a real difference: the same installation with
# synchronous_commit off for one label.  Commits that do not wait for the
# WAL flush make the write cell significant and above 1; the read beside it
# is not called a difference.  Five rounds a side: on a busy disk the
# commit-bound side's QPS swings from round to round, and with three (an
# interval on about two degrees of freedom) a busy machine once left even
# an elevenfold change inside the interval.
set -u
. "$(dirname "$0")/lib.sh"

out="$scratch/sync"
"$MB" compare --pg on="$PG_PREFIX" --pg off="$PG_PREFIX" --set off:synchronous_commit=off \
    --rounds 5 --max-minutes 0 --seconds 1 --warmup 0.2 --workloads update-index --table-size 10000 \
    --out "$out" >"$scratch/out" 2>&1
ok $? "synchronous_commit on against off: exit 0"
cell=$(grep -E 'update-index$' "$out/report.txt" | awk '{ print $1 }')
case $cell in *[=?]) sig=no ;; *) sig=yes ;; esac
is "$sig:$(awk -v c="${cell%[=?]}" 'BEGIN { print (c > 1) }')" "yes:1" \
   "update-index is a difference, above 1 (cell $cell)"
grep -qE '^\| [0-9.]+ \[[0-9.]+, [0-9.]+\] \| update-index \|$' "$out/report.md"
ok $? "report.md carries its interval"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1])); print([b["settings"] for b in m["builds"]])' "$out/manifest.json")" \
   "[None, 'synchronous_commit=off']" "the manifest records the setting of the build it was given to"
is "$(servers_left)" 0 "no server left running"
done_testing
