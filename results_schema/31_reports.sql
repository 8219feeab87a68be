-- 31_reports.sql — relative-QPS reports over microbench.runs.
--
-- The user's deliverable is a table of QPS(other build) / QPS(base build)
-- per DBMS and microbenchmark, in the catalog's groups and order, laid out
-- as in the gcc-vs-clang report: a column per DBMS, pg, my, ma, and for
-- labels measured both in-server and over the wire (microbench compare
-- --path both) with no driver chosen, pg and pg-wire (run_column,
-- 29_sides.sql), each cell with its verdict
-- (microbench.compare(), 30_compare.sql): a difference (the ratio alone),
-- the same within the threshold ("="), or not decided yet ("?").  Under the
-- table, a legend and the warnings (compare_warnings).  Text, markdown and
-- CSV here; SVG in 40_svg.sql.  Plain SQL, so it works in a results
-- database without the extension.  docs/methodology.md explains the
-- verdicts, docs/reports.md the reports.

-- One report cell: the ratio with two decimals and its verdict's mark —
-- nothing for a difference, "=" for the same within the threshold, "?" for
-- not decided yet — or "-" when there is no data.
CREATE OR REPLACE FUNCTION microbench.report_cell(ratio double precision, verdict text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN ratio IS NULL THEN '-'
                ELSE to_char(ratio, 'FM999999999990.00')
                     || CASE verdict WHEN 'difference' THEN '' WHEN 'equivalent' THEN '=' ELSE '?' END END
$$;

-- The grid every format prints: one row per (column, workload) with the
-- cell text and its statistics; columns are the report columns of
-- compare() (two-label report: pg, pg-wire, my, ma) or the labels
-- (relative series).  Rows exist for the workloads some column
-- has data for, so a report shows what ran: the whole suite prints all 32
-- rows, a subset prints its own, and "-" marks a column without data.
-- base_driver and other_driver choose the sides' drivers as in compare();
-- a label column is named by its side ("gcc over pgsql") when other_driver
-- is chosen.
CREATE OR REPLACE FUNCTION microbench.report_grid(base text, others text[], metric text, phase text,
                                                  by_label boolean,
                                                  confidence double precision DEFAULT 0.95,
                                                  threshold double precision DEFAULT 0.02,
                                                  base_driver text DEFAULT NULL,
                                                  other_driver text DEFAULT NULL)
RETURNS TABLE (column_order integer, column_name text, dbms text, grp text, group_order integer,
               report_order integer, workload text, cell text, ratio double precision,
               within_noise boolean, repeated boolean, ci_low double precision,
               ci_high double precision, p_value double precision, significant boolean,
               method text, verdict text, level double precision, basis text,
               pairs integer, set_aside integer, rounds_needed integer)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH cmp AS (
        SELECT o.ord, o.label, c.*
        FROM unnest(others) WITH ORDINALITY AS o(label, ord),
             LATERAL microbench.compare(base, o.label, metric, phase, confidence, threshold,
                                        base_driver => report_grid.base_driver,
                                        other_driver => report_grid.other_driver) c
    ), cols AS (
        SELECT DISTINCT
               CASE WHEN by_label THEN ord::integer ELSE microbench.dbms_order(c.dbms) END AS column_order,
               CASE WHEN by_label THEN microbench.side_name(c.label, report_grid.other_driver)
                    ELSE microbench.dbms_short(c.dbms) END AS column_name,
               CASE WHEN by_label THEN c.label ELSE c.dbms END AS key,
               c.dbms
        FROM cmp c
    )
    SELECT cols.column_order, cols.column_name, cols.dbms, w.grp, w.group_order, w.report_order,
           w.name, microbench.report_cell(c.ratio, c.verdict), c.ratio, c.within_noise,
           coalesce(c.base_runs > 1 OR c.other_runs > 1, false),
           c.ci_low, c.ci_high, c.p_value, c.significant, c.method,
           c.verdict, c.level, c.basis, c.pairs, c.set_aside, c.rounds_needed
    FROM cols
    CROSS JOIN microbench.workloads w
    LEFT JOIN cmp c ON c.workload = w.name AND c.dbms = cols.dbms
                   AND (NOT by_label OR c.label = cols.key)
    WHERE EXISTS (SELECT FROM cmp x
                  WHERE x.workload = w.name AND (NOT by_label OR x.dbms = cols.dbms))
$$;

-- One row of report_grid(), as a type: the report's steps pass a grid
-- between them as an array of these rather than as JSON that each takes
-- apart by hand, so a column has one name and one type everywhere.  Its
-- attributes are report_grid()'s columns, in their order.  A type is
-- created once: a column added later is an ALTER TYPE ... ADD ATTRIBUTE
-- beside this.
DO $type$
BEGIN
    IF to_regtype('microbench.report_grid_row') IS NULL THEN
        CREATE TYPE microbench.report_grid_row AS (
            column_order integer, column_name text, dbms text, grp text, group_order integer,
            report_order integer, workload text, cell text, ratio double precision,
            within_noise boolean, repeated boolean, ci_low double precision,
            ci_high double precision, p_value double precision, significant boolean,
            method text, verdict text, level double precision, basis text,
            pairs integer, set_aside integer, rounds_needed integer);
    END IF;
END
$type$;

-- report_grid()'s rows as an array of report_grid_row, in the order it
-- returns them: the form in which the renderers take a grid.
CREATE OR REPLACE FUNCTION microbench.report_grid_rows(base text, others text[], metric text, phase text,
                                                       by_label boolean,
                                                       confidence double precision DEFAULT 0.95,
                                                       threshold double precision DEFAULT 0.02,
                                                       base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL)
RETURNS microbench.report_grid_row[] LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ARRAY(SELECT ROW(g.*)::microbench.report_grid_row
                 FROM microbench.report_grid(base, others, metric, phase, by_label, confidence, threshold,
                                             base_driver, other_driver) g)
$$;

-- The cell of a grid's column for a workload it has no runs of: "-" and
-- nothing else, where the column and the workload would put it.
CREATE OR REPLACE FUNCTION microbench.report_no_data_cell(column_order integer, column_name text, dbms text,
                                                          grp text, group_order integer, report_order integer,
                                                          workload text)
RETURNS microbench.report_grid_row LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r       microbench.report_grid_row;
BEGIN
    r.column_order := column_order;
    r.column_name := column_name;
    r.dbms := dbms;
    r.grp := grp;
    r.group_order := group_order;
    r.report_order := report_order;
    r.workload := workload;
    r.cell := '-';
    RETURN r;
END
$$;

-- What the columns and marks of a report mean, said once under it, a line
-- each: the DBMS names of its columns (dbms_legend: beside pg-wire, pg
-- says it is in-server), what a cell divides by what (cells,
-- e.g. "QPS(clang) / QPS(gcc)"), the three verdicts, and what the
-- intervals are (the markdown report prints them).
CREATE OR REPLACE FUNCTION microbench.report_footer(grid microbench.report_grid_row[], prefix text,
                                                    confidence double precision DEFAULT 0.95,
                                                    threshold double precision DEFAULT 0.02,
                                                    cells text DEFAULT NULL)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT E'\n\n' || prefix || string_agg(d.legend, ', ' ORDER BY microbench.dbms_order(d.dbms))
           || E'\n' || prefix || 'cells: ' || coalesce(cells || ', ', '')
           || 'from the runs paired round by round; - means no data'
           || E'\n' || prefix || '1.04: a difference: the interval excludes 1 and the change is at least ' || t.pct || '%'
           || ' (' || to_char(1 + threshold, 'FM0.000') || ' or more, ' || to_char(1 / (1 + threshold), 'FM0.000') || ' or less)'
           || E'\n' || prefix || '1.00=: the same within ±' || t.pct || '%: the whole interval lies inside '
           || to_char(1 / (1 + threshold), 'FM0.000') || ' .. ' || to_char(1 + threshold, 'FM0.000')
           || E'\n' || prefix || '0.97?: not decided by these runs; the markdown report says about how many more rounds would decide it'
           || E'\n' || prefix || 'intervals: ' || round((confidence * 100)::numeric, 1)::float8
           || '% for all the cells of a comparison together (false-coverage-rate adjusted), from the pairs'' spread pooled over like cells'
    FROM (SELECT c.dbms, microbench.dbms_legend(c.dbms, array_agg(c.dbms) OVER ()) AS legend
          FROM (SELECT DISTINCT r.dbms
                FROM unnest(grid) r WHERE microbench.dbms_short(r.dbms) IS NOT NULL) c) d,
         (SELECT round((threshold * 100)::numeric, 1)::float8::text AS pct) t
    GROUP BY t.pct
$$;

-- A cell of the markdown report: the text cell, its interval when there is
-- one, and for an undecided cell about how many more rounds would decide it.
CREATE OR REPLACE FUNCTION microbench.report_cell_interval(cell text, ci_low double precision,
                                                           ci_high double precision,
                                                           rounds_needed integer DEFAULT NULL,
                                                           verdict text DEFAULT NULL)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT cell || CASE WHEN ci_low IS NULL THEN '' ELSE
        ' [' || to_char(ci_low, 'FM999999999990.00') || ', ' || to_char(ci_high, 'FM999999999990.00') || ']' END
        || CASE WHEN verdict = 'inconclusive' THEN
               CASE WHEN ci_low IS NULL THEN ' (too few runs for an interval)'
                    WHEN rounds_needed IS NULL THEN ' (more rounds on the same server starts cannot decide it)'
                    WHEN rounds_needed > 100 THEN ' (more than 100 more rounds)'
                    ELSE ' (~' || rounds_needed || ' more round' || CASE WHEN rounds_needed > 1 THEN 's' ELSE '' END || ')' END
           ELSE '' END
$$;

-- Lay a grid out as text (the seed's layout), markdown or CSV.  Text
-- columns are 8 characters wide as in the seed, wider when a column's name
-- (a label, in a series) needs it.
CREATE OR REPLACE FUNCTION microbench.report_render(grid microbench.report_grid_row[], format text,
                                                   confidence double precision DEFAULT 0.95,
                                                   threshold double precision DEFAULT 0.02,
                                                   cells text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    result  text := '';
    g       record;
    w       record;
    header  text;
    width   integer;
BEGIN
    IF format NOT IN ('text', 'markdown', 'csv') THEN
        RAISE EXCEPTION 'unknown report format "%"', format
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Use text, markdown, csv or svg.';
    END IF;
    SELECT greatest(8, max(length(r.column_name)) + 2) INTO width
    FROM unnest(grid) r;

    IF format = 'csv' THEN
        SELECT 'group,workload,' || string_agg(format('%s,%s_ci_low,%s_ci_high,%s_significant,%s_verdict,%s_rounds_needed',
                                                      c.column_name, c.column_name, c.column_name, c.column_name,
                                                      c.column_name, c.column_name),
                                               ',' ORDER BY c.column_order)
        INTO header
        FROM (SELECT DISTINCT r.column_order, r.column_name FROM unnest(grid) r) c;
        result := header;
        FOR w IN
            SELECT r.grp, r.workload,
                   string_agg(concat_ws(',',
                                  coalesce(to_char(r.ratio, 'FM999999999990.00'), ''),
                                  coalesce(to_char(r.ci_low, 'FM999999999990.0000'), ''),
                                  coalesce(to_char(r.ci_high, 'FM999999999990.0000'), ''),
                                  CASE WHEN r.ratio IS NULL THEN ''
                                       ELSE coalesce(r.significant::text, 'false') END,
                                  coalesce(r.verdict, ''),
                                  coalesce(r.rounds_needed::text, '')),
                              ',' ORDER BY r.column_order) AS cells
            FROM unnest(grid) r
            GROUP BY 1, 2, r.group_order, r.report_order
            ORDER BY r.group_order, r.report_order
        LOOP
            result := result || E'\n' || w.grp || ',' || w.workload || ',' || w.cells;
        END LOOP;
        RETURN result;
    END IF;

    FOR g IN
        SELECT DISTINCT r.group_order, r.grp FROM unnest(grid) r ORDER BY 1
    LOOP
        IF result <> '' THEN
            result := result || E'\n\n';
        END IF;
        SELECT CASE format
                   WHEN 'text' THEN string_agg(rpad(c.column_name, width), '' ORDER BY c.column_order)
                   ELSE '| ' || string_agg(c.column_name, ' | ' ORDER BY c.column_order) || E' | microbenchmark |\n|'
                        || repeat('---:|', count(*)::int) || '---|'
               END
        INTO header
        FROM (SELECT DISTINCT r.column_order, r.column_name
              FROM unnest(grid) r WHERE r.group_order = g.group_order) c;
        result := result || CASE format WHEN 'text' THEN '-- ' ELSE '### ' END || g.grp
                  || E'\n' || rtrim(header);
        FOR w IN
            SELECT r.workload,
                   CASE format
                       WHEN 'text' THEN string_agg(rpad(r.cell, width), '' ORDER BY r.column_order)
                       ELSE '| ' || string_agg(microbench.report_cell_interval(r.cell, r.ci_low, r.ci_high,
                                                                               r.rounds_needed, r.verdict),
                                               ' | ' ORDER BY r.column_order) || ' | '
                   END AS cells
            FROM unnest(grid) r
            WHERE r.group_order = g.group_order
            GROUP BY r.workload, r.report_order
            ORDER BY r.report_order
        LOOP
            result := result || E'\n' || w.cells || w.workload || CASE format WHEN 'text' THEN '' ELSE ' |' END;
        END LOOP;
    END LOOP;
    RETURN result || microbench.report_footer(grid, CASE format WHEN 'text' THEN '-- ' ELSE '' END,
                                              confidence, threshold, cells);
END
$$;

-- The warnings under a report, one line each (of one DBMS when only_dbms),
-- for the sides compare() had: base_driver and other_driver as there.
CREATE OR REPLACE FUNCTION microbench.warnings_caption(base text, others text[], phase text, prefix text,
                                                       threshold double precision, only_dbms text,
                                                       base_driver text DEFAULT NULL,
                                                       other_driver text DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(string_agg(E'\n' || prefix || 'warning: ' || w.message, '' ORDER BY o.ord), '')
    FROM unnest(others) WITH ORDINALITY AS o(label, ord),
         LATERAL microbench.compare_warnings(base, o.label, phase, threshold,
                                             base_driver => warnings_caption.base_driver,
                                             other_driver => warnings_caption.other_driver) w
    WHERE only_dbms IS NULL OR w.dbms = only_dbms
$$;

-- Whether a function is one of libc's string and memory functions (memset,
-- memcpy, memcmp, strlen and their variants: __memset_avx2_unaligned_erms,
-- __memcmp_avx2_movbe).  Valgrind's CPU has other features than the real
-- one, so glibc picks other variants of them under valgrind (AVX2 where
-- this CPU would run EVEX ones): their share of a count says less about the
-- hardware than the server's own code does.
CREATE OR REPLACE FUNCTION microbench.libc_string_function(object text, function text)
RETURNS boolean LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT object ~ '^libc[.-]' AND function ~ '^_*(mem|str|stp|wmem|wcs|bcmp|bzero|rawmem)'
$$;

-- Per counted cell of base against each other label, the share of its
-- difference that libc's string and memory functions carry (their own
-- instructions a query, other less base, over the cell's): a row per cell
-- whose instructions differ by at least min_difference of base's.
CREATE OR REPLACE FUNCTION microbench.libc_shares(base text, others text[], phase text,
                                                  base_driver text DEFAULT NULL, other_driver text DEFAULT NULL,
                                                  min_difference double precision DEFAULT 0.005)
RETURNS TABLE (dbms text, label text, workload text, cell_difference double precision,
               libc_difference double precision, share double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH per_side AS (
        SELECT microbench.run_column(r.dbms, r.driver, libc_shares.base_driver IS NULL
                                                       AND libc_shares.other_driver IS NULL) AS col,
               r.label, r.workload,
               avg(r.instructions::double precision / r.queries) AS total,
               avg((SELECT coalesce(sum((f.e ->> 2)::double precision), 0)
                    FROM jsonb_array_elements(r.functions) AS f(e)
                    WHERE microbench.libc_string_function(f.e ->> 0, f.e ->> 1)) / r.queries) AS libc
        FROM (SELECT libc_shares.base AS label, libc_shares.base_driver AS driver
              UNION ALL SELECT o, libc_shares.other_driver FROM unnest(others) o) s
        JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        WHERE r.phase = libc_shares.phase AND r.functions IS NOT NULL AND r.queries > 0
        GROUP BY 1, 2, 3
    )
    SELECT b.col, o.label, b.workload, o.total - b.total, o.libc - b.libc,
           (o.libc - b.libc) / (o.total - b.total)
    FROM per_side b
    JOIN per_side o ON o.col = b.col AND o.workload = b.workload AND o.label <> b.label
    WHERE b.label = base AND abs(o.total - b.total) >= min_difference * b.total
$$;

-- The line under a counted report per column that names the cells whose
-- difference libc's string and memory functions carry more than a quarter
-- of (libc_shares): valgrind runs other variants of them than the CPU
-- would, so such a cell says less about the hardware.
CREATE OR REPLACE FUNCTION microbench.libc_caption(base text, others text[], phase text, prefix text,
                                                   only_dbms text, base_driver text DEFAULT NULL,
                                                   other_driver text DEFAULT NULL,
                                                   min_difference double precision DEFAULT 0.005)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(string_agg(l.line, '' ORDER BY microbench.dbms_order(l.dbms)), '')
    FROM (SELECT s.dbms,
                 format(E'\n%slibc: %s: libc''s string and memory functions carry over a quarter of the difference of %s cell(s), and valgrind runs other variants of them than the CPU would (AVX2 where it may run EVEX): %s',
                        prefix, microbench.dbms_short(s.dbms), count(*),
                        string_agg(format('%s%s %s%%', s.workload,
                                          CASE WHEN cardinality(others) > 1 THEN ' (' || s.label || ')' ELSE '' END,
                                          round((100 * s.share)::numeric)),
                                   ', ' ORDER BY s.share DESC, s.workload)) AS line
          FROM microbench.libc_shares(base, others, phase, base_driver, other_driver, min_difference) s
          WHERE s.share > 0.25 AND (only_dbms IS NULL OR s.dbms = only_dbms)
          GROUP BY s.dbms) l
$$;

-- What a counted report says under its table instead of the timed
-- warnings (a count has no time in it): the read cells whose counted
-- windows read pages from disk (the data did not fit in shared buffers or
-- the buffer pool, so the count holds first touches of pages, not only
-- queries), what share of an in-server count ran in the harness's own
-- code (the extension), with the compiler that built it for every build,
-- and which settings of a counted server differ from a timed one's, and why;
-- per report column as compare() has it (run_column).
CREATE OR REPLACE FUNCTION microbench.count_caption(base text, others text[], phase text, prefix text,
                                                    only_dbms text, base_driver text DEFAULT NULL,
                                                    other_driver text DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH counted AS (
        SELECT r.*, w.grp,
               microbench.run_column(r.dbms, r.driver, base_driver IS NULL AND other_driver IS NULL) AS col,
               coalesce(r.shared_blks_read, (r.server_status ->> 'Innodb_buffer_pool_reads')::bigint) AS blocks_read
        FROM (SELECT base AS label, base_driver AS driver
              UNION ALL SELECT o, other_driver FROM unnest(others) o) s
        JOIN microbench.scoped_runs() r ON r.label = s.label AND (s.driver IS NULL OR r.driver = s.driver)
        JOIN microbench.workloads w ON w.name = r.workload
        WHERE r.phase = count_caption.phase AND r.instructions_counter ~ '^(cachegrind|callgrind)'
    ), cold AS (
        SELECT c.col,
               format('%swarning: %s: %s read cell(s) read pages from disk inside their counted window, so their count holds first touches of pages as well as queries (the tables did not fit in %s): %s',
                      prefix, microbench.dbms_short(c.col), count(DISTINCT c.workload),
                      CASE c.dbms WHEN 'postgres' THEN 'shared_buffers' ELSE 'the buffer pool' END,
                      string_agg(DISTINCT format('%s (%s blocks in %s of %s runs)', c.workload, c.most, c.cold_runs, c.runs), ', ')) AS line
        FROM (SELECT c.col, c.dbms, c.workload, max(c.blocks_read) OVER w AS most,
                     count(*) FILTER (WHERE c.blocks_read > 0) OVER w AS cold_runs, count(*) OVER w AS runs,
                     c.blocks_read
              FROM counted c
              WHERE c.grp <> 'writes'
              WINDOW w AS (PARTITION BY c.col, c.workload)) c
        WHERE c.blocks_read > 0
        GROUP BY c.col, c.dbms
    ), harness AS (
        SELECT c.col,
               format('%sharness: the in-server counts include the extension''s own code, built with %s for every build: %s%% of a query''s instructions (%s)',
                      prefix, string_agg(DISTINCT c.harness_compiler, ', '),
                      CASE WHEN round(min(c.share) * 100, 1) = round(max(c.share) * 100, 1)
                           THEN round(min(c.share) * 100, 1)::text
                           ELSE round(min(c.share) * 100, 1) || '-' || round(max(c.share) * 100, 1) END,
                      (array_agg(c.workload || ' ' || round(c.share * 100, 1) || '%' ORDER BY c.share DESC))[1]
                      || ' the most') AS line
        FROM (SELECT c.col, c.workload, c.harness_compiler,
                     (avg(c.harness_instructions::numeric / nullif(c.instructions, 0))) AS share
              FROM counted c
              WHERE c.harness_instructions IS NOT NULL
              GROUP BY c.col, c.workload, c.harness_compiler) c
        GROUP BY c.col
    ), settings AS (
        SELECT c.col,
               format('%scounted server: %s: %s', prefix, microbench.dbms_short(c.col),
                      string_agg(DISTINCT c.count_settings, '; ')) AS line
        FROM counted c
        WHERE c.count_settings IS NOT NULL
        GROUP BY c.col
    )
    SELECT coalesce(string_agg(E'\n' || l.line, '' ORDER BY microbench.dbms_order(l.col), l.ord), '')
    FROM (SELECT col, line, 1 AS ord FROM cold UNION ALL SELECT col, line, 2 FROM harness
          UNION ALL SELECT col, line, 3 FROM settings) l
    WHERE only_dbms IS NULL OR l.col = only_dbms
$$;

-- How each side's runs were driven, when not with the defaults (prepared
-- statements, no rate or event limit, no reconnects): a line under the
-- report, because such runs measure something else.  drivers[i] is the
-- driver chosen for labels[i] (NULL, or no array: all its runs).  A label
-- whose drivers ran with other options (its runs over the wire without
-- prepared statements, say) says so per driver ("gcc in-server defaults,
-- gcc over pgsql ps_mode=disable"), as its columns are apart too.
CREATE OR REPLACE FUNCTION microbench.options_caption(labels text[], phase text, prefix text,
                                                      drivers text[] DEFAULT NULL)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH per_driver AS (
        SELECT l.label, l.driver AS chosen, l.ord, r.driver,
               string_agg(DISTINCT concat_ws(' ',
                   CASE WHEN r.ps_mode <> 'auto' THEN 'ps_mode=' || r.ps_mode END,
                   CASE WHEN r.rate IS NOT NULL THEN 'rate=' || r.rate END,
                   -- a counted run's event counts are its passes', the runner's, not an option
                   CASE WHEN r.event_limit IS NOT NULL
                             AND coalesce(r.instructions_counter !~ '^(cachegrind|callgrind)', true)
                        THEN 'events=' || r.event_limit END,
                   CASE WHEN r.reconnect IS NOT NULL THEN 'reconnect=' || r.reconnect END), ' | ') AS opts
        FROM unnest(labels, drivers) WITH ORDINALITY AS l(label, driver, ord)
        JOIN microbench.scoped_runs() r ON r.label = l.label AND r.phase = options_caption.phase
                              AND (l.driver IS NULL OR r.driver = l.driver)
        GROUP BY l.label, l.driver, l.ord, r.driver
    ), per_label AS (
        SELECT p.ord, bool_or(p.opts <> '') AS any_opts,
               CASE WHEN count(DISTINCT p.opts) = 1
                    THEN microbench.side_name(p.label, min(p.chosen)) || ' '
                         || CASE WHEN min(p.opts) = '' THEN 'defaults' ELSE min(p.opts) END
                    ELSE string_agg(microbench.side_name(p.label, p.driver) || ' '
                                    || CASE WHEN p.opts = '' THEN 'defaults' ELSE p.opts END, ', ' ORDER BY p.driver)
               END AS entry
        FROM per_driver p
        GROUP BY p.label, p.ord
    )
    SELECT CASE WHEN bool_or(p.any_opts) THEN
        E'\n' || prefix || 'run options: ' || string_agg(p.entry, '; ' ORDER BY p.ord)
    ELSE '' END
    FROM per_label p
$$;

-- The seed's report: QPS(other) / QPS(base) per DBMS, in four groups,
-- with the marks, legend and warnings of microbench.compare().  driver
-- chooses the driver of both sides, base_driver and other_driver that of
-- one: bench_report('gcc', 'clang', driver => 'pgsql') compares two builds
-- over the wire, bench_report('gcc', 'gcc', base_driver => 'extension',
-- other_driver => 'pgsql') what the protocol path costs one build.
-- Without them, labels measured both in-server and over the wire (as
-- microbench compare --path both measures them) get a column per path, pg
-- and pg-wire, never pooled; check_drivers refuses what stays ambiguous.
CREATE OR REPLACE FUNCTION microbench.bench_report(base text, other text, format text DEFAULT 'text',
                                                   phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                   confidence double precision DEFAULT 0.95,
                                                   threshold double precision DEFAULT 0.02,
                                                   driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                   other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bd       text := coalesce(base_driver, driver);
    od       text := coalesce(other_driver, driver);
    missing  record;
BEGIN
    -- a side without runs (the base first): an empty report
    SELECT s.label, s.drv INTO missing
    FROM (VALUES (1, base, bd), (2, other, od)) AS s(ord, label, drv)
    WHERE NOT EXISTS (SELECT 1 FROM microbench.scoped_runs() r
                      WHERE r.label = s.label AND r.phase = bench_report.phase
                        AND (s.drv IS NULL OR r.driver = s.drv))
    ORDER BY s.ord
    LIMIT 1;
    IF FOUND THEN
        PERFORM microbench.check_metric(metric);
        RAISE NOTICE 'no runs of label "%"% in phase %', missing.label,
            CASE WHEN missing.drv IS NULL THEN '' ELSE ' over driver ' || missing.drv END, phase;
        RETURN '';
    END IF;
    -- a count of instructions says where it comes from: the functions of
    -- each cell (32_functions.sql), under the markdown report
    RETURN coalesce(microbench.relative_report(base, ARRAY[other], format, phase, metric, false,
                                               confidence, threshold, NULL, bd, od), '')
           || CASE WHEN format = 'markdown' AND metric IN ('instructions', 'instructions_per_query')
                   THEN coalesce(E'\n\n' || microbench.functions_report(base, other, phase, confidence,
                                                                      base_driver => bd, other_driver => od), '')
                   ELSE '' END;
END
$$;

COMMENT ON FUNCTION microbench.bench_report(text, text, text, text, text, double precision, double precision, text, text, text) IS
    'relative report QPS(other)/QPS(base) per dbms in the seed layout, ~ on cells that are not a significant difference; format text, markdown, csv or svg; driver, base_driver, other_driver choose the runs'' driver';

-- The body of both reports: the grid of base against others (columns per
-- DBMS, or per label when by_label; one DBMS's rows only when only_dbms),
-- laid out in a format, with the captions under it.  NULL when no run of
-- base or the others is in the grid.  base_driver and other_driver choose
-- the sides' drivers as in compare(); the captions then name each side by
-- label and driver ("QPS(gcc over pgsql) / QPS(gcc in-server)").
CREATE OR REPLACE FUNCTION microbench.relative_report(base text, others text[], format text, phase text,
                                                      metric text, by_label boolean,
                                                      confidence double precision, threshold double precision,
                                                      only_dbms text DEFAULT NULL,
                                                      base_driver text DEFAULT NULL,
                                                      other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    grid         microbench.report_grid_row[];
    prefix       text := CASE format WHEN 'text' THEN '-- ' ELSE '' END;
    base_name    text := microbench.side_name(base, base_driver);
    other_names  text[] := ARRAY(SELECT microbench.side_name(o.label, other_driver)
                                 FROM unnest(others) WITH ORDINALITY AS o(label, ord) ORDER BY o.ord);
BEGIN
    PERFORM microbench.check_metric(metric);
    IF confidence IS NULL OR confidence <= 0 OR confidence >= 1 OR threshold IS NULL OR threshold < 0 THEN
        RAISE EXCEPTION 'confidence must be between 0 and 1 and threshold at least 0, not % and %', confidence, threshold
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The defaults are confidence => 0.95 and threshold => 0.02 (a 2% change).';
    END IF;
    IF format = 'svg' THEN
        RETURN microbench.report_svg(base, others, phase, metric, by_label, confidence, threshold,
                                     base_driver => base_driver, other_driver => other_driver);
    END IF;
    grid := ARRAY(SELECT g
                  FROM unnest(microbench.report_grid_rows(base, others, metric, phase, by_label, confidence,
                                                          threshold, base_driver, other_driver)) g
                  WHERE only_dbms IS NULL OR g.dbms = only_dbms);
    IF cardinality(grid) = 0 THEN
        RETURN NULL;
    END IF;
    RETURN microbench.report_render(grid, format, confidence, threshold,
                                    microbench.ratio_caption(metric, CASE WHEN by_label THEN 'label' ELSE other_names[1] END,
                                                             base_name))
           || CASE WHEN format = 'csv' THEN ''
                   ELSE microbench.metric_caption(metric, base_name, array_to_string(other_names, ','), prefix)
                        || coalesce(microbench.options_caption(
                                        array_prepend(base, others), phase, prefix,
                                        array_prepend(base_driver, array_fill(other_driver, ARRAY[cardinality(others)]))), '')
                        -- the warnings are of time (the machine's speed, a trend, a neighbour):
                        -- a count has none of them, but says what else its window held
                        || CASE WHEN microbench.counted_metric(metric)
                                THEN microbench.count_caption(base, others, phase, prefix, only_dbms,
                                                              base_driver, other_driver)
                                     || microbench.libc_caption(base, others, phase, prefix, only_dbms,
                                                                base_driver, other_driver, threshold)
                                ELSE microbench.warnings_caption(base, others, phase, prefix, threshold, only_dbms,
                                                                 base_driver, other_driver) END END;
END
$$;

-- A series relative to one base: one column per other label, per report
-- column of the base's runs (pg, pg-wire, my, ma: a table each).
-- bench_relative('pg17', 'pg18', 'pg19') prints text; the form with an
-- array takes the same formats and options as bench_report:
-- bench_relative('pg17', ARRAY['pg18', 'pg19'], 'markdown').  driver,
-- base_driver and other_driver (the driver of every other label) choose
-- the runs as for bench_report.
CREATE OR REPLACE FUNCTION microbench.bench_relative(base text, others text[], format text,
                                                     phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                     confidence double precision DEFAULT 0.95,
                                                     threshold double precision DEFAULT 0.02,
                                                     driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                     other_driver text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bd      text := coalesce(base_driver, driver);
    od      text := coalesce(other_driver, driver);
    d       record;
    part    text;
    result  text := '';
BEGIN
    IF format = 'svg' THEN
        RETURN microbench.relative_report(base, others, format, phase, metric, true, confidence, threshold,
                                          NULL, bd, od);
    END IF;
    FOR d IN
        SELECT DISTINCT c.dbms, microbench.dbms_order(c.dbms)
        FROM microbench.scoped_runs() r,
             LATERAL (SELECT microbench.run_column(r.dbms, r.driver, bd IS NULL AND od IS NULL) AS dbms) c
        WHERE r.label = base AND r.phase = bench_relative.phase AND (bd IS NULL OR r.driver = bd) ORDER BY 2
    LOOP
        part := microbench.relative_report(base, others, format, phase, metric, true, confidence, threshold,
                                           d.dbms, bd, od);
        CONTINUE WHEN part IS NULL OR part = '';
        result := result || CASE WHEN result = '' THEN '' ELSE E'\n\n' END
                  || CASE format WHEN 'csv' THEN '' WHEN 'markdown' THEN '## ' ELSE '-- ' END
                  || CASE WHEN format = 'csv' THEN ''
                          ELSE microbench.dbms_short(d.dbms) || ': '
                               || microbench.ratio_caption(metric, 'label', microbench.side_name(base, bd))
                               || E'\n\n' END
                  || part;
    END LOOP;
    IF result = '' THEN
        RAISE NOTICE 'no runs of label "%"% in phase %', base,
            CASE WHEN bd IS NULL THEN '' ELSE ' over driver ' || bd END, phase;
    END IF;
    RETURN result;
END
$$;

CREATE OR REPLACE FUNCTION microbench.bench_relative(base text, VARIADIC others text[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT microbench.bench_relative(base, others, 'text') $$;

COMMENT ON FUNCTION microbench.bench_relative(text, text[]) IS
    'QPS of each other label relative to the base label, one column per label, per dbms (text)';
COMMENT ON FUNCTION microbench.bench_relative(text, text[], text, text, text, double precision, double precision, text, text, text) IS
    'a metric of each other label relative to the base label, one column per label, per dbms; format text, markdown, csv or svg; driver, base_driver, other_driver choose the runs'' driver';

-- What the protocol path costs one build: a label's runs over the wire
-- (the client's libpq driver, 'pgsql') against its runs in-server
-- ('extension'), workload by workload, in bench_report's layout and
-- formats.  A cell is QPS over the wire / QPS in-server (or the metric's
-- ratio), so below 1 for QPS: the share of the in-server rate left once
-- every statement makes a round trip.  Runs of the comparison runner,
-- which measures both paths in each round (microbench compare --path
-- both), pair by round.
CREATE OR REPLACE FUNCTION microbench.bench_protocol(label text, format text DEFAULT 'text',
                                                     phase text DEFAULT 'post', metric text DEFAULT 'qps',
                                                     confidence double precision DEFAULT 0.95,
                                                     threshold double precision DEFAULT 0.02)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    report  text;
    m       text := CASE metric WHEN 'qps' THEN 'QPS' ELSE metric END;
BEGIN
    report := microbench.bench_report(label, label, format, phase, metric, confidence, threshold,
                                      base_driver => 'extension', other_driver => 'pgsql');
    IF report = '' OR format IN ('csv', 'svg') THEN
        RETURN report;
    END IF;
    RETURN CASE format WHEN 'markdown' THEN '## ' ELSE '-- ' END
           || format('%s: wire %s / in-server %s (driver pgsql / driver extension)', label, m, m)
           || E'\n\n' || report;
END
$$;

COMMENT ON FUNCTION microbench.bench_protocol(text, text, text, text, double precision, double precision) IS
    'what the protocol path costs a label: its runs over the wire (driver pgsql) relative to its runs in-server (driver extension), as bench_report lays it out';

-- The absolute table of a cost report: per DBMS and microbenchmark, one
-- line per label with its QPS and what each query cost (medians over the
-- label's runs), in the catalog's order, so that "0.95 of the QPS" can be
-- read next to "1.06 of the instructions per query".  A label's runs of
-- two drivers are two lines (driver), never pooled: in-server and over the
-- wire, a query costs different things.
CREATE OR REPLACE FUNCTION microbench.bench_costs(labels text[], phase text DEFAULT 'post')
RETURNS TABLE (dbms text, workload text, label text, driver text, runs integer, qps double precision,
               cpu_us_per_query double precision, cs_per_query double precision,
               host_cpu_us_per_query double precision, host_cs_per_query double precision,
               rkb_per_query double precision, wkb_per_query double precision,
               wal_bytes_per_query double precision, instructions_per_query double precision,
               cycles_per_query double precision, ipc double precision,
               client_cpu_us_per_query double precision)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT c.dbms, c.workload, c.label, c.driver, count(*)::integer,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.qps),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cpu_us_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cs_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.host_cpu_us_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.host_cs_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.rkb_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.wkb_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.wal_bytes_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.instructions_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.cycles_per_query),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.ipc),
           percentile_cont(0.5) WITHIN GROUP (ORDER BY c.client_cpu_us_per_query)
    FROM microbench.run_costs c
    JOIN microbench.workloads w ON w.name = c.workload
    JOIN unnest(labels) WITH ORDINALITY AS l(label, ord) ON l.label = c.label
    WHERE c.phase = bench_costs.phase
    GROUP BY c.dbms, c.workload, c.label, c.driver, w.group_order, w.report_order, l.ord
    ORDER BY microbench.dbms_order(c.dbms), w.group_order, w.report_order, l.ord, c.driver
$$;

COMMENT ON FUNCTION microbench.bench_costs(text[], text) IS
    'per dbms, workload, label and driver: median QPS and cost per query (CPU, context switches, disk KB, WAL, instructions, cycles)';
