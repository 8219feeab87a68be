-- 17_drivers.sql — which driver ran the statements, and reports that never
-- pool two of them: the migration of the client's old driver name, what
-- import_runs() records, a label measured both in-server and over the wire
-- (libpq) compared per driver, against itself (bench_protocol) and, with no
-- driver chosen, in a column per path (pg, pg-wire), and the refusals when
-- a comparison does not say which runs it means.  Synthetic runs with
-- known ratios: every pgsql run is 0.4 of its in-server run, and drv-clang
-- is 1.10 of drv-gcc in-server and 1.05 of it over the wire (each side's
-- three runs in an order that shows no trend over the rounds); drv-run-*
-- are runs as the comparison runner writes them, both paths in each round.
BEGIN;
SET client_min_messages = warning;
SELECT plan(43);

CREATE FUNCTION pg_temp.run(dbms text, label text, driver text, workload text, qps float8,
                            canary float8 DEFAULT NULL, ps_mode text DEFAULT 'auto') RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, driver, canary_before_us, canary_after_us,
                                 ps_mode)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0, now(), now(), 1,
            1, 1, qps, qps, driver, canary, canary, ps_mode)
$$;

-- ---- the driver column ---------------------------------------------------------
-- The update script from 0.1 (the install script replayed) carries the
-- migration of the client's old name; run its statement here, twice.
SELECT pg_temp.run('mariadb', 'drv-old', 'microbench-mysql', 'point-query', 100);
SELECT pg_temp.run('postgres', 'drv-old', 'extension', 'point-query', 100);
CREATE TEMP TABLE migration AS
SELECT substring(pg_read_file((SELECT setting FROM pg_config WHERE name = 'SHAREDIR')
                              || '/extension/microbench--0.1--0.2.sql')
                 FROM 'UPDATE microbench\.runs SET driver = [^;]*;') AS statement;
SELECT is(statement, 'UPDATE microbench.runs SET driver = ''mysql'' WHERE driver = ''microbench-mysql'';',
          'the update script renames the client''s driver microbench-mysql to mysql')
FROM migration;
DO $$ BEGIN EXECUTE (SELECT statement FROM pg_temp.migration); END $$;
SELECT is((SELECT string_agg(dbms || ' ' || driver, ', ' ORDER BY dbms) FROM microbench.runs WHERE label = 'drv-old'),
          'mariadb mysql, postgres extension',
          '... which turns the old rows into mysql and leaves in-server runs alone');
DO $$ BEGIN EXECUTE (SELECT statement FROM pg_temp.migration); END $$;
SELECT is((SELECT string_agg(dbms || ' ' || driver, ', ' ORDER BY dbms) FROM microbench.runs WHERE label = 'drv-old'),
          'mariadb mysql, postgres extension', '... and changes nothing when run again');
SELECT is((SELECT count(*) FROM microbench.runs WHERE driver = 'microbench-mysql'), 0::bigint,
          'no run has the old name');

-- import_runs(): a line without a driver is the MySQL/MariaDB client's, and
-- files written before the rename say microbench-mysql
INSERT INTO microbench.import_queue (doc)
SELECT jsonb_build_object('dbms', d.dbms, 'version', '1', 'label', 'drv-import', 'workload', d.workload,
                          'phase', 'post', 'tables', 1, 'table_size', 1000, 'clients', 1, 'rand_type', 'uniform',
                          'seconds', 1, 'warmup', 0, 'started_at', now(), 'ended_at', now(),
                          'elapsed_seconds', 1, 'events', 1, 'queries', 1, 'qps', 1, 'tps', 1)
       || coalesce(jsonb_build_object('driver', d.driver), '{}')
FROM (VALUES ('mariadb', 'point-query', NULL), ('mariadb', 'scan', 'microbench-mysql'),
             ('postgres', 'point-query', 'pgsql'), ('postgres', 'scan', 'extension')) AS d(dbms, workload, driver);
