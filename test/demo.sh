#!/usr/bin/env bash
# test/demo.sh — the README's first command (`make demo`).
#
# Compares two labels that differ in one setting a user understands, on a
# throwaway Postgres (with the extension) and a throwaway MariaDB:
#   durable  synchronous_commit = on,  innodb_flush_log_at_trx_commit = 1
#   relaxed  synchronous_commit = off, innodb_flush_log_at_trx_commit = 2
# and measures them two ways, so that a newcomer sees what a count decides
# that a clock cannot:
#
# 1. Counted: the product's own runner, `microbench compare --metric
#    instructions`, on the installed servers with the two labels' settings
#    (--set): a few reads and writes, every run on a fresh server start
#    under valgrind, instructions per query of the measured window only.
#    Three rounds (three seeds) decide a count on any machine, busy or
#    not; rounds go on for a cell still undecided (a MariaDB count of one
#    seed can move by 0.1-0.3% from one server start to the next) until
#    DEMO_COUNTED_MINUTES (5) from its start.
# 2. Timed: QPS of the same reads and every write, the labels taking
#    turns workload by workload (A B, then B A, ...) on the live servers,
#    switched by a reload.  The reads are the suite's reads right after
#    the load (phase pre), the writes phase post, and each is a comparison
#    of its own: its verdicts adjusted for its own cells (Benjamini-
#    Hochberg), so that ten writes that truly differ do not lower the bar
#    a read must clear (in one comparison they let a read through about
#    one demo in four on this VM).  Runs of half a second (DEMO_SECONDS):
#    five tenths give a run its steady rate, with a tenth the host stalled
#    set aside.  Every pass starts from freshly loaded tables, so both
#    labels read the same data, and each write workload of each label
#    starts from a fresh load too (a faster label deletes more rows, for
#    one).  DEMO_REPEATS (3) passes run every cell; then passes go on for
#    the cells still undecided (neither a difference nor the same within
#    DEMO_THRESHOLD, 5%, at the stricter level used between passes), up
#    to DEMO_MAX_PASSES or until the next pass would end after
#    DEMO_MINUTES from the start; the reads for DEMO_READ_PASSES at most.
#    Both servers run pinned to CPU 0 and the MariaDB client to the other
#    CPUs (where there are two or more): this VM's vCPUs differ in speed,
#    and a run whose worker lands on one or the other gives bimodal figures.
#
# Then prints both reports in the gcc-vs-clang table's layout (each cell a
# difference: the ratio alone, the same: "=", or not decided: "?") and what
# they say together, from their verdicts; writes the reports and the runs
# under DEMO_OUT (results/); stops both servers.  DEMO_SECONDS, DEMO_ROWS,
# DEMO_WORKLOADS (the timed ones; empty: the whole suite) and
# DEMO_COUNTED_WORKLOADS make it shorter or longer (test/demo.t runs a
# short one).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
secs=${DEMO_SECONDS:-0.5}
repeats=${DEMO_REPEATS:-3}
max_passes=${DEMO_MAX_PASSES:-10}
max_minutes=${DEMO_MINUTES:-11}
threshold=${DEMO_THRESHOLD:-0.05}
confidence=${DEMO_CONFIDENCE:-0.95}
read_confidence=${DEMO_READ_CONFIDENCE:-$confidence}
read_passes=${DEMO_READ_PASSES:-$max_passes}
rows=${DEMO_ROWS:-20000}
# five reads of the report's three groups of reads; every write
reads=point-query,points-covered-pk,range-covered-pk,read-only_range=10,read-only_range=100
writes=update-inlist,update-index,update-nonindex,update-one,update-zipf,write-only,read-write_range=10,read-write_range=100,delete,insert
timed_workloads=${DEMO_WORKLOADS-$reads,$writes}
counted_workloads=${DEMO_COUNTED_WORKLOADS:-$reads,update-index,insert}
counted_rows=${DEMO_COUNTED_ROWS:-10000}
counted_max=${DEMO_COUNTED_MINUTES:-5}
count_threshold=${DEMO_COUNT_THRESHOLD:-0.005}
warmup=0.1
out=${DEMO_OUT:-$root/results}
pgdir=$(mktemp -d /tmp/microbench-demo-pg.XXXXXX)
mydir=$(mktemp -d /tmp/microbench-demo-my.XXXXXX)
trap '"$here/mariadb_server.sh" stop "$mydir"; "$here/pg_cluster.sh" stop "$pgdir"' EXIT
mkdir -p "$out"
started=$(date +%s)
elapsed() { local s=$(( $(date +%s) - started )); printf '%d:%02d' $((s / 60)) $((s % 60)); }

