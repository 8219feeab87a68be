-- 30_reports.sql — relative-QPS reports over microbench.runs.
--
-- The user's deliverable is a table of QPS(other build) / QPS(base build)
-- per DBMS and microbenchmark, in the catalog's groups and order, laid out
-- as in the gcc-vs-clang report.  Everything here is plain SQL over
-- microbench.runs and microbench.workloads (20_catalog.sql), so it works in
-- a results database without the extension.
--
-- Repeats: when a label has several runs of a microbenchmark, the cell uses
-- the median of each side; the spread of a side is (max - min) / median of
-- its runs, and a cell is "within the noise" when |ratio - 1| is no larger
-- than the larger spread of its two sides.  Cells with a single run on both
-- sides carry no noise estimate.

-- the short column names of the report, in its column order
CREATE OR REPLACE FUNCTION microbench.dbms_short(dbms text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT CASE dbms WHEN 'postgres' THEN 'pg' WHEN 'mysql' THEN 'my' WHEN 'mariadb' THEN 'ma' END $$;

CREATE OR REPLACE FUNCTION microbench.dbms_order(dbms text)
RETURNS integer LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT CASE dbms WHEN 'postgres' THEN 1 WHEN 'mysql' THEN 2 WHEN 'mariadb' THEN 3 END $$;

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
       r.hw_counters_note, r.disk_device, r.disk_note
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

-- Per label and microbenchmark: how many runs, their median, min, max and
-- coefficient of variation of QPS.
CREATE OR REPLACE VIEW microbench.label_stats AS
SELECT dbms, label, workload, phase,
       count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY qps) AS median_qps,
       min(qps) AS min_qps,
       max(qps) AS max_qps,
       CASE WHEN count(*) > 1 AND avg(qps) > 0 THEN stddev_samp(qps) / avg(qps) END AS cv
FROM microbench.runs
GROUP BY dbms, label, workload, phase;

COMMENT ON VIEW microbench.label_stats IS
    'runs per (dbms, label, workload, phase): count, median/min/max QPS and coefficient of variation';

-- The raw comparison behind every report: one row per DBMS and catalog
-- workload that either label ran.  ratio = median(other) / median(base).
CREATE OR REPLACE FUNCTION microbench.compare(base text, other text, metric text DEFAULT 'qps',
                                              phase text DEFAULT 'post')
RETURNS TABLE (dbms text, workload text, grp text, group_order integer, report_order integer,
               base_runs integer, other_runs integer, base_value double precision,
               other_value double precision, ratio double precision,
               base_spread double precision, other_spread double precision,
               noise double precision, within_noise boolean)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH per_label AS (
        SELECT r.dbms, r.label, r.workload,
               count(*)::integer AS runs,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY microbench.metric_value(r, metric)) AS med,
               min(microbench.metric_value(r, metric)) AS lo,
               max(microbench.metric_value(r, metric)) AS hi
        FROM microbench.runs r
        WHERE r.label IN (base, other) AND r.phase = compare.phase
          AND microbench.metric_value(r, metric) IS NOT NULL
        GROUP BY r.dbms, r.label, r.workload
    ), sides AS (
        SELECT p.dbms, p.workload,
               max(p.runs) FILTER (WHERE p.label = base) AS base_runs,
               max(p.runs) FILTER (WHERE p.label = other) AS other_runs,
               max(p.med) FILTER (WHERE p.label = base) AS base_value,
               max(p.med) FILTER (WHERE p.label = other) AS other_value,
               max(CASE WHEN p.runs > 1 AND p.med > 0 THEN (p.hi - p.lo) / p.med END)
                   FILTER (WHERE p.label = base) AS base_spread,
               max(CASE WHEN p.runs > 1 AND p.med > 0 THEN (p.hi - p.lo) / p.med END)
                   FILTER (WHERE p.label = other) AS other_spread
        FROM per_label p
        GROUP BY p.dbms, p.workload
    )
    SELECT s.dbms, s.workload, w.grp, w.group_order, w.report_order,
           s.base_runs, s.other_runs, s.base_value, s.other_value,
           CASE WHEN s.base_value > 0 THEN s.other_value / s.base_value END,
           s.base_spread, s.other_spread,
           greatest(s.base_spread, s.other_spread),
           CASE WHEN greatest(s.base_spread, s.other_spread) IS NULL OR s.base_value IS NULL
                     OR s.other_value IS NULL OR s.base_value = 0 THEN NULL
                ELSE abs(s.other_value / s.base_value - 1) <= greatest(s.base_spread, s.other_spread) END
    FROM sides s
    JOIN microbench.workloads w ON w.name = s.workload
    ORDER BY microbench.dbms_order(s.dbms), w.report_order
