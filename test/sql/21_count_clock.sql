-- 21_count_clock.sql — count and clock side by side (count_clock(), its
-- text, markdown and SVG reports) on synthetic runs with known answers: a
-- share s and a count ratio r imply 1 / (s / r + 1 - s); cells whose QPS
-- agrees are consistent, cells whose QPS left its count are marked the
-- way it went, with the reason the shares give (cycles per instruction
-- where the user code is nearly all of a query, waiting where the other's
-- share moved); the refusals.  Every random draw is seeded.
BEGIN;
SELECT plan(28);
SELECT setseed(0.21);

-- a timed run: its QPS and the user CPU of its server's threads (clients 1, 1 s)
CREATE FUNCTION pg_temp.timed(dbms text, label text, workload text, qps float8, share float8, rnd integer)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, round, cpu_user_seconds, cpu_system_seconds,
                                 driver)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', 1, 0,
            now() + rnd * interval '1 minute', now() + rnd * interval '1 minute', 1,
            1, 1, qps, qps, rnd, share, 0.01, CASE dbms WHEN 'postgres' THEN 'extension' ELSE 'mysql' END)
$$;

-- a counted run: instructions per query, as a CPU counts them, on seed rnd
CREATE FUNCTION pg_temp.counted(dbms text, label text, workload text, per_query float8, rnd integer)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients,
                                 rand_type, seed, seconds, warmup, started_at, ended_at, elapsed_seconds,
                                 events, queries, qps, tps, round, instructions, instructions_counter,
                                 estimated_cycles, driver)
    VALUES (dbms, '1', label, workload, 'post', 1, 1000, 1, 'uniform', rnd, 0, 0,
            now() + rnd * interval '1 minute', now() + rnd * interval '1 minute', 1,
            1000, 1000, 1, 1, rnd, round(per_query * 1000), 'callgrind 3.19.0, REP once',
            round(per_query * 2000), CASE dbms WHEN 'postgres' THEN 'extension' ELSE 'mysql' END)
$$;

-- a cell: base and other over five rounds, each figure within ±0.3%
CREATE FUNCTION pg_temp.cell(dbms text, workload text, base_ipq float8, other_ipq float8,
                             base_qps float8, other_qps float8, base_share float8, other_share float8)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    FOR rnd IN 1 .. 5 LOOP
        PERFORM pg_temp.counted(dbms, 'base', workload, base_ipq * (1 + (random() - 0.5) * 0.002), rnd);
        PERFORM pg_temp.counted(dbms, 'other', workload, other_ipq * (1 + (random() - 0.5) * 0.002), rnd);
        PERFORM pg_temp.timed(dbms, 'base', workload, base_qps * (1 + (random() - 0.5) * 0.006),
                              base_share * (1 + (random() - 0.5) * 0.006), rnd);
        PERFORM pg_temp.timed(dbms, 'other', workload, other_qps * (1 + (random() - 0.5) * 0.006),
                              other_share * (1 + (random() - 0.5) * 0.006), rnd);
    END LOOP;
END
$$;

-- the same code, the same QPS: an A/A
SELECT pg_temp.cell('postgres', 'point-query', 1000, 1000, 10000, 10000, 0.97, 0.97);
-- 10% fewer instructions in a query that is all user code, but 20% more QPS: the CPU ran them faster
SELECT pg_temp.cell('postgres', 'range-covered-pk', 1000, 900, 10000, 12000, 0.97, 0.97);
-- 7% fewer instructions in a third of a query's time: 2% more QPS, as implied
SELECT pg_temp.cell('mariadb', 'point-query', 1070, 1000, 10000, 10200, 0.30, 0.31);
-- the same instructions, ten times the QPS: the other waits far less (its share rose from 5% to 50%)
SELECT pg_temp.cell('postgres', 'update-index', 1000, 1000, 1000, 10000, 0.05, 0.50);
-- the same instructions, QPS 20% lower with the code all of a query: slower per instruction
SELECT pg_temp.cell('postgres', 'scan', 1000, 1000, 10000, 8000, 0.98, 0.98);

CREATE TEMP TABLE cc AS SELECT * FROM microbench.count_clock('base', 'other');

-- ---- the model ----------------------------------------------------------------
SELECT is(round(microbench.implied_ratio(1.07, 0.3)::numeric, 4), 1.0200,
          'implied_ratio: a 1.07 count over a third of a query is 2% of QPS: 1 / (0.3 / 1.07 + 0.7)');
SELECT is(round(microbench.implied_ratio(1.10, 1)::numeric, 4), 1.1000, 'implied_ratio: s = 1 passes the count through');
SELECT is(microbench.implied_ratio(1.5, 0), 1::float8, 'implied_ratio: s = 0: a count says nothing of QPS');
SELECT is((SELECT count(*) FROM cc), 5::bigint, 'a row for every cell with counted and timed runs of both labels');
SELECT ok((SELECT bool_and(implied_low <= implied AND implied <= implied_high
                           AND share_low <= share AND share <= share_high
                           AND measured_low <= measured AND measured <= measured_high) FROM cc),
          'every figure lies inside its own interval');
SELECT ok((SELECT abs(share - 0.30) < 0.005 AND abs(other_share - 0.31) < 0.005 FROM cc
           WHERE dbms = 'mariadb'), 's: user CPU over clients x the window, for the base and the other');
SELECT ok((SELECT abs(implied - microbench.implied_ratio(counted, share)) < 1e-12 FROM cc
           WHERE dbms = 'mariadb'), 'the implied ratio is the model''s on the cell''s count and share');

