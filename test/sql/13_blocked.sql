-- 13_blocked.sql — the caller's own transaction must never leave the clients
-- waiting forever: bench_run in the transaction that loaded the tables, or
-- while the caller holds a lock the clients need, fails fast with a hint.
-- The runs are asked for 120 s: failing well before that (a generous
-- ceiling of 60 s, for a busy machine) can only be the detection.  No check
-- here says "no result row": each attempt's own rollback would discard one.
BEGIN;
SET client_min_messages = warning;
SELECT plan(9);

-- Run a statement; return what it raised and how long it took.
CREATE FUNCTION pg_temp.attempt(sql text, OUT code text, OUT message text,
                                OUT hint text, OUT seconds float8)
LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    BEGIN
        EXECUTE sql;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                                hint = PG_EXCEPTION_HINT;
    END;
    seconds := extract(epoch FROM clock_timestamp() - t0);
END $$;

-- Benchmark workers still alive after up to 30 seconds.
CREATE FUNCTION pg_temp.workers_left() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    FOR i IN 1..600 LOOP
        PERFORM pg_stat_clear_snapshot();
        SELECT count(*) INTO n FROM pg_stat_activity WHERE backend_type = 'microbench';
        EXIT WHEN n = 0;
        PERFORM pg_sleep(0.05);
    END LOOP;
    RETURN n;
END $$;

CREATE TEMP TABLE outcome AS
SELECT 'prepare' AS name, * FROM pg_temp.attempt(
    $$CREATE SCHEMA fresh; SET LOCAL search_path = fresh;
      SELECT * FROM public.bench_prepare(1, 1000);
      SELECT public.bench_run('point-query', seconds => 120, warmup => 0)$$)
UNION ALL
SELECT 'table lock', * FROM pg_temp.attempt(
    $$LOCK TABLE public.sbtest1 IN ACCESS EXCLUSIVE MODE;
      SELECT bench_run('point-query', seconds => 120, warmup => 0)$$)
UNION ALL
SELECT 'row lock', * FROM pg_temp.attempt(
    $$SELECT id FROM public.sbtest1 FOR UPDATE;
      SELECT bench_run('update-index', seconds => 120, warmup => 0)$$);

SELECT is(code, '55000', 'bench_run after an uncommitted bench_prepare: 55000')
FROM outcome WHERE name = 'prepare';
SELECT matches(hint, 'Commit after bench_prepare', '... with a hint to commit first')
FROM outcome WHERE name = 'prepare';
SELECT is(code || ': ' || message,
          '55P03: benchmark client 1 is waiting for a lock held by this transaction',
          'bench_run while holding LOCK TABLE: 55P03, says which client waits on what')
FROM outcome WHERE name = 'table lock';
SELECT ok(seconds < 60, format('... long before the run would end (after %s s)', round(seconds::numeric, 2)))
FROM outcome WHERE name = 'table lock';
SELECT matches(hint, 'Commit or roll back', '... with a hint to commit first')
FROM outcome WHERE name = 'table lock';
SELECT is(code, '55P03', 'bench_run while holding row locks the clients update: 55P03')
FROM outcome WHERE name = 'row lock';
SELECT ok(seconds < 60, format('... long before the run would end (after %s s)', round(seconds::numeric, 2)))
FROM outcome WHERE name = 'row lock';
SELECT is(pg_temp.workers_left(), 0::bigint, 'no worker is left behind');

-- locks on rows the clients never touch do not stop a run
SELECT lives_ok($$SELECT id FROM public.sbtest2 FOR UPDATE;
                  SELECT bench_run('update-index', seconds => 0.3, warmup => 0, tables => 1)$$,
                'rows locked in a table the run does not use are no obstacle');

SELECT * FROM finish();
ROLLBACK;