$$;

COMMENT ON FUNCTION microbench.compare(text, text, text, text) IS
    'per dbms and workload: runs, medians, ratio other/base, spreads and whether the ratio is within the noise';

-- One report cell: the ratio with two decimals, "~" when within the noise, "-" when missing.
CREATE OR REPLACE FUNCTION microbench.report_cell(ratio double precision, within_noise boolean)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN ratio IS NULL THEN '-'
                ELSE to_char(ratio, 'FM999990.00') || CASE WHEN within_noise THEN '~' ELSE '' END END
$$;

-- The grid every format prints: one row per (column, workload) with the
-- cell text; columns are the DBMS (two-label report) or the labels
-- (relative series).  Rows exist for every catalog workload of a group in
-- which some column has data.
CREATE OR REPLACE FUNCTION microbench.report_grid(base text, others text[], metric text, phase text,
                                                  by_label boolean)
RETURNS TABLE (column_order integer, column_name text, dbms text, grp text, group_order integer,
               report_order integer, workload text, cell text, ratio double precision,
               within_noise boolean, repeated boolean)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH cmp AS (
        SELECT o.ord, o.label, c.*
        FROM unnest(others) WITH ORDINALITY AS o(label, ord),
             LATERAL microbench.compare(base, o.label, metric, phase) c
    ), cols AS (
        SELECT DISTINCT
               CASE WHEN by_label THEN ord::integer ELSE microbench.dbms_order(c.dbms) END AS column_order,
               CASE WHEN by_label THEN c.label ELSE microbench.dbms_short(c.dbms) END AS column_name,
               CASE WHEN by_label THEN c.label ELSE c.dbms END AS key,
               c.dbms
        FROM cmp c
    ), groups AS (
        SELECT DISTINCT c.group_order FROM cmp c
    )
    SELECT cols.column_order, cols.column_name, cols.dbms, w.grp, w.group_order, w.report_order,
           w.name, microbench.report_cell(c.ratio, c.within_noise), c.ratio, c.within_noise,
           coalesce(c.base_runs > 1 OR c.other_runs > 1, false)
    FROM cols
    CROSS JOIN microbench.workloads w
    JOIN groups g ON g.group_order = w.group_order
    LEFT JOIN cmp c ON c.workload = w.name AND c.dbms = cols.dbms
                   AND (NOT by_label OR c.label = cols.key)
$$;