pg_prefix=$(cd "$(pg_config --bindir)/.." && pwd)
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
n_counted=$(tr ',' '\n' <<<"$counted_workloads" | grep -c .)
# about a minute to start, then a round costs about 9 s a workload here
# (four counted runs: two builds, two DBMS)
counted_minutes=$(( (60 + 3 * 9 * n_counted + 30) / 60 ))
cat <<EOF
microbench demo: two settings compared on Postgres $(pg_config --version | awk '{print $2}') and MariaDB $("$mariadbd" --version | sed -n 's/.*Ver \([0-9.]*\).*/\1/p')
  durable  synchronous_commit = on,  innodb_flush_log_at_trx_commit = 1 (every commit waits for its log on disk)
  relaxed  synchronous_commit = off, innodb_flush_log_at_trx_commit = 2 (commits do not wait)
1. counted, $counted_minutes to $counted_max minutes: instructions per query of $n_counted workloads under valgrind,
   every run on a fresh server start (microbench compare --metric instructions)
2. timed, until about $max_minutes minutes from now: QPS of $( [ -n "$timed_workloads" ] && echo "$(tr ',' '\n' <<<"$timed_workloads" | grep -c .) workloads" || echo "the standard suite" ),
   the labels taking turns on live servers, passes of ${secs}-s runs until every cell is decided
then both reports and what they say together.

EOF

echo "== $(elapsed) starting a throwaway Postgres and a throwaway MariaDB"
# the servers on CPU 0 (their workers and backends inherit it), the client on the rest
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    on_servers() { taskset -c 0 "$@"; }
    on_client() { taskset -c "1-$(( $(nproc) - 1 ))" "$@"; }
else
    on_servers() { "$@"; }
    on_client() { "$@"; }
fi
eval "$(on_servers "$here/pg_cluster.sh" start "$pgdir" "${DEMO_PG_PORT:-5497}")"
export MB_MYSQL_ROOT_PASSWORD=${MB_MYSQL_ROOT_PASSWORD:-microbench}
eval "$(on_servers "$here/mariadb_server.sh" start "$mydir" "${DEMO_MYSQL_PORT:-3397}")"
unset MYSQL_HOST
# the timed runs in one database, the counted ones in another: a run's
# instructions are counted by one counter per report (valgrind's there,
# where a machine with hardware counters records those in the timed runs)
export PGDATABASE=microbench_demo
counted_db=microbench_demo_counted
for db in "$PGDATABASE" "$counted_db"; do
    createdb "$db"
    psql -X -q -d "$db" -c "CREATE EXTENSION microbench" >/dev/null
done
results_db="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$PGDATABASE"

pg() { psql -X -q -A -t -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" "$@"; }
mbm() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" on_client "$root/client/microbench" \
        --mysql-socket="$MYSQL_SOCKET" --mysql-user=bench --mysql-db=sbtest "$@"
}
my_sql() {
    MYSQL_PWD="$MB_MYSQL_ROOT_PASSWORD" mariadb --no-defaults -hlocalhost \
        --socket="$MYSQL_SOCKET" -ubench -e "$1"
}

# ---- 1. counted ------------------------------------------------------------
# The runner starts its own servers (on CPU 0, itself on the others) from
# pristine data; the throwaway Postgres only takes its runs.  Its progress
# is a line a round here; its whole output goes to demo-counted.log.
counted_out=$out/demo-counted
rm -rf "$counted_out"
echo "== $(elapsed) 1. counted: microbench compare --metric instructions ($counted_workloads)"
set +e
"$root/client/microbench" compare \
    --pg durable="$pg_prefix" --pg relaxed="$pg_prefix" \
    --mariadb durable="$mariadbd" --mariadb relaxed="$mariadbd" \
    --set postgres/durable:synchronous_commit=on --set postgres/relaxed:synchronous_commit=off \
    --set mariadb/durable:innodb_flush_log_at_trx_commit=1 --set mariadb/relaxed:innodb_flush_log_at_trx_commit=2 \
    --metric instructions --threshold "$count_threshold" --workloads "$counted_workloads" \
    --table-size "$counted_rows" --rounds 3 --max-minutes "$counted_max" \
    --results-db "host=$PGHOST port=$PGPORT user=$PGUSER dbname=$counted_db" --out "$counted_out" 2>&1 |
    tee "$out/demo-counted.log" |
    sed -un 's/^== after round \([0-9]*\): \(.*\), [0-9:]* in$/   counted round \1: \2/p'
