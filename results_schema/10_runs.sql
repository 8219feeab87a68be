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
    -- what ran the statements: extension (in-server), mysql or pgsql (the
    -- client's MySQL/MariaDB and libpq drivers, over the wire)
    driver          text NOT NULL DEFAULT 'extension'
);

CREATE INDEX IF NOT EXISTS runs_label_workload
    ON microbench.runs (dbms, label, workload, phase);

COMMENT ON TABLE microbench.runs IS
    'one row per finished microbenchmark run (docs/workloads.md gives the counting rules)';
COMMENT ON COLUMN microbench.runs.qps IS 'queries / elapsed_seconds, BEGIN and COMMIT counted';
COMMENT ON COLUMN microbench.runs.tps IS 'events / elapsed_seconds';
COMMENT ON COLUMN microbench.runs.driver IS
    'what ran the statements: extension (background workers in the server), mysql (the client''s MySQL/MariaDB driver) or pgsql (the client''s libpq driver, Postgres over the wire)';

-- Until the client had a libpq driver its runs were recorded as
-- 'microbench-mysql'; they are 'mysql' now, so that a driver names the
-- protocol path alone.  Runs again harmlessly: no row has the old name
-- after the first time.  No CHECK constraint holds driver to the three
-- names: a client older than this schema still writes the old name, and
-- its run is better kept than refused; the reports never pool two drivers'
-- runs, whatever their names (30_reports.sql).
UPDATE microbench.runs SET driver = 'mysql' WHERE driver = 'microbench-mysql';

-- Runs that a client could not insert directly (no results database given,
-- or it was down) arrive as JSON lines, one object per run with the column
-- names of microbench.runs.  One command loads a file, each run in a
-- transaction of its own, naming a line the database refuses and skipping
-- runs already loaded (their run_uid, 12_fleet.sql; docs/client.md):
--   microbench load microbench-results.jsonl --results-db=CONNINFO
-- Without the client, psql does the same in two steps, queue then import:
--   \copy microbench.import_queue (doc) FROM 'microbench-results.jsonl'
--         WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')
--   SELECT microbench.import_runs();
-- (the csv options with unused control characters pass each line through
-- untouched, backslashes included).
CREATE TABLE IF NOT EXISTS microbench.import_queue (
    doc jsonb NOT NULL
);

-- microbench.import_runs() (12_fleet.sql) moves the queued lines into
-- microbench.runs, each through microbench.push_run().