SELECT is(microbench.import_runs(), 4::bigint, 'import_runs() loads the four lines');
SELECT results_eq(
    $$SELECT dbms, workload, driver FROM microbench.runs WHERE label = 'drv-import' ORDER BY dbms, workload$$,
    $$VALUES ('mariadb', 'point-query', 'mysql'), ('mariadb', 'scan', 'mysql'),
             ('postgres', 'point-query', 'pgsql'), ('postgres', 'scan', 'extension')$$,
    'import_runs(): no driver is mysql, microbench-mysql becomes mysql, pgsql and extension are kept');
SELECT ok(col_description('microbench.runs'::regclass,
                          (SELECT attnum FROM pg_attribute WHERE attrelid = 'microbench.runs'::regclass
                                                             AND attname = 'driver'))
          ~ 'extension .*mysql .*pgsql', 'the driver column''s comment names the three drivers');

-- ---- one label, two drivers ------------------------------------------------------
SELECT pg_temp.run('postgres', 'drv-gcc', 'extension', 'point-query', q, 100) FROM unnest(ARRAY[1000, 990, 1010]) q;
SELECT pg_temp.run('postgres', 'drv-gcc', 'pgsql', 'point-query', q * 0.4, 150, 'disable') FROM unnest(ARRAY[1000, 990, 1010]) q;
SELECT pg_temp.run('postgres', 'drv-clang', 'extension', 'point-query', q * 1.1) FROM unnest(ARRAY[1000, 990, 1010]) q;
SELECT pg_temp.run('postgres', 'drv-clang', 'pgsql', 'point-query', q * 0.4 * 1.05) FROM unnest(ARRAY[1000, 990, 1010]) q;

SELECT results_eq(
    $$SELECT d, base_runs, other_runs, round(base_value::numeric, 1), round(other_value::numeric, 1),
             round(ratio::numeric, 4), significant, base_driver_used, other_driver_used
      FROM unnest(ARRAY['extension', 'pgsql']) d, microbench.compare('drv-gcc', 'drv-clang', driver => d)
      ORDER BY d$$,
    $$VALUES ('extension', 3, 3, 1000.0, 1100.0, 1.1000, true, 'extension', 'extension'),
             ('pgsql', 3, 3, 400.0, 420.0, 1.0500, true, 'pgsql', 'pgsql')$$,
    'compare(driver => ...): each driver''s own runs, 3 a side, and its own ratio');
SELECT matches(bench_report('drv-gcc', 'drv-clang', driver => 'pgsql'),
               E'\n1\\.05    point-query\n.*\n-- cells: QPS\\(drv-clang over pgsql\\) / QPS\\(drv-gcc over pgsql\\)',
               'bench_report(driver => ''pgsql''): the ratio over the wire, and the caption names the driver');
SELECT matches(microbench.bench_report('drv-gcc', 'drv-clang', driver => 'extension'),
               E'\n1\\.10    point-query\n.*\n-- cells: QPS\\(drv-clang in-server\\) / QPS\\(drv-gcc in-server\\)',
               'microbench.bench_report(driver => ''extension''): the ratio in-server');
SELECT matches(bench_relative('drv-gcc', ARRAY['drv-clang'], 'text', driver => 'pgsql'),
               E'^-- pg: QPS\\(label\\) / QPS\\(drv-gcc over pgsql\\)\n\n-- point queries\ndrv-clang over pgsql\n(.*\n)?1\\.05 +point-query\n',
               'bench_relative(driver => ''pgsql''): the column and the base name their driver');
SELECT is((SELECT string_agg(driver || ' ' || runs || ' ' || median_qps, ', ' ORDER BY driver)
           FROM microbench.label_stats WHERE label = 'drv-gcc'),
          'extension 3 1000, pgsql 3 400', 'label_stats: a line per driver');
SELECT is((SELECT string_agg(label || ' ' || driver || ' ' || runs || ' ' || qps, ', ' ORDER BY label, driver)
           FROM microbench.bench_costs(ARRAY['drv-gcc', 'drv-clang'])),
          'drv-clang extension 3 1100, drv-clang pgsql 3 420, drv-gcc extension 3 1000, drv-gcc pgsql 3 400',
          'bench_costs: a line per label and driver');

