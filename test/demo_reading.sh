#!/usr/bin/env bash
# test/demo_reading.sh — what the demo's two reports say together, in plain
# words, from their verdicts (test/demo.sh prints it under the reports).
#
#   demo_reading.sh READS_DB WRITES_DB THRESHOLD READ_CONFIDENCE CONFIDENCE COUNTED_DB COUNT_THRESHOLD
#
# The timed reads and the timed writes are each a comparison of its own, in
# a database of its own (test/demo.sh says why); the counted runs are in a
# third.
#
# Every sentence is chosen by the verdicts and every figure is read from
# them: a run where the counts or the clock say something else is told so.
# (A ratio is printed whole however large: a durable commit on a disk busy
# with other work waited over 1,000 times as long as a relaxed one here.)
set -euo pipefail

reads_db=$1 writes_db=$2 threshold=$3 read_confidence=$4 confidence=$5 counted_db=$6 count_threshold=$7

# per DBMS and kind (reads, writes): cells, differences, the same,
# undecided, the ratios' range, the differing cells' names
stats() { # DATABASE METRIC THRESHOLD CONFIDENCE
    psql -X -q -A -t -F '|' -d "$1" -v ON_ERROR_STOP=1 -c "
        SELECT microbench.dbms_name(c.dbms), CASE WHEN c.grp = 'writes' THEN 'writes' ELSE 'reads' END,
               count(*), count(*) FILTER (WHERE c.verdict = 'difference'),
               count(*) FILTER (WHERE c.verdict = 'equivalent'), count(*) FILTER (WHERE c.verdict = 'inconclusive'),
               to_char(min(c.ratio), 'FM999999990.00'), to_char(max(c.ratio), 'FM999999990.00'),
               coalesce(string_agg(c.workload || ' ' || to_char(c.ratio, 'FM999999990.00'), ', ' ORDER BY c.report_order)
                            FILTER (WHERE c.verdict = 'difference'), ''),
               microbench.dbms_order(c.dbms)
        FROM microbench.compare('durable', 'relaxed', '$2', phase => 'post', threshold => $3, confidence => $4) c
        WHERE c.base_runs > 0 AND c.other_runs > 0
        GROUP BY 1, 2, 10"
}
timed=$(stats "$reads_db" qps "$threshold" "$read_confidence"
        stats "$writes_db" qps "$threshold" "$confidence")
counted=$(stats "$counted_db" instructions "$count_threshold" "$confidence")
pct() { awk -v t="$1" 'BEGIN { printf "%g%%", t * 100 }'; }

# field DATA DBMS KIND N: the Nth figure of a row (0 when there is none)
field() { awk -F '|' -v d="$2" -v k="$3" -v n="$4" '$1 == d && $2 == k { print $n; found = 1 } END { if (!found) print 0 }' <<<"$1"; }
span() { if [ "$1" = "$2" ]; then echo "$1"; else echo "$1-$2"; fi; }
# the report's columns (their DBMS's names), in its order
columns=$(printf '%s\n%s\n' "$counted" "$timed" | grep . | sort -t '|' -k 10,10n -s | cut -d '|' -f 1 | awk '!seen[$0]++')

# Reads: a read commits nothing that could wait for the disk
same_reads=1 counted_line="" timed_reads=0 timed_diff=0 timed_eq=0 timed_diffs=""
while read -r d; do
    n=$(field "$counted" "$d" reads 3) eq=$(field "$counted" "$d" reads 5)
    [ "$n" -gt 0 ] && [ "$n" = "$eq" ] || same_reads=0
    counted_line+="${counted_line:+, }$eq of $n on $d"
    timed_reads=$((timed_reads + $(field "$timed" "$d" reads 3)))
    timed_diff=$((timed_diff + $(field "$timed" "$d" reads 4)))
    timed_eq=$((timed_eq + $(field "$timed" "$d" reads 5)))
    list=$(field "$timed" "$d" reads 9)
    [ "$list" = 0 ] || [ -z "$list" ] || timed_diffs+="${timed_diffs:+; }$d: $list"
done <<<"$columns"
{
if [ "$same_reads" = 1 ]; then
    echo "Reads: both settings run the same instructions a query (counted, the same within"
    echo "$(pct "$count_threshold"): $counted_line). A read has no commit to wait for, so its QPS can only be"
    echo "the same."
else
    echo "Reads: counted, the same within $(pct "$count_threshold"): $counted_line; the counted report says"
    echo "which of the rest differ and which are not decided yet."
fi
if [ "$timed_diff" = 0 ]; then
    echo "Timed, none of the $timed_reads read cells is a difference ($timed_eq the same within $(pct "$threshold"),"
    echo "$((timed_reads - timed_eq)) not decided: short timed runs on a shared machine spread more than that;"
    echo "a count is exact, and a few rounds decide it)."
else
    echo "Timed, $timed_diff of the $timed_reads read cells came out a difference ($timed_diffs)."
    [ "$same_reads" = 1 ] &&
        echo "The counts say the work is the same, so the machine changed under those runs: run it again."
fi
} | fmt -w 96

