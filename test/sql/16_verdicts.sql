-- 16_verdicts.sql — when compare() calls a ratio a difference, on synthetic
-- runs with known answers: the t and normal distributions against tables,
-- Welch's p-value and interval at a constructed boundary, A/A noise that
-- must not be called a difference, a real 10% shift that must, one run per
-- side with per-second samples, the threshold, too few runs, the
-- adjustment for many cells, the report's marks and intervals, and the
-- drift and data-state warnings.  Every random draw is seeded.
BEGIN;
SELECT plan(34);

CREATE FUNCTION pg_temp.run(dbms text, label text, workload text, qps float8,
                            per_second float8[] DEFAULT NULL, at timestamptz DEFAULT now(),
                            canary float8 DEFAULT NULL, state jsonb DEFAULT NULL) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, qps_per_second, canary_before_us,
                                 canary_after_us, data_state)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0, at, at, 1,
            1, 1, qps, qps, per_second, canary, canary, state)
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

-- ---- Welch at a constructed boundary ------------------------------------
-- log values {-a, 0, a} against {d - a, d, d + a}: equal variances a^2, so
-- Welch's df is 4 and t = d / (a sqrt(2/3)); with t = t(0.975, 4) the
-- two-sided p is exactly 0.05 and the 95% interval starts exactly at 1.
SELECT pg_temp.run('postgres', 'wb', 'point-query', exp(x))
FROM unnest(ARRAY[-0.01, 0, 0.01]) x;
SELECT pg_temp.run('postgres', 'wo', 'point-query', exp(x + 0.01 * sqrt(2.0 / 3) * 2.7764451))
FROM unnest(ARRAY[-0.01, 0, 0.01]) x;
SELECT ok(abs(p_value - 0.05) < 1e-5, 'Welch p-value: 0.05 at t = t(0.975, 4)')
FROM microbench.compare('wb', 'wo') WHERE workload = 'point-query';
SELECT ok(abs(ci_low - 1) < 1e-6 AND ci_high > 1.03 AND method = 'runs',
          'the 95% interval of the ratio starts at 1 exactly there, from the runs')
FROM microbench.compare('wb', 'wo') WHERE workload = 'point-query';

-- ---- A/A: the same distribution under two labels --------------------------
SELECT setseed(0.11);
SELECT count(pg_temp.run(d, l, w.name, 5000 * exp(0.03 * pg_temp.gauss())))
FROM unnest(ARRAY['postgres', 'mariadb']) d, unnest(ARRAY['aa-1', 'aa-2']) l,
     microbench.workloads w, generate_series(1, 5);
SELECT is((SELECT count(*) FROM microbench.compare('aa-1', 'aa-2') WHERE significant), 0::bigint,
          'A/A, 64 cells of 5 runs with 3% noise: nothing is significant');
SELECT is((SELECT count(*) FROM microbench.compare('aa-1', 'aa-2')
           WHERE ci_low <= ratio AND ci_high >= ratio AND ci_low > 0.85 AND ci_high < 1.15), 64::bigint,
          'A/A: every cell has an interval around its ratio, inside 0.85 to 1.15');
SELECT ok(bench_report('aa-1', 'aa-2') !~ E'\\m[0-9]+\\.[0-9]{2}\\M(?!~)',
          'A/A report: every cell is marked ~');

-- many A/A reports, each of 64 cells: at most a few may show anything
-- (the adjustment keeps the chance of any false cell per report near 5%)
CREATE TEMP TABLE aa_reports (seed int, false_cells bigint);
DO $$
DECLARE
    s int;
BEGIN
    FOR s IN 1 .. 20 LOOP
        PERFORM setseed(s / 100.0);
        DELETE FROM microbench.runs WHERE label IN ('aa-x', 'aa-y');
        PERFORM pg_temp.run(d, l, w.name, 5000 * exp(0.03 * pg_temp.gauss()))
        FROM unnest(ARRAY['postgres', 'mariadb']) d, unnest(ARRAY['aa-x', 'aa-y']) l,
             microbench.workloads w, generate_series(1, 3);
        INSERT INTO aa_reports
        SELECT s, count(*) FILTER (WHERE significant) FROM microbench.compare('aa-x', 'aa-y');
    END LOOP;
