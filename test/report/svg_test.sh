#!/usr/bin/env bash
# test/report/svg_test.sh — render test of the SVG report: checks the picture.
#
#   PGHOST=... PGPORT=... PGUSER=... PGDATABASE=... test/report/svg_test.sh
#
# Needs a database where results_schema/*.sql is loaded
# (cat results_schema/*.sql | psql).  In one transaction that it rolls back,
# it inserts known synthetic runs under labels svgtest-* (postgres, mariadb
# and mysql rows, missing cells, repeated runs with a spread so that cells
# have intervals — significant ones, ones that include 1, wild ones cut at
# the axis end, one from per-second samples —, ratios 0.5, 0.95, 2 and 20,
# a label full of XML markup, ten labels with ratios from 0.2 to 3.5, two
# labels measured in-server and over the wire) and extracts five charts:
#
#   main   bench_report('svgtest-base', 'svgtest-other', 'svg')
#   label  report_svg('svgtest-b2', ARRAY['svgtest-<&"q''>', 'svgtest-third'], by_label => true,
#                     confidence => 0.9)
#   wide   report_svg('svgtest-w0', ARRAY[ten labels], by_label => true)
#   paths  bench_report('svgtest-pa', 'svgtest-pb', 'svg'): no driver chosen,
#          Postgres in-server and over the wire and MariaDB, three columns
#          (pg, pg-wire, ma)
#   empty  report_svg of labels that have no runs
#
# Each is rendered with headless Chromium (render_svg.sh) and its pixels are
# checked by check_svg.py.  Prints TAP and exits non-zero when a test fails.
# Set SVG_TEST_OUT=DIR to keep the SVGs and PNGs in DIR.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/svg_test.XXXXXX)
trap 'rm -rf "$work"' EXIT

