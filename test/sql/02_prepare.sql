-- 02_prepare.sql — bench_prepare creates and loads the data set exactly as
-- docs/workloads.md says: columns, serial id, primary key, index k_N, values.
BEGIN;
SET client_min_messages = warning;
SELECT plan(41);

CREATE SCHEMA prep;
SET LOCAL search_path = prep, public;
SELECT lives_ok($$SELECT * FROM bench_prepare(2, 5000, seed => 1)$$,
                'bench_prepare(2, 5000) runs');

SELECT tables_are('prep', ARRAY['sbtest1', 'sbtest2'], 'it creates sbtest1 and sbtest2 in the current schema');
SELECT columns_are('prep', 'sbtest1', ARRAY['id', 'k', 'c', 'pad'], 'sbtest1 has id, k, c, pad');
SELECT col_type_is('prep', 'sbtest1', 'id', 'integer', 'id is integer');
SELECT col_type_is('prep', 'sbtest1', 'c', 'character(120)', 'c is char(120)');
SELECT col_type_is('prep', 'sbtest1', 'pad', 'character(60)', 'pad is char(60)');
SELECT col_is_pk('prep', 'sbtest1', 'id', 'id is the primary key');
SELECT has_index('prep', 'sbtest2', 'k_2', ARRAY['k'], 'the secondary index k_2 is on sbtest2 (k)');
SELECT is((SELECT count(*) FROM prep.sbtest1), 5000::bigint, 'sbtest1 has table_size rows');
SELECT ok((SELECT min(id) = 1 AND max(id) = 5000 AND count(DISTINCT id) = 5000 FROM prep.sbtest2),
          'ids are 1 .. table_size');
SELECT ok((SELECT bool_and(k BETWEEN 1 AND 5000) AND count(DISTINCT k) > 2500 FROM prep.sbtest1),
          'k is random in [1, table_size]');
SELECT ok((SELECT bool_and(c::text ~ '^([0-9]{11}-){9}[0-9]{11}$' AND pad::text ~ '^([0-9]{11}-){4}[0-9]{11}$')
           FROM prep.sbtest1),
          'c is ten and pad five groups of 11 digits joined by -');

INSERT INTO prep.sbtest1 (k, c, pad) VALUES (1, 'x', 'y');
SELECT is((SELECT max(id) FROM prep.sbtest1), 5001, 'the id sequence continues after the load');

SELECT * FROM bench_prepare(1, 100, seed => 1);
SELECT tables_are('prep', ARRAY['sbtest1'], 'preparing fewer tables drops the extra ones');

