-- 14_costs.sql — every run carries what it cost, over the measured window:
-- the workers' CPU, context switches, WAL and buffer counters, hardware
-- counters (or why they are missing), and the host's CPU and disk.  The
-- figures must be present and plausible, per-query values must equal the
-- totals over queries, and the disk must be the one holding the data
-- directory (found here independently of the C code, from stat(1) and
-- /proc/diskstats).
BEGIN;
SET client_min_messages = warning;
SELECT plan(28);

CREATE TEMP TABLE r AS
SELECT * FROM bench_run('point-query', seconds => 1, warmup => 0.2, label => 'cost-read', tables => 1);
-- earlier files may have left the pages update-index touches dirty: after a
-- checkpoint it must dirty them again
CHECKPOINT;
INSERT INTO r SELECT * FROM bench_run('update-index', seconds => 1, warmup => 0.2, label => 'cost-write', tables => 1);
INSERT INTO r SELECT * FROM bench_run('point-query', seconds => 0.5, warmup => 0, clients => 2,
                                      label => 'cost-two', tables => 1);
CREATE TEMP TABLE c AS SELECT rc.* FROM microbench.run_costs rc JOIN r USING (run_id);

-- ---- the workers' own cost --------------------------------------------------
SELECT ok(cpu_us_per_query > 0 AND cpu_us_per_query < 2000,
          format('point-query: CPU per query is positive and sane (%s us)', round(cpu_us_per_query::numeric, 2)))
FROM c WHERE label = 'cost-read';
SELECT ok(r.cpu_user_seconds + r.cpu_system_seconds <= r.elapsed_seconds * r.clients * 1.05 + 0.02,
          'point-query: the workers'' CPU fits in the window (no more than clients x elapsed)')
FROM r WHERE label = 'cost-read';
-- a floor from the work, not from the machine's speed: no query costs less
-- than a microsecond of CPU, however busy the host
SELECT ok(cpu_user_seconds + cpu_system_seconds >= queries * 1e-6,
          format('point-query: the client''s CPU is counted (%s s for %s queries)',
                 round((cpu_user_seconds + cpu_system_seconds)::numeric, 3), queries))
FROM r WHERE label = 'cost-read';
SELECT ok(voluntary_cs IS NOT NULL AND involuntary_cs IS NOT NULL AND voluntary_cs >= 0,
          'context switches are counted')
FROM r WHERE label = 'cost-read';
SELECT ok(wal_bytes_per_query < 1, format('point-query writes (almost) no WAL: %s bytes per query',
                                           round(wal_bytes_per_query::numeric, 3)))
FROM c WHERE label = 'cost-read';
SELECT ok(wal_bytes_per_query > 50, format('update-index writes WAL: %s bytes per query',
                                            round(wal_bytes_per_query::numeric, 1)))
FROM c WHERE label = 'cost-write';
SELECT ok(wal_records >= events, 'update-index: at least one WAL record per event (the commit)')
FROM r WHERE label = 'cost-write';
SELECT ok(buffer_hits_per_query >= 2, format('point-query: %s buffer hits per query (index and heap)',
                                              round(buffer_hits_per_query::numeric, 2)))
FROM c WHERE label = 'cost-read';
SELECT ok(shared_blks_dirtied > 0, 'update-index dirties buffers')
FROM r WHERE label = 'cost-write';
-- Summed over clients, the CPU per query of two clients is about that of
-- one; counting only one client would halve it.  Per query, CPU time does
-- not depend on how many CPUs are free, so this holds on one busy CPU too.
SELECT ok(two.cpu_us_per_query > 0.6 * one.cpu_us_per_query,
          format('two clients: the CPU of both is summed (%s us per query, one client %s us)',
                 round(two.cpu_us_per_query::numeric, 2), round(one.cpu_us_per_query::numeric, 2)))
FROM c AS two, c AS one WHERE two.label = 'cost-two' AND one.label = 'cost-read';

-- ---- per query is total over queries ------------------------------------------
SELECT is(round((c.cpu_us_per_query)::numeric, 6),
          round(((r.cpu_user_seconds + r.cpu_system_seconds) * 1e6 / r.queries)::numeric, 6),
          'run_costs.cpu_us_per_query = (user + system CPU) / queries')
FROM c JOIN r USING (run_id) WHERE r.label = 'cost-write';
SELECT is(round(c.cs_per_query::numeric, 9), round(((r.voluntary_cs + r.involuntary_cs)::float8 / r.queries)::numeric, 9),
          'run_costs.cs_per_query = context switches / queries')
FROM c JOIN r USING (run_id) WHERE r.label = 'cost-write';
SELECT is(round(microbench.metric_value(mr, 'wal_bytes_per_query')::numeric, 6),
          round(c.wal_bytes_per_query::numeric, 6),
          'the report metric wal_bytes_per_query is the view''s figure')
FROM c JOIN microbench.runs mr USING (run_id) WHERE mr.label = 'cost-write';

-- ---- hardware counters: counted, or NULL with the reason ------------------------
SELECT CASE WHEN r.instructions IS NULL THEN
    collect_tap(
        skip('hardware counters are not available here: ' || coalesce(r.hw_counters_note, '(no note)'), 2),
        ok(r.cycles IS NULL AND r.hw_counters_note ~ '(not supported|refused|multiplexed)',
           'without hardware counters, instructions and cycles are NULL and the note says why: '
           || coalesce(r.hw_counters_note, '(no note)')))
