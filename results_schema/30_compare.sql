-- 30_compare.sql — the verdict of a comparison: is the other build faster,
-- slower, the same within a threshold, or not yet decided?
--
-- The experiment's design carries the information: the builds take turns
-- run by run in rounds, so the runs of one round form a pair whose
-- log-ratio cancels whatever slowed both; server starts are a level of
-- their own (runs of one start share its luck); the cells of a comparison
-- share the machine's noise.  compare() uses all three, decides each cell
-- with the decisions of the whole comparison adjusted for their number, and
-- prints the interval it decided on.  compare_warnings() says what could
-- still bend a ratio.  docs/methodology.md explains the model, why, and the
-- simulation that checks it (test/calibration/, test/pg/calibration.t).
-- Each is a few named steps, each a function of its own below, so that a
-- step can be read, and changed, alone: compare() decides on
-- comparison_estimates(), which rests on comparison_cell_spreads(),
-- comparison_cell_units() and comparison_pairs(); compare_warnings() is
-- the findings of host_speed_warnings(), trend_warnings(),
-- data_state_warnings() and pair_warnings().

-- The figures of one side of a comparison — one label's runs of one
-- report column and workload, over one driver — on a log scale, where a
-- ratio is a difference: the runs' mean and variance of log(value), and,
-- for QPS, what the per-second samples inside the runs say: the pooled
-- within-run variance of log QPS and its lag-1 autocorrelation
-- (neighbouring seconds are alike, so n samples carry less than n samples'
-- worth of information).  side is 'base' or 'other', not the label, so
-- that a label compared with itself over two drivers stays two sides.
-- dbms is the run's report column (run_column): with no driver chosen, a
-- label's Postgres runs over the wire are 'postgres-wire', apart from its
-- in-server ones; check_drivers() refuses what would still pool two
-- drivers in one side.
CREATE OR REPLACE FUNCTION microbench.side_stats(base text, other text, metric text, phase text,
                                                 base_driver text DEFAULT NULL,
                                                 other_driver text DEFAULT NULL)
RETURNS TABLE (side text, dbms text, label text, driver text, workload text, runs integer,
               centre double precision, lo double precision, hi double precision,
               mean_log double precision, var_log double precision, samples integer,
               within_var double precision, within_rho double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH run_values AS (
        SELECT s.side, r.run_id,
               microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL) AS dbms,
               r.label, r.driver, r.workload, microbench.metric_value(r, metric) AS v,
               CASE WHEN metric IN ('qps', 'qps_mean') THEN r.qps_per_second END AS per_second
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE r.phase = side_stats.phase
          AND microbench.check_drivers(base, other, side_stats.phase, base_driver, other_driver)
          AND (NOT microbench.counted_metric(metric)
               OR microbench.check_counters(base, other, side_stats.phase, base_driver, other_driver))
    ), seconds AS (
        -- log QPS of each second, a stalled second (0 queries) taken as 1 query/s
        SELECT v.run_id, s.ord, ln(greatest(s.q, 1)) AS l
        FROM run_values v, unnest(v.per_second) WITH ORDINALITY AS s(q, ord)
        WHERE v.v > 0
    ), deviations AS (
        SELECT s.run_id, s.ord, s.l - avg(s.l) OVER (PARTITION BY s.run_id) AS d
        FROM seconds s
    ), within_run AS (
        SELECT d.run_id, count(*) AS n, sum(d.d * d.d) AS ss,
               sum(d.d * d.next_d) AS lag1
        FROM (SELECT dv.*, lead(dv.d) OVER (PARTITION BY dv.run_id ORDER BY dv.ord) AS next_d
              FROM deviations dv) d
        GROUP BY d.run_id
    )
    SELECT v.side, v.dbms, v.label, v.driver, v.workload, count(*)::integer,
           -- the geometric mean when every value is positive (the centre the
           -- interval is built around), else the median
           CASE WHEN min(v.v) > 0 THEN exp(avg(ln(v.v)) FILTER (WHERE v.v > 0))
                ELSE percentile_cont(0.5) WITHIN GROUP (ORDER BY v.v) END,
           min(v.v), max(v.v),
           avg(ln(v.v)) FILTER (WHERE v.v > 0),
           var_samp(ln(v.v)) FILTER (WHERE v.v > 0),
           coalesce(sum(w.n), 0)::integer,
           CASE WHEN sum(w.n) > count(w.run_id) THEN sum(w.ss) / (sum(w.n) - count(w.run_id)) END,
           CASE WHEN sum(w.ss) > 0 THEN least(greatest(sum(w.lag1) / sum(w.ss), 0), 0.95) END
    FROM run_values v
    LEFT JOIN within_run w ON w.run_id = v.run_id
    WHERE v.v IS NOT NULL
    GROUP BY v.side, v.dbms, v.label, v.driver, v.workload
$$;