END $$;
SELECT cmp_ok((SELECT count(*) FROM aa_reports WHERE false_cells > 0), '<=', 2::bigint,
              '20 A/A reports with 3 runs a side: at most 2 show any significant cell');

-- ---- a real 10% shift with low noise -----------------------------------------
SELECT setseed(0.22);
SELECT count(pg_temp.run('postgres', 'shift-a', 'point-query', 5000 * exp(0.01 * pg_temp.gauss())))
FROM generate_series(1, 4);
SELECT count(pg_temp.run('postgres', 'shift-b', 'point-query', 5500 * exp(0.01 * pg_temp.gauss())))
FROM generate_series(1, 4);
SELECT ok(significant AND ci_low <= 1.10 AND ci_high >= 1.10 AND ci_low > 1.05 AND p_value < 0.001,
          'a 10% shift with 1% noise, 4 runs a side: significant, and the interval covers 1.10')
FROM microbench.compare('shift-a', 'shift-b') WHERE workload = 'point-query';
SELECT matches(bench_report('shift-a', 'shift-b'), E'\n1\\.[01][0-9]    point-query\n',
               'the report shows it without ~');

-- ---- one run per side, with per-second samples --------------------------------
SELECT setseed(0.33);
SELECT pg_temp.run('postgres', 'sec-a', 'point-query', 5000,
                   (SELECT array_agg(5000 * exp(0.02 * pg_temp.gauss())) FROM generate_series(1, 30)));
SELECT pg_temp.run('postgres', 'sec-b', 'point-query', 5400,
                   (SELECT array_agg(5400 * exp(0.02 * pg_temp.gauss())) FROM generate_series(1, 30)));
SELECT ok(method = 'seconds' AND ci_low < 1.08 AND ci_high > 1.08 AND significant,
          'one run a side with 30 one-second samples: an interval from the samples, covering 1.08')
FROM microbench.compare('sec-a', 'sec-b') WHERE workload = 'point-query';

-- neighbouring seconds that move together carry less information: the same
-- samples, sorted (a slow drift inside the run), give a wider interval
SELECT pg_temp.run('postgres', 'drift-a', 'point-query', 5000,
                   (SELECT array_agg(x ORDER BY x) FROM (SELECT 5000 * exp(0.02 * pg_temp.gauss()) x
                                                         FROM generate_series(1, 30)) s));
SELECT pg_temp.run('postgres', 'drift-b', 'point-query', 5000,
                   (SELECT array_agg(x ORDER BY x) FROM (SELECT 5000 * exp(0.02 * pg_temp.gauss()) x
                                                         FROM generate_series(1, 30)) s));
SELECT pg_temp.run('postgres', 'white-a', 'point-query', 5000, (SELECT qps_per_second FROM microbench.runs WHERE label = 'drift-a'));
UPDATE microbench.runs SET qps_per_second = (SELECT array_agg(x ORDER BY md5(x::text)) FROM unnest(qps_per_second) x)
WHERE label = 'white-a';
SELECT pg_temp.run('postgres', 'white-b', 'point-query', 5000, (SELECT qps_per_second FROM microbench.runs WHERE label = 'drift-b'));
UPDATE microbench.runs SET qps_per_second = (SELECT array_agg(x ORDER BY md5(x::text)) FROM unnest(qps_per_second) x)
WHERE label = 'white-b';
SELECT ok((SELECT ci_high / ci_low FROM microbench.compare('drift-a', 'drift-b') WHERE workload = 'point-query')
          > 2 * (SELECT ci_high / ci_low - 1 FROM microbench.compare('white-a', 'white-b') WHERE workload = 'point-query') + 1,
          'autocorrelated seconds: the interval is much wider than for the same samples in random order');

-- ---- the threshold ---------------------------------------------------------------
SELECT count(pg_temp.run('postgres', 'thr-a', 'point-query', 5000 * (1 + 0.0001 * g))) FROM generate_series(1, 10) g;
SELECT count(pg_temp.run('postgres', 'thr-b', 'point-query', 5075 * (1 + 0.0001 * g))) FROM generate_series(1, 10) g;
SELECT ok(ci_low > 1 AND NOT significant,
          'a 1.5% change known very precisely (interval excludes 1) is under the 2% threshold: not significant')