-- ---- a label against itself: what the protocol path costs -----------------------
SELECT results_eq(
    $$SELECT base_runs, other_runs, round(base_value::numeric, 1), round(other_value::numeric, 1),
             round(ratio::numeric, 4), significant
      FROM microbench.compare('drv-gcc', 'drv-gcc', base_driver => 'extension', other_driver => 'pgsql')$$,
    $$VALUES (3, 3, 1000.0, 400.0, 0.4000, true)$$,
    'compare(label, label, base_driver, other_driver): two sides of 3 runs each, not one of 6, ratio 0.40');
SELECT matches(bench_report('drv-gcc', 'drv-gcc', base_driver => 'extension', other_driver => 'pgsql'),
               E'\n0\\.40    point-query\n.*\n-- cells: QPS\\(drv-gcc over pgsql\\) / QPS\\(drv-gcc in-server\\)',
               'bench_report(gcc, gcc, base_driver => extension, other_driver => pgsql): 0.40, the sides named');
SELECT is(bench_protocol('drv-gcc'),
'-- drv-gcc: wire QPS / in-server QPS (driver pgsql / driver extension)

-- point queries
pg
0.40    point-query

-- pg: Postgres
-- cells: QPS(drv-gcc over pgsql) / QPS(drv-gcc in-server), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells
-- run options: drv-gcc in-server defaults; drv-gcc over pgsql ps_mode=disable
-- warning: pg: the machine ran at a different speed for the two labels: the host-speed canary took 100 us (median) in the runs of drv-gcc in-server and 150 us in those of drv-gcc over pgsql (50% slower for drv-gcc over pgsql, p = 0.0039); ratios mix the builds'' difference with the machine''s',
    'bench_protocol: wire QPS / in-server QPS, the sides'' own run options and canaries');
SELECT matches(bench_protocol('drv-gcc', 'markdown'),
               E'^## drv-gcc: wire QPS / in-server QPS \\(driver pgsql / driver extension\\)\n\n### point queries\n.*\n\\| 0\\.40 \\[0\\.40, 0\\.40\\] \\| point-query \\|',
               'bench_protocol in markdown: the same heading, and the interval');
SELECT matches(bench_protocol('drv-gcc', 'svg'), '<title>QPS\(drv-gcc over pgsql\) / QPS\(drv-gcc in-server\)</title>',
               'bench_protocol as SVG: the title says wire over in-server');
SELECT matches(microbench.bench_protocol('drv-gcc', metric => 'tps'),
               E'^-- drv-gcc: wire tps / in-server tps ',
               'bench_protocol of another metric says so');
SELECT is(bench_protocol('drv-old'), '', 'a label without runs over the wire: an empty protocol report');

-- ---- no driver chosen: a column per path, never pooled ------------------------
-- (these said "refused" while a label could not hold both paths in one report)
SELECT is(bench_report('drv-gcc', 'drv-clang'),
'-- point queries
pg       pg-wire
1.10     1.05     point-query

-- pg: Postgres in-server (the extension), pg-wire: Postgres over the wire (the pgsql driver)
-- cells: QPS(drv-clang) / QPS(drv-gcc), from the runs paired round by round; - means no data
-- 1.04: a difference: the interval excludes 1 and the change is at least 2% (1.020 or more, 0.980 or less)
-- 1.00=: the same within ±2%: the whole interval lies inside 0.980 .. 1.020
-- 0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it
-- intervals: 95% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells
-- run options: drv-gcc in-server defaults, drv-gcc over pgsql ps_mode=disable; drv-clang defaults',
          'no driver given, labels with runs in-server and over the wire: a column each, pg 1.10 and pg-wire 1.05, the legend saying which is which');
SELECT results_eq(
    $$SELECT dbms, base_runs, other_runs, round(base_value::numeric, 1), round(other_value::numeric, 1),
             round(ratio::numeric, 4), verdict, base_driver_used, other_driver_used
      FROM microbench.compare('drv-gcc', 'drv-clang')$$,
    $$VALUES ('postgres', 3, 3, 1000.0, 1100.0, 1.1000, 'difference', 'extension', 'extension'),
             ('postgres-wire', 3, 3, 400.0, 420.0, 1.0500, 'difference', 'pgsql', 'pgsql')$$,
    '... and compare(): a row per path, 3 runs a side each, its own values, ratio and verdict');
