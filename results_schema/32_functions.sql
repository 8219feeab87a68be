-- 32_functions.sql — where a counted cell's difference comes from: the
-- functions behind it.
--
-- A counted run (microbench compare --metric instructions) keeps, beside
-- its window's instructions, each function's share of them
-- (runs.functions: [object, function, self, inclusive, self_valgrind,
-- inclusive_valgrind]): self, the instructions run in the function itself,
-- which add up to the window's; inclusive, those and the instructions of
-- what it called; both as a CPU counts them (a REP string instruction
-- once) and as valgrind does (each repetition; a run counted before the
-- two were told apart has valgrind's alone, in the first two).  Here they are
-- per query (run_functions), matched by object and name between the two
-- sides of a cell, and compared seed by seed as the cell is
-- (compare_functions): the functions whose per-query instructions differ
-- most, how much of the cell's difference the first ten explain, and
-- whether each differs beyond what the count itself varies by.  The
-- markdown report prints it under a counted table (functions_report).
-- docs/methodology.md says what the attribution can and cannot tell.

-- Each function of each counted run, per query of its window.
CREATE OR REPLACE VIEW microbench.run_functions AS
SELECT r.run_id, r.label, r.dbms, r.driver, r.workload, r.phase, r.seed,
       f.e ->> 0 AS object,
       f.e ->> 1 AS function,
       (f.e ->> 2)::bigint AS self_instructions,
       (f.e ->> 3)::bigint AS inclusive_instructions,
       (f.e ->> 2)::double precision / r.queries AS self_per_query,
       (f.e ->> 3)::double precision / r.queries AS inclusive_per_query,
       coalesce(f.e ->> 4, f.e ->> 2)::bigint AS self_instructions_valgrind,
       coalesce(f.e ->> 5, f.e ->> 3)::bigint AS inclusive_instructions_valgrind
FROM microbench.scoped_runs() r
CROSS JOIN LATERAL jsonb_array_elements(r.functions) AS f(e)
WHERE r.functions IS NOT NULL AND r.queries > 0;

COMMENT ON VIEW microbench.run_functions IS
    'each function of each counted run: its object (microbench.so is the extension, the harness), and the window''s instructions in it (self) and under it (inclusive), in all and per query, as a CPU counts them (a REP string instruction once), and in all as valgrind counts them (each repetition)';

-- A function's name as two builds' functions are matched: without the
-- suffixes a compiler gives the copies it makes of a function (gcc's
-- ".isra.0", ".constprop.0", ".part.0", ".cold"; clang's ".llvm.123"), so
-- that gcc's _bt_check_compare.isra.0 meets clang's _bt_check_compare.
CREATE OR REPLACE FUNCTION microbench.function_key(function text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT regexp_replace(function, '(\.(isra|constprop|part|cold|lto_priv|localalias|llvm)(\.[0-9]+)?)+$', '')
$$;

-- One function of a counted cell, base against other: compare_functions'
-- rows (its comment says what each column is), which the functions'
-- reports keep in arrays of this type.  A type is created once: a column
-- added later is an ALTER TYPE ... ADD ATTRIBUTE beside this.
DO $type$
BEGIN
    IF to_regtype('microbench.function_difference') IS NULL THEN
        CREATE TYPE microbench.function_difference AS (
            dbms text, workload text, rank integer, object text, function text, harness boolean,
            base_self double precision, other_self double precision, self_difference double precision,
            base_inclusive double precision, other_inclusive double precision,
            inclusive_difference double precision, share double precision,
            cumulative_share double precision, differs boolean, p_value double precision,
            q_value double precision, seeds integer, cell_base double precision,
            cell_other double precision, cell_difference double precision);
    END IF;
END
$type$;

-- The functions of a counted cell, base against other, largest difference
-- first.  Both sides' runs are matched by seed (a counted comparison runs
-- each round's seed on both builds); a function a run does not have ran no
-- instruction there (0).  Per function and seed the difference of its
-- instructions per query, other less base (a function's copies that a
-- compiler made, function_key, are one function); over the seeds their mean, and
-- the test of whether it is 0 (Student's t on the seeds' differences, the
-- p-values of a cell's functions adjusted for their number,
-- Benjamini-Hochberg).  A function differs when the adjusted p-value is
-- within 1 - confidence and the difference at least min_difference
-- instructions a query and min_share of the cell's (base's) instructions
-- a query: a difference the seeds repeat exactly is beyond any spread, but
-- a string function whose cost moves with where the heap put its string
-- (a few instructions a query, as a server's command line or a setting
-- moves the heap's layout: docs/methodology.md) is not where a cell's
-- difference comes from.  With fewer than two seeds there is no spread:
-- differs is NULL.
-- Columns:
--   dbms             the report column (run_column): postgres, postgres-wire, mariadb, mysql
--   rank             by the size of self_difference, 1 the largest
--   object, function the function, matched by both between the sides;
--                    harness: the extension's own code (microbench.so)
--   base_self, other_self, self_difference  instructions a query in the
--                    function itself, means over the seeds, and other less base
--   base_inclusive, other_inclusive, inclusive_difference  the same with
--                    what the function called
--   share            self_difference / cell_difference; cumulative_share
--                    of ranks 1 to this one
--   differs, p_value, q_value  as above
--   seeds            the seeds both sides ran
--   cell_base, cell_other, cell_difference  the cell's instructions a query
CREATE OR REPLACE FUNCTION microbench.compare_functions(base text, other text, workload text DEFAULT NULL,
                                                        dbms text DEFAULT NULL, phase text DEFAULT 'post',
                                                        confidence double precision DEFAULT 0.95,
                                                        driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                        other_driver text DEFAULT NULL,
                                                        min_difference double precision DEFAULT 1.0,
                                                        min_share double precision DEFAULT 0.0005)
RETURNS SETOF microbench.function_difference
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH sides AS (
        SELECT microbench.run_column(r.dbms, r.driver, bd IS NULL AND od IS NULL) AS col,
               s.side, r.workload, r.seed, r.queries, r.instructions, r.functions
        FROM (VALUES ('base', compare_functions.base, coalesce(compare_functions.base_driver, compare_functions.driver)),
                     ('other', compare_functions.other, coalesce(compare_functions.other_driver, compare_functions.driver)))
                 AS s(side, label, drv),
             LATERAL (SELECT coalesce(compare_functions.base_driver, compare_functions.driver) AS bd,
                             coalesce(compare_functions.other_driver, compare_functions.driver) AS od) d
        JOIN microbench.scoped_runs() r ON true
        WHERE r.label = s.label AND (s.drv IS NULL OR r.driver = s.drv)
          AND r.phase = compare_functions.phase
          AND (compare_functions.workload IS NULL OR r.workload = compare_functions.workload)
          AND r.functions IS NOT NULL AND r.queries > 0 AND r.seed IS NOT NULL
    ), runs_of AS (
        SELECT * FROM sides
        WHERE compare_functions.dbms IS NULL OR col = compare_functions.dbms
    ), seed_runs AS (
        SELECT col, side, workload, seed, count(*) AS n, avg(instructions::double precision / queries) AS total
        FROM runs_of GROUP BY col, side, workload, seed
    ), paired AS (
        SELECT b.col, b.workload, b.seed, b.total AS base_total, o.total AS other_total,
               count(*) OVER (PARTITION BY b.col, b.workload) AS n_seeds
        FROM seed_runs b
        JOIN seed_runs o ON o.col = b.col AND o.workload = b.workload AND o.seed = b.seed
        WHERE b.side = 'base' AND o.side = 'other'
    ), paired_runs AS (
        SELECT r.*, sr.n
        FROM runs_of r
        JOIN seed_runs sr ON sr.col = r.col AND sr.side = r.side AND sr.workload = r.workload AND sr.seed = r.seed
        WHERE EXISTS (SELECT 1 FROM paired p WHERE p.col = r.col AND p.workload = r.workload AND p.seed = r.seed)
    ), per_seed AS (
        -- a function per seed, each side the mean over its runs of that
        -- seed; a run without the function counts 0, and so does a seed
        -- without it (no row here: per_function adds over the seeds it has)
        SELECT r.col, r.workload, r.seed, f.e ->> 0 AS object, microbench.function_key(f.e ->> 1) AS function,
               coalesce(sum((f.e ->> 2)::double precision / r.queries / r.n) FILTER (WHERE r.side = 'base'), 0) AS bs,
               coalesce(sum((f.e ->> 2)::double precision / r.queries / r.n) FILTER (WHERE r.side = 'other'), 0) AS os,
               coalesce(sum((f.e ->> 3)::double precision / r.queries / r.n) FILTER (WHERE r.side = 'base'), 0) AS bi,
               coalesce(sum((f.e ->> 3)::double precision / r.queries / r.n) FILTER (WHERE r.side = 'other'), 0) AS oi
        FROM paired_runs r
        CROSS JOIN LATERAL jsonb_array_elements(r.functions) AS f(e)
        GROUP BY 1, 2, 3, 4, 5
    ), cell AS (
        SELECT col, workload, min(n_seeds) AS n_seeds, avg(base_total) AS cb, avg(other_total) AS co
        FROM paired GROUP BY col, workload
    ), per_function AS (
        -- means over all the cell's seeds, and the variance of the
        -- differences from their sums (a seed without the function adds 0)
        SELECT g.col, g.workload, g.object, g.function, c.n_seeds AS n, c.cb, c.co,
               sum(g.bs) / c.n_seeds AS bs, sum(g.os) / c.n_seeds AS os,
               sum(g.os - g.bs) / c.n_seeds AS d,
               CASE WHEN c.n_seeds > 1 THEN
                   sqrt(greatest(sum((g.os - g.bs) ^ 2) - sum(g.os - g.bs) ^ 2 / c.n_seeds, 0) / (c.n_seeds - 1)) END AS sd,
               sum(g.bi) / c.n_seeds AS bi, sum(g.oi) / c.n_seeds AS oi
        FROM per_seed g
        JOIN cell c ON c.col = g.col AND c.workload = g.workload
        GROUP BY g.col, g.workload, g.object, g.function, c.n_seeds, c.cb, c.co
    ), tested AS (
        SELECT f.*,
               CASE WHEN f.n < 2 THEN NULL
                    -- the seeds agree to the last digit: no spread to test against
                    WHEN f.sd <= 1e-9 * greatest(abs(f.d), 1e-300) OR f.sd = 0 THEN CASE WHEN f.d = 0 THEN 1.0 ELSE 0.0 END
                    ELSE microbench.beta_inc((f.n - 1) / 2.0, 0.5,
                                             (f.n - 1) / ((f.n - 1) + f.d ^ 2 / (f.sd ^ 2 / f.n))) END AS p
        FROM per_function f
    ), ordered AS (
        SELECT t.*, count(t.p) OVER (PARTITION BY t.col, t.workload) AS m,
               row_number() OVER (PARTITION BY t.col, t.workload ORDER BY t.p NULLS LAST, t.function, t.object) AS k
        FROM tested t
    ), adjusted AS (
        -- Benjamini-Hochberg: each p-value times m over its rank, the
        -- smallest such from it up
        SELECT o.*,
               CASE WHEN o.p IS NOT NULL THEN
                   least(1.0, min(o.p * o.m / o.k) OVER (PARTITION BY o.col, o.workload ORDER BY o.k DESC
                                                         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) END AS q
        FROM ordered o
    ), ranked AS (
        SELECT a.*, a.n AS n_seeds,
               row_number() OVER (PARTITION BY a.col, a.workload ORDER BY abs(a.d) DESC, a.object, a.function) AS rk
        FROM adjusted a
    )
    SELECT x.col, x.workload, x.rk::integer, x.object, x.function, x.object = 'microbench.so',
           x.bs, x.os, x.d, x.bi, x.oi, x.oi - x.bi,
           x.d / nullif(x.co - x.cb, 0),
           sum(x.d) OVER (PARTITION BY x.col, x.workload ORDER BY x.rk) / nullif(x.co - x.cb, 0),
           CASE WHEN x.q IS NOT NULL THEN x.q <= 1 - confidence
                                          AND abs(x.d) >= greatest(min_difference, min_share * x.cb) END,
           x.p, x.q, x.n_seeds::integer, x.cb, x.co, x.co - x.cb
    FROM ranked x
    ORDER BY microbench.dbms_order(x.col), x.workload, x.rk
$$;

COMMENT ON FUNCTION microbench.compare_functions(text, text, text, text, text, double precision, text, text, text, double precision, double precision) IS
    'the functions of counted cells, base against other: instructions a query in each (self and inclusive), their difference, its share of the cell''s, and whether it differs beyond the count''s spread; largest difference first';

-- A number of instructions a query as a report prints it: 12,345 or, below
-- 100, with one decimal; signed when a difference.
CREATE OR REPLACE FUNCTION microbench.format_instructions(v double precision, signed boolean DEFAULT false)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN v IS NULL THEN '-'
                ELSE CASE WHEN signed AND round(v::numeric, 1) > 0 THEN '+' ELSE '' END
                     || CASE WHEN abs(v) >= 100 THEN to_char(round(v), 'FM999,999,999,990')
                             ELSE to_char(round(v::numeric, 1), 'FM9990.0') END END
$$;

-- A function's name as a report prints it: at most 60 characters (a C++
-- name with its parameters is longer), the extension's named as such.
CREATE OR REPLACE FUNCTION microbench.function_caption(object text, function text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN length(function) > 60 THEN left(function, 57) || '...' ELSE function END
           || CASE WHEN object = 'microbench.so' THEN ' (the extension)' ELSE '' END
$$;

-- The executor's and the storage layer's entry points, in the order a
-- query reaches them: their inclusive figures hold what they call, inlined
-- or not, so they compare across builds where self figures need not
-- (docs/methodology.md).  A function's place among them, or NULL.  A C++
-- name matches by its part before the parameters.
CREATE OR REPLACE FUNCTION microbench.entry_point(function text)
RETURNS integer LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT array_position(ARRAY[
               -- Postgres: the executor, the scans, the access methods, WAL, commit
               'ExecutorRun', 'ExecScan', 'ExecModifyTable', 'index_getnext_slot', 'index_fetch_heap',
               'heap_getnextslot', 'heap_insert', 'heap_update', 'heap_delete', 'XLogInsert',
               'CommitTransaction',
               -- MariaDB: the statement, the handler, InnoDB's row operations, commit
               'mysql_execute_command', 'handler::ha_index_read_map', 'handler::ha_index_next',
               'row_search_mvcc', 'row_ins_step', 'row_upd_step', 'trx_commit'],
           split_part(function, '(', 1))
$$;

-- Per counted cell of base against other, markdown: the first top
-- functions by their difference, both sides' instructions a query in each
-- (self, and inclusive), how much of the cell's difference the first ten
-- explain, how many functions differ beyond the count's spread, and the
-- deepest call that carries at least half the difference (the smallest
-- inclusive figure among the functions both builds call whose inclusive
-- difference is half the cell's or more, in the same direction), the share
-- of the difference that libc's string and memory functions carry
-- (libc_string_function, 31_reports.sql), and the inclusive figures of the
-- entry points (entry_point).  NULL when no run of either
-- side has functions.
CREATE OR REPLACE FUNCTION microbench.functions_report(base text, other text, phase text DEFAULT 'post',
                                                       confidence double precision DEFAULT 0.95,
                                                       driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL, top integer DEFAULT 10,
                                                       only_dbms text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b       text := microbench.side_name(base, coalesce(base_driver, driver));
    o       text := microbench.side_name(other, coalesce(other_driver, driver));
    cell    record;
    f       record;
    result  text := '';
    rows    microbench.function_difference[];
    mine    microbench.function_difference[];   -- the rows of the cell at hand
BEGIN
    rows := ARRAY(SELECT c FROM microbench.compare_functions(base, other, NULL, only_dbms, phase, confidence,
                                                            driver, base_driver, other_driver) c);
    FOR cell IN
        SELECT r.dbms, r.workload, min(r.seeds) AS seeds, min(r.cell_base) AS cb, min(r.cell_other) AS co,
               min(r.cell_difference) AS cd, count(*) AS functions,
               count(*) FILTER (WHERE r.differs) AS differing,
               sum(r.self_difference) FILTER (WHERE r.rank <= 10) AS top_ten,
               sum(abs(r.self_difference)) AS gross,
               sum(abs(r.self_difference)) FILTER (WHERE r.rank <= 10) AS gross_top_ten
        FROM unnest(rows) r
        JOIN microbench.workloads w ON w.name = r.workload
        GROUP BY r.dbms, r.workload, w.group_order, w.report_order
        ORDER BY microbench.dbms_order(r.dbms), w.group_order, w.report_order
    LOOP
        mine := ARRAY(SELECT r FROM unnest(rows) r
                      WHERE r.dbms = cell.dbms AND r.workload = cell.workload ORDER BY r.rank);
        result := result || format(E'\n### %s %s: %s instructions a query (%s), %s (%s)\n\n',
                                   microbench.dbms_short(cell.dbms), cell.workload,
                                   microbench.format_instructions(cell.co), o,
                                   microbench.format_instructions(cell.cb), b);
        IF cell.differing = 0 AND cell.seeds >= 2 THEN
            -- an A/A's cells, and those a change did not touch: a line, not a table
            result := result || (SELECT format(E'No function differs beyond the count''s spread (%s functions, %s seeds); %s.\n',
                                               cell.functions, cell.seeds,
                                               CASE WHEN abs(r.self_difference) < 0.05
                                                    THEN 'each the same within 0.05 instructions a query'
                                                    ELSE 'the largest difference: '
                                                         || microbench.function_caption(r.object, r.function) || ', '
                                                         || microbench.format_instructions(r.self_difference, true)
                                                         || ' instructions a query' END)
                                  FROM unnest(mine) r
                                  WHERE r.dbms = cell.dbms AND r.workload = cell.workload AND r.rank = 1);
            CONTINUE;
        END IF;
        result := result || format(E'| function | object | %s | %s | %s − %s | share | inclusive %s | inclusive %s |\n',
                            b, o, o, b, b, o)
                  || E'|---|---|---:|---:|---:|---:|---:|---:|\n';
        FOR f IN
            SELECT * FROM unnest(mine) r
            WHERE r.dbms = cell.dbms AND r.workload = cell.workload AND r.rank <= top
            ORDER BY r.rank
        LOOP
            result := result || format(E'| %s%s | %s | %s | %s | %s | %s | %s | %s |\n',
                                       replace(microbench.function_caption(f.object, f.function), '|', '\|'),
                                       CASE WHEN f.differs THEN '' WHEN f.differs IS NULL THEN '' ELSE ' (=)' END,
                                       f.object,
                                       microbench.format_instructions(f.base_self),
                                       microbench.format_instructions(f.other_self),
                                       microbench.format_instructions(f.self_difference, true),
                                       coalesce(round((100 * f.share)::numeric, 1) || '%', '-'),
                                       microbench.format_instructions(f.base_inclusive),
                                       microbench.format_instructions(f.other_inclusive));
        END LOOP;
        result := result || E'\n' || microbench.functions_summary(cell.cd, cell.top_ten, cell.gross,
                                                                   cell.gross_top_ten, cell.functions,
                                                                   cell.differing, cell.seeds)
                  || coalesce(E'  \n' || (
                         SELECT format('The deepest call carrying half the difference or more: %s, %s instructions a query with what it calls (%s → %s).',
                                       microbench.function_caption(r.object, r.function),
                                       microbench.format_instructions(r.inclusive_difference, true),
                                       microbench.format_instructions(r.base_inclusive),
                                       microbench.format_instructions(r.other_inclusive))
                         FROM unnest(mine) r
                         WHERE r.dbms = cell.dbms AND r.workload = cell.workload AND cell.cd <> 0
                           AND r.inclusive_difference / cell.cd >= 0.5
                           -- a call both builds make: one that a build inlined
                           -- has no inclusive figure of its own there
                           AND r.base_inclusive > 0 AND r.other_inclusive > 0
                         ORDER BY least(r.base_inclusive, r.other_inclusive), greatest(r.base_inclusive, r.other_inclusive),
                                  r.function
                         LIMIT 1), '')
                  || coalesce(E'  \n' || (
                         -- valgrind's libc is not the one the CPU would run (libc_string_function)
                         SELECT format('libc''s string and memory functions carry %s%% of the difference%s.',
                                       round((100 * sum(r.self_difference) / cell.cd)::numeric, 1),
                                       CASE WHEN sum(r.self_difference) / cell.cd > 0.25
                                            THEN ': over a quarter, and valgrind runs other variants of them than the CPU would'
                                            ELSE '' END)
                         FROM unnest(mine) r
                         WHERE r.dbms = cell.dbms AND r.workload = cell.workload AND cell.cd <> 0
                           AND microbench.libc_string_function(r.object, r.function)
                         HAVING count(*) > 0), '')
                  || coalesce(E'  \nEntry points, with what they call: ' || (
                         SELECT string_agg(format('%s %s → %s', split_part(r.function, '(', 1),
                                                  microbench.format_instructions(r.base_inclusive),
                                                  microbench.format_instructions(r.other_inclusive)),
                                           '; ' ORDER BY microbench.entry_point(r.function))
                         FROM unnest(mine) r
                         WHERE r.dbms = cell.dbms AND r.workload = cell.workload
                           AND microbench.entry_point(r.function) IS NOT NULL AND r.object <> 'microbench.so') || '.', '')
                  || E'\n';
    END LOOP;
    IF result = '' THEN
        RETURN NULL;
    END IF;
    RETURN format(E'## Where the differences come from: the functions\n\n'
                  'Per cell, the functions whose instructions a query differ most between %s and %s '
                  '(self: in the function itself; inclusive: with what it calls), means over the seeds both ran; '
                  'share is of the cell''s difference. "(=)": within the count''s own spread from seed to seed, '
                  'or less than one instruction a query or 0.05%% of the cell''s. A function inlined in one build and not in the other '
                  'is counted in its caller there.\n', b, o) || result;
END
$$;

COMMENT ON FUNCTION microbench.functions_report(text, text, text, double precision, text, text, text, integer, text) IS
    'markdown: per counted cell, the functions whose instructions a query differ most between base and other, and how much of the cell''s difference they explain';

-- A cell's summary line under its functions: the cell's difference, the
-- first ten's share of it (net: their differences added, signs and all;
-- and of all the changes up and down), how many functions differ.
CREATE OR REPLACE FUNCTION microbench.functions_summary(cell_difference double precision,
                                                        top_ten double precision, gross double precision,
                                                        gross_top_ten double precision, functions bigint,
                                                        differing bigint, seeds integer)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format('Difference %s instructions a query; the first ten explain %s of it%s. '
                  '%s',
                  microbench.format_instructions(cell_difference, true),
                  CASE WHEN abs(cell_difference) < 0.05 THEN 'none (no difference)'
                       ELSE microbench.format_instructions(top_ten, true) || ' ('
                            || round((100 * top_ten / cell_difference)::numeric, 1) || '%)' END,
                  CASE WHEN gross > 0 THEN ', and ' || round((100 * gross_top_ten / gross)::numeric, 1)
                                           || '% of all the functions'' changes, up and down' ELSE '' END,
                  CASE WHEN seeds >= 2
                       THEN format('%s of %s functions differ beyond the count''s spread (%s seeds).',
                                   coalesce(differing, 0), functions, seeds)
                       ELSE format('%s functions; one seed has no spread, so which differ is not told.',
                                   functions) END)
$$;
