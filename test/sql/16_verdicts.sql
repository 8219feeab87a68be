-- 16_verdicts.sql — the verdicts of compare() on synthetic runs with known
-- answers: the distributions against tables, the moderated variance's
-- prior, the pairing (drift both builds see cancels), server starts as a
-- level, each of the three verdicts, the adjusted interval agreeing with
-- the mark, disturbed pairs set aside, one run a side, the threshold, the
-- rounds an undecided cell needs, the report's marks and legend, the
-- warnings, counted runs (estimated cycles, three seeds to decide, a report without timed
-- warnings or the runner's event counts), the steady rate as a run's QPS,
-- the robust prior (a disturbed cell's spread lent to none), runs that
-- shared their CPUs with a busy neighbour, a pair a host stall split, and
-- the trimmed mean of ten pairs or more.  Every random draw is seeded.
-- (test/pg/calibration.t checks the error rates by simulation.)
BEGIN;
SELECT plan(74);

CREATE FUNCTION pg_temp.run(dbms text, label text, workload text, qps float8, rnd integer DEFAULT NULL,
                            instance text DEFAULT NULL, wait float8 DEFAULT NULL,
                            per_second float8[] DEFAULT NULL, at timestamptz DEFAULT now(),
                            canary float8 DEFAULT NULL, state jsonb DEFAULT NULL) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, qps_per_second, canary_before_us,
                                 canary_after_us, data_state, round, instance, cpu_run_seconds,
                                 cpu_wait_seconds)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0,
            coalesce(at, now()) + coalesce(rnd, 0) * interval '1 minute',
            coalesce(at, now()) + coalesce(rnd, 0) * interval '1 minute', 1,
            1, 1, qps, qps, per_second, canary, canary, state, rnd, instance,
            CASE WHEN wait IS NOT NULL THEN 1 - wait END, wait)
$$;

-- a normal draw (Box-Muller) from the seeded random()
CREATE FUNCTION pg_temp.gauss() RETURNS float8 LANGUAGE sql VOLATILE AS $$
    SELECT sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())
$$;

-- ---- the distributions ---------------------------------------------------
SELECT ok(abs(microbench.t_quantile(0.975, 1) - 12.7062) < 1e-3
          AND abs(microbench.t_quantile(0.975, 2) - 4.3027) < 1e-3
          AND abs(microbench.t_quantile(0.975, 10) - 2.2281) < 1e-3
          AND abs(microbench.t_quantile(0.995, 30) - 2.7500) < 1e-3
          AND abs(microbench.t_quantile(0.025, 5) + 2.5706) < 1e-3,
          't quantiles match the tables (df 1, 2, 10, 30, and a lower tail)');
SELECT ok(abs(microbench.t_cdf(2, 1) - (0.5 + atan(2) / pi())) < 1e-9
          AND abs(microbench.t_cdf(-1.5, 2.5) + microbench.t_cdf(1.5, 2.5) - 1) < 1e-12
          AND abs(microbench.t_cdf(microbench.t_quantile(0.9, 3.7), 3.7) - 0.9) < 1e-9,
          't cdf: the closed form at df 1, symmetry, and the inverse of the quantile at a fractional df');
SELECT ok(abs(microbench.normal_cdf(1.959964) - 0.975) < 1e-6 AND abs(microbench.normal_cdf(0)) - 0.5 < 1e-7,
          'normal cdf at 1.96 and 0');
SELECT ok(abs(microbench.digamma(1) + 0.5772156649) < 1e-9
          AND abs(microbench.digamma(0.5) + 1.9635100260) < 1e-9
          AND abs(microbench.digamma(10) - 2.2517525891) < 1e-9,
          'digamma at 1 (minus Euler''s constant), 1/2 and 10');
SELECT ok(abs(microbench.trigamma(1) - pi() ^ 2 / 6) < 1e-9
          AND abs(microbench.trigamma(0.5) - pi() ^ 2 / 2) < 1e-9
          AND abs(microbench.trigamma_inverse(microbench.trigamma(3.7)) - 3.7) < 1e-9,
          'trigamma at 1 and 1/2 (pi^2/6, pi^2/2), and its inverse');

-- ---- the prior of the moderated variances ----------------------------------
-- 200 cells whose variances are one variance (4) seen through 2 degrees of
-- freedom each: the fit pools them (large prior df) around 4
SELECT setseed(0.05);
SELECT ok(prior_df > 10 AND abs(prior_var / 4 - 1) < 0.2,
          format('one variance seen through noise: pooled (prior df %s, variance %s, truly 4)',
                 round(prior_df::numeric, 1), round(prior_var::numeric, 2)))
FROM microbench.variance_prior((SELECT array_agg(4 * (pg_temp.gauss() ^ 2 + pg_temp.gauss() ^ 2) / 2)
                                FROM generate_series(1, 200)),
                               array_fill(2::float8, ARRAY[200]));
-- variances spread over a factor of 10000: little pooling
SELECT ok(prior_df < 5, format('variances 10000 times apart: barely pooled (prior df %s)', round(prior_df::numeric, 2)))
FROM microbench.variance_prior((SELECT array_agg(10 ^ (4 * random()) * (pg_temp.gauss() ^ 2 + pg_temp.gauss() ^ 2) / 2)
                                FROM generate_series(1, 200)),
                               array_fill(2::float8, ARRAY[200]));
SELECT is((SELECT prior_df FROM microbench.variance_prior(ARRAY[1.0, 2.0]::float8[], ARRAY[2.0, 2.0]::float8[])), 0::float8,
          'fewer than three cells: no prior');