SELECT is((SELECT count(*) FROM microbench.compare_warnings('drv-gcc', 'drv-clang')), 0::bigint,
          '... compare_warnings(): per path, drv-gcc''s canaries (100 us in-server, 150 us over the wire) are not one level');
SELECT matches(bench_relative('drv-gcc', 'drv-clang'),
               E'^-- pg: QPS\\(label\\) / QPS\\(drv-gcc\\)\n\n-- point queries\ndrv-clang\n1\\.10 +point-query\n(.*\n)*'
               || E'\n-- pg-wire: QPS\\(label\\) / QPS\\(drv-gcc\\)\n\n-- point queries\ndrv-clang\n1\\.05 +point-query\n',
               '... bench_relative(): a table per path');
SELECT matches(microbench.report_svg('drv-gcc', ARRAY['drv-clang']),
               'data-col="1" data-dbms="postgres".*>pg: Postgres in-server \(the extension\)<.*'
               'data-col="2" data-dbms="postgres-wire".*>pg-wire: Postgres over the wire \(the pgsql driver\)<.*'
               'class="bar" data-col="1" data-ratio="1\.(1|099).*class="bar" data-col="2" data-ratio="1\.0(5|49)',
               '... and the SVG chart: a bar per path, the legend saying which is which');
SELECT throws_ok($$SELECT bench_report('drv-gcc', 'drv-clang', base_driver => 'pgsql')$$, '22023',
                 'label "drv-clang" has postgres runs of more than one driver (extension, pgsql) in 1 workload(s), e.g. point-query',
                 'one side''s driver given: the other side must not be mixed either');
