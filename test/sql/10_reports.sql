-- 10_reports.sql — report math and layout against hand-computed rows:
-- ratios of medians, the seed's text layout, missing cells as "-", repeats
-- combined by median with the noise marked, markdown, CSV, series.
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

-- one run per side: the seed's layout exactly
SELECT pg_temp.run('postgres', 'clang', 'point-query', 200);
SELECT pg_temp.run('postgres', 'gcc', 'point-query', 204);
SELECT pg_temp.run('postgres', 'clang', 'hot-points', 100);
SELECT pg_temp.run('postgres', 'gcc', 'hot-points', 95);
SELECT pg_temp.run('mysql', 'clang', 'point-query', 300);
SELECT pg_temp.run('mysql', 'gcc', 'point-query', 297);

SELECT is(bench_report('clang', 'gcc'),
'-- point queries
pg      my
0.95    -       hot-points
1.02    0.99    point-query
-       -       points-covered-pk
-       -       points-covered-si
-       -       points-notcovered-pk
-       -       points-notcovered-si
-       -       random-points_range=1000
-       -       random-points_range=100
-       -       random-points_range=10',
    'two labels, one run each: the seed layout, ratios gcc/clang, - where a side is missing');

SELECT is(bench_report('clang', 'gcc', 'csv'),
'group,workload,pg,my
point queries,hot-points,0.95,
point queries,point-query,1.02,0.99
point queries,points-covered-pk,,
point queries,points-covered-si,,
point queries,points-notcovered-pk,,
point queries,points-notcovered-si,,
point queries,random-points_range=1000,,
point queries,random-points_range=100,,
point queries,random-points_range=10,,',
    'CSV: one line per microbenchmark, empty where missing');

SELECT matches(bench_report('clang', 'gcc', 'markdown'),
    E'^### point queries\n\\| pg \\| my \\| microbenchmark \\|\n\\|---:\\|---:\\|---\\|\n\\| 0.95 \\| - \\| hot-points \\|\n\\| 1.02 \\| 0.99 \\| point-query \\|',
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
    $$SELECT dbms, workload, base_runs, other_runs, base_value, other_value, round(ratio::numeric, 4),
             round(noise::numeric, 4), within_noise
      FROM microbench.compare('base', 'new') ORDER BY dbms, workload$$,
    $$VALUES ('mariadb', 'range-covered-pk', 1, 1, 200::float8, 190::float8, 0.9500, NULL::numeric, NULL::boolean),
             ('mariadb', 'range-covered-si', NULL, 1, NULL, 50, NULL, NULL, NULL),
             ('postgres', 'range-covered-pk', 2, 3, 100.5, 80, 0.7960, 0.0250, false),
             ('postgres', 'scan', 3, 1, 10, 10.5, 1.0500, 0.2000, true)$$,
    'compare(): medians, ratio, the larger spread as noise, and whether the ratio is inside it');

SELECT is(bench_report('base', 'new'),
'-- range queries without aggregation
pg      ma
0.80    0.95    range-covered-pk
-       -       range-covered-si
-       -       range-notcovered-pk
-       -       range-notcovered-si
1.05~   -       scan

-- cells: median of each label''s runs; ~ marks a ratio within the noise (|ratio - 1| <= the larger (max - min) / median of the two sides); - means no data',
    'repeats: medians, ~ inside the noise, and a footer saying how cells were combined');

SELECT is((SELECT runs FROM microbench.label_stats WHERE label = 'base' AND workload = 'scan'), 3::bigint,
          'label_stats counts the runs of a label');

-- a series relative to one base
SELECT pg_temp.run('postgres', 'v3', 'point-query', 220);
SELECT is(bench_relative('clang', 'gcc', 'v3'),
'-- pg: QPS(label) / QPS(clang)

-- point queries
gcc     v3
0.95    -       hot-points
1.02    1.10    point-query
-       -       points-covered-pk
-       -       points-covered-si
-       -       points-notcovered-pk
-       -       points-notcovered-si
-       -       random-points_range=1000
-       -       random-points_range=100
-       -       random-points_range=10

-- my: QPS(label) / QPS(clang)

-- point queries
gcc     v3
-       -       hot-points
0.99    -       point-query
-       -       points-covered-pk
-       -       points-covered-si
-       -       points-notcovered-pk
-       -       points-notcovered-si
-       -       random-points_range=1000
-       -       random-points_range=100
-       -       random-points_range=10',
    'bench_relative: one column per label against the base, per dbms');

SELECT is(bench_report('no-such-label', 'gcc'), '', 'unknown labels give an empty report');
SELECT throws_ok($$SELECT bench_report('clang', 'gcc', 'pdf')$$, '22023', NULL, 'unknown format');
SELECT is(bench_report('clang', 'gcc', phase => 'pre'), '', 'no runs in that phase: empty');

SELECT * FROM finish();
ROLLBACK;
