#!/usr/bin/env bash
# 06_suite.t — `suite` walks the standard order (the same list as the
# extension's bench_suite), records each run as it finishes, keeps no
# warm-up, runs the maintenance step after the writes, and stops at a
# failing run without losing the runs before it; without the tables it
# does not start.
set -u
. "$(dirname "$0")/tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mbm --table-size=5000 --read-time=0.2 --write-time=0.2 --insert-time=0.2 --warmup-time=0 \
    --label=suite --results-file="$dir/r.jsonl" \
    --workloads=point-query,update-index,scan,read-only_range=10,insert suite >"$dir/out" 2>&1
ok $? "suite with a subset exits 0"
is "$(sed -E 's/.*"workload": "([^"]*)".*"phase": "([^"]*)".*/\1 \2/' "$dir/r.jsonl" | tr '\n' ',')" \
   "point-query pre,read-only_range=10 pre,update-index post,scan post,read-only_range=10 post,point-query post,insert post," \
   "runs are recorded in the standard order with their phase; warm-ups are not recorded"
grep -q "maintenance: ANALYZE TABLE done; 0 dirty pages left" "$dir/out"
ok $? "the maintenance step ran and drained the dirty pages"
is "$(grep -E '^\[[0-9]+ of 10\] ' "$dir/out" | sed -E 's/^\[[0-9]+ of 10\] ([^—]*) — .*/\1/; s/ +$//' | tr '\n' ',')" \
   "warmup point-query,warmup scan,run point-query (pre),run read-only_range=10 (pre),run update-index (post),maintenance ANALYZE TABLE + dirty page flush,run scan (post),run read-only_range=10 (post),run point-query (post),run insert (post)," \
   "steps: warm-ups, pre reads, writes, maintenance, post reads, insert"
grep -q -E '^\[10 of 10\] run insert \(post\) — elapsed [0-9]+s, about [0-9]+s to go' "$dir/out"
ok $? "progress says which benchmark, n of m, elapsed and remaining"

# a failing run stops the suite; what ran before is kept
my_value "ALTER TABLE sbtest1 RENAME COLUMN k TO k_away"
mbm --table-size=5000 --read-time=0.2 --write-time=0.2 --insert-time=0.2 --warmup-time=0 \
    --label=suite-fail --results-file="$dir/f.jsonl" --workloads=point-query,update-index suite >"$dir/out" 2>"$dir/err"
rc=$?
my_value "ALTER TABLE sbtest1 RENAME COLUMN k_away TO k"
is "$rc" 1 "a suite whose run fails exits 1"
grep -q "suite stopped at step 4 of 6; earlier runs are recorded" "$dir/err"
ok $? "it says where it stopped"
is "$(sed -E 's/.*"workload": "([^"]*)".*"phase": "([^"]*)".*/\1 \2/' "$dir/f.jsonl" | tr '\n' ',')" "point-query pre," \
   "the run before the failing one is kept"

# a suite on a database without the tables stops before it starts
my_value "RENAME TABLE sbtest1 TO sbtest1_away"
mbm --table-size=5000 --read-time=0.2 --warmup-time=0 --label=suite-missing --results-file="$dir/m.jsonl" \
    --workloads=point-query suite >"$dir/out" 2>"$dir/err"
rc=$?
my_value "RENAME TABLE sbtest1_away TO sbtest1"
is "$rc:$(cat "$dir/err")" "2:microbench: table sbtest1 does not exist in database sbtest: run prepare first" \
   "a suite without sbtest1 exits 2 at once and says to run prepare"

# the maintenance step alone, for scripts that walk the suite's steps
mbm maintain >"$dir/out" 2>&1
is "$?:$(grep -c '^maintenance: ANALYZE TABLE done; 0 dirty pages left$' "$dir/out")" "0:1" \
   "maintain: ANALYZE TABLE and the dirty pages written, exit 0"
is "$(my_value "SELECT @@GLOBAL.innodb_max_dirty_pages_pct > 0")" 1 "maintain puts innodb_max_dirty_pages_pct back"

done_testing
