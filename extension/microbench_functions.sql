-- microbench_functions.sql — the extension's SQL interface.
--
-- Appended to results_schema/*.sql to make the install
-- script (see extension/Makefile).  The functions are created in the schema
-- the extension is installed into (public by default), so that
-- SELECT bench_run('point-query') works in a default session; results live
-- in schema microbench.  Every function pins its search_path so that objects
-- a user creates elsewhere cannot redirect it.
--
-- Like results_schema/, every statement can run again over an older
-- version's objects (CREATE OR REPLACE, IF NOT EXISTS): the update scripts
-- replay the whole install script after dropping the older signatures of
-- functions whose arguments or results changed (upgrade/0.2.sql, and
-- results_schema/upgrade/0.2.sql for the results schema's).

-- Where bench_prepare loaded tables, and with how many rows: rand_id() draws
-- from [1, table_size], so bench_run needs the size that was loaded.
CREATE TABLE IF NOT EXISTS microbench.datasets (
    schema_name  text PRIMARY KEY,
    tables       integer NOT NULL,
    table_size   bigint NOT NULL,
    prepared_at  timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION microbench_load_table(relation regclass, table_size bigint,
                                      seed bigint DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'microbench_load_table'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION microbench_load_table(regclass, bigint, bigint) IS
    'bulk-load rows 1..table_size into an sbtest table created or truncated in the same transaction (used by bench_prepare); returns the path taken: direct, bulk-insert, frozen, or bulk-insert';

-- target_schema defaults to the caller's current schema: a default
-- expression is evaluated in the caller's context, before the function's
-- own pinned search_path applies.
CREATE OR REPLACE FUNCTION bench_prepare(tables integer DEFAULT 1, table_size bigint DEFAULT 1000000,
                              seed bigint DEFAULT NULL,
                              target_schema text DEFAULT current_schema())
RETURNS TABLE (table_name text, rows_loaded bigint, load_seconds double precision,
               index_seconds double precision, load_path text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    target  text := target_schema;
    n       integer;
    tbl     text;
    t0      timestamptz;
    t1      timestamptz;
    -- Locks one table takes until the end of this transaction: the table,
    -- its TOAST table and index, the id sequence, two indexes and their
    -- catalog rows (02_prepare.sql checks this figure against pg_locks).
    locks_per_table constant integer := 14;
    lock_slots bigint;
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
    -- All tables are created in one transaction, so their locks add up; the
    -- shared lock table only promises room for max_locks_per_transaction
    -- per server process.  Beyond that the load fails part-way (after
    -- minutes) with "out of shared memory": refuse it before starting.
    lock_slots := current_setting('max_locks_per_transaction')::bigint
        * (current_setting('max_connections')::bigint
           + coalesce(current_setting('autovacuum_worker_slots', true),
                      current_setting('autovacuum_max_workers'))::bigint + 1
           + current_setting('max_worker_processes')::bigint
           + current_setting('max_wal_senders')::bigint
           + current_setting('max_prepared_transactions')::bigint);
    IF tables::bigint * locks_per_table > lock_slots THEN
        RAISE EXCEPTION 'bench_prepare(%) would hold about % locks in one transaction; the lock table has room for %',
                        tables, tables::bigint * locks_per_table, lock_slots
            USING ERRCODE = 'program_limit_exceeded',
                  DETAIL = 'Each table takes about ' || locks_per_table || ' locks until commit; the lock table holds'
                           || ' max_locks_per_transaction (' || current_setting('max_locks_per_transaction')
                           || ') per server process and prepared transaction.',
                  HINT = 'Set max_locks_per_transaction to at least '
                         || ceil(tables::numeric * locks_per_table * current_setting('max_locks_per_transaction')::numeric / lock_slots)
                         || ' (restart needed), or prepare fewer tables.';
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
        -- Both indexes exist, empty, before the load: the loader builds them
        -- from the rows it writes (or Postgres builds them after the load).
        -- The primary key then takes its index over, with the name ADD
        -- PRIMARY KEY (id) would give it.
        EXECUTE format('CREATE UNIQUE INDEX %I ON %I.%I (id)', tbl || '_pkey', target, tbl);
        EXECUTE format('CREATE INDEX %I ON %I.%I (k)', 'k_' || n, target, tbl);
        -- the loader draws table N's rows from stream N of the seed
        load_path := @extschema@.microbench_load_table(format('%I.%I', target, tbl)::regclass,
                                                       table_size, seed);
        EXECUTE format('ALTER TABLE %I.%I ADD PRIMARY KEY USING INDEX %I', target, tbl, tbl || '_pkey');
        t1 := clock_timestamp();
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
    'create and load sbtest1..N (the data set of docs/workloads.md) in the current schema, then index and analyze them';

CREATE OR REPLACE FUNCTION bench_run(workload text,
                          seconds float8 DEFAULT 60, clients integer DEFAULT 1,
                          warmup float8 DEFAULT 5,
                          range_size integer DEFAULT NULL, tables integer DEFAULT NULL,
                          rand_type text DEFAULT 'uniform', seed bigint DEFAULT NULL,
                          label text DEFAULT NULL, phase text DEFAULT 'post',
                          report_interval float8 DEFAULT 0,
                          ignore_errors text[] DEFAULT NULL, ps_mode text DEFAULT 'auto',
                          rate float8 DEFAULT 0, events bigint DEFAULT NULL,
                          reconnect integer DEFAULT 0, round integer DEFAULT NULL,
                          warmup_events bigint DEFAULT NULL, count_window boolean DEFAULT false,
                          checkpoint boolean DEFAULT false)
RETURNS microbench.runs
AS 'MODULE_PATHNAME', 'bench_run'
LANGUAGE C VOLATILE CALLED ON NULL INPUT;

COMMENT ON FUNCTION bench_run(text, float8, integer, float8, integer, integer, text, bigint,
                              text, text, float8, text[], text, float8, bigint, integer, integer,
                              bigint, boolean, boolean) IS
    'run one microbenchmark with background-worker clients, record it in microbench.runs and return the row';

-- Every block of the sbtest tables and their indexes (all forks) read into
-- shared buffers: what a counted run does right after its server starts, so
-- that its window counts queries on warm data, not the first touch of pages.
-- The tables are found as bench_run finds them: sbtest1 on the caller's
-- search_path, and sbtest2..N beside it (tables => N: the first N).
CREATE OR REPLACE FUNCTION microbench_prewarm(relation regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'microbench_prewarm'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION microbench_prewarm(regclass) IS
    'read every block of a table or index, every fork, into shared buffers; the number of blocks';

-- (C, as bench_run: sbtest1 is looked up on the caller's search_path)
CREATE OR REPLACE FUNCTION bench_prewarm(tables integer DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bench_prewarm'
LANGUAGE C VOLATILE CALLED ON NULL INPUT;

COMMENT ON FUNCTION bench_prewarm(integer) IS
    'read the sbtest tables and their indexes (every block, every fork) into shared buffers; the number of blocks';

CREATE OR REPLACE FUNCTION bench_workloads()
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

-- The reports, under short names in the extension's schema.

CREATE OR REPLACE FUNCTION bench_report(base text, other text, format text DEFAULT 'text',
                             phase text DEFAULT 'post', metric text DEFAULT 'qps',
                             confidence float8 DEFAULT 0.95, threshold float8 DEFAULT 0.02,
                             driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                             other_driver text DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT microbench.bench_report(base, other, format, phase, metric, confidence, threshold,
                                   driver, base_driver, other_driver)
$$;

CREATE OR REPLACE FUNCTION bench_relative(base text, VARIADIC others text[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_relative(base, others, 'text') $$;

CREATE OR REPLACE FUNCTION bench_relative(base text, others text[], format text,
                               phase text DEFAULT 'post', metric text DEFAULT 'qps',
                               confidence float8 DEFAULT 0.95, threshold float8 DEFAULT 0.02,
                               driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                               other_driver text DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT microbench.bench_relative(base, others, format, phase, metric, confidence, threshold,
                                     driver, base_driver, other_driver)
$$;

-- a label's runs over the wire (driver pgsql) against its runs in-server
CREATE OR REPLACE FUNCTION bench_protocol(label text, format text DEFAULT 'text',
                               phase text DEFAULT 'post', metric text DEFAULT 'qps',
                               confidence float8 DEFAULT 0.95, threshold float8 DEFAULT 0.02)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_protocol(label, format, phase, metric, confidence, threshold) $$;

-- ---- the standard suite -------------------------------------------------

-- The order itself is microbench.suite_order (20_catalog.sql, generated
-- from common/mb_suite.c, the list microbench-mysql walks too).
CREATE OR REPLACE FUNCTION bench_suite_plan()
RETURNS TABLE (step integer, kind text, workload text, phase text, class text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT o.step, o.kind, o.workload, o.phase, o.class FROM microbench.suite_order o ORDER BY o.step $$;

COMMENT ON FUNCTION bench_suite_plan() IS
    'the standard suite order (docs/workloads.md): warm-up, pre reads, writes, maintenance, post reads, delete, insert';

CREATE OR REPLACE FUNCTION microbench_vacuum_analyze(tables integer)
RETURNS void
AS 'MODULE_PATHNAME', 'microbench_vacuum_analyze'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION microbench_vacuum_analyze(integer) IS
    'VACUUM (ANALYZE) sbtest1..N at top level in a background worker (VACUUM cannot run inside a procedure)';

-- Check the request, load the tables if asked, and return the schema the
-- suite runs in: where sbtest1 was found, or where it was just loaded.
CREATE OR REPLACE FUNCTION microbench.suite_start(sbtest1 regclass, current_schema_name text,
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
CREATE OR REPLACE FUNCTION microbench.suite_step(n integer, steps integer, kind text, workload text,
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
CREATE OR REPLACE PROCEDURE bench_suite(label text DEFAULT NULL,
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

CREATE OR REPLACE FUNCTION microbench.suite_done(started timestamptz)
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
    'the standard suite (docs/workloads.md), committing after every run';

-- ---- who may run benchmarks ----------------------------------------------
--
-- Creating tables and starting background workers is not for everyone:
-- PUBLIC may only read the catalog and the suite plan.  Members of
-- microbench_user may prepare, prewarm (which fills shared buffers), run and
-- read.  The clients always run as the
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
               AND p.proname IN ('bench_prepare', 'bench_run', 'bench_suite', 'bench_prewarm',
                                 'microbench_load_table', 'microbench_vacuum_analyze',
                                 'microbench_prewarm'))
           OR (p.pronamespace = 'microbench'::regnamespace
               AND p.proname IN ('suite_steps', 'suite_start', 'suite_step', 'suite_done',
                                 'import_runs', 'push_run'))
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
-- a run's host, facts and campaign are made with it (results_schema/12_fleet.sql)
GRANT INSERT ON microbench.hosts, microbench.host_facts, microbench.campaigns TO microbench_user;
GRANT USAGE ON SEQUENCE microbench.hosts_host_id_seq, microbench.host_facts_facts_id_seq,
    microbench.campaigns_campaign_id_seq TO microbench_user;
GRANT SELECT ON ALL TABLES IN SCHEMA microbench TO microbench_user;
