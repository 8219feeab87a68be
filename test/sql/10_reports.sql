-- 10_reports.sql — report math and layout against hand-computed rows:
-- ratios from the runs paired in order, the classic sysbench table's text
-- layout, rows for what ran and missing cells as "-", the verdict marks ("?" for a cell one run a
-- side cannot decide), the legend, markdown, CSV, series.  16_verdicts.sql tests the statistics behind the marks.
BEGIN;
SELECT plan(10);

CREATE FUNCTION pg_temp.run(dbms text, label text, workload text, qps float8) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0, now(), now(), 1,
            1, 1, qps, qps)
$$;

-- one run per side: the classic layout exactly
SELECT pg_temp.run('postgres', 'clang', 'point-query', 200);
SELECT pg_temp.run('postgres', 'gcc', 'point-query', 204);
SELECT pg_temp.run('postgres', 'clang', 'hot-points', 100);
SELECT pg_temp.run('postgres', 'gcc', 'hot-points', 95);
SELECT pg_temp.run('mysql', 'clang', 'point-query', 300);
SELECT pg_temp.run('mysql', 'gcc', 'point-query', 297);

SELECT is(bench_report('clang', 'gcc'),
'-- point queries
pg      my
0.95?   -       hot-points
1.02?   0.99?   point-query

-- pg: Postgres, my: MySQL
-- cells: QPS(gcc) / QPS(clang), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells',
    'two labels, one run each: the classic layout, ratios gcc/clang, - where a side is missing, ? as one run a side cannot decide, and a legend');

SELECT is(bench_report('clang', 'gcc', 'csv'),
'group,workload,pg,pg_ci_low,pg_ci_high,pg_significant,pg_verdict,pg_rounds_needed,my,my_ci_low,my_ci_high,my_significant,my_verdict,my_rounds_needed
point queries,hot-points,0.95,,,false,inconclusive,,,,,,,
point queries,point-query,1.02,,,false,inconclusive,,0.99,,,false,inconclusive,',
    'CSV: one line per microbenchmark that ran, ratio, interval and verdict per DBMS, empty where missing');

SELECT matches(bench_report('clang', 'gcc', 'markdown'),
    E'^### point queries\n\\| pg \\| my \\| microbenchmark \\|\n\\|---:\\|---:\\|---\\|\n\\| 0.95\\? \\(too few runs for an interval\\) \\| - \\| hot-points \\|\n\\| 1.02\\? \\(too few runs for an interval\\) \\| 0.99\\? \\(too few runs for an interval\\) \\| point-query \\|',
    'markdown: a table per group');

-- repeats: medians, spread, noise
SELECT pg_temp.run('postgres', 'base', 'scan', v) FROM unnest(ARRAY[9, 10, 11]) v;  -- median 10, spread 20%
SELECT pg_temp.run('postgres', 'new', 'scan', 10.5);
SELECT pg_temp.run('postgres', 'base', 'range-covered-pk', v) FROM unnest(ARRAY[100, 101]) v;  -- median 100.5, spread 1%
SELECT pg_temp.run('postgres', 'new', 'range-covered-pk', v) FROM unnest(ARRAY[80, 81, 79]) v; -- median 80
SELECT pg_temp.run('mariadb', 'base', 'range-covered-pk', 200);
SELECT pg_temp.run('mariadb', 'new', 'range-covered-pk', 190);
SELECT pg_temp.run('mariadb', 'new', 'range-covered-si', 50);

SELECT results_eq(
    $$SELECT dbms, workload, base_runs, other_runs, round(base_value::numeric, 4), round(other_value::numeric, 4),
             round(ratio::numeric, 4), round(noise::numeric, 4), within_noise, significant
      FROM microbench.compare('base', 'new') ORDER BY dbms, workload$$,
    $$VALUES ('mariadb', 'range-covered-pk', 1, 1, 200.0000, 190.0000, 0.9500, NULL::numeric, true, false),
             ('mariadb', 'range-covered-si', NULL, 1, NULL, 50.0000, NULL, NULL, NULL, false),
             ('postgres', 'range-covered-pk', 2, 3, 100.4988, 79.9958, 0.8010, 0.0250, false, true),
             ('postgres', 'scan', 3, 1, 9.9666, 10.5000, 1.0535, 0.2007, true, false)$$,
    'compare(): geometric means, the ratio from the pairs (2 of them here), the larger spread, and the verdict (one run a side: no verdict)');

SELECT is(bench_report('base', 'new'),
'-- range queries without aggregation
pg      ma
0.80    0.95?   range-covered-pk
-       -       range-covered-si
1.05?   -       scan

-- pg: Postgres, ma: MariaDB
-- cells: QPS(new) / QPS(base), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells',
    'repeats (range-covered-si ran on one side only: a row of -): a clear 20% drop without a mark, cells not decided with ?, and a footer saying how cells were combined');

SELECT is((SELECT runs FROM microbench.label_stats WHERE label = 'base' AND workload = 'scan'), 3::bigint,
          'label_stats counts the runs of a label');

-- a series relative to one base
SELECT pg_temp.run('postgres', 'v3', 'point-query', 220);
SELECT is(bench_relative('clang', 'gcc', 'v3'),
'-- pg: QPS(label) / QPS(clang)

-- point queries
gcc     v3
0.95?   -       hot-points
1.02?   1.10?   point-query

-- pg: Postgres
-- cells: QPS(label) / QPS(clang), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells

-- my: QPS(label) / QPS(clang)

-- point queries
gcc     v3
0.99?   -       point-query

-- my: MySQL
-- cells: QPS(label) / QPS(clang), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells',
    'bench_relative: one column per label against the base, per dbms');

SELECT is(bench_report('no-such-label', 'gcc'), '', 'unknown labels give an empty report');
SELECT throws_ok($$SELECT bench_report('clang', 'gcc', 'pdf')$$, '22023', NULL, 'unknown format');
SELECT is(bench_report('clang', 'gcc', phase => 'pre'), '', 'no runs in that phase: empty');

SELECT * FROM finish();
ROLLBACK;