-- The pairs of a comparison before any is judged: for every report column
-- (the DBMS, or postgres-wire: run_column) and workload, the base's and
-- the other's runs of one round side by side (or, for runs that were not
-- given a round, the k-th run of each side by time), their mean log values
-- (a round's runs of one side are averaged on the log scale), how long
-- each waited for a CPU, how busy its neighbours were, and which server
-- starts ran them.  A step of its own so that comparison_pairs() below
-- reads as the judging of these pairs alone.
CREATE OR REPLACE FUNCTION microbench.comparison_pair_runs(base text, other text, metric text, phase text,
                                                           base_driver text, other_driver text)
RETURNS TABLE (dbms text, workload text, pair integer, by_round boolean,
               base_ids bigint[], other_ids bigint[], base_l double precision, other_l double precision,
               base_wait double precision, other_wait double precision,
               base_busy double precision, other_busy double precision, busy boolean,
               base_instance text, other_instance text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH runs AS (
        SELECT s.side, r.run_id,
               microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL) AS dbms,
               r.workload, r.round, r.instance, r.started_at,
               microbench.metric_value(r, metric) AS v,
               -- (a count has no time in it: its waits and neighbours set nothing aside)
               CASE WHEN NOT microbench.counted_metric(metric)
                    THEN r.cpu_wait_seconds / nullif(r.cpu_run_seconds + r.cpu_wait_seconds, 0) END AS wait,
               CASE WHEN NOT microbench.counted_metric(metric) THEN r.busy_share END AS busy
        FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
        JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE r.phase = comparison_pair_runs.phase
          AND microbench.check_drivers(base, other, comparison_pair_runs.phase, base_driver, other_driver)
    ), cells AS (
        -- rounds pair the runs only when every run of the cell, on both
        -- sides, has one; otherwise the runs pair up in the order they ran
        SELECT r.dbms, r.workload, bool_and(r.round IS NOT NULL) AS by_round
        FROM runs r
        GROUP BY r.dbms, r.workload
    ), keyed AS (
        SELECT r.*, c.by_round,
               CASE WHEN c.by_round THEN r.round
                    ELSE (row_number() OVER (PARTITION BY r.side, r.dbms, r.workload
                                             ORDER BY r.started_at, r.run_id))::integer END AS pair
        FROM runs r
        JOIN cells c ON c.dbms = r.dbms AND c.workload = r.workload
        WHERE r.v > 0
    ), sides AS (
        SELECT k.side, k.dbms, k.workload, k.pair, k.by_round,
               array_agg(k.run_id ORDER BY k.run_id) AS run_ids, avg(ln(k.v)) AS l,
               max(k.wait) AS wait, max(k.busy) AS busy,
               CASE WHEN count(DISTINCT k.instance) = 1 AND count(k.instance) = count(*)
                    THEN min(k.instance) END AS instance
        FROM keyed k
        GROUP BY k.side, k.dbms, k.workload, k.pair, k.by_round
    )
    SELECT b.dbms, b.workload, b.pair, b.by_round, b.run_ids, o.run_ids,
           b.l, o.l, b.wait, o.wait, b.busy, o.busy,
           -- either run shared its CPUs with a busy neighbour (the runner's
           -- busy_share: more than a fifth of a CPU)
           coalesce(greatest(b.busy, o.busy) > 0.2, false),
           b.instance, o.instance
    FROM sides b
    JOIN sides o ON o.side = 'other' AND o.dbms = b.dbms AND o.workload = b.workload AND o.pair = b.pair
    WHERE b.side = 'base'
$$;

-- How each pair of a comparison lines up: for every report column (the
-- DBMS, or postgres-wire: run_column) and workload, the base's and the
-- other's runs of one round side by side (or, for runs that
-- were not given a round, the k-th run of each side by time), their log
-- values and difference, how long each waited for a CPU, and which server
-- starts ran them.  A round's runs of one side are averaged (log scale).
-- A pair whose two runs' shares of time spent waiting for a CPU differ by
-- more than max_wait_difference from how they usually differ in that cell
-- (the median over its pairs) saw two different machines — a neighbour
-- took the CPU from one run and not the other — and is set aside
-- (set_aside), named in the warnings and left out of the verdict.  The
-- usual difference, not zero, because builds and settings differ in how
-- much they wait (a server that waits for its WAL flushes competes less
-- for the CPU); the pair's difference, not each run's own level, because a
-- neighbour that slowed both runs of a pair alike is cancelled by the
-- pair.  Where a cell's waits swing from pair to pair anyway (a commit-
-- bound run's), a pair must also stray three times as far as the cell's
-- pairs usually do (median absolute deviation), so that only the exception
-- is set aside.  It takes three pairs to know what is usual: cells with
-- fewer set nothing aside.  A timed pair is also set aside when either run
-- shared its CPUs with a busy neighbour (the runner counts what other
-- processes took of the servers' and its own CPUs during each run,
-- busy_share, and more than a fifth of a CPU is busy), provided its cell
-- has three quiet pairs besides: on a machine busy throughout, every pair
-- is busy, and their spread, kept, is what the interval must then carry
-- (the report's first line says the machine was busy).  Last, a timed
-- pair is set aside (strayed) when its log-ratio lies more than five
-- typical deviations from the median of its cell's other pairs: on a
-- virtual machine the host can stall a vCPU for seconds, which no CPU
-- count inside the machine shows; runs a second apart cancel it when both
-- fall inside the stall, but a pair that straddles its edge reads as a
-- 30-70% change.  The typical deviation is pooled over the DBMS's reads
-- (or its writes): 1.4826 times the median absolute residual, each pair
-- against the median of its cell's other pairs, so that stalls, being
-- rare, do not set it.  Five of them is a bound that pairs of normal
-- spread pass all but once in a million.  A cell noisier than its pool
-- is judged on its own spread as well: the pair must also lie outside
-- the 99.99% prediction interval its cell's other pairs give for one more
-- (Student's t), or a noisy cell would lose its wide pairs and look
-- tighter than it is.  It takes four pairs to judge a pair (three
-- others), ten residuals in a pool to know what is typical, and three
-- pairs that stay: a cell never drops below three.
CREATE OR REPLACE FUNCTION microbench.comparison_pairs(base text, other text, metric text DEFAULT 'qps',
                                                       phase text DEFAULT 'post',
                                                       base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL,
                                                       max_wait_difference double precision DEFAULT 0.1)
RETURNS TABLE (dbms text, workload text, pair integer, by_round boolean,
               base_run_ids bigint[], other_run_ids bigint[],
               base_log double precision, other_log double precision, d double precision,
               base_wait double precision, other_wait double precision,
               usual_wait_difference double precision,
               base_instance text, other_instance text, set_aside boolean,
               base_busy double precision, other_busy double precision, strayed boolean)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH paired AS MATERIALIZED (
        -- (materialized: read by every step below, made once)
        SELECT * FROM microbench.comparison_pair_runs(base, other, metric, phase, base_driver, other_driver)
    ), usual AS (
        -- (over the pairs of runs no busy neighbour shared: a busy pair's
        -- waits are not what is usual)
        SELECT p.dbms, p.workload,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY p.other_wait - p.base_wait)
                   FILTER (WHERE NOT p.busy) AS difference,
               count(p.other_wait - p.base_wait)
                   FILTER (WHERE NOT p.busy) AS known,
               count(*) FILTER (WHERE NOT p.busy) AS quiet
        FROM paired p
        GROUP BY p.dbms, p.workload
    ), spread AS (
        -- how far the pairs' differences usually stray from their median
        -- (median absolute deviation): where a cell's waits swing from
        -- pair to pair anyway, a pair must stray three times as far
        SELECT u.dbms, u.workload,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(p.other_wait - p.base_wait - u.difference)) AS mad
        FROM usual u
        JOIN paired p ON p.dbms = u.dbms AND p.workload = u.workload
        WHERE NOT p.busy
        GROUP BY u.dbms, u.workload
    ), judged AS (
        SELECT p.*, u.difference,
               coalesce(u.known >= 3
                        AND abs((p.other_wait - p.base_wait) - u.difference)
                            > greatest(max_wait_difference, 3 * s.mad), false)
                   OR (p.busy AND u.quiet >= 3) AS disturbed,
               p.other_l - p.base_l AS d,
               coalesce(w.grp = 'writes', false) AS writes
        FROM paired p
        JOIN usual u ON u.dbms = p.dbms AND u.workload = p.workload
        LEFT JOIN spread s ON s.dbms = p.dbms AND s.workload = p.workload
        LEFT JOIN microbench.workloads w ON w.name = p.workload
    ), residuals AS (
        -- each pair's log-ratio against the median of its cell's other
        -- undisturbed pairs (at least three of them)
        SELECT j.dbms, j.workload, j.pair, j.writes,
               j.d - o.median AS residual,
               -- how far the pair lies outside what its cell's other pairs
               -- predict for one more (Student's t on their own spread)
               abs(j.d - o.mean) / nullif(o.sd * sqrt(1 + 1.0 / o.others), 0) AS t,
               o.others - 1 AS df
        FROM judged j
        CROSS JOIN LATERAL (
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x.d) AS median, count(*) AS others,
                   avg(x.d) AS mean, stddev_samp(x.d) AS sd
            FROM judged x
            WHERE x.dbms = j.dbms AND x.workload = j.workload AND x.pair <> j.pair AND NOT x.disturbed) o
        WHERE NOT j.disturbed AND o.others >= 3
          AND NOT microbench.counted_metric(metric)
    ), scale AS (
        -- how far a pair usually strays so, over the DBMS's reads (or its
        -- writes): the median absolute residual, as a standard deviation
        SELECT r.dbms, r.writes, 1.4826 * percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(r.residual)) AS sd
        FROM residuals r
        GROUP BY r.dbms, r.writes
        HAVING count(*) >= 10
    ), strayed AS MATERIALIZED (
        -- materialized: inlined into marked's join, the t test ran once
        -- for every pair joined, not once a pair (90 times slower)
        SELECT r.dbms, r.workload, r.pair
        FROM residuals r
        JOIN scale c ON c.dbms = r.dbms AND c.writes = r.writes
        WHERE abs(r.residual) > 5 * c.sd
          AND (r.t IS NULL OR 2 * (1 - microbench.t_cdf(r.t, r.df)) < 0.0001)
    ), marked AS (
        SELECT j.*, st.pair IS NOT NULL AS strays
        FROM judged j
        LEFT JOIN strayed st ON st.dbms = j.dbms AND st.workload = j.workload AND st.pair = j.pair
    ), final AS (
        -- a cell sets its strayed pairs aside only while three others stay
        SELECT m.*,
               m.strays AND count(*) FILTER (WHERE NOT m.disturbed AND NOT m.strays)
                                 OVER (PARTITION BY m.dbms, m.workload) >= 3 AS strays_aside
        FROM marked m
    )
    SELECT f.dbms, f.workload, f.pair, f.by_round, f.base_ids, f.other_ids, f.base_l, f.other_l,
           f.d, f.base_wait, f.other_wait, f.difference, f.base_instance, f.other_instance,
           f.disturbed OR f.strays_aside, f.base_busy, f.other_busy, f.strays_aside
    FROM final f
    ORDER BY f.dbms, f.workload, f.pair
$$;

COMMENT ON FUNCTION microbench.comparison_pairs(text, text, text, text, text, text, double precision) IS
    'the pairs of a comparison: per dbms, workload and round the two sides'' log values, their difference, CPU wait shares and server starts, and whether the pair is set aside as disturbed';

