-- 34_count_clock.sql — what a count says about QPS: count and clock side by
-- side, cell by cell.
--
-- A count of instructions covers the server's user code only, and says
-- nothing of the rate at which a CPU runs them.  So a count ratio r speaks
-- for QPS only as far as that code is a query's time: if the base build
-- spends a share s of a query's time there (its user CPU per query over a
-- query's wall time per client, the metric server_user_share), and both
-- builds run their instructions at the same rate and spend the rest alike,
-- the other build's QPS is 1 / (s / r + 1 - s) times the base's.  That is
-- the implied ratio.  Beside the measured QPS ratio it says whether count
-- and clock agree (their intervals overlap), and if not, which way the
-- clock went: faster than its instructions (fewer cycles per instruction,
-- or less waiting) or slower.  docs/methodology.md says why and what it
-- cannot see.

-- A row of count_clock(), the form in which its renderers take a cell.
DO $type$
BEGIN
    IF to_regtype('microbench.count_clock_cell') IS NULL THEN
        CREATE TYPE microbench.count_clock_cell AS (
            dbms text, workload text, grp text, group_order integer, report_order integer,
            counted double precision, counted_low double precision, counted_high double precision,
            share double precision, share_low double precision, share_high double precision,
            other_share double precision,
            implied double precision, implied_low double precision, implied_high double precision,
            measured double precision, measured_low double precision, measured_high double precision,
            consistent boolean, mark text, reason text,
            hw_instructions double precision, hw_cycles double precision);
    END IF;
END
$type$;

-- The interval of a positive quantity from its runs' mean and variance of
-- logs: Student's t at the confidence asked; the point alone from one run.
CREATE OR REPLACE FUNCTION microbench.log_interval(mean_log double precision, var_log double precision,
                                                   n integer, confidence double precision,
                                                   OUT centre double precision, OUT low double precision,
                                                   OUT high double precision)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT exp(mean_log),
           exp(mean_log - coalesce(h.half, 0)),
           exp(mean_log + coalesce(h.half, 0))
    FROM (SELECT CASE WHEN n >= 2 AND var_log IS NOT NULL THEN
                 microbench.t_quantile(1 - (1 - confidence) / 2, n - 1) * sqrt(var_log / n) END AS half) h
$$;

-- The QPS ratio a count ratio implies when a share s of a query's time is
-- the counted code: 1 / (s / r + 1 - s).
CREATE OR REPLACE FUNCTION microbench.implied_ratio(r double precision, s double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN r > 0 AND s >= 0 THEN 1 / (least(s, 1) / r + 1 - least(s, 1)) END
$$;

-- Why a cell's clock left its count, in words: the way it went, and what
-- the builds' shares say.  The model expects the other build's share to be
-- s' = (s / r) / (s / r + 1 - s); a share well above that (a quarter or
-- more) means the rest of a query, the waiting, shrank; well below, grew.
-- Where the user code is nine tenths of a query on both builds there is
-- next to no waiting to gain or lose: cycles per instruction it is.
CREATE OR REPLACE FUNCTION microbench.count_clock_reason(faster boolean, r double precision,
                                                         s double precision, s_other double precision,
                                                         count_metric text DEFAULT 'instructions')
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN faster IS NULL THEN NULL
        ELSE CASE WHEN faster THEN 'faster than its ' ELSE 'slower than its ' END
        || CASE count_metric WHEN 'instructions' THEN 'instructions: ' ELSE 'estimated cycles: ' END
        || CASE
            WHEN s >= 0.9 AND s_other >= 0.9 THEN
                CASE WHEN faster THEN 'fewer' ELSE 'more' END
                || CASE count_metric WHEN 'instructions' THEN ' cycles per instruction'
                        ELSE ' cycles than the cache model estimates' END
                || format(' (the user code is %s%% and %s%% of a query''s time: no waiting to %s)',
                          round((100 * s)::numeric), round((100 * s_other)::numeric),
                          CASE WHEN faster THEN 'lose' ELSE 'gain' END)
            WHEN e.expected > 0 AND s_other / e.expected >= 1.25 AND faster THEN
                format('less waiting (the user code went from %s%% to %s%% of a query''s time, %s%% expected)',
                       round((100 * s)::numeric), round((100 * s_other)::numeric), round((100 * e.expected)::numeric))
            WHEN e.expected > 0 AND s_other / e.expected <= 0.8 AND NOT faster THEN
                format('more waiting (the user code went from %s%% to %s%% of a query''s time, %s%% expected)',
                       round((100 * s)::numeric), round((100 * s_other)::numeric), round((100 * e.expected)::numeric))
            WHEN faster THEN CASE count_metric WHEN 'instructions' THEN 'fewer cycles per instruction'
                                 ELSE 'fewer cycles than the cache model estimates' END || ', or less waiting'
            ELSE CASE count_metric WHEN 'instructions' THEN 'more cycles per instruction'
                      ELSE 'more cycles than the cache model estimates' END || ', or more waiting' END
    END
    FROM (SELECT CASE WHEN r > 0 AND s > 0 THEN (s / r) / (s / r + 1 - least(s, 1)) END AS expected) e