tap=()
add() { tap+=("$@"); }
check() {   # check DESCRIPTION COMMAND...: one TAP line from an exit status
    local desc=$1; shift
    local log
    if log=$("$@" 2>&1); then add "ok - $desc"; else
        add "not ok - $desc"
        while IFS= read -r l; do add "# $l"; done <<<"$log"
    fi
}
finish() {
    local n=0 failed=0 line
    for line in "${tap[@]}"; do case $line in ok*|"not ok"*) n=$((n + 1));; esac; done
    echo "1..$n"
    n=0
    for line in "${tap[@]}"; do
        case $line in
        ok*) n=$((n + 1)); echo "ok $n${line#ok}";;
        "not ok"*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n${line#not ok}";;
        *) echo "$line";;
        esac
    done
    if [ -n "${SVG_TEST_OUT:-}" ]; then
        mkdir -p "$SVG_TEST_OUT" && cp "$work"/*.svg "$work"/*.png "$SVG_TEST_OUT"/ 2>/dev/null
    fi
    [ "$failed" = 0 ]
}

psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
count_rows() { psql_q -At -c "SELECT count(*) FROM microbench.runs WHERE label LIKE 'svgtest-%'"; }

if ! before=$(count_rows 2>"$work/err"); then
    add "not ok - microbench.runs is reachable"
    while IFS= read -r l; do add "# $l"; done <"$work/err"
    add "# load the schema first: cat results_schema/*.sql | psql"
    finish; exit 1
fi

# --- synthetic runs, the charts, rollback ----------------------------------
check "synthetic runs inserted, five SVGs extracted, transaction rolled back" psql_q <<SQL
BEGIN;
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                             rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                             events, queries, qps, tps)
SELECT d.dbms, CASE d.dbms WHEN 'postgres' THEN '15.20' WHEN 'mysql' THEN '8.0.36' ELSE '10.11.6' END,
       d.label, d.workload, 'post', 1, 10000, 1, 'uniform', 10, 0,
       timestamptz '2024-01-01 00:00:00+00' + d.n * interval '20 seconds',
       timestamptz '2024-01-01 00:00:10+00' + d.n * interval '20 seconds', 10,
       round(d.qps * 10), round(d.qps * 10), d.qps, d.qps
FROM (SELECT row_number() OVER () AS n, v.*
      FROM (VALUES
        -- main: postgres and mariadb; update-one (pg) and delete (ma) have one side only.
        -- Repeated runs with a spread give intervals: hot-points (pg) is not a significant
        -- difference, point-query is 0.90 (pg) and 0.95 (ma), range-covered-pk is 0.5 (pg) and
        -- 2.0 (ma), insert (pg) is 20x; read-only_range=10 (ma) has two wild runs a side, so its
        -- interval is cut at the axis end.  Single runs (one pair) have no interval and are never significant.
        ('postgres', 'svgtest-base', 'hot-points',         10000), ('postgres', 'svgtest-other', 'hot-points',         10100),
        ('postgres', 'svgtest-base', 'hot-points',         10300), ('postgres', 'svgtest-other', 'hot-points',          9900),
        ('postgres', 'svgtest-base', 'hot-points',          9800), ('postgres', 'svgtest-other', 'hot-points',         10400),
        ('postgres', 'svgtest-base', 'point-query',        20000), ('postgres', 'svgtest-other', 'point-query',        18000),
        ('postgres', 'svgtest-base', 'point-query',        20200), ('postgres', 'svgtest-other', 'point-query',        18100),
        ('postgres', 'svgtest-base', 'point-query',        19800), ('postgres', 'svgtest-other', 'point-query',        17900),
        ('postgres', 'svgtest-base', 'point-query',        20100), ('postgres', 'svgtest-other', 'point-query',        18150),
        ('postgres', 'svgtest-base', 'point-query',        19900), ('postgres', 'svgtest-other', 'point-query',        17950),
        ('postgres', 'svgtest-base', 'points-covered-si',   5000), ('postgres', 'svgtest-other', 'points-covered-si',   5150),
        ('postgres', 'svgtest-base', 'range-covered-pk',    2900), ('postgres', 'svgtest-other', 'range-covered-pk',    1450),
        ('postgres', 'svgtest-base', 'range-covered-pk',    3000), ('postgres', 'svgtest-other', 'range-covered-pk',    1500),
        ('postgres', 'svgtest-base', 'range-covered-pk',    3100), ('postgres', 'svgtest-other', 'range-covered-pk',    1550),
        ('postgres', 'svgtest-base', 'scan',                 100), ('postgres', 'svgtest-other', 'scan',                  97),
        ('postgres', 'svgtest-base', 'read-only-count',     4000), ('postgres', 'svgtest-other', 'read-only-count',     3400),
        ('postgres', 'svgtest-base', 'read-only_range=10',  1000), ('postgres', 'svgtest-other', 'read-only_range=10',  1010),
        ('postgres', 'svgtest-base', 'read-only_range=10',  1040), ('postgres', 'svgtest-other', 'read-only_range=10',  1030),
        ('postgres', 'svgtest-base', 'read-only_range=10',   980),
        ('postgres', 'svgtest-base', 'insert',               400), ('postgres', 'svgtest-other', 'insert',              8000),
        ('postgres', 'svgtest-base', 'insert',               410), ('postgres', 'svgtest-other', 'insert',              8200),
        ('postgres', 'svgtest-base', 'insert',               390), ('postgres', 'svgtest-other', 'insert',              7800),
        ('postgres', 'svgtest-base', 'update-one',          7000),
        ('postgres', 'svgtest-base', 'write-only',           900), ('postgres', 'svgtest-other', 'write-only',           990),
        ('mariadb',  'svgtest-base', 'hot-points',          9000), ('mariadb',  'svgtest-other', 'hot-points',          8550),
        ('mariadb',  'svgtest-base', 'point-query',        15000), ('mariadb',  'svgtest-other', 'point-query',        14250),
        ('mariadb',  'svgtest-base', 'point-query',        15100), ('mariadb',  'svgtest-other', 'point-query',        14300),
        ('mariadb',  'svgtest-base', 'point-query',        14900), ('mariadb',  'svgtest-other', 'point-query',        14200),
        ('mariadb',  'svgtest-base', 'point-query',        15050), ('mariadb',  'svgtest-other', 'point-query',        14275),
        ('mariadb',  'svgtest-base', 'point-query',        14950), ('mariadb',  'svgtest-other', 'point-query',        14225),
        ('mariadb',  'svgtest-base', 'range-covered-pk',    2500), ('mariadb',  'svgtest-other', 'range-covered-pk',    5000),
        ('mariadb',  'svgtest-base', 'range-covered-pk',    2550), ('mariadb',  'svgtest-other', 'range-covered-pk',    5100),
        ('mariadb',  'svgtest-base', 'range-covered-pk',    2450), ('mariadb',  'svgtest-other', 'range-covered-pk',    4900),
        ('mariadb',  'svgtest-base', 'read-only-count',     3000), ('mariadb',  'svgtest-other', 'read-only-count',     3300),
        ('mariadb',  'svgtest-base', 'read-only_range=10',   700), ('mariadb',  'svgtest-other', 'read-only_range=10',   600),
        ('mariadb',  'svgtest-base', 'read-only_range=10',  1300), ('mariadb',  'svgtest-other', 'read-only_range=10',  1600),
                                                                   ('mariadb',  'svgtest-other', 'delete',              6000),
        ('mariadb',  'svgtest-base', 'update-one',          5000), ('mariadb',  'svgtest-other', 'update-one',          4000),
        ('mariadb',  'svgtest-base', 'write-only',           700), ('mariadb',  'svgtest-other', 'write-only',           770),
        -- label: a relative series by label, postgres and mysql, two groups only, a hostile label;
        -- hot-points (pg) has two wild runs a side: an interval cut at both axis ends
        ('postgres', 'svgtest-b2', 'hot-points',   800), ('postgres', 'svgtest-<&"q''>', 'hot-points',   900),
        ('postgres', 'svgtest-b2', 'hot-points',  1700), ('postgres', 'svgtest-<&"q''>', 'hot-points',  2000),
        ('postgres', 'svgtest-third', 'hot-points', 960),
        ('postgres', 'svgtest-b2', 'point-query', 1000), ('postgres', 'svgtest-<&"q''>', 'point-query', 1500),
        ('postgres', 'svgtest-third', 'point-query', 700),
        ('postgres', 'svgtest-b2', 'insert',      1000), ('postgres', 'svgtest-<&"q''>', 'insert',       990),
        ('mysql',    'svgtest-b2', 'hot-points',  1000), ('mysql',    'svgtest-<&"q''>', 'hot-points',  1100),
        ('mysql',    'svgtest-third', 'hot-points', 1200),
        ('mysql',    'svgtest-b2', 'delete',      1000), ('mysql',    'svgtest-third', 'delete',         930)
      ) AS v(dbms, label, workload, qps)) d;
-- one run a side, but with per-second samples: an interval from the seconds (insert, label chart)
UPDATE microbench.runs SET qps_per_second = ARRAY(SELECT qps * (1 + 0.01 * sin(g * 1.7)) FROM generate_series(1, 10) g)
WHERE label IN ('svgtest-b2', 'svgtest-<&"q''>') AND workload = 'insert';
-- wide: ten labels (colours past the fixed palette), ratios 0.2 .. 3.5, a very long label
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                             rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                             events, queries, qps, tps)
SELECT 'postgres', '15.20', l.label, w.workload, 'post', 1, 10000, 1, 'uniform', 10, 0,
       timestamptz '2024-01-02 00:00:00+00', timestamptz '2024-01-02 00:00:10+00', 10,
       l.f * w.q * 10, l.f * w.q * 10, l.f * w.q, l.f * w.q
FROM (VALUES ('svgtest-w0', 1.0), ('svgtest-w1', 0.2), ('svgtest-w2', 3.5), ('svgtest-w3', 1.3),
             ('svgtest-w4', 0.75), ('svgtest-w5', 1.05), ('svgtest-w6', 0.98), ('svgtest-w7', 2.1),
             ('svgtest-w8', 1.6), ('svgtest-w9', 0.5),
             ('svgtest-w10 built with clang 18, -O3 -flto -march=native, PGO from a 12 hour TPC-C run', 1.15)
     ) AS l(label, f),
     (VALUES ('hot-points', 1000), ('scan', 200)) AS w(workload, q);
-- paths: Postgres runs in-server and over the wire under one label, and MariaDB's:
-- pg-wire is a column of its own (0.97 where in-server is 0.90), three runs a side
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                             rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                             events, queries, qps, tps, driver)
SELECT p.dbms, '1', l.label, w.workload, 'post', 1, 10000, 1, 'uniform', 10, 0,
       timestamptz '2024-01-03 00:00:00+00' + n * interval '1 minute',
       timestamptz '2024-01-03 00:00:10+00' + n * interval '1 minute', 10,
       v.qps * 10, v.qps * 10, v.qps, v.qps, p.driver
FROM (VALUES ('postgres', 'extension', 1.0, 0.90), ('postgres', 'pgsql', 0.4, 0.97),
             ('mariadb', 'mysql', 0.8, 1.20)) AS p(dbms, driver, f, ratio),
     (VALUES ('svgtest-pa', false), ('svgtest-pb', true)) AS l(label, other),
     (VALUES ('hot-points', 1000), ('point-query', 1500), ('insert', 400)) AS w(workload, q),
     generate_series(1, 3) n,
     LATERAL (SELECT w.q * p.f * CASE WHEN l.other THEN p.ratio ELSE 1 END
                     * (1 + 0.01 * sin(n * 2.1 + length(w.workload) + l.other::integer)) AS qps) v;
\pset tuples_only on
\pset format unaligned
\o $work/main.svg
SELECT microbench.bench_report('svgtest-base', 'svgtest-other', 'svg');
\o $work/label.svg
SELECT microbench.report_svg('svgtest-b2', ARRAY['svgtest-<&"q''>', 'svgtest-third'], 'post', 'qps', true, 0.9);
\o $work/wide.svg
SELECT microbench.report_svg('svgtest-w0', ARRAY(SELECT label FROM microbench.runs
                                                  WHERE label LIKE 'svgtest-w_%' AND label <> 'svgtest-w0'
                                                  GROUP BY label ORDER BY min(run_id)),
                             'post', 'qps', true);
\o $work/paths.svg
SELECT microbench.bench_report('svgtest-pa', 'svgtest-pb', 'svg');
\o $work/empty.svg
SELECT microbench.report_svg('svgtest-none', ARRAY['svgtest-nothing']);
\o
ROLLBACK;
SQL

after=$(count_rows 2>&1)
if [ "$after" = "$before" ]; then add "ok - no svgtest rows left behind ($after)"
else add "not ok - no svgtest rows left behind" "# before $before, after $after"; fi

# --- render and check each chart -------------------------------------------
render() {   # render NAME: the PNG of NAME.svg, timed
    local t0 t1
    t0=$(date +%s%N)
    check "render $1.svg with headless Chromium" "$here/render_svg.sh" "$work/$1.svg" "$work/$1.png"
    t1=$(date +%s%N)
    add "# $1: rendering took $(( (t1 - t0) / 1000000 )) ms"
}
chart() {   # chart NAME CHECK-OPTIONS...: check_svg.py's lines, prefixed with NAME
    local name=$1 line; shift
    if [ ! -s "$work/$name.png" ]; then return; fi
    while IFS= read -r line; do
        case $line in
        ok*) add "ok - $name: ${line#ok - }";;
        "not ok"*) add "not ok - $name: ${line#not ok - }";;
        *) add "$line";;
        esac
    done < <(python3 "$here/check_svg.py" "$@" "$work/$name.svg" "$work/$name.png" 2>&1)
}

for name in main label wide paths empty; do
    if [ -s "$work/$name.svg" ]; then add "ok - $name.svg extracted"
    else add "not ok - $name.svg extracted"; continue; fi
    render "$name"
done

chart main --expect-title 'QPS(svgtest-other) / QPS(svgtest-base)' --expect-columns 2 \
    --expect-group 'point queries' --expect-group 'range queries without aggregation' \
    --expect-group 'range queries with aggregation' --expect-group 'writes' \
    --expect-bars 16 --expect-noisy 11 --expect-noise --expect-nodata --expect-confidence 0.95 \
    --expect-whiskers 8 --expect-cut 2 --expect-mirror 2 --expect-visible 20 --expect-visible 0.95
chart label --expect-title "QPS(label) / QPS(svgtest-b2), label in svgtest-<&\"q'>, svgtest-third" \
    --expect-columns 4 --expect-group 'point queries' --expect-group 'writes' \
    --expect-bars 8 --expect-noisy 8 --expect-nodata --expect-confidence 0.9 \
    --expect-whiskers 2 --expect-cut 0
chart wide --expect-columns 10 --expect-group 'point queries' \
    --expect-group 'range queries without aggregation' --expect-bars 20 --expect-noisy 20 \
    --expect-whiskers 0
chart paths --expect-title 'QPS(svgtest-pb) / QPS(svgtest-pa)' --expect-columns 3 \
    --expect-group 'point queries' --expect-group 'writes' --expect-bars 9 --expect-whiskers 9
chart empty --expect-title 'QPS(svgtest-nothing) / QPS(svgtest-none)' --expect-empty

finish