-- ---- pairs: what slows both builds in a round cancels ------------------------
-- five rounds, the machine 20% faster or slower from round to round, the
-- builds alike within 0.3%: the pairs see the builds, not the machine
SELECT setseed(0.12);
SELECT pg_temp.run('postgres', side, 'point-query', 5000 * (1 + 0.2 * sin(r)) * exp(0.003 * pg_temp.gauss()), r)
FROM generate_series(1, 5) r, unnest(ARRAY['drift-a', 'drift-b']) side;
SELECT ok(verdict = 'equivalent' AND ci_low > 0.98 AND ci_high < 1.02 AND method = 'pairs' AND pairs = 5,
          format('a machine drifting 20%% from round to round, builds alike: paired, the same within 2%% [%s, %s]',
                 round(ci_low::numeric, 4), round(ci_high::numeric, 4)))
FROM microbench.compare('drift-a', 'drift-b') WHERE workload = 'point-query';
-- the same runs without their rounds pair up by time
UPDATE microbench.runs SET round = NULL WHERE label IN ('drift-a', 'drift-b');
SELECT is((SELECT verdict || ' ' || pairs FROM microbench.compare('drift-a', 'drift-b') WHERE workload = 'point-query'),
          'equivalent 5', '... and so do the same runs without rounds, paired in the order they ran');

-- ---- the three verdicts ---------------------------------------------------------
-- one comparison of three cells: a 10x change, the same build, and a 3%
-- change in 15% noise
SELECT setseed(0.21);
SELECT pg_temp.run('postgres', side, w, q * CASE WHEN side = 'v-b' AND w = 'delete' THEN 10
                                                 WHEN side = 'v-b' AND w = 'scan' THEN 1.03 ELSE 1 END
                                        * exp(CASE WHEN w = 'scan' THEN 0.15 ELSE 0.002 END * pg_temp.gauss()), r)
FROM generate_series(1, 4) r, unnest(ARRAY['v-a', 'v-b']) side,
     (VALUES ('delete', 3000), ('point-query', 200000), ('scan', 30)) AS x(w, q);
SELECT is((SELECT string_agg(workload || ' ' || verdict, ', ' ORDER BY workload) FROM microbench.compare('v-a', 'v-b')
           WHERE ratio IS NOT NULL),
          'delete difference, point-query equivalent, scan inconclusive',
          'three cells, three verdicts: a 10x change, the same build, a small change in large noise');
SELECT ok(significant AND NOT equivalent AND ci_low > 9 AND ci_high < 11,
          'the difference: significant, its interval around 10')
FROM microbench.compare('v-a', 'v-b') WHERE workload = 'delete';
SELECT ok(equivalent AND NOT significant AND ci_low > 1 / 1.02 AND ci_high < 1.02,
          'the same: its whole interval inside 1/1.02 .. 1.02')
FROM microbench.compare('v-a', 'v-b') WHERE workload = 'point-query';
SELECT ok(NOT significant AND NOT equivalent AND rounds_needed > 0 AND ci_low < 1 AND ci_high > 1.02,
          format('not decided: the interval takes in 1 and goes past 2%%; about %s more rounds', rounds_needed))
FROM microbench.compare('v-a', 'v-b') WHERE workload = 'scan';

-- ---- the interval agrees with the mark, on a report of 64 mixed cells ---------------
SELECT setseed(0.31);
CREATE TEMP TABLE truth AS
SELECT d, w.name AS workload, CASE WHEN random() < 0.3 THEN 1.1 WHEN random() < 0.3 THEN 1.01 ELSE 1 END AS change,
       0.005 + 0.05 * random() AS noise
FROM unnest(ARRAY['postgres', 'mariadb']) d, microbench.workloads w;
SELECT count(pg_temp.run(t.d, side, t.workload,
                         5000 * CASE WHEN side = 'mix-b' THEN t.change ELSE 1 END * exp(t.noise * pg_temp.gauss()), r))
FROM truth t, generate_series(1, 5) r, unnest(ARRAY['mix-a', 'mix-b']) side;
SELECT is((SELECT count(*) FROM microbench.compare('mix-a', 'mix-b') c
           WHERE CASE c.verdict
                     WHEN 'difference' THEN (c.ci_low > 1 OR c.ci_high < 1) AND abs(c.ratio - 1) >= 0.02
                     WHEN 'equivalent' THEN c.ci_low > 1 / 1.02 - 1e-12 AND c.ci_high < 1.02 + 1e-12
                     ELSE NOT ((c.ci_low > 1 OR c.ci_high < 1) AND abs(c.ratio - 1) >= 0.02)
                          AND NOT (c.ci_low > 1 / 1.02 AND c.ci_high < 1.02) END),
          64::bigint,
          '64 mixed cells: every interval says what its verdict says (a difference excludes 1, the same lies inside 2%, an undecided one neither)');
SELECT ok((SELECT count(DISTINCT level) FROM microbench.compare('mix-a', 'mix-b')) BETWEEN 1 AND 3
          AND (SELECT min(level) FROM microbench.compare('mix-a', 'mix-b')) >= 0.95,
          'the intervals are at the adjusted levels of the comparison, none below 95%');
SELECT is((SELECT count(*) FROM microbench.compare('mix-a', 'mix-b') c JOIN truth t ON t.d = c.dbms AND t.workload = c.workload
           WHERE c.verdict = 'equivalent' AND t.change = 1.1),
          0::bigint, 'no cell with a 10% change is called the same');
-- the differences' false share is what Benjamini-Hochberg bounds (5%): with
-- about twenty real ones, one or two false ones are within it
SELECT ok(f.false_ones <= 2 AND f.differences >= 15,
          format('%s differences, %s of them where there is none (the adjustment bounds their share, not their number)',
                 f.differences, f.false_ones))