$$;

-- Per cell (report column and workload) where base and other have counted
-- and timed runs: the count ratio (count_metric: instructions, or
-- estimated_cycles with --cache-sim) and its interval, as compare() gives
-- them; the base's share s of a query's time in the server's user code
-- and its interval, from its timed runs, and the other's; the QPS ratio
-- the count implies, its interval the widest its two inputs' intervals
-- allow; the measured QPS ratio and its interval; whether they overlap
-- (consistent), a mark ('=' consistent, '>' faster than its instructions,
-- '<' slower, '?' no interval to judge by) and the reason in words; and,
-- where the timed runs were counted by the hardware (instructions_counter
-- perf_event), their instructions and cycles per query as the same ratio
-- base / other.
CREATE OR REPLACE FUNCTION microbench.count_clock(base text, other text, phase text DEFAULT 'post',
                                                  confidence double precision DEFAULT 0.95,
                                                  threshold double precision DEFAULT 0.02,
                                                  count_threshold double precision DEFAULT 0.005,
                                                  count_metric text DEFAULT 'instructions')
RETURNS TABLE (dbms text, workload text, grp text, group_order integer, report_order integer,
               counted double precision, counted_low double precision, counted_high double precision,
               share double precision, share_low double precision, share_high double precision,
               other_share double precision,
               implied double precision, implied_low double precision, implied_high double precision,
               measured double precision, measured_low double precision, measured_high double precision,
               consistent boolean, mark text, reason text,
               hw_instructions double precision, hw_cycles double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
BEGIN
    IF count_metric NOT IN ('instructions', 'estimated_cycles') THEN
        RAISE EXCEPTION 'count_clock compares a count: "%" is none', count_metric
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give count_metric => ''instructions'' or ''estimated_cycles''.';
    END IF;
    RETURN QUERY
    WITH c AS (
        SELECT * FROM microbench.compare(base, other, count_metric, phase, confidence, count_threshold)
    ), q AS (
        SELECT * FROM microbench.compare(base, other, 'qps', phase, confidence, threshold)
    ), shares AS (
        SELECT st.side, st.dbms, st.workload, i.centre, i.low, i.high
        FROM microbench.side_stats(base, other, 'server_user_share', phase) st,
             LATERAL microbench.log_interval(st.mean_log, st.var_log, st.runs, confidence) i
    ), hw AS (
        -- the hardware's own count of the timed runs, where it counted
        SELECT microbench.run_column(r.dbms, r.driver, true) AS dbms, r.workload,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.instructions::float8 / r.queries)
                   FILTER (WHERE r.label = base) AS base_i,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.instructions::float8 / r.queries)
                   FILTER (WHERE r.label = other) AS other_i,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.cycles::float8 / r.queries)
                   FILTER (WHERE r.label = base) AS base_c,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.cycles::float8 / r.queries)
                   FILTER (WHERE r.label = other) AS other_c
        FROM microbench.scoped_runs() r
        WHERE r.label IN (base, other) AND r.phase = count_clock.phase
          AND r.instructions_counter = 'perf_event' AND r.queries > 0
        GROUP BY 1, 2
    ), joined AS (
        SELECT c.dbms, c.workload, c.grp, c.group_order, c.report_order,
               c.ratio AS r, c.ci_low AS r_lo, c.ci_high AS r_hi,
               sb.centre AS s, sb.low AS s_lo, least(sb.high, 1) AS s_hi, so.centre AS s_other,
               q.ratio AS m, q.ci_low AS m_lo, q.ci_high AS m_hi,
               hw.base_i / nullif(hw.other_i, 0) AS hw_i, hw.base_c / nullif(hw.other_c, 0) AS hw_c
        FROM c
        JOIN q ON q.dbms = c.dbms AND q.workload = c.workload
        JOIN shares sb ON sb.side = 'base' AND sb.dbms = c.dbms AND sb.workload = c.workload
        LEFT JOIN shares so ON so.side = 'other' AND so.dbms = c.dbms AND so.workload = c.workload
        LEFT JOIN hw ON hw.dbms = c.dbms AND hw.workload = c.workload
        WHERE c.ratio IS NOT NULL AND q.ratio IS NOT NULL
    ), implied AS (
        -- the implied ratio rises with r, and with s when r > 1 (falls when
        -- r < 1): its extremes lie on the corners of the two intervals
        SELECT j.*, microbench.implied_ratio(j.r, j.s) AS i,
               (SELECT min(microbench.implied_ratio(cr, cs)) FROM unnest(ARRAY[j.r_lo, j.r_hi]) cr,
                       unnest(ARRAY[j.s_lo, j.s_hi]) cs) AS i_lo,
               (SELECT max(microbench.implied_ratio(cr, cs)) FROM unnest(ARRAY[j.r_lo, j.r_hi]) cr,
                       unnest(ARRAY[j.s_lo, j.s_hi]) cs) AS i_hi
        FROM joined j
    ), judged AS (
        SELECT i.*,
               CASE WHEN i.i_lo IS NULL OR i.m_lo IS NULL THEN NULL
                    WHEN i.m_lo > i.i_hi THEN true
                    WHEN i.m_hi < i.i_lo THEN false END AS faster,
               i.i_lo IS NOT NULL AND i.m_lo IS NOT NULL AS judged
        FROM implied i
    )
    SELECT j.dbms, j.workload, j.grp, j.group_order, j.report_order,
           j.r, j.r_lo, j.r_hi, j.s, j.s_lo, j.s_hi, j.s_other,
           j.i, j.i_lo, j.i_hi, j.m, j.m_lo, j.m_hi,
           CASE WHEN j.judged THEN j.faster IS NULL END,
           CASE WHEN NOT j.judged THEN '?' WHEN j.faster IS NULL THEN '='
                WHEN j.faster THEN '>' ELSE '<' END,
           CASE WHEN NOT j.judged THEN 'no interval to judge by: run more rounds'
                WHEN j.faster IS NULL THEN 'consistent: the clock agrees with the count'
                ELSE microbench.count_clock_reason(j.faster, j.r, j.s, j.s_other, count_metric) END,
           j.hw_i, j.hw_c
    FROM judged j
    ORDER BY microbench.dbms_order(j.dbms), j.group_order, j.report_order;
