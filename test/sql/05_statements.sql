-- 05_statements.sql — the exact statements reach the server, as many times
-- as the catalog says.  pg_stat_statements (track = all, so statements the
-- clients run through SPI are seen) is the witness; the expected texts are
-- written out here from docs/workloads.md, not taken from the C catalog.
BEGIN;
SELECT plan(6);

CREATE FUNCTION pg_temp.calls(q text) RETURNS bigint LANGUAGE sql AS $$
    SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
    WHERE query = q AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
$$;

SELECT pg_stat_statements_reset();
CREATE TEMP TABLE pq AS SELECT * FROM bench_run('point-query', seconds => 1, warmup => 0, tables => 1);
SELECT is(pg_temp.calls('SELECT c FROM sbtest1 WHERE id = $1'), (SELECT events FROM pq),
          'point-query: SELECT c FROM sbtest1 WHERE id = $1 runs once per event');

SELECT pg_stat_statements_reset();
CREATE TEMP TABLE ro AS SELECT * FROM bench_run('read-only_range=10', seconds => 1, warmup => 0, tables => 1);
SELECT is(pg_temp.calls('SELECT c FROM sbtest1 WHERE id = $1'), (SELECT 10 * events FROM ro),
          'read-only: ten point selects per event');
SELECT is(ARRAY[pg_temp.calls('SELECT c FROM sbtest1 WHERE id BETWEEN $1 AND $2'),
                pg_temp.calls('SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN $1 AND $2'),
                pg_temp.calls('SELECT c FROM sbtest1 WHERE id BETWEEN $1 AND $2 ORDER BY c'),
                pg_temp.calls('SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN $1 AND $2 ORDER BY c')],
          (SELECT array_fill(events, ARRAY[4]) FROM ro),
          'read-only: simple, sum, order and distinct range once per event');

SELECT pg_stat_statements_reset();
CREATE TEMP TABLE rw AS SELECT * FROM bench_run('read-write_range=10', seconds => 1, warmup => 0, tables => 1);
-- pg_stat_statements shows the constant 1 of k + 1 as a parameter, too
SELECT is(ARRAY[pg_temp.calls('UPDATE sbtest1 SET k = k + $2 WHERE id = $1'),
                pg_temp.calls('UPDATE sbtest1 SET c = $1 WHERE id = $2'),
                pg_temp.calls('DELETE FROM sbtest1 WHERE id = $1'),
                pg_temp.calls('INSERT INTO sbtest1 (id, k, c, pad) VALUES ($1, $2, $3, $4)')],
          (SELECT array_fill(events, ARRAY[4]) FROM rw),
          'read-write: update-index, update-nonindex, delete and insert once per event');

SELECT pg_stat_statements_reset();
CREATE TEMP TABLE hp AS SELECT * FROM bench_run('hot-points', seconds => 0.5, warmup => 0, tables => 1);
-- 18's pg_stat_statements squashes a list of constants to IN ($1 /*, ... */)
SELECT is((SELECT sum(calls)::bigint FROM pg_stat_statements
           WHERE query ~ CASE WHEN current_setting('server_version_num')::int >= 180000
                         THEN '^SELECT c FROM sbtest1 WHERE id IN \(\$1 /\*, \.\.\. \*/\)$'
                         ELSE '^SELECT c FROM sbtest1 WHERE id IN \(\$1, \$2, .*\$100\)$' END),
          (SELECT events FROM hp),
          'hot-points: one IN list of 100 ids per event');
-- the hot ids are table_size/2 + 1 .. + 100 (earlier write tests deleted some)
SELECT is((SELECT sum(rows)::bigint FROM pg_stat_statements
           WHERE query ~ '^SELECT c FROM sbtest1 WHERE id IN'),
          (SELECT events * (SELECT count(*) FROM sbtest1 WHERE id BETWEEN 5001 AND 5100) FROM hp),
          'hot-points: each event reads the rows of ids 5001 .. 5100');

SELECT * FROM finish();
ROLLBACK;
