#!/usr/bin/env bash
# test/showcase_reports.t — the showcase's counted reports made again from
# its committed runs, byte for byte (TAP).
#
# docs/results/gcc-vs-clang.md rests on counted comparisons (in-server,
# over the wire, and eight cells of each with the caches simulated),
# whose runs are committed gzip'd beside their reports,
# and on what those counts imply for the QPS of the timed runs that
# recorded the server's own CPU (count-clock/, made from all of them).
# Each is loaded into a database of its own on a throwaway cluster with the
# extension installed, and the results schema's report functions write
# the three formats again, with the confidence, threshold and metric the
# runner used (its manifest's); each must equal the committed file.  A
# counted report holds nothing but what the runs hold (a timed report also
# carries the runner's machine check, which is not in the runs), so a
# change of the schema that changes what these reports say shows here.
# MB_SHOWCASE_REWRITE=1 writes the reports made over the committed ones
# instead (after such a change, for the commit to show what it changed).
# Needs the extension installed (make install) and client/microbench.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/tap.sh"

dir=$(mktemp -d /tmp/microbench-showcase.XXXXXX)
chmod 755 "$dir"
trap '"$here/pg_cluster.sh" stop "$dir" >/dev/null 2>&1; rm -rf "$dir"' EXIT
eval "$("$here/pg_cluster.sh" start "$dir" "${MB_SHOWCASE_PORT:-5471}")" ||
    { echo "Bail out! cannot start a cluster"; exit 1; }
export PGDATABASE=postgres

q() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }

# same_as_committed MADE COMMITTED NAME: one check that the report made
# again equals the committed one (or, with MB_SHOWCASE_REWRITE=1, that it
# was written over it)
same_as_committed() {
    if [ "${MB_SHOWCASE_REWRITE:-0}" = 1 ]; then
        mkdir -p "$(dirname "$2")" && cp "$1" "$2"
        ok $? "$3 written again"
    elif cmp -s "$1" "$2"; then
        ok 0 "$3 made again byte for byte"
    else
        ok 1 "$3 made again byte for byte"
        diff "$2" "$1" | head -20 | sed 's/^/#   /' >&2
    fi
}

for name in instructions-rep-once wire-instructions-rep-once cache-sim-pg cache-sim-ma-wire; do
    results=$root/docs/results/gcc-vs-clang/$name
    db=showcase_${name//-/_}
    q -c "CREATE DATABASE $db" && q -d "$db" -c "CREATE EXTENSION microbench" >/dev/null
    gunzip -c "$results/runs.jsonl.gz" |
        "$root/client/microbench" load - --results-db="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$db" \
        >"$dir/load.out" 2>&1
    ok $? "$name: its runs load ($(tail -1 "$dir/load.out"))"
    read -r confidence threshold metric < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(m["runs"]["confidence"], m["counted"]["threshold"], m["metric"])' "$results/manifest.json")
    for format in text:txt markdown:md svg:svg; do
        q -d "$db" -c "SELECT microbench.bench_report('clang', 'gcc', '${format%%:*}',
                           confidence => $confidence, threshold => $threshold, metric => '$metric')" \
            >"$dir/report.${format##*:}"
        same_as_committed "$dir/report.${format##*:}" "$results/report.${format##*:}" "$name: report.${format##*:}"
    done
done

# count and clock: the counted runs (in-server and over the wire) beside
# the timed runs that recorded the server's own CPU, in one database:
# Postgres in-server from the two-hour run, MariaDB and Postgres over the
# wire from timed-cpu (the two-hour run's MariaDB runs did not record
# their server threads' CPU, so they stay out)
results=$root/docs/results/gcc-vs-clang
db=showcase_count_clock
q -c "CREATE DATABASE $db" && q -d "$db" -c "CREATE EXTENSION microbench" >/dev/null
for name in instructions-rep-once wire-instructions-rep-once long:postgres timed-cpu; do
    only=""
    case $name in *:*) only=${name#*:} ;; esac
    gunzip -c "$results/${name%%:*}/runs.jsonl.gz" |
        python3 -c '
import json, sys
only = sys.argv[1]
for line in sys.stdin:
    if not only or json.loads(line)["dbms"] == only:
        sys.stdout.write(line)' "$only" |
        "$root/client/microbench" load - --results-db="host=$PGHOST port=$PGPORT user=$PGUSER dbname=$db" \
        >"$dir/load.out" 2>&1
    ok $? "count-clock: the runs of $name load ($(tail -1 "$dir/load.out"))"
done
read -r confidence threshold count_threshold < <(python3 -c '
import json, sys
t, c = (json.load(open(f)) for f in sys.argv[1:])
print(t["runs"]["confidence"], t["runs"]["threshold"], c["counted"]["threshold"])' \
    "$results/long/manifest.json" "$results/instructions-rep-once/manifest.json")
for format in text:txt markdown:md svg:svg; do
    file=$results/count-clock/report-count-clock.${format##*:}
    q -d "$db" -c "SELECT microbench.count_clock_report('clang', ARRAY['gcc'], '${format%%:*}',
                       confidence => $confidence, threshold => $threshold, count_threshold => $count_threshold)" \
        >"$dir/cc.${format##*:}"
    same_as_committed "$dir/cc.${format##*:}" "$file" "count-clock: report-count-clock.${format##*:}"
done

done_testing