# in the foreground, so that Ctrl-C reaches the runner, which stops its servers
status=${PIPESTATUS[0]}
set -e
if [ "$status" -gt 128 ]; then
    echo "demo: stopped by signal $((status - 128)); the counted runs so far: $counted_out" >&2
    exit "$status"
elif [ "$status" != 0 ]; then
    echo "demo: microbench compare failed (exit $status); its output: $out/demo-counted.log" >&2
    tail -n 5 "$out/demo-counted.log" >&2
    exit 1
fi

# ---- 2. timed --------------------------------------------------------------

# use LABEL: switch both servers to the label's setting.  A reload reaches
# the postmaster asynchronously; the clients of the next run are forked
# from it, so wait until a new session sees the setting.
current=""
use() {
    local sync flush
    [ "$1" = "$current" ] && return 0    # B A after A B: B needs no switch
    current=$1
    case $1 in durable) sync=on flush=1 ;; relaxed) sync=off flush=2 ;; esac
    pg -c "ALTER SYSTEM SET synchronous_commit = $sync" -c "SELECT pg_reload_conf()" >/dev/null
    until [ "$(pg -c "SHOW synchronous_commit")" = "$sync" ]; do sleep 0.01; done
    my_sql "SET GLOBAL innodb_flush_log_at_trx_commit = $flush"
}

# load: the same fresh tables in both DBMS
load() {
    pg -c "SELECT count(*) FROM bench_prepare(1, $rows, seed => 1)" >/dev/null
    mbm --table-size="$rows" --rand-seed=1 prepare >/dev/null
}

# step KIND WORKLOAD SECONDS GROUP LABEL: one step of the suite on both
# DBMS (a warm-up step runs like any other; its rows are not kept); the
# pass is the run's round, so that the two labels' runs of a workload in
# one pass are a pair.
step() {
    local kind=$1 workload=$2 phase=$3 seconds=$4 group=$5 label=$6
    [ "$group" = writes ] && load
    if [ "$kind" = warmup ] || wanted postgres "$workload"; then
        pg -c "SELECT run_id FROM bench_run('$workload', seconds => $seconds, warmup => $warmup,
                                             label => '$label', phase => '$phase', round => $rep)" >/dev/null
    fi
    if [ "$kind" = warmup ] || wanted mariadb "$workload"; then
        mbm --time="$seconds" --warmup-time="$warmup" --label="$label" --phase="$phase" --round="$rep" \
            --results-db="$results_db" run "$workload" >>"$out/demo-mariadb.log"
    fi
    if [ "$kind" = warmup ]; then
        pg -c "DELETE FROM microbench.runs WHERE label = 'warm-up'" >/dev/null
    fi
}

# wanted DBMS WORKLOAD: whether this pass runs the cell: every cell in the
# first passes, then only the undecided ones
undecided=all
wanted() { [ "$undecided" = all ] || grep -qxF "$1 $2" <<<"$undecided"; }

# The steps of a pass: the suite's warm-up, its reads right after the load,
# then its writes, each on its fresh load (no maintenance: no reads follow
# the writes).
if [ -n "$timed_workloads" ]; then
    wanted_array="ARRAY['$(sed "s/,/','/g" <<<"$timed_workloads")']"
else
    wanted_array=NULL
