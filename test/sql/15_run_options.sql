-- 15_run_options.sql — the options that drive a run as sysbench users
-- expect: ignored errors under concurrency, unprepared statements, a rate
-- limit, an event limit and reconnects.  run_pg_tests.sh made schema tiny
-- (100 rows: concurrent writers collide) and schema trap (every UPDATE
-- fails with 22012).
BEGIN;
SET client_min_messages = warning;
SELECT plan(32);

-- ---- errors under concurrency -------------------------------------------------
SET LOCAL search_path = tiny, public;
CREATE TEMP TABLE rw AS
SELECT * FROM bench_run('read-write_range=10', seconds => 0, events => 1500, warmup => 0, clients => 4,
                        label => 'opt-rw');
SELECT ok(errors > 0, format('read-write on 100 rows with 4 clients hits errors within 1500 transactions: %s by code %s',
                             errors, errors_by_code))
FROM rw;
SELECT ok((SELECT bool_and(k IN ('40P01', '40001', '55P03', '23505')) FROM jsonb_object_keys(errors_by_code) k),
          'only the default ignored codes occur')
FROM rw;
SELECT is((SELECT sum(v::bigint)::bigint FROM jsonb_each_text(errors_by_code) AS e(k, v)), errors,
          'errors is the sum of errors_by_code')
FROM rw;
SELECT ok(events > 0 AND queries = events * (SELECT queries_per_event FROM bench_workloads() WHERE name = workload)
          AND qps > 0 AND lat_p95_ms > 0,
          format('the rest is sane: %s events, %s queries, p95 %s ms', events, queries, round(lat_p95_ms::numeric, 2)))
FROM rw;
SELECT is(ignored_errors, '40P01,40001,55P03,23505', 'the ignored codes are recorded') FROM rw;
RESET search_path;

SET LOCAL search_path = trap, public;
SELECT throws_ok($$SELECT bench_run('update-index', seconds => 2, warmup => 0)$$, '22012',
                 'benchmark client 1 failed: this table refuses updates',
                 'an error that is not ignored stops the run with that error');
CREATE TEMP TABLE all_fail AS
SELECT * FROM bench_run('update-index', seconds => 0.5, warmup => 0, clients => 2,
                        ignore_errors => ARRAY['22012'], label => 'opt-all-fail');
SELECT ok(events = 0 AND errors > 100 AND errors_by_code = jsonb_build_object('22012', errors),
          format('every event failing and ignored: 0 events, %s errors, all 22012, and the clients went on', errors))
FROM all_fail;
SELECT is(lat_avg_ms, NULL, '... and failed events leave no latency') FROM all_fail;
RESET search_path;

-- ---- unprepared statements ------------------------------------------------------
SELECT pg_stat_statements_reset();
CREATE TEMP TABLE ps AS
SELECT * FROM bench_run('point-query', seconds => 0.5, warmup => 0, tables => 1, ps_mode => 'disable',
                        label => 'opt-ps-off');
SELECT is((SELECT array_agg(query) FROM pg_stat_statements WHERE query LIKE '%FROM sbtest1 %'),
          ARRAY['SELECT c FROM sbtest1 WHERE id = $1'],
          'ps_mode disable: one literal-free normalised statement in pg_stat_statements');
