-- 07_distributions.sql — rand_type changes which keys the clients touch.
-- update-index adds 1 to k of each drawn id, so k after minus k before counts
-- the draws per id: zipfian piles them on the first ids, uniform spreads them.
-- It uses schema dist, loaded by run_pg_tests.sh and untouched by other tests
-- (the write tests delete rows, id 1 among them).
BEGIN;
SELECT plan(4);

CREATE FUNCTION pg_temp.draws(rand text) RETURNS TABLE (id int, n int) LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE before ON COMMIT DROP AS SELECT s.id, s.k FROM sbtest1 s;
    PERFORM bench_run('update-index', seconds => 1, warmup => 0, tables => 1, rand_type => rand);
    RETURN QUERY SELECT s.id, s.k - b.k FROM sbtest1 s JOIN before b USING (id) WHERE s.k <> b.k;
    DROP TABLE before;
END $$;

SET LOCAL search_path = dist, public;
CREATE TEMP TABLE z AS SELECT * FROM pg_temp.draws('zipfian');
CREATE TEMP TABLE u AS SELECT * FROM pg_temp.draws('uniform');

SELECT is((SELECT id FROM z ORDER BY n DESC, id LIMIT 1), 1, 'zipfian: id 1 is drawn most often');
-- theory for exponent 0.8 over 10000 keys: P(1) = 1 / sum(i^-0.8) ~ 3.7%
SELECT ok((SELECT n FROM z WHERE id = 1)::numeric / (SELECT sum(n) FROM z) BETWEEN 0.025 AND 0.05,
          'zipfian: id 1 takes about 3.7% of the draws');
SELECT ok((SELECT max(n)::numeric / sum(n) FROM u) < 0.005, 'uniform: no id takes more than 0.5%');
SELECT ok((SELECT count(*) FROM u) > (SELECT count(*) FROM z),
          'uniform touches more distinct ids than zipfian');

SELECT * FROM finish();
ROLLBACK;
