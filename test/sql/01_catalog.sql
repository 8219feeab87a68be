-- 01_catalog.sql — bench_workloads() matches docs/workloads.md: the 32 names,
-- their groups, report order and queries per event.  The expected table is
-- transcribed from docs/workloads.md here, independently of the C catalog.
BEGIN;
SELECT plan(6);

CREATE TEMP TABLE expected (name text, grp text, report_order int, qpe int);
INSERT INTO expected VALUES
 ('hot-points', 'point queries', 1, 1),
 ('point-query', 'point queries', 2, 1),
 ('points-covered-pk', 'point queries', 3, 1),
 ('points-covered-si', 'point queries', 4, 1),
 ('points-notcovered-pk', 'point queries', 5, 1),
 ('points-notcovered-si', 'point queries', 6, 1),
 ('random-points_range=1000', 'point queries', 7, 1),
 ('random-points_range=100', 'point queries', 8, 1),
 ('random-points_range=10', 'point queries', 9, 1),
 ('range-covered-pk', 'range queries without aggregation', 10, 1),
 ('range-covered-si', 'range queries without aggregation', 11, 1),
 ('range-notcovered-pk', 'range queries without aggregation', 12, 1),
 ('range-notcovered-si', 'range queries without aggregation', 13, 1),
 ('scan', 'range queries without aggregation', 14, 1),
 ('read-only-count', 'range queries with aggregation', 15, 1),
 ('read-only-distinct', 'range queries with aggregation', 16, 13),
 ('read-only-order', 'range queries with aggregation', 17, 13),
 ('read-only_range=10000', 'range queries with aggregation', 18, 16),
 ('read-only_range=100', 'range queries with aggregation', 19, 16),
 ('read-only_range=10', 'range queries with aggregation', 20, 16),
 ('read-only-simple', 'range queries with aggregation', 21, 13),
 ('read-only-sum', 'range queries with aggregation', 22, 13),
 ('delete', 'writes', 23, 1),
 ('insert', 'writes', 24, 1),
 ('read-write_range=100', 'writes', 25, 20),
 ('read-write_range=10', 'writes', 26, 20),
 ('update-index', 'writes', 27, 1),
 ('update-inlist', 'writes', 28, 1),
 ('update-nonindex', 'writes', 29, 1),
 ('update-one', 'writes', 30, 1),
 ('update-zipf', 'writes', 31, 1),
 ('write-only', 'writes', 32, 6);

SELECT results_eq(
    'SELECT name, grp, report_order, queries_per_event FROM bench_workloads() ORDER BY report_order',
    'SELECT name, grp, report_order, qpe FROM expected ORDER BY report_order',
    'catalog has the 32 workloads of the report with their groups, order and queries per event');

SELECT is((SELECT count(DISTINCT name) FROM bench_workloads()), 32::bigint,
          'workload names are unique');

SELECT results_eq(
    $$SELECT name FROM bench_workloads() WHERE in_transaction ORDER BY report_order$$,
    $$VALUES ('read-only-distinct'), ('read-only-order'), ('read-only_range=10000'),
             ('read-only_range=100'), ('read-only_range=10'), ('read-only-simple'),
             ('read-only-sum'), ('read-write_range=100'), ('read-write_range=10'),
             ('write-only')$$,
    'exactly the BEGIN ... COMMIT workloads run in a transaction');

SELECT results_eq(
    $$SELECT name, default_range FROM bench_workloads() WHERE default_range IS NOT NULL
      AND name LIKE '%\_range=%' ORDER BY report_order$$,
    $$VALUES ('random-points_range=1000', 1000), ('random-points_range=100', 100),
             ('random-points_range=10', 10), ('read-only_range=10000', 10000),
             ('read-only_range=100', 100), ('read-only_range=10', 10),
             ('read-write_range=100', 100), ('read-write_range=10', 10)$$,
    'a _range=R name runs with R');

SELECT is((SELECT statements FROM bench_workloads() WHERE name = 'read-write_range=10'),
          E'10 x SELECT c FROM sbtest1 WHERE id = $1\n'
          'SELECT c FROM sbtest1 WHERE id BETWEEN $1 AND $2\n'
          'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN $1 AND $2\n'
          'SELECT c FROM sbtest1 WHERE id BETWEEN $1 AND $2 ORDER BY c\n'
          'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN $1 AND $2 ORDER BY c\n'
          'UPDATE sbtest1 SET k = k + 1 WHERE id = $1\n'
          'UPDATE sbtest1 SET c = $1 WHERE id = $2\n'
          'DELETE FROM sbtest1 WHERE id = $1\n'
          'INSERT INTO sbtest1 (id, k, c, pad) VALUES ($1, $2, $3, $4)',
          'read-write runs the oltp_read_write statements in order');

SELECT is((SELECT statements FROM bench_workloads() WHERE name = 'random-points_range=10'),
          'SELECT c FROM sbtest1 WHERE id IN ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
          'random-points_range=10 binds a list of 10 ids');

SELECT * FROM finish();
ROLLBACK;