FROM microbench.compare('thr-a', 'thr-b') WHERE workload = 'point-query';
SELECT ok(significant, 'with threshold => 0.01 the same change is significant')
FROM microbench.compare('thr-a', 'thr-b', threshold => 0.01) WHERE workload = 'point-query';

-- ---- too few runs --------------------------------------------------------------
SELECT pg_temp.run('postgres', 'one-a', 'point-query', 5000);
SELECT pg_temp.run('postgres', 'one-b', 'point-query', 10000);
SELECT ok(ci_low IS NULL AND p_value IS NULL AND method IS NULL AND NOT significant AND within_noise,
          'one run a side and no samples: no interval, not significant, even for a 2x ratio')
FROM microbench.compare('one-a', 'one-b') WHERE workload = 'point-query';
SELECT matches(bench_report('one-a', 'one-b'), E'\n2\\.00~   point-query\n', 'its cell is marked ~');
SELECT pg_temp.run('postgres', 'two-a', 'point-query', q) FROM unnest(ARRAY[5000, 5100]) q;
SELECT pg_temp.run('postgres', 'two-b', 'point-query', q) FROM unnest(ARRAY[10000, 10300]) q;
SELECT ok(significant AND ci_low > 1.5 AND ci_high < 2.8,
          'two runs a side, no samples: an interval from the two runs (one degree of freedom), a 2x ratio still clear')
FROM microbench.compare('two-a', 'two-b') WHERE workload = 'point-query';

-- ---- many cells at once ---------------------------------------------------------
SELECT ok(q_value >= p_value AND (SELECT count(*) FROM microbench.compare('aa-1', 'aa-2') WHERE q_value < p_value) = 0,
          'the adjusted p-value is never below the raw one')
FROM microbench.compare('shift-a', 'shift-b') WHERE workload = 'point-query';

-- ---- the report's layout ---------------------------------------------------------
SELECT matches(bench_report('shift-a', 'shift-b', 'markdown'),
               E'\\| 1\\.[01][0-9] \\[1\\.[01][0-9], 1\\.[01][0-9]\\] \\| point-query \\|',
               'markdown: the cell carries its interval');
SELECT matches(bench_report('shift-a', 'shift-b', 'csv'),
               E'^group,workload,pg,pg_ci_low,pg_ci_high,pg_significant\n.*\npoint queries,point-query,1\\.[01][0-9],1\\.[01][0-9]{3},1\\.[01][0-9]{3},true\n',
               'CSV: ratio, interval and the verdict per DBMS');
SELECT matches(bench_report('shift-a', 'shift-b'), E'\n-- pg: Postgres\n-- cells: ',
               'the text report says what its columns mean');
SELECT matches(bench_report('aa-1', 'aa-2'), E'\n-- pg: Postgres, ma: MariaDB\n',
               'in the order of the columns');
SELECT matches(bench_relative('shift-a', ARRAY['shift-b', 'pg18-gcc-O3-lto'], 'text'),
               E'\nshift-b          pg18-gcc-O3-lto\n',
               'bench_relative: columns as wide as their labels, none run together');
SELECT matches(bench_relative('one-a', 'one-b'), E'\n2\\.00~   point-query\n',
               'bench_relative marks cells like bench_report');
SELECT throws_ok($$SELECT bench_report('shift-a', 'shift-b', confidence => 1.5)$$, '22023', NULL,
                 'a confidence outside (0, 1) is refused');

-- ---- warnings -------------------------------------------------------------------------
SELECT is((SELECT count(*) FROM microbench.compare_warnings('shift-a', 'shift-b')), 0::bigint,
          'no canary, trend or state figures differ: no warning');
-- the machine slower for one label: canary 1000 us against 1300 us, all workloads
SELECT setseed(0.44);
SELECT count(pg_temp.run('postgres', l, w.name, 5000 * exp(0.03 * pg_temp.gauss()), NULL, now(),
                         CASE l WHEN 'slow-a' THEN 1000 ELSE 1300 END * exp(0.05 * pg_temp.gauss())))
