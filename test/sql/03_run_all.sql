-- 03_run_all.sql — every one of the 32 workloads runs 20 events and
-- returns sane figures: events, queries = events x queries per event, rates
-- that agree with the counts, ordered latencies; and a run limited by time
-- measures at least that time.  The 32 runs end by their event count, not
-- the clock: a 0.7-second window on a busy machine can pass while a
-- client waits for a CPU, and then holds no event at all.
BEGIN;
SELECT plan(7);

CREATE TEMP TABLE r AS
SELECT w.name, w.queries_per_event, run.*
FROM bench_workloads() AS w,
     LATERAL bench_run(w.name, seconds => 60, events => 20, warmup => 0.1, label => 'all') AS run
ORDER BY w.report_order;

SELECT is((SELECT string_agg(name, ', ') FROM r WHERE events <> 20), NULL,
          'all 32 workloads run and count their 20 events');
SELECT is((SELECT string_agg(name, ', ') FROM r WHERE queries <> events * queries_per_event), NULL,
          'queries = events x queries per event for every workload');
SELECT is((SELECT string_agg(name, ', ') FROM r
           WHERE abs(qps - queries / elapsed_seconds) > 1e-6 * qps
              OR abs(tps - events / elapsed_seconds) > 1e-6 * tps), NULL,
          'qps and tps are the counts over the measured seconds');
SELECT is((SELECT CASE WHEN events = 0 OR elapsed_seconds BETWEEN 0.7 AND 30 THEN 'ok'
                        ELSE elapsed_seconds::text END
           FROM bench_run('point-query', seconds => 0.7, warmup => 0.1, label => 'timed')),
          'ok', 'a run limited by time measures at least that time (plus the last event; 30 s is a ceiling for a busy machine)');
SELECT is((SELECT string_agg(name, ', ') FROM r
           WHERE NOT (lat_avg_ms > 0 AND lat_avg_ms <= lat_max_ms AND lat_p95_ms <= lat_p99_ms
                      AND lat_p99_ms <= lat_max_ms)), NULL,
          'latencies are positive and avg, p95, p99 <= max');
SELECT ok((SELECT rows_scanned = events * 10000 AND rows_per_second > 0 FROM r WHERE name = 'scan'),
          'scan counts table_size rows per scan');
SELECT is((SELECT count(*) FROM microbench.runs WHERE label = 'all'), 32::bigint,
          'each run is recorded in microbench.runs');

SELECT * FROM finish();
ROLLBACK;