-- How cells were combined, said once under a report with repeated runs.
CREATE OR REPLACE FUNCTION microbench.report_footer(repeats boolean, prefix text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN repeats THEN
        E'\n\n' || prefix || 'cells: median of each label''s runs; ~ marks a ratio within the noise '
        || '(|ratio - 1| <= the larger (max - min) / median of the two sides); - means no data'
    ELSE '' END
$$;

-- Lay a grid out as text (the seed's layout), markdown or CSV.
CREATE OR REPLACE FUNCTION microbench.report_render(grid_rows jsonb, format text)
RETURNS text LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    result  text := '';
    g       record;
    w       record;
    header  text;
    repeats boolean;
BEGIN
    IF format NOT IN ('text', 'markdown', 'csv') THEN
        RAISE EXCEPTION 'unknown report format "%"', format
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Use text, markdown, csv or svg.';
    END IF;
    SELECT coalesce(bool_or((e->>'repeated')::boolean), false) INTO repeats
    FROM jsonb_array_elements(grid_rows) e;

    IF format = 'csv' THEN
        SELECT 'group,workload,' || string_agg(c.column_name, ',' ORDER BY c.column_order)
        INTO header
        FROM (SELECT DISTINCT (e->>'column_order')::int AS column_order, e->>'column_name' AS column_name
              FROM jsonb_array_elements(grid_rows) e) c;
        result := header;
        FOR w IN
            SELECT e->>'grp' AS grp, e->>'workload' AS workload,
                   string_agg(CASE WHEN e->>'cell' = '-' THEN '' ELSE to_char((e->>'ratio')::float8, 'FM999990.00') END,
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
                   WHEN 'text' THEN string_agg(rpad(c.column_name, 8), '' ORDER BY c.column_order)
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
                       WHEN 'text' THEN string_agg(rpad(e->>'cell', 8), '' ORDER BY (e->>'column_order')::int)
                       ELSE '| ' || string_agg(e->>'cell', ' | ' ORDER BY (e->>'column_order')::int) || ' | '
                   END AS cells
            FROM jsonb_array_elements(grid_rows) e
            WHERE (e->>'group_order')::int = g.group_order
            GROUP BY e->>'workload', (e->>'report_order')::int
            ORDER BY (e->>'report_order')::int
        LOOP
            result := result || E'\n' || w.cells || w.workload || CASE format WHEN 'text' THEN '' ELSE ' |' END;
        END LOOP;
    END LOOP;
    RETURN result || microbench.report_footer(repeats, CASE format WHEN 'text' THEN '-- ' ELSE '' END);
END
$$;

-- How each label's runs were driven, when not with the defaults (prepared
-- statements, no rate or event limit, no reconnects): a line under the
-- report, because such runs measure something else.
CREATE OR REPLACE FUNCTION microbench.options_caption(labels text[], phase text, prefix text)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH per_label AS (
        SELECT l.label, l.ord,
               string_agg(DISTINCT concat_ws(' ',
                   CASE WHEN r.ps_mode <> 'auto' THEN 'ps_mode=' || r.ps_mode END,
                   CASE WHEN r.rate IS NOT NULL THEN 'rate=' || r.rate END,
                   CASE WHEN r.event_limit IS NOT NULL THEN 'events=' || r.event_limit END,
                   CASE WHEN r.reconnect IS NOT NULL THEN 'reconnect=' || r.reconnect END), ' | ') AS opts
        FROM unnest(labels) WITH ORDINALITY AS l(label, ord)
        JOIN microbench.runs r ON r.label = l.label AND r.phase = options_caption.phase
        GROUP BY l.label, l.ord
    )
    SELECT CASE WHEN bool_or(p.opts <> '') THEN
        E'\n' || prefix || 'run options: '
        || string_agg(p.label || ' ' || CASE WHEN p.opts = '' THEN 'defaults' ELSE p.opts END, '; ' ORDER BY p.ord)
    ELSE '' END
    FROM per_label p
$$;

-- The seed's report: QPS(other) / QPS(base) per DBMS, in four groups.
CREATE OR REPLACE FUNCTION microbench.bench_report(base text, other text, format text DEFAULT 'text',
                                                   phase text DEFAULT 'post', metric text DEFAULT 'qps')
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    grid jsonb;
BEGIN
    PERFORM microbench.check_metric(metric);
    IF NOT EXISTS (SELECT 1 FROM microbench.runs r WHERE r.label = base AND r.phase = bench_report.phase)
       OR NOT EXISTS (SELECT 1 FROM microbench.runs r WHERE r.label = other AND r.phase = bench_report.phase) THEN
        RAISE NOTICE 'no runs of label "%" in phase %',
            CASE WHEN EXISTS (SELECT 1 FROM microbench.runs r WHERE r.label = base AND r.phase = bench_report.phase)
                 THEN other ELSE base END, phase;
        RETURN '';
    END IF;
    IF format = 'svg' THEN
        RETURN microbench.report_svg(base, ARRAY[other], phase, metric, false);
    END IF;
    SELECT jsonb_agg(to_jsonb(g)) INTO grid
    FROM microbench.report_grid(base, ARRAY[other], metric, phase, false) g;
    IF grid IS NULL THEN
        RAISE NOTICE 'no runs of labels "%" and "%" in phase %', base, other, phase;
        RETURN '';
    END IF;
    RETURN microbench.report_render(grid, format)
           || CASE WHEN format = 'csv' THEN ''
                   ELSE microbench.metric_caption(metric, base, other,
                                                  CASE format WHEN 'text' THEN '-- ' ELSE '' END)
                        || coalesce(microbench.options_caption(ARRAY[base, other], phase,
                                                               CASE format WHEN 'text' THEN '-- ' ELSE '' END), '') END;
END
$$;

COMMENT ON FUNCTION microbench.bench_report(text, text, text, text, text) IS
    'relative report QPS(other)/QPS(base) per dbms in the seed layout; format text, markdown, csv or svg';

-- A series relative to one base: one column per other label, per DBMS.
CREATE OR REPLACE FUNCTION microbench.bench_relative(base text, VARIADIC others text[])
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d       record;
    grid    jsonb;
    result  text := '';
BEGIN
    FOR d IN
        SELECT DISTINCT r.dbms, microbench.dbms_order(r.dbms) FROM microbench.runs r
        WHERE r.label = base AND r.phase = 'post' ORDER BY 2
    LOOP
        SELECT jsonb_agg(to_jsonb(g)) INTO grid
        FROM microbench.report_grid(base, others, 'qps', 'post', true) g
        WHERE g.dbms = d.dbms;
        CONTINUE WHEN grid IS NULL;
        result := result || CASE WHEN result = '' THEN '' ELSE E'\n\n' END
                  || format('-- %s: QPS(label) / QPS(%s)', microbench.dbms_short(d.dbms), base)
                  || E'\n\n' || microbench.report_render(grid, 'text');
    END LOOP;
    IF result = '' THEN
        RAISE NOTICE 'no runs of label "%" in phase post', base;
    END IF;
    RETURN result;
END
$$;

COMMENT ON FUNCTION microbench.bench_relative(text, text[]) IS
    'QPS of each other label relative to the base label, one column per label, per dbms';

-- The absolute table of a cost report: per DBMS and microbenchmark, one
-- line per label with its QPS and what each query cost (medians over the
-- label's runs), in the catalog's order, so that "0.95 of the QPS" can be
-- read next to "1.06 of the instructions per query".
CREATE OR REPLACE FUNCTION microbench.bench_costs(labels text[], phase text DEFAULT 'post')
RETURNS TABLE (dbms text, workload text, label text, runs integer, qps double precision,
               cpu_us_per_query double precision, cs_per_query double precision,
               host_cpu_us_per_query double precision, host_cs_per_query double precision,
               rkb_per_query double precision, wkb_per_query double precision,
               wal_bytes_per_query double precision, instructions_per_query double precision,
               cycles_per_query double precision, ipc double precision,
               client_cpu_us_per_query double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT c.dbms, c.workload, c.label, count(*)::integer,
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
    GROUP BY c.dbms, c.workload, c.label, w.group_order, w.report_order, l.ord
    ORDER BY microbench.dbms_order(c.dbms), w.group_order, w.report_order, l.ord
$$;

COMMENT ON FUNCTION microbench.bench_costs(text[], text) IS
    'per dbms, workload and label: median QPS and cost per query (CPU, context switches, disk KB, WAL, instructions, cycles)';