FROM (SELECT count(*) FILTER (WHERE c.verdict = 'difference') AS differences,
             count(*) FILTER (WHERE c.verdict = 'difference' AND t.change = 1) AS false_ones
      FROM microbench.compare('mix-a', 'mix-b') c JOIN truth t ON t.d = c.dbms AND t.workload = c.workload) f;

-- ---- server starts ----------------------------------------------------------------
-- six pairs on two pairs of starts, the second start pair 5% apart: two
-- units, not six
SELECT setseed(0.41);
SELECT pg_temp.run('postgres', side, 'point-query',
                   5000 * CASE WHEN side = 'st-b' AND r > 3 THEN 1.05 ELSE 1 END * exp(0.002 * pg_temp.gauss()), r,
                   side || ' start ' || CASE WHEN r <= 3 THEN 1 ELSE 2 END)
FROM generate_series(1, 6) r, unnest(ARRAY['st-a', 'st-b']) side;
SELECT is((SELECT method || ', ' || basis FROM microbench.compare('st-a', 'st-b') WHERE workload = 'point-query'),
          'starts, 2 pairs of server starts (6 pairs)',
          'pairs on shared server starts: one unit per pair of starts');
SELECT ok(NOT significant AND NOT equivalent,
          'two start pairs 5% apart: not a difference and not the same (the starts disagree)')
FROM microbench.compare('st-a', 'st-b') WHERE workload = 'point-query';
-- every pair on one start of each build: the luck of that start is assumed
SELECT pg_temp.run('postgres', side, 'point-query', 5000 * exp(0.001 * pg_temp.gauss()), r, side || ' start 1')
FROM generate_series(1, 6) r, unnest(ARRAY['one-a', 'one-b']) side;
SELECT ok(method = 'one start' AND basis LIKE '%all on one start of each build (a start-to-start spread of 1% assumed)%'
          AND ci_high / ci_low > 1.04,
          format('all pairs on one start of each build: a 1%% start spread is added (interval %s .. %s)',
                 round(ci_low::numeric, 3), round(ci_high::numeric, 3)))
FROM microbench.compare('one-a', 'one-b') WHERE workload = 'point-query';
SELECT ok(verdict = 'equivalent', 'the same runs with start_spread => 0: the same within 2%')
FROM microbench.compare('one-a', 'one-b', start_spread => 0) WHERE workload = 'point-query';

-- ---- disturbed pairs --------------------------------------------------------------
-- round 3 of the other build ran with its CPU half taken (wait 50%) and
-- half the QPS: set aside, named, and the cell still the same
SELECT setseed(0.51);
SELECT pg_temp.run('postgres', side, 'point-query',
                   5000 * CASE WHEN side = 'hog-b' AND r = 3 THEN 0.5 ELSE 1 END * exp(0.002 * pg_temp.gauss()), r,
                   NULL, CASE WHEN side = 'hog-b' AND r = 3 THEN 0.5 ELSE 0.01 END)
FROM generate_series(1, 6) r, unnest(ARRAY['hog-a', 'hog-b']) side;
SELECT is((SELECT verdict || ', ' || pairs || ' pairs, ' || set_aside || ' set aside'
           FROM microbench.compare('hog-a', 'hog-b') WHERE workload = 'point-query'),
          'equivalent, 5 pairs, 1 set aside', 'a pair whose runs saw very different CPU waits is set aside');
SELECT matches((SELECT message FROM microbench.compare_warnings('hog-a', 'hog-b') WHERE kind = 'disturbed'),
               '^pg: 1 pair\(s\) set aside, .*: point-query round 3 \(hog-a 1%, hog-b 50%; usually 0 points apart\)$',
               '... and named in a warning with the two runs'' wait shares');
SELECT is((SELECT verdict FROM microbench.compare('hog-a', 'hog-b', max_wait_difference => 1) WHERE workload = 'point-query'),
          'inconclusive', 'kept in, the disturbed pair leaves the cell undecided');
-- a build that always waits more (it keeps the CPU busier) is not disturbed:
-- a pair is measured against how the cell's pairs usually differ
SELECT pg_temp.run('postgres', side, 'point-query', 5000 * CASE WHEN side = 'busy-b' THEN 2 ELSE 1 END
                   * exp(0.002 * pg_temp.gauss()), r, NULL, CASE WHEN side = 'busy-b' THEN 0.4 ELSE 0.01 END)
FROM generate_series(1, 4) r, unnest(ARRAY['busy-a', 'busy-b']) side;
SELECT is((SELECT verdict || ', ' || set_aside || ' set aside' FROM microbench.compare('busy-a', 'busy-b')
           WHERE workload = 'point-query'),
          'difference, 0 set aside', 'a build that always waits more for a CPU sets no pair aside');

-- ---- one run a side, with per-second samples --------------------------------
SELECT setseed(0.33);
SELECT pg_temp.run('postgres', 'sec-a', 'point-query', 5000, NULL, NULL, NULL,
                   (SELECT array_agg(5000 * exp(0.02 * pg_temp.gauss())) FROM generate_series(1, 30)));
SELECT pg_temp.run('postgres', 'sec-b', 'point-query', 5400, NULL, NULL, NULL,
                   (SELECT array_agg(5400 * exp(0.02 * pg_temp.gauss())) FROM generate_series(1, 30)));
SELECT ok(method = 'seconds' AND ci_low < 1.08 AND ci_high > 1.08 AND significant,
          'one run a side with 30 one-second samples: an interval from the samples, covering 1.08')
