-- 06_clients.sql — several clients: each is a background worker running as
-- the caller's role; their counts add up, and none is left when the run ends.
BEGIN;
SELECT plan(4);

SELECT pg_stat_statements_reset();
CREATE TEMP TABLE r AS SELECT * FROM bench_run('point-query', seconds => 1, warmup => 0, clients => 2, tables => 1);
SELECT is((SELECT clients FROM r), 2, 'the run records 2 clients');
SELECT is((SELECT sum(calls)::bigint FROM pg_stat_statements
           WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1'),
          (SELECT events FROM r),
          'the events of both clients are counted, and only those');
SELECT is((SELECT array_agg(DISTINCT userid::regrole::text) FROM pg_stat_statements
           WHERE query = 'SELECT c FROM sbtest1 WHERE id = $1'),
          ARRAY[current_user::text],
          'the clients ran as the caller''s role');
SELECT is((SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'microbench'), 0::bigint,
          'no benchmark worker is left after the run');

SELECT * FROM finish();
ROLLBACK;