END
$$;

COMMENT ON FUNCTION microbench.count_clock(text, text, text, double precision, double precision,
                                           double precision, text) IS
    'per cell with counted and timed runs of both labels: the count ratio, the base''s share of a query''s time in the server''s user code, the QPS ratio the count implies (1 / (s / r + 1 - s)) and the measured one, each with its interval, and whether they agree (mark =, >, <, ?) with the reason';

-- A ratio as the reports print it (two decimals), '-' for none.
CREATE OR REPLACE FUNCTION microbench.cc_num(x double precision)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(to_char(x, 'FM999990.00'), '-')
$$;

-- How a column's cells lean together, which no single cell's mark says:
-- the geometric mean of measured over implied per column, and how many of
-- its cells measured below what their count implies (cells that each
-- agree can still, most of them, fall on one side).
CREATE OR REPLACE FUNCTION microbench.count_clock_lean(cells microbench.count_clock_cell[])
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 'measured / implied, geometric mean: '
           || string_agg(format('%s %s (%s of %s cells below 1)', microbench.dbms_short(l.dbms), microbench.cc_num(l.lean),
                                l.below, l.cells), ', ' ORDER BY microbench.dbms_order(l.dbms))
    FROM (SELECT x.dbms, exp(avg(ln(x.measured / x.implied))) AS lean,
                 count(*) FILTER (WHERE x.measured < x.implied) AS below, count(*) AS cells
          FROM unnest(cells) x
          WHERE x.measured > 0 AND x.implied > 0
          GROUP BY x.dbms) l
$$;