-- The prior of the moderated variances (Smyth, "Linear models and
-- empirical Bayes methods for assessing differential expression in
-- microarray experiments", 2004): the cells of one comparison share a
-- machine, builds and noise, so their sample variances s2[i] (on df[i]
-- degrees of freedom) are taken as draws around a common prior_var,
-- scaled inverse chi-square on prior_df degrees of freedom.  Both are
-- fitted by the method of moments on log s2, whose mean and variance are
-- digamma and trigamma of df/2.  A prior_df near 0 says the cells'
-- variances are too unlike to pool (each cell keeps its own); a large
-- one, that they are one variance seen through noise (the pooled value).
-- Fewer than three cells with a variance: no prior (prior_df 0).
CREATE OR REPLACE FUNCTION microbench.variance_prior(s2 double precision[], df double precision[],
                                                     OUT prior_df double precision,
                                                     OUT prior_var double precision)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n      integer := 0;
    e      double precision[] := '{}';
    emean  double precision := 0;
    evar   double precision := 0;
    tri    double precision := 0;
    i      integer;
BEGIN
    prior_df := 0;
    prior_var := NULL;
    FOR i IN 1 .. coalesce(cardinality(s2), 0) LOOP
        IF s2[i] > 0 AND df[i] > 0 THEN
            n := n + 1;
            e := e || (ln(s2[i]) - microbench.digamma(df[i] / 2) + ln(df[i] / 2));
            tri := tri + microbench.trigamma(df[i] / 2);
        END IF;
    END LOOP;
    IF n < 3 THEN
        RETURN;
    END IF;
    SELECT avg(x), var_samp(x) INTO emean, evar FROM unnest(e) x;
    evar := evar - tri / n;
    IF evar > 0 THEN
        prior_df := least(2 * microbench.trigamma_inverse(evar), 1e4);
        prior_var := exp(emean + microbench.digamma(prior_df / 2) - ln(prior_df / 2));
    ELSE
        -- the variances differ no more than sampling alone makes them
        prior_df := 1e4;
        prior_var := exp(emean);
    END IF;
END
$$;

-- The prior of the moderated variances, robustly (after limma's
-- eBayes(robust = TRUE), Phipson et al., "Robust hyperparameter estimation
-- protects against hypervariable genes and improves power to detect
-- differential expression", 2016): a cell whose runs a neighbour disturbed
-- has a variance far above its fellows', and neither sets the prior nor
-- takes it.  Each cell's variance is tested against the prior fitted
-- without it (s2 / prior_var follows Fisher's F on df and prior_df
-- degrees of freedom when the cell is like the others); a cell beyond the
-- upper 1 - 0.05 / n point is an outlier, named in outliers, and the prior
-- is fitted from the rest, on no more degrees of freedom than the fit with
-- the outliers in gives (cells that unlike may hide a noisy one among
-- those kept, whose few pairs cannot show it).  With fewer than four cells
-- nothing can be told apart and the plain fit stands.
CREATE OR REPLACE FUNCTION microbench.variance_prior_robust(s2 double precision[], df double precision[],
                                                            names text[],
                                                            OUT prior_df double precision,
                                                            OUT prior_var double precision,
                                                            OUT outliers text[])
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    n      integer := coalesce(cardinality(s2), 0);
    usable integer := 0;
    keep_s2 double precision[] := '{}';
    keep_df double precision[] := '{}';
    fit    record;
    d2     double precision;
    x      double precision;
    i      integer;
BEGIN
    outliers := '{}';
    FOR i IN 1 .. n LOOP
        usable := usable + (s2[i] > 0 AND df[i] > 0)::integer;
    END LOOP;
    IF usable >= 4 THEN
        FOR i IN 1 .. n LOOP
            CONTINUE WHEN NOT (s2[i] > 0 AND df[i] > 0);
            SELECT * INTO fit
            FROM microbench.variance_prior(s2[1:i - 1] || s2[i + 1:n], df[1:i - 1] || df[i + 1:n]);
            CONTINUE WHEN fit.prior_df <= 0;
            -- P(F > s2 / prior_var), F on (df, prior_df): the incomplete
            -- beta of prior_df / (prior_df + df x); a prior of "infinite"
            -- degrees of freedom tested as a thousand
            d2 := least(fit.prior_df, 1000);
            x := s2[i] / fit.prior_var;
            IF microbench.beta_inc(d2 / 2, df[i] / 2, d2 / (d2 + df[i] * x)) < 0.05 / usable THEN
                outliers := outliers || names[i];
            END IF;
        END LOOP;
    END IF;
    FOR i IN 1 .. n LOOP
        IF NOT names[i] = ANY (outliers) THEN
            keep_s2 := keep_s2 || s2[i];
            keep_df := keep_df || df[i];
        END IF;
    END LOOP;
    SELECT * INTO fit FROM microbench.variance_prior(keep_s2, keep_df);
    prior_df := fit.prior_df;
    prior_var := fit.prior_var;
    IF cardinality(outliers) > 0 THEN
        -- how alike the cells' variances are, judged with the outliers in:
        -- cells that vary that much may hide one more among those kept
        SELECT * INTO fit FROM microbench.variance_prior(s2, df);
        prior_df := least(prior_df, fit.prior_df);
    END IF;
END
$$;

-- compare()'s first step: each cell's centre and spread from its kept
-- pairs, and how those pairs sit on server starts, with the pairs set
-- aside counted.  A cell's unit of replication is a pair, or, where several
-- pairs share their two server starts (and not all of the cell's pairs
-- do), the mean of those pairs; a timed cell of ten units or more is
-- summed up by its trimmed mean (unit_stats below says why).  Cells whose
-- every pair was set aside have no units (n_units NULL).
CREATE OR REPLACE FUNCTION microbench.comparison_cell_units(base text, other text, metric text, phase text,
                                                            base_driver text, other_driver text,
                                                            max_wait_difference double precision)
RETURNS TABLE (dbms text, workload text, n bigint, n_set_aside bigint, n_two_starts bigint,
               start_pairs bigint, n_units bigint, mu double precision, s2 double precision,
               df_own double precision, trimmed integer)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH pair_rows AS (
        -- the cells' pairs, computed once: the cells ask which were set
        -- aside, the units are made of them
        SELECT p.*,
               p.base_instance IS NOT NULL AND p.other_instance IS NOT NULL
                   AND p.base_instance <> p.other_instance AS two_starts
        FROM microbench.comparison_pairs(base, other, metric, phase, base_driver, other_driver,
                                         max_wait_difference) p
    ), starts AS (
        -- how the kept pairs of a cell sit on server starts
        SELECT p.dbms, p.workload,
               count(*) FILTER (WHERE NOT p.set_aside) AS n,
               count(*) FILTER (WHERE p.set_aside) AS n_set_aside,
               count(*) FILTER (WHERE NOT p.set_aside AND p.two_starts) AS n_two_starts,
               count(DISTINCT p.base_instance || ' / ' || p.other_instance)
                   FILTER (WHERE NOT p.set_aside AND p.two_starts) AS start_pairs
        FROM pair_rows p
        GROUP BY p.dbms, p.workload
    ), units AS (
        -- the unit of replication: a pair; or, where several pairs share
        -- their two server starts (and not all of the cell's pairs do), the
        -- mean of those pairs
        SELECT p.dbms, p.workload,
               CASE WHEN s.start_pairs >= 2 AND s.start_pairs < s.n AND p.two_starts
                    THEN p.base_instance || ' / ' || p.other_instance ELSE p.pair::text END AS unit,
               avg(p.d) AS d
        FROM pair_rows p
        JOIN starts s ON s.dbms = p.dbms AND s.workload = p.workload
        WHERE NOT p.set_aside
        GROUP BY 1, 2, 3
    ), ordered_units AS (
        -- a timed cell's units in order of their log-ratio, and how many
        -- of each end its trimmed mean leaves out: a fifth (Yuen's 20%),
        -- from ten units on.  With fewer, the trimmed t leans on a spread
        -- of four degrees of freedom or less and so on the pool's, whose
        -- cells are not all alike: simulated A/A reports at eight rounds
        -- showed a difference in 12.5% rather than 5%.
        SELECT u.*, row_number() OVER w AS rank, count(*) OVER w AS n_units,
               CASE WHEN microbench.counted_metric(metric) OR count(*) OVER w < 10 THEN 0
                    ELSE floor(0.2 * count(*) OVER w) END AS trim_each
        FROM units u
        WINDOW w AS (PARTITION BY u.dbms, u.workload ORDER BY u.d
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ), winsorized AS (
        -- each unit, the trimmed ones pulled in to the nearest kept value
        SELECT o.*,
               least(greatest(o.d, min(o.d) FILTER (WHERE o.rank > o.trim_each) OVER c),
                     max(o.d) FILTER (WHERE o.rank <= o.n_units - o.trim_each) OVER c) AS d_w
        FROM ordered_units o
        WINDOW c AS (PARTITION BY o.dbms, o.workload)
    ), unit_stats AS (
        -- the cell's centre and spread: the mean and variance of its units,
        -- or for a timed cell of ten or more, the trimmed mean and the
        -- winsorized variance scaled to the trimmed mean's (Yuen, "The
        -- two-sample trimmed t for unequal population variances", 1974;
        -- Tukey and McLaughlin's one-sample form).  The host slows a run
        -- now and then by far more than the pairs' usual spread (a round
        -- 30% off among rounds within 3%); the mean and variance take
        -- such a round in whole, the trimmed ones do not, and cost little
        -- where no round strays.  In samples this small the winsorized
        -- variance falls short of the trimmed mean's and is less sure than
        -- Yuen's h - 1 degrees of freedom claim (the test would say 5.9%
        -- where it means 5%): trimmed_mean_constants corrects both.
        -- df_own: the degrees of freedom of the cell's own spread.
        SELECT x.dbms, x.workload, min(x.n_units) AS n_units,
               avg(x.d) FILTER (WHERE x.rank > x.trim_each AND x.rank <= x.n_units - x.trim_each) AS mu,
               var_samp(x.d_w) / (1 - 2 * min(x.trim_each) / min(x.n_units)) ^ 2
                   * CASE WHEN min(x.trim_each) > 0 THEN min(k.variance_factor) ELSE 1 END AS s2,
               CASE WHEN min(x.trim_each) > 0 THEN min(k.df) ELSE min(x.n_units) - 1 END AS df_own,
               min(x.trim_each)::integer AS trimmed
        FROM winsorized x,
             LATERAL microbench.trimmed_mean_constants(x.n_units::integer) k
        GROUP BY x.dbms, x.workload
    )
    SELECT s.dbms, s.workload, s.n, s.n_set_aside, s.n_two_starts, s.start_pairs,
           u.n_units, u.mu, u.s2, u.df_own, u.trimmed
    FROM starts s
    LEFT JOIN unit_stats u ON u.dbms = s.dbms AND u.workload = s.workload
$$;

-- compare()'s second step: each cell's spread moderated towards the
-- spread its like cells share (its pool: see compare()'s comment), with
-- the degrees of freedom that gives it.  Every cell with pairs has a row,
-- so that compare() can see which set pairs aside; has_units is false for
-- a cell whose every pair was, and its other columns are then NULL.
CREATE OR REPLACE FUNCTION microbench.comparison_cell_spreads(base text, other text, metric text, phase text,
                                                              base_driver text, other_driver text,
                                                              max_wait_difference double precision)
RETURNS TABLE (dbms text, workload text, n_set_aside bigint, has_units boolean, n bigint,
               n_units bigint, mu double precision, trimmed integer, one_start boolean,
               start_pairs bigint, pool text, pooled bigint, outlier boolean,
               prior_df double precision, s2_unit double precision, df_unit double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH units AS MATERIALIZED (
        -- (materialized: read by every step below, made once)
        SELECT * FROM microbench.comparison_cell_units(base, other, metric, phase, base_driver, other_driver,
                                                       max_wait_difference)
    ), classed AS (
        SELECT u.dbms, u.workload, u.n_units, u.mu, u.s2, u.df_own, u.trimmed,
               w.grp, w.grp = 'writes' AS writes, u.n, u.n_set_aside, u.start_pairs, u.n_two_starts,
               -- all the pairs on one pair of starts: their luck is not in the spread
               u.start_pairs = 1 AND u.n_two_starts = u.n AS one_start
        FROM units u
        JOIN microbench.workloads w ON w.name = u.workload
        WHERE u.n_units IS NOT NULL
    ), pools AS (
        -- like cells: a workload group of the column when at least three
        -- of its cells have a spread, else all its reads or all its writes;
        -- writes never lend their spread to reads, nor reads to writes, and
        -- the wire's cells (postgres-wire) never theirs to in-server ones:
        -- the round trips are noise of their own
        SELECT c.dbms, c.workload, c.writes,
               CASE WHEN count(*) FILTER (WHERE c.n_units >= 2 AND c.s2 > 0)
                         OVER (PARTITION BY c.dbms, c.grp) >= 3
                    THEN c.grp ELSE CASE WHEN c.writes THEN 'writes' ELSE 'reads' END END AS pool
        FROM classed c
    ), pool_members AS (
        -- a pool's cells: those of its group, or all the reads or writes
        SELECT DISTINCT p.dbms, p.pool, c.workload, c.n_units, c.s2, c.df_own
        FROM pools p
        JOIN classed c ON c.dbms = p.dbms
                      AND (c.grp = p.pool OR (p.pool IN ('reads', 'writes') AND c.writes = p.writes))
    ), priors AS MATERIALIZED (
        -- once per pool (inlined, the planner would fit each pool's prior
        -- again for every cell)
        SELECT m.dbms, m.pool, count(*) FILTER (WHERE m.n_units >= 2 AND m.s2 > 0) AS pooled,
               sum(m.df_own) FILTER (WHERE m.n_units >= 2 AND m.s2 > 0) AS pooled_df,
               (microbench.variance_prior_robust(
                    array_agg(m.s2 ORDER BY m.workload) FILTER (WHERE m.n_units >= 2 AND m.s2 > 0),
                    array_agg(m.df_own::double precision ORDER BY m.workload)
                        FILTER (WHERE m.n_units >= 2 AND m.s2 > 0),
                    array_agg(m.workload ORDER BY m.workload) FILTER (WHERE m.n_units >= 2 AND m.s2 > 0))).*
        FROM pool_members m
        GROUP BY m.dbms, m.pool
    ), moderated AS (
        -- a cell needs two units of its own to take the prior: one pair
        -- alone cannot show that it is unlike its fellows (a run that met a
        -- slow moment of the host would decide it)
        SELECT c.*, pr.pool, pr.pooled - cardinality(pr.outliers) AS pooled,
               c.workload = ANY (pr.outliers) AS outlier,
               CASE WHEN c.workload = ANY (pr.outliers) OR c.n_units < 2 THEN 0 ELSE pr.prior_df END AS prior_df,
               CASE WHEN pr.prior_df > 0 AND NOT c.workload = ANY (pr.outliers) AND c.n_units >= 2 THEN
                        (pr.prior_df * pr.prior_var + c.df_own * coalesce(c.s2, 0)) / (pr.prior_df + c.df_own)
                    -- (identical pairs, as made-up runs can be: a variance of
                    -- (0.0001%)^2 rather than none)
                    WHEN c.n_units >= 2 THEN greatest(c.s2, 1e-12) END AS s2_unit,
               -- the degrees of freedom: the prior's and the cell's own, but
               -- never more than all the pooled cells hold together (a prior
               -- fitted from five cells of three pairs knows their spread
               -- from ten degrees of freedom, however alike they look)
               CASE WHEN pr.prior_df > 0 AND NOT c.workload = ANY (pr.outliers) AND c.n_units >= 2
                    THEN least(pr.prior_df + c.df_own,
                               pr.pooled_df + CASE WHEN c.n_units >= 2 AND c.s2 > 0 THEN 0 ELSE c.df_own END)
                    ELSE c.df_own END AS df_unit
        FROM classed c
        JOIN pools po ON po.dbms = c.dbms AND po.workload = c.workload
        LEFT JOIN priors pr ON pr.dbms = po.dbms AND pr.pool = po.pool
    )
    SELECT u.dbms, u.workload, u.n_set_aside, m.dbms IS NOT NULL, m.n, m.n_units, m.mu, m.trimmed,
           m.one_start, m.start_pairs, m.pool, m.pooled, m.outlier, m.prior_df, m.s2_unit, m.df_unit
    FROM units u
    LEFT JOIN moderated m ON m.dbms = u.dbms AND m.workload = u.workload
$$;

-- compare()'s third step: for each cell its estimate of the log-ratio
-- (mu), that estimate's squared standard error and degrees of freedom, and
-- what they rest on (method): the cell's units with the moderated spread
-- where it has two or more (and a counted cell three seeds or more), else
-- for one run a side that no neighbour disturbed the seconds inside the
-- runs, else none.  base_driver and other_driver: the drivers already
-- chosen for each side (compare() resolves driver).
CREATE OR REPLACE FUNCTION microbench.comparison_estimates(base text, other text, metric text, phase text,
                                                           base_driver text, other_driver text,
                                                           max_wait_difference double precision,
                                                           start_spread double precision)
RETURNS TABLE (dbms text, workload text, base_runs integer, other_runs integer,
               base_value double precision, other_value double precision,
               base_spread double precision, other_spread double precision,
               base_driver_used text, other_driver_used text, n bigint, n_set_aside bigint,
               n_units bigint, trimmed integer, s2_unit double precision, one_start boolean,
               start_pairs bigint, pooled bigint, prior_df double precision, df_unit double precision,
               pool text, outlier boolean, seeds bigint, mu double precision, se2 double precision,
               df double precision, method text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH side AS (
        SELECT s.*,
               CASE WHEN s.runs > 1 AND s.centre > 0 THEN (s.hi - s.lo) / s.centre END AS spread,
               -- one side's mean log value from the seconds inside its runs
               s.samples * (1 - s.within_rho) / (1 + s.within_rho) AS samples_eff
        FROM microbench.side_stats(base, other, metric, phase, base_driver, other_driver) s
    ), spreads AS MATERIALIZED (
        -- (materialized: made once, though each cell looks its own up)
        SELECT * FROM microbench.comparison_cell_spreads(base, other, metric, phase, base_driver, other_driver,
                                                         max_wait_difference)
    ), cells AS (
        SELECT coalesce(b.dbms, o.dbms) AS dbms, coalesce(b.workload, o.workload) AS workload,
               b.runs AS base_runs, o.runs AS other_runs, b.centre AS base_value, o.centre AS other_value,
               b.spread AS base_spread, o.spread AS other_spread,
               b.driver AS base_driver, o.driver AS other_driver,
               -- the fallback of a cell with one run a side: the seconds
               CASE WHEN b.samples_eff >= 2 AND o.samples_eff >= 2 THEN
                   b.within_var / b.samples_eff + o.within_var / o.samples_eff END AS se2_seconds,
               CASE WHEN b.samples_eff >= 2 AND o.samples_eff >= 2 THEN
                   (b.within_var / b.samples_eff + o.within_var / o.samples_eff) ^ 2
                   / nullif((b.within_var / b.samples_eff) ^ 2 / (b.samples_eff - 1)
                            + (o.within_var / o.samples_eff) ^ 2 / (o.samples_eff - 1), 0) END AS df_seconds,
               o.mean_log - b.mean_log AS d_sides,
               -- the seconds decide only a cell of one run a side that no
               -- neighbour disturbed: not what is left of a cell whose
               -- other pairs were set aside
               b.runs = 1 AND o.runs = 1
                   AND NOT EXISTS (SELECT 1 FROM spreads x
                                   WHERE x.dbms = b.dbms AND x.workload = b.workload AND x.n_set_aside > 0)
                   AS one_run_a_side
        FROM (SELECT * FROM side WHERE side.side = 'base') b
        FULL JOIN (SELECT * FROM side WHERE side.side = 'other') o
               ON o.dbms = b.dbms AND o.workload = b.workload
    ), seeds AS (
        -- a counted cell is decided on three seeds or more: each round of a
        -- counted comparison draws its own (the same for both sides), so
        -- that the pairs' spread says how much the count depends on the
        -- keys a run drew; the replays of one seed agree to the instruction
        -- and would make any verdict look certain
        SELECT microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL) AS dbms,
               r.workload, count(DISTINCT r.seed) AS n
        FROM (VALUES (base, base_driver), (other, other_driver)) AS s(label, driver)
        JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE microbench.counted_metric(metric) AND r.phase = comparison_estimates.phase
          AND microbench.metric_value(r, metric) IS NOT NULL
        GROUP BY 1, r.workload
    )
    SELECT ce.dbms, ce.workload, ce.base_runs, ce.other_runs, ce.base_value, ce.other_value,
           ce.base_spread, ce.other_spread, ce.base_driver, ce.other_driver,
           m.n, m.n_set_aside, m.n_units, m.trimmed, m.s2_unit, m.one_start, m.start_pairs, m.pooled, m.prior_df,
           m.df_unit, m.pool, m.outlier, sd.n,
           CASE WHEN m.usable THEN m.mu WHEN ce.se2_seconds > 0 AND ce.one_run_a_side THEN ce.d_sides END AS mu,
           CASE WHEN m.usable THEN
                    m.s2_unit / m.n_units + CASE WHEN m.one_start THEN start_spread ^ 2 ELSE 0 END
                WHEN ce.se2_seconds > 0 AND ce.one_run_a_side THEN ce.se2_seconds END AS se2,
           CASE WHEN m.usable THEN m.df_unit
                WHEN ce.se2_seconds > 0 AND ce.one_run_a_side THEN ce.df_seconds END AS df,
           CASE WHEN m.usable THEN
                    CASE WHEN m.one_start THEN 'one start' WHEN m.start_pairs >= 2 AND m.start_pairs < m.n
                         THEN 'starts' ELSE 'pairs' END
                WHEN ce.se2_seconds > 0 AND ce.one_run_a_side THEN 'seconds' END AS method
    FROM cells ce
    LEFT JOIN seeds sd ON sd.dbms = ce.dbms AND sd.workload = ce.workload
    LEFT JOIN LATERAL (SELECT mo.*,
                              mo.s2_unit > 0 AND (NOT microbench.counted_metric(metric) OR sd.n >= 3) AS usable
                       FROM spreads mo
                       WHERE mo.dbms = ce.dbms AND mo.workload = ce.workload AND mo.has_units) m ON true
$$;

-- The comparison behind every report: one row per report column and
-- catalog workload that either side ran, with a verdict.  A column is a
-- DBMS; with no driver chosen, a label's Postgres runs over the wire are a
-- column of their own, dbms 'postgres-wire' (run_column), decided on their
-- own pairs and pooled with their own kind only.  docs/methodology.md
-- explains the model and how it was checked; in short:
--   - the unit is the pair: the two sides' runs of one round, whose
--     log-ratio is the observation (drift that slows both alike cancels);
--   - pairs that ran on the same two server starts are one unit (their
--     mean), so the luck of a start counts once; when all of a cell's pairs
--     ran on one pair of starts, that luck cannot be seen in them and a
--     spread of start_spread (a log-ratio standard deviation) is assumed;
--   - a timed cell of ten units or more is centred on their 20% trimmed
--     mean, its spread their winsorized variance (Yuen), so that a round
--     the host slowed does not move it;
--   - a cell's variance is moderated towards the variance its like cells
--     share (variance_prior_robust: the cells of its workload group when
--     at least three have a spread, else the column's reads, or its
--     writes; never reads with writes, nor in-server with wire cells), so
--     that three rounds give a usable
--     interval; a cell whose spread is far beyond its fellows' (a disturbed
--     one) neither sets that prior nor takes it, and keeps its own;
--   - pairs disturbed by a neighbour are set aside (comparison_pairs);
--   - a cell is a difference when its interval excludes 1 and the change
--     is at least threshold (the ratio at least 1 + threshold or at most
--     1 / (1 + threshold)), equivalent when the interval lies inside
--     1 / (1 + threshold) .. 1 + threshold, inconclusive otherwise; the decisions of the whole
--     comparison are adjusted for their number (Benjamini-Hochberg, the
--     differences and the equivalences each), and the interval printed is
--     the false-coverage-rate adjusted one it was decided on
--     (Benjamini-Yekutieli): a selected cell's at 1 - R·alpha/m, where R
--     cells of m were selected; an undecided cell's at the wider of the two.
-- The estimate of each cell comes from comparison_estimates() (and the
-- steps it rests on); what is left here is the deciding of all the cells
-- together, and the words for what each decision rests on.
-- Columns:
--   dbms         the report column: postgres, postgres-wire, mysql, mariadb
--   ratio        exp(mean log-ratio of the pairs, or their trimmed mean): the report's cell
--   base_value, other_value  each side's geometric mean over all its runs
--   ci_low/high, level  the interval, and its confidence level
--   p_value      two-sided, for "no difference"; q_value: BH-adjusted
--   verdict      difference, equivalent or inconclusive; significant =
--                a difference; equivalent = shown the same
--   method       pairs, starts (pairs grouped by their server starts),
--                one start (start_spread assumed), seconds (one run a side:
--                the seconds inside the runs), or NULL (no interval)
--   basis        the same in words, with the pooling
--   pairs, set_aside  pairs used, and pairs set aside as disturbed
--   rounds_needed  for an undecided cell: about how many more rounds
--                would decide it at its present spread (at most 1000; NULL
--                when no number would: all pairs on one pair of starts)
CREATE OR REPLACE FUNCTION microbench.compare(base text, other text, metric text DEFAULT 'qps',
                                              phase text DEFAULT 'post',
                                              confidence double precision DEFAULT 0.95,
                                              threshold double precision DEFAULT 0.02,
                                              driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                              other_driver text DEFAULT NULL,
                                              max_wait_difference double precision DEFAULT 0.1,
                                              start_spread double precision DEFAULT 0.01)
RETURNS TABLE (dbms text, workload text, grp text, group_order integer, report_order integer,
               base_runs integer, other_runs integer, base_value double precision,
               other_value double precision, ratio double precision,
               base_spread double precision, other_spread double precision,
               noise double precision, within_noise boolean,
               ci_low double precision, ci_high double precision, p_value double precision,
               q_value double precision, significant boolean, method text,
               base_driver_used text, other_driver_used text,
               verdict text, equivalent boolean, level double precision, basis text,
               pairs integer, set_aside integer, rounds_needed integer)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH estimated AS (
        SELECT e.*, e.base_driver_used AS base_driver, e.other_driver_used AS other_driver
        FROM microbench.comparison_estimates(base, other, metric, phase,
                                             coalesce(compare.base_driver, compare.driver),
                                             coalesce(compare.other_driver, compare.driver),
                                             max_wait_difference, start_spread) e
    ), tested AS (
        SELECT e.*,
               ln(1 + threshold) AS bound,
               -- the change, up or down, at least the threshold on the log scale
               abs(e.mu) >= ln(1 + threshold) * (1 - 1e-12) AS beyond,
               CASE WHEN e.se2 > 0 AND e.df > 0 THEN
                   microbench.beta_inc(e.df / 2, 0.5, e.df / (e.df + e.mu ^ 2 / e.se2)) END AS p_diff,
               CASE WHEN e.se2 > 0 AND e.df > 0 THEN
                   CASE WHEN abs(e.mu) < ln(1 + threshold) THEN
                       microbench.beta_inc(e.df / 2, 0.5, e.df / (e.df + (ln(1 + threshold) - abs(e.mu)) ^ 2 / e.se2))
                   ELSE 1 END END AS p_eq
        FROM estimated e
    ), ranked AS (
        SELECT t.*,
               CASE WHEN t.beyond THEN t.p_diff ELSE 1 END AS p_d,
               count(t.p_diff) OVER () AS m,
               row_number() OVER (ORDER BY CASE WHEN t.beyond THEN t.p_diff ELSE 1 END NULLS LAST) AS k_d,
               row_number() OVER (ORDER BY t.p_eq NULLS LAST) AS k_e
        FROM tested t
    ), selected AS (
        -- Benjamini-Hochberg's step-up: R, the most decisions of each kind
        -- whose k-th smallest p-value is within k·alpha/m
        SELECT coalesce(max(r.k_d) FILTER (WHERE r.p_d <= r.k_d * (1 - confidence) / nullif(r.m, 0)), 0) AS r_d,
               coalesce(max(r.k_e) FILTER (WHERE r.p_eq <= r.k_e * (1 - confidence) / nullif(r.m, 0)), 0) AS r_e
        FROM ranked r
    ), decided AS (
        SELECT r.*, s.r_d, s.r_e,
               greatest(s.r_d, 1) * (1 - confidence) / nullif(r.m, 0) AS alpha_d,
               greatest(s.r_e, 1) * (1 - confidence) / nullif(r.m, 0) AS alpha_e,
               CASE WHEN r.p_diff IS NULL THEN 'inconclusive'
                    WHEN r.beyond AND r.p_d <= s.r_d * (1 - confidence) / r.m THEN 'difference'
                    WHEN r.p_eq <= s.r_e * (1 - confidence) / r.m THEN 'equivalent'
                    ELSE 'inconclusive' END AS verdict
        FROM ranked r, selected s
    ), intervals AS (
        SELECT d.*,
               CASE d.verdict WHEN 'difference' THEN d.alpha_d WHEN 'equivalent' THEN d.alpha_e
                              ELSE least(d.alpha_d, d.alpha_e) END AS alpha
        FROM decided d
    ), widths AS (
        SELECT i.*,
               CASE WHEN i.se2 > 0 AND i.df > 0 THEN microbench.t_quantile(1 - least(i.alpha, 1) / 2, i.df) END AS t,
               sqrt(i.se2) AS se
        FROM intervals i
    )
    SELECT w.dbms, w.workload, wl.grp, wl.group_order, wl.report_order,
           w.base_runs, w.other_runs, w.base_value, w.other_value,
           coalesce(exp(w.mu), CASE WHEN w.base_value > 0 THEN w.other_value / w.base_value END) AS ratio,
           w.base_spread, w.other_spread, greatest(w.base_spread, w.other_spread),
           CASE WHEN coalesce(w.mu, w.base_value) IS NOT NULL THEN w.verdict <> 'difference' END,
           -- Postgres's exp() errors rather than underflow to 0: an interval
           -- as wide as a tiny df and a strict level give ends at 0 or beyond
           -- (a CASE, not greatest(), which would turn no interval into one)
           exp(CASE WHEN w.mu - w.t * w.se < -700 THEN -700 ELSE w.mu - w.t * w.se END),
           exp(CASE WHEN w.mu + w.t * w.se > 700 THEN 700 ELSE w.mu + w.t * w.se END),
           w.p_diff,
           CASE WHEN w.p_diff IS NOT NULL THEN
               least(1, min(w.p_d * w.m / w.k_d) OVER (ORDER BY w.k_d DESC ROWS UNBOUNDED PRECEDING)) END,
           w.verdict = 'difference', w.method, w.base_driver, w.other_driver,
           w.verdict, w.verdict = 'equivalent',
           CASE WHEN w.t IS NOT NULL THEN 1 - w.alpha END,
           CASE WHEN w.method IS NULL AND microbench.counted_metric(metric) AND coalesce(w.seeds, 0) < 3 THEN
                    'counted on ' || coalesce(w.seeds, 0) || ' seed(s): a count is decided on three or more'
           ELSE CASE w.method
               WHEN 'seconds' THEN 'the seconds of one run a side (run more rounds for an interval from runs)'
               ELSE w.n_units || CASE w.method WHEN 'starts' THEN ' pairs of server starts (' || w.n || ' pairs)'
                                              ELSE ' pairs' END
                    || CASE WHEN w.trimmed > 0 THEN
                            ', their 20% trimmed mean (the ' || w.trimmed || ' highest and '
                            || w.trimmed || ' lowest left out)' ELSE '' END
                    || CASE WHEN w.method = 'one start'
                            THEN ', all on one start of each build (a start-to-start spread of '
                                 || round((start_spread * 100)::numeric, 1)::float8 || '% assumed)' ELSE '' END
                    || CASE WHEN w.prior_df > 0 THEN
                            ', spread pooled with ' || w.pooled || ' '
                            || CASE w.pool WHEN 'writes' THEN 'write cells' WHEN 'reads' THEN 'read cells'
                                    ELSE 'cells of ' || w.pool END
                            || ' (' || round(w.df_unit::numeric, 1)::float8 || ' degrees of freedom)'
                            WHEN w.outlier THEN
                            ', its own spread (far wider than that of the other '
                            || CASE w.pool WHEN 'writes' THEN 'write cells' WHEN 'reads' THEN 'read cells'
                                    ELSE 'cells of ' || w.pool END || ')'
                            ELSE '' END
           END END,
           coalesce(w.n, 0)::integer, coalesce(w.n_set_aside, 0)::integer,
           CASE WHEN w.verdict = 'inconclusive' AND w.s2_unit > 0 AND w.t IS NOT NULL THEN
               (SELECT CASE WHEN g.gap > 0 AND g.room > 0
                            THEN least(greatest(ceil(w.s2_unit / g.room) - w.n_units, 1), 1000)::integer END
                FROM (SELECT gap, gap ^ 2 / w.t ^ 2 - CASE WHEN w.one_start THEN start_spread ^ 2 ELSE 0 END AS room
                      FROM (SELECT CASE WHEN w.beyond THEN abs(w.mu) ELSE w.bound - abs(w.mu) END AS gap) g0) g)
           END
    FROM widths w
    JOIN microbench.workloads wl ON wl.name = w.workload
    ORDER BY microbench.dbms_order(w.dbms), wl.report_order
$$;

COMMENT ON FUNCTION microbench.compare(text, text, text, text, double precision, double precision, text, text, text,
                                       double precision, double precision) IS
    'per dbms and workload: the ratio other/base from the pairs of runs, its adjusted interval, p-value, and verdict (difference, equivalent, inconclusive), what the interval rests on, and about how many more rounds would decide an undecided cell';

-- Mann-Whitney's rank test of two samples, normal approximation: the
-- two-sided p-value that they come from one distribution.  For the drift
-- warnings, whose samples are a few dozen canary timings or steal
-- fractions with outliers a t-test would be thrown by.
CREATE OR REPLACE FUNCTION microbench.rank_test_p(a double precision[], b double precision[])
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT x, 1 AS side FROM unnest(a) x WHERE x IS NOT NULL
        UNION ALL
        SELECT x, 2 FROM unnest(b) x WHERE x IS NOT NULL
    ), ranked AS (
        -- average ranks for ties
        SELECT side, (rank() OVER (ORDER BY x) + rank() OVER (ORDER BY x DESC) * -1
                      + count(*) OVER () + 1) / 2.0 AS r
        FROM v
    ), u AS (
        SELECT count(*) FILTER (WHERE side = 1) AS n1, count(*) FILTER (WHERE side = 2) AS n2,
               sum(r) FILTER (WHERE side = 1) AS r1
        FROM ranked
    )
    SELECT CASE WHEN n1 >= 3 AND n2 >= 3 THEN
        2 * (1 - microbench.normal_cdf(abs(r1 - n1 * (n1 + 1) / 2.0 - n1 * n2 / 2.0)
                                       / sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)))
    END
    FROM u
$$;

-- The runs compare_warnings() looks at, for each side (base or other,
-- name: the side's name in messages): their report column (col, as
-- compare() has it: run_column), the log of their QPS (l), their share of
-- the host's CPU time stolen by the hypervisor (steal), and what the
-- findings read of them.  base_driver and other_driver: the drivers chosen
-- for each side.
CREATE OR REPLACE FUNCTION microbench.warning_runs(base text, other text, phase text,
                                                   base_driver text, other_driver text)
RETURNS TABLE (side text, name text, col text, run_id bigint, workload text, round integer,
               started_at timestamptz, l double precision, steal double precision,
               canary_before_us double precision, canary_after_us double precision,
               data_state jsonb, busy_share double precision, busy_note text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT s.side, microbench.side_name(s.label, s.driver),
           microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL),
           r.run_id, r.workload, r.round, r.started_at, ln(microbench.metric_value(r, 'qps')),
           r.host_cpu_steal_seconds
               / nullif(r.host_cpu_user_seconds + r.host_cpu_system_seconds + r.host_cpu_iowait_seconds
                        + r.host_cpu_idle_seconds + coalesce(r.host_cpu_steal_seconds, 0), 0),
           r.canary_before_us, r.canary_after_us, r.data_state, r.busy_share, r.busy_note
    FROM (VALUES ('base', base, base_driver), ('other', other, other_driver)) AS s(side, label, driver)
    JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
    WHERE r.phase = warning_runs.phase AND microbench.metric_value(r, 'qps') > 0
      AND microbench.check_drivers(base, other, warning_runs.phase, base_driver, other_driver)
$$;

-- compare_warnings()' findings that the machine itself differed between
-- the two sides: the host-speed canary timed before and after each run, or
-- the steal time of a virtual machine.
CREATE OR REPLACE FUNCTION microbench.host_speed_warnings(base text, other text, phase text,
                                                          base_driver text, other_driver text,
                                                          base_name text, other_name text, threshold double precision)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH runs AS (
        SELECT * FROM microbench.warning_runs(base, other, host_speed_warnings.phase, base_driver, other_driver)
    ), names AS (
        SELECT host_speed_warnings.base_name, host_speed_warnings.other_name
    ), canary AS (
        SELECT r.col AS dbms,
               array_agg(c.us) FILTER (WHERE r.side = 'base') AS b,
               array_agg(c.us) FILTER (WHERE r.side = 'other') AS o
        FROM runs r, LATERAL (VALUES (r.canary_before_us), (r.canary_after_us)) c(us)
        WHERE c.us > 0
        GROUP BY r.col
    ), canary_found AS (
        SELECT c.dbms, 'host-speed'::text AS kind,
               format('%s: the machine ran at a different speed for the two labels: the host-speed canary took %s us (median) in the runs of %s and %s us in those of %s (%s%% %s for %s, p = %s); ratios mix the builds'' difference with the machine''s',
                      microbench.dbms_short(c.dbms), round(m.b::numeric), n.base_name, round(m.o::numeric), n.other_name,
                      round(abs(m.o / m.b - 1)::numeric * 100), CASE WHEN m.o > m.b THEN 'slower' ELSE 'faster' END,
                      n.other_name, to_char(p.p, 'FM0.0000')) AS message
        FROM canary c, names n,
             LATERAL (SELECT (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(c.b) x) AS b,
                             (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest(c.o) x) AS o) m,
             LATERAL (SELECT microbench.rank_test_p(c.b, c.o) AS p) p
        WHERE p.p < 0.01 AND abs(m.o / m.b - 1) >= threshold
    ), steal AS (
        SELECT r.col AS dbms,
               avg(r.steal) FILTER (WHERE r.side = 'base') AS b,
               avg(r.steal) FILTER (WHERE r.side = 'other') AS o,
               microbench.rank_test_p(array_agg(r.steal) FILTER (WHERE r.side = 'base'),
                                      array_agg(r.steal) FILTER (WHERE r.side = 'other')) AS p
        FROM runs r
        WHERE r.steal IS NOT NULL
        GROUP BY r.col
    ), steal_found AS (
        SELECT s.dbms, 'host-speed'::text,
               format('%s: steal time differed between the two labels: %s%% of the host''s CPU time in the runs of %s, %s%% in those of %s (p = %s)',
                      microbench.dbms_short(s.dbms), round(s.b::numeric * 100, 1), n.base_name,
                      round(s.o::numeric * 100, 1), n.other_name, to_char(s.p, 'FM0.0000'))
        FROM steal s, names n
        WHERE s.p < 0.01 AND abs(s.b - s.o) >= 0.01
    )
    SELECT * FROM canary_found UNION ALL SELECT * FROM steal_found
$$;

-- compare_warnings()' findings that a side's QPS changed from round to
-- round: a trend (a slope over the rounds, in every workload alike) or
-- levels that differ between rounds (one-way analysis of variance).
CREATE OR REPLACE FUNCTION microbench.trend_warnings(base text, other text, phase text,
                                                     base_driver text, other_driver text,
                                                     base_name text, other_name text, threshold double precision)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH runs AS (
        SELECT * FROM microbench.warning_runs(base, other, trend_warnings.phase, base_driver, other_driver)
    ), names AS (
        SELECT trend_warnings.base_name, trend_warnings.other_name
    ), rounds AS (
        -- each run's round: the round it was given, numbered from 0 (the
        -- turns of one round, microbench compare --turns, share it), else
        -- its place in time among the side's runs of that workload; label
        -- is the side's name, for the message
        SELECT r.col AS dbms, r.side, r.name AS label, r.workload,
               (CASE WHEN bool_and(r.round IS NOT NULL) OVER p THEN dense_rank() OVER byround
                     ELSE row_number() OVER bytime END - 1)::double precision AS round, r.l,
               count(*) OVER p AS k
        FROM runs r
        WINDOW p AS (PARTITION BY r.col, r.side, r.workload),
               bytime AS (PARTITION BY r.col, r.side, r.workload ORDER BY r.started_at, r.run_id),
               byround AS (PARTITION BY r.col, r.side, r.workload ORDER BY r.round)
    ), centred AS (
        SELECT c.dbms, c.side, c.label, c.workload, c.k, c.round,
               c.round - avg(c.round) OVER p AS x, c.l - avg(c.l) OVER p AS y
        FROM rounds c
        WHERE c.k >= 2
        WINDOW p AS (PARTITION BY c.dbms, c.side, c.workload)
    ), slopes AS (
        SELECT c.dbms, c.side, c.label, sum(c.x * c.y) / nullif(sum(c.x * c.x), 0) AS slope, sum(c.x * c.x) AS sxx,
               sum(c.y * c.y) AS syy, count(*) AS n, count(DISTINCT c.workload) AS workloads,
               count(DISTINCT c.round) AS rounds
        FROM centred c
        GROUP BY c.dbms, c.side, c.label
    ), round_means AS (
        -- each round's level against the side's mean, over all its workloads
        SELECT c.dbms, c.side, c.round, avg(c.y) AS mean_y, count(*) AS n
        FROM centred c
        GROUP BY c.dbms, c.side, c.round
    ), trend_fit AS (
        SELECT s.*, sqrt(sum((c.y - s.slope * c.x) ^ 2) / nullif(s.n - s.workloads - 1, 0) / s.sxx) AS se,
               -- rounds as a factor: a one-way analysis of variance, which also
               -- sees a level that fell and came back (a neighbour for a while)
               (SELECT sum(m.n * m.mean_y ^ 2) FROM round_means m
                WHERE m.dbms = s.dbms AND m.side = s.side) AS ss_rounds,
               (SELECT string_agg(to_char((exp(m.mean_y) - 1) * 100, 'FMS990') || '%', ' ' ORDER BY m.round)
                FROM round_means m WHERE m.dbms = s.dbms AND m.side = s.side) AS levels,
               (SELECT max(abs(exp(m.mean_y) - 1)) FROM round_means m
                WHERE m.dbms = s.dbms AND m.side = s.side) AS largest
        FROM slopes s JOIN centred c ON c.dbms = s.dbms AND c.side = s.side
        WHERE s.slope IS NOT NULL
        GROUP BY s.dbms, s.side, s.label, s.slope, s.sxx, s.syy, s.n, s.workloads, s.rounds
    ), trend_tests AS (
        SELECT t.*,
               CASE WHEN t.se > 0 AND t.n - t.workloads - 1 >= 1
                    THEN 2 * (1 - microbench.t_cdf(abs(t.slope) / t.se, t.n - t.workloads - 1)) END AS p_trend,
               -- F = (SS_rounds / (R - 1)) / (SS_rest / (N - W - R + 1)), its upper tail by the incomplete beta
               CASE WHEN t.rounds >= 3 AND t.n - t.workloads - t.rounds + 1 >= 1 AND t.syy - t.ss_rounds > 0
                    THEN microbench.beta_inc((t.n - t.workloads - t.rounds + 1) / 2.0, (t.rounds - 1) / 2.0,
                                             (t.syy - t.ss_rounds) / t.syy) END AS p_rounds
        FROM trend_fit t
    ), trend_found AS (
        SELECT t.dbms, 'trend'::text,
               CASE WHEN t.p_trend < 0.01 AND abs(exp(t.slope * (t.rounds - 1)) - 1) >= threshold THEN
                   format('%s: the QPS of %s %s from round to round (%s%% per round over %s rounds, %s workloads, p = %s): the machine or the data changed while it ran',
                          microbench.dbms_short(t.dbms), t.label, CASE WHEN t.slope < 0 THEN 'falls' ELSE 'rises' END,
                          to_char((exp(t.slope) - 1) * 100, 'FMS990.0'), t.rounds, t.workloads, to_char(t.p_trend, 'FM0.0000'))
               ELSE
                   format('%s: the QPS of %s changed from round to round (each round against the mean: %s; %s workloads, p = %s): the machine or the data changed while it ran, and the intervals are wider for it',
                          microbench.dbms_short(t.dbms), t.label, t.levels, t.workloads, to_char(t.p_rounds, 'FM0.0000'))
               END
        FROM trend_tests t
        WHERE (t.p_trend < 0.01 AND abs(exp(t.slope * (t.rounds - 1)) - 1) >= threshold)
           OR (t.p_rounds < 0.01 AND t.largest >= threshold)
    )
    SELECT * FROM trend_found
$$;

-- compare_warnings()' finding that the two sides read data in a
-- different state: the median of a fingerprint figure of the runs'
-- data_state differs by more than state_threshold.
CREATE OR REPLACE FUNCTION microbench.data_state_warnings(base text, other text, phase text,
                                                          base_driver text, other_driver text,
                                                          base_name text, other_name text, state_threshold double precision)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH runs AS (
        SELECT * FROM microbench.warning_runs(base, other, data_state_warnings.phase, base_driver, other_driver)
    ), names AS (
        SELECT data_state_warnings.base_name, data_state_warnings.other_name
    ), states AS (
        -- the median of each fingerprint figure per side and workload
        SELECT r.col AS dbms, r.workload, f.key,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY f.value::double precision) FILTER (WHERE r.side = 'base') AS b,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY f.value::double precision) FILTER (WHERE r.side = 'other') AS o,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY coalesce((r.data_state->>'live_rows')::double precision,
                                                                   (r.data_state->>'rows')::double precision)) AS rows
        FROM runs r, jsonb_each_text(r.data_state) f
        WHERE jsonb_typeof(r.data_state -> f.key) = 'number'
        GROUP BY r.col, r.workload, f.key
    ), state_diffs AS (
        SELECT s.*,
               CASE WHEN s.key IN ('dead_rows', 'history_length') THEN abs(s.o - s.b) / greatest(s.rows, 1)
                    WHEN s.key = 'all_visible' THEN abs(s.o - s.b)
                    ELSE abs(s.o - s.b) / greatest(s.b, 1) END AS diff
        FROM states s
        WHERE s.b IS NOT NULL AND s.o IS NOT NULL
    ), state_found AS (
        SELECT d.dbms, 'data-state'::text,
               format('%s: the two labels read data in a different state in %s workload(s), e.g. %s; reload the same data before each label''s runs (microbench compare does)',
                      microbench.dbms_short(d.dbms), count(DISTINCT d.workload),
                      (array_agg(format('%s: %s %s for %s, %s for %s', d.workload, d.key, round(d.b::numeric, 2)::float8, n.base_name,
                                        round(d.o::numeric, 2)::float8, n.other_name) ORDER BY d.diff DESC))[1])
        FROM state_diffs d, names n
        WHERE d.diff > state_threshold
        GROUP BY d.dbms
    )
    SELECT * FROM state_found