FROM microbench.compare('sec-a', 'sec-b') WHERE workload = 'point-query';
-- neighbouring seconds that move together carry less information: the same
-- samples, sorted (a slow drift inside the run), give a wider interval
SELECT pg_temp.run('postgres', 'sdrift-a', 'point-query', 5000, NULL, NULL, NULL,
                   (SELECT array_agg(x ORDER BY x) FROM (SELECT 5000 * exp(0.02 * pg_temp.gauss()) x
                                                         FROM generate_series(1, 30)) s));
SELECT pg_temp.run('postgres', 'sdrift-b', 'point-query', 5000, NULL, NULL, NULL,
                   (SELECT array_agg(x ORDER BY x) FROM (SELECT 5000 * exp(0.02 * pg_temp.gauss()) x
                                                         FROM generate_series(1, 30)) s));
SELECT pg_temp.run('postgres', 'white-a', 'point-query', 5000, NULL, NULL, NULL,
                   (SELECT array_agg(x ORDER BY md5(x::text)) FROM microbench.runs, unnest(qps_per_second) x WHERE label = 'sdrift-a'));
SELECT pg_temp.run('postgres', 'white-b', 'point-query', 5000, NULL, NULL, NULL,
                   (SELECT array_agg(x ORDER BY md5(x::text)) FROM microbench.runs, unnest(qps_per_second) x WHERE label = 'sdrift-b'));
SELECT ok((SELECT ci_high / ci_low FROM microbench.compare('sdrift-a', 'sdrift-b') WHERE workload = 'point-query')
          > 2 * (SELECT ci_high / ci_low - 1 FROM microbench.compare('white-a', 'white-b') WHERE workload = 'point-query') + 1,
          'autocorrelated seconds: the interval is much wider than for the same samples in random order');

-- ---- the threshold ---------------------------------------------------------------
SELECT count(pg_temp.run('postgres', 'thr-a', 'point-query', 5000 * (1 + 0.0001 * g), g)) FROM generate_series(1, 10) g;
SELECT count(pg_temp.run('postgres', 'thr-b', 'point-query', 5075 * (1 + 0.0001 * g), g)) FROM generate_series(1, 10) g;
SELECT ok(ci_low > 1 AND verdict = 'equivalent',
          'a 1.5% change known very precisely (interval excludes 1) is within the 2% threshold: the same')
FROM microbench.compare('thr-a', 'thr-b') WHERE workload = 'point-query';
SELECT ok(verdict = 'difference', 'with threshold => 0.01 the same change is a difference')
FROM microbench.compare('thr-a', 'thr-b', threshold => 0.01) WHERE workload = 'point-query';
-- a change just under the threshold, known to about 0.05%: not decided
-- yet, and a few more rounds would show it the same
SELECT setseed(0.5);
SELECT count(pg_temp.run('postgres', side, 'point-query', 5000 * CASE WHEN side = 'at-b' THEN 1.0199 ELSE 1 END
                                                              * (1 + 0.001 * (random() - 0.5)), r))
FROM generate_series(1, 4) r, unnest(ARRAY['at-a', 'at-b']) side;
SELECT ok(verdict = 'inconclusive' AND ci_high > 1.02 AND rounds_needed BETWEEN 2 AND 50,
          format('a change of 1.99%% with threshold 2%%: undecided [%s, %s], about %s more rounds to show it the same',
                 round(ci_low::numeric, 4), round(ci_high::numeric, 4), rounds_needed))
FROM microbench.compare('at-a', 'at-b') WHERE workload = 'point-query';

-- ---- too few runs --------------------------------------------------------------
SELECT pg_temp.run('postgres', 'few-a', 'point-query', 5000);
SELECT pg_temp.run('postgres', 'few-b', 'point-query', 10000);
SELECT ok(ci_low IS NULL AND p_value IS NULL AND method IS NULL AND verdict = 'inconclusive' AND abs(ratio - 2) < 1e-9,
          'one run a side and no samples: no interval, undecided, even for a 2x ratio')
FROM microbench.compare('few-a', 'few-b') WHERE workload = 'point-query';
SELECT matches(bench_report('few-a', 'few-b'), E'\n2\\.00\\?   point-query\n', 'its cell is marked ?');