-- One comparison's count and clock as text, in the seed's layout: a block
-- of rows per group of workloads, four figures a DBMS (count, s, implies,
-- qps and its mark), the workload last; then the legend, how many cells
-- agree per column, and a line for each cell that does not.
CREATE OR REPLACE FUNCTION microbench.count_clock_text(base text, other text, cells microbench.count_clock_cell[],
                                                       count_metric text)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cols   text[];
    g      record;
    w      record;
    out    text := '';
    line   text;
    col    text;
    c      microbench.count_clock_cell;
    cname  text := CASE count_metric WHEN 'instructions' THEN 'count' ELSE 'cycles' END;
BEGIN
    SELECT array_agg(d ORDER BY microbench.dbms_order(d)) INTO cols
    FROM (SELECT DISTINCT x.dbms AS d FROM unnest(cells) x) s;
    FOR g IN SELECT DISTINCT x.grp, x.group_order FROM unnest(cells) x ORDER BY x.group_order LOOP
        out := out || '-- ' || g.grp || E'\n';
        line := '';
        FOREACH col IN ARRAY cols LOOP
            line := line || rpad(microbench.dbms_short(col), 29);
        END LOOP;
        out := out || rtrim(line) || E'\n';
        line := '';
        FOREACH col IN ARRAY cols LOOP
            line := line || rpad(cname, 7) || 's     implies qps      ';
        END LOOP;
        out := out || rtrim(line) || E'\n';
        FOR w IN SELECT DISTINCT x.workload, x.report_order FROM unnest(cells) x
                 WHERE x.group_order = g.group_order ORDER BY x.report_order LOOP
            line := '';
            FOREACH col IN ARRAY cols LOOP
                SELECT * INTO c FROM unnest(cells) x WHERE x.dbms = col AND x.workload = w.workload;
                IF c.dbms IS NULL THEN
                    line := line || rpad('-', 29);
                ELSE
                    line := line || rpad(microbench.cc_num(c.counted), 7) || rpad(microbench.cc_num(c.share), 6)
                            || rpad(microbench.cc_num(c.implied), 8) || rpad(microbench.cc_num(c.measured) || c.mark, 8);
                END IF;
            END LOOP;
            out := out || line || w.workload || E'\n';
        END LOOP;
        out := out || E'\n';
    END LOOP;
    out := out || '-- ' || (SELECT string_agg(microbench.dbms_legend(d, cols), ', ') FROM unnest(cols) d) || E'\n'
        || format(E'-- %s: %s(%s) / %s(%s) per query, above 1: %s runs fewer\n', cname,
                  count_metric, base, count_metric, other, other)
        || format(E'-- s: the share of a query''s time %s''s server spent in its user code, the code a count covers: its user CPU per query over a query''s wall time per client\n', base)
        || format(E'-- implies: the QPS ratio the %s implies if both builds ran %s at the same rate and spent the rest of a query alike: 1 / (s / %s + 1 - s)\n',
                  cname, CASE count_metric WHEN 'instructions' THEN 'their instructions' ELSE 'an estimated cycle' END, cname)
        || format(E'-- qps: QPS(%s) / QPS(%s), measured; =: count and clock agree (the intervals overlap), >: faster than its %s, <: slower, ?: no interval\n',
                  other, base, replace(count_metric, '_', ' '))
        || '-- consistent: '
        || (SELECT string_agg(format('%s %s of %s', microbench.dbms_short(d),
                                     (SELECT count(*) FROM unnest(cells) x WHERE x.dbms = d AND x.consistent),
                                     (SELECT count(*) FROM unnest(cells) x WHERE x.dbms = d)), ', ')
            FROM unnest(cols) d) || E'\n'
        || '-- ' || microbench.count_clock_lean(cells) || E'\n';
    FOR c IN SELECT * FROM unnest(cells) x WHERE x.mark <> '='
             ORDER BY microbench.dbms_order(x.dbms), x.group_order, x.report_order LOOP
        out := out || format(E'-- %s %s: implies %s, measured %s: %s\n', microbench.dbms_short(c.dbms), c.workload,
                             microbench.report_cell_interval(microbench.cc_num(c.implied), c.implied_low, c.implied_high),
                             microbench.report_cell_interval(microbench.cc_num(c.measured), c.measured_low, c.measured_high), c.reason);
    END LOOP;
    -- where the timed runs had hardware counters: what the CPU counted, the same ratio base / other
    FOR c IN SELECT * FROM unnest(cells) x WHERE x.hw_instructions IS NOT NULL
             ORDER BY microbench.dbms_order(x.dbms), x.group_order, x.report_order LOOP
        out := out || format(E'-- hardware counters: %s %s: instructions %s, cycles %s (%s / %s per query of the timed runs)\n',
                             microbench.dbms_short(c.dbms), c.workload, microbench.cc_num(c.hw_instructions),
                             microbench.cc_num(c.hw_cycles), base, other);
    END LOOP;
    RETURN rtrim(out, E'\n');