$$;

-- compare_warnings()' findings about pairs of runs (comparison_pairs):
-- runs that shared their CPUs with a busy neighbour, and pairs set aside
-- as disturbed or as strayed.
CREATE OR REPLACE FUNCTION microbench.pair_warnings(base text, other text, phase text,
                                                    base_driver text, other_driver text,
                                                    base_name text, other_name text, max_wait_difference double precision)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH runs AS (
        SELECT * FROM microbench.warning_runs(base, other, pair_warnings.phase, base_driver, other_driver)
    ), names AS (
        SELECT pair_warnings.base_name, pair_warnings.other_name
    ), pairs AS MATERIALIZED (
        -- (the busy, disturbed and strayed findings read the same pairs)
        SELECT * FROM microbench.comparison_pairs(base, other, 'qps', pair_warnings.phase, base_driver,
                                                  other_driver, max_wait_difference)
    ), busy_kept AS (
        -- busy runs whose pairs stayed in: their cell had too few quiet ones
        SELECT DISTINCT unnest(p.base_run_ids || p.other_run_ids) AS run_id
        FROM pairs p
        WHERE NOT p.set_aside AND greatest(p.base_busy, p.other_busy) > 0.2
    ), busy_found AS (
        -- the runs that shared their CPUs with a busy neighbour, and what it took
        SELECT r.col, 'busy'::text,
               format('%s: %s run(s) shared their CPUs with a busy neighbour (others took more than a fifth of a CPU), their pairs set aside unless marked kept (a cell with fewer than three quiet pairs keeps its busy ones): %s',
                      microbench.dbms_short(r.col), count(*),
                      string_agg(format('%s round %s %s %s%%%s%s', r.workload, coalesce(r.round::text, '?'), r.name,
                                        round((r.busy_share * 100)::numeric),
                                        coalesce(' (' || substring(r.busy_note FROM 'busiest: ([^,]*)') || ')', ''),
                                        CASE WHEN k.run_id IS NOT NULL THEN ' kept' ELSE '' END),
                                 ', ' ORDER BY r.started_at))
        FROM runs r
        LEFT JOIN busy_kept k ON k.run_id = r.run_id
        WHERE r.busy_share > 0.2
        GROUP BY r.col
    ), disturbed AS (
        SELECT p.*, row_number() OVER (PARTITION BY p.dbms
                                       ORDER BY abs(p.other_wait - p.base_wait - p.usual_wait_difference) DESC) AS worst
        FROM pairs p
        WHERE p.set_aside AND NOT p.strayed AND NOT coalesce(greatest(p.base_busy, p.other_busy) > 0.2, false)
    ), strayed_found AS (
        SELECT p.dbms, 'strayed'::text,
               format('%s: %s pair(s) set aside, their ratio more than five typical deviations from the cell''s other pairs (the host stalled one run and not the other; no CPU count inside the machine shows it): %s',
                      microbench.dbms_short(p.dbms), count(*),
                      string_agg(format('%s %s %s (%s)', p.workload, CASE WHEN p.by_round THEN 'round' ELSE 'pair' END,
                                        p.pair, round(exp(p.d)::numeric, 2)), ', ' ORDER BY p.workload, p.pair))
        FROM pairs p
        WHERE p.strayed
        GROUP BY p.dbms
    ), disturbed_found AS (
        SELECT d.dbms, 'disturbed'::text,
               format('%s: %s pair(s) set aside, their two runs having waited for a CPU for shares of their time unlike the cell''s other pairs (something else took the CPU from one of them): %s%s',
                      microbench.dbms_short(d.dbms), count(*),
                      string_agg(format('%s %s %s (%s %s%%, %s %s%%; usually %s points apart)', d.workload,
                                        CASE WHEN d.by_round THEN 'round' ELSE 'pair' END, d.pair,
                                        n.base_name, round((d.base_wait * 100)::numeric), n.other_name,
                                        round((d.other_wait * 100)::numeric),
                                        round((d.usual_wait_difference * 100)::numeric)), ', ' ORDER BY d.worst)
                          FILTER (WHERE d.worst <= 5),
                      CASE WHEN count(*) > 5 THEN ', ...' ELSE '' END)
        FROM disturbed d, names n
        GROUP BY d.dbms
    )
    SELECT * FROM busy_found UNION ALL SELECT * FROM disturbed_found UNION ALL SELECT * FROM strayed_found