-- ---- many A/A reports, each of 64 cells ------------------------------------------
-- (test/pg/calibration.t measures the rate with the machine's noise)
CREATE TEMP TABLE aa_reports (seed int, false_cells bigint);
DO $$
DECLARE
    s int;
BEGIN
    FOR s IN 1 .. 20 LOOP
        PERFORM setseed(s / 100.0);
        DELETE FROM microbench.runs WHERE label IN ('aa-x', 'aa-y');
        PERFORM pg_temp.run(d, l, w.name, 5000 * exp(0.03 * pg_temp.gauss()), r)
        FROM unnest(ARRAY['postgres', 'mariadb']) d, unnest(ARRAY['aa-x', 'aa-y']) l,
             microbench.workloads w, generate_series(1, 3) r;
        INSERT INTO aa_reports
        SELECT s, count(*) FILTER (WHERE verdict = 'difference') FROM microbench.compare('aa-x', 'aa-y');
    END LOOP;
END $$;
SELECT cmp_ok((SELECT count(*) FROM aa_reports WHERE false_cells > 0), '<=', 2::bigint,
              '20 A/A reports of 64 cells, 3 rounds: at most 2 show any difference');

-- ---- the report's layout ---------------------------------------------------------
SELECT matches(bench_report('v-a', 'v-b'), E'\n10\\.[0-9]{2}   delete\n', 'text: a difference is the ratio alone');
SELECT matches(bench_report('v-a', 'v-b'), E'\n1\\.00=   point-query\n', '... the same within the threshold carries "="');
SELECT matches(bench_report('v-a', 'v-b'), E'\n[01]\\.[0-9]{2}\\?   scan\n', '... and an undecided cell "?"');
SELECT matches(bench_report('v-a', 'v-b'),
               E'\n-- 1\\.04: a difference: the interval excludes 1 and the change is at least 2% \\(1\\.020 or more, 0\\.980 or less\\)\n-- 1\\.00=: the same within ±2%: the whole interval lies inside 0\\.980 \\.\\. 1\\.020\n-- 0\\.97\\?: not decided by these runs',
               'the legend gives the three verdicts, a line each');
SELECT matches(bench_report('v-a', 'v-b', 'markdown'),
               E'\\| [01]\\.[0-9]{2}\\? \\[[01]\\.[0-9]{2}, [0-9]+\\.[0-9]{2}\\] \\((~[0-9]+ more rounds?|more than 100 more rounds)\\) \\| scan \\|',
               'markdown: an undecided cell carries its interval and about how many more rounds it needs');
SELECT matches(bench_report('v-a', 'v-b', 'csv'),
               E'^group,workload,pg,pg_ci_low,pg_ci_high,pg_significant,pg_verdict,pg_rounds_needed\n(.*\n)*writes,delete,[0-9.]+,[0-9.]+,[0-9.]+,true,difference,$',
               'CSV: ratio, interval, significance, verdict and rounds needed per DBMS');
SELECT matches(bench_report('mix-a', 'mix-b'), E'\n-- pg: Postgres, ma: MariaDB\n',
               'the legend names the columns in their order');
SELECT matches(bench_relative('v-a', ARRAY['v-b', 'pg18-gcc-O3-lto'], 'text'),
               E'\nv-b              pg18-gcc-O3-lto\n',
               'bench_relative: columns as wide as their labels, none run together');
SELECT throws_ok($$SELECT bench_report('v-a', 'v-b', confidence => 1.5)$$, '22023', NULL,
                 'a confidence outside (0, 1) is refused');

-- ---- warnings -------------------------------------------------------------------------
SELECT is((SELECT count(*) FROM microbench.compare_warnings('v-a', 'v-b')), 0::bigint,
          'no canary, trend, state or wait figures differ: no warning');
-- the machine slower for one label: canary 1000 us against 1300 us, all workloads
SELECT setseed(0.44);
SELECT count(pg_temp.run('postgres', l, w.name, 5000 * exp(0.03 * pg_temp.gauss()), NULL, NULL, NULL, NULL, now(),
                         CASE l WHEN 'slow-a' THEN 1000 ELSE 1300 END * exp(0.05 * pg_temp.gauss())))
FROM unnest(ARRAY['slow-a', 'slow-b']) l, microbench.workloads w WHERE w.grp = 'point queries';
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('slow-a', 'slow-b') WHERE kind = 'host-speed'),
               '^pg: the machine ran at a different speed for the two labels: .* \((29|30|31)% slower for slow-b',
               'a 30% slower canary for one label: a host-speed warning');
SELECT matches(bench_report('slow-a', 'slow-b'), E'\n-- warning: pg: the machine ran at a different speed',
               'the report prints it');
-- QPS falling 5% per round for one label, all workloads, 4 rounds
SELECT count(pg_temp.run('postgres', l, w.name,
                         5000 * CASE WHEN l = 'trend-b' THEN 0.95 ^ r ELSE 1 END * exp(0.005 * pg_temp.gauss()), r))
FROM unnest(ARRAY['trend-a', 'trend-b']) l, microbench.workloads w, generate_series(0, 3) r;
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('trend-a', 'trend-b') WHERE kind = 'trend'),
               '^pg: the QPS of trend-b falls from round to round \(-5\.0% per round over 4 rounds, 32 workloads',
               'QPS falling round after round: a trend warning naming the label');
-- the two sides read different data: dead rows after a write workload
SELECT pg_temp.run('postgres', l, 'range-covered-pk', 5000, r, NULL, NULL, NULL, now(), NULL,
                   jsonb_build_object('table_bytes', 4440064, 'index_bytes', 884736, 'live_rows', 20000,
                                      'dead_rows', CASE l WHEN 'state-a' THEN 0 ELSE 6000 END, 'all_visible', 1.0))
FROM unnest(ARRAY['state-a', 'state-b']) l, generate_series(1, 2) r;
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('state-a', 'state-b') WHERE kind = 'data-state'),
               '^pg: the two labels read data in a different state in 1 workload\(s\), e.g. range-covered-pk: dead_rows 0 for state-a, 6000 for state-b',
               'dead rows in one side''s table: a data-state warning naming the workload and the figure');

-- ---- counted runs: estimated cycles, no time in them -----------------------
-- b runs 2% fewer estimated cycles a query than a, to the last digit in
-- every round; its QPS (valgrind's) would say the opposite
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients, rand_type,
                             seconds, warmup, started_at, ended_at, elapsed_seconds, events, queries, qps,
                             tps, event_limit, round, instance, instructions, instructions_counter,
                             estimated_cycles, i1_misses, d1_misses, ll_misses, seed)
SELECT 'postgres', '1', l.label, 'point-query', 'post', 1, 1000, 1, 'uniform', 1, 0, now() + g * interval '1 minute',
       now() + g * interval '1 minute', 1, 1000, 1000, l.qps, l.qps, 4000, g, l.label || g,
       30000000, 'cachegrind 3.19.0', l.cycles, 1000, 300, 2, g
FROM (VALUES ('count-a', 50000000, 900), ('count-b', 49000000, 1000)) AS l(label, cycles, qps),
     generate_series(1, 3) g;
