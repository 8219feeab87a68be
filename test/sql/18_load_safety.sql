-- 18_load_safety.sql — microbench_load_table writes frozen rows, or pages
-- past shared buffers, only where COPY FREEZE could write frozen rows: the
-- table's file made in the current subtransaction, no cursor open, no query
-- reading the table.  Anywhere else its rows are ordinary inserts, gone
-- with a rollback.  A load that fails part-way (microbench.inject_load_error
-- makes it fail at each step) leaves nothing visible after the rollback and
-- the indexes sound (amcheck: every visible row found from the root down).
--
-- This file runs several transactions of its own (the case from the issue
-- ends with a COMMIT), in schema load_safety, dropped at the end.
SET client_min_messages = warning;
SELECT plan(53);

CREATE SCHEMA load_safety;
SET search_path = load_safety, public;
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pageinspect;
    CREATE EXTENSION IF NOT EXISTS amcheck;
EXCEPTION WHEN OTHERS THEN
    NULL;
END $$;

-- an sbtest table with its two indexes, as bench_prepare creates them
CREATE FUNCTION pg_temp.make_sbtest(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TABLE load_safety.%I (id serial NOT NULL, k integer NOT NULL DEFAULT 0,'
                   ' c char(120) NOT NULL DEFAULT '''', pad char(60) NOT NULL DEFAULT '''')', t);
    EXECUTE format('CREATE UNIQUE INDEX %I ON load_safety.%I (id)', t || '_pkey', t);
    EXECUTE format('CREATE INDEX %I ON load_safety.%I (k)', t || '_k', t);
END $$;
-- a load that fails at the given step (the setting is undone with the
-- subtransaction that throws_ok runs it in)
CREATE FUNCTION pg_temp.load(t text, n bigint, fail_at text DEFAULT 'none') RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('microbench.inject_load_error', fail_at, true);
    RETURN microbench_load_table(('load_safety.' || quote_ident(t))::regclass, n, 1);
END $$;
CREATE FUNCTION pg_temp.create_and_load(t text, n bigint, fail_at text DEFAULT 'none') RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_temp.make_sbtest(t);
    RETURN pg_temp.load(t, n, fail_at);
END $$;
CREATE FUNCTION pg_temp.has_extension(name text) RETURNS boolean LANGUAGE sql AS
    $$SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = name)$$;
CREATE FUNCTION pg_temp.direct_pages() RETURNS boolean LANGUAGE sql AS
    $$SELECT current_setting('microbench.direct_pages')::boolean$$;
-- what a load takes where freezing is safe
CREATE FUNCTION pg_temp.safe_path() RETURNS text LANGUAGE sql AS
    $$SELECT CASE WHEN pg_temp.direct_pages() THEN 'direct' ELSE 'bulk-insert, frozen' END$$;