ELSE
    collect_tap(
        ok(c.instructions_per_query > 1000, format('%s instructions per query', round(c.instructions_per_query))),
        ok(c.ipc BETWEEN 0.05 AND 8, format('IPC %s is plausible', round(c.ipc::numeric, 2))),
        ok(r.hw_counters_note ~ 'mode', 'the note says which modes were counted: ' || r.hw_counters_note))
END
FROM r JOIN c USING (run_id) WHERE r.label = 'cost-read';

-- ---- the host over the window ----------------------------------------------------
SELECT ok((host_cpu_user_seconds + host_cpu_system_seconds + host_cpu_iowait_seconds + host_cpu_idle_seconds
           + host_cpu_steal_seconds)
          BETWEEN 0.7 * elapsed_seconds * cpu_cores AND 1.5 * elapsed_seconds * cpu_cores + 0.1,
          format('host CPU seconds add up to about cores x window (%s over %s s on %s CPUs)',
                 round((host_cpu_user_seconds + host_cpu_system_seconds + host_cpu_iowait_seconds
                        + host_cpu_idle_seconds + host_cpu_steal_seconds)::numeric, 2), round(elapsed_seconds::numeric, 2), cpu_cores))
FROM r WHERE label = 'cost-read';
SELECT ok(host_cpu_user_seconds + host_cpu_system_seconds >= 0.5 * (cpu_user_seconds + cpu_system_seconds),
          'host busy CPU covers the workers'' CPU')
FROM r WHERE label = 'cost-read';

-- The data directory's block device, found from stat(1) and /proc/diskstats.
CREATE TEMP TABLE st (dev bigint);
DO $$ BEGIN
    EXECUTE format('COPY st FROM PROGRAM %L', 'stat -c %d ' || current_setting('data_directory'));
END $$;
CREATE TEMP TABLE expected_disk AS
SELECT (SELECT d[3] FROM regexp_split_to_table(pg_read_file('/proc/diskstats'), E'\n') AS line,
                         regexp_split_to_array(trim(line), '\s+') AS d
        WHERE d[1] = ((st.dev >> 8) & 4095)::text AND d[2] = ((st.dev & 255) | ((st.dev >> 12) & 1048320))::text
       ) AS device
FROM st;
SELECT CASE WHEN (SELECT device FROM expected_disk) IS NOT NULL THEN
    collect_tap(
        is(split_part(r.disk_device, ',', 1), (SELECT device FROM expected_disk),
           'the disk figures are those of the device holding the data directory'),
        ok(r.disk_writes > 0 AND r.disk_write_kb > 0,
           format('update-index commits write to it: %s writes, %s KB', r.disk_writes, r.disk_write_kb)))
ELSE
    collect_tap(
        ok(r.disk_device IS NULL AND r.disk_note ~ 'not a block device',
           'the data directory is on no block device: NULL disk figures, and the note says so'),
        skip('no block device to write to', 1))
END
FROM r WHERE label = 'cost-write';
SELECT ok(c.rkb_per_query IS NOT DISTINCT FROM r.disk_read_kb / r.queries
          AND c.wkb_per_query IS NOT DISTINCT FROM r.disk_write_kb / r.queries,
          'rKB/o and wKB/o are the device''s KB over queries')
FROM c JOIN r USING (run_id) WHERE r.label = 'cost-write';

-- ---- switched off, nothing is made up -------------------------------------------
SET LOCAL microbench.collect_costs = off;
INSERT INTO r SELECT * FROM bench_run('point-query', seconds => 0.3, warmup => 0, label => 'cost-off', tables => 1);
RESET microbench.collect_costs;
SELECT is(concat_ws('|', cpu_user_seconds, wal_bytes, instructions, host_cpu_idle_seconds, disk_write_kb),
          '', 'with microbench.collect_costs off the cost columns are NULL')
FROM r WHERE label = 'cost-off';
SELECT matches(hw_counters_note || ' / ' || disk_note, 'collect_costs is off', '... and the notes say why')
FROM r WHERE label = 'cost-off';

-- ---- reports compare costs ---------------------------------------------------------
INSERT INTO r SELECT * FROM bench_run('point-query', seconds => 0.3, warmup => 0, label => 'cost-b', tables => 1);
UPDATE r SET label = 'cost-a' WHERE label = 'cost-read';
UPDATE microbench.runs SET label = 'cost-a' WHERE label = 'cost-read';
SELECT matches(bench_report('cost-a', 'cost-b', metric => 'cpu_per_query'),
               '^-- point queries\npg\n(.*\n)?[0-9.]+[=?]?\s+point-query\n', 'bench_report compares CPU per query');
SELECT matches(bench_report('cost-a', 'cost-b', metric => 'cpu_per_query'),
               'above 1 means cost-b costs more', '... and says that above 1 means more cost');
SELECT results_eq(
    $$SELECT label, round(cpu_us_per_query::numeric, 6) FROM microbench.bench_costs(ARRAY['cost-b', 'cost-a'])
      WHERE workload = 'point-query'$$,
    $$SELECT label, round(((cpu_user_seconds + cpu_system_seconds) * 1e6 / queries)::numeric, 6)
      FROM r WHERE label IN ('cost-a', 'cost-b') AND workload = 'point-query'
      ORDER BY label = 'cost-a'$$,
    'bench_costs lists each label''s CPU per query, in the order asked for');
SELECT ok((SELECT count(*) FROM microbench.bench_costs(ARRAY['cost-a', 'cost-write'])) = 2,
          'bench_costs has a line per label and workload it ran');
SELECT throws_ok($$SELECT bench_report('cost-a', 'cost-b', metric => 'cpu_per_potato')$$, '22023',
                 'unknown metric "cpu_per_potato"', 'an unknown metric is refused');

SELECT * FROM finish();
ROLLBACK;