# Writes: the same work, with or without waiting for the log at commit
echo
echo "Writes: a durable commit waits for its log to reach the disk, a relaxed one does not."
while read -r d; do
    cn=$(field "$counted" "$d" writes 3) tn=$(field "$timed" "$d" writes 3)
    [ "$cn" -gt 0 ] && [ "$tn" -gt 0 ] || continue
    clo=$(field "$counted" "$d" writes 7) chi=$(field "$counted" "$d" writes 8)
    tlo=$(field "$timed" "$d" writes 7) thi=$(field "$timed" "$d" writes 8) tdiff=$(field "$timed" "$d" writes 4)
    tund=$(field "$timed" "$d" writes 6)
    echo "$d: instructions $(span "$clo" "$chi") ($cn counted), QPS $(span "$tlo" "$thi") ($tdiff of $tn a difference):"
    # QPS beyond the instructions by more than twice the QPS threshold: the
    # work does not explain it, the waiting does
    if [ "$tdiff" -gt 0 ] && awk -v t="$thi" -v c="$chi" -v th="$threshold" 'BEGIN { exit !(t > c * (1 + 2 * th)) }'; then
        echo "  about the same work at up to ${thi}x the QPS: the difference is waiting for the disk, not work."
    elif [ "$tdiff" = 0 ] && [ "$tund" = "$tn" ]; then
        echo "  the timed runs did not decide."
    elif [ "$tdiff" = 0 ]; then
        echo "  no timed difference: here the wait at a commit is small beside its work."
    else
        echo "  the QPS differ no more than the work does."
    fi
done <<<"$columns"

# Count and clock, cell by cell (count_clock(), results_schema/34_count_clock.sql):
# what each count implies for QPS, given the share of a query's time the
# durable server spent in its user code, beside the QPS measured.  The
# counted runs are copied into each timed comparison's database inside a
# transaction that is rolled back, so that each keeps its own verdicts.
run_columns=$(psql -X -q -A -t -d "$counted_db" -v ON_ERROR_STOP=1 -c "
    SELECT string_agg(quote_ident(attname), ',' ORDER BY attnum) FROM pg_attribute
    WHERE attrelid = 'microbench.runs'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'run_id'")
count_clock() { # TIMED_DB CONFIDENCE
    { echo "BEGIN;"
      echo "COPY microbench.runs ($run_columns) FROM STDIN;"
      psql -X -q -d "$counted_db" -v ON_ERROR_STOP=1 -c "COPY (SELECT $run_columns FROM microbench.runs) TO STDOUT"
      echo '\.'
      echo "SELECT microbench.dbms_name(c.dbms), CASE WHEN c.grp = 'writes' THEN 'writes' ELSE 'reads' END,
                   count(*), count(*) FILTER (WHERE c.consistent),
                   round(100 * min(c.share)), round(100 * max(c.share)),
                   coalesce(string_agg(format('%s implies %s, measured %s: %s', c.workload,
                                              microbench.cc_num(c.implied), microbench.cc_num(c.measured), c.reason),
                                       '; ' ORDER BY c.report_order) FILTER (WHERE NOT c.consistent), ''),
                   microbench.dbms_order(c.dbms)
            FROM microbench.count_clock('durable', 'relaxed', 'post', $2, $threshold, $count_threshold) c
            WHERE c.mark <> '?'
            GROUP BY 1, 2, 8 ORDER BY 8, 2;"
      echo "ROLLBACK;"
    } | psql -X -q -A -t -F '|' -d "$1" -v ON_ERROR_STOP=1
}
together=$(count_clock "$reads_db" "$read_confidence"; count_clock "$writes_db" "$confidence")
if [ -n "$together" ]; then
    echo
    echo "Count and clock: the QPS ratio each count implies (the durable server's user code, which a"
    echo "count covers, is s of a query's time: 1 / (s / count + 1 - s)) against the QPS measured."
    while IFS='|' read -r d kind n agree s_lo s_hi odd _; do
        { echo "$d $kind: $agree of $n agree (its user code $(span "$s_lo" "$s_hi")% of a query's time)${odd:+; not: $odd}."
        } | fmt -w 96 | sed '2,$s/^/  /'
    done <<<"$together"
fi