-- ---- the marks ----------------------------------------------------------------
SELECT is((SELECT mark || ' ' || consistent FROM cc WHERE workload = 'point-query' AND dbms = 'postgres'),
          '= true', 'A/A: consistent');
SELECT ok((SELECT abs(implied - 1) < 0.005 FROM cc WHERE workload = 'point-query' AND dbms = 'postgres'),
          'A/A: implied 1.00');
SELECT is((SELECT mark FROM cc WHERE dbms = 'mariadb'), '=', 'a 1.07 count over 30% of the time and 1.02 QPS: consistent');
SELECT is((SELECT mark FROM cc WHERE workload = 'range-covered-pk'), '>', '1.11 count, 1.20 QPS: faster than its instructions');
SELECT is((SELECT reason FROM cc WHERE workload = 'range-covered-pk'),
          'faster than its instructions: fewer cycles per instruction (the user code is 97% and 97% of a query''s time: no waiting to lose)',
          '... and with the user code nearly all of a query, fewer cycles per instruction');
SELECT is((SELECT mark || ' ' || reason FROM cc WHERE workload = 'update-index'),
          '> faster than its instructions: less waiting (the user code went from 5% to 50% of a query''s time, 5% expected)',
          'the same count, 10x QPS, the share up tenfold: less waiting');
SELECT is((SELECT mark || ' ' || reason FROM cc WHERE workload = 'scan'),
          '< slower than its instructions: more cycles per instruction (the user code is 98% and 98% of a query''s time: no waiting to gain)',
          'the same count, QPS 20% lower: slower than its instructions');
SELECT is((SELECT consistent FROM cc WHERE workload = 'scan'), false, 'not consistent is false, not NULL');

-- ---- the reports ----------------------------------------------------------------
CREATE TEMP TABLE rep AS
SELECT microbench.count_clock_report('base', ARRAY['other'], 'text') AS t,
       microbench.count_clock_report('base', ARRAY['other'], 'markdown') AS m,
       microbench.count_clock_report('base', ARRAY['other'], 'svg') AS s;
SELECT matches((SELECT t FROM rep), E'\n1\\.00   0\\.97  1\\.00    1\\.00=   [^\n]*point-query\n',
               'text: the seed''s layout, count s implies qps and the mark, the workload last');
SELECT matches((SELECT t FROM rep), E'-- consistent: pg 1 of 4, ma 1 of 1\n',
               'text: how many cells agree per column');
SELECT matches((SELECT t FROM rep), E'-- pg update-index: implies 1\\.00 \\[[0-9.]+, [0-9.]+\\], measured (9\\.9[0-9]|10\\.0[0-9]) \\[[0-9.]+, [0-9.]+\\]: faster than its instructions: less waiting',
               'text: a line for each cell that does not agree, with its intervals and reason');
-- how the cells lean together: measured over implied, the geometric mean
-- per column, figured here from count_clock()'s own rows
SELECT is(substring((SELECT t FROM rep) from E'\n-- measured / implied, geometric mean: pg ([0-9.]+) \\(\\d of 4 cells below 1\\), ma'),
          (SELECT to_char(exp(avg(ln(measured / implied))), 'FM990.00')
           FROM microbench.count_clock('base', 'other') WHERE dbms = 'postgres'),
          'text: how each column''s cells lean together, measured over implied');
SELECT is(substring((SELECT m FROM rep) from 'The cells together, measured / implied, geometric mean: pg [0-9.]+ \((\d) of 4 cells below 1\)'),
          (SELECT count(*)::text FROM microbench.count_clock('base', 'other')
           WHERE dbms = 'postgres' AND measured < implied),
          'markdown: how many of a column''s cells measured below what their count implies');
SELECT matches((SELECT t FROM rep), 'from estimated cycles',
               'text: estimated cycles too, where the counted runs have them');
SELECT is((SELECT count(*) FROM regexp_matches((SELECT m FROM rep), E'\n\\| (pg|ma) \\| ', 'g')), 10::bigint,
          'markdown: a row per cell, for instructions and for estimated cycles');
SELECT is((SELECT count(*) FROM regexp_matches((SELECT s FROM rep), '<circle class="cell"', 'g')), 10::bigint,
          'svg: a point per cell in each of the two panels');
SELECT is((SELECT count(*) FROM regexp_matches((SELECT s FROM rep), 'class="diagonal"', 'g')), 2::bigint,
          'svg: the diagonal drawn in each panel');
-- the names of cells that disagree: two that would overlap, the lower
-- point's moves down a line, with a thin line back to its point; two
-- far apart across stay beside their points
SELECT ok(array_to_string(microbench.cc_labels(ARRAY[100, 100], ARRAY[50, 52], ARRAY['a', 'b']), ' ')
          ~ '<line [^>]*/> <text x="106\.0" y="56\.0"[^>]*>b</text>$',
          'svg: of two names that would overlap, the lower moves down a line, a line back to its point');
SELECT ok(array_to_string(microbench.cc_labels(ARRAY[100, 400], ARRAY[50, 51], ARRAY['a', 'c']), ' ')
          ~ '^<text x="106\.0" y="45\.0"[^>]*>a</text> <text x="406\.0" y="46\.0"[^>]*>c</text>$',
          'svg: names far apart across stay beside their points');
SELECT throws_ok($$SELECT * FROM microbench.count_clock('base', 'other', count_metric => 'qps')$$, '22023', NULL,
                 'count_metric must be a count');
SELECT throws_ok($$SELECT microbench.count_clock_report('base', ARRAY['other'], 'csv')$$, '22023', NULL,
                 'a format it does not write: refused');

SELECT * FROM finish();
ROLLBACK;
