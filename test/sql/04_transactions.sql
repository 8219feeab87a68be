-- 04_transactions.sql — each event is its own transaction: pg_stat_database
-- counts one commit per event for an autocommit write (update-index) and for
-- a BEGIN ... COMMIT workload (write-only), and nothing is rolled back.
-- With warmup => 0 every event a client runs is measured, so the only other
-- commits are the clients' one-off statement preparation.
BEGIN;
SELECT plan(4);

CREATE FUNCTION pg_temp.commits() RETURNS bigint LANGUAGE sql AS $$
    SELECT pg_stat_clear_snapshot();
    SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()
$$;
CREATE FUNCTION pg_temp.rollbacks() RETURNS bigint LANGUAGE sql AS $$
    SELECT pg_stat_clear_snapshot();
    SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()
$$;

CREATE TEMP TABLE c AS SELECT pg_temp.commits() AS commits, pg_temp.rollbacks() AS rollbacks;
CREATE TEMP TABLE r1 AS SELECT * FROM bench_run('update-index', seconds => 1, warmup => 0);
CREATE TEMP TABLE c1 AS SELECT pg_temp.commits() AS commits, pg_temp.rollbacks() AS rollbacks;

SELECT ok((SELECT c1.commits - c.commits - r1.events BETWEEN 0 AND 3 FROM c, c1, r1),
          format('update-index: one commit per event (%s events, %s commits)',
                 (SELECT events FROM r1), (SELECT c1.commits - c.commits FROM c, c1)));
SELECT is((SELECT c1.rollbacks - c.rollbacks FROM c, c1), 0::bigint,
          'update-index: nothing rolled back');

CREATE TEMP TABLE r2 AS SELECT * FROM bench_run('write-only', seconds => 1, warmup => 0);
CREATE TEMP TABLE c2 AS SELECT pg_temp.commits() AS commits, pg_temp.rollbacks() AS rollbacks;
SELECT ok((SELECT c2.commits - c1.commits - r2.events BETWEEN 0 AND 3 FROM c1, c2, r2),
          format('write-only: one commit per event of 6 queries (%s events, %s commits)',
                 (SELECT events FROM r2), (SELECT c2.commits - c1.commits FROM c1, c2)));
SELECT is((SELECT queries FROM r2), (SELECT events * 6 FROM r2),
          'write-only: BEGIN and COMMIT are counted as queries');

SELECT * FROM finish();
ROLLBACK;
