-- 07_distributions.sql — rand_type changes which keys the clients touch.
-- update-index adds 1 to k of each drawn id, so k after minus k before counts
-- the draws per id: zipfian piles them on the first ids, uniform spreads them.
-- It uses schema dist, loaded by run_pg_tests.sh and untouched by other tests
-- (the write tests delete rows, id 1 among them).
BEGIN;
SELECT plan(4);

-- Seeded, so a failure can be rerun; the bounds below still hold for any
-- number of events the machine manages in the run.
CREATE FUNCTION pg_temp.draws(rand text, seed bigint) RETURNS TABLE (id int, n int) LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE before ON COMMIT DROP AS SELECT s.id, s.k FROM sbtest1 s;
    PERFORM bench_run('update-index', seconds => 2, warmup => 0, tables => 1, rand_type => rand, seed => seed);
    RETURN QUERY SELECT s.id, s.k - b.k FROM sbtest1 s JOIN before b USING (id) WHERE s.k <> b.k;
    DROP TABLE before;
END $$;

SET LOCAL search_path = dist, public;
CREATE TEMP TABLE z AS SELECT * FROM pg_temp.draws('zipfian', 7001);
CREATE TEMP TABLE u AS SELECT * FROM pg_temp.draws('uniform', 7002);
CREATE TEMP TABLE g AS SELECT * FROM pg_temp.draws('gaussian', 7003);

-- Bounds are binomial, so they hold however many events a slow or busy
-- machine manages in the run: 5 standard deviations for one id; for the
-- busiest of 10,000 ids a Bernstein bound, exceeded with probability below
-- 1e-6 over all of them (exp(-t^2 / (2 (m + t/3))) = 1e-10 per id).  A test
-- that fails by chance once in a hundred runs teaches people to ignore red.
CREATE TEMP TABLE p1 AS  -- P(id 1) for zipfian, exponent 0.8, 10000 keys
SELECT 1 / sum(i ^ -0.8) AS p FROM generate_series(1, 10000) AS i;
CREATE TEMP TABLE zs AS SELECT sum(n) AS e, sum(n) FILTER (WHERE id = 1) AS n1 FROM z;

SELECT ok((SELECT e > 100 FROM zs), 'the zipfian run drew enough keys to judge');
SELECT ok((SELECT abs(n1 - e * p) <= 5 * sqrt(e * p * (1 - p)) + 1 FROM zs, p1),
          format('zipfian: id 1 takes its theoretical share of %s%% (%s of %s draws)',
                 (SELECT round(100 * p, 2) FROM p1), (SELECT n1 FROM zs), (SELECT e FROM zs)));
CREATE TEMP TABLE us AS SELECT max(n) AS top, sum(n) * 1e-4 AS m FROM u;
SELECT ok((SELECT top <= m + (ln(1e10) / 3 + sqrt((ln(1e10) / 3) ^ 2 + 2 * ln(1e10) * m)) FROM us),
          format('uniform: no id is drawn much more often than 1 in 10000 (busiest id %s times, mean %s)',
                 (SELECT top FROM us), (SELECT round(m::numeric, 2) FROM us)));
-- gaussian: the mean of 12 uniforms has sd = range / 12, so the middle half
-- of the keys (+- 3 sd) holds 99.7% of the draws
SELECT ok((SELECT sum(n) FILTER (WHERE id BETWEEN 2501 AND 7500)::numeric / sum(n) > 0.95 FROM g),
          'gaussian: the middle half of the keys takes nearly all draws');

SELECT * FROM finish();
ROLLBACK;
