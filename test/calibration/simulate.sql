-- test/calibration/simulate.sql — how often microbench.compare() is wrong,
-- by simulation: synthetic comparisons with noise measured on real runs of
-- this project's VM, judged by the real compare(), round by round as
-- microbench-compare judges them.
--
-- Loaded by test/calibration/calibrate.sh into a database with microbench
-- (or the plain results schema) and the fixture's runs: an A/A comparison
-- (labels fix-a and fix-b, the same build twice, every round on fresh
-- server starts) of the whole suite on Postgres and MariaDB.  Defines, in
-- pg_temp:
--
--   noise         per DBMS and workload, the noise of a run, split into
--                 its levels: the seconds inside a run (variance of log
--                 QPS per second and the lag-1 correlation of neighbouring
--                 seconds), the run itself (what its server start and the
--                 moment add beyond its seconds: half the variance of a
--                 pair's log-ratio less what the seconds explain), and the
--                 round (what moves both builds alike).
--   simulate(...) draws comparisons and returns how they were judged.
--
-- A simulated run of S seconds has log QPS = the workload's level + its
-- build's true change + the round's shift + the run's own term
-- (Student's t with 5 degrees of freedom, heavier tailed than the fixture's,
-- so that the figures err on the safe side) + the mean of S seconds of an
-- AR(1) process.  Rounds follow the runner: the first min_rounds run every
-- cell, then only the cells compare() leaves undecided at the runner's
-- stricter level between rounds (interim_confidence), up to max_rounds;
-- the report then judges every cell at its own level (0.95).
-- The random numbers come from setseed(): a given seed gives the same
-- table on every Postgres from 15 on.

CREATE TEMP TABLE noise AS
WITH runs AS (
    -- a run's QPS as the verdicts take it: its steady rate, where it has one
    SELECT r.*, ln(microbench.metric_value(r, 'qps')) AS l
    FROM microbench.runs r
    WHERE r.label IN ('fix-a', 'fix-b') AND r.phase = 'post' AND microbench.metric_value(r, 'qps') > 0
), seconds AS (
    SELECT r.dbms, r.workload, r.run_id, s.ord, ln(greatest(s.q, 1)) AS l
    FROM runs r, unnest(r.qps_per_second) WITH ORDINALITY AS s(q, ord)
), dev AS (
    SELECT s.*, s.l - avg(s.l) OVER (PARTITION BY s.run_id) AS d FROM seconds s
), lagged AS (
    SELECT d.*, lead(d.d) OVER (PARTITION BY d.run_id ORDER BY d.ord) AS next_d,
           count(*) OVER (PARTITION BY d.run_id) AS n
    FROM dev d
), within AS (
    SELECT l.dbms, l.workload,
           sum(l.d * l.d) / nullif(sum(1) - count(DISTINCT l.run_id), 0) AS sec_var,
           least(greatest(sum(l.d * l.next_d) / nullif(sum(l.d * l.d), 0), 0), 0.9) AS rho,
           avg(l.n) AS seconds
    FROM lagged l
    GROUP BY l.dbms, l.workload
), pairs AS (
    SELECT b.dbms, b.workload, b.round, o.l - b.l AS d, (o.l + b.l) / 2 AS level
    FROM runs b JOIN runs o ON o.dbms = b.dbms AND o.workload = b.workload AND o.round = b.round
    WHERE b.label = 'fix-a' AND o.label = 'fix-b'
), pair_var AS (
    SELECT p.dbms, p.workload, var_samp(p.d) AS d_var, avg(p.level) AS level, var_samp(p.level) AS level_var,
           count(*) AS pairs
    FROM pairs p
    GROUP BY p.dbms, p.workload
)
SELECT p.dbms, p.workload, p.level, p.pairs, w.sec_var, w.rho,
       -- the variance of the mean of n seconds of an AR(1) process, per second
       greatest(p.d_var / 2 - w.sec_var / w.seconds * (1 + w.rho) / (1 - w.rho), 0) AS run_var,
       greatest(p.level_var - p.d_var / 4, 0) AS round_var
FROM pair_var p JOIN within w ON w.dbms = p.dbms AND w.workload = p.workload;

-- A draw from the standard normal (Box-Muller) and from Student's t with 5
-- degrees of freedom scaled to unit variance.
CREATE FUNCTION pg_temp.normal() RETURNS double precision LANGUAGE sql VOLATILE AS
    $$SELECT sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())$$;