fi
plan=$(pg -F ' ' -c "SELECT s.kind, coalesce(s.workload, '-'), coalesce(s.phase, 'pre'), s.seconds,
                            coalesce(replace(w.grp, ' ', '_'), '-')
                     FROM microbench.suite_steps($wanted_array, $secs, $secs, $secs, $warmup) s
                     LEFT JOIN microbench.workloads w ON w.name = s.workload
                     WHERE s.kind = 'warmup' OR (s.kind = 'run' AND (s.phase = 'pre') = (w.grp <> 'writes'))
                     ORDER BY s.n")
cells=$(( $(awk '$1 == "run"' <<<"$plan" | wc -l) * 2 ))
# decided DBMS...: "N of M cells decided (D differences, S the same)" at
# the level between passes: each look is another chance to stop on a lucky
# draw, so a cell is decided between passes only at the stricter level the
# comparison runner uses (99.8%); the report then judges all runs at 95%
verdicts() {
    pg -c "SELECT c.dbms || ' ' || c.workload || ' ' || c.verdict || ' ' || p FROM unnest(ARRAY['pre', 'post']) p,
                  microbench.compare('durable', 'relaxed', phase => p, confidence => greatest(0.998, $read_confidence),
                                     threshold => $threshold) c
           WHERE c.base_runs > 0 AND c.other_runs > 0"
}
: >"$out/demo-mariadb.log"
echo "== $(elapsed) 2. timed: $cells cells, QPS of ${secs}-s runs, until about $max_minutes:00 in"
rep=0
while :; do
    rep=$((rep + 1))
    pass_start=$(date +%s)
    load
    i=0
    while read -r kind workload phase seconds group; do
        i=$((i + 1))
        if [ "$kind" != run ]; then
            step "$kind" "$workload" "$phase" "$seconds" - warm-up
            continue
        fi
        wanted postgres "$workload" || wanted mariadb "$workload" || continue
        # A B on one step, B A on the next, and the other way round in the next pass
        if [ $(((i + rep) % 2)) = 0 ]; then order="durable relaxed"; else order="relaxed durable"; fi
        for label in $order; do
            use "$label"
            step run "$workload" "$phase" "$seconds" "$group" "$label"
        done
    done <<<"$plan"
    v=$(verdicts)
    # the reads go on for DEMO_READ_PASSES passes at most, the writes to the end
    undecided=$(awk -v pass="$rep" -v last="$read_passes" '$3 == "inconclusive" && ($4 == "post" || pass < last) { print $1, $2 }' <<<"$v")
    echo "   timed pass $rep ($( [ "$rep" -le "$repeats" ] && echo "every cell" || echo "undecided cells" )):" \
         "$(awk '$3 != "inconclusive"' <<<"$v" | grep -c .) of $cells cells decided" \
         "($(awk '$3 == "difference"' <<<"$v" | grep -c .) differences, $(awk '$3 == "equivalent"' <<<"$v" | grep -c .) the same), $(elapsed) in"
    if [ "$rep" -lt "$repeats" ]; then
        undecided=all
        continue
    fi
    [ -n "$undecided" ] || break
    [ "$rep" -lt "$max_passes" ] || break
    # the next pass costs at most what this one did; the reports and
    # stopping the servers take about 15 s more
    [ $(( $(date +%s) + $(date +%s) - pass_start + 15 )) -le $(( started + max_minutes * 60 )) ] || break
done

# ---- the reports -----------------------------------------------------------
report() { # DATABASE FORMAT PHASE METRIC THRESHOLD CONFIDENCE
    psql -X -A -t -d "$1" -c "SELECT bench_report('durable', 'relaxed', '$2', phase => '$3', metric => '$4',
                                                  threshold => $5, confidence => $6)"
}
# the reads' table without the legend the writes' table prints again
legend='^-- (pg: |cells: |1\.04: |1\.00=: |0\.97\?: |intervals: )'
echo
echo "== timed: QPS(relaxed) / QPS(durable), above 1: relaxed is faster; reads right after the load, then writes"
echo
report "$PGDATABASE" text pre qps "$threshold" "$read_confidence" | grep -Ev "$legend"
echo
report "$PGDATABASE" text post qps "$threshold" "$confidence"
echo
echo "== counted: instructions(durable) / instructions(relaxed), above 1: relaxed runs fewer instructions a query"
echo
report "$counted_db" text post instructions "$count_threshold" "$confidence"
echo
echo "== what they say together"
"$here/demo_reading.sh" "$PGDATABASE" "$threshold" "$read_confidence" "$confidence" "$counted_db" "$count_threshold"

report "$PGDATABASE" svg pre qps "$threshold" "$read_confidence" >"$out/demo-reads.svg"
report "$PGDATABASE" svg post qps "$threshold" "$confidence" >"$out/demo-writes.svg"
{ report "$PGDATABASE" markdown pre qps "$threshold" "$read_confidence"; echo
  report "$PGDATABASE" markdown post qps "$threshold" "$confidence"; } >"$out/demo-report.md"
# the timed runs themselves, to judge again elsewhere (microbench.import_runs());
# the counted ones are in demo-counted/runs.jsonl
psql -X -A -t -c "SELECT microbench.export_runs(ARRAY['durable', 'relaxed'])" >"$out/demo-runs.jsonl"
echo
echo "== written:"
echo "   $out/: demo-reads.svg and demo-writes.svg (open them in a browser), demo-report.md (the"
echo "   intervals), demo-runs.jsonl (the timed runs)"
echo "   $counted_out/: the counted comparison's report.txt, report.md (the intervals, and the"
echo "   functions each write's difference comes from), report.svg, runs.jsonl, manifest.json"
echo "== $(psql -X -A -t -c "SELECT count(*) FROM microbench.runs") timed and" \
     "$(psql -X -A -t -d "$counted_db" -c "SELECT count(*) FROM microbench.runs") counted runs; done in $(elapsed); servers stopped"