SELECT is(format('%s %s %s', microbench.metric_value(r, 'qps'), microbench.metric_value(r, 'estimated_cycles') * 49000000,
                 microbench.metric_value(r, 'll_misses_per_query')),
          ' 1000 0.002', 'a counted run: no QPS, queries per estimated cycle, LL misses per query')
FROM microbench.runs r WHERE r.label = 'count-b' AND r.round = 1;
SELECT is(format('%s %s', round(c.ratio::numeric, 4), c.verdict), '1.0204 difference',
          'estimated cycles: the cell is cycles(a) / cycles(b), above 1 as b runs fewer, a difference')
FROM microbench.compare('count-a', 'count-b', 'estimated_cycles', threshold => 0.005) c;
SELECT ok(r ~ 'cells: estimated_cycles\(count-a\) / estimated_cycles\(count-b\)'
          AND r ~ 'metric: estimated cycles per query' AND r !~ 'run options' AND r !~ 'warning',
          'the report of estimated cycles says what its cells are, and has no timed warnings or runner''s event counts')
FROM microbench.bench_report('count-a', 'count-b', metric => 'estimated_cycles', threshold => 0.005) r;
-- MariaDB's runs counted by callgrind beside Postgres's by cachegrind: one
-- report, each DBMS's cells on its own counter; two counters in one DBMS's
-- runs are refused
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients, rand_type,
                             seconds, warmup, started_at, ended_at, elapsed_seconds, events, queries, qps,
                             tps, event_limit, round, instance, instructions, instructions_counter, seed)
SELECT 'mariadb', '10.11', l.label, 'point-query', 'post', 1, 1000, 1, 'uniform', 1, 0, now() + g * interval '1 minute',
       now() + g * interval '1 minute', 1, 1000, 1000, 10, 10, 4000, g, l.label || 'm' || g,
       l.instructions, 'callgrind 3.19.0', g
FROM (VALUES ('count-a', 45000000), ('count-b', 43000000)) AS l(label, instructions),
     generate_series(1, 3) g;
SELECT is((SELECT string_agg(format('%s %s %s', dbms, round(ratio::numeric, 3), verdict), ', ' ORDER BY dbms)
           FROM microbench.compare('count-a', 'count-b', 'instructions', threshold => 0.005)),
          'mariadb 1.047 difference, postgres 1.000 equivalent',
          'Postgres counted by cachegrind and MariaDB by callgrind compare in one report');
UPDATE microbench.runs SET instructions_counter = 'callgrind 3.19.0'
WHERE dbms = 'postgres' AND label = 'count-b' AND round = 3;
SELECT throws_ok($$SELECT * FROM microbench.compare('count-a', 'count-b', 'instructions')$$, '22023',
                 'the runs of labels "count-a" and "count-b" counted the instructions of one DBMS with more than one counter: postgres (cachegrind 3.19.0, callgrind 3.19.0)',
                 '... but two counters in one DBMS''s runs are refused, naming them');
UPDATE microbench.runs SET instructions_counter = 'cachegrind 3.19.0'
WHERE dbms = 'postgres' AND label = 'count-b' AND round = 3;
-- a count is decided on three seeds: the same three rounds replaying one
-- seed agree to the instruction, and say nothing of the keys a run draws
UPDATE microbench.runs SET seed = 1 WHERE label IN ('count-a', 'count-b') AND dbms = 'mariadb';
SELECT is(format('%s | %s', c.verdict, c.basis), 'inconclusive | counted on 1 seed(s): a count is decided on three or more',
          'three rounds of one seed: not decided, and the basis says why')
FROM microbench.compare('count-a', 'count-b', 'instructions', threshold => 0.005) c WHERE c.dbms = 'mariadb';
UPDATE microbench.runs SET seed = round WHERE label IN ('count-a', 'count-b') AND dbms = 'mariadb';

-- ---- the steady rate, the robust prior, busy neighbours --------------------
-- a run's QPS in a comparison is its steady rate; qps_mean its mean
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients, rand_type,
                             seconds, warmup, started_at, ended_at, elapsed_seconds, events, queries, qps, tps,
                             qps_steady, steady_set_aside, round)
SELECT 'postgres', '1', l, 'point-query', 'post', 1, 1000, 1, 'uniform', 1, 0, now() + g * interval '1 minute',
       now() + g * interval '1 minute', 1, 1, 1,
       -- b's mean carries a disturbed second in round 2; its steady rate does not
       CASE WHEN l = 'steady-b' AND g = 2 THEN 4000 ELSE 5000 END * (1 + 0.001 * g), 1,
       5000 * (1 + 0.001 * g), CASE WHEN l = 'steady-b' AND g = 2 THEN 0.2 ELSE 0 END, g
FROM unnest(ARRAY['steady-a', 'steady-b']) l, generate_series(1, 4) g;
SELECT is(format('%s %s', microbench.metric_value(r, 'qps'), microbench.metric_value(r, 'qps_mean')), '5010 4008',
          'a run''s QPS is its steady rate, qps_mean its mean as sysbench reports it')
FROM microbench.runs r WHERE r.label = 'steady-b' AND r.round = 2;
SELECT is((SELECT verdict FROM microbench.compare('steady-a', 'steady-b') WHERE workload = 'point-query'), 'equivalent',
          'a disturbed second moves the mean, not the steady rate: the cell is the same');
SELECT is((SELECT verdict FROM microbench.compare('steady-a', 'steady-b', 'qps_mean') WHERE workload = 'point-query'),
          'inconclusive', '... which the means could not tell');

