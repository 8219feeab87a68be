-- 11_suite.sql — bench_suite runs the standard order of docs/workloads.md and
-- commits after every run.  run_pg_tests.sh ran two suites before this file
-- (a procedure that commits cannot run inside a pgTAP transaction): a whole
-- one labelled suite-ok, and suite-fail, stopped on purpose at
-- range-covered-pk, its third run.
BEGIN;
SELECT plan(8);

SELECT results_eq(
    $$SELECT workload, phase FROM microbench.runs WHERE label = 'suite-ok' ORDER BY run_id$$,
    $$SELECT workload, phase FROM bench_suite_plan() WHERE kind = 'run' ORDER BY step$$,
    'the suite records every run in the standard order, with its phase');

SELECT is((SELECT count(*) FROM microbench.runs WHERE label = 'suite-ok'), 47::bigint,
          '47 runs: 15 pre reads, 8 writes, 22 post reads, delete, insert (warm-ups not recorded)');

SELECT results_eq(
    $$SELECT workload FROM bench_suite_plan() WHERE kind = 'run' AND phase = 'pre' ORDER BY step LIMIT 4$$,
    $$VALUES ('point-query'), ('random-points_range=10'), ('random-points_range=100'), ('random-points_range=1000')$$,
    'pre reads start with point-query and random-points 10, 100, 1000');

SELECT ok((SELECT max(step) FILTER (WHERE class = 'write') < min(step) FILTER (WHERE kind = 'maintenance')
              AND min(step) FILTER (WHERE kind = 'maintenance') < min(step) FILTER (WHERE phase = 'post' AND class = 'read')
           FROM bench_suite_plan()),
          'maintenance comes after the writes and before the post reads');

SELECT ok((SELECT last_vacuum IS NOT NULL AND last_analyze IS NOT NULL
           FROM pg_stat_user_tables WHERE schemaname = 'suite' AND relname = 'sbtest1'),
          'the maintenance step vacuumed and analyzed the table');

SELECT results_eq(
    $$SELECT workload FROM microbench.runs WHERE label = 'suite-fail' ORDER BY run_id$$,
    $$VALUES ('point-query')$$,
    'a suite that fails at a run keeps the runs before it (and only those)');

SELECT is((SELECT count(*) FROM microbench.runs WHERE label = 'suite-ok' AND phase = 'pre'
           AND workload IN (SELECT name FROM bench_workloads() WHERE grp = 'writes')), 0::bigint,
          'no write runs in the pre phase');

SELECT is((SELECT array_agg(DISTINCT concat_ws('|', ps_mode, ignored_errors, rate, reconnect))
           FROM microbench.runs WHERE label = 'suite-options'),
          ARRAY['disable|40P01|500|20'],
          'the suite hands ps_mode, ignore_errors, rate and reconnect to every run');

SELECT * FROM finish();
ROLLBACK;
