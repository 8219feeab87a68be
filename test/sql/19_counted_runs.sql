-- 19_counted_runs.sql — what a counted run (microbench compare --metric
-- instructions) asks of bench_run and bench_prewarm, checked outside
-- valgrind, where the window's marks do nothing: a warm-up of exactly N
-- events, a window that records no block read after bench_prewarm, a
-- checkpoint before the window (and only for a role that may checkpoint),
-- the refusals, and the harness's compiler on every run.
BEGIN;
SET client_min_messages = warning;
SELECT plan(13);

-- ---- bench_prewarm: every block of the tables and their indexes ------------
SELECT ok(bench_prewarm() >= (SELECT sum(pg_relation_size(c.oid) / current_setting('block_size')::int)
                              FROM pg_class c
                              WHERE c.relname IN ('sbtest1', 'sbtest2', 'sbtest1_pkey', 'sbtest2_pkey', 'k_1', 'k_2')
                                AND c.relnamespace = 'public'::regnamespace),
          'bench_prewarm reads at least every main-fork block of sbtest1, sbtest2 and their indexes');
SELECT is(bench_prewarm(tables => 1) < bench_prewarm(), true, 'tables => 1: the first table only');
SELECT throws_ok($$SELECT bench_prewarm(tables => 3)$$, '42P01', NULL,
                 'more tables than there are: refused as bench_run refuses them');
SELECT throws_ok($$SET LOCAL search_path = pg_catalog; SELECT public.bench_prewarm()$$, '42P01',
                 'table "sbtest1" does not exist in the search path', 'no sbtest1 on the search path: refused');

-- ---- a counted run's window, outside valgrind -------------------------------
CREATE TEMP TABLE counted AS
SELECT * FROM bench_run('point-query', seconds => 0, warmup => 5, warmup_events => 30, events => 500,
                        seed => 7, count_window => true, label => 'counted-win');
SELECT is((SELECT format('%s %s %s %s', events, warmup_events, warmup, event_limit) FROM counted), '500 30 0 500',
          'warmup_events => 30: the warm-up is 30 events (warmup recorded 0, not the 5 seconds asked), the window 500');
SELECT is((SELECT shared_blks_read FROM counted), 0::bigint,
          'after bench_prewarm, the window reads no block from disk');
SELECT is((SELECT harness_compiler FROM counted) ~ '^(gcc [0-9]|.*[Cc]lang)', true,
          'the run names the compiler that built the harness');
CREATE TEMP TABLE checkpointed AS
SELECT * FROM bench_run('update-index', seconds => 0, warmup => 0, warmup_events => 20, events => 200,
                        seed => 7, checkpoint => true, label => 'counted-ckpt');
SELECT ok((SELECT wal_fpi > 0 FROM checkpointed),
          'checkpoint => true: the write''s window starts after a checkpoint and logs full pages');
SELECT throws_ok($$SET LOCAL SESSION AUTHORIZATION mb_granted; SET LOCAL search_path = granted, public;
                   SELECT bench_run('update-index', seconds => 0, warmup => 0, events => 10, checkpoint => true)$$,
                 '42501', NULL, 'checkpoint => true is the caller''s CHECKPOINT: refused to a role that may not checkpoint');

-- ---- refusals ---------------------------------------------------------------
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, warmup => 0, clients => 2, count_window => true)$$,
                 '22023', 'count_window counts the window of one client in one session',
                 'count_window with two clients: refused');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 0, events => 10, reconnect => 5, count_window => true)$$,
                 '22023', 'count_window counts the window of one client in one session',
                 'count_window with reconnects: refused');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, warmup_events => 0)$$,
                 '22023', 'warmup_events must be positive, not 0', 'warmup_events => 0: refused');
SELECT is((SELECT count(*) FROM microbench.runs WHERE label LIKE 'counted-%'), 2::bigint,
          'only the two runs that finished are recorded');

SELECT * FROM finish();
ROLLBACK;