-- a seed fixes the rows: again in a new table (new OID), and table N draws
-- from its own stream (microbench-mysql prepare draws the same rows)
CREATE FUNCTION pg_temp.rows_md5(t regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE h text;
BEGIN
    EXECUTE format('SELECT md5(string_agg(concat_ws(''|'', id, k, c, pad), '','' ORDER BY id)) FROM %s', t) INTO h;
    RETURN h;
END $$;
CREATE TEMP TABLE first_load AS SELECT pg_temp.rows_md5('prep.sbtest1') AS h;
SELECT * FROM bench_prepare(2, 100, seed => 1);
SELECT is(pg_temp.rows_md5('prep.sbtest1'), (SELECT h FROM first_load),
          'the same seed loads the same rows again');
SELECT isnt(pg_temp.rows_md5('prep.sbtest2'), pg_temp.rows_md5('prep.sbtest1'),
            '... and each table its own rows');
-- and the same rows in every version and build: results compared across
-- builds or with older runs assume the data did not change under them
-- (this checksum is the loader's and the clients' output for seed 7 since
-- the first version)
SELECT * FROM bench_prepare(1, 1000, seed => 7);
SELECT is(pg_temp.rows_md5('prep.sbtest1'), '3813051a2348fa3f2d5bc39e001a063c',
          'seed 7 loads exactly the rows it always has (1000 rows, checksum of id|k|c|pad)');

-- The direct load (microbench.direct_load, the default) writes its own
-- pages; the bulk-insert path (off) goes through shared buffers.  The two
-- must give the same table: the same rows in the same places, frozen by
-- the same transaction, every page all-visible (test/pg/load_recovery.t
-- checks the WAL side with a crash).
-- A build without the direct path (DIRECT_PAGES=no, as on a Postgres major
-- whose page layouts these tests do not prove) takes the bulk-insert path
-- for both, and the comparisons below hold trivially.
SELECT is(current_setting('microbench.direct_load'), 'on', 'bench_prepare writes pages directly by default');
CREATE SCHEMA prep_direct;
CREATE SCHEMA prep_buffers;
SELECT is((SELECT string_agg(load_path, ',') FROM bench_prepare(1, 20000, seed => 5, target_schema => 'prep_direct')),
          CASE WHEN current_setting('microbench.direct_pages')::boolean THEN 'direct' ELSE 'bulk-insert, frozen' END,
          'bench_prepare says which path it took: direct where this build has it ('
          || current_setting('microbench.direct_pages') || '), else Postgres''s bulk insert, rows frozen');
SET LOCAL microbench.direct_load = off;
SELECT is((SELECT string_agg(load_path, ',') FROM bench_prepare(1, 20000, seed => 5, target_schema => 'prep_buffers')),
          'bulk-insert, frozen', '... and with microbench.direct_load off, the bulk-insert path');
SET LOCAL microbench.direct_load = on;
CREATE FUNCTION pg_temp.placement_md5(t regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE h text;
BEGIN
    EXECUTE format('SELECT md5(string_agg(concat_ws(''|'', ctid, xmin, id, k, c, pad), '','' ORDER BY ctid)) FROM %s', t)
        INTO h;
    RETURN h;
END $$;
SELECT is(pg_temp.placement_md5('prep_direct.sbtest1'), pg_temp.placement_md5('prep_buffers.sbtest1'),
          'the direct load and the bulk-insert path give the same rows in the same places (ctid, xmin, values)');
-- (on Postgres 16 and later the bulk-insert path also leaves the empty
-- pages of its last bulk extension at the end; the direct load writes none)
SELECT is((SELECT relallvisible FROM pg_class WHERE oid = 'prep_direct.sbtest1'::regclass),
          (SELECT relallvisible FROM pg_class WHERE oid = 'prep_buffers.sbtest1'::regclass),
          'both mark the same number of pages all-visible in the visibility map (as ANALYZE counts it)');
SELECT ok((SELECT relallvisible = (SELECT count(DISTINCT (ctid::text::point)[0]) FROM prep_direct.sbtest1) AND relallvisible > 400
           FROM pg_class WHERE oid = 'prep_direct.sbtest1'::regclass),
          'every page holding rows is all-visible');
SELECT ok(NOT current_setting('microbench.direct_pages')::boolean
          OR (SELECT relallvisible = relpages FROM pg_class WHERE oid = 'prep_direct.sbtest1'::regclass),
          '... and on the direct path, every page holds rows');
SELECT is(pg_stat_get_xact_tuples_inserted('prep_direct.sbtest1'::regclass), 20000::bigint,
          'the direct load counts its rows as inserted, as the bulk-insert path does');
-- a second load into a table that already has rows cannot write pages from
-- block 0: it goes through shared buffers and appends
CREATE SCHEMA prep_twice;
CREATE TABLE prep_twice.sbtest1 (LIKE prep_direct.sbtest1 INCLUDING DEFAULTS);
SELECT microbench_load_table('prep_twice.sbtest1', 300, 3);
SELECT microbench_load_table('prep_twice.sbtest1', 300, 3);
SELECT is((SELECT count(*) || ' rows, ' || count(DISTINCT (id, k, c, pad)) || ' distinct' FROM prep_twice.sbtest1),
          '600 rows, 300 distinct',
          'loading twice into one table appends the same rows again');

-- From 100k rows on, a parallel worker logs each batch of pages while the
-- backend fills the next (not with max_parallel_maintenance_workers = 0,
-- as for parallel index builds).  The same table either way;
-- test/pg/load_recovery.t shows that the worker ran and that its records
-- rebuild the table after a crash.
CREATE SCHEMA prep_helper;
CREATE SCHEMA prep_alone;
CREATE TABLE prep_helper.sbtest1 (LIKE prep_direct.sbtest1 INCLUDING DEFAULTS);
CREATE TABLE prep_alone.sbtest1 (LIKE prep_direct.sbtest1 INCLUDING DEFAULTS);
-- (with indexes built from the load: the one on id rides with the heap's
-- batches, the one on k is built after the load)
CREATE UNIQUE INDEX ON prep_helper.sbtest1 (id);
CREATE UNIQUE INDEX ON prep_alone.sbtest1 (id);
CREATE INDEX ON prep_helper.sbtest1 (k);
CREATE INDEX ON prep_alone.sbtest1 (k);
SELECT microbench_load_table('prep_helper.sbtest1', 100003, 9);
SET LOCAL max_parallel_maintenance_workers = 0;
SELECT microbench_load_table('prep_alone.sbtest1', 100003, 9);
SET LOCAL max_parallel_maintenance_workers TO DEFAULT;
SELECT is(pg_temp.placement_md5('prep_helper.sbtest1'), pg_temp.placement_md5('prep_alone.sbtest1'),
          'a load with the logging helper and one without give the same rows in the same places');
SELECT is(pg_relation_size('prep_helper.sbtest1') || ' + ' || pg_relation_size('prep_helper.sbtest1', 'vm'),
          pg_relation_size('prep_alone.sbtest1') || ' + ' || pg_relation_size('prep_alone.sbtest1', 'vm'),
          '... and the same heap and visibility map sizes');

-- The indexes.  bench_prepare creates both empty before the load; the
-- direct load builds them from the rows it writes (mb_btree.c), and any
-- other index, or every index on the bulk-insert path, is built by
-- Postgres after the load.  They must be the same indexes, page for page
-- (pageinspect: all but the LSN and checksum, the first 10 bytes), and
-- sound (amcheck, every heap row found from the root down); where those
-- extensions are missing, those checks are skipped.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pageinspect;
EXCEPTION WHEN OTHERS THEN
    NULL;
END $$;
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS amcheck;
EXCEPTION WHEN OTHERS THEN
    NULL;
END $$;
CREATE FUNCTION pg_temp.index_pages_differing(a regclass, b regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    IF pg_relation_size(a) <> pg_relation_size(b) THEN
        RETURN format('%s pages against %s', pg_relation_size(a) / 8192, pg_relation_size(b) / 8192);
    END IF;
    EXECUTE 'SELECT count(*) FROM generate_series(0, pg_relation_size($1) / current_setting(''block_size'')::int - 1) blk
              WHERE substr(get_raw_page($1::text, blk::int), 11) IS DISTINCT FROM substr(get_raw_page($2::text, blk::int), 11)'
        INTO n USING a, b;
    RETURN n || ' pages differ';
END $$;
CREATE FUNCTION pg_temp.has_extension(name text) RETURNS boolean LANGUAGE sql AS
    $$SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = name)$$;
-- one check: index a has index b's pages (skipped without pageinspect)
CREATE FUNCTION pg_temp.same_index_pages(a regclass, b regclass, description text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_temp.has_extension('pageinspect') THEN
        RETURN skip('pageinspect is not installed: the pages are not compared', 1);
    END IF;
    RETURN is(pg_temp.index_pages_differing(a, b), '0 pages differ', description);
END $$;
-- rows an index scan on column col finds (a complete index finds them all)
CREATE FUNCTION pg_temp.rows_via_index(t regclass, col text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_bitmapscan = off;
    EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NOT NULL', t, col) INTO n;
    RESET enable_seqscan;
    RESET enable_bitmapscan;
    RETURN n;
END $$;

SELECT col_is_pk('prep_direct', 'sbtest1', 'id', 'the direct load''s table has id as its primary key');
SELECT is((SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'prep_direct.sbtest1'::regclass AND indisprimary),
          'prep_direct.sbtest1_pkey', '... in the index ADD PRIMARY KEY (id) would create, sbtest1_pkey');
SELECT pg_temp.same_index_pages('prep_direct.sbtest1_pkey', 'prep_buffers.sbtest1_pkey',
    'the primary key built from the load is the one Postgres builds, page for page (20k rows)');
SELECT pg_temp.same_index_pages('prep_direct.k_1', 'prep_buffers.k_1',
    'k_1 built from the load (sorted by k, equal keys in posting lists) is the one Postgres builds, page for page');
SELECT pg_temp.same_index_pages('prep_helper.sbtest1_id_idx', 'prep_alone.sbtest1_id_idx',
    'the index on id, also when its pages ride with the logging helper''s batches (100k rows, a two-level tree)');
SELECT pg_temp.same_index_pages('prep_helper.sbtest1_k_idx', 'prep_alone.sbtest1_k_idx',
    '... and the index on k (100k rows)');
SELECT CASE WHEN pg_temp.has_extension('amcheck')
    THEN lives_ok($$SELECT bt_index_parent_check('prep_helper.sbtest1_id_idx', true, true),
                           bt_index_parent_check('prep_helper.sbtest1_k_idx', true, true)$$,
                  'amcheck finds both sound: every row found from the root down')
    ELSE skip('amcheck is not installed: the indexes are not checked', 1) END;
SELECT is(pg_temp.rows_via_index('prep_helper.sbtest1', 'id') || ' and ' || pg_temp.rows_via_index('prep_helper.sbtest1', 'k'),
          '100003 and 100003', 'index scans of them find every row');
-- an index mb_btree does not build (on c) is built by Postgres after the
-- load; the ones on id and k are still built from it
CREATE SCHEMA prep_indexed;
CREATE TABLE prep_indexed.sbtest1 (LIKE prep_direct.sbtest1 INCLUDING DEFAULTS);
CREATE UNIQUE INDEX ON prep_indexed.sbtest1 (id);
CREATE INDEX ON prep_indexed.sbtest1 (k);
CREATE INDEX ON prep_indexed.sbtest1 (c);
SELECT microbench_load_table('prep_indexed.sbtest1', 3000, 4);
SELECT is(pg_temp.rows_via_index('prep_indexed.sbtest1', 'id') || ', ' || pg_temp.rows_via_index('prep_indexed.sbtest1', 'k')
          || ' and ' || pg_temp.rows_via_index('prep_indexed.sbtest1', 'c'),
          '3000, 3000 and 3000', 'a table loaded with another index too: each of the three finds every row');
SET LOCAL microbench.direct_load = off;
CREATE SCHEMA prep_indexed_buffers;
CREATE TABLE prep_indexed_buffers.sbtest1 (LIKE prep_direct.sbtest1 INCLUDING DEFAULTS);
CREATE INDEX ON prep_indexed_buffers.sbtest1 (k);
SELECT microbench_load_table('prep_indexed_buffers.sbtest1', 3000, 4);
SET LOCAL microbench.direct_load = on;
SELECT is(pg_temp.rows_via_index('prep_indexed_buffers.sbtest1', 'k'), 3000::bigint,
          '... and so on the bulk-insert path');
SELECT is(pg_temp.rows_via_index('prep_buffers.sbtest1', 'id') || ' and ' || pg_temp.rows_via_index('prep_buffers.sbtest1', 'k'),
          '20000 and 20000', 'bench_prepare on the bulk-insert path: its primary key and k_1 find every row');
SELECT is((SELECT string_agg(pg_get_indexdef(indexrelid), '; ' ORDER BY indexrelid::regclass::text)
           FROM pg_index WHERE indrelid = 'prep_direct.sbtest1'::regclass),
          'CREATE INDEX k_1 ON prep_direct.sbtest1 USING btree (k); CREATE UNIQUE INDEX sbtest1_pkey ON prep_direct.sbtest1 USING btree (id)',
          'bench_prepare''s indexes are k_1 on k and the primary key sbtest1_pkey on id');

-- bench_prepare refuses up front what the lock table cannot hold, counting
-- 14 locks per table: no more than that may be taken (on any version)
CREATE SCHEMA prep_locks;
CREATE TEMP TABLE locks_before AS SELECT count(*) AS n FROM pg_locks WHERE pid = pg_backend_pid();
SELECT count(*) FROM bench_prepare(3, 10, target_schema => 'prep_locks');
SELECT cmp_ok((SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()) - (SELECT n FROM locks_before), '<=', 3 * 14 + 4::bigint,
              format('three tables take no more than 14 locks each, and the call itself a few (%s in all)',
                     (SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid()) - (SELECT n FROM locks_before)));

SELECT * FROM finish();
ROLLBACK;
