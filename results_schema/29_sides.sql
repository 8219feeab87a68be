-- 29_sides.sql — the vocabulary of comparisons: DBMS names, metrics, sides.
--
-- A comparison sets the runs of one label (the base) against those of
-- another, per report column and workload.  This file says what can be
-- compared (the metrics and the value of each in a run,
-- microbench.metric_value), how a run's costs read per query
-- (microbench.run_costs), what a side is (the runs of one label, over one
-- driver when one is chosen) and which column a run belongs to.  A label
-- can hold Postgres runs in-server (driver extension) and over the wire
-- (pgsql), whose QPS differ by the protocol path, not by the build: when
-- no driver is chosen they are two columns of the report, pg and pg-wire
-- (run_column), never pooled; when one is, a side takes that driver's runs
-- and check_drivers refuses what would still pool two drivers.
-- 30_compare.sql judges a comparison, 31_reports.sql lays it out.  Plain
-- SQL over microbench.runs and microbench.workloads (20_catalog.sql), so it
-- works in a results database without the extension.

-- Which report column a run belongs to: its DBMS, except that when the
-- comparison chose no driver (by_path) Postgres over the wire (the
-- client's libpq driver) is a column of its own, 'postgres-wire': a label
-- the comparison runner measured both ways (microbench compare --path
-- both) then reads as two columns, whose ratios and noise are their own.
-- With a driver chosen, a side holds one driver's runs and the column is
-- the DBMS.
CREATE OR REPLACE FUNCTION microbench.run_column(dbms text, driver text, by_path boolean)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN by_path AND dbms = 'postgres' AND driver = 'pgsql' THEN 'postgres-wire' ELSE dbms END
$$;

COMMENT ON FUNCTION microbench.run_column(text, text, boolean) IS
    'the report column of a run: its dbms, or postgres-wire for a Postgres run over the wire (driver pgsql) when the comparison chose no driver (by_path)';

-- the short column names of the report, in its column order
CREATE OR REPLACE FUNCTION microbench.dbms_short(dbms text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE dbms WHEN 'postgres' THEN 'pg' WHEN 'postgres-wire' THEN 'pg-wire'
                     WHEN 'mysql' THEN 'my' WHEN 'mariadb' THEN 'ma' END
$$;

CREATE OR REPLACE FUNCTION microbench.dbms_order(dbms text)
RETURNS integer LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE dbms WHEN 'postgres' THEN 1 WHEN 'postgres-wire' THEN 2 WHEN 'mysql' THEN 3
                     WHEN 'mariadb' THEN 4 END
$$;

-- The name of a report column's DBMS, for the legends.
CREATE OR REPLACE FUNCTION microbench.dbms_name(dbms text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE dbms WHEN 'postgres' THEN 'Postgres'
                     WHEN 'postgres-wire' THEN 'Postgres over the wire (the pgsql driver)'
                     WHEN 'mysql' THEN 'MySQL' WHEN 'mariadb' THEN 'MariaDB' ELSE dbms END
$$;

-- A column's entry in a legend ("pg: Postgres"), among the columns of its
-- report: beside a pg-wire column, pg says that it is in-server, so that
-- neither reads as plain "Postgres".
CREATE OR REPLACE FUNCTION microbench.dbms_legend(dbms text, columns text[])
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(microbench.dbms_short(dbms) || ': ', '')
           || CASE WHEN dbms = 'postgres' AND 'postgres-wire' = ANY (columns)
                   THEN 'Postgres in-server (the extension)' ELSE microbench.dbms_name(dbms) END
$$;

-- A side of a comparison by name: its label, and how its runs were driven
-- when a driver was chosen ("gcc in-server", "gcc over pgsql"), so that a
-- label compared with itself over two drivers reads as two sides.
CREATE OR REPLACE FUNCTION microbench.side_name(label text, driver text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN driver IS NULL THEN label
                WHEN driver = 'extension' THEN label || ' in-server'
                ELSE label || ' over ' || driver END
$$;

-- The metrics a report can compare: throughput and latency, and what each
-- query cost (15_costs.sql).  For a cost, a ratio above 1 means the other
-- build pays more.
CREATE OR REPLACE FUNCTION microbench.metrics()
RETURNS TABLE (metric text, unit text, lower_is_better boolean, description text)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    VALUES
        ('qps', 'queries/s', false, 'queries per second, BEGIN and COMMIT counted: the run''s steady rate (tenths of a second that fell well below the run''s level set aside), its mean where it has none'),
        ('qps_mean', 'queries/s', false, 'queries per second over the whole window, as sysbench reports it'),
        ('tps', 'events/s', false, 'events (transactions) per second'),
        ('rows_per_second', 'rows/s', false, 'rows read per second (scan)'),
        ('lat_avg_ms', 'ms', true, 'mean event latency'),
        ('lat_p95_ms', 'ms', true, '95th percentile event latency'),
        ('lat_p99_ms', 'ms', true, '99th percentile event latency'),
        ('lat_max_ms', 'ms', true, 'longest event'),
        ('cpu_per_query', 'us', true, 'CPU (user + system) of the processes that ran the statements, per query'),
        ('server_user_share', 'share', false, 'the share of a query''s time (its wall time per client) spent in the server''s user code, the code a count of instructions covers: user CPU of the processes that ran the statements over clients x the window; neither better nor worse, it says how far a count speaks for QPS (34_count_clock.sql)'),
        ('cs_per_query', 'switches', true, 'context switches (voluntary + involuntary) of those processes, per query'),
        ('wal_bytes_per_query', 'bytes', true, 'WAL bytes written per query'),
        ('wal_fpi_per_query', 'pages', true, 'WAL full-page images per query'),
        ('buffer_hits_per_query', 'blocks', true, 'shared buffer hits per query'),
        ('buffer_reads_per_query', 'blocks', true, 'shared buffers read in per query'),
        ('buffers_dirtied_per_query', 'blocks', true, 'shared buffers dirtied per query'),
        ('buffers_written_per_query', 'blocks', true, 'shared buffers written out by the clients per query'),
        ('instructions', 'instructions', true, 'instructions per query, counted (valgrind''s cachegrind or callgrind under microbench compare --metric instructions, or the hardware counter)'),
        ('estimated_cycles', 'cycles', true, 'estimated cycles per query from valgrind''s simulated caches (microbench compare --cache-sim): L1 hits + 5 x LL hits + 35 x LL misses'),
        ('i1_misses_per_query', 'misses', true, 'simulated first-level instruction cache misses per query (--cache-sim)'),
        ('d1_misses_per_query', 'misses', true, 'simulated first-level data cache misses per query (--cache-sim)'),
        ('ll_misses_per_query', 'misses', true, 'simulated last-level cache misses per query (--cache-sim)'),
        ('instructions_per_query', 'instructions', true, 'instructions retired per query (hardware counter)'),
        ('cycles_per_query', 'cycles', true, 'CPU cycles per query (hardware counter)'),
        ('ipc', 'instructions/cycle', false, 'instructions per cycle'),
        ('host_cpu_per_query', 'us', true, 'host-wide busy CPU (user + system) per query'),
        ('host_cs_per_query', 'switches', true, 'host-wide context switches per query (vmstat cs / QPS)'),
        ('host_cpu_busy_pct', '%', true, 'host CPU busy (user + system) over the window, as vmstat us + sy'),
        ('host_cpu_iowait_pct', '%', true, 'host CPU waiting for IO over the window, as vmstat wa'),
        ('rkb_per_query', 'KB', true, 'KB read from the data directory''s disk per query'),
        ('wkb_per_query', 'KB', true, 'KB written to the data directory''s disk per query'),
        ('disk_reads_per_query', 'operations', true, 'read operations on the data directory''s disk per query'),
        ('disk_writes_per_query', 'operations', true, 'write operations on the data directory''s disk per query'),
        ('client_cpu_per_query', 'us', true, 'CPU of the benchmark client threads per query (microbench-mysql)'),
        ('rows_read_per_query', 'rows', true, 'rows the server read per query (MySQL/MariaDB status Innodb_rows_read or Rows_read)'),
        ('innodb_bp_requests_per_query', 'pages', true, 'InnoDB buffer pool read requests per query'),
        ('innodb_bp_reads_per_query', 'pages', true, 'InnoDB buffer pool reads from disk per query'),
        ('innodb_data_written_kb_per_query', 'KB', true, 'InnoDB data written per query'),
        ('innodb_log_bytes_per_query', 'bytes', true, 'InnoDB redo log bytes written per query')
$$;

COMMENT ON FUNCTION microbench.metrics() IS
    'the metrics bench_report(metric => ...) compares, with unit and direction';

-- A MySQL/MariaDB status counter's change over the run: the first of the
-- names present in server_status; a counter missing from it did not change
-- (0); NULL when the run has no server_status.
CREATE OR REPLACE FUNCTION microbench.status_delta(r microbench.runs, VARIADIC names text[])
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN r.server_status IS NOT NULL THEN
        coalesce((SELECT (r.server_status ->> n.name)::double precision
                  FROM unnest(names) WITH ORDINALITY AS n(name, ord)
                  WHERE r.server_status ? n.name ORDER BY n.ord LIMIT 1), 0)
    END
$$;

-- Whether a metric is one of a count's (microbench compare --metric
-- instructions, --cache-sim): the figures a run made under valgrind has,
-- and the ones a comparison draws from one counter only.
CREATE OR REPLACE FUNCTION microbench.counted_metric(metric text)
RETURNS boolean LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT metric IN ('instructions', 'instructions_per_query', 'estimated_cycles',
                      'i1_misses_per_query', 'd1_misses_per_query', 'll_misses_per_query')
$$;

-- The value of a named metric in a run; NULL for a name it does not know or
-- a figure the run could not count.  The one definition of every metric:
-- the reports and microbench.run_costs use it.
CREATE OR REPLACE FUNCTION microbench.metric_value(r microbench.runs, metric text)
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        -- a run made under valgrind is a count: its times say nothing of the build
        WHEN r.instructions_counter ~ '^(cachegrind|callgrind)'
             AND NOT microbench.counted_metric(metric) THEN NULL
        -- the cost turned over (queries per instruction), so that a ratio
        -- other / base reads cost(base) / cost(other): above 1, other does
        -- the same work with fewer instructions
        WHEN metric = 'instructions' THEN r.queries / nullif(r.instructions, 0)::double precision
        WHEN metric = 'estimated_cycles' THEN r.queries / nullif(r.estimated_cycles, 0)::double precision
        ELSE CASE metric
        WHEN 'qps' THEN coalesce(r.qps_steady, r.qps)
        WHEN 'qps_mean' THEN r.qps
        WHEN 'tps' THEN r.tps
        WHEN 'lat_avg_ms' THEN r.lat_avg_ms
        WHEN 'lat_p95_ms' THEN r.lat_p95_ms
        WHEN 'lat_p99_ms' THEN r.lat_p99_ms
        WHEN 'lat_max_ms' THEN r.lat_max_ms
        WHEN 'rows_per_second' THEN r.rows_per_second
        WHEN 'ipc' THEN r.instructions::double precision / nullif(r.cycles, 0)
        WHEN 'server_user_share' THEN r.cpu_user_seconds / nullif(r.clients * r.elapsed_seconds, 0)
        WHEN 'host_cpu_busy_pct' THEN 100 * (r.host_cpu_user_seconds + r.host_cpu_system_seconds) / nullif(host.total, 0)
        WHEN 'host_cpu_iowait_pct' THEN 100 * r.host_cpu_iowait_seconds / nullif(host.total, 0)
        ELSE per_query.amount / nullif(r.queries, 0)
    END END
    FROM (SELECT r.host_cpu_user_seconds + r.host_cpu_system_seconds + r.host_cpu_iowait_seconds
                 + r.host_cpu_idle_seconds + coalesce(r.host_cpu_steal_seconds, 0) AS total) AS host,
         (SELECT CASE metric
              WHEN 'cpu_per_query' THEN (r.cpu_user_seconds + r.cpu_system_seconds) * 1e6
              WHEN 'cs_per_query' THEN r.voluntary_cs + r.involuntary_cs
              WHEN 'wal_bytes_per_query' THEN r.wal_bytes
              WHEN 'wal_fpi_per_query' THEN r.wal_fpi
              WHEN 'buffer_hits_per_query' THEN r.shared_blks_hit
              WHEN 'buffer_reads_per_query' THEN r.shared_blks_read
              WHEN 'buffers_dirtied_per_query' THEN r.shared_blks_dirtied
              WHEN 'buffers_written_per_query' THEN r.shared_blks_written
              WHEN 'instructions_per_query' THEN r.instructions
              WHEN 'i1_misses_per_query' THEN r.i1_misses
              WHEN 'd1_misses_per_query' THEN r.d1_misses
              WHEN 'll_misses_per_query' THEN r.ll_misses
              WHEN 'cycles_per_query' THEN r.cycles
              WHEN 'host_cpu_per_query' THEN (r.host_cpu_user_seconds + r.host_cpu_system_seconds) * 1e6
              WHEN 'host_cs_per_query' THEN r.host_context_switches
              WHEN 'rkb_per_query' THEN r.disk_read_kb
              WHEN 'wkb_per_query' THEN r.disk_write_kb
              WHEN 'disk_reads_per_query' THEN r.disk_reads
              WHEN 'disk_writes_per_query' THEN r.disk_writes
              WHEN 'client_cpu_per_query' THEN (r.client_cpu_user_seconds + r.client_cpu_system_seconds) * 1e6
              WHEN 'rows_read_per_query' THEN microbench.status_delta(r, 'Innodb_rows_read', 'Rows_read')
              WHEN 'innodb_bp_requests_per_query' THEN microbench.status_delta(r, 'Innodb_buffer_pool_read_requests')
              WHEN 'innodb_bp_reads_per_query' THEN microbench.status_delta(r, 'Innodb_buffer_pool_reads')
              WHEN 'innodb_data_written_kb_per_query' THEN microbench.status_delta(r, 'Innodb_data_written') / 1024
              WHEN 'innodb_log_bytes_per_query' THEN microbench.status_delta(r, 'Innodb_os_log_written')
          END::double precision AS amount) AS per_query
$$;

-- Every cost per query, with the throughput beside it: the absolute
-- per-run table of a cost report (docs/costs.md).
CREATE OR REPLACE VIEW microbench.run_costs AS
SELECT r.run_id, r.dbms, r.label, r.workload, r.phase, r.clients, r.queries, r.qps,
       microbench.metric_value(r, 'cpu_per_query') AS cpu_us_per_query,
       microbench.metric_value(r, 'cs_per_query') AS cs_per_query,
       microbench.metric_value(r, 'wal_bytes_per_query') AS wal_bytes_per_query,
       microbench.metric_value(r, 'wal_fpi_per_query') AS wal_fpi_per_query,
       microbench.metric_value(r, 'buffer_hits_per_query') AS buffer_hits_per_query,
       microbench.metric_value(r, 'buffer_reads_per_query') AS buffer_reads_per_query,
       microbench.metric_value(r, 'buffers_dirtied_per_query') AS buffers_dirtied_per_query,
       microbench.metric_value(r, 'buffers_written_per_query') AS buffers_written_per_query,
       microbench.metric_value(r, 'instructions_per_query') AS instructions_per_query,
       microbench.metric_value(r, 'cycles_per_query') AS cycles_per_query,
       microbench.metric_value(r, 'ipc') AS ipc,
       microbench.metric_value(r, 'host_cpu_per_query') AS host_cpu_us_per_query,
       microbench.metric_value(r, 'host_cs_per_query') AS host_cs_per_query,
       microbench.metric_value(r, 'host_cpu_busy_pct') AS host_cpu_busy_pct,
       microbench.metric_value(r, 'host_cpu_iowait_pct') AS host_cpu_iowait_pct,
       microbench.metric_value(r, 'rkb_per_query') AS rkb_per_query,
       microbench.metric_value(r, 'wkb_per_query') AS wkb_per_query,
       microbench.metric_value(r, 'disk_reads_per_query') AS disk_reads_per_query,
       microbench.metric_value(r, 'disk_writes_per_query') AS disk_writes_per_query,
       microbench.metric_value(r, 'client_cpu_per_query') AS client_cpu_us_per_query,
       microbench.metric_value(r, 'rows_read_per_query') AS rows_read_per_query,
       microbench.metric_value(r, 'innodb_bp_requests_per_query') AS innodb_bp_requests_per_query,
       microbench.metric_value(r, 'innodb_bp_reads_per_query') AS innodb_bp_reads_per_query,
       microbench.metric_value(r, 'innodb_data_written_kb_per_query') AS innodb_data_written_kb_per_query,
       microbench.metric_value(r, 'innodb_log_bytes_per_query') AS innodb_log_bytes_per_query,
       r.hw_counters_note, r.disk_device, r.disk_note,
       -- last, so that CREATE OR REPLACE can add it to an older view
       r.driver
FROM microbench.scoped_runs() r;

COMMENT ON VIEW microbench.run_costs IS
    'per run: QPS and every cost per query (CPU, context switches, WAL, buffers, HW counters, host CPU and disk, client CPU, InnoDB counters), each as microbench.metric_value defines it';

-- Refuse a metric name no report knows, listing the ones it does.
CREATE OR REPLACE FUNCTION microbench.check_metric(metric text)
RETURNS void LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM microbench.metrics() m WHERE m.metric = check_metric.metric) THEN
        RAISE EXCEPTION 'unknown metric "%"', metric
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Use one of: ' || (SELECT string_agg(m.metric, ', ') FROM microbench.metrics() m) || '.';
    END IF;
END
$$;

-- What a cell of a report is, as its header says it: QPS(other) /
-- QPS(base), a cost(other) / cost(base); but counted instructions the
-- other way up, cost(base) / cost(other), so that above 1 means the other
-- build is better as it does for QPS (metric_value turns that cost over).
CREATE OR REPLACE FUNCTION microbench.ratio_caption(metric text, other text, base text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN metric IN ('instructions', 'estimated_cycles') THEN format('%s(%s) / %s(%s)', metric, base, metric, other)
                       ELSE format('%s(%s) / %s(%s)', CASE metric WHEN 'qps' THEN 'QPS' ELSE metric END, other,
                                   CASE metric WHEN 'qps' THEN 'QPS' ELSE metric END, base) END
$$;

-- What an instruction is in the counted runs of labels: "a REP string
-- instruction once, as a CPU counts it" (instructions_counter says "REP
-- once"), valgrind's count of each repetition (runs counted before), or ''
-- (no runs counted under valgrind).  A report's caption says it.
CREATE OR REPLACE FUNCTION microbench.count_definition(labels text[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN coalesce(bool_or(r.instructions_counter ~ '^(cachegrind|callgrind)'
                                      AND r.instructions_counter !~ 'REP once'), false)
                THEN 'valgrind''s count, a REP string instruction once per repetition'
                WHEN coalesce(bool_or(r.instructions_counter ~ 'REP once'), false)
                THEN 'a REP string instruction once, as a CPU counts it'
                ELSE '' END
    FROM microbench.scoped_runs() r
    WHERE r.label = ANY (labels) AND r.instructions_counter IS NOT NULL
$$;

-- The line under a report of any metric but QPS: what the ratio means.
CREATE OR REPLACE FUNCTION microbench.metric_caption(metric text, base text, other text, prefix text)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN metric = 'qps' THEN ''
        -- a count's metrics: what counted them, and the cost turned over
        WHEN metric IN ('instructions', 'estimated_cycles') THEN
        E'\n\n' || prefix || format('metric: %s (%s%s); cells are %s(%s) / %s(%s), so above 1 means %s runs fewer',
                                     CASE metric WHEN 'instructions' THEN 'instructions per query, counted'
                                          ELSE 'estimated cycles per query, L1 hits + 5 x LL hits + 35 x LL'
                                               ' misses of valgrind''s simulated caches, a model, not a clock' END,
                                     coalesce(c.counters, 'valgrind or perf_event'),
                                     -- which instruction a cell counts: valgrind's own count
                                     -- takes a REP string instruction once per repetition
                                     coalesce(nullif(': ' || c.definition, ': '), ''),
                                     metric, base, metric, other, other)
        ELSE
        E'\n\n' || prefix || format('metric: %s (%s, %s); cells are %s(%s) / %s(%s), so above 1 means %s',
                                     m.metric, m.description, m.unit, m.metric, other, m.metric, base,
                                     CASE WHEN m.lower_is_better THEN other || ' costs more'
                                          ELSE other || ' is higher' END)
    END
    FROM microbench.metrics() m,
         LATERAL (SELECT string_agg(DISTINCT r.instructions_counter, ', ') AS counters,
                         microbench.count_definition(array_prepend(base, string_to_array(other, ','))) AS definition
                  FROM microbench.scoped_runs() r
                  WHERE metric_caption.metric IN ('instructions', 'estimated_cycles')
                    AND (r.label = base OR r.label = ANY (string_to_array(other, ',')))) c
    WHERE m.metric = metric_caption.metric
$$;

-- Per label, driver and microbenchmark: how many runs, their median, min,
-- max and coefficient of variation of QPS.  A label's runs in-server and
-- over the wire are two lines, never one (driver comes last so that CREATE
-- OR REPLACE can add it to an older view).
CREATE OR REPLACE VIEW microbench.label_stats AS
SELECT dbms, label, workload, phase,
       count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY qps) AS median_qps,
       min(qps) AS min_qps,
       max(qps) AS max_qps,
       CASE WHEN count(*) > 1 AND avg(qps) > 0 THEN stddev_samp(qps) / avg(qps) END AS cv,
       driver
FROM microbench.scoped_runs()
GROUP BY dbms, label, workload, phase, driver;

COMMENT ON VIEW microbench.label_stats IS
    'runs per (dbms, label, workload, phase, driver): count, median/min/max QPS and coefficient of variation';

-- A side of a comparison is the runs of one label, per report column and
-- workload; a column never holds two drivers' runs, or what the protocol
-- path costs would read as a difference between builds.  base_driver and
-- other_driver choose each side's driver (NULL: whichever its runs have).
-- With neither chosen, a label's Postgres runs in-server and over the wire
-- are two columns (run_column), and a comparison of two labels shows
-- either path that both have.  Rather than guess, this refuses what is
-- still ambiguous, in any DBMS and workload:
--   - a label compared with itself without two different drivers (both
--     sides would be the same runs);
--   - a column of a side without a chosen driver that holds runs of more
--     than one driver: with a driver chosen for the other side, or none
--     known to set them apart (a run of a driver no report knows);
--   - sides not both chosen whose runs share no driver in a DBMS and
--     workload (a ratio across drivers is asked for by naming both);
--   - two different drivers chosen that drive no DBMS in common (no cell
--     could have both sides).
-- Returns true, so that a query can be gated on it.
CREATE OR REPLACE FUNCTION microbench.check_drivers(base text, other text, phase text,
                                                    base_driver text, other_driver text)
RETURNS boolean LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    by_path boolean := base_driver IS NULL AND other_driver IS NULL;
    bad     record;
BEGIN
    IF base = other AND (base_driver IS NULL OR other_driver IS NULL OR base_driver = other_driver) THEN
        RAISE EXCEPTION 'label "%" is compared with itself: both sides would be the same runs', base
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'To compare a label''s runs of two drivers, pass two different drivers as base_driver => and other_driver =>;'
                         || ' bench_protocol(label) compares its runs in-server with those over the wire.';
    END IF;

    -- a side without a chosen driver: one driver per column and workload
    WITH cells AS (
        SELECT s.side, s.label, r.dbms, r.workload, array_agg(DISTINCT r.driver ORDER BY r.driver) AS drivers
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.scoped_runs() r ON r.label = s.label AND r.phase = check_drivers.phase
        WHERE s.driver IS NULL
        GROUP BY s.side, s.label, r.dbms, microbench.run_column(r.dbms, r.driver, by_path), r.workload
    )
    SELECT c.label, c.dbms, count(*) OVER (PARTITION BY c.side, c.dbms) AS workloads,
           c.workload AS example, c.drivers
    INTO bad
    FROM cells c
    WHERE cardinality(c.drivers) > 1
    ORDER BY c.side, microbench.dbms_order(c.dbms), c.workload
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'label "%" has % runs of more than one driver (%) in % workload(s), e.g. %',
                        bad.label, bad.dbms, array_to_string(bad.drivers, ', '), bad.workloads, bad.example
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = CASE WHEN by_path
                                THEN 'Runs of these drivers would be one column of the report: a column is the runs of one driver.'
                                ELSE 'With a driver chosen for one side, a side is the runs of one driver: runs in-server and runs over the wire together would make what the protocol path costs look like a difference.' END,
                  HINT = format('Pass driver => %s to compare one driver''s runs, or base_driver => and other_driver => to compare two drivers%s.',
                                (SELECT string_agg(quote_literal(d), ' or ' ORDER BY d) FROM unnest(bad.drivers) d),
                                CASE WHEN NOT by_path AND bad.dbms = 'postgres' AND bad.drivers = ARRAY['extension', 'pgsql']
                                     THEN '; with no driver at all, each path is a column of its own (pg, pg-wire)'
                                     ELSE '' END);
    END IF;

    -- sides not both chosen: in each DBMS and workload they share a driver
    WITH cells AS (
        SELECT s.side, r.dbms, r.workload, array_agg(DISTINCT r.driver ORDER BY r.driver) AS drivers
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.scoped_runs() r ON r.label = s.label AND r.phase = check_drivers.phase
                              AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE base_driver IS NULL OR other_driver IS NULL
        GROUP BY s.side, r.dbms, r.workload
    )
    SELECT b.dbms, count(*) AS workloads, min(b.workload) AS example,
           array_to_string(b.drivers, ', ') AS base_runs_drivers, array_to_string(o.drivers, ', ') AS other_runs_drivers,
           b.drivers[1] AS base_runs_driver, o.drivers[1] AS other_runs_driver
    INTO bad
    FROM cells b
    JOIN cells o ON o.side = 'other' AND o.dbms = b.dbms AND o.workload = b.workload
    WHERE b.side = 'base' AND NOT b.drivers && o.drivers
    GROUP BY b.dbms, b.drivers, o.drivers
    ORDER BY microbench.dbms_order(b.dbms), count(*) DESC
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the % runs of label "%" are over driver % and those of label "%" over driver % in % workload(s), e.g. %',
                        bad.dbms, base, bad.base_runs_drivers, other, bad.other_runs_drivers, bad.workloads, bad.example
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A ratio across drivers measures the protocol path as well as the difference between the labels.',
                  HINT = format('Pass base_driver => %L and other_driver => %L to compare them all the same.',
                                bad.base_runs_driver, bad.other_runs_driver);
    END IF;

    -- two drivers chosen: a DBMS that both sides ran over them
    IF base_driver <> other_driver
       AND EXISTS (SELECT 1 FROM microbench.scoped_runs() r
                   WHERE r.label = base AND r.phase = check_drivers.phase AND r.driver = base_driver)
       AND EXISTS (SELECT 1 FROM microbench.scoped_runs() r
                   WHERE r.label = other AND r.phase = check_drivers.phase AND r.driver = other_driver)
       AND NOT EXISTS (SELECT 1 FROM microbench.scoped_runs() b
                       JOIN microbench.scoped_runs() o ON o.dbms = b.dbms AND o.label = other
                                             AND o.phase = check_drivers.phase AND o.driver = other_driver
                       WHERE b.label = base AND b.phase = check_drivers.phase AND b.driver = base_driver) THEN
        RAISE EXCEPTION 'drivers % (label "%") and % (label "%") drive no DBMS in common: no cell of the report would have both sides',
                        base_driver, base, other_driver, other
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Postgres runs are over driver extension (in-server) or pgsql (over the wire), MySQL and MariaDB runs over driver mysql.';
    END IF;
    RETURN true;
END
$$;

-- Counted instructions of one comparison come from one counter: valgrind
-- counts the user-mode instructions of a simulated CPU, perf_event the
-- real CPU's, kernel included where allowed; a ratio across the two
-- measures the counters.  Refuses a comparison whose runs of one report
-- column (the sides' runs, of the drivers chosen; run_column) hold counts
-- of more than one (perf_event or valgrind's tool and version); returns
-- true, so that a query can be gated on it.
CREATE OR REPLACE FUNCTION microbench.check_counters(base text, other text, phase text,
                                                     base_driver text DEFAULT NULL,
                                                     other_driver text DEFAULT NULL)
RETURNS boolean LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    mixed text;
BEGIN
    -- per column: a cell compares one column's runs, so Postgres counted by
    -- cachegrind beside MariaDB counted by callgrind is one report
    SELECT string_agg(format('%s (%s)', d.col, array_to_string(d.counters, ', ')), '; ' ORDER BY d.col) INTO mixed
    FROM (SELECT microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL) AS col,
                 array_agg(DISTINCT r.instructions_counter ORDER BY r.instructions_counter) AS counters
          FROM (VALUES (base, base_driver), (other, other_driver)) AS s(label, driver)
          JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
          WHERE r.phase = check_counters.phase
            AND r.instructions IS NOT NULL AND r.instructions_counter IS NOT NULL
          GROUP BY 1) d
    WHERE cardinality(d.counters) > 1;
    IF mixed IS NOT NULL THEN
        RAISE EXCEPTION 'the runs of labels "%" and "%" counted the instructions of one DBMS with more than one counter: %',
                        base, other, mixed
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'Counts of two counters differ by what they count, not by the builds.',
                  HINT = 'Compare the runs of one counter: put each in its own results database, or give them other labels.';
    END IF;
    RETURN true;
END
$$;
