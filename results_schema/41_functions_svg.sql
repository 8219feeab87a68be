-- 41_functions_svg.sql — the functions behind a counted report's cells,
-- drawn under its SVG chart (report_svg, 40_svg.sql).
--
-- For the cells of each report column whose counts differ most (the
-- largest change of instructions a query, in either direction; at most
-- cells of them) and in which some function differs beyond the count's
-- spread, a block each: the cell and
-- its difference, then its first functions by difference
-- (compare_functions, 32_functions.sql) as bars from a zero line, right
-- for more instructions in the other build, left for fewer, scaled to the
-- block's largest, its figure at the right; a function within the count's
-- spread is drawn light.
-- Elements carry data-* attributes as the chart's do.

CREATE OR REPLACE FUNCTION microbench.functions_svg(base text, other text, phase text,
                                                    confidence double precision,
                                                    base_driver text, other_driver text,
                                                    y0 double precision, chart_w integer, margin integer,
                                                    cells integer DEFAULT 3, top integer DEFAULT 5,
                                                    OUT svg text, OUT height double precision)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    label_w   constant integer := 330;  -- function names, right-aligned
    value_w   constant integer := 80;   -- room for a bar's figure
    row_h     constant integer := 16;
    bar_h     constant integer := 11;
    more      constant text := '#d62728';  -- the other build runs more instructions
    fewer     constant text := '#2ca02c';
    text_colour  constant text := '#222222';
    muted_colour constant text := '#555555';
    b         text := microbench.side_name(base, base_driver);
    o         text := microbench.side_name(other, other_driver);
    rows      microbench.function_difference[];
    cell      record;
    f         record;
    x0        double precision := (margin + label_w + 10 + chart_w - margin - value_w) / 2.0;
    half      double precision := (chart_w - margin - value_w - (margin + label_w + 10)) / 2.0;
    y         double precision := y0;
    scale     double precision;
    w         double precision;
    parts     text[] := '{}';
BEGIN
    rows := ARRAY(SELECT c FROM microbench.compare_functions(base, other, NULL, NULL, phase, confidence,
                                                            base_driver => base_driver,
                                                            other_driver => other_driver) c);
    IF cardinality(rows) = 0 THEN
        RETURN;
    END IF;
    y := y + 16;
    parts := parts || format('<text class="functions-title" x="%s" y="%s" font-size="14" font-weight="bold" fill="%s">%s</text>',
                             margin, y, text_colour, microbench.svg_escape(format(
                                 'Where the differences come from: instructions a query, %s − %s, per function', o, b)));
    y := y + 15;
    parts := parts || format('<text class="functions-caption" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                             margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'per column, up to %s cells whose counts differ most, each with its first %s functions; red: %s runs more; light: not a difference',
                                 cells, top, o), chart_w - 2 * margin, 11)));
    FOR cell IN
        SELECT cell_rows.dbms, cell_rows.workload, cell_rows.cb, cell_rows.co, cell_rows.cd, cell_rows.shown,
               cell_rows.largest
        FROM (SELECT c.*, row_number() OVER (PARTITION BY c.dbms ORDER BY abs(ln(c.co / c.cb)) DESC, c.workload) AS k
              FROM (SELECT r.dbms, r.workload, min(r.cell_base) AS cb, min(r.cell_other) AS co,
                           min(r.cell_difference) AS cd,
                           sum(r.self_difference) FILTER (WHERE r.rank <= top) AS shown,
                           max(abs(r.self_difference)) FILTER (WHERE r.rank <= top) AS largest
                    FROM unnest(rows) r
                    GROUP BY r.dbms, r.workload
                    HAVING min(r.cell_base) > 0 AND min(r.cell_other) > 0 AND min(r.cell_difference) <> 0
                       AND bool_or(r.differs)) c) cell_rows
        WHERE cell_rows.k <= cells
        ORDER BY microbench.dbms_order(cell_rows.dbms), cell_rows.k
    LOOP
        y := y + 26;
        parts := parts || format('<text class="functions-cell" data-dbms="%s" data-workload="%s" data-difference="%s" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s">%s</text>',
                                 microbench.svg_escape(cell.dbms), microbench.svg_escape(cell.workload),
                                 round(cell.cd::numeric, 1), margin, y, text_colour,
                                 microbench.svg_escape(microbench.svg_fit(format(
                                     '%s %s: %s instructions a query (%s → %s, %s%%); the first %s: %s (%s%%)',
                                     microbench.dbms_short(cell.dbms), cell.workload,
                                     microbench.format_instructions(cell.cd, true),
                                     microbench.format_instructions(cell.cb), microbench.format_instructions(cell.co),
                                     CASE WHEN cell.cd > 0 THEN '+' ELSE '' END
                                         || round((100 * cell.cd / cell.cb)::numeric, 1),
                                     top, microbench.format_instructions(cell.shown, true),
                                     round((100 * cell.shown / cell.cd)::numeric, 1)), chart_w - 2 * margin, 12)));
        y := y + 6;
        scale := half / greatest(cell.largest, 1e-9);
        parts := parts || format('<line class="functions-zero" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000000" stroke-width="1" shape-rendering="crispEdges"/>',
                                 x0, y, x0, y + top * row_h);
        FOR f IN
            SELECT * FROM unnest(rows) r
            WHERE r.dbms = cell.dbms AND r.workload = cell.workload AND r.rank <= top
            ORDER BY r.rank
        LOOP
            -- to a hundredth of a pixel: a sum's last digits depend on
            -- the order its rows were added in, and the SVG must not
            w := round(greatest(abs(f.self_difference) * scale, 1)::numeric, 2);
            parts := parts
                || format('<text class="functions-name" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                          margin + label_w, y + bar_h, text_colour,
                          microbench.svg_escape(microbench.svg_fit(
                              microbench.function_caption(f.object, f.function) || ' [' || f.object || ']', label_w, 11)))
                || format('<rect class="functions-bar" data-function="%s" data-difference="%s" data-differs="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s shape-rendering="crispEdges"/>',
                          microbench.svg_escape(f.function), round(f.self_difference::numeric, 1),
                          coalesce(f.differs::text, 'unknown'),
                          round((CASE WHEN f.self_difference >= 0 THEN x0 ELSE x0 - w END)::numeric, 2)::float8,
                          y + 2, w, bar_h,
                          CASE WHEN f.self_difference >= 0 THEN more ELSE fewer END,
                          CASE WHEN f.differs THEN '' ELSE ' fill-opacity="0.35"' END)
                || format('<text class="functions-value" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                          chart_w - margin, y + bar_h, muted_colour,
                          microbench.format_instructions(f.self_difference, true));
            y := y + row_h;
        END LOOP;
    END LOOP;
    svg := array_to_string(parts, E'\n');
    height := y - y0 + 8;
END
$$;

COMMENT ON FUNCTION microbench.functions_svg(text, text, text, double precision, text, text, double precision, integer, integer, integer, integer) IS
    'SVG elements under a counted chart: for the cells whose counts differ most, the functions that make the difference, as bars';