-- rows on t's pages whose xmin is marked frozen (needs pageinspect)
CREATE FUNCTION pg_temp.frozen_rows(t regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    EXECUTE 'SELECT count(*) FROM generate_series(0, pg_relation_size($1) / current_setting(''block_size'')::int - 1) blk,
                    heap_page_items(get_raw_page($1::text, blk::int)) i
              WHERE i.t_infomask & 768 = 768' INTO n USING t;
    RETURN n;
END $$;
-- one check: how many of t's rows are frozen (skipped without pageinspect)
CREATE FUNCTION pg_temp.frozen_is(t regclass, want bigint, description text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_temp.has_extension('pageinspect') THEN
        RETURN skip('pageinspect is not installed: frozen rows are not counted', 1);
    END IF;
    RETURN is(pg_temp.frozen_rows(t), want, description);
END $$;
-- rows found through each of t's two indexes, and amcheck's verdict on both:
-- "n by id, n by k, sound"
CREATE FUNCTION pg_temp.indexes_state(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE by_id bigint; by_k bigint; sound text := 'not checked (no amcheck)';
BEGIN
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_bitmapscan = off;
    EXECUTE format('SELECT count(*) FROM load_safety.%I WHERE id > 0', t) INTO by_id;
    EXECUTE format('SELECT count(*) FROM load_safety.%I WHERE k > 0', t) INTO by_k;
    RESET enable_seqscan;
    RESET enable_bitmapscan;
    IF pg_temp.has_extension('amcheck') THEN
        PERFORM bt_index_parent_check(format('load_safety.%I', t || '_pkey')::regclass, true, true),
                bt_index_parent_check(format('load_safety.%I', t || '_k')::regclass, true, true);
        sound := 'sound';
    END IF;
    RETURN by_id || ' by id, ' || by_k || ' by k, ' || sound;
END $$;
CREATE FUNCTION pg_temp.sound() RETURNS text LANGUAGE sql AS
    $$SELECT CASE WHEN pg_temp.has_extension('amcheck') THEN 'sound' ELSE 'not checked (no amcheck)' END$$;
-- bytes of this database's relation files (not temporary, not catalogs'):
-- a failed load must leave them as they were
CREATE FUNCTION pg_temp.relation_file_bytes() RETURNS bigint LANGUAGE sql AS $$
    SELECT coalesce(sum((pg_stat_file(db.dir || '/' || f, true)).size), 0)::bigint
    FROM (SELECT 'base/' || oid AS dir FROM pg_database WHERE datname = current_database()) db,
         pg_ls_dir(db.dir) AS f
    WHERE f ~ '^[0-9]+' AND substring(f FROM '^[0-9]+')::bigint >= 16384
$$;
-- the next row of an open cursor, read from inside a query
CREATE FUNCTION pg_temp.fetch_one(cursor_name text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE c refcursor := cursor_name; v text;
BEGIN
    FETCH c INTO v;
    RETURN v;
END $$;
CREATE TEMP TABLE bytes_before (n bigint);
CREATE FUNCTION pg_temp.remember_bytes() RETURNS void LANGUAGE sql AS
    $$DELETE FROM bytes_before; INSERT INTO bytes_before SELECT pg_temp.relation_file_bytes()$$;
CREATE FUNCTION pg_temp.bytes_grown() RETURNS bigint LANGUAGE sql AS
    $$SELECT pg_temp.relation_file_bytes() - n FROM bytes_before$$;

-- ---- the case from the issue: a load inside a savepoint, rolled back -------
BEGIN;
CREATE TABLE sptest (id serial PRIMARY KEY, k int NOT NULL DEFAULT 0,
                     c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '');
SAVEPOINT s1;
SELECT is(microbench_load_table('sptest', 1000), 'bulk-insert',
          'a load in a savepoint after CREATE TABLE takes the bulk-insert path, rows not frozen');
SELECT pg_temp.frozen_is('sptest', 0, '... none of its rows is frozen');
ROLLBACK TO SAVEPOINT s1;
SELECT is((SELECT count(*) FROM sptest), 0::bigint, 'after ROLLBACK TO SAVEPOINT no row is left');
COMMIT;
SELECT is((SELECT count(*) FROM sptest), 0::bigint, '... nor after COMMIT');
SELECT ok(NOT EXISTS (SELECT FROM sptest WHERE id > 0), '... nor through the primary key');
DROP TABLE sptest;

-- ---- the same subtransaction: frozen rows, the direct path where built -----
BEGIN;
SELECT is(pg_temp.create_and_load('same_sub', 3000), pg_temp.safe_path(),
          'a load in the subtransaction that created the table takes the fast path ('
          || pg_temp.safe_path() || ')');
SELECT pg_temp.frozen_is('same_sub', 3000, '... and writes every row frozen');
SELECT is(pg_temp.indexes_state('same_sub'), '3000 by id, 3000 by k, ' || pg_temp.sound(),
          '... with both indexes complete and sound');
SAVEPOINT s2;
SELECT is(pg_temp.create_and_load('inner_sub', 300), pg_temp.safe_path(),
          'a table created and loaded inside a savepoint: the fast path too');
ROLLBACK TO SAVEPOINT s2;
SELECT ok(to_regclass('load_safety.inner_sub') IS NULL, '... and ROLLBACK TO SAVEPOINT removes it whole');
ROLLBACK;

-- a committed table cannot be loaded; a truncated one can, and a rollback
-- brings back its old rows and indexes
DO $$BEGIN PERFORM pg_temp.create_and_load('committed', 50); END$$;
SELECT throws_ok($$SELECT microbench_load_table('load_safety.committed', 10)$$, '55000',
                 'table "committed" was not created or truncated in the current transaction',
                 'a table created by an earlier transaction is refused (its indexes are rebuilt whole)');
BEGIN;
TRUNCATE committed;
SELECT is(pg_temp.load('committed', 2000), pg_temp.safe_path(),
          'after TRUNCATE in the same transaction the load takes the fast path');
SELECT is(pg_temp.indexes_state('committed'), '2000 by id, 2000 by k, ' || pg_temp.sound(),
          '... and builds both indexes');
ROLLBACK;
SELECT is(pg_temp.indexes_state('committed'), '50 by id, 50 by k, ' || pg_temp.sound(),
          'after ROLLBACK the table has its 50 committed rows again, both indexes intact');

-- ---- loads that fail part-way, in the subtransaction that made the table ----
-- Each step: the error, then nothing: no table, and the relation files as
-- they were (the pages written past shared buffers are gone with the file).
SELECT pg_temp.remember_bytes();
DO $$BEGIN PERFORM pg_temp.create_and_load('grown', 120000); END$$;
SELECT cmp_ok(pg_temp.bytes_grown(), '>', 20000000::bigint,
              'the file measure sees a load (120k rows grow the files by more than 20 MB)');
DROP TABLE grown;
CREATE FUNCTION pg_temp.fails_and_leaves_nothing(step text, n bigint, why text, applies boolean DEFAULT true)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE t text := 'fail_' || step;
BEGIN
    IF NOT applies THEN
        RETURN NEXT skip('this build has no direct path, so no step ' || step, 2);
        RETURN;
    END IF;
    PERFORM pg_temp.remember_bytes();
    RETURN NEXT throws_like(format('SELECT pg_temp.create_and_load(%L, %s, %L)', t, n, step),
                            '%inject_load_error%"' || step || '"',
                            format('a %s-row load into a new table fails at step %s (%s)', n, step, why));
    RETURN NEXT is(to_regclass('load_safety.' || t)::text || ', ' || pg_temp.bytes_grown() || ' bytes more',
                   NULL,
                   '... and leaves nothing: no table, no bytes more in the relation files');
END $$;
SELECT pg_temp.fails_and_leaves_nothing('first_batch', 5000, 'the first pages written');
SELECT pg_temp.fails_and_leaves_nothing('helper', 120000, 'in the parallel helper writing the heap',
                                        pg_temp.direct_pages());
SELECT pg_temp.fails_and_leaves_nothing('before_indexes', 120000, 'heap and map written, no index yet');
SELECT pg_temp.fails_and_leaves_nothing('after_index', 120000, 'the primary key''s pages written, not its metapage');
SELECT pg_temp.fails_and_leaves_nothing('end', 5000, 'all written, before returning');

-- ---- loads that fail part-way into a table made in an outer subtransaction --
-- The bulk-insert path, rows not frozen; indexes rebuilt in new files.
-- After each failure: no row visible, both indexes sound.
BEGIN;
SELECT pg_temp.make_sbtest('outer_t');
CREATE FUNCTION pg_temp.fails_and_rolls_back(step text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
    RETURN NEXT throws_like(format('SELECT pg_temp.load(''outer_t'', 4000, %L)', step),
                            '%inject_load_error%"' || step || '"',
                            'a load in a subtransaction of its own fails at step ' || step);
    RETURN NEXT is(pg_temp.indexes_state('outer_t') || ', ' || (SELECT count(*) FROM load_safety.outer_t) || ' rows',
                   '0 by id, 0 by k, ' || pg_temp.sound() || ', 0 rows',
                   '... and leaves no row visible, both indexes sound');
END $$;
SELECT pg_temp.fails_and_rolls_back('first_batch');
SELECT pg_temp.fails_and_rolls_back('before_indexes');
SELECT pg_temp.fails_and_rolls_back('after_index');
SELECT pg_temp.fails_and_rolls_back('end');
SELECT is(pg_temp.load('outer_t', 4000), 'bulk-insert, frozen',
          'then a load in the creating subtransaction succeeds (bulk-insert: the failed loads left dead rows on its pages)');
COMMIT;
SELECT is(pg_temp.indexes_state('outer_t') || ', ' || (SELECT count(*) FROM outer_t) || ' rows',
          '4000 by id, 4000 by k, ' || pg_temp.sound() || ', 4000 rows',
          '... and after COMMIT only its rows are there, both indexes sound');

-- ---- snapshots, cursors and queries that could see the table ---------------
BEGIN ISOLATION LEVEL REPEATABLE READ;
DO $$BEGIN PERFORM count(*) FROM pg_class; END$$;   -- the transaction's snapshot is taken
SELECT pg_temp.make_sbtest('rr');
SAVEPOINT s3;
SELECT is(pg_temp.load('rr', 500), 'bulk-insert',
          'repeatable read, a snapshot taken, the table made before a savepoint: rows not frozen');
ROLLBACK TO SAVEPOINT s3;
RELEASE SAVEPOINT s3;
SELECT is(pg_temp.indexes_state('rr') || ', ' || (SELECT count(*) FROM rr) || ' rows',
          '0 by id, 0 by k, ' || pg_temp.sound() || ', 0 rows',
          '... and after ROLLBACK TO SAVEPOINT no row is visible, both indexes sound');
SELECT is(pg_temp.load('rr', 500), 'bulk-insert, frozen',
          'loaded again where the table was made: frozen (bulk-insert: the rolled-back rows are on its pages)');
SELECT is((SELECT count(*) FROM rr), 500::bigint, '... and the transaction sees its own 500 rows');
ROLLBACK;

BEGIN;
SELECT pg_temp.make_sbtest('cursor_before');
DECLARE older CURSOR FOR SELECT count(*) FROM cursor_before;
SELECT is(pg_temp.load('cursor_before', 700), 'bulk-insert',
          'a cursor opened before the load (its snapshot saw the table empty): rows not frozen');
SELECT is(pg_temp.fetch_one('older'), '0', '... so the cursor still sees no row');
CLOSE older;
SELECT is((SELECT count(*) FROM cursor_before), 700::bigint, '... while a new query sees all 700');
ROLLBACK;

BEGIN;
SELECT pg_temp.make_sbtest('scanned');
SELECT is((SELECT before || ' rows, then ' || path || ', then ' || after || ' rows'
           FROM (SELECT (SELECT count(*) FROM scanned) AS before, pg_temp.load('scanned', 300) AS path,
                        (SELECT count(*) FROM scanned) AS after) q),
          '0 rows, then bulk-insert, then 0 rows',
          'a load inside a query that reads the table: rows not frozen, so the query''s own snapshot does not see them');
ROLLBACK;

BEGIN;
SELECT pg_temp.make_sbtest('in_cursor');
DECLARE loading CURSOR FOR SELECT pg_temp.load('in_cursor', 900);
SELECT is(pg_temp.fetch_one('loading'), pg_temp.safe_path(),
          'a load run by a function a cursor calls, nothing else reading the table: the fast path');
CLOSE loading;
SELECT is(pg_temp.indexes_state('in_cursor'), '900 by id, 900 by k, ' || pg_temp.sound(),
          '... both indexes complete and sound');
ROLLBACK;
SELECT ok(to_regclass('load_safety.in_cursor') IS NULL, '... and ROLLBACK removes the table');

BEGIN;
SELECT pg_temp.make_sbtest('in_cursor_sub');
SAVEPOINT s4;
DECLARE loading CURSOR FOR SELECT pg_temp.load('in_cursor_sub', 900);
SELECT is(pg_temp.fetch_one('loading'), 'bulk-insert',
          'the same cursor in a savepoint after the table was made: rows not frozen');
CLOSE loading;
ROLLBACK TO SAVEPOINT s4;
SELECT is(pg_temp.indexes_state('in_cursor_sub') || ', ' || (SELECT count(*) FROM in_cursor_sub) || ' rows',
          '0 by id, 0 by k, ' || pg_temp.sound() || ', 0 rows',
          '... and after ROLLBACK TO SAVEPOINT no row is visible, both indexes sound');
ROLLBACK;

-- ---- the same rows and indexes with or without the direct path -------------
-- (the constants are those of Postgres's own bulk-insert path, which a build
-- without the direct path (DIRECT_PAGES=no, CI's last run) takes; a build
-- with it must match them)
BEGIN;
SELECT is(pg_temp.create_and_load('seeded', 1000), pg_temp.safe_path(), 'seed 1, 1000 rows');
SELECT is((SELECT md5(string_agg(concat_ws('|', ctid, id, k, c, pad), ',' ORDER BY ctid)) FROM seeded),
          '405d504cbf887e6480c0f44ba37bcf98',
          'the same rows in the same places (ctid, id, k, c, pad) on either path');
SELECT is(pg_temp.indexes_state('seeded'), '1000 by id, 1000 by k, ' || pg_temp.sound(),
          '... both indexes complete and sound');
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT is((SELECT md5(string_agg(k || '@' || ctid, ',')) FROM (SELECT k, ctid FROM seeded WHERE k > 0 ORDER BY k) s),
          (SELECT md5(string_agg(k || '@' || ctid, ',' ORDER BY k, ctid)) FROM seeded),
          '... the index on k holds every (k, place) in key order, equal keys in place order');
ROLLBACK;

SELECT throws_ok($$SET microbench.direct_pages = off$$, '55P02',
                 'parameter "microbench.direct_pages" cannot be changed',
                 'microbench.direct_pages only reports how the library was built');

RESET search_path;
DROP SCHEMA load_safety CASCADE;
SELECT * FROM finish();