SELECT is((SELECT calls || '/' || plans FROM pg_stat_statements WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1'),
          (SELECT events || '/' || events FROM ps),
          '... called and planned once per event');
SELECT is(ps_mode, 'disable', '... and recorded with the run') FROM ps;
SELECT pg_stat_statements_reset();
CREATE TEMP TABLE pa AS
SELECT * FROM bench_run('point-query', seconds => 0.5, warmup => 0, tables => 1, label => 'opt-ps-on');
SELECT ok((SELECT plans FROM pg_stat_statements WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1') <= 6
          AND (SELECT calls FROM pg_stat_statements WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1') = (SELECT events FROM pa),
          'ps_mode auto: prepared once, planned at most 6 times (5 custom plans, then the generic one)');

SELECT matches(bench_report('opt-ps-on', 'opt-ps-off'),
               '-- run options: opt-ps-on defaults; opt-ps-off ps_mode=disable',
               'a report says how each label''s runs were driven when not with the defaults');
SELECT ok(bench_report('cost-x', 'cost-y') !~ 'run options', '... and says nothing when both used the defaults')
FROM (SELECT 1) AS one
WHERE (SELECT count(*) FROM bench_run('point-query', seconds => 0.2, warmup => 0, tables => 1, label => 'cost-x')) = 1
  AND (SELECT count(*) FROM bench_run('point-query', seconds => 0.2, warmup => 0, tables => 1, label => 'cost-y')) = 1;

-- ---- rate limit ------------------------------------------------------------------
-- Arrivals are a Poisson process: the count in the window is within 5
-- standard deviations of rate x window.  500/s is far below what one busy
-- CPU manages unpaced, so the pacer, not the machine, sets it.
CREATE TEMP TABLE paced AS
SELECT * FROM bench_run('point-query', seconds => 3, warmup => 0, clients => 2, tables => 1, rate => 500,
                        label => 'opt-rate');
SELECT ok(abs(events - 500 * elapsed_seconds) <= 5 * sqrt(500 * elapsed_seconds) + 2,
          format('rate 500/s is held: %s events in %s s', events, round(elapsed_seconds::numeric, 2)))
FROM paced;
SELECT is(rate, 500::float8, '... and recorded') FROM paced;
CREATE TEMP TABLE flat_out AS
SELECT * FROM bench_run('point-query', seconds => 1, warmup => 0, tables => 1, label => 'opt-unpaced');
CREATE TEMP TABLE saturated AS
SELECT * FROM bench_run('point-query', seconds => 1, warmup => 0, tables => 1, rate => 1e7,
                        label => 'opt-saturated');
SELECT ok(s.lat_avg_ms > 100 * f.lat_avg_ms,
          format('a rate the server cannot keep up with: latency from the scheduled start grows (%s ms vs %s ms)',
                 round(s.lat_avg_ms::numeric, 3), round(f.lat_avg_ms::numeric, 4)))
FROM saturated s, flat_out f;

-- ---- event limit ----------------------------------------------------------------------
CREATE TEMP TABLE counted AS
SELECT * FROM bench_run('point-query', seconds => 0, warmup => 0.2, clients => 2, tables => 1, events => 1000,
                        label => 'opt-events');
SELECT is(events, 1000::bigint, 'events => 1000 stops at exactly 1000 events') FROM counted;
SELECT is(event_limit, 1000::bigint, '... and is recorded') FROM counted;
SET LOCAL search_path = trap, public;
SELECT is((SELECT events + errors FROM bench_run('update-index', seconds => 0, warmup => 0, clients => 2,
                                                 events => 50, ignore_errors => ARRAY['22012'])),
          50::bigint, 'failed events count towards the limit: events + errors = 50');
RESET search_path;
SELECT ok((SELECT elapsed_seconds BETWEEN 0.5 AND 30 AND events < 1000000000
           FROM bench_run('point-query', seconds => 0.5, warmup => 0, tables => 1, events => 1000000000)),
          'with both a time and an event limit, whichever comes first ends the run');

-- ---- reconnect --------------------------------------------------------------------------
SELECT pg_stat_statements_reset();
CREATE TEMP TABLE reconn AS
SELECT * FROM bench_run('point-query', seconds => 0, warmup => 0, tables => 1, events => 100, reconnect => 10,
                        label => 'opt-reconnect');
SELECT is(sessions, 10::bigint, 'reconnect => 10 over 100 events: 10 sessions') FROM reconn;
SELECT is(events, 100::bigint, '... running all 100 events') FROM reconn;
SELECT is((SELECT plans FROM pg_stat_statements WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1'), 60::bigint,
          '... each session prepared and planned its statement afresh (6 plans per session of 10 executions)');
SELECT ok(r.lat_max_ms > 5 * f.lat_avg_ms,
          format('the event after a reconnect carries the new session''s cost (max %s ms)', round(r.lat_max_ms::numeric, 2)))
FROM reconn r, flat_out f;
SELECT is(sessions, 1::bigint, 'without reconnect, one session per client') FROM flat_out;

-- ---- bad options ---------------------------------------------------------------------------
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, ps_mode => 'sometimes')$$, '22023',
                 'unknown ps_mode "sometimes"', 'unknown ps_mode');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, rate => -5)$$, '22023', NULL, 'negative rate');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, events => 0)$$, '22023', NULL, 'zero events');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 0)$$, '22023', NULL,
                 'seconds => 0 without an event limit');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, ignore_errors => ARRAY['57014'])$$, '22023',
                 'SQLSTATE 57014 cannot be ignored', 'a cancel cannot be ignored');
SELECT throws_ok($$SELECT bench_run('point-query', seconds => 1, ignore_errors => ARRAY['deadlock'])$$, '22023',
                 '"deadlock" in ignore_errors is not a SQLSTATE', 'a bad code');

SELECT * FROM finish();
ROLLBACK;