-- five read cells of one group, pairs within 0.5%; one of them disturbed
-- (pairs 20% apart): it keeps its own spread and lends it to none
SELECT setseed(0.71);
SELECT count(pg_temp.run('postgres', side, w,
                         5000 * exp(CASE WHEN w = 'points-covered-si' THEN 0.2 ELSE 0.005 END * pg_temp.gauss()), r))
FROM unnest(ARRAY['hot-points', 'point-query', 'points-covered-pk', 'points-covered-si',
                  'points-notcovered-pk']) w,
     generate_series(1, 4) r, unnest(ARRAY['rob-a', 'rob-b']) side;
SELECT is((SELECT cardinality(outliers) FROM microbench.variance_prior_robust(ARRAY[1, 1.2, 0.8, 1.1, 400]::float8[],
                                                                                array_fill(3::float8, ARRAY[5]),
                                                                                ARRAY['a', 'b', 'c', 'd', 'e'])),
          1, 'the robust prior: a variance 400 times its fellows'' is an outlier');
SELECT is((SELECT string_agg(workload || ' ' || verdict, ', ' ORDER BY workload)
           FROM microbench.compare('rob-a', 'rob-b', threshold => 0.05)),
          'hot-points equivalent, point-query equivalent, points-covered-pk equivalent, points-covered-si inconclusive, points-notcovered-pk equivalent',
          'the disturbed cell stays undecided; the tight cells decide on their own spread');
SELECT matches((SELECT basis FROM microbench.compare('rob-a', 'rob-b', threshold => 0.05) WHERE workload = 'points-covered-si'),
               'its own spread \(far wider than that of the other cells of point queries\)',
               'the report says the disturbed cell kept its own spread');

-- busy_cell(prefix, rounds, slowed): a point-query A/A of the given
-- rounds whose round 2 of side b met a busy neighbour (48% of a CPU,
-- cc1 45%) that slowed it by the factor slowed
CREATE FUNCTION pg_temp.busy_cell(prefix text, rounds integer, slowed float8) RETURNS void
LANGUAGE sql AS $$
    SELECT pg_temp.run('postgres', prefix || side, 'point-query',
                       5000 * CASE WHEN side = '-b' AND r = 2 THEN slowed ELSE 1 END
                            * exp(0.002 * pg_temp.gauss()), r)
    FROM generate_series(1, rounds) r, unnest(ARRAY['-a', '-b']) side;
    UPDATE microbench.runs SET busy_share = CASE WHEN label = prefix || '-b' AND round = 2 THEN 0.48 ELSE 0.01 END,
                               busy_note = 'others took 48% of the servers'' CPU(s) 0; busiest: cc1 45%'
    WHERE label IN (prefix || '-a', prefix || '-b');
$$;

-- a run the runner found sharing its CPUs with a busy neighbour: set aside, named
SELECT setseed(0.81);
SELECT pg_temp.busy_cell('nb', 5, 0.7);
SELECT is((SELECT verdict || ', ' || set_aside || ' set aside' FROM microbench.compare('nb-a', 'nb-b')
           WHERE workload = 'point-query'),
          'equivalent, 1 set aside', 'a pair with a busy run is set aside and the cell decides on the rest');
SELECT matches((SELECT message FROM microbench.compare_warnings('nb-a', 'nb-b') WHERE kind = 'busy'),
               '^pg: 1 run\(s\) shared their CPUs with a busy neighbour \(.*\), their pairs set aside unless marked kept \(.*\): point-query round 2 nb-b 48% \(cc1 45%\)$',
               '... and named in a warning with what took the CPU');

-- a busy pair in a cell with fewer than three quiet pairs is kept (on a
-- machine busy throughout nothing else is left), and the warning says so
SELECT setseed(0.82);
SELECT pg_temp.busy_cell('kb', 3, 1);
SELECT is((SELECT c.pairs || ' pairs, ' || c.set_aside || ' set aside; warning: '
                  || substring(w.message FROM 'point-query round 2 kb-b 48% \(cc1 45%\)( kept)?$')
           FROM microbench.compare('kb-a', 'kb-b') c, microbench.compare_warnings('kb-a', 'kb-b') w
           WHERE c.workload = 'point-query' AND w.kind = 'busy'),
          '3 pairs, 0 set aside; warning:  kept',
          'a busy pair is kept where its cell has fewer than three quiet pairs, and marked kept in the warning');

-- a host stall that split one pair (round 3 of b at 55% speed) in one of
-- five read cells whose pairs agree within about 1%: the pair strays far
-- beyond what pairs typically do, is set aside and named, and the cell
-- decides on its other four
SELECT setseed(0.83);
SELECT count(pg_temp.run('postgres', side, w,
                         5000 * CASE WHEN side = 'hs-b' AND w = 'point-query' AND r = 3 THEN 0.55 ELSE 1 END
                              * exp(0.007 * pg_temp.gauss()), r))
FROM unnest(ARRAY['hot-points', 'point-query', 'points-covered-pk', 'points-covered-si',
                  'points-notcovered-pk']) w,
     generate_series(1, 5) r, unnest(ARRAY['hs-a', 'hs-b']) side;
SELECT is((SELECT string_agg(workload || ' ' || pair, ', ') FROM microbench.comparison_pairs('hs-a', 'hs-b') WHERE strayed),
          'point-query 3', 'a pair a host stall split is the one that strays');
SELECT is((SELECT verdict || ', ' || set_aside || ' set aside' FROM microbench.compare('hs-a', 'hs-b', threshold => 0.05)
           WHERE workload = 'point-query'),
          'equivalent, 1 set aside', '... it is set aside and the cell decides on the rest');