-- the error says how to choose
CREATE FUNCTION pg_temp.error_hint(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    hint text;
BEGIN
    EXECUTE q;
    RETURN NULL;
EXCEPTION WHEN invalid_parameter_value THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    RETURN hint;
END $$;
SELECT is(pg_temp.error_hint($$SELECT bench_report('drv-gcc', 'drv-clang', base_driver => 'pgsql')$$),
          'Pass driver => ''extension'' or ''pgsql'' to compare one driver''s runs, or base_driver => and other_driver => to compare two drivers; with no driver at all, each path is a column of its own (pg, pg-wire).',
          'its hint names the drivers to pass');

-- two labels over different drivers, none chosen: a cross-driver ratio is asked for, not found
SELECT pg_temp.run('postgres', 'drv-inside', 'extension', 'point-query', q) FROM unnest(ARRAY[1000, 990, 1010]) q;
SELECT pg_temp.run('postgres', 'drv-wire', 'pgsql', 'point-query', q * 0.5) FROM unnest(ARRAY[1000, 990, 1010]) q;
SELECT throws_ok($$SELECT bench_report('drv-inside', 'drv-wire')$$, '22023',
                 'the postgres runs of label "drv-inside" are over driver extension and those of label "drv-wire" over driver pgsql in 1 workload(s), e.g. point-query',
                 'two labels, each over another driver, none chosen: refused');
SELECT is(pg_temp.error_hint($$SELECT bench_report('drv-inside', 'drv-wire')$$),
          'Pass base_driver => ''extension'' and other_driver => ''pgsql'' to compare them all the same.',
          '... saying how to ask for it');
SELECT matches(bench_report('drv-inside', 'drv-wire', base_driver => 'extension', other_driver => 'pgsql'),
               E'\n0\\.50    point-query\n', '... and asked for, it is the ratio of the two');
SELECT throws_ok($$SELECT bench_report('drv-inside', 'drv-wire', base_driver => 'extension')$$, '22023',
                 'the postgres runs of label "drv-inside" are over driver extension and those of label "drv-wire" over driver pgsql in 1 workload(s), e.g. point-query',
                 '... and so is naming one side''s driver only: the other''s runs are of another');
-- a label of both paths against one of the in-server path only: the wire's column has no other side
SELECT matches(bench_report('drv-gcc', 'drv-inside'),
               E'^-- point queries\npg       pg-wire\n1\\.00=    -        point-query\n',
               'no driver given, a label of both paths against one in-server: pg compared, pg-wire without data');

-- a label against itself needs two drivers
SELECT throws_ok($$SELECT bench_report('drv-gcc', 'drv-gcc')$$, '22023',
                 'label "drv-gcc" is compared with itself: both sides would be the same runs',
                 'a label against itself without drivers: refused');
SELECT throws_ok($$SELECT bench_report('drv-inside', 'drv-inside', driver => 'extension')$$, '22023', NULL,
                 '... and with one driver for both sides');

-- one driver per DBMS is the usual case and stays as it was: Postgres in-server, MariaDB over the client
SELECT pg_temp.run(d, l, CASE d WHEN 'postgres' THEN 'extension' ELSE 'mysql' END, 'point-query',
                   q * CASE l WHEN 'drv-b' THEN 1.2 ELSE 1 END)
FROM unnest(ARRAY['postgres', 'mariadb']) d, unnest(ARRAY['drv-a', 'drv-b']) l, unnest(ARRAY[1000, 990, 1010]) q;
SELECT matches(bench_report('drv-a', 'drv-b'),
               E'^-- point queries\npg      ma\n(.*\n)?1\\.20    1\\.20    point-query\n.*\n-- cells: QPS\\(drv-b\\) / QPS\\(drv-a\\),',
               'no driver given, one driver per DBMS: both columns, labels named as before');
SELECT matches(bench_report('drv-a', 'drv-b', driver => 'mysql'),
               E'^-- point queries\nma\n', 'driver => ''mysql'' keeps the MariaDB runs only');
-- two drivers chosen that no DBMS shares: no cell could have both sides
SELECT throws_ok($$SELECT bench_report('drv-a', 'drv-clang', base_driver => 'mysql', other_driver => 'pgsql')$$, '22023',
                 'drivers mysql (label "drv-a") and pgsql (label "drv-clang") drive no DBMS in common: no cell of the report would have both sides',
                 'base_driver => mysql against other_driver => pgsql: refused');

-- ---- the comparison runner's runs: both paths in every round ---------------------
-- Two builds as microbench compare --path both measures them: in each of
-- six rounds each build's server starts once (instance) and runs each
-- workload in-server and over the wire.  Three point-query workloads; the
-- wire's pairs spread ten times as far as the in-server ones; drv-run-b
-- is 1.10 of drv-run-a in-server and 1.01 over the wire; the canary says
-- drv-run-b's wire runs met a slower machine (130 us against 100 us).
CREATE FUNCTION pg_temp.runner_run(label text, driver text, workload text, round integer, qps float8,
                                   canary float8) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, driver, canary_before_us, canary_after_us,
                                 round, instance, qps_per_second, data_state, cpu_run_seconds,
                                 cpu_wait_seconds, busy_share)
    VALUES ('postgres', '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0,
            timestamptz '2024-01-01 00:00:00+00' + round * interval '1 hour'
                + (SELECT count(*) FROM microbench.runs WHERE label LIKE 'drv-run-%') * interval '2 seconds',
            timestamptz '2024-01-01 00:00:01+00' + round * interval '1 hour'
                + (SELECT count(*) FROM microbench.runs WHERE label LIKE 'drv-run-%') * interval '2 seconds',
            1, qps, qps, qps, qps, driver, canary, canary,
            round, format('5432 %s 2024-01-01 %s:00:00+00', 1000 + round * 2 + (label = 'drv-run-b')::integer, round),
            ARRAY[qps, qps], '{"live_rows": 1000, "dead_rows": 0}', 1, 0.01, 0.01)
$$;
SELECT pg_temp.runner_run(l.label, d.driver, w.workload, r,
                          w.qps * l.f * d.f * CASE d.driver WHEN 'extension' THEN l.f_in ELSE l.f_wire END
                          * exp(d.noise * sin(r * 2.3 + w.k * 1.7 + l.k)),
                          CASE WHEN l.label = 'drv-run-b' AND d.driver = 'pgsql' THEN 130 ELSE 100 END)
