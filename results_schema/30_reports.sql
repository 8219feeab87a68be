-- 30_reports.sql — relative-QPS reports over microbench.runs.
--
-- The user's deliverable is a table of QPS(other build) / QPS(base build)
-- per DBMS and microbenchmark, in the catalog's groups and order, laid out
-- as in the gcc-vs-clang report.  Everything here is plain SQL over
-- microbench.runs and microbench.workloads (20_catalog.sql), so it works in
-- a results database without the extension.
--
-- Verdicts: a cell is the ratio of the two labels' geometric mean QPS, and
-- it is called a difference only when microbench.compare() finds it
-- significant: its confidence interval (Welch, on log QPS, from the runs or
-- from the per-second samples inside them) excludes 1 after adjusting for
-- the number of cells, and the change is at least a threshold (2%).  Every
-- other cell is marked "~".  Under the table, warnings say when the
-- machine's speed, a trend over rounds or the state of the data may have
-- made a ratio wrong (compare_warnings).  docs/methodology.md explains.
--
-- Drivers: a label can hold Postgres runs in-server (driver extension) and
-- over the wire (pgsql), whose QPS differ by the protocol path, not by the
-- build.  A side of a comparison is the runs of one label and one driver,
-- chosen with driver, base_driver and other_driver; a comparison that does
-- not say which runs it means is refused rather than pooled
-- (check_drivers), and bench_protocol compares a label's two drivers.

-- the short column names of the report, in its column order
CREATE OR REPLACE FUNCTION microbench.dbms_short(dbms text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT CASE dbms WHEN 'postgres' THEN 'pg' WHEN 'mysql' THEN 'my' WHEN 'mariadb' THEN 'ma' END $$;

CREATE OR REPLACE FUNCTION microbench.dbms_order(dbms text)
RETURNS integer LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT CASE dbms WHEN 'postgres' THEN 1 WHEN 'mysql' THEN 2 WHEN 'mariadb' THEN 3 END $$;

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
        ('qps', 'queries/s', false, 'queries per second, BEGIN and COMMIT counted'),
        ('tps', 'events/s', false, 'events (transactions) per second'),
        ('rows_per_second', 'rows/s', false, 'rows read per second (scan)'),
        ('lat_avg_ms', 'ms', true, 'mean event latency'),
        ('lat_p95_ms', 'ms', true, '95th percentile event latency'),
        ('lat_p99_ms', 'ms', true, '99th percentile event latency'),
        ('lat_max_ms', 'ms', true, 'longest event'),
        ('cpu_per_query', 'us', true, 'CPU (user + system) of the processes that ran the statements, per query'),
        ('cs_per_query', 'switches', true, 'context switches (voluntary + involuntary) of those processes, per query'),
        ('wal_bytes_per_query', 'bytes', true, 'WAL bytes written per query'),
        ('wal_fpi_per_query', 'pages', true, 'WAL full-page images per query'),
        ('buffer_hits_per_query', 'blocks', true, 'shared buffer hits per query'),
        ('buffer_reads_per_query', 'blocks', true, 'shared buffers read in per query'),
        ('buffers_dirtied_per_query', 'blocks', true, 'shared buffers dirtied per query'),
        ('buffers_written_per_query', 'blocks', true, 'shared buffers written out by the clients per query'),
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

-- The value of a named metric in a run; NULL for a name it does not know or
-- a figure the run could not count.  The one definition of every metric:
-- the reports and microbench.run_costs use it.
CREATE OR REPLACE FUNCTION microbench.metric_value(r microbench.runs, metric text)
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE metric
        WHEN 'qps' THEN r.qps
        WHEN 'tps' THEN r.tps
        WHEN 'lat_avg_ms' THEN r.lat_avg_ms
        WHEN 'lat_p95_ms' THEN r.lat_p95_ms
        WHEN 'lat_p99_ms' THEN r.lat_p99_ms
        WHEN 'lat_max_ms' THEN r.lat_max_ms
        WHEN 'rows_per_second' THEN r.rows_per_second
        WHEN 'ipc' THEN r.instructions::double precision / nullif(r.cycles, 0)
        WHEN 'host_cpu_busy_pct' THEN 100 * (r.host_cpu_user_seconds + r.host_cpu_system_seconds) / nullif(host.total, 0)
        WHEN 'host_cpu_iowait_pct' THEN 100 * r.host_cpu_iowait_seconds / nullif(host.total, 0)
        ELSE per_query.amount / nullif(r.queries, 0)
    END
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
FROM microbench.runs r;

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

-- The line under a report of any metric but QPS: what the ratio means.
CREATE OR REPLACE FUNCTION microbench.metric_caption(metric text, base text, other text, prefix text)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN metric = 'qps' THEN '' ELSE
        E'\n\n' || prefix || format('metric: %s (%s, %s); cells are %s(%s) / %s(%s), so above 1 means %s',
                                     m.metric, m.description, m.unit, m.metric, other, m.metric, base,
                                     CASE WHEN m.lower_is_better THEN other || ' costs more'
                                          ELSE other || ' is higher' END)
    END
    FROM microbench.metrics() m WHERE m.metric = metric_caption.metric
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
FROM microbench.runs
GROUP BY dbms, label, workload, phase, driver;

COMMENT ON VIEW microbench.label_stats IS
    'runs per (dbms, label, workload, phase, driver): count, median/min/max QPS and coefficient of variation';

-- A side of a comparison is the runs of one label and one driver, per
-- DBMS and workload: a label's runs in-server and over the wire pooled in
-- one side would show what the protocol path costs as a difference between
-- builds.  base_driver and other_driver choose each side's driver (NULL:
-- whichever its runs have).  Rather than guess, this refuses a comparison
-- in which that does not keep the drivers apart, in any DBMS and workload:
--   - a side without a chosen driver has runs of more than one driver;
--   - neither side has a chosen driver and the two ran over different
--     drivers (a ratio across drivers is asked for by naming both);
--   - a label compared with itself without two different drivers (both
--     sides would be the same runs).
-- Returns true, so that a query can be gated on it.
CREATE OR REPLACE FUNCTION microbench.check_drivers(base text, other text, phase text,
                                                    base_driver text, other_driver text)