SELECT is((SELECT message FROM microbench.compare_warnings('hs-a', 'hs-b') WHERE kind = 'strayed'),
          'pg: 1 pair(s) set aside, their ratio more than five typical deviations from the cell''s other pairs (the host stalled one run and not the other; no CPU count inside the machine shows it): point-query round 3 (0.55)',
          '... and named in a warning with its ratio');
-- the t test runs at most once a pair, not once for every pair the query
-- joins it to: a plan that did so called it 470,000 times for a 355-pair
-- demo, made comparison_pairs 90 times slower (15 s a call) and ran CI
-- out of time
SET LOCAL track_functions = 'all';
CREATE TEMP TABLE t_cdf_before AS
SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_xact_user_functions WHERE funcid = 'microbench.t_cdf'::regproc;
SELECT count(*) FROM microbench.comparison_pairs('hs-a', 'hs-b');
SELECT cmp_ok((SELECT coalesce(sum(calls), 0) FROM pg_stat_xact_user_functions WHERE funcid = 'microbench.t_cdf'::regproc)
              - (SELECT calls FROM t_cdf_before), '<=', 25::numeric,
          '... the t test ran at most once for each of the 25 pairs');
-- the same cells without the stall: normal spread strays nowhere
UPDATE microbench.runs SET qps = qps / 0.55 WHERE label = 'hs-b' AND workload = 'point-query' AND round = 3;
SELECT is((SELECT count(*) FROM microbench.comparison_pairs('hs-a', 'hs-b') WHERE strayed), 0::bigint,
          'pairs of normal spread: none strays');

-- two rounds the host slowed for one build by 18-20%, among eight whose
-- pairs agree within 2%: each hides the other from the stray rule (with
-- both in, the cell's spread is wide enough for either), but the cell's
-- centre is the 20% trimmed mean of its ten pairs, the two slow rounds and
-- the two highest left out, so they move neither the ratio nor the
-- interval
SELECT count(pg_temp.run('postgres', side, 'point-query',
                         5000 * CASE WHEN side = 'tr-b' THEN x.ratio ELSE 1 END, x.r))
FROM (VALUES (1, 1.01), (2, 1.02), (3, 0.99), (4, 1.00), (5, 0.80), (6, 1.015), (7, 1.005), (8, 0.82),
             (9, 1.01), (10, 1.00)) AS x(r, ratio),
     unnest(ARRAY['tr-a', 'tr-b']) side;
SELECT is((SELECT round(ratio::numeric, 6) FROM microbench.compare('tr-a', 'tr-b') WHERE workload = 'point-query'),
          round(exp((ln(0.99) + ln(1.00) + ln(1.00) + ln(1.005) + ln(1.01) + ln(1.01)) / 6)::numeric, 6),
          'two slowed rounds among ten: the ratio is the trimmed mean of the six middle pairs');
SELECT ok(verdict = 'equivalent' AND set_aside = 0 AND ci_low > 0.97 AND ci_high < 1.03
          AND basis LIKE '10 pairs, their 20% trimmed mean (the 2 highest and 2 lowest left out)%',
          format('... the same within 5%%, nothing set aside, on %s [%s, %s]', basis,
                 round(ci_low::numeric, 4), round(ci_high::numeric, 4)))
FROM microbench.compare('tr-a', 'tr-b', threshold => 0.05) WHERE workload = 'point-query';
-- six of them, the slowed ones among them: with fewer than ten pairs
-- nothing is trimmed, and the slowed rounds take their whole weight
DELETE FROM microbench.runs WHERE label IN ('tr-a', 'tr-b') AND round IN (4, 7, 9, 10);
SELECT is((SELECT round(ratio::numeric, 6) || ' ' || verdict FROM microbench.compare('tr-a', 'tr-b', threshold => 0.05)
           WHERE workload = 'point-query'),
          round(exp((ln(1.01) + ln(1.02) + ln(0.99) + ln(0.80) + ln(1.015) + ln(0.82)) / 6)::numeric, 6)
              || ' inconclusive',
          '... six pairs: their plain mean, and undecided');
-- the constants that make the trimmed t honest in small samples (their
-- table comes from test/calibration/trimmed_constants.sql)
SELECT is((SELECT format('%s %s', variance_factor, df) FROM microbench.trimmed_mean_constants(10)), '1.066 3.98',
          'trimmed_mean_constants: n = 10 from the table');
SELECT is((SELECT format('%s %s', round(variance_factor::numeric, 4), df) FROM microbench.trimmed_mean_constants(50)),
          '1.0100 23.2', '... n = 50 beyond it: the factor 1 + 0.5/n, df 0.8 (n - 2g - 1)');

-- a cell with one pair: undecided, however far apart it is (one run of a
-- slow moment of the host would decide it), even beside tight fellow
-- cells that lend a prior
SELECT count(pg_temp.run('postgres', side, w,
                         5000 * CASE WHEN side = 'lone-b' AND w = 'scan' THEN 1.25 ELSE 1 END
                         * exp(0.003 * pg_temp.gauss()), r))
FROM unnest(ARRAY['point-query', 'range-covered-pk', 'read-only_range=100', 'scan']) w,
     generate_series(1, 3) r, unnest(ARRAY['lone-a', 'lone-b']) side
WHERE w <> 'scan' OR r = 1;
SELECT is((SELECT verdict || ', ' || pairs || ' pair' FROM microbench.compare('lone-a', 'lone-b', threshold => 0.05)
           WHERE workload = 'scan'),
          'inconclusive, 1 pair', 'a cell with one pair is not decided on the prior of its fellows');

SELECT * FROM finish();
ROLLBACK;