FROM generate_series(1, 6) r,
     (VALUES ('hot-points', 1000, 1), ('point-query', 900, 2), ('points-covered-pk', 800, 3)) AS w(workload, qps, k),
     (VALUES ('drv-run-a', 1.0, 1.0, 1.0, 0), ('drv-run-b', 1.0, 1.10, 1.01, 1)) AS l(label, f, f_in, f_wire, k),
     (VALUES ('extension', 1.0, 0.002), ('pgsql', 0.4, 0.02)) AS d(driver, f, noise)
ORDER BY r, l.label, w.k, d.driver;

SELECT results_eq(
    $$SELECT dbms, workload, pairs, round(ratio::numeric, 2), verdict,
             basis ~ '^6 pairs, spread pooled with 3 cells of point queries '
      FROM microbench.compare('drv-run-a', 'drv-run-b')$$,
    $$VALUES ('postgres', 'hot-points', 6, 1.10, 'difference', true),
             ('postgres', 'point-query', 6, 1.10, 'difference', true),
             ('postgres', 'points-covered-pk', 6, 1.10, 'difference', true),
             ('postgres-wire', 'hot-points', 6, 1.01, 'inconclusive', true),
             ('postgres-wire', 'point-query', 6, 1.01, 'inconclusive', true),
             ('postgres-wire', 'points-covered-pk', 6, 1.01, 'inconclusive', true)$$,
    'runner''s runs, no driver chosen: each path''s cells paired round by round, pooled with their own three cells only');
SELECT ok((SELECT max(ln(ci_high / ci_low)) FILTER (WHERE dbms = 'postgres') * 5
                  < min(ln(ci_high / ci_low)) FILTER (WHERE dbms = 'postgres-wire')
           FROM microbench.compare('drv-run-a', 'drv-run-b')),
          '... the in-server intervals stay narrow: the wire''s spread is not lent to them');
SELECT results_eq(
    $$SELECT dbms, kind, message ~ '^pg-wire: the machine ran at a different speed for the two labels: the host-speed canary took 100 us \(median\) in the runs of drv-run-a and 130 us in those of drv-run-b'
      FROM microbench.compare_warnings('drv-run-a', 'drv-run-b')$$,
    $$VALUES ('postgres-wire', 'host-speed', true)$$,
    '... and the canary is judged per path: the wire''s slower machine is a warning of pg-wire alone');
SELECT matches(bench_report('drv-run-a', 'drv-run-b'),
               E'^-- point queries\npg       pg-wire\n1\\.10     1\\.01\\?    hot-points\n'
               || E'(.*\n)*-- warning: pg-wire: the machine ran at a different speed',
               '... bench_report: both columns in the seed''s layout, the warning under them');
SELECT matches(bench_protocol('drv-run-a'),
               E'^-- drv-run-a: wire QPS / in-server QPS \\(driver pgsql / driver extension\\)\n\n'
               || E'-- point queries\npg\n0\\.40 +hot-points\n0\\.40 +point-query\n0\\.40 +points-covered-pk\n\n'
               || E'-- pg: Postgres\n-- cells: QPS\\(drv-run-a over pgsql\\) / QPS\\(drv-run-a in-server\\), from the runs paired round by round;',
               'bench_protocol of the runner''s runs: wire / in-server per workload, 0.40');
SELECT results_eq(
    $$SELECT workload, count(*), bool_and(by_round), bool_and(base_instance = other_instance), bool_or(set_aside)
      FROM microbench.comparison_pairs('drv-run-a', 'drv-run-a', base_driver => 'extension', other_driver => 'pgsql')
      GROUP BY workload ORDER BY workload$$,
    $$VALUES ('hot-points', 6::bigint, true, true, false), ('point-query', 6::bigint, true, true, false),
             ('points-covered-pk', 6::bigint, true, true, false)$$,
    '... its pairs: the two paths of each round, on one server start');

SELECT * FROM finish();
ROLLBACK;
