#!/usr/bin/env bash
# test/demo.t — `make demo` in a short form (make demo-test): the demo
# decides what it shows.  Four reads and one write counted, the same four
# reads and every write timed, on small tables, and the checks its
# acceptance names: every counted read cell the same (=) on both DBMS,
# every Postgres write a difference in QPS, no read cell a difference by
# either metric; and that it says so, and names what it wrote.
#
# A count is exact, so the counted checks hold on a busy machine (its
# rounds go on until every cell is decided, DEMO_COUNTED_MINUTES only a
# ceiling; the counts are judged within 1%, DEMO_COUNT_THRESHOLD, where the
# demo's 0.5% would leave MariaDB's insert, 0.5-0.66% apart, undecided for
# as long as the ceiling allows); a
# Postgres write's QPS differs by 1.6-30x, and the timed writes' rounds go
# on for a write still undecided (DEMO_MINUTES a ceiling); the reads stop
# after four rounds (DEMO_READ_ROUNDS).  One write is left out of that
# check: update-inlist updates many rows a commit, so its runs are bound by
# the WAL they write more than by the wait at commit; relaxed runs fast for
# the first tenths of a run and then slows, and its ratio, 1.15-1.3 over
# the old demo's eight to ten passes, fell to 1.03 over 25 (undecided)
# when the test let it run on.  The timed reads are judged at 99.9%
# (DEMO_READ_CONFIDENCE), as the other verdict tests on real runs are
# (test/pg/verdicts.t): at the demo's 95% a read of the same work is
# called a difference by chance in up to 5% of runs, and a test must not
# fail by chance.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"

out=$(mktemp -d /tmp/microbench-demo-test.XXXXXX)
trap 'rm -rf "$out"' EXIT
reads=point-query,points-covered-pk,range-covered-pk,read-only_range=10
writes=update-inlist,update-index,update-nonindex,update-one,update-zipf,write-only,read-write_range=10,read-write_range=100,delete,insert

DEMO_ROWS=5000 DEMO_READ_ROUNDS=4 DEMO_MINUTES=20 DEMO_READ_CONFIDENCE=0.999 \
    DEMO_WORKLOADS="$reads,$writes" DEMO_COUNTED_WORKLOADS="$reads,insert" DEMO_COUNTED_MINUTES=10 DEMO_COUNT_THRESHOLD=0.01 \
    DEMO_PG_PORT=5487 DEMO_OUT="$out" \
    "$here/demo.sh" >"$out/demo.out" 2>&1
is "$?" 0 "the demo ends with exit status 0"
sed 's/^/# /' "$out/demo.out"

# section TITLE: the report printed under "== TITLE..."
section() { awk -v t="== $1" 'index($0, t) == 1 { on = 1; next } /^== / { on = 0 } on' "$out/demo.out"; }
# cells REPORT: "group column workload cell" for every cell of a text report
cells() {
    awk '/^-- (point queries|range queries|writes)/ { grp = substr($0, 4); next }
         /^pg / { n = split($0, cols); next }
         grp != "" && NF == n + 1 && $1 ~ /^([0-9.]+[=?]?|-)$/ {
             for (i = 1; i <= n; i++) print (grp == "writes" ? "write" : "read"), cols[i], $(n + 1), $i }' <<<"$1"
}
timed=$(cells "$(section "timed:")")
counted=$(cells "$(section "counted:")")

counted_reads=$(awk '$1 == "read"' <<<"$counted")
for col in pg ma; do
    is "$(awk -v c="$col" '$2 == c' <<<"$counted_reads" | wc -l)" 4 "$col: four reads counted"
    is "$(awk -v c="$col" '$2 == c && $4 !~ /=$/' <<<"$counted_reads")" "" "$col: every counted read the same (=)"
done
is "$(awk '$1 == "write" && $2 == "pg"' <<<"$timed" | wc -l)" 10 "pg: ten writes timed"
is "$(awk '$1 == "write" && $2 == "pg" && $3 != "update-inlist" && $4 ~ /[=?]$/' <<<"$timed")" "" \
    "pg: every write whose commit waits a difference in QPS (update-inlist aside)"
is "$(awk '$1 == "read" && $4 ~ /[0-9]$/' <<<"$timed$(printf '\n')$counted")" "" \
    "no read cell a difference, timed or counted"

like "$(section "what they say together")" "^Reads: both settings run the same instructions" \
    "the reading says the reads run the same instructions"
like "$(section "what they say together" | grep -A1 '^Postgres: ')" "the difference is waiting for the disk, not work" \
    "the reading says Postgres's writes differ by waiting, not work"
# count and clock: every counted cell that was also timed, per DBMS and kind
like "$(section "what they say together" | grep -E '^(Postgres|MariaDB) (reads|writes): [0-9]+ of [0-9]+ agree' | wc -l)" '^[1-4]$' \
    "the reading sets each count's implied QPS beside the measured, per DBMS and kind"
like "$(section "what they say together" | grep -A3 -E '^Postgres writes: ' | tr '\n' ' ' | tr -s ' ')" \
    'not: (update-index|insert) implies 1\.0[0-9], measured [0-9.]+: faster than its instructions: less waiting' \
    "... and says Postgres's writes ran faster than their instructions by waiting less"
for f in demo-reads.svg demo-writes.svg demo-report.md demo-counted/report.txt demo-counted/runs.jsonl \
         demo-timed-reads/runs.jsonl demo-timed-writes/runs.jsonl; do
    ok "$([ -s "$out/$f" ]; echo $?)" "wrote $f"
done
done_testing