FROM unnest(ARRAY['slow-a', 'slow-b']) l, microbench.workloads w WHERE w.grp = 'point queries';
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('slow-a', 'slow-b') WHERE kind = 'host-speed'),
               '^pg: the machine ran at a different speed for the two labels: .* \((29|30|31)% slower for slow-b',
               'a 30% slower canary for one label: a host-speed warning');
SELECT matches(bench_report('slow-a', 'slow-b'), E'\n-- warning: pg: the machine ran at a different speed',
               'the report prints it');
-- the same canaries, interleaved: no warning
SELECT count(pg_temp.run('postgres', l, w.name, 5000, NULL, now(), 1000 * exp(0.05 * pg_temp.gauss())))
FROM unnest(ARRAY['same-a', 'same-b']) l, microbench.workloads w WHERE w.grp = 'point queries';
SELECT is((SELECT count(*) FROM microbench.compare_warnings('same-a', 'same-b') WHERE kind = 'host-speed'), 0::bigint,
          'canaries alike: no host-speed warning');
-- QPS falling 5% per round for one label, all workloads, 4 rounds
SELECT count(pg_temp.run('postgres', l, w.name,
                         5000 * CASE WHEN l = 'trend-b' THEN 0.95 ^ r ELSE 1 END * exp(0.005 * pg_temp.gauss()),
                         NULL, now() + r * interval '1 minute'))
FROM unnest(ARRAY['trend-a', 'trend-b']) l, microbench.workloads w, generate_series(0, 3) r;
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('trend-a', 'trend-b') WHERE kind = 'trend'),
               '^pg: the QPS of trend-b falls from round to round \(-5\.0% per round over 4 rounds, 32 workloads',
               'QPS falling round after round: a trend warning naming the label');
-- a slowdown that came and went, for both labels (they took turns): round
-- 2 of 3 is 25% slower; no trend from first to last, but the rounds differ
SELECT count(pg_temp.run('postgres', l, w.name,
                         5000 * CASE WHEN r = 1 THEN 0.75 ELSE 1 END * exp(0.01 * pg_temp.gauss()),
                         NULL, now() + r * interval '1 minute'))
FROM unnest(ARRAY['bump-a', 'bump-b']) l, microbench.workloads w, generate_series(0, 2) r;
SELECT matches((SELECT string_agg(message, E'\n' ORDER BY message) FROM microbench.compare_warnings('bump-a', 'bump-b') WHERE kind = 'trend'),
               '^pg: the QPS of bump-a changed from round to round \(each round against the mean: \+[0-9]+% -[0-9]+% \+[0-9]+%; 32 workloads, p = 0\.0000\).*\npg: the QPS of bump-b changed',
               'a slowdown in round 2 of 3 for both labels: a warning for each, naming the rounds'' levels');
SELECT is((SELECT count(*) FROM microbench.compare('bump-a', 'bump-b') WHERE significant), 0::bigint,
          'and, as both labels saw it, no cell is called a difference');
-- the two sides read different data: dead rows after a write workload
SELECT pg_temp.run('postgres', l, 'range-covered-pk', 5000, NULL, now(), NULL,
                   jsonb_build_object('table_bytes', 4440064, 'index_bytes', 884736, 'live_rows', 20000,
                                      'dead_rows', CASE l WHEN 'state-a' THEN 0 ELSE 6000 END, 'all_visible', 1.0))
FROM unnest(ARRAY['state-a', 'state-b']) l, generate_series(1, 2);
SELECT pg_temp.run('postgres', l, 'point-query', 5000, NULL, now(), NULL,
                   jsonb_build_object('table_bytes', 4440064, 'index_bytes', 884736, 'live_rows', 20000,
                                      'dead_rows', 0, 'all_visible', 1.0))
FROM unnest(ARRAY['state-a', 'state-b']) l;
SELECT matches((SELECT string_agg(message, E'\n') FROM microbench.compare_warnings('state-a', 'state-b') WHERE kind = 'data-state'),
               '^pg: the two labels read data in a different state in 1 workload\(s\), e.g. range-covered-pk: dead_rows 0 for state-a, 6000 for state-b',
               'dead rows in one side''s table: a data-state warning naming the workload and the figure');

SELECT * FROM finish();
ROLLBACK;