RETURNS boolean LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad record;
BEGIN
    IF base = other AND (base_driver IS NULL OR other_driver IS NULL OR base_driver = other_driver) THEN
        RAISE EXCEPTION 'label "%" is compared with itself: both sides would be the same runs', base
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'To compare a label''s runs of two drivers, pass two different drivers as base_driver => and other_driver =>;'
                         || ' bench_protocol(label) compares its runs in-server with those over the wire.';
    END IF;

    -- a side without a chosen driver: one driver per DBMS and workload
    WITH cells AS (
        SELECT s.side, s.label, r.dbms, r.workload, array_agg(DISTINCT r.driver ORDER BY r.driver) AS drivers
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.runs r ON r.label = s.label AND r.phase = check_drivers.phase
        WHERE s.driver IS NULL
        GROUP BY s.side, s.label, r.dbms, r.workload
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
                  DETAIL = 'A side of a comparison is the runs of one label and one driver: runs in-server and runs over the wire together would make what the protocol path costs look like a difference.',
                  HINT = format('Pass driver => %s to compare one driver''s runs, or base_driver => and other_driver => to compare two drivers.',
                                (SELECT string_agg(quote_literal(d), ' or ' ORDER BY d) FROM unnest(bad.drivers) d));
    END IF;

    -- neither side has a chosen driver: both ran over the same one
    WITH cells AS (
        SELECT s.side, r.dbms, r.workload, min(r.driver) AS driver
        FROM (VALUES ('base', base), ('other', other)) AS s(side, label)
        JOIN microbench.runs r ON r.label = s.label AND r.phase = check_drivers.phase
        WHERE base_driver IS NULL AND other_driver IS NULL
        GROUP BY s.side, r.dbms, r.workload
    )
    SELECT b.dbms, count(*) AS workloads, min(b.workload) AS example, b.driver AS base_runs_driver,
           o.driver AS other_runs_driver
    INTO bad
    FROM cells b
    JOIN cells o ON o.side = 'other' AND o.dbms = b.dbms AND o.workload = b.workload
    WHERE b.side = 'base' AND b.driver <> o.driver
    GROUP BY b.dbms, b.driver, o.driver
    ORDER BY microbench.dbms_order(b.dbms), count(*) DESC
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the % runs of label "%" are over driver % and those of label "%" over driver % in % workload(s), e.g. %',
                        bad.dbms, base, bad.base_runs_driver, other, bad.other_runs_driver, bad.workloads, bad.example
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A ratio across drivers measures the protocol path as well as the difference between the labels.',
                  HINT = format('Pass base_driver => %L and other_driver => %L to compare them all the same.',
                                bad.base_runs_driver, bad.other_runs_driver);
    END IF;
    RETURN true;
END
$$;

-- The figures of one side of a comparison — one label's runs of one
-- workload over one driver — on a log scale, where a ratio is a
-- difference: the runs' mean and variance of log(value), and, for QPS,
-- what the per-second samples inside the runs say: the pooled within-run
-- variance of log QPS and its lag-1 autocorrelation (neighbouring seconds
-- are alike, so n samples carry less than n samples' worth of
-- information).  side is 'base' or 'other', not the label, so that a label
-- compared with itself over two drivers stays two sides; check_drivers()
-- refuses what would pool two drivers in one side.
DROP FUNCTION IF EXISTS microbench.side_stats(text, text, text, text);
CREATE OR REPLACE FUNCTION microbench.side_stats(base text, other text, metric text, phase text,
                                                 base_driver text DEFAULT NULL,
                                                 other_driver text DEFAULT NULL)
RETURNS TABLE (side text, dbms text, label text, driver text, workload text, runs integer,
               centre double precision, lo double precision, hi double precision,
               mean_log double precision, var_log double precision, samples integer,
               within_var double precision, within_rho double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH run_values AS (
        SELECT s.side, r.run_id, r.dbms, r.label, r.driver, r.workload, microbench.metric_value(r, metric) AS v,
               CASE WHEN metric = 'qps' THEN r.qps_per_second END AS per_second
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.runs r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE r.phase = side_stats.phase
          AND microbench.check_drivers(base, other, side_stats.phase, base_driver, other_driver)
    ), seconds AS (
        -- log QPS of each second, a stalled second (0 queries) taken as 1 query/s
        SELECT v.run_id, s.ord, ln(greatest(s.q, 1)) AS l
        FROM run_values v, unnest(v.per_second) WITH ORDINALITY AS s(q, ord)
        WHERE v.v > 0
    ), deviations AS (
        SELECT s.run_id, s.ord, s.l - avg(s.l) OVER (PARTITION BY s.run_id) AS d
        FROM seconds s
    ), within_run AS (
        SELECT d.run_id, count(*) AS n, sum(d.d * d.d) AS ss,
               sum(d.d * d.next_d) AS lag1
        FROM (SELECT dv.*, lead(dv.d) OVER (PARTITION BY dv.run_id ORDER BY dv.ord) AS next_d
              FROM deviations dv) d
        GROUP BY d.run_id
    )
    SELECT v.side, v.dbms, v.label, v.driver, v.workload, count(*)::integer,
           -- the geometric mean when every value is positive (the centre the
           -- interval is built around), else the median
           CASE WHEN min(v.v) > 0 THEN exp(avg(ln(v.v)) FILTER (WHERE v.v > 0))
                ELSE percentile_cont(0.5) WITHIN GROUP (ORDER BY v.v) END,
           min(v.v), max(v.v),
           avg(ln(v.v)) FILTER (WHERE v.v > 0),
           var_samp(ln(v.v)) FILTER (WHERE v.v > 0),
           coalesce(sum(w.n), 0)::integer,
           CASE WHEN sum(w.n) > count(w.run_id) THEN sum(w.ss) / (sum(w.n) - count(w.run_id)) END,
           CASE WHEN sum(w.ss) > 0 THEN least(greatest(sum(w.lag1) / sum(w.ss), 0), 0.95) END
    FROM run_values v
    LEFT JOIN within_run w ON w.run_id = v.run_id
    WHERE v.v IS NOT NULL
    GROUP BY v.side, v.dbms, v.label, v.driver, v.workload
$$;

-- The comparison behind every report: one row per DBMS and catalog
-- workload that either side ran.  A side is a label's runs over one driver:
-- driver chooses the driver of both sides, base_driver and other_driver
-- that of one (NULL: whichever driver its runs have, which must be one per
-- DBMS and workload, the same on both sides; check_drivers()).
--   ratio        other_value / base_value, the report's cell, where a
--                side's value is the geometric mean of its runs (the
--                centre of the interval; the median if a value is 0);
--   ci_low/high  the confidence interval of the ratio (Welch's interval of
--                the difference of mean log values, exponentiated);
--   p_value      Welch's two-sided test of "no difference";
--   q_value      p adjusted for the number of cells compared at once
--                (Benjamini-Hochberg), so a report of 64 cells does not
--                show a few differences by chance alone;
--   significant  q_value <= 1 - confidence and a change of at least the
--                threshold;
--   method       'runs': each side's uncertainty from its runs (3 or more
--                each); 'seconds': a side with fewer runs also uses the
--                per-second samples inside them (QPS only), whichever of
--                the two says more uncertain; NULL: no interval (one run
--                per side and no samples to use);
--   base_driver_used, other_driver_used  the driver of each side's runs.
-- docs/methodology.md says why these choices.
DROP FUNCTION IF EXISTS microbench.compare(text, text, text, text);
DROP FUNCTION IF EXISTS microbench.compare(text, text, text, text, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.compare(base text, other text, metric text DEFAULT 'qps',
                                              phase text DEFAULT 'post',
                                              confidence double precision DEFAULT 0.95,
                                              threshold double precision DEFAULT 0.02,
                                              driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                              other_driver text DEFAULT NULL)
RETURNS TABLE (dbms text, workload text, grp text, group_order integer, report_order integer,
               base_runs integer, other_runs integer, base_value double precision,
               other_value double precision, ratio double precision,
               base_spread double precision, other_spread double precision,
               noise double precision, within_noise boolean,
               ci_low double precision, ci_high double precision, p_value double precision,
               q_value double precision, significant boolean, method text,
               base_driver_used text, other_driver_used text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH stats AS (
        SELECT s.*,
               CASE WHEN s.runs > 1 AND s.centre > 0 THEN (s.hi - s.lo) / s.centre END AS spread,
               -- the uncertainty of the side's mean log value, and its degrees of freedom
               CASE WHEN s.runs >= 3 THEN s.var_log / s.runs END AS se2_runs,
               CASE WHEN s.within_var IS NOT NULL
                         AND s.samples * (1 - s.within_rho) / (1 + s.within_rho) >= 2
                    THEN s.within_var / (s.samples * (1 - s.within_rho) / (1 + s.within_rho)) END AS se2_seconds,
               s.samples * (1 - s.within_rho) / (1 + s.within_rho) AS samples_eff
        FROM microbench.side_stats(base, other, metric, phase,
                                   coalesce(compare.base_driver, compare.driver),
                                   coalesce(compare.other_driver, compare.driver)) s
    ), sides AS (
        SELECT st.*,
               CASE WHEN st.runs >= 3 THEN st.se2_runs
                    WHEN st.runs = 2 AND st.var_log >= coalesce(st.se2_seconds, 0) * 2 THEN st.var_log / 2
                    ELSE st.se2_seconds END AS se2,
               CASE WHEN st.runs >= 3 THEN st.runs - 1
                    WHEN st.runs = 2 AND st.var_log >= coalesce(st.se2_seconds, 0) * 2 THEN 1
                    ELSE st.samples_eff - 1 END AS df,
               st.runs < 3 AS used_seconds
        FROM stats st
    ), pairs AS (
        SELECT coalesce(b.dbms, o.dbms) AS dbms, coalesce(b.workload, o.workload) AS workload,
               b.runs AS base_runs, o.runs AS other_runs, b.centre AS base_value, o.centre AS other_value,
               b.spread AS base_spread, o.spread AS other_spread,
               o.mean_log - b.mean_log AS diff,
               b.se2 + o.se2 AS se2,
               -- Welch-Satterthwaite
               (b.se2 + o.se2) ^ 2 / nullif(b.se2 ^ 2 / b.df + o.se2 ^ 2 / o.df, 0) AS df,
               b.used_seconds OR o.used_seconds AS used_seconds,
               b.driver AS base_driver, o.driver AS other_driver
        FROM (SELECT * FROM sides WHERE side = 'base') b
        FULL JOIN (SELECT * FROM sides WHERE side = 'other') o
               ON o.dbms = b.dbms AND o.workload = b.workload
    ), tested AS (
        SELECT p.*,
               CASE WHEN p.base_value > 0 THEN p.other_value / p.base_value END AS ratio,
               CASE WHEN p.se2 > 0 AND p.df > 0 THEN microbench.t_quantile((1 + confidence) / 2, p.df) * sqrt(p.se2) END AS half_width,
               CASE WHEN p.se2 > 0 AND p.df > 0 THEN microbench.beta_inc(p.df / 2, 0.5, p.df / (p.df + p.diff ^ 2 / p.se2)) END AS p_value
        FROM pairs p
    ), adjusted AS (
        SELECT t.*,
               least(1, min(t.p_value * t.tests / t.rank)
                            OVER (ORDER BY t.p_value DESC NULLS FIRST ROWS UNBOUNDED PRECEDING)) AS q_value
        FROM (SELECT t0.*, rank() OVER (ORDER BY t0.p_value) AS rank,
                     count(t0.p_value) OVER () AS tests
              FROM tested t0) t
    )
    SELECT a.dbms, a.workload, w.grp, w.group_order, w.report_order,
           a.base_runs, a.other_runs, a.base_value, a.other_value, a.ratio,
           a.base_spread, a.other_spread, greatest(a.base_spread, a.other_spread),
           CASE WHEN a.ratio IS NOT NULL THEN NOT sig.significant END,
           exp(a.diff - a.half_width), exp(a.diff + a.half_width),
           a.p_value, CASE WHEN a.p_value IS NOT NULL THEN a.q_value END, sig.significant,
           CASE WHEN a.half_width IS NULL THEN NULL WHEN a.used_seconds THEN 'seconds' ELSE 'runs' END,
           a.base_driver, a.other_driver
    FROM adjusted a
    JOIN microbench.workloads w ON w.name = a.workload
    CROSS JOIN LATERAL (SELECT coalesce(a.q_value <= 1 - confidence
                                        AND abs(a.ratio - 1) >= threshold, false) AS significant) sig
    ORDER BY microbench.dbms_order(a.dbms), w.report_order
$$;

COMMENT ON FUNCTION microbench.compare(text, text, text, text, double precision, double precision, text, text, text) IS
    'per dbms and workload: runs, geometric means, ratio other/base, its confidence interval, p-value (raw and adjusted for the cells compared), whether it is a significant difference, how the interval was found, and each side''s driver';

-- One report cell: the ratio with two decimals, "~" when it is not a
-- significant difference, "-" when missing.
CREATE OR REPLACE FUNCTION microbench.report_cell(ratio double precision, within_noise boolean)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN ratio IS NULL THEN '-'
                ELSE to_char(ratio, 'FM999999999990.00') || CASE WHEN within_noise THEN '~' ELSE '' END END
$$;

-- The grid every format prints: one row per (column, workload) with the
-- cell text and its statistics; columns are the DBMS (two-label report) or
-- the labels (relative series).  Rows exist for every catalog workload of
-- a group in which some column has data.  base_driver and other_driver
-- choose the sides' drivers as in compare(); a label column is named by
-- its side ("gcc over pgsql") when other_driver is chosen.
DROP FUNCTION IF EXISTS microbench.report_grid(text, text[], text, text, boolean);
DROP FUNCTION IF EXISTS microbench.report_grid(text, text[], text, text, boolean, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.report_grid(base text, others text[], metric text, phase text,
                                                  by_label boolean,
                                                  confidence double precision DEFAULT 0.95,
                                                  threshold double precision DEFAULT 0.02,
                                                  base_driver text DEFAULT NULL,
                                                  other_driver text DEFAULT NULL)
RETURNS TABLE (column_order integer, column_name text, dbms text, grp text, group_order integer,
               report_order integer, workload text, cell text, ratio double precision,
               within_noise boolean, repeated boolean, ci_low double precision,
               ci_high double precision, p_value double precision, significant boolean,
               method text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH cmp AS (
        SELECT o.ord, o.label, c.*
        FROM unnest(others) WITH ORDINALITY AS o(label, ord),
             LATERAL microbench.compare(base, o.label, metric, phase, confidence, threshold,
                                        base_driver => report_grid.base_driver,
                                        other_driver => report_grid.other_driver) c
    ), cols AS (
        SELECT DISTINCT
               CASE WHEN by_label THEN ord::integer ELSE microbench.dbms_order(c.dbms) END AS column_order,
               CASE WHEN by_label THEN microbench.side_name(c.label, report_grid.other_driver)
                    ELSE microbench.dbms_short(c.dbms) END AS column_name,
               CASE WHEN by_label THEN c.label ELSE c.dbms END AS key,
               c.dbms
        FROM cmp c
    ), groups AS (
        SELECT DISTINCT c.group_order FROM cmp c
    )
    SELECT cols.column_order, cols.column_name, cols.dbms, w.grp, w.group_order, w.report_order,
           w.name, microbench.report_cell(c.ratio, c.within_noise), c.ratio, c.within_noise,
           coalesce(c.base_runs > 1 OR c.other_runs > 1, false),
           c.ci_low, c.ci_high, c.p_value, c.significant, c.method
    FROM cols
    CROSS JOIN microbench.workloads w
    JOIN groups g ON g.group_order = w.group_order
    LEFT JOIN cmp c ON c.workload = w.name AND c.dbms = cols.dbms
                   AND (NOT by_label OR c.label = cols.key)
$$;

-- What the columns and marks of a report mean, said once under it: the
-- DBMS names of its columns, what a cell divides by what (cells, e.g.
-- "QPS(clang) / QPS(gcc)"), how runs were combined and what "~" means.
DROP FUNCTION IF EXISTS microbench.report_footer(boolean, text);
DROP FUNCTION IF EXISTS microbench.report_footer(jsonb, text, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.report_footer(grid_rows jsonb, prefix text,
                                                    confidence double precision DEFAULT 0.95,
                                                    threshold double precision DEFAULT 0.02,
                                                    cells text DEFAULT NULL)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT E'\n\n' || prefix || string_agg(d.legend, ', ' ORDER BY microbench.dbms_order(d.dbms))
           || E'\n' || prefix || 'cells: ' || coalesce(cells || ', ', '')
           || 'from the geometric mean of each label''s runs; - means no data'
           || E'\n' || prefix || '~: not a significant difference: the ' || round((confidence * 100)::numeric, 1)::float8
           || '% interval includes 1 (adjusted for the number of cells), the change is under '
           || round((threshold * 100)::numeric, 1)::float8 || '%, or there are too few runs to tell'
    FROM (SELECT DISTINCT e->>'dbms' AS dbms,
                 CASE e->>'dbms' WHEN 'postgres' THEN 'pg: Postgres' WHEN 'mysql' THEN 'my: MySQL'
                                 WHEN 'mariadb' THEN 'ma: MariaDB' END AS legend
          FROM jsonb_array_elements(grid_rows) e WHERE e->>'dbms' IS NOT NULL) d
$$;

-- A cell of the markdown report: the text cell and, when there is one, its interval.
CREATE OR REPLACE FUNCTION microbench.report_cell_interval(cell text, ci_low double precision,
                                                           ci_high double precision)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT cell || CASE WHEN ci_low IS NULL THEN '' ELSE
        ' [' || to_char(ci_low, 'FM999999999990.00') || ', ' || to_char(ci_high, 'FM999999999990.00') || ']' END
$$;

DROP FUNCTION IF EXISTS microbench.report_render(jsonb, text);
DROP FUNCTION IF EXISTS microbench.report_render(jsonb, text, double precision, double precision);
-- Lay a grid out as text (the seed's layout), markdown or CSV.  Text
-- columns are 8 characters wide as in the seed, wider when a column's name
-- (a label, in a series) needs it.
CREATE OR REPLACE FUNCTION microbench.report_render(grid_rows jsonb, format text,
                                                   confidence double precision DEFAULT 0.95,
                                                   threshold double precision DEFAULT 0.02,
                                                   cells text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    result  text := '';
    g       record;
    w       record;
    header  text;
    width   integer;
BEGIN
    IF format NOT IN ('text', 'markdown', 'csv') THEN
        RAISE EXCEPTION 'unknown report format "%"', format
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Use text, markdown, csv or svg.';
    END IF;
    SELECT greatest(8, max(length(e->>'column_name')) + 2) INTO width
    FROM jsonb_array_elements(grid_rows) e;

    IF format = 'csv' THEN
        SELECT 'group,workload,' || string_agg(format('%s,%s_ci_low,%s_ci_high,%s_significant',
                                                      c.column_name, c.column_name, c.column_name, c.column_name),
                                               ',' ORDER BY c.column_order)
        INTO header
        FROM (SELECT DISTINCT (e->>'column_order')::int AS column_order, e->>'column_name' AS column_name
              FROM jsonb_array_elements(grid_rows) e) c;
        result := header;
        FOR w IN
            SELECT e->>'grp' AS grp, e->>'workload' AS workload,
                   string_agg(concat_ws(',',
                                  coalesce(to_char((e->>'ratio')::float8, 'FM999999999990.00'), ''),
                                  coalesce(to_char((e->>'ci_low')::float8, 'FM999999999990.0000'), ''),
                                  coalesce(to_char((e->>'ci_high')::float8, 'FM999999999990.0000'), ''),
                                  CASE WHEN e->>'ratio' IS NULL THEN ''
                                       ELSE coalesce(e->>'significant', 'false') END),
                              ',' ORDER BY (e->>'column_order')::int) AS cells
            FROM jsonb_array_elements(grid_rows) e
            GROUP BY 1, 2, (e->>'group_order')::int, (e->>'report_order')::int
            ORDER BY (e->>'group_order')::int, (e->>'report_order')::int
        LOOP
            result := result || E'\n' || w.grp || ',' || w.workload || ',' || w.cells;
        END LOOP;
        RETURN result;
    END IF;

    FOR g IN
        SELECT DISTINCT (e->>'group_order')::int AS group_order, e->>'grp' AS grp
        FROM jsonb_array_elements(grid_rows) e ORDER BY 1
    LOOP
        IF result <> '' THEN
            result := result || E'\n\n';
        END IF;
        SELECT CASE format
                   WHEN 'text' THEN string_agg(rpad(c.column_name, width), '' ORDER BY c.column_order)
                   ELSE '| ' || string_agg(c.column_name, ' | ' ORDER BY c.column_order) || E' | microbenchmark |\n|'
                        || repeat('---:|', count(*)::int) || '---|'
               END
        INTO header
        FROM (SELECT DISTINCT (e->>'column_order')::int AS column_order, e->>'column_name' AS column_name
              FROM jsonb_array_elements(grid_rows) e WHERE (e->>'group_order')::int = g.group_order) c;
        result := result || CASE format WHEN 'text' THEN '-- ' ELSE '### ' END || g.grp
                  || E'\n' || rtrim(header);
        FOR w IN
            SELECT e->>'workload' AS workload,
                   CASE format
                       WHEN 'text' THEN string_agg(rpad(e->>'cell', width), '' ORDER BY (e->>'column_order')::int)
                       ELSE '| ' || string_agg(microbench.report_cell_interval(e->>'cell', (e->>'ci_low')::float8,
                                                                               (e->>'ci_high')::float8),
                                               ' | ' ORDER BY (e->>'column_order')::int) || ' | '
                   END AS cells
            FROM jsonb_array_elements(grid_rows) e
            WHERE (e->>'group_order')::int = g.group_order
            GROUP BY e->>'workload', (e->>'report_order')::int
            ORDER BY (e->>'report_order')::int
        LOOP
            result := result || E'\n' || w.cells || w.workload || CASE format WHEN 'text' THEN '' ELSE ' |' END;
        END LOOP;
    END LOOP;
    RETURN result || microbench.report_footer(grid_rows, CASE format WHEN 'text' THEN '-- ' ELSE '' END,
                                              confidence, threshold, cells);
END
$$;

-- Mann-Whitney's rank test of two samples, normal approximation: the
-- two-sided p-value that they come from one distribution.  For the drift
-- warnings, whose samples are a few dozen canary timings or steal
-- fractions with outliers a t-test would be thrown by.
CREATE OR REPLACE FUNCTION microbench.rank_test_p(a double precision[], b double precision[])
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT x, 1 AS side FROM unnest(a) x WHERE x IS NOT NULL
        UNION ALL
        SELECT x, 2 FROM unnest(b) x WHERE x IS NOT NULL
    ), ranked AS (
        -- average ranks for ties
        SELECT side, (rank() OVER (ORDER BY x) + rank() OVER (ORDER BY x DESC) * -1
                      + count(*) OVER () + 1) / 2.0 AS r
        FROM v
    ), u AS (
        SELECT count(*) FILTER (WHERE side = 1) AS n1, count(*) FILTER (WHERE side = 2) AS n2,
               sum(r) FILTER (WHERE side = 1) AS r1
        FROM ranked
    )
    SELECT CASE WHEN n1 >= 3 AND n2 >= 3 THEN
        2 * (1 - microbench.normal_cdf(abs(r1 - n1 * (n1 + 1) / 2.0 - n1 * n2 / 2.0)
                                       / sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)))
    END
    FROM u
$$;

-- What can make the ratios of a comparison wrong although each run was
-- measured right, one line per finding and DBMS:
--   host-speed  the host-speed canary (or steal time) differed between the
--               labels' runs: the machine was not the same for both;
--   trend       a label's QPS moved round after round in one direction,
--               over all its workloads (pooled regression of log QPS on the
--               round, each workload centred on its own mean);
--   data-state  the two labels' runs of a workload read data in a
--               different state (sizes, dead rows, visibility, undo
--               history beyond state_threshold).
-- A finding needs p < 0.01 and a size of at least the threshold, so that
-- warnings are rare when nothing is wrong.  The sides and their drivers are
-- those of compare(), and the messages name a side by label and driver
-- when a driver was chosen ("gcc over pgsql").
DROP FUNCTION IF EXISTS microbench.compare_warnings(text, text, text, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.compare_warnings(base text, other text, phase text DEFAULT 'post',
                                                       threshold double precision DEFAULT 0.02,
                                                       state_threshold double precision DEFAULT 0.10,
                                                       driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH sides AS (
        SELECT s.side, s.label, s.driver, microbench.side_name(s.label, s.driver) AS name
        FROM (VALUES ('base', base, coalesce(compare_warnings.base_driver, compare_warnings.driver)),
                     ('other', other, coalesce(compare_warnings.other_driver, compare_warnings.driver)))
             AS s(side, label, driver)
    ), names AS (
        SELECT max(s.name) FILTER (WHERE s.side = 'base') AS base_name,
               max(s.name) FILTER (WHERE s.side = 'other') AS other_name
        FROM sides s
    ), runs AS (
        SELECT s.side, s.name, r.*, ln(r.qps) AS l,
               r.host_cpu_steal_seconds
                   / nullif(r.host_cpu_user_seconds + r.host_cpu_system_seconds + r.host_cpu_iowait_seconds
                            + r.host_cpu_idle_seconds + coalesce(r.host_cpu_steal_seconds, 0), 0) AS steal
        FROM sides s
        JOIN microbench.runs r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE r.phase = compare_warnings.phase AND r.qps > 0
          AND microbench.check_drivers(base, other, compare_warnings.phase,
                                       coalesce(compare_warnings.base_driver, compare_warnings.driver),
                                       coalesce(compare_warnings.other_driver, compare_warnings.driver))
    ), canary AS (
        SELECT r.dbms,
               array_agg(c.us) FILTER (WHERE r.side = 'base') AS b,
               array_agg(c.us) FILTER (WHERE r.side = 'other') AS o
        FROM runs r, LATERAL (VALUES (r.canary_before_us), (r.canary_after_us)) c(us)
        WHERE c.us > 0
        GROUP BY r.dbms
    ), canary_found AS (
        SELECT c.dbms, 'host-speed'::text AS kind,
               format('%s: the machine ran at a different speed for the two labels: the host-speed canary took %s us (median) in the runs of %s and %s us in those of %s (%s%% %s for %s, p = %s); ratios mix the builds'' difference with the machine''s',
                      microbench.dbms_short(c.dbms), round(m.b::numeric), n.base_name, round(m.o::numeric), n.other_name,
                      round(abs(m.o / m.b - 1)::numeric * 100), CASE WHEN m.o > m.b THEN 'slower' ELSE 'faster' END,
                      n.other_name, to_char(p.p, 'FM0.0000')) AS message
        FROM canary c, names n,
             LATERAL (SELECT (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(c.b) x) AS b,
                             (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(c.o) x) AS o) m,
             LATERAL (SELECT microbench.rank_test_p(c.b, c.o) AS p) p
        WHERE p.p < 0.01 AND abs(m.o / m.b - 1) >= threshold
    ), steal AS (
        SELECT r.dbms,
               avg(r.steal) FILTER (WHERE r.side = 'base') AS b,
               avg(r.steal) FILTER (WHERE r.side = 'other') AS o,
               microbench.rank_test_p(array_agg(r.steal) FILTER (WHERE r.side = 'base'),
                                      array_agg(r.steal) FILTER (WHERE r.side = 'other')) AS p
        FROM runs r
        WHERE r.steal IS NOT NULL
        GROUP BY r.dbms
    ), steal_found AS (
        SELECT s.dbms, 'host-speed'::text,
               format('%s: steal time differed between the two labels: %s%% of the host''s CPU time in the runs of %s, %s%% in those of %s (p = %s)',
                      microbench.dbms_short(s.dbms), round(s.b::numeric * 100, 1), n.base_name,
                      round(s.o::numeric * 100, 1), n.other_name, to_char(s.p, 'FM0.0000'))
        FROM steal s, names n
        WHERE s.p < 0.01 AND abs(s.b - s.o) >= 0.01
    ), rounds AS (
        -- each run's round (its place in time among the side's runs of that
        -- workload); label is the side's name, for the message
        SELECT r.dbms, r.side, r.name AS label, r.workload,
               (row_number() OVER w - 1)::double precision AS round, r.l,
               count(*) OVER (PARTITION BY r.dbms, r.side, r.workload) AS k
        FROM runs r
        WINDOW w AS (PARTITION BY r.dbms, r.side, r.workload ORDER BY r.started_at, r.run_id)
    ), centred AS (
        SELECT c.dbms, c.side, c.label, c.workload, c.k, c.round,
               c.round - avg(c.round) OVER p AS x, c.l - avg(c.l) OVER p AS y
        FROM rounds c
        WHERE c.k >= 2
        WINDOW p AS (PARTITION BY c.dbms, c.side, c.workload)
    ), slopes AS (
        SELECT c.dbms, c.side, c.label, sum(c.x * c.y) / nullif(sum(c.x * c.x), 0) AS slope, sum(c.x * c.x) AS sxx,
               sum(c.y * c.y) AS syy, count(*) AS n, count(DISTINCT c.workload) AS workloads,
               count(DISTINCT c.round) AS rounds
        FROM centred c
        GROUP BY c.dbms, c.side, c.label
    ), round_means AS (
        -- each round's level against the side's mean, over all its workloads
        SELECT c.dbms, c.side, c.round, avg(c.y) AS mean_y, count(*) AS n
        FROM centred c
        GROUP BY c.dbms, c.side, c.round
    ), trend_fit AS (
        SELECT s.*, sqrt(sum((c.y - s.slope * c.x) ^ 2) / nullif(s.n - s.workloads - 1, 0) / s.sxx) AS se,
               -- rounds as a factor: a one-way analysis of variance, which also
               -- sees a level that fell and came back (a neighbour for a while)
               (SELECT sum(m.n * m.mean_y ^ 2) FROM round_means m
                WHERE m.dbms = s.dbms AND m.side = s.side) AS ss_rounds,
               (SELECT string_agg(to_char((exp(m.mean_y) - 1) * 100, 'FMS990') || '%', ' ' ORDER BY m.round)
                FROM round_means m WHERE m.dbms = s.dbms AND m.side = s.side) AS levels,
               (SELECT max(abs(exp(m.mean_y) - 1)) FROM round_means m
                WHERE m.dbms = s.dbms AND m.side = s.side) AS largest
        FROM slopes s JOIN centred c ON c.dbms = s.dbms AND c.side = s.side
        WHERE s.slope IS NOT NULL
        GROUP BY s.dbms, s.side, s.label, s.slope, s.sxx, s.syy, s.n, s.workloads, s.rounds
    ), trend_tests AS (
        SELECT t.*,
               CASE WHEN t.se > 0 AND t.n - t.workloads - 1 >= 1
                    THEN 2 * (1 - microbench.t_cdf(abs(t.slope) / t.se, t.n - t.workloads - 1)) END AS p_trend,
               -- F = (SS_rounds / (R - 1)) / (SS_rest / (N - W - R + 1)), its upper tail by the incomplete beta
               CASE WHEN t.rounds >= 3 AND t.n - t.workloads - t.rounds + 1 >= 1 AND t.syy - t.ss_rounds > 0
                    THEN microbench.beta_inc((t.n - t.workloads - t.rounds + 1) / 2.0, (t.rounds - 1) / 2.0,
                                             (t.syy - t.ss_rounds) / t.syy) END AS p_rounds
        FROM trend_fit t
    ), trend_found AS (
        SELECT t.dbms, 'trend'::text,
               CASE WHEN t.p_trend < 0.01 AND abs(exp(t.slope * (t.rounds - 1)) - 1) >= threshold THEN
                   format('%s: the QPS of %s %s from round to round (%s%% per round over %s rounds, %s workloads, p = %s): the machine or the data changed while it ran',
                          microbench.dbms_short(t.dbms), t.label, CASE WHEN t.slope < 0 THEN 'falls' ELSE 'rises' END,
                          to_char((exp(t.slope) - 1) * 100, 'FMS990.0'), t.rounds, t.workloads, to_char(t.p_trend, 'FM0.0000'))
               ELSE
                   format('%s: the QPS of %s changed from round to round (each round against the mean: %s; %s workloads, p = %s): the machine or the data changed while it ran, and the intervals are wider for it',
                          microbench.dbms_short(t.dbms), t.label, t.levels, t.workloads, to_char(t.p_rounds, 'FM0.0000'))
               END
        FROM trend_tests t
        WHERE (t.p_trend < 0.01 AND abs(exp(t.slope * (t.rounds - 1)) - 1) >= threshold)
           OR (t.p_rounds < 0.01 AND t.largest >= threshold)
    ), states AS (
        -- the median of each fingerprint figure per side and workload
        SELECT r.dbms, r.workload, f.key,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY f.value::double precision) FILTER (WHERE r.side = 'base') AS b,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY f.value::double precision) FILTER (WHERE r.side = 'other') AS o,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY coalesce((r.data_state->>'live_rows')::double precision,
                                                                   (r.data_state->>'rows')::double precision)) AS rows
        FROM runs r, jsonb_each_text(r.data_state) f
        WHERE jsonb_typeof(r.data_state -> f.key) = 'number'
        GROUP BY r.dbms, r.workload, f.key
    ), state_diffs AS (
        SELECT s.*,
               CASE WHEN s.key IN ('dead_rows', 'history_length') THEN abs(s.o - s.b) / greatest(s.rows, 1)
                    WHEN s.key = 'all_visible' THEN abs(s.o - s.b)
                    ELSE abs(s.o - s.b) / greatest(s.b, 1) END AS diff
        FROM states s
        WHERE s.b IS NOT NULL AND s.o IS NOT NULL
    ), state_found AS (
        SELECT d.dbms, 'data-state'::text,
               format('%s: the two labels read data in a different state in %s workload(s), e.g. %s; reload the same data before each label''s runs (microbench-compare does)',
                      microbench.dbms_short(d.dbms), count(DISTINCT d.workload),
                      (array_agg(format('%s: %s %s for %s, %s for %s', d.workload, d.key, round(d.b::numeric, 2)::float8, n.base_name,
                                        round(d.o::numeric, 2)::float8, n.other_name) ORDER BY d.diff DESC))[1])
        FROM state_diffs d, names n
        WHERE d.diff > state_threshold
        GROUP BY d.dbms
    )
    SELECT f.* FROM (
        SELECT * FROM canary_found
        UNION ALL SELECT * FROM steal_found
        UNION ALL SELECT * FROM trend_found
        UNION ALL SELECT * FROM state_found
    ) f
    ORDER BY microbench.dbms_order(f.dbms), f.kind, f.message
$$;

COMMENT ON FUNCTION microbench.compare_warnings(text, text, text, double precision, double precision, text, text, text) IS
    'what may make the ratios of compare(base, other) wrong: the machine''s speed or steal time differed between the labels, a label''s QPS trended over rounds, or the two sides read data in a different state';

-- The warnings under a report, one line each (of one DBMS when only_dbms),
-- for the sides compare() had: base_driver and other_driver as there.
DROP FUNCTION IF EXISTS microbench.warnings_caption(text, text[], text, text, double precision, text);
CREATE OR REPLACE FUNCTION microbench.warnings_caption(base text, others text[], phase text, prefix text,
                                                       threshold double precision, only_dbms text,
                                                       base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(string_agg(E'\n' || prefix || 'warning: ' || w.message, '' ORDER BY o.ord), '')
    FROM unnest(others) WITH ORDINALITY AS o(label, ord),
         LATERAL microbench.compare_warnings(base, o.label, phase, threshold,
                                             base_driver => warnings_caption.base_driver,
                                             other_driver => warnings_caption.other_driver) w
    WHERE only_dbms IS NULL OR w.dbms = only_dbms
$$;

-- How each side's runs were driven, when not with the defaults (prepared
-- statements, no rate or event limit, no reconnects): a line under the
-- report, because such runs measure something else.  drivers[i] is the
-- driver chosen for labels[i] (NULL, or no array: all its runs).
DROP FUNCTION IF EXISTS microbench.options_caption(text[], text, text);
CREATE OR REPLACE FUNCTION microbench.options_caption(labels text[], phase text, prefix text,
                                                      drivers text[] DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH per_label AS (
        SELECT l.label, l.driver, l.ord,
               string_agg(DISTINCT concat_ws(' ',
                   CASE WHEN r.ps_mode <> 'auto' THEN 'ps_mode=' || r.ps_mode END,
                   CASE WHEN r.rate IS NOT NULL THEN 'rate=' || r.rate END,
                   CASE WHEN r.event_limit IS NOT NULL THEN 'events=' || r.event_limit END,
                   CASE WHEN r.reconnect IS NOT NULL THEN 'reconnect=' || r.reconnect END), ' | ') AS opts
        FROM unnest(labels, drivers) WITH ORDINALITY AS l(label, driver, ord)
        JOIN microbench.runs r ON r.label = l.label AND r.phase = options_caption.phase
                              AND (l.driver IS NULL OR r.driver = l.driver)
        GROUP BY l.label, l.driver, l.ord
    )
    SELECT CASE WHEN bool_or(p.opts <> '') THEN
        E'\n' || prefix || 'run options: '
        || string_agg(microbench.side_name(p.label, p.driver) || ' '
                      || CASE WHEN p.opts = '' THEN 'defaults' ELSE p.opts END, '; ' ORDER BY p.ord)
    ELSE '' END
    FROM per_label p
$$;

-- The seed's report: QPS(other) / QPS(base) per DBMS, in four groups,
-- with the marks, legend and warnings of microbench.compare().  driver
-- chooses the driver of both sides, base_driver and other_driver that of
-- one: bench_report('gcc', 'clang', driver => 'pgsql') compares two builds
-- over the wire, bench_report('gcc', 'gcc', base_driver => 'extension',
-- other_driver => 'pgsql') what the protocol path costs one build.
-- Without them, a label whose runs of one DBMS and workload come from two
-- drivers is refused (check_drivers), never pooled.
DROP FUNCTION IF EXISTS microbench.bench_report(text, text, text, text, text);
DROP FUNCTION IF EXISTS microbench.bench_report(text, text, text, text, text, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.bench_report(base text, other text, format text DEFAULT 'text',
                                                   phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                   confidence double precision DEFAULT 0.95,
                                                   threshold double precision DEFAULT 0.02,
                                                   driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                   other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bd       text := coalesce(base_driver, driver);
    od       text := coalesce(other_driver, driver);
    missing  record;
BEGIN
    -- a side without runs (the base first): an empty report
    SELECT s.label, s.drv INTO missing
    FROM (VALUES (1, base, bd), (2, other, od)) AS s(ord, label, drv)
    WHERE NOT EXISTS (SELECT 1 FROM microbench.runs r
                      WHERE r.label = s.label AND r.phase = bench_report.phase
                        AND (s.drv IS NULL OR r.driver = s.drv))
    ORDER BY s.ord
    LIMIT 1;
    IF FOUND THEN
        PERFORM microbench.check_metric(metric);
        RAISE NOTICE 'no runs of label "%"% in phase %', missing.label,
            CASE WHEN missing.drv IS NULL THEN '' ELSE ' over driver ' || missing.drv END, phase;
        RETURN '';
    END IF;
    RETURN coalesce(microbench.relative_report(base, ARRAY[other], format, phase, metric, false,
                                               confidence, threshold, NULL, bd, od), '');
END
$$;

COMMENT ON FUNCTION microbench.bench_report(text, text, text, text, text, double precision, double precision, text, text, text) IS
    'relative report QPS(other)/QPS(base) per dbms in the seed layout, ~ on cells that are not a significant difference; format text, markdown, csv or svg; driver, base_driver, other_driver choose the runs'' driver';

-- The body of both reports: the grid of base against others (columns per
-- DBMS, or per label when by_label; one DBMS's rows only when only_dbms),
-- laid out in a format, with the captions under it.  NULL when no run of
-- base or the others is in the grid.  base_driver and other_driver choose
-- the sides' drivers as in compare(); the captions then name each side by
-- label and driver ("QPS(gcc over pgsql) / QPS(gcc in-server)").
DROP FUNCTION IF EXISTS microbench.relative_report(text, text[], text, text, text, boolean,
                                                   double precision, double precision, text);
CREATE OR REPLACE FUNCTION microbench.relative_report(base text, others text[], format text, phase text,
                                                      metric text, by_label boolean,
                                                      confidence double precision, threshold double precision,
                                                      only_dbms text DEFAULT NULL,
                                                      base_driver text DEFAULT NULL,
                                                      other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    grid         jsonb;
    prefix       text := CASE format WHEN 'text' THEN '-- ' ELSE '' END;
    m            text := CASE metric WHEN 'qps' THEN 'QPS' ELSE metric END;
    base_name    text := microbench.side_name(base, base_driver);
    other_names  text[] := ARRAY(SELECT microbench.side_name(o.label, other_driver)
                                 FROM unnest(others) WITH ORDINALITY AS o(label, ord) ORDER BY o.ord);
BEGIN
    PERFORM microbench.check_metric(metric);
    IF confidence IS NULL OR confidence <= 0 OR confidence >= 1 OR threshold IS NULL OR threshold < 0 THEN
        RAISE EXCEPTION 'confidence must be between 0 and 1 and threshold at least 0, not % and %', confidence, threshold
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The defaults are confidence => 0.95 and threshold => 0.02 (a 2% change).';
    END IF;
    IF format = 'svg' THEN
        RETURN microbench.report_svg(base, others, phase, metric, by_label, confidence, threshold,
                                     base_driver => base_driver, other_driver => other_driver);
    END IF;
    SELECT jsonb_agg(to_jsonb(g)) INTO grid
    FROM microbench.report_grid(base, others, metric, phase, by_label, confidence, threshold,
                                base_driver, other_driver) g
    WHERE only_dbms IS NULL OR g.dbms = only_dbms;
    IF grid IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN microbench.report_render(grid, format, confidence, threshold,
                                    format('%s(%s) / %s(%s)', m, CASE WHEN by_label THEN 'label' ELSE other_names[1] END,
                                           m, base_name))
           || CASE WHEN format = 'csv' THEN ''
                   ELSE microbench.metric_caption(metric, base_name, array_to_string(other_names, ','), prefix)
                        || coalesce(microbench.options_caption(
                                        array_prepend(base, others), phase, prefix,
                                        array_prepend(base_driver, array_fill(other_driver, ARRAY[cardinality(others)]))), '')
                        || microbench.warnings_caption(base, others, phase, prefix, threshold, only_dbms,
                                                       base_driver, other_driver) END;
END
$$;

-- A series relative to one base: one column per other label, per DBMS.
-- bench_relative('pg17', 'pg18', 'pg19') prints text; the form with an
-- array takes the same formats and options as bench_report:
-- bench_relative('pg17', ARRAY['pg18', 'pg19'], 'markdown').  driver,
-- base_driver and other_driver (the driver of every other label) choose
-- the runs as for bench_report.
DROP FUNCTION IF EXISTS microbench.bench_relative(text, text[], text, text, text, double precision, double precision);
CREATE OR REPLACE FUNCTION microbench.bench_relative(base text, others text[], format text,
                                                     phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                     confidence double precision DEFAULT 0.95,
                                                     threshold double precision DEFAULT 0.02,
                                                     driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                     other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bd      text := coalesce(base_driver, driver);
    od      text := coalesce(other_driver, driver);
    d       record;
    part    text;
    result  text := '';
BEGIN
    IF format = 'svg' THEN
        RETURN microbench.relative_report(base, others, format, phase, metric, true, confidence, threshold,
                                          NULL, bd, od);
    END IF;
    FOR d IN
        SELECT DISTINCT r.dbms, microbench.dbms_order(r.dbms) FROM microbench.runs r
        WHERE r.label = base AND r.phase = bench_relative.phase AND (bd IS NULL OR r.driver = bd) ORDER BY 2
    LOOP
        part := microbench.relative_report(base, others, format, phase, metric, true, confidence, threshold,
                                           d.dbms, bd, od);
        CONTINUE WHEN part IS NULL OR part = '';
        result := result || CASE WHEN result = '' THEN '' ELSE E'\n\n' END
                  || CASE format WHEN 'csv' THEN '' WHEN 'markdown' THEN '## ' ELSE '-- ' END
                  || CASE WHEN format = 'csv' THEN ''
                          ELSE format('%s: %s(label) / %s(%s)', microbench.dbms_short(d.dbms), upper(metric), upper(metric),
                                      microbench.side_name(base, bd))
                               || E'\n\n' END
                  || part;
    END LOOP;
    IF result = '' THEN
        RAISE NOTICE 'no runs of label "%"% in phase %', base,
            CASE WHEN bd IS NULL THEN '' ELSE ' over driver ' || bd END, phase;
    END IF;
    RETURN result;
END
$$;

CREATE OR REPLACE FUNCTION microbench.bench_relative(base text, VARIADIC others text[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_relative(base, others, 'text') $$;

COMMENT ON FUNCTION microbench.bench_relative(text, text[]) IS
    'QPS of each other label relative to the base label, one column per label, per dbms (text)';
COMMENT ON FUNCTION microbench.bench_relative(text, text[], text, text, text, double precision, double precision, text, text, text) IS
    'a metric of each other label relative to the base label, one column per label, per dbms; format text, markdown, csv or svg; driver, base_driver, other_driver choose the runs'' driver';

-- What the protocol path costs one build: a label's runs over the wire
-- (the client's libpq driver, 'pgsql') against its runs in-server
-- ('extension'), workload by workload, in bench_report's layout and
-- formats.  A cell is QPS over the wire / QPS in-server (or the metric's
-- ratio), so below 1 for QPS: the share of the in-server rate left once
-- every statement makes a round trip.
CREATE OR REPLACE FUNCTION microbench.bench_protocol(label text, format text DEFAULT 'text',
                                                     phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                     confidence double precision DEFAULT 0.95,
                                                     threshold double precision DEFAULT 0.02)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    report  text;
    m       text := CASE metric WHEN 'qps' THEN 'QPS' ELSE metric END;
BEGIN
    report := microbench.bench_report(label, label, format, phase, metric, confidence, threshold,
                                      base_driver => 'extension', other_driver => 'pgsql');
    IF report = '' OR format IN ('csv', 'svg') THEN
        RETURN report;
    END IF;
    RETURN CASE format WHEN 'markdown' THEN '## ' ELSE '-- ' END
           || format('%s: wire %s / in-server %s (driver pgsql / driver extension)', label, m, m)
           || E'\n\n' || report;
END
$$;

COMMENT ON FUNCTION microbench.bench_protocol(text, text, text, text, double precision, double precision) IS
    'what the protocol path costs a label: its runs over the wire (driver pgsql) relative to its runs in-server (driver extension), as bench_report lays it out';

-- The absolute table of a cost report: per DBMS and microbenchmark, one
-- line per label with its QPS and what each query cost (medians over the
-- label's runs), in the catalog's order, so that "0.95 of the QPS" can be
-- read next to "1.06 of the instructions per query".  A label's runs of
-- two drivers are two lines (driver), never pooled: in-server and over the
-- wire, a query costs different things.
DROP FUNCTION IF EXISTS microbench.bench_costs(text[], text);
CREATE OR REPLACE FUNCTION microbench.bench_costs(labels text[], phase text DEFAULT 'post')
RETURNS TABLE (dbms text, workload text, label text, driver text, runs integer, qps double precision,
               cpu_us_per_query double precision, cs_per_query double precision,
               host_cpu_us_per_query double precision, host_cs_per_query double precision,
               rkb_per_query double precision, wkb_per_query double precision,
               wal_bytes_per_query double precision, instructions_per_query double precision,
               cycles_per_query double precision, ipc double precision,
               client_cpu_us_per_query double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT c.dbms, c.workload, c.label, c.driver, count(*)::integer,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.qps),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cpu_us_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cs_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.host_cpu_us_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.host_cs_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.rkb_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.wkb_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.wal_bytes_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.instructions_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cycles_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.ipc),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.client_cpu_us_per_query)
    FROM microbench.run_costs c
    JOIN microbench.workloads w ON w.name = c.workload
    JOIN unnest(labels) WITH ORDINALITY AS l(label, ord) ON l.label = c.label
    WHERE c.phase = bench_costs.phase
    GROUP BY c.dbms, c.workload, c.label, c.driver, w.group_order, w.report_order, l.ord
    ORDER BY microbench.dbms_order(c.dbms), w.group_order, w.report_order, l.ord, c.driver
$$;

COMMENT ON FUNCTION microbench.bench_costs(text[], text) IS
    'per dbms, workload, label and driver: median QPS and cost per query (CPU, context switches, disk KB, WAL, instructions, cycles)';