$$;

-- What can make the ratios of a comparison wrong although each run was
-- measured right, one line per finding and report column (dbms: the
-- column as compare() has it, postgres-wire for the wire's runs when no
-- driver was chosen, so that each path's machine is judged on its own):
--   host-speed  the host-speed canary (or steal time) differed between the
--               labels' runs: the machine was not the same for both;
--   trend       a label's QPS moved round after round in one direction,
--               over all its workloads (pooled regression of log QPS on the
--               round, each workload centred on its own mean);
--   data-state  the two labels' runs of a workload read data in a
--               different state (sizes, dead rows, visibility, undo
--               history beyond state_threshold);
--   busy        runs that shared their CPUs with a busy neighbour (the
--               runner's busy_share over a fifth of a CPU), every one
--               named with the share and the busiest other process; their
--               pairs are set aside, except where a cell has fewer than
--               three quiet pairs (those marked kept);
--   disturbed   pairs set aside because their two runs' CPU waits differ
--               by more than max_wait_difference from how the cell's pairs
--               usually differ (comparison_pairs), the worst five named.
--   strayed     pairs set aside because their log-ratio lies more than
--               five typical deviations from the cell's other pairs'
--               (comparison_pairs), each named with its ratio.
-- A finding needs p < 0.01 and a size of at least the threshold, so that
-- warnings are rare when nothing is wrong.  The sides and their drivers are
-- those of compare(), and the messages name a side by label and driver
-- when a driver was chosen ("gcc over pgsql").  Each kind of finding is a
-- function of its own, above; this one puts their findings in order.
CREATE OR REPLACE FUNCTION microbench.compare_warnings(base text, other text, phase text DEFAULT 'post',
                                                       threshold double precision DEFAULT 0.02,
                                                       state_threshold double precision DEFAULT 0.10,
                                                       driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL,
                                                       max_wait_difference double precision DEFAULT 0.1)
RETURNS TABLE (dbms text, kind text, message text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH sides AS (
        SELECT coalesce(compare_warnings.base_driver, compare_warnings.driver) AS base_driver,
               coalesce(compare_warnings.other_driver, compare_warnings.driver) AS other_driver
    ), names AS (
        SELECT s.*, microbench.side_name(base, s.base_driver) AS base_name,
               microbench.side_name(other, s.other_driver) AS other_name
        FROM sides s
    )
    SELECT f.* FROM names n, LATERAL (
        SELECT * FROM microbench.host_speed_warnings(base, other, compare_warnings.phase, n.base_driver,
                                                     n.other_driver, n.base_name, n.other_name, threshold)
        UNION ALL
        SELECT * FROM microbench.trend_warnings(base, other, compare_warnings.phase, n.base_driver,
                                                n.other_driver, n.base_name, n.other_name, threshold)
        UNION ALL
        SELECT * FROM microbench.data_state_warnings(base, other, compare_warnings.phase, n.base_driver,
                                                     n.other_driver, n.base_name, n.other_name, state_threshold)
        UNION ALL
        SELECT * FROM microbench.pair_warnings(base, other, compare_warnings.phase, n.base_driver,
                                               n.other_driver, n.base_name, n.other_name, max_wait_difference)
    ) f
    ORDER BY microbench.dbms_order(f.dbms), f.kind, f.message
$$;

COMMENT ON FUNCTION microbench.compare_warnings(text, text, text, double precision, double precision, text, text, text,
                                                double precision) IS
    'what may make the ratios of compare(base, other) wrong: the machine''s speed or steal time differed between the labels, a label''s QPS trended over rounds, the two sides read data in a different state, or pairs of runs were set aside as disturbed';

