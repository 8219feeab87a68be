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
# 2. Timed: QPS of the same reads and every write, by the same runner
#    with its servers kept up (--keep-up): each label's server starts once
#    a round from pristine data, the labels take turns workload by
#    workload (A B, then B A), and before each run of a write its tables
#    are loaded again, so that every run reads the same data.  The reads
#    and the writes are two comparisons, each with its verdicts adjusted
#    for its own cells (Benjamini-Hochberg), so that ten writes that truly
#    differ do not lower the bar a read must clear (in one comparison they
#    let a read through about one demo in four on this VM).  Runs of half a
#    second (DEMO_SECONDS); a read's three turns a start (each round is
#    one pair: the turns only average out the host's speed within it).
#    Three rounds, then rounds for the cells still undecided until every
#    cell is decided or the time left is spent: DEMO_MINUTES (10.5) from
#    the start, about two fifths of what the counted part left to the
#    reads, the rest to the writes (a write's run reloads its tables in
#    about 0.2 s, and the whole demo ended after 8 to 9 minutes here).
#    The runner pins the servers to CPU 0 and itself and its clients to
#    the others.
#
# Then prints both reports in the gcc-vs-clang table's layout (each cell a
# difference: the ratio alone, the same: "=", or not decided: "?") and what
# they say together, from their verdicts; writes the reports and the runs
# under DEMO_OUT (results/); stops its results server.  DEMO_SECONDS,
# DEMO_ROWS, DEMO_WORKLOADS (the timed ones), DEMO_READ_ROUNDS and
# DEMO_COUNTED_WORKLOADS make it shorter or longer (test/demo.t runs a
# short one).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
secs=${DEMO_SECONDS:-0.5}
max_minutes=${DEMO_MINUTES:-10.5}
threshold=${DEMO_THRESHOLD:-0.05}
confidence=${DEMO_CONFIDENCE:-0.95}
read_confidence=${DEMO_READ_CONFIDENCE:-$confidence}
read_rounds=${DEMO_READ_ROUNDS:-}     # set: the reads run exactly this many rounds
rows=${DEMO_ROWS:-20000}
# five reads of the report's three groups of reads; every write
reads=point-query,points-covered-pk,range-covered-pk,read-only_range=10,read-only_range=100
writes=update-inlist,update-index,update-nonindex,update-one,update-zipf,write-only,read-write_range=10,read-write_range=100,delete,insert
timed_workloads=${DEMO_WORKLOADS:-$reads,$writes}
counted_workloads=${DEMO_COUNTED_WORKLOADS:-$reads,update-index,insert}
counted_rows=${DEMO_COUNTED_ROWS:-10000}
counted_max=${DEMO_COUNTED_MINUTES:-5}
count_threshold=${DEMO_COUNT_THRESHOLD:-0.005}
out=${DEMO_OUT:-$root/results}
pgdir=$(mktemp -d /tmp/microbench-demo-pg.XXXXXX)
trap '"$here/pg_cluster.sh" stop "$pgdir"' EXIT
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
2. timed, until about $max_minutes minutes from now: QPS of $(tr ',' '\n' <<<"$timed_workloads" | grep -c .) workloads, the labels taking turns on
   servers kept up a round, ${secs}-s runs, rounds until every cell is decided (microbench compare --keep-up)
then both reports and what they say together.

EOF

echo "== $(elapsed) starting a throwaway Postgres for the results"
eval "$("$here/pg_cluster.sh" start "$pgdir" "${DEMO_PG_PORT:-5497}")"
# the counted runs in one database, the timed reads and writes in one each:
# a run's instructions are counted by one counter per report, and each
# timed comparison adjusts its verdicts for its own cells
counted_db=microbench_demo_counted reads_db=microbench_demo_reads writes_db=microbench_demo_writes
for db in "$counted_db" "$reads_db" "$writes_db"; do
    createdb "$db"
    psql -X -q -d "$db" -c "CREATE EXTENSION microbench" >/dev/null
done
conninfo() { echo "host=$PGHOST port=$PGPORT user=$PGUSER dbname=$1"; }

# the timed workloads that write, or those that read, in the suite's order
split_timed() { # writes or reads
    psql -X -q -A -t -d "$counted_db" -v ON_ERROR_STOP=1 -v list="$timed_workloads" -v grp="$1" <<'SQL'
SELECT coalesce(string_agg(w.name, ',' ORDER BY w.report_order), '') FROM microbench.workloads w
WHERE w.name = ANY (string_to_array(:'list', ',')) AND (w.grp = 'writes') = (:'grp' = 'writes');
SQL
}
timed_reads=$(split_timed reads)
timed_writes=$(split_timed writes)

# compare NAME WHAT ARGS...: microbench compare of both labels on both
# DBMS, in the foreground (so that Ctrl-C reaches the runner, which stops
# its servers), its whole output in NAME.log and a line a round here
labels=(--pg durable="$pg_prefix" --pg relaxed="$pg_prefix" --mariadb durable="$mariadbd" --mariadb relaxed="$mariadbd"
        --set postgres/durable:synchronous_commit=on --set postgres/relaxed:synchronous_commit=off
        --set mariadb/durable:innodb_flush_log_at_trx_commit=1 --set mariadb/relaxed:innodb_flush_log_at_trx_commit=2)
