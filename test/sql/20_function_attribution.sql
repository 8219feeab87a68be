-- 20_function_attribution.sql — where a counted cell's difference comes
-- from (results_schema/32_functions.sql), on counted runs whose functions
-- are known: run_functions per query; compare_functions matching the
-- functions of both sides by object and name, seed by seed (a function a
-- run lacks ran nothing there), ranking them by difference, adding their
-- shares up to the cell's difference, and saying which differ: a
-- difference every seed repeats does, one within the seeds' spread or
-- below the floor does not, an A/A has none, one seed cannot tell; the
-- markdown and SVG reports showing them.
BEGIN;
SET client_min_messages = warning;
SELECT plan(22);

-- Counted runs of one cell, 1000 queries each; functions as the runner
-- writes them: [object, function, self, inclusive] in instructions of the
-- window.  seeds: the seeds (rounds) to write; fns(seed): the functions.
CREATE FUNCTION pg_temp.counted(label text, seeds integer[], side text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients, rand_type,
                                 seconds, warmup, started_at, ended_at, elapsed_seconds, events, queries, qps,
                                 tps, event_limit, round, instance, instructions, instructions_counter, seed,
                                 functions)
    SELECT 'postgres', '18', label, 'range-covered-pk', 'post', 1, 1000, 1, 'uniform', 0, 0, now(), now(), 1,
           100, 1000, 0, 0, 100, s, label || s, (SELECT sum((e ->> 2)::bigint) FROM jsonb_array_elements(f) e),
           'callgrind 3.19.0', s, f
    FROM unnest(seeds) AS s,
         LATERAL (SELECT CASE side
             -- the base: no heap fetch (an index-only scan)
             WHEN 'a' THEN jsonb_build_array(
                 jsonb_build_array('postgres', 'scan', 3000000, 9000000),
                 jsonb_build_array('libc.so.6', 'memcmp', 100000, 100000),
                 jsonb_build_array('postgres', 'noisy', 500000, 500000),
                 jsonb_build_array('microbench.so', 'run_event', 200000, 3800000))
             -- the other: a heap fetch the seeds repeat, less scan, two
             -- more memcmp instructions a query (1.5: below the floor, 0.05% of
             -- the cell's 3,800), and a
             -- function whose count moves by seed far more than its mean
             ELSE jsonb_build_array(
                 jsonb_build_array('postgres', 'heap_fetch', 5000000 + 1000 * s, 5200000 + 1000 * s),
                 jsonb_build_array('postgres', 'scan', 1000000 + 10 * s, 7000000 + 1010 * s),
                 jsonb_build_array('libc.so.6', 'memcmp', 101500, 101500),
                 jsonb_build_array('postgres', 'noisy', 500000 + (ARRAY[300000, -290000, 10000])[s], 500000),
                 jsonb_build_array('microbench.so', 'run_event', 200000, 6800000)) END AS f) x
$$;
SELECT pg_temp.counted('fa-base', ARRAY[1, 2, 3], 'a');
SELECT pg_temp.counted('fa-other', ARRAY[1, 2, 3], 'b');
SELECT pg_temp.counted('fa-again', ARRAY[1, 2, 3], 'a');
SELECT pg_temp.counted('fa-one', ARRAY[1], 'b');

SELECT is((SELECT format('%s %s %s', object, self_per_query, inclusive_per_query) FROM microbench.run_functions
           WHERE label = 'fa-other' AND seed = 2 AND function = 'heap_fetch'),
          'postgres 5002 5202', 'run_functions: a run''s function per query of its window, self and inclusive');

CREATE TEMP TABLE ab AS SELECT * FROM microbench.compare_functions('fa-base', 'fa-other', 'range-covered-pk');
SELECT is((SELECT string_agg(function, ' ' ORDER BY rank) FROM ab), 'heap_fetch scan noisy memcmp run_event',
          'the functions of both sides, largest difference first');
SELECT is((SELECT format('%s %s %s %s %s', base_self, other_self, self_difference, base_inclusive, other_inclusive)
           FROM ab WHERE function = 'heap_fetch'),
          '0 5002 5002 0 5202', 'a function only one side ran counts 0 on the other; means over the seeds');
SELECT is((SELECT string_agg(format('%s=%s', function, coalesce(differs::text, 'null')), ' ' ORDER BY rank) FROM ab),
          'heap_fetch=true scan=true noisy=false memcmp=false run_event=false',
          'differ: what every seed repeats; not: a spread far beyond the mean, 1.5 instructions a query (below the floor), none');
SELECT is((SELECT format('%s %s', min(cell_base), round(min(cell_difference)::numeric, 3)) FROM ab),
          '3800 3010.187', 'the cell''s instructions a query and its difference, other less base, as the runs have them');
SELECT is((SELECT round(cumulative_share::numeric, 9) FROM ab WHERE rank = 5), 1.000000000,
          'the self differences add up to the cell''s: the last cumulative share is 1');
SELECT is((SELECT round(share::numeric, 4) FROM ab WHERE function = 'heap_fetch'), round((5002 / 3010.186666666667)::numeric, 4),
          'share: a function''s difference over the cell''s');
SELECT is((SELECT bool_and(harness = (function = 'run_event')) FROM ab), true, 'the extension''s functions are the harness''s');

SELECT is((SELECT count(*) FILTER (WHERE differs) || ' of ' || count(*)
           FROM microbench.compare_functions('fa-base', 'fa-again')),
          '0 of 4', 'an A/A: no function differs');
SELECT is((SELECT count(*) FILTER (WHERE differs IS NULL) || ' ' || min(seeds)
           FROM microbench.compare_functions('fa-base', 'fa-one')),
          '5 1', 'one seed in common: no spread, so differs is NULL');
SELECT is((SELECT count(*) FROM microbench.compare_functions('fa-base', 'fa-other', 'point-query')), 0::bigint,
          'a workload the labels did not count: no rows');

-- the reports
CREATE TEMP TABLE md AS SELECT microbench.bench_report('fa-base', 'fa-other', 'markdown', metric => 'instructions') AS t;
SELECT matches((SELECT t FROM md),
               E'### pg range-covered-pk: 6,810 instructions a query \\(fa-other\\), 3,800 \\(fa-base\\)\n\n'
               || E'\\| function \\| object \\| fa-base \\| fa-other \\| fa-other − fa-base \\| share .*\n'
               || E'\\|---.*\n\\| heap_fetch \\| postgres \\| 0\\.0 \\| 5,002 \\| \\+5,002 \\| 166\\.2% \\| 0\\.0 \\| 5,202 \\|\n',
               'the markdown report: per counted cell the functions, both sides and the difference');
SELECT matches((SELECT t FROM md),
               'the first ten explain \+3,010 \(100\.0%\) of it.*2 of 5 functions differ.*'
               || 'The deepest call carrying half the difference or more: run_event \(the extension\), \+3,000',
               '... how much the first ten explain, how many differ, the deepest call both sides make carrying half');
SELECT matches(microbench.bench_report('fa-base', 'fa-other', 'svg', metric => 'instructions'),
               'class="functions-bar" data-function="heap_fetch" data-difference="5002\.0" data-differs="true"',
               'the SVG draws the functions of the cell');

-- libc's string and memory functions: their share of a cell's difference
SELECT is((SELECT string_agg(microbench.libc_string_function(o, f)::text, ' ' ORDER BY ord)
           FROM unnest(ARRAY['libc.so.6', 'libc.so.6', 'libc.so.6', 'postgres', 'libc.so.6'],
                       ARRAY['__memset_avx2_unaligned_erms', 'memcmp', '__strlen_evex', 'memcmp', 'malloc'])
                WITH ORDINALITY AS x(o, f, ord)),
          'true true true false false', 'libc''s string and memory functions, by object and name');
SELECT is((SELECT format('%s %s %s', dbms, round(libc_difference::numeric, 1),
                         (round(share::numeric, 6) = round((1.5 / 3010.186666666667)::numeric, 6))::text)
           FROM microbench.libc_shares('fa-base', ARRAY['fa-other'], 'post')),
          'postgres 1.5 true', 'libc_shares: memcmp''s 1.5 instructions a query of the cell''s 3,010');
-- a cell whose difference is mostly a memset (as valgrind runs it), with
-- valgrind's own figures beside a CPU's: [.., self, inclusive, self_valgrind, inclusive_valgrind]
INSERT INTO microbench.runs (dbms, version, label, workload, phase, tables, table_size, clients, rand_type,
                             seconds, warmup, started_at, ended_at, elapsed_seconds, events, queries, qps,
                             tps, event_limit, round, instance, instructions, instructions_valgrind,
                             instructions_counter, seed, functions)
SELECT 'postgres', '18', l, 'delete', 'post', 1, 1000, 1, 'uniform', 0, 0, now(), now(), 1,
       100, 1000, 0, 0, 100, s, l || s, 1000000 + m, 1000000 + 8 * m, 'callgrind 3.19.0, REP once', s,
       jsonb_build_array(jsonb_build_array('postgres', 'ExecDelete', 1000000 - 10 * s, 1000000 + m, 1000000 - 10 * s, 1000000 + 8 * m),
                         jsonb_build_array('libc.so.6', '__memset_avx2_unaligned_erms', m + 10 * s, m + 10 * s, 8 * m + 10 * s, 8 * m + 10 * s))
FROM (VALUES ('lc-a', 1000), ('lc-b', 40000)) AS v(l, m), generate_series(1, 3) AS s;
SELECT is((SELECT format('%s %s', self_instructions_valgrind, inclusive_instructions_valgrind) FROM microbench.run_functions
           WHERE label = 'lc-b' AND seed = 1 AND function LIKE '__memset%'),
          '320010 320010', 'run_functions: valgrind''s figures beside a CPU''s');
SELECT is((SELECT format('%s %s', self_instructions_valgrind, self_instructions) FROM microbench.run_functions
           WHERE label = 'fa-base' AND seed = 1 AND function = 'scan'),
          '3000000 3000000', '... and for a run that has valgrind''s alone, those');
SELECT ok(strpos(microbench.bench_report('lc-a', 'lc-b', metric => 'instructions'),
                 E'\n-- libc: pg: libc''s string and memory functions carry over a quarter of the difference of 1 cell(s),'
                 ' and valgrind runs other variants of them than the CPU would (AVX2 where it may run EVEX): delete 100%') > 0,
          'a report names the cells whose difference libc''s string functions carry over a quarter of');
SELECT ok(strpos(microbench.bench_report('lc-a', 'lc-b', 'svg', metric => 'instructions'),
                 '>counted instructions: a REP string instruction once, as a CPU counts it</text>') > 0,
          'the SVG says what an instruction is: a REP string instruction once');
SELECT ok(strpos(microbench.bench_report('fa-base', 'fa-other', metric => 'instructions'),
                 '(callgrind 3.19.0: valgrind''s count, a REP string instruction once per repetition)') > 0,
          'runs counted before say theirs: valgrind''s, each repetition');
SELECT matches(microbench.bench_report('lc-a', 'lc-b', 'markdown', metric => 'instructions'),
               'libc''s string and memory functions carry 100\.0% of the difference: over a quarter, and valgrind runs other variants',
               '... and report.md gives the share under the cell''s functions');

SELECT * FROM finish();
ROLLBACK;
