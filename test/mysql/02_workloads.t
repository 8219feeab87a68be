#!/usr/bin/env bash
# 02_workloads.t — every one of the 32 workloads runs for about a second on
# MariaDB and reports sane figures: events, queries = events x queries per
# event (from `list`, the shared catalog), ordered latencies.
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=""
for w in $("$MBM" list | awk 'NR > 1 { print $1 }'); do
    mbm --table-size=5000 --time=0.7 --warmup-time=0.1 --label=all --results-file="$out" \
        run "$w" >/dev/null 2>&1 || failed="$failed $w"
done
is "$failed" "" "all 32 workloads run and exit 0"
is "$(wc -l <"$out")" 32 "each run writes its result line"

bad=""
while read -r name group qpe; do
    line=$(grep -F "\"workload\": \"$name\"" "$out")
    events=$(json_field "$line" events)
    queries=$(json_field "$line" queries)
    if [ -z "$events" ] || [ "$events" -le 0 ] || [ "$queries" -ne $((events * qpe)) ]; then
        bad="$bad $name"
    fi
done < <("$MBM" list | awk 'NR > 1 { print $1, "-", $NF }')
is "$bad" "" "events > 0 and queries = events x queries per event for every workload"

bad=""
while read -r line; do
    awk -v a="$(json_field "$line" lat_avg_ms)" -v p="$(json_field "$line" lat_p95_ms)" \
        -v m="$(json_field "$line" lat_max_ms)" 'BEGIN { exit !(a > 0 && a <= m && p <= m) }' \
        || bad="$bad $(json_field "$line" workload)"
done <"$out"
is "$bad" "" "latencies are positive and avg, p95 <= max"

scan=$(grep -F '"workload": "scan"' "$out")
is "$(json_field "$scan" rows_scanned)" "$(( $(json_field "$scan" events) * 5000 ))" \
   "scan counts table-size rows per scan"

done_testing
