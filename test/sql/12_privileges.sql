-- 12_privileges.sql — who may run benchmarks, and as whom the clients run.
--
-- run_pg_tests.sh created two login roles: mb_plain (no grants) and
-- mb_granted (a member of microbench_user, owner of schema granted, where
-- it loaded its own sbtest1).  Each check switches role inside the
-- statement it runs and switches back, so pgTAP's own bookkeeping stays the
-- superuser's.
BEGIN;
SET client_min_messages = warning;
SELECT plan(25);

-- ---- PUBLIC cannot create tables or start workers -------------------------
SELECT ok(NOT has_function_privilege('mb_plain', f, 'EXECUTE'), 'PUBLIC may not execute ' || f)
FROM unnest(ARRAY[
    'bench_prepare(integer, bigint, bigint, text)',
    'bench_run(text, float8, integer, float8, integer, integer, text, bigint, text, text, float8, text[], text, float8, bigint, integer, integer, bigint, boolean, boolean)',
    'bench_prewarm(integer)',
    'bench_suite(text, float8, float8, float8, integer, float8, integer, bigint, text[], float8, text[], text, float8, integer)',
    'microbench_load_table(regclass, bigint, bigint)',
    'microbench_vacuum_analyze(integer)']) AS f;
SELECT ok(has_function_privilege('mb_plain', 'bench_workloads()', 'EXECUTE'),
          'PUBLIC may still list the catalog');


SELECT throws_ok($$SET SESSION AUTHORIZATION mb_plain; SET search_path = plain, public;
                   SELECT * FROM bench_prepare(1, 100)$$,
                 '42501', 'permission denied for function bench_prepare',
                 'an ungranted role may not run bench_prepare');
SELECT is(to_regclass('plain.sbtest1'), NULL, '... and no table was created');
SELECT throws_ok($$SET SESSION AUTHORIZATION mb_plain; SET search_path = granted, public;
                   SELECT bench_run('point-query', seconds => 1, warmup => 0)$$,
                 '42501', 'permission denied for function bench_run',
                 'an ungranted role may not run bench_run');
SELECT throws_ok($$SET SESSION AUTHORIZATION mb_plain; SET search_path = granted, public;
                   CALL bench_suite('plain', read_seconds => 1, workloads => ARRAY['point-query'])$$,
                 '42501', 'permission denied for procedure bench_suite',
                 'an ungranted role may not run bench_suite');
SELECT is((SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'microbench'), 0::bigint,
          '... and no worker started');

-- ---- a member of microbench_user runs, and its clients run as itself ----
SELECT pg_stat_statements_reset();
SELECT lives_ok($$SET SESSION AUTHORIZATION mb_granted; SET search_path = granted, public;
                  SELECT bench_run('point-query', seconds => 0, events => 100, warmup => 0, clients => 2,
                                   label => 'as-granted');
                  RESET SESSION AUTHORIZATION; RESET search_path$$,
                'a member of microbench_user runs bench_run');
SELECT is((SELECT count(*) FROM microbench.runs WHERE label = 'as-granted' AND events = 100), 1::bigint,
          '... and its run is recorded');
SELECT is((SELECT array_agg(DISTINCT userid::regrole::text) FROM pg_stat_statements
           WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1'),
          ARRAY['mb_granted'], '... its clients ran as mb_granted');
SELECT is((SELECT rolsuper FROM pg_roles WHERE rolname = 'mb_granted'), false,
          '... which is not a superuser');
SELECT lives_ok($$SET SESSION AUTHORIZATION mb_granted;
                  SELECT * FROM bench_prepare(1, 100, target_schema => 'granted_scratch');
                  RESET SESSION AUTHORIZATION$$,
                'a member of microbench_user may load tables into its own schema');
SELECT throws_ok($$SET SESSION AUTHORIZATION mb_granted;
                   SELECT * FROM bench_prepare(1, 100, target_schema => 'plain')$$,
                 '42501', NULL,
                 '... but not into a schema it may not create in');

-- After SET ROLE to the NOLOGIN group role, the clients would connect as
-- that role: before Postgres 17 a background worker cannot (refused up
-- front); from 17 on it can, and then has that role's privileges, which do
-- not include reading another role's tables.  Either way: 42501.
SELECT throws_ok($$SET LOCAL ROLE microbench_user; SELECT bench_run('point-query', seconds => 0.2, warmup => 0)$$,
                 '42501', NULL,
                 'after SET ROLE to a group role the clients get no more than that role');
CREATE ROLE mb_limited LOGIN CONNECTION LIMIT 1 IN ROLE microbench_user;
SELECT throws_ok($$SET SESSION AUTHORIZATION mb_limited; SET search_path = granted, public;
                   SELECT bench_run('point-query', seconds => 0.2, warmup => 0, clients => 2)$$,
                 '53300', NULL,
                 'more clients than the role''s connection limit allows: refused up front');

-- ---- nothing runs with more than the caller's rights, nothing is unpinned ----
SELECT is((SELECT array_agg(p.oid::regprocedure::text ORDER BY 1)
           FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'microbench'
           WHERE p.prosecdef),
          NULL, 'no function of the extension is SECURITY DEFINER');
SELECT is((SELECT array_agg(p.oid::regprocedure::text ORDER BY p.oid::regprocedure::text COLLATE "C")
           FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'microbench'
           JOIN pg_language l ON l.oid = p.prolang
           WHERE l.lanname IN ('sql', 'plpgsql')
             AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false)),
          ARRAY['bench_suite(text,double precision,double precision,double precision,integer,double precision,integer,bigint,text[],double precision,text[],text,double precision,integer)',
                'microbench.scoped_runs()'],
          'every SQL function pins search_path (bench_suite, a procedure that commits, cannot: its body calls only qualified, pinned functions; nor scoped_runs, which must be inlined: its body names only qualified objects and operators)');

-- ---- a hostile search_path cannot redirect the extension's own queries ----
CREATE SCHEMA evil;
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE sql AS $$ SELECT 'hacked' $$;
CREATE FUNCTION evil.version() RETURNS text LANGUAGE sql AS $$ SELECT 'hacked' $$;
CREATE FUNCTION evil.setval(regclass, bigint) RETURNS bigint LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'redirected to evil.setval'; END $$;
SELECT lives_ok($$SET LOCAL search_path = evil, pg_catalog, public;
                  SELECT bench_run('point-query', seconds => 0.2, warmup => 0, label => 'hostile-path');
                  RESET search_path$$,
                'bench_run works with a hostile schema ahead of pg_catalog');
SELECT is((SELECT version || '|' || version_string FROM microbench.runs WHERE label = 'hostile-path'),
          current_setting('server_version') || '|' || version(),
          '... and records the real server version, not the hostile functions'' answer');
SELECT lives_ok($$SET LOCAL search_path = evil, pg_catalog, public;
                  SELECT * FROM bench_prepare(1, 100, target_schema => 'granted_scratch');
                  RESET search_path$$,
                'bench_prepare is not redirected to a hostile setval');

SELECT * FROM finish();
ROLLBACK;
