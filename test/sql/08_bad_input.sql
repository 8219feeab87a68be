-- 08_bad_input.sql — bad requests fail before anything runs, with a fitting
-- SQLSTATE and a message (and hint) that says what to do.
BEGIN;
SELECT plan(27);

SELECT throws_ok($$SELECT bench_run('no-such-workload', seconds => 1)$$, '22023',
                 'unknown workload "no-such-workload"', 'unknown workload');
SELECT throws_ok($$SELECT bench_run(NULL, seconds => 1)$$, '22004',
                 'workload must not be NULL', 'NULL workload');
SELECT throws_like($$SELECT bench_run('point-query', seconds => -1)$$,
                   'seconds must be positive%', 'negative seconds');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 'NaN')$$, '22023', NULL, 'NaN seconds');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1e9)$$, '22023', NULL, 'absurd seconds');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 'Infinity')$$, '22023', NULL, 'infinite seconds');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => NULL)$$, '22004', NULL, 'NULL seconds');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, warmup => 'NaN')$$, '22023', NULL, 'NaN warmup');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, clients => NULL)$$, '22004', NULL, 'NULL clients');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, warmup => -2)$$, '22023', NULL,
                 'negative warmup');
SELECT throws_like($$SELECT bench_run('point-query', seconds => 1, clients => 0)$$,
                   'clients must be between 1 and max_worker_processes%', 'zero clients');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, clients => 100000)$$, '22023', NULL,
                 'more clients than max_worker_processes');
SELECT throws_ok($$SELECT bench_run('read-only-count', seconds => 1, range_size => -5)$$, '22023', NULL,
                 'negative range_size');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, rand_type => 'bogus')$$, '22023',
                 'unknown rand_type "bogus"', 'unknown rand_type');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, phase => 'middle')$$, '22023',
                 'unknown phase "middle"', 'unknown phase');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, tables => 99)$$, '42P01', NULL,
                 'more tables than exist');
SELECT throws_ok($$SELECT * FROM bench_prepare(0, 100)$$, '22023', NULL, 'bench_prepare with 0 tables');
SELECT throws_ok($$SELECT * FROM bench_prepare(1, -100)$$, '22023', NULL, 'bench_prepare with negative rows');
SELECT throws_ok($$SELECT * FROM bench_prepare(NULL, 100)$$, '22023', NULL, 'bench_prepare with NULL tables');
-- more tables than one transaction can lock: refused before the first one
-- is created, not thousands of tables later with "out of shared memory"
SELECT throws_like($$SELECT * FROM bench_prepare(100000, 10)$$,
                   'bench_prepare(100000) would hold about 1400000 locks in one transaction; the lock table has room for %',
                   'bench_prepare(100000, 10) is refused up front: the lock table is too small');
SELECT throws_ok($$SELECT * FROM bench_prepare(100000, 10)$$, '54000', NULL,
                 '... as program_limit_exceeded (54000)');

-- no sbtest tables on the search path: the error says to run bench_prepare
-- (the search path is set inside each statement: the error rolls it back,
-- so pgTAP's own functions stay reachable)
CREATE SCHEMA empty_schema;
SELECT throws_ok($$SET LOCAL search_path = empty_schema; SELECT public.bench_run('point-query', seconds => 1)$$, '42P01',
                 'table "sbtest1" does not exist in the search path', 'missing tables');
CREATE FUNCTION pg_temp.hint_of(sql text) RETURNS text LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE h text;
BEGIN
    EXECUTE sql;
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
    RETURN h;
END $$;
SELECT matches(pg_temp.hint_of($$SELECT * FROM bench_prepare(100000, 10)$$),
               '^Set max_locks_per_transaction to at least [0-9]+ \(restart needed\), or prepare fewer tables\.$',
               '... with a hint that names the setting and the value it needs');
SELECT matches(pg_temp.hint_of($$SET LOCAL search_path = empty_schema; SELECT public.bench_run('point-query', seconds => 1)$$),
               'bench_prepare', 'the missing-tables hint says to run bench_prepare');

-- a table of the wrong shape
CREATE TABLE empty_schema.sbtest1 (id int PRIMARY KEY, k int);
SELECT throws_ok($$SET LOCAL search_path = empty_schema; SELECT public.bench_run('point-query', seconds => 1)$$, '42809',
                 'table "sbtest1" has no column "c"', 'wrong table shape');

-- more clients than free worker slots: the hint says to raise max_worker_processes
SELECT matches(pg_temp.hint_of(format($$SELECT bench_run('point-query', seconds => 1, clients => %s)$$,
                                      current_setting('max_worker_processes'))),
               'max_worker_processes', 'not enough worker slots: hint to raise max_worker_processes');
SELECT is((SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'microbench'), 0::bigint,
          'no worker is left behind after a failed start');

SELECT * FROM finish();
ROLLBACK;
