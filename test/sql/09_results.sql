-- 09_results.sql — the result row: returned and stored alike, with the DBMS,
-- version, compiler, label, phase, every parameter and the host.
BEGIN;
SELECT plan(7);

CREATE TEMP TABLE r AS
SELECT * FROM bench_run('read-only_range=100', seconds => 0.5, warmup => 0.2, clients => 1,
                        range_size => 50, tables => 1, rand_type => 'pareto', seed => 7,
                        label => 'gcc', phase => 'pre');

SELECT results_eq('SELECT * FROM r',
                  'SELECT * FROM microbench.runs WHERE run_id = (SELECT run_id FROM r)',
                  'the returned row is the stored row');
SELECT is((SELECT ROW(dbms, version, version_string) FROM r),
          ROW('postgres'::text, current_setting('server_version'), version()),
          'dbms, version and full version string');
SELECT ok((SELECT compiler IS NOT NULL AND position(compiler IN version()) > 0 FROM r),
          'compiler parsed from version()');
SELECT is((SELECT ROW(label, workload, phase, tables, table_size, range_size, clients, rand_type, seed,
                      seconds, warmup) FROM r),
          ROW('gcc'::text, 'read-only_range=100'::text, 'pre'::text, 1, 10000::bigint, 50, 1,
              'pareto'::text, 7::bigint, 0.5::float8, 0.2::float8),
          'every run parameter is recorded');
SELECT ok((SELECT host <> '' AND cpu_cores > 0 AND memory_bytes > 0 AND kernel ~ '^Linux ' FROM r),
          'host facts are recorded');
SELECT ok((SELECT started_at < ended_at AND ended_at <= now() + interval '1 minute'
                  AND started_at >= now() - interval '1 minute' FROM r),
          'start and end of the measured window');

SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, rand_type => 'bogus')$$, '22023', NULL,
                 'an unknown rand_type is refused');

SELECT * FROM finish();
ROLLBACK;
