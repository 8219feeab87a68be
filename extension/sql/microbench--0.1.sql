-- microbench--0.1.sql — version 0.1 as released (main at 821d0ad), frozen.
-- Never edit: installations of 0.1 reach the current version through
-- microbench--0.1--0.2.sql.  Generated then from results_schema/*.sql and
-- sql/microbench_functions.sql.

-- 10_runs.sql — the results schema: one row per measured run.
--
-- This file is the single definition of where results live.  It loads into
-- any Postgres >= 13 as plain SQL (psql -f), so a reporting database needs
-- no C code; the extension's install script is built from this same file,
-- and the MySQL/MariaDB client inserts its runs into the same table.
-- It must stay valid inside an extension script: no transaction control,
-- no psql meta-commands.

CREATE SCHEMA IF NOT EXISTS microbench;

CREATE TABLE IF NOT EXISTS microbench.runs (
    run_id          bigserial PRIMARY KEY,
    -- what was measured
    dbms            text NOT NULL CHECK (dbms IN ('postgres', 'mysql', 'mariadb')),
    version         text NOT NULL,          -- e.g. 15.20, 10.11.6
    version_string  text,                   -- the server's full version text
    compiler        text,                   -- compiler that built the server, NULL if unknown
    label           text,                   -- the user's name for the build, e.g. gcc or clang
    -- the run's parameters
    workload        text NOT NULL,
    phase           text NOT NULL CHECK (phase IN ('pre', 'post')),
    tables          integer NOT NULL CHECK (tables > 0),
    table_size      bigint NOT NULL CHECK (table_size >= 0),
    range_size      integer,                -- R used, NULL for workloads without one
    clients         integer NOT NULL CHECK (clients > 0),
    rand_type       text NOT NULL,
    seed            bigint,                 -- NULL: seeded from the clock
    seconds         double precision NOT NULL,  -- requested measured duration
    warmup          double precision NOT NULL,
    -- the measured window
    started_at      timestamptz NOT NULL,   -- start of the measured window
    ended_at        timestamptz NOT NULL,
    elapsed_seconds double precision NOT NULL CHECK (elapsed_seconds > 0),
    events          bigint NOT NULL,        -- transactions as sysbench counts them
    queries         bigint NOT NULL,        -- statements, BEGIN and COMMIT included
    errors          bigint NOT NULL DEFAULT 0,
    rows_scanned    bigint,                 -- scan only: rows read
    qps             double precision NOT NULL,
    tps             double precision NOT NULL,
    rows_per_second double precision,       -- scan only
    lat_avg_ms      double precision,
    lat_p95_ms      double precision,
    lat_p99_ms      double precision,
    lat_max_ms      double precision,
    -- where it ran
    host            text,                   -- host name
    cpu_model       text,
    cpu_cores       integer,
    memory_bytes    bigint,
    kernel          text,
    driver          text NOT NULL DEFAULT 'extension'  -- extension or microbench-mysql
);

CREATE INDEX IF NOT EXISTS runs_label_workload
    ON microbench.runs (dbms, label, workload, phase);

COMMENT ON TABLE microbench.runs IS
    'one row per finished microbenchmark run (see WORKLOADS.md for the counting rules)';
COMMENT ON COLUMN microbench.runs.qps IS 'queries / elapsed_seconds, BEGIN and COMMIT counted';
COMMENT ON COLUMN microbench.runs.tps IS 'events / elapsed_seconds';

-- Runs that a client could not insert directly (no results database given,
-- or it was down) arrive as JSON lines, one object per run with the column
-- names of microbench.runs.  Load a file into the queue, then import it:
--   \copy microbench.import_queue (doc) FROM 'microbench-results.jsonl'
--         WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
--   SELECT microbench.import_runs();
-- (the csv options with unused control characters pass each line through
-- untouched, backslashes included).
CREATE TABLE IF NOT EXISTS microbench.import_queue (
    doc jsonb NOT NULL
);

CREATE OR REPLACE FUNCTION microbench.import_runs()
RETURNS bigint
LANGUAGE sql
SET search_path = pg_catalog, pg_temp
AS $$
    WITH queued AS (
        DELETE FROM microbench.import_queue RETURNING doc
    ), inserted AS (
        -- every column the line has, so columns added later come along
        INSERT INTO microbench.runs
        SELECT r.*
        FROM queued,
             jsonb_populate_record(NULL::microbench.runs,
                 queued.doc || jsonb_build_object(
                     'run_id', nextval('microbench.runs_run_id_seq'),
                     'driver', coalesce(queued.doc ->> 'driver', 'microbench-mysql'),
                     'errors', coalesce((queued.doc ->> 'errors')::bigint, 0),
                     'ps_mode', coalesce(queued.doc ->> 'ps_mode', 'auto'))) AS r
        RETURNING 1
    )
    SELECT count(*) FROM inserted
$$;

COMMENT ON FUNCTION microbench.import_runs() IS
    'move the runs queued in microbench.import_queue (JSON lines from microbench-mysql) into microbench.runs';
-- 15_costs.sql — what each run cost, beside its QPS.
--
-- A relative QPS of 0.95 raises the question "why?".  These columns hold
-- the figures that answer it, over the run's measured window only:
--
--   * the benchmark processes' own cost (extension: the background workers,
--     summed; getrusage, WAL and buffer counters, perf hardware counters);
--   * the host's CPU and disk, as vmstat and iostat report them
--     (/proc/stat, /proc/diskstats for the device holding the data
--     directory);
--   * the MySQL/MariaDB client's own CPU, and the server's SHOW GLOBAL
--     STATUS deltas (server_status).
--
-- A figure that could not be counted is NULL, and the *_note columns say
-- why; nothing is estimated.  microbench.run_costs (30_reports.sql, beside
-- the report metrics it is made of) divides by queries.
-- ADD COLUMN IF NOT EXISTS also upgrades a results database created before
-- these columns existed.

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS cpu_user_seconds       double precision,
    ADD COLUMN IF NOT EXISTS cpu_system_seconds     double precision,
    ADD COLUMN IF NOT EXISTS voluntary_cs           bigint,
    ADD COLUMN IF NOT EXISTS involuntary_cs         bigint,
    ADD COLUMN IF NOT EXISTS wal_records            bigint,
    ADD COLUMN IF NOT EXISTS wal_fpi                bigint,
    ADD COLUMN IF NOT EXISTS wal_bytes              bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_hit        bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_read       bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_dirtied    bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_written    bigint,
    ADD COLUMN IF NOT EXISTS instructions           bigint,
    ADD COLUMN IF NOT EXISTS cycles                 bigint,
    ADD COLUMN IF NOT EXISTS hw_counters_note       text,
    ADD COLUMN IF NOT EXISTS host_cpu_user_seconds   double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_system_seconds double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_iowait_seconds double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_idle_seconds   double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_steal_seconds  double precision,
    ADD COLUMN IF NOT EXISTS host_context_switches  bigint,
    ADD COLUMN IF NOT EXISTS disk_device            text,
    ADD COLUMN IF NOT EXISTS disk_reads             bigint,
    ADD COLUMN IF NOT EXISTS disk_read_kb           double precision,
    ADD COLUMN IF NOT EXISTS disk_writes            bigint,
    ADD COLUMN IF NOT EXISTS disk_write_kb          double precision,
    ADD COLUMN IF NOT EXISTS disk_note              text,
    ADD COLUMN IF NOT EXISTS client_cpu_user_seconds   double precision,
    ADD COLUMN IF NOT EXISTS client_cpu_system_seconds double precision,
    ADD COLUMN IF NOT EXISTS server_status          jsonb;

COMMENT ON COLUMN microbench.runs.cpu_user_seconds IS
    'user CPU of the processes that ran the statements (extension: the workers, getrusage), measured window only';
COMMENT ON COLUMN microbench.runs.cpu_system_seconds IS 'system CPU of the same processes';
COMMENT ON COLUMN microbench.runs.voluntary_cs IS 'voluntary context switches of the same processes';
COMMENT ON COLUMN microbench.runs.involuntary_cs IS 'involuntary context switches of the same processes';
COMMENT ON COLUMN microbench.runs.wal_records IS 'WAL records the workers wrote (pgWalUsage)';
COMMENT ON COLUMN microbench.runs.wal_fpi IS 'full-page images among them';
COMMENT ON COLUMN microbench.runs.wal_bytes IS 'WAL bytes the workers wrote';
COMMENT ON COLUMN microbench.runs.shared_blks_hit IS 'shared buffer hits of the workers (pgBufferUsage)';
COMMENT ON COLUMN microbench.runs.instructions IS
    'instructions retired by the workers (perf_event_open); NULL when not counted, see hw_counters_note';
COMMENT ON COLUMN microbench.runs.cycles IS 'CPU cycles of the workers; NULL when not counted';
COMMENT ON COLUMN microbench.runs.hw_counters_note IS
    'what the hardware counters cover (user and kernel mode, or user mode only), or why they are NULL';
COMMENT ON COLUMN microbench.runs.host_cpu_user_seconds IS
    'host-wide user+nice CPU seconds over all CPUs (/proc/stat), as vmstat''s us';
COMMENT ON COLUMN microbench.runs.host_cpu_system_seconds IS 'host-wide system+irq+softirq CPU seconds (vmstat sy)';
COMMENT ON COLUMN microbench.runs.host_cpu_iowait_seconds IS 'host-wide iowait CPU seconds (vmstat wa)';
COMMENT ON COLUMN microbench.runs.host_cpu_idle_seconds IS 'host-wide idle CPU seconds (vmstat id)';
COMMENT ON COLUMN microbench.runs.host_cpu_steal_seconds IS
    'host-wide CPU seconds the hypervisor gave to others (vmstat st): on a VM the other four add up to cores x window minus this';
COMMENT ON COLUMN microbench.runs.host_context_switches IS
    'context switches of every process on the host (/proc/stat ctxt), as vmstat''s cs';
COMMENT ON COLUMN microbench.runs.disk_device IS
    'the block device(s) holding the data directory and pg_wal (or the MySQL datadir), as in /proc/diskstats';
COMMENT ON COLUMN microbench.runs.disk_read_kb IS 'KB read from disk_device (/proc/diskstats), as iostat''s rkB';
COMMENT ON COLUMN microbench.runs.disk_write_kb IS 'KB written to disk_device, as iostat''s wkB';
COMMENT ON COLUMN microbench.runs.disk_note IS 'why the disk figures are NULL (no block device, remote server)';
COMMENT ON COLUMN microbench.runs.client_cpu_user_seconds IS
    'user CPU of the client threads of microbench-mysql over their measured events';
COMMENT ON COLUMN microbench.runs.client_cpu_system_seconds IS 'system CPU of the same threads';
COMMENT ON COLUMN microbench.runs.server_status IS
    'MySQL/MariaDB: SHOW GLOBAL STATUS counters that changed over the measured window, as deltas';
-- 16_run_options.sql — how a run was driven, beside what it measured.
--
-- The options sysbench users bring: the statement mode (prepared, or SQL
-- text parsed and planned every time), a rate limit, an event limit,
-- reconnecting every N events, and which errors an event may hit without
-- stopping the run — with how many events each of those ended.  A ratio
-- between runs driven differently compares different things, so reports
-- can tell them apart.  ADD COLUMN IF NOT EXISTS also upgrades a results
-- database created before these columns existed.

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS ps_mode         text NOT NULL DEFAULT 'auto'
        CHECK (ps_mode IN ('auto', 'disable')),
    ADD COLUMN IF NOT EXISTS rate            double precision,
    ADD COLUMN IF NOT EXISTS event_limit     bigint,
    ADD COLUMN IF NOT EXISTS reconnect       integer,
    ADD COLUMN IF NOT EXISTS sessions        bigint,
    ADD COLUMN IF NOT EXISTS ignored_errors  text,
    ADD COLUMN IF NOT EXISTS errors_by_code  jsonb;

COMMENT ON COLUMN microbench.runs.ps_mode IS
    'auto: prepared statements; disable: SQL text with literal values, parsed and planned every execution (sysbench --db-ps-mode)';
COMMENT ON COLUMN microbench.runs.rate IS
    'events per second over all clients, scheduled as a Poisson process; NULL: no limit (sysbench --rate)';
COMMENT ON COLUMN microbench.runs.event_limit IS
    'the run stopped after this many measured events (or at seconds, whichever came first); NULL: time only (sysbench --events)';
COMMENT ON COLUMN microbench.runs.reconnect IS
    'each client opened a new session every this many events; NULL: never (--reconnect)';
COMMENT ON COLUMN microbench.runs.sessions IS
    'sessions the clients opened during the run, the first ones included';
COMMENT ON COLUMN microbench.runs.ignored_errors IS
    'the error codes an event could hit without stopping the run (SQLSTATEs, or MySQL error numbers)';
COMMENT ON COLUMN microbench.runs.errors_by_code IS
    'events in the measured window ended by each ignored error, e.g. {"23505": 12, "40P01": 1}; errors is their sum';
COMMENT ON COLUMN microbench.runs.errors IS
    'measured events ended by an ignored error: rolled back, not in events, queries or latencies';
-- 20_catalog.sql — the microbenchmark catalog as rows, for reports.
--
-- GENERATED by results_schema/gen_catalog_sql.c from common/mb_catalog.c;
-- do not edit (make -C results_schema regenerates it).

CREATE TABLE IF NOT EXISTS microbench.workloads (
    name              text PRIMARY KEY,
    grp               text NOT NULL,
    group_order       integer NOT NULL,
    report_order      integer NOT NULL UNIQUE,
    queries_per_event integer NOT NULL,
    in_transaction    boolean NOT NULL,
    default_range     integer,
    description       text NOT NULL
);

DELETE FROM microbench.workloads;
INSERT INTO microbench.workloads VALUES
    ('hot-points', 'point queries', 1, 1, 1, false, NULL, '100 fixed ids from table_size/2+1 in one IN list'),
    ('point-query', 'point queries', 1, 2, 1, false, NULL, 'one row by primary key'),
    ('points-covered-pk', 'point queries', 1, 3, 1, false, NULL, '100 random ids by primary key, index only'),
    ('points-covered-si', 'point queries', 1, 4, 1, false, NULL, '100 random k values by secondary index, index only'),
    ('points-notcovered-pk', 'point queries', 1, 5, 1, false, NULL, '100 random ids by primary key, reading c from the row'),
    ('points-notcovered-si', 'point queries', 1, 6, 1, false, NULL, '100 random k values by secondary index, reading c from the row'),
    ('random-points_range=1000', 'point queries', 1, 7, 1, false, 1000, 'R random ids (R=1000) in one IN list'),
    ('random-points_range=100', 'point queries', 1, 8, 1, false, 100, 'R random ids (R=100) in one IN list'),
    ('random-points_range=10', 'point queries', 1, 9, 1, false, 10, 'R random ids (R=10) in one IN list'),
    ('range-covered-pk', 'range queries without aggregation', 2, 10, 1, false, 101, 'id range of 101 values, index only'),
    ('range-covered-si', 'range queries without aggregation', 2, 11, 1, false, 101, 'k range of 101 values, index only'),
    ('range-notcovered-pk', 'range queries without aggregation', 2, 12, 1, false, 101, 'id range of 101 values, reading c from the rows'),
    ('range-notcovered-si', 'range queries without aggregation', 2, 13, 1, false, 101, 'k range of 101 values, reading c from the rows'),
    ('scan', 'range queries without aggregation', 2, 14, 1, false, NULL, 'full table scan returning no rows'),
    ('read-only-count', 'range queries with aggregation', 3, 15, 1, false, 1000, 'count(c) over an id range (R=1000)'),
    ('read-only-distinct', 'range queries with aggregation', 3, 16, 13, true, 1000, 'transaction: 10 points, SELECT DISTINCT c over a range (R=1000)'),
    ('read-only-order', 'range queries with aggregation', 3, 17, 13, true, 1000, 'transaction: 10 points, SELECT c ... ORDER BY c over a range (R=1000)'),
    ('read-only_range=10000', 'range queries with aggregation', 3, 18, 16, true, 10000, 'oltp_read_only transaction, R=10000'),
    ('read-only_range=100', 'range queries with aggregation', 3, 19, 16, true, 100, 'oltp_read_only transaction, R=100'),
    ('read-only_range=10', 'range queries with aggregation', 3, 20, 16, true, 10, 'oltp_read_only transaction, R=10'),
    ('read-only-simple', 'range queries with aggregation', 3, 21, 13, true, 1000, 'transaction: 10 points, SELECT c over a range (R=1000)'),
    ('read-only-sum', 'range queries with aggregation', 3, 22, 13, true, 1000, 'transaction: 10 points, SELECT SUM(k) over a range (R=1000)'),
    ('delete', 'writes', 4, 23, 1, false, NULL, 'delete one row by primary key'),
    ('insert', 'writes', 4, 24, 1, false, NULL, 'insert one row, id generated by the server'),
    ('read-write_range=100', 'writes', 4, 25, 20, true, 100, 'oltp_read_write transaction, R=100'),
    ('read-write_range=10', 'writes', 4, 26, 20, true, 10, 'oltp_read_write transaction, R=10'),
    ('update-index', 'writes', 4, 27, 1, false, NULL, 'k = k + 1 for one row (secondary index maintained)'),
    ('update-inlist', 'writes', 4, 28, 1, false, NULL, 'new c for 100 random ids in one statement'),
    ('update-nonindex', 'writes', 4, 29, 1, false, NULL, 'new c for one random row'),
    ('update-one', 'writes', 4, 30, 1, false, NULL, 'new c for the one hot row id = 1'),
    ('update-zipf', 'writes', 4, 31, 1, false, NULL, 'new c for one row drawn zipfian'),
    ('write-only', 'writes', 4, 32, 6, true, NULL, 'oltp_write_only transaction');
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
-- 40_svg.sql — the relative-QPS report as an SVG bar chart.
--
-- microbench.report_svg() draws the grid of microbench.report_grid()
-- (30_reports.sql) as a standalone SVG document that a browser shows as is:
-- one row per microbenchmark in report order under its group heading, one
-- horizontal bar per column (DBMS, or label in a relative series) that
-- diverges from a vertical reference line at ratio 1.0 — right when the
-- other label is higher, left when it is lower — with the ratio written
-- beside it.  Missing cells get a grey "no data" dash, never a bar (a row
-- with no data at all gets one dash); cells within the noise are drawn as
-- a lighter hatched bar.  bench_report(...,
-- 'svg') calls it.
--
-- Plain SQL and PL/pgSQL, loadable into any Postgres >= 13 without the C
-- extension; like the rest of results_schema it is also part of the
-- extension's install script, so no transaction control and no psql
-- meta-commands.
--
-- Elements carry data-* attributes (column, ratio, colours, slot geometry)
-- so that test/report/check_svg.py can check the rendered picture against
-- what the SVG meant to draw.

-- Text made safe for XML character data and attribute values: markup
-- characters escaped, characters XML 1.0 forbids dropped and, in a UTF8
-- database, non-ASCII characters written as character references so the
-- document is plain ASCII whatever the client encoding.
CREATE OR REPLACE FUNCTION microbench.svg_escape(t text)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN getdatabaseencoding() = 'UTF8' AND s ~ E'[^\\x01-\\x7f]'
                THEN (SELECT string_agg(CASE WHEN ascii(c) > 127 THEN '&#' || ascii(c) || ';' ELSE c END,
                                        '' ORDER BY n)
                      FROM regexp_split_to_table(s, '') WITH ORDINALITY AS x(c, n))
                ELSE s END
    FROM (SELECT replace(replace(replace(replace(replace(
                     regexp_replace(t, E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]', '', 'g'),
                     '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;') AS s) e
$$;

COMMENT ON FUNCTION microbench.svg_escape(text) IS
    'text escaped for SVG/XML character data and attribute values';

-- A coordinate for SVG: one decimal, locale-independent.
CREATE OR REPLACE FUNCTION microbench.svg_num(x double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$ SELECT round(x::numeric, 1)::text $$;

-- Text cut to about max_px pixels at font size px ("..." marks the cut),
-- by the same estimate of glyph widths the layout uses.
CREATE OR REPLACE FUNCTION microbench.svg_fit(t text, max_px double precision, px double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN length(t) * px * 0.58 <= max_px THEN t
                ELSE left(t, greatest(floor(max_px / (px * 0.58))::integer - 3, 1)) || '...' END
$$;

-- The colour of report column i (1-based) as #rrggbb, mixed with white by
-- the fraction tint (0: the colour itself, 1: white).  Nine fixed colours
-- that stay apart from the greys of the chart, then golden-angle hues,
-- alternately darker and lighter than the fixed ones.
CREATE OR REPLACE FUNCTION microbench.svg_colour(i integer, tint double precision DEFAULT 0)
RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    palette constant text[] := ARRAY['1f77b4', 'ff7f0e', '2ca02c', 'd62728', '9467bd',
                                     '8c564b', 'e377c2', 'bcbd22', '17becf'];
    rgb     double precision[];
    h       double precision;
    s       constant double precision := 0.7;
    l       double precision := CASE WHEN i % 2 = 0 THEN 0.30 ELSE 0.55 END;  -- dark, light, ...
    c       double precision;
    x       double precision;
    m       double precision;
BEGIN
    IF i BETWEEN 1 AND array_length(palette, 1) THEN
        rgb := ARRAY[('x' || substr(palette[i], 1, 2))::bit(8)::integer,
                     ('x' || substr(palette[i], 3, 2))::bit(8)::integer,
                     ('x' || substr(palette[i], 5, 2))::bit(8)::integer];
    ELSE
        -- HSL to RGB
        h := ((i - 10) * 137.508 + 15)::numeric % 360;
        c := (1 - abs(2 * l - 1)) * s;
        x := c * (1 - abs((h / 60)::numeric % 2 - 1));
        m := l - c / 2;
        rgb := CASE floor(h / 60)::integer
                   WHEN 0 THEN ARRAY[c, x, 0] WHEN 1 THEN ARRAY[x, c, 0]
                   WHEN 2 THEN ARRAY[0, c, x] WHEN 3 THEN ARRAY[0, x, c]
                   WHEN 4 THEN ARRAY[x, 0, c] ELSE ARRAY[c, 0, x] END;
        rgb := ARRAY[(rgb[1] + m) * 255, (rgb[2] + m) * 255, (rgb[3] + m) * 255];
    END IF;
    RETURN '#' || lpad(to_hex(round(rgb[1] + (255 - rgb[1]) * tint)::integer), 2, '0')
               || lpad(to_hex(round(rgb[2] + (255 - rgb[2]) * tint)::integer), 2, '0')
               || lpad(to_hex(round(rgb[3] + (255 - rgb[3]) * tint)::integer), 2, '0');
END
$$;

COMMENT ON FUNCTION microbench.svg_colour(integer, double precision) IS
    'colour #rrggbb of report column i in the SVG chart, optionally mixed with white';

-- The chart.  base, others, phase and metric as for report_grid();
-- by_label: one column per other label (per DBMS) instead of one per DBMS.
CREATE OR REPLACE FUNCTION microbench.report_svg(base text, others text[], phase text DEFAULT 'post',
                                                 metric text DEFAULT 'qps', by_label boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- layout, in px
    chart_w   constant integer := 960;
    margin    constant integer := 16;
    bar_h     constant integer := 12;   -- one bar
    bar_gap   constant integer := 3;    -- between the bars of a row
    row_pad   constant integer := 5;    -- above and below the bars of a row
    head_h    constant integer := 28;   -- group heading band
    side_pad  constant integer := 52;   -- room beside the axis for ratio text
    char_w    constant double precision := 0.58;  -- estimated mean glyph width, em
    -- colours
    ref_colour    constant text := '#000000';
    grid_colour   constant text := '#dddddd';
    nodata_colour constant text := '#9e9e9e';
    text_colour   constant text := '#222222';
    muted_colour  constant text := '#555555';
    noise_tint    constant double precision := 0.62;

    grid      jsonb;
    title     text;
    item      text;
    mname     text := upper(metric);
    ncols     integer;
    col_name  text[] := '{}';
    col_dbms  text[] := '{}';
    col_order integer[] := '{}';
    many_dbms boolean;
    c         record;
    g         record;
    w         record;
    cell      record;
    i         integer;
    lo        double precision;
    hi        double precision;
    step      double precision;
    decimals  integer;
    e         integer;
    m         integer;
    label_w   integer;
    px_lo     double precision;
    px_hi     double precision;
    ref_x     double precision;
    x         double precision;
    xr        double precision;
    y         double precision;
    sy        double precision;
    row_h     integer;                  -- a row with data: a slot per column
    rh        integer;                  -- the current row
    plot_top  double precision;
    plot_bot  double precision;
    lx        double precision;
    item_w    double precision;
    v         double precision;
    n         integer;
    row_no    integer := 0;
    repeats   boolean;
    has_noise boolean;
    has_gap   boolean;
    finite    boolean;
    defs      text[] := '{}';
    bands     text[] := '{}';
    gridlines text[] := '{}';
    bars      text[] := '{}';
    texts     text[] := '{}';
    header    text[] := '{}';
BEGIN
    title := CASE WHEN coalesce(array_length(others, 1), 0) = 1
                  THEN format('%s(%s) / %s(%s)', mname, others[1], mname, base)
                  ELSE format('%s(label) / %s(%s), label in %s', mname, mname, base,
                              coalesce(array_to_string(others, ', '), '(none)')) END;

    SELECT jsonb_agg(to_jsonb(r)) INTO grid
    FROM microbench.report_grid(base, others, metric, phase, by_label) r;

    IF grid IS NULL THEN
        RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
            || '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120" viewBox="0 0 640 120"'
            || ' font-family="sans-serif" data-empty="true">' || E'\n'
            || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
            || '<rect width="640" height="120" fill="#ffffff"/>' || E'\n'
            || format('<text class="title" x="%s" y="36" font-size="16" font-weight="bold" fill="%s">%s</text>',
                      margin, text_colour, microbench.svg_escape(title)) || E'\n'
            || format('<text x="%s" y="76" font-size="14" fill="%s">no data: no runs of these labels in phase %s</text>',
                      margin, muted_colour, microbench.svg_escape(phase)) || E'\n'
            || '</svg>' || E'\n';
    END IF;

    -- the columns, in report order
    FOR c IN
        SELECT r.column_order, r.column_name, r.dbms
        FROM jsonb_to_recordset(grid) AS r(column_order integer, column_name text, dbms text)
        GROUP BY 1, 2, 3
        ORDER BY r.column_order, microbench.dbms_order(r.dbms), r.column_name
    LOOP
        col_order := col_order || c.column_order;
        col_name := col_name || c.column_name;
        col_dbms := col_dbms || c.dbms;
    END LOOP;
    ncols := array_length(col_name, 1);
    SELECT count(DISTINCT d) > 1 INTO many_dbms FROM unnest(col_dbms) d;

    SELECT min(r.ratio) FILTER (WHERE r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')),
           max(r.ratio) FILTER (WHERE r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')),
           coalesce(bool_or(r.repeated), false),
           coalesce(bool_or(r.within_noise), false),
           bool_or(r.ratio IS NULL OR r.ratio IN ('NaN', 'Infinity', '-Infinity')),
           max(length(r.workload))
    INTO lo, hi, repeats, has_noise, has_gap, n
    FROM jsonb_to_recordset(grid) AS r(ratio double precision, repeated boolean, within_noise boolean,
                                       workload text);

    -- the axis: covers every ratio and at least 0.9 .. 1.1, at most 8 ticks apart
    lo := least(coalesce(lo, 1), 0.9);
    hi := greatest(coalesce(hi, 1), 1.1);
    <<pick>>
    FOR e IN -2 .. 12 LOOP
        FOREACH m IN ARRAY ARRAY[1, 2, 5] LOOP
            step := m * 10.0 ^ e;
            decimals := greatest(-e, 0);
            EXIT pick WHEN (ceil(hi / step - 1e-9) - floor(lo / step + 1e-9)) <= 8;
        END LOOP;
    END LOOP;
    lo := floor(lo / step + 1e-9) * step;
    hi := ceil(hi / step - 1e-9) * step;

    -- horizontal layout: workload names, then the plot between px_lo and px_hi
    label_w := greatest(120, ceil(n * 12 * char_w)::integer + 12);
    px_lo := margin + label_w + side_pad;
    px_hi := chart_w - margin - side_pad;
    ref_x := round(px_lo + (1 - lo) / (hi - lo) * (px_hi - px_lo));

    -- title, subtitle, legend
    y := margin + 18;
    -- a long title (long labels) gets a smaller font, then is cut; <title> keeps it whole
    v := least(17, greatest(13, floor((chart_w - 2 * margin) / (length(title) * 0.62))));
    header := header || format('<text class="title" x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s">%s</text>',
                               margin, y, v, text_colour,
                               microbench.svg_escape(microbench.svg_fit(title, (chart_w - 2 * margin) * 0.58 / 0.62, v)));
    y := y + 20;
    header := header || format('<text class="subtitle" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                               margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                   'phase %s; %s; bars right of 1.0: %s higher than %s, left: lower',
                                   phase, CASE WHEN repeats THEN 'median of each label''s runs' ELSE 'one run per label' END,
                                   CASE WHEN coalesce(array_length(others, 1), 0) = 1 THEN others[1] ELSE 'label' END,
                                   base), chart_w - 2 * margin, 12)));
    y := y + 24;
    lx := margin;
    FOR i IN 1 .. ncols + 2 LOOP
        IF i <= ncols THEN
            item := CASE WHEN by_label THEN col_name[i] || CASE WHEN many_dbms THEN ' (' || coalesce(microbench.dbms_short(col_dbms[i]), col_dbms[i]) || ')' ELSE '' END
                          ELSE col_name[i] || ' (' || col_dbms[i] || ')' END;
        ELSIF i = ncols + 1 THEN
            CONTINUE WHEN NOT has_noise;
            item := 'lighter, hatched (~): within the noise';
        ELSE
            CONTINUE WHEN NOT has_gap;
            item := 'no data (-)';
        END IF;
        item := microbench.svg_fit(item, chart_w - 2 * margin - 22, 12);
        item_w := 22 + length(item) * 12 * char_w + 22;
        IF lx > margin AND lx + item_w > chart_w - margin THEN
            lx := margin;
            y := y + 20;
        END IF;
        IF i <= ncols THEN
            header := header || format('<rect class="swatch" data-col="%s" x="%s" y="%s" width="16" height="12" fill="%s" shape-rendering="crispEdges"/>',
                                       i, lx, y - 10, microbench.svg_colour(i));
        ELSIF i = ncols + 1 THEN
            header := header || format('<rect class="swatch-noise" x="%s" y="%s" width="16" height="12" fill="url(#hatch-legend)" stroke="#777777" stroke-width="1" shape-rendering="crispEdges"/>',
                                       lx + 0.5, y - 9.5);
        ELSE
            header := header || format('<rect class="swatch-nodata" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                       lx + 2, y - 5, nodata_colour);
        END IF;
        header := header || format('<text class="legend"%s x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                   CASE WHEN i <= ncols THEN format(' data-col="%s"', i) ELSE '' END,
                                   lx + 22, y, text_colour, microbench.svg_escape(item));
        lx := lx + item_w;
    END LOOP;

    -- hatch patterns: one for the legend, one per column
    defs := defs || format('<pattern id="hatch-legend" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="#dddddd"/><rect width="2" height="6" fill="#777777"/></pattern>');
    FOR i IN 1 .. ncols LOOP
        defs := defs || format('<pattern id="hatch-%s" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="%s"/><rect width="2" height="6" fill="%s"/></pattern>',
                               i, microbench.svg_colour(i, noise_tint), microbench.svg_colour(i));
    END LOOP;

    -- the rows
    y := y + 30;                       -- room for the tick labels above the plot
    plot_top := y;
    row_h := ncols * bar_h + (ncols - 1) * bar_gap + 2 * row_pad;
    FOR g IN
        SELECT DISTINCT r.group_order, r.grp
        FROM jsonb_to_recordset(grid) AS r(group_order integer, grp text)
        ORDER BY 1
    LOOP
        bands := bands || format('<rect class="group-band" x="%s" y="%s" width="%s" height="%s" fill="#e9edf2" shape-rendering="crispEdges"/>',
                                 margin, y, chart_w - 2 * margin, head_h);
        texts := texts || format('<text class="group" x="%s" y="%s" font-size="13" font-weight="bold" fill="%s">%s</text>',
                                 margin + 6, y + head_h / 2 + 5, text_colour, microbench.svg_escape(g.grp));
        y := y + head_h;
        FOR w IN
            SELECT r.report_order, r.workload,
                   coalesce(bool_or(r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')), false) AS has_data
            FROM jsonb_to_recordset(grid) AS r(group_order integer, report_order integer, workload text,
                                               ratio double precision)
            WHERE r.group_order = g.group_order
            GROUP BY 1, 2
            ORDER BY 1
        LOOP
            row_no := row_no + 1;
            -- a row without any data is one slot high, with one mark
            rh := CASE WHEN w.has_data THEN row_h ELSE bar_h + 2 * row_pad END;
            IF row_no % 2 = 0 THEN
                bands := bands || format('<rect x="%s" y="%s" width="%s" height="%s" fill="#f6f6f6" shape-rendering="crispEdges"/>',
                                         margin, y, chart_w - 2 * margin, rh);
            END IF;
            texts := texts || format('<text class="workload" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                     margin + 14, y + rh / 2.0 + 4, text_colour, microbench.svg_escape(w.workload));
            IF NOT w.has_data THEN
                sy := y + row_pad;
                bars := bars || format('<rect class="nodata" data-col="*" data-slot-y="%s" data-slot-h="%s" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                       sy, bar_h, ref_x + 4, sy + bar_h / 2 - 1, nodata_colour);
                texts := texts || format('<text class="nodata-text" x="%s" y="%s" font-size="11" font-style="italic" fill="%s">no data</text>',
                                         ref_x + 20, sy + bar_h / 2 + 4, nodata_colour);
                y := y + rh;
                CONTINUE;
            END IF;
            FOR i IN 1 .. ncols LOOP
                sy := y + row_pad + (i - 1) * (bar_h + bar_gap);
                SELECT r.ratio, r.cell, coalesce(r.within_noise, false) AS noise INTO cell
                FROM jsonb_to_recordset(grid) AS r(column_order integer, dbms text, report_order integer,
                                                   ratio double precision, cell text, within_noise boolean)
                WHERE r.column_order = col_order[i] AND r.dbms IS NOT DISTINCT FROM col_dbms[i]
                  AND r.report_order = w.report_order;
                finite := cell.ratio IS NOT NULL AND cell.ratio NOT IN ('NaN', 'Infinity', '-Infinity');
                IF NOT finite THEN
                    bars := bars || format('<rect class="nodata" data-col="%s" data-slot-y="%s" data-slot-h="%s" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                           i, sy, bar_h, ref_x + 4, sy + bar_h / 2 - 1, nodata_colour);
                    texts := texts || format('<text class="nodata-text" x="%s" y="%s" font-size="11" font-style="italic" fill="%s">no data</text>',
                                             ref_x + 20, sy + bar_h / 2 + 4, nodata_colour);
                    CONTINUE;
                END IF;
                xr := px_lo + (cell.ratio - lo) / (hi - lo) * (px_hi - px_lo);
                x := least(xr, ref_x);
                bars := bars || format('<rect class="bar%s" data-col="%s" data-ratio="%s" data-colour="%s" data-tint="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s shape-rendering="crispEdges"/>',
                                       CASE WHEN cell.noise THEN ' noise' ELSE '' END, i, cell.ratio,
                                       microbench.svg_colour(i), microbench.svg_colour(i, noise_tint),
                                       microbench.svg_num(x), sy, microbench.svg_num(greatest(abs(xr - ref_x), 1)), bar_h,
                                       CASE WHEN cell.noise THEN format('url(#hatch-%s)', i) ELSE microbench.svg_colour(i) END,
                                       CASE WHEN cell.noise THEN format(' stroke="%s" stroke-width="1"', microbench.svg_colour(i)) ELSE '' END);
                texts := texts || CASE WHEN cell.ratio >= 1
                    THEN format('<text class="value" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                microbench.svg_num(greatest(xr, ref_x) + 4), sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell))
                    ELSE format('<text class="value" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                                microbench.svg_num(xr - 4), sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell)) END;
            END LOOP;
            y := y + rh;
        END LOOP;
    END LOOP;
    plot_bot := y;

    -- the axis: grid lines and tick labels above and below the plot
    FOR i IN 0 .. round((hi - lo) / step)::integer LOOP
        v := lo + i * step;
        x := round(px_lo + (v - lo) / (hi - lo) * (px_hi - px_lo));
        CONTINUE WHEN abs(x - ref_x) < 1;   -- the reference line is drawn on its own
        gridlines := gridlines || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                                         x + 0.5, plot_top - 6, x + 0.5, plot_bot + 6, grid_colour);
        CONTINUE WHEN abs(x - ref_x) < 30;  -- no label crowding the 1.0 label
        texts := texts || format('<text class="tick" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                 x, plot_top - 11, muted_colour, to_char(v, 'FM999999990' || CASE WHEN decimals > 0 THEN '.' || repeat('0', decimals) ELSE '' END))
                         || format('<text class="tick" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                   x, plot_bot + 20, muted_colour, to_char(v, 'FM999999990' || CASE WHEN decimals > 0 THEN '.' || repeat('0', decimals) ELSE '' END));
    END LOOP;
    -- the reference line at 1.0, over the bars
    bars := bars || format('<line id="ref-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>',
                           ref_x, plot_top - 6, ref_x, plot_bot + 6, ref_colour);
    texts := texts || format('<text class="tick ref" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_top - 11, ref_colour)
                   || format('<text class="tick ref" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_bot + 20, ref_colour);
    y := plot_bot + 26;
    IF repeats THEN
        y := y + 16;
        texts := texts || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                 margin, y, muted_colour,
                                 'cells: median of each label''s runs; ~ (hatched) marks a ratio within the noise (|ratio - 1| &lt;= the larger (max - min) / median of the two sides)');
    END IF;
    y := y + margin;

    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif"'
                  ' data-ref-x="%s" data-plot-top="%s" data-plot-bottom="%s" data-ref-colour="%s" data-nodata-colour="%s"'
                  ' data-columns="%s" data-axis="%s %s %s">',
                  chart_w, ceil(y), chart_w, ceil(y), ref_x, plot_top, plot_bot, ref_colour, nodata_colour,
                  ncols, lo, hi, step) || E'\n'
        || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
        || '<defs>' || array_to_string(defs, '') || '</defs>' || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', chart_w, ceil(y)) || E'\n'
        || array_to_string(header, E'\n') || E'\n'
        || array_to_string(bands, E'\n') || E'\n'
        || array_to_string(gridlines, E'\n') || E'\n'
        || array_to_string(bars, E'\n') || E'\n'
        || array_to_string(texts, E'\n') || E'\n'
        || '</svg>' || E'\n';
END
$fn$;

COMMENT ON FUNCTION microbench.report_svg(text, text[], text, text, boolean) IS
    'relative report as a standalone SVG bar chart: ratio other/base per microbenchmark and column, diverging from 1.0';
-- microbench_functions.sql — the extension's SQL interface.
--
-- Appended to results_schema/*.sql to make the install
-- script (see extension/Makefile).  The functions are created in the schema
-- the extension is installed into (public by default), so that
-- SELECT bench_run('point-query') works in a default session; results live
-- in schema microbench.  Every function pins its search_path so that objects
-- a user creates elsewhere cannot redirect it.

-- Where bench_prepare loaded tables, and with how many rows: rand_id() draws
-- from [1, table_size], so bench_run needs the size that was loaded.
CREATE TABLE microbench.datasets (
    schema_name  text PRIMARY KEY,
    tables       integer NOT NULL,
    table_size   bigint NOT NULL,
    prepared_at  timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION microbench_load_table(relation regclass, table_size bigint,
                                      seed bigint DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'microbench_load_table'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION microbench_load_table(regclass, bigint, bigint) IS
    'bulk-load rows 1..table_size into an sbtest table created in the same transaction (used by bench_prepare)';

-- target_schema defaults to the caller's current schema: a default
-- expression is evaluated in the caller's context, before the function's
-- own pinned search_path applies.
CREATE FUNCTION bench_prepare(tables integer DEFAULT 1, table_size bigint DEFAULT 1000000,
                              seed bigint DEFAULT NULL,
                              target_schema text DEFAULT current_schema())
RETURNS TABLE (table_name text, rows_loaded bigint, load_seconds double precision,
               index_seconds double precision)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    target  text := target_schema;
    n       integer;
    tbl     text;
    t0      timestamptz;
    t1      timestamptz;
BEGIN
    IF tables IS NULL OR tables < 1 THEN
        RAISE EXCEPTION 'tables must be at least 1, not %', coalesce(tables::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF table_size IS NULL OR table_size < 1 OR table_size > 2147483647 THEN
        RAISE EXCEPTION 'table_size must be between 1 and 2147483647, not %',
                        coalesce(table_size::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF target IS NULL THEN
        RAISE EXCEPTION 'no schema to create the sbtest tables in'
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Set search_path to a schema you can create tables in.';
    END IF;

    -- tables beyond the new count would be picked up by bench_run: drop them
    n := tables + 1;
    WHILE to_regclass(format('%I.%I', target, 'sbtest' || n)) IS NOT NULL LOOP
        EXECUTE format('DROP TABLE %I.%I', target, 'sbtest' || n);
        n := n + 1;
    END LOOP;

    FOR n IN 1..tables LOOP
        tbl := 'sbtest' || n;
        t0 := clock_timestamp();
        EXECUTE format('DROP TABLE IF EXISTS %I.%I', target, tbl);
        EXECUTE format('CREATE TABLE %I.%I (id serial NOT NULL, k integer NOT NULL DEFAULT 0,'
                       ' c char(120) NOT NULL DEFAULT '''', pad char(60) NOT NULL DEFAULT '''')',
                       target, tbl);
        PERFORM @extschema@.microbench_load_table(format('%I.%I', target, tbl)::regclass,
                                                  table_size, seed + n);
        t1 := clock_timestamp();
        EXECUTE format('ALTER TABLE %I.%I ADD PRIMARY KEY (id)', target, tbl);
        EXECUTE format('CREATE INDEX %I ON %I.%I (k)', 'k_' || n, target, tbl);
        PERFORM setval(pg_get_serial_sequence(format('%I.%I', target, tbl), 'id'), table_size);
        EXECUTE format('ANALYZE %I.%I', target, tbl);
        table_name := tbl;
        rows_loaded := table_size;
        load_seconds := extract(epoch FROM t1 - t0);
        index_seconds := extract(epoch FROM clock_timestamp() - t1);
        RETURN NEXT;
    END LOOP;

    INSERT INTO microbench.datasets AS d (schema_name, tables, table_size)
    VALUES (target, bench_prepare.tables, bench_prepare.table_size)
    ON CONFLICT (schema_name) DO UPDATE
        SET tables = excluded.tables, table_size = excluded.table_size, prepared_at = now();
END
$fn$;

COMMENT ON FUNCTION bench_prepare(integer, bigint, bigint, text) IS
    'create and load sbtest1..N (WORKLOADS.md data set) in the current schema, then index and analyze them';

CREATE FUNCTION bench_run(workload text,
                          seconds float8 DEFAULT 60, clients integer DEFAULT 1,
                          warmup float8 DEFAULT 5,
                          range_size integer DEFAULT NULL, tables integer DEFAULT NULL,
                          rand_type text DEFAULT 'uniform', seed bigint DEFAULT NULL,
                          label text DEFAULT NULL, phase text DEFAULT 'post',
                          report_interval float8 DEFAULT 0,
                          ignore_errors text[] DEFAULT NULL, ps_mode text DEFAULT 'auto',
                          rate float8 DEFAULT 0, events bigint DEFAULT NULL,
                          reconnect integer DEFAULT 0)
RETURNS microbench.runs
AS 'MODULE_PATHNAME', 'bench_run'
LANGUAGE C VOLATILE CALLED ON NULL INPUT;

COMMENT ON FUNCTION bench_run(text, float8, integer, float8, integer, integer, text, bigint,
                              text, text, float8, text[], text, float8, bigint, integer) IS
    'run one microbenchmark with background-worker clients, record it in microbench.runs and return the row';

CREATE FUNCTION bench_workloads()
RETURNS TABLE (name text, grp text, report_order integer, queries_per_event integer,
               description text, in_transaction boolean, default_range integer,
               statements text)
AS 'MODULE_PATHNAME', 'bench_workloads'
LANGUAGE C IMMUTABLE STRICT;

COMMENT ON FUNCTION bench_workloads() IS
    'the microbenchmark catalog: name, report group and order, queries per event, statements';

-- Results are user data: pg_dump must dump them although the extension
-- created the tables.
SELECT pg_catalog.pg_extension_config_dump('microbench.runs', '');
SELECT pg_catalog.pg_extension_config_dump('microbench.runs_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('microbench.datasets', '');
SELECT pg_catalog.pg_extension_config_dump('microbench.import_queue', '');

-- The reports, under the names of DESIGN.md in the extension's schema.
CREATE FUNCTION bench_report(base text, other text, format text DEFAULT 'text',
                             phase text DEFAULT 'post', metric text DEFAULT 'qps')
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_report(base, other, format, phase, metric) $$;

CREATE FUNCTION bench_relative(base text, VARIADIC others text[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_relative(base, VARIADIC others) $$;

-- ---- the standard suite -------------------------------------------------

CREATE FUNCTION bench_suite_plan()
RETURNS TABLE (step integer, kind text, workload text, phase text, class text)
AS 'MODULE_PATHNAME', 'bench_suite_plan'
LANGUAGE C IMMUTABLE STRICT;

COMMENT ON FUNCTION bench_suite_plan() IS
    'the standard suite order of WORKLOADS.md: warm-up, pre reads, writes, maintenance, post reads, delete, insert';

CREATE FUNCTION microbench_vacuum_analyze(tables integer)
RETURNS void
AS 'MODULE_PATHNAME', 'microbench_vacuum_analyze'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION microbench_vacuum_analyze(integer) IS
    'VACUUM (ANALYZE) sbtest1..N at top level in a background worker (VACUUM cannot run inside a procedure)';

-- The suite's steps for a workload subset, with each step's measured seconds
-- and the seconds left from it to the end (for the progress notices).
-- Maintenance is kept only when some write runs before it.
CREATE FUNCTION microbench.suite_steps(workloads text[], read_seconds float8,
                                       write_seconds float8, insert_seconds float8,
                                       warmup float8)
RETURNS TABLE (n integer, steps integer, kind text, workload text, phase text,
               seconds float8, remaining float8)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH chosen AS (
        SELECT p.* FROM @extschema@.bench_suite_plan() p
        WHERE workloads IS NULL OR p.kind <> 'run' OR p.workload = ANY (workloads)
    ), kept AS (
        SELECT c.*,
               CASE WHEN c.kind = 'maintenance' THEN 0
                    WHEN c.class = 'read' THEN read_seconds
                    WHEN c.class = 'write' THEN write_seconds
                    ELSE insert_seconds END AS secs
        FROM chosen c
        WHERE c.kind <> 'maintenance'
           OR EXISTS (SELECT 1 FROM chosen w WHERE w.kind = 'run' AND w.class = 'write')
    )
    SELECT (row_number() OVER (ORDER BY k.step))::integer, (count(*) OVER ())::integer,
           k.kind, k.workload, k.phase, k.secs,
           sum(k.secs + CASE WHEN k.kind = 'maintenance' THEN 0 ELSE warmup END)
               OVER (ORDER BY k.step ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
    FROM kept k
    ORDER BY k.step
$fn$;

-- Check the request, load the tables if asked, and return the schema the
-- suite runs in: where sbtest1 was found, or where it was just loaded.
CREATE FUNCTION microbench.suite_start(sbtest1 regclass, current_schema_name text,
                                       workloads text[], tables integer, table_size bigint)
RETURNS text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF workloads IS NOT NULL THEN
        PERFORM 1 FROM unnest(workloads) AS o(name)
        WHERE o.name IS NULL OR o.name NOT IN (SELECT w.name FROM @extschema@.bench_workloads() w);
        IF FOUND THEN
            RAISE EXCEPTION 'workloads => % names an unknown workload', workloads
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'SELECT name FROM bench_workloads(); lists the workloads.';
        END IF;
    END IF;
    IF table_size IS NOT NULL THEN
        RAISE NOTICE 'loading % table(s) of % rows', tables, table_size;
        PERFORM @extschema@.bench_prepare(tables, table_size, target_schema => current_schema_name);
        RETURN current_schema_name;
    END IF;
    IF sbtest1 IS NULL THEN
        RAISE EXCEPTION 'table "sbtest1" does not exist in the search path'
            USING ERRCODE = 'undefined_table',
                  HINT = 'Run SELECT bench_prepare(); first, or pass table_size => to load the tables.';
    END IF;
    RETURN (SELECT n.nspname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.oid = sbtest1);
END
$fn$;

-- One step of the suite: a progress notice, then a run (a warm-up run is
-- measured like any other but not kept) or the maintenance step.  The
-- search_path is the pinned one plus the tables' schema, which bench_run and
-- microbench_vacuum_analyze look the tables up in.
CREATE FUNCTION microbench.suite_step(n integer, steps integer, kind text, workload text,
                                      phase text, seconds float8, remaining float8,
                                      target text, label text, clients integer,
                                      warmup float8, tables integer,
                                      report_interval float8, started timestamptz,
                                      ignore_errors text[], ps_mode text, rate float8,
                                      reconnect integer)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    this_run bigint;
BEGIN
    PERFORM set_config('search_path', format('pg_catalog, %I, pg_temp', target), true);
    RAISE NOTICE '[% of %] % % % — elapsed %s, about %s to go', n, steps, kind,
        coalesce(workload, 'VACUUM (ANALYZE) + CHECKPOINT'), coalesce('(' || phase || ')', ''),
        round(extract(epoch FROM clock_timestamp() - started)), round(remaining::numeric);

    IF kind = 'maintenance' THEN
        PERFORM @extschema@.microbench_vacuum_analyze(tables);
        BEGIN
            CHECKPOINT;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'skipping CHECKPOINT: % (needs superuser or pg_checkpoint)', SQLERRM;
        END;
        RETURN;
    END IF;

    SELECT r.run_id INTO this_run
    FROM @extschema@.bench_run(workload, seconds => seconds, clients => clients,
                               warmup => warmup, tables => tables, label => label,
                               phase => coalesce(phase, 'pre'),
                               report_interval => report_interval,
                               ignore_errors => ignore_errors, ps_mode => ps_mode,
                               rate => rate, reconnect => reconnect) r;
    IF kind = 'warmup' THEN
        DELETE FROM microbench.runs r WHERE r.run_id = this_run;
    END IF;
END
$fn$;

-- Runs the standard suite, committing after every run so that a failure at
-- run 20 keeps runs 1 to 19.  Durations per class: reads, writes, and the
-- final delete and insert.  workloads => ARRAY[...] runs a subset (maintenance
-- still follows the writes when any write runs).  A procedure that commits
-- cannot pin its search_path with SET, so this body only calls
-- schema-qualified functions, which do the work with a pinned search_path,
-- and uses no operator that the caller's search_path could redirect.
-- ignore_errors, ps_mode, rate and reconnect apply to every run, as for
-- bench_run (docs/run-options.md).
CREATE PROCEDURE bench_suite(label text DEFAULT NULL,
                             read_seconds float8 DEFAULT 60, write_seconds float8 DEFAULT 90,
                             insert_seconds float8 DEFAULT 60,
                             clients integer DEFAULT 1, warmup float8 DEFAULT 5,
                             tables integer DEFAULT 1, table_size bigint DEFAULT NULL,
                             workloads text[] DEFAULT NULL, report_interval float8 DEFAULT 0,
                             ignore_errors text[] DEFAULT NULL, ps_mode text DEFAULT 'auto',
                             rate float8 DEFAULT 0, reconnect integer DEFAULT 0)
LANGUAGE plpgsql
AS $proc$
DECLARE
    s        record;
    started  timestamptz := pg_catalog.clock_timestamp();
    target   text;
BEGIN
    target := microbench.suite_start(pg_catalog.to_regclass('sbtest1'), pg_catalog.current_schema(),
                                     workloads, tables, table_size);
    COMMIT;
    FOR s IN SELECT * FROM microbench.suite_steps(workloads, read_seconds, write_seconds,
                                                  insert_seconds, warmup) LOOP
        PERFORM microbench.suite_step(s.n, s.steps, s.kind, s.workload, s.phase, s.seconds,
                                      s.remaining, target, label, clients, warmup, tables,
                                      report_interval, started, ignore_errors, ps_mode,
                                      rate, reconnect);
        COMMIT;
    END LOOP;
    PERFORM microbench.suite_done(started);
END
$proc$;

CREATE FUNCTION microbench.suite_done(started timestamptz)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RAISE NOTICE 'suite done in %s', round(extract(epoch FROM clock_timestamp() - started));
END
$fn$;

COMMENT ON PROCEDURE bench_suite(text, float8, float8, float8, integer, float8, integer, bigint,
                                 text[], float8, text[], text, float8, integer) IS
    'the standard suite of WORKLOADS.md, committing after every run';

-- ---- who may run benchmarks ----------------------------------------------
--
-- Creating tables and starting background workers is not for everyone:
-- PUBLIC may only read the catalog and the suite plan.  Members of
-- microbench_user may prepare, run and read.  The clients always run as the
-- calling role (never SECURITY DEFINER), so a member can touch only what it
-- could touch itself.  Roles are cluster-wide: the role survives DROP
-- EXTENSION and is shared by every database that installs microbench.
DO $roles$
DECLARE
    routine regprocedure;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'microbench_user') THEN
        CREATE ROLE microbench_user NOLOGIN;
        COMMENT ON ROLE microbench_user IS
            'members may run microbench benchmarks (bench_prepare, bench_run, bench_suite) and read their results';
    END IF;
    -- what creates tables or starts workers, and the steps of the suite
    FOR routine IN
        SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
        WHERE (p.pronamespace = '@extschema@'::regnamespace
               AND p.proname IN ('bench_prepare', 'bench_run', 'bench_suite',
                                 'microbench_load_table', 'microbench_vacuum_analyze'))
           OR (p.pronamespace = 'microbench'::regnamespace
               AND p.proname IN ('suite_steps', 'suite_start', 'suite_step', 'suite_done',
                                 'import_runs'))
    LOOP
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON ROUTINE %s FROM PUBLIC', routine);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON ROUTINE %s TO microbench_user', routine);
    END LOOP;
END
$roles$;

GRANT USAGE ON SCHEMA microbench TO microbench_user;
-- DELETE: bench_suite drops its warm-up rows, and users drop bad runs
GRANT SELECT, INSERT, DELETE ON microbench.runs TO microbench_user;
GRANT USAGE ON SEQUENCE microbench.runs_run_id_seq TO microbench_user;
GRANT SELECT, INSERT, UPDATE ON microbench.datasets TO microbench_user;
GRANT SELECT, INSERT, DELETE ON microbench.import_queue TO microbench_user;
GRANT SELECT ON ALL TABLES IN SCHEMA microbench TO microbench_user;