compare() {
    local name=$1 what=$2 status
    shift 2
    rm -rf "${out:?}/$name"
    set +e
    "$root/client/microbench" compare "${labels[@]}" "$@" --out "$out/$name" 2>&1 |
        tee "$out/$name.log" |
        sed -un "s/^== after round \([0-9]*\): \(.*\), [0-9:]* in$/   $what round \1: \2/p"
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -gt 128 ]; then
        echo "demo: stopped by signal $((status - 128)); the runs so far: $out/$name" >&2
        exit "$status"
    elif [ "$status" != 0 ]; then
        echo "demo: microbench compare failed (exit $status); its output: $out/$name.log" >&2
        tail -n 5 "$out/$name.log" >&2
        exit 1
    fi
}
# minutes SHARE: that share of the time left until DEMO_MINUTES, less 20 s
# for the reports; half a minute at least
minutes() {
    awk -v started="$started" -v now="$(date +%s)" -v max="$max_minutes" -v share="$1" \
        'BEGIN { m = (started + max * 60 - 20 - now) * share / 60; printf "%.2f", m < 0.5 ? 0.5 : m }'
}

# ---- 1. counted ------------------------------------------------------------
echo "== $(elapsed) 1. counted: microbench compare --metric instructions ($counted_workloads)"
compare demo-counted counted --metric instructions --threshold "$count_threshold" --workloads "$counted_workloads" \
    --table-size "$counted_rows" --rounds 3 --max-minutes "$counted_max" --results-db "$(conninfo "$counted_db")"

# ---- 2. timed --------------------------------------------------------------
timed=(--metric qps --keep-up --seconds "$secs" --warmup 0.1 --table-size "$rows" --rounds 3 --threshold "$threshold")
if [ -n "$timed_reads" ]; then
    echo "== $(elapsed) 2. timed reads: microbench compare --keep-up --turns 3 ($timed_reads)"
    if [ -n "$read_rounds" ]; then
        read_limits=(--rounds "$read_rounds" --max-minutes 0)
    else
        read_limits=(--max-minutes "$(minutes 0.4)")
    fi
    compare demo-timed-reads "timed reads" "${timed[@]}" --turns 3 --workloads "$timed_reads" \
        --confidence "$read_confidence" "${read_limits[@]}" --results-db "$(conninfo "$reads_db")"
fi
if [ -n "$timed_writes" ]; then
    echo "== $(elapsed) 3. timed writes: microbench compare --keep-up ($timed_writes)"
    compare demo-timed-writes "timed writes" "${timed[@]}" --workloads "$timed_writes" \
        --confidence "$confidence" --max-minutes "$(minutes 1)" --results-db "$(conninfo "$writes_db")"
fi

# ---- the reports -----------------------------------------------------------
report() { # DATABASE FORMAT METRIC THRESHOLD CONFIDENCE
    psql -X -A -t -d "$1" -c "SELECT bench_report('durable', 'relaxed', '$2', phase => 'post', metric => '$3',
                                                  threshold => $4, confidence => $5)"
}
# the reads' table without the legend the writes' table prints again
legend='^-- (pg: |cells: |1\.04: |1\.00=: |0\.97\?: |intervals: )'
echo
echo "== timed: QPS(relaxed) / QPS(durable), above 1: relaxed is faster; reads, then writes"
echo
report "$reads_db" text qps "$threshold" "$read_confidence" | grep -Ev "$legend"
echo
report "$writes_db" text qps "$threshold" "$confidence"
echo
echo "== counted: instructions(durable) / instructions(relaxed), above 1: relaxed runs fewer instructions a query"
echo
report "$counted_db" text instructions "$count_threshold" "$confidence"
echo
echo "== what they say together"
"$here/demo_reading.sh" "$reads_db" "$writes_db" "$threshold" "$read_confidence" "$confidence" "$counted_db" "$count_threshold"

report "$reads_db" svg qps "$threshold" "$read_confidence" >"$out/demo-reads.svg"
report "$writes_db" svg qps "$threshold" "$confidence" >"$out/demo-writes.svg"
{ report "$reads_db" markdown qps "$threshold" "$read_confidence"; echo
  report "$writes_db" markdown qps "$threshold" "$confidence"; } >"$out/demo-report.md"
runs() { psql -X -A -t -d "$1" -c "SELECT count(*) FROM microbench.runs"; }
echo
echo "== written:"
echo "   $out/: demo-reads.svg and demo-writes.svg (open them in a browser), demo-report.md (the intervals)"
echo "   $out/demo-timed-reads/, demo-timed-writes/ and demo-counted/: each comparison's report.txt,"
echo "   report.md (the intervals; the counted one's also the functions each write's difference comes"
echo "   from), report.svg, runs.jsonl (its runs, to judge again elsewhere) and manifest.json"
echo "== $(( $(runs "$reads_db") + $(runs "$writes_db") )) timed and $(runs "$counted_db") counted runs; done in $(elapsed); servers stopped"