END
$$;

-- The same as a markdown table, a row per cell, every figure with its interval.
CREATE OR REPLACE FUNCTION microbench.count_clock_markdown(base text, other text, cells microbench.count_clock_cell[],
                                                           count_metric text)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format(E'| | workload | %s(%s) / %s(%s) | s (%s) | implied QPS ratio | measured QPS(%s) / QPS(%s) | |\n|---|---|---|---|---|---|---|\n',
                  count_metric, base, count_metric, other, base, other, base)
           || string_agg(format(E'| %s | %s | %s | %s | %s | %s | %s %s |', microbench.dbms_short(x.dbms), x.workload,
                                microbench.report_cell_interval(microbench.cc_num(x.counted), x.counted_low, x.counted_high),
                                microbench.report_cell_interval(microbench.cc_num(x.share), x.share_low, x.share_high),
                                microbench.report_cell_interval(microbench.cc_num(x.implied), x.implied_low, x.implied_high),
                                microbench.report_cell_interval(microbench.cc_num(x.measured), x.measured_low, x.measured_high),
                                x.mark, x.reason),
                         E'\n' ORDER BY microbench.dbms_order(x.dbms), x.group_order, x.report_order)
           || E'\n\n' || format('s: the share of a query''s time %s''s server spent in its user code (user CPU per query over a query''s wall time per client), the code a count covers; implied: 1 / (s / r + 1 - s), what the count ratio r means for QPS if both builds ran their instructions at the same rate; =: count and clock agree (the intervals overlap), >: QPS faster than its instructions, <: slower, ?: no interval to judge by. The cells together, %s.', base,
                                microbench.count_clock_lean(cells))
    FROM unnest(cells) x
$$;

-- The count-and-clock report of base against each of others: text (the
-- seed's layout), markdown or svg (42_count_clock_svg.sql), from
-- instructions and, where the counted runs simulated the caches
-- (--cache-sim), from estimated cycles too.  '' when no cell has both.
CREATE OR REPLACE FUNCTION microbench.count_clock_report(base text, others text[], format text DEFAULT 'text',
                                                         phase text DEFAULT 'post',
                                                         confidence double precision DEFAULT 0.95,
                                                         threshold double precision DEFAULT 0.02,
                                                         count_threshold double precision DEFAULT 0.005)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    other  text;
    metric text;
    cells  microbench.count_clock_cell[];
    parts  text[] := '{}';
    body   text;
BEGIN
    IF format NOT IN ('text', 'markdown', 'svg') THEN
        RAISE EXCEPTION 'count_clock_report writes text, markdown or svg, not "%"', format
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Give format => ''text'', ''markdown'' or ''svg''.';
    END IF;
    FOREACH other IN ARRAY others LOOP
        FOREACH metric IN ARRAY ARRAY['instructions', 'estimated_cycles'] LOOP
            cells := ARRAY(SELECT ROW(c.*)::microbench.count_clock_cell
                           FROM microbench.count_clock(base, other, phase, confidence, threshold,
                                                       count_threshold, metric) c);
            CONTINUE WHEN cardinality(cells) = 0;
            body := CASE format
                WHEN 'text' THEN microbench.count_clock_text(base, other, cells, metric)
                WHEN 'markdown' THEN microbench.count_clock_markdown(base, other, cells, metric)
                ELSE microbench.count_clock_svg(base, other, cells, metric) END;
            parts := parts || CASE format
                WHEN 'text' THEN format(E'-- count and clock: %s vs %s, from %s\n\n', other, base,
                                        replace(metric, '_', ' ')) || body
                WHEN 'markdown' THEN format(E'### Count and clock: %s vs %s, from %s\n\n', other, base,
                                            replace(metric, '_', ' ')) || body
                ELSE body END;
        END LOOP;
    END LOOP;
    RETURN CASE WHEN format = 'svg' THEN microbench.svg_stack(parts)
                ELSE array_to_string(parts, E'\n\n') END;
END
$$;

COMMENT ON FUNCTION microbench.count_clock_report(text, text[], text, text, double precision, double precision,
                                                  double precision) IS
    'count and clock side by side for base against each of others, as text, markdown or svg: count_clock() laid out';