CREATE FUNCTION pg_temp.t5() RETURNS double precision LANGUAGE sql VOLATILE AS
    $$SELECT pg_temp.normal() / sqrt((pg_temp.normal() ^ 2 + pg_temp.normal() ^ 2 + pg_temp.normal() ^ 2
                                      + pg_temp.normal() ^ 2 + pg_temp.normal() ^ 2) / 5) * sqrt(3.0 / 5)$$;

-- The variance of the mean of s seconds of an AR(1) process of unit variance.
CREATE FUNCTION pg_temp.ar1_mean_var(s integer, rho double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE AS
    $$SELECT (1 + 2 * coalesce((SELECT sum((1 - k::double precision / s) * rho ^ k) FROM generate_series(1, s - 1) k), 0)) / s$$;

-- simulate(sims, change, changed_share, seconds, threshold, min_rounds, max_rounds, seed):
-- sims comparisons of every fixture cell; in each, a share changed_share of
-- the cells (chosen at random) differs by the factor 1 + change (up or
-- down at random), the others not at all.  Returns a row per simulated
-- cell: whether it was changed, its verdict, the rounds it took.
CREATE FUNCTION pg_temp.simulate(sims integer, change double precision, changed_share double precision,
                                 seconds integer DEFAULT 10, threshold double precision DEFAULT 0.02,
                                 min_rounds integer DEFAULT 3, max_rounds integer DEFAULT 8,
                                 interim_confidence double precision DEFAULT 0.998,
                                 seed double precision DEFAULT 0.25)
RETURNS TABLE (sim integer, dbms text, workload text, changed boolean, verdict text, rounds integer)
LANGUAGE plpgsql AS $$
DECLARE
    s      integer;
    r      integer;
    left_open integer;
BEGIN
    PERFORM setseed(seed);
    CREATE TEMP TABLE IF NOT EXISTS sim_cells (dbms text, workload text, level double precision, truth double precision,
                                               sd_run double precision, sd_round double precision, open boolean,
                                               verdict text, rounds integer);
    FOR s IN 1 .. sims LOOP
        TRUNCATE sim_cells;
        INSERT INTO sim_cells
        SELECT n.dbms, n.workload, n.level,
               CASE WHEN random() < changed_share THEN ln(1 + change) * CASE WHEN random() < 0.5 THEN -1 ELSE 1 END ELSE 0 END,
               sqrt(n.run_var + n.sec_var * pg_temp.ar1_mean_var(seconds, n.rho)), sqrt(n.round_var), true, NULL, NULL
        FROM noise n ORDER BY n.dbms, n.workload;
        DELETE FROM microbench.runs WHERE label IN ('sim-a', 'sim-b');
        FOR r IN 1 .. max_rounds LOOP
            -- a round: each open cell's pair, with a shift both share
            UPDATE sim_cells SET rounds = r WHERE open;
            INSERT INTO microbench.runs (dbms, version, workload, phase, label, seconds, warmup, clients, tables,
                                         table_size, rand_type, started_at, ended_at, elapsed_seconds, events,
                                         queries, tps, qps, round, instance)
            SELECT c.dbms, 'sim', c.workload, 'post', side.label, seconds, 0, 1, 1, 10000, 'uniform',
                   now(), now(), seconds, 1, 1, 1,
                   exp(c.level + shift.x + CASE WHEN side.label = 'sim-b' THEN c.truth ELSE 0 END
                       + c.sd_run * pg_temp.t5()),
                   r, side.label || ' start ' || r
            FROM sim_cells c
            CROSS JOIN LATERAL (SELECT c.sd_round * pg_temp.normal() AS x) shift
            CROSS JOIN (VALUES ('sim-a'), ('sim-b')) AS side(label)
            WHERE c.open;
            CONTINUE WHEN r < min_rounds OR r = max_rounds;
            -- a look between rounds, at the runner's stricter level
            UPDATE sim_cells c SET open = m.verdict = 'inconclusive'
            FROM microbench.compare('sim-a', 'sim-b', confidence => interim_confidence,
                                    threshold => simulate.threshold) m
            WHERE m.dbms = c.dbms AND m.workload = c.workload;
            SELECT count(*) INTO left_open FROM sim_cells WHERE open;
            EXIT WHEN left_open = 0;
        END LOOP;
        -- the report: every run, at the report's level
        UPDATE sim_cells c SET verdict = m.verdict
        FROM microbench.compare('sim-a', 'sim-b', threshold => simulate.threshold) m
        WHERE m.dbms = c.dbms AND m.workload = c.workload;
        RETURN QUERY SELECT s, c.dbms, c.workload, c.truth <> 0, c.verdict, c.rounds FROM sim_cells c;
    END LOOP;
    DELETE FROM microbench.runs WHERE label IN ('sim-a', 'sim-b');
END $$;
