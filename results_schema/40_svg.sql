-- 40_svg.sql — the relative-QPS report as an SVG bar chart.
--
-- microbench.report_svg() draws the grid of microbench.report_grid()
-- (30_reports.sql) as a standalone SVG document that a browser shows as is:
-- one row per microbenchmark in report order under its group heading, one
-- horizontal bar per column (DBMS, or label in a relative series) that
-- diverges from a vertical reference line at ratio 1.0 — right when the
-- other label is higher, left when it is lower — with the ratio written
-- beside it.  Missing cells get a grey "no data" dash, never a bar (a row
-- with no data at all gets one dash); cells within the noise are drawn as
-- a lighter hatched bar.  bench_report(...,
-- 'svg') calls it.
--
-- Plain SQL and PL/pgSQL, loadable into any Postgres >= 13 without the C
-- extension; like the rest of results_schema it is also part of the
-- extension's install script, so no transaction control and no psql
-- meta-commands.
--
-- Elements carry data-* attributes (column, ratio, colours, slot geometry)
-- so that test/report/check_svg.py can check the rendered picture against
-- what the SVG meant to draw.

-- Text made safe for XML character data and attribute values: markup
-- characters escaped, characters XML 1.0 forbids dropped and, in a UTF8
-- database, non-ASCII characters written as character references so the
-- document is plain ASCII whatever the client encoding.
CREATE OR REPLACE FUNCTION microbench.svg_escape(t text)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN getdatabaseencoding() = 'UTF8' AND s ~ E'[^\\x01-\\x7f]'
                THEN (SELECT string_agg(CASE WHEN ascii(c) > 127 THEN '&#' || ascii(c) || ';' ELSE c END,
                                        '' ORDER BY n)
                      FROM regexp_split_to_table(s, '') WITH ORDINALITY AS x(c, n))
                ELSE s END
    FROM (SELECT replace(replace(replace(replace(replace(
                     regexp_replace(t, E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]', '', 'g'),
                     '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;') AS s) e
$$;

COMMENT ON FUNCTION microbench.svg_escape(text) IS
    'text escaped for SVG/XML character data and attribute values';

-- A coordinate for SVG: one decimal, locale-independent.
CREATE OR REPLACE FUNCTION microbench.svg_num(x double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$ SELECT round(x::numeric, 1)::text $$;

-- Text cut to about max_px pixels at font size px ("..." marks the cut),
-- by the same estimate of glyph widths the layout uses.
CREATE OR REPLACE FUNCTION microbench.svg_fit(t text, max_px double precision, px double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN length(t) * px * 0.58 <= max_px THEN t
                ELSE left(t, greatest(floor(max_px / (px * 0.58))::integer - 3, 1)) || '...' END
$$;

-- The colour of report column i (1-based) as #rrggbb, mixed with white by
-- the fraction tint (0: the colour itself, 1: white).  Nine fixed colours
-- that stay apart from the greys of the chart, then golden-angle hues,
-- alternately darker and lighter than the fixed ones.
CREATE OR REPLACE FUNCTION microbench.svg_colour(i integer, tint double precision DEFAULT 0)
RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    palette constant text[] := ARRAY['1f77b4', 'ff7f0e', '2ca02c', 'd62728', '9467bd',
                                     '8c564b', 'e377c2', 'bcbd22', '17becf'];
    rgb     double precision[];
    h       double precision;
    s       constant double precision := 0.7;
    l       double precision := CASE WHEN i % 2 = 0 THEN 0.30 ELSE 0.55 END;  -- dark, light, ...
    c       double precision;
    x       double precision;
    m       double precision;
BEGIN
    IF i BETWEEN 1 AND array_length(palette, 1) THEN
        rgb := ARRAY[('x' || substr(palette[i], 1, 2))::bit(8)::integer,
                     ('x' || substr(palette[i], 3, 2))::bit(8)::integer,
                     ('x' || substr(palette[i], 5, 2))::bit(8)::integer];
    ELSE
        -- HSL to RGB
        h := ((i - 10) * 137.508 + 15)::numeric % 360;
        c := (1 - abs(2 * l - 1)) * s;
        x := c * (1 - abs((h / 60)::numeric % 2 - 1));
        m := l - c / 2;
        rgb := CASE floor(h / 60)::integer
                   WHEN 0 THEN ARRAY[c, x, 0] WHEN 1 THEN ARRAY[x, c, 0]
                   WHEN 2 THEN ARRAY[0, c, x] WHEN 3 THEN ARRAY[0, x, c]
                   WHEN 4 THEN ARRAY[x, 0, c] ELSE ARRAY[c, 0, x] END;
        rgb := ARRAY[(rgb[1] + m) * 255, (rgb[2] + m) * 255, (rgb[3] + m) * 255];
    END IF;
    RETURN '#' || lpad(to_hex(round(rgb[1] + (255 - rgb[1]) * tint)::integer), 2, '0')
               || lpad(to_hex(round(rgb[2] + (255 - rgb[2]) * tint)::integer), 2, '0')
               || lpad(to_hex(round(rgb[3] + (255 - rgb[3]) * tint)::integer), 2, '0');
END
$$;

COMMENT ON FUNCTION microbench.svg_colour(integer, double precision) IS
    'colour #rrggbb of report column i in the SVG chart, optionally mixed with white';

-- The chart.  base, others, phase and metric as for report_grid();
-- by_label: one column per other label (per DBMS) instead of one per DBMS.
CREATE OR REPLACE FUNCTION microbench.report_svg(base text, others text[], phase text DEFAULT 'post',
                                                 metric text DEFAULT 'qps', by_label boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- layout, in px
    chart_w   constant integer := 960;
    margin    constant integer := 16;
    bar_h     constant integer := 12;   -- one bar
    bar_gap   constant integer := 3;    -- between the bars of a row
    row_pad   constant integer := 5;    -- above and below the bars of a row
    head_h    constant integer := 28;   -- group heading band
    side_pad  constant integer := 52;   -- room beside the axis for ratio text
    char_w    constant double precision := 0.58;  -- estimated mean glyph width, em
    -- colours
    ref_colour    constant text := '#000000';
    grid_colour   constant text := '#dddddd';
    nodata_colour constant text := '#9e9e9e';
    text_colour   constant text := '#222222';
    muted_colour  constant text := '#555555';
    noise_tint    constant double precision := 0.62;

    grid      jsonb;
    title     text;
    item      text;
    mname     text := upper(metric);
    ncols     integer;
    col_name  text[] := '{}';
    col_dbms  text[] := '{}';
    col_order integer[] := '{}';
    many_dbms boolean;
    c         record;
    g         record;
    w         record;
    cell      record;
    i         integer;
    lo        double precision;
    hi        double precision;
    step      double precision;
    decimals  integer;
    e         integer;
    m         integer;
    label_w   integer;
    px_lo     double precision;
    px_hi     double precision;
    ref_x     double precision;
    x         double precision;
    xr        double precision;
    y         double precision;
    sy        double precision;
    row_h     integer;                  -- a row with data: a slot per column
    rh        integer;                  -- the current row
    plot_top  double precision;
    plot_bot  double precision;
    lx        double precision;
    item_w    double precision;
    v         double precision;
    n         integer;
    row_no    integer := 0;
    repeats   boolean;
    has_noise boolean;
    has_gap   boolean;
    finite    boolean;
    defs      text[] := '{}';
    bands     text[] := '{}';
    gridlines text[] := '{}';
    bars      text[] := '{}';
    texts     text[] := '{}';
    header    text[] := '{}';
BEGIN
    title := CASE WHEN coalesce(array_length(others, 1), 0) = 1
                  THEN format('%s(%s) / %s(%s)', mname, others[1], mname, base)
                  ELSE format('%s(label) / %s(%s), label in %s', mname, mname, base,
                              coalesce(array_to_string(others, ', '), '(none)')) END;

    SELECT jsonb_agg(to_jsonb(r)) INTO grid
    FROM microbench.report_grid(base, others, metric, phase, by_label) r;

    IF grid IS NULL THEN
        RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
            || '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120" viewBox="0 0 640 120"'
            || ' font-family="sans-serif" data-empty="true">' || E'\n'
            || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
            || '<rect width="640" height="120" fill="#ffffff"/>' || E'\n'
            || format('<text class="title" x="%s" y="36" font-size="16" font-weight="bold" fill="%s">%s</text>',
                      margin, text_colour, microbench.svg_escape(title)) || E'\n'
            || format('<text x="%s" y="76" font-size="14" fill="%s">no data: no runs of these labels in phase %s</text>',
                      margin, muted_colour, microbench.svg_escape(phase)) || E'\n'
            || '</svg>' || E'\n';
    END IF;

    -- the columns, in report order
    FOR c IN
        SELECT r.column_order, r.column_name, r.dbms
        FROM jsonb_to_recordset(grid) AS r(column_order integer, column_name text, dbms text)
        GROUP BY 1, 2, 3
        ORDER BY r.column_order, microbench.dbms_order(r.dbms), r.column_name
    LOOP
        col_order := col_order || c.column_order;
        col_name := col_name || c.column_name;
        col_dbms := col_dbms || c.dbms;
    END LOOP;
    ncols := array_length(col_name, 1);
    SELECT count(DISTINCT d) > 1 INTO many_dbms FROM unnest(col_dbms) d;

    SELECT min(r.ratio) FILTER (WHERE r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')),
           max(r.ratio) FILTER (WHERE r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')),
           coalesce(bool_or(r.repeated), false),
           coalesce(bool_or(r.within_noise), false),
           bool_or(r.ratio IS NULL OR r.ratio IN ('NaN', 'Infinity', '-Infinity')),
           max(length(r.workload))
    INTO lo, hi, repeats, has_noise, has_gap, n
    FROM jsonb_to_recordset(grid) AS r(ratio double precision, repeated boolean, within_noise boolean,
                                       workload text);

    -- the axis: covers every ratio and at least 0.9 .. 1.1, at most 8 ticks apart
    lo := least(coalesce(lo, 1), 0.9);
    hi := greatest(coalesce(hi, 1), 1.1);
    <<pick>>
    FOR e IN -2 .. 12 LOOP
        FOREACH m IN ARRAY ARRAY[1, 2, 5] LOOP
            step := m * 10.0 ^ e;
            decimals := greatest(-e, 0);
            EXIT pick WHEN (ceil(hi / step - 1e-9) - floor(lo / step + 1e-9)) <= 8;
        END LOOP;
    END LOOP;
    lo := floor(lo / step + 1e-9) * step;
    hi := ceil(hi / step - 1e-9) * step;

    -- horizontal layout: workload names, then the plot between px_lo and px_hi
    label_w := greatest(120, ceil(n * 12 * char_w)::integer + 12);
    px_lo := margin + label_w + side_pad;
    px_hi := chart_w - margin - side_pad;
    ref_x := round(px_lo + (1 - lo) / (hi - lo) * (px_hi - px_lo));

    -- title, subtitle, legend
    y := margin + 18;
    -- a long title (long labels) gets a smaller font, then is cut; <title> keeps it whole
    v := least(17, greatest(13, floor((chart_w - 2 * margin) / (length(title) * 0.62))));
    header := header || format('<text class="title" x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s">%s</text>',
                               margin, y, v, text_colour,
                               microbench.svg_escape(microbench.svg_fit(title, (chart_w - 2 * margin) * 0.58 / 0.62, v)));
    y := y + 20;
    header := header || format('<text class="subtitle" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                               margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                   'phase %s; %s; bars right of 1.0: %s higher than %s, left: lower',
                                   phase, CASE WHEN repeats THEN 'median of each label''s runs' ELSE 'one run per label' END,
                                   CASE WHEN coalesce(array_length(others, 1), 0) = 1 THEN others[1] ELSE 'label' END,
                                   base), chart_w - 2 * margin, 12)));
    y := y + 24;
    lx := margin;
    FOR i IN 1 .. ncols + 2 LOOP
        IF i <= ncols THEN
            item := CASE WHEN by_label THEN col_name[i] || CASE WHEN many_dbms THEN ' (' || coalesce(microbench.dbms_short(col_dbms[i]), col_dbms[i]) || ')' ELSE '' END
                          ELSE col_name[i] || ' (' || col_dbms[i] || ')' END;
        ELSIF i = ncols + 1 THEN
            CONTINUE WHEN NOT has_noise;
            item := 'lighter, hatched (~): within the noise';
        ELSE
            CONTINUE WHEN NOT has_gap;
            item := 'no data (-)';
        END IF;
        item := microbench.svg_fit(item, chart_w - 2 * margin - 22, 12);
        item_w := 22 + length(item) * 12 * char_w + 22;
        IF lx > margin AND lx + item_w > chart_w - margin THEN
            lx := margin;
            y := y + 20;
        END IF;
        IF i <= ncols THEN
            header := header || format('<rect class="swatch" data-col="%s" x="%s" y="%s" width="16" height="12" fill="%s" shape-rendering="crispEdges"/>',
                                       i, lx, y - 10, microbench.svg_colour(i));
        ELSIF i = ncols + 1 THEN
            header := header || format('<rect class="swatch-noise" x="%s" y="%s" width="16" height="12" fill="url(#hatch-legend)" stroke="#777777" stroke-width="1" shape-rendering="crispEdges"/>',
                                       lx + 0.5, y - 9.5);
        ELSE
            header := header || format('<rect class="swatch-nodata" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                       lx + 2, y - 5, nodata_colour);
        END IF;
        header := header || format('<text class="legend"%s x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                   CASE WHEN i <= ncols THEN format(' data-col="%s"', i) ELSE '' END,
                                   lx + 22, y, text_colour, microbench.svg_escape(item));
        lx := lx + item_w;
    END LOOP;

    -- hatch patterns: one for the legend, one per column
    defs := defs || format('<pattern id="hatch-legend" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="#dddddd"/><rect width="2" height="6" fill="#777777"/></pattern>');
    FOR i IN 1 .. ncols LOOP
        defs := defs || format('<pattern id="hatch-%s" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="%s"/><rect width="2" height="6" fill="%s"/></pattern>',
                               i, microbench.svg_colour(i, noise_tint), microbench.svg_colour(i));
    END LOOP;

    -- the rows
    y := y + 30;                       -- room for the tick labels above the plot
    plot_top := y;
    row_h := ncols * bar_h + (ncols - 1) * bar_gap + 2 * row_pad;
    FOR g IN
        SELECT DISTINCT r.group_order, r.grp
        FROM jsonb_to_recordset(grid) AS r(group_order integer, grp text)
        ORDER BY 1
    LOOP
        bands := bands || format('<rect class="group-band" x="%s" y="%s" width="%s" height="%s" fill="#e9edf2" shape-rendering="crispEdges"/>',
                                 margin, y, chart_w - 2 * margin, head_h);
        texts := texts || format('<text class="group" x="%s" y="%s" font-size="13" font-weight="bold" fill="%s">%s</text>',
                                 margin + 6, y + head_h / 2 + 5, text_colour, microbench.svg_escape(g.grp));
        y := y + head_h;
        FOR w IN
            SELECT r.report_order, r.workload,
                   coalesce(bool_or(r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')), false) AS has_data
            FROM jsonb_to_recordset(grid) AS r(group_order integer, report_order integer, workload text,
                                               ratio double precision)
            WHERE r.group_order = g.group_order
            GROUP BY 1, 2
            ORDER BY 1
        LOOP
            row_no := row_no + 1;
            -- a row without any data is one slot high, with one mark
            rh := CASE WHEN w.has_data THEN row_h ELSE bar_h + 2 * row_pad END;
            IF row_no % 2 = 0 THEN
                bands := bands || format('<rect x="%s" y="%s" width="%s" height="%s" fill="#f6f6f6" shape-rendering="crispEdges"/>',
                                         margin, y, chart_w - 2 * margin, rh);
            END IF;
            texts := texts || format('<text class="workload" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                     margin + 14, y + rh / 2.0 + 4, text_colour, microbench.svg_escape(w.workload));
            IF NOT w.has_data THEN
                sy := y + row_pad;
                bars := bars || format('<rect class="nodata" data-col="*" data-slot-y="%s" data-slot-h="%s" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                       sy, bar_h, ref_x + 4, sy + bar_h / 2 - 1, nodata_colour);
                texts := texts || format('<text class="nodata-text" x="%s" y="%s" font-size="11" font-style="italic" fill="%s">no data</text>',
                                         ref_x + 20, sy + bar_h / 2 + 4, nodata_colour);
                y := y + rh;
                CONTINUE;
            END IF;
            FOR i IN 1 .. ncols LOOP
                sy := y + row_pad + (i - 1) * (bar_h + bar_gap);
                SELECT r.ratio, r.cell, coalesce(r.within_noise, false) AS noise INTO cell
                FROM jsonb_to_recordset(grid) AS r(column_order integer, dbms text, report_order integer,
                                                   ratio double precision, cell text, within_noise boolean)
                WHERE r.column_order = col_order[i] AND r.dbms IS NOT DISTINCT FROM col_dbms[i]
                  AND r.report_order = w.report_order;
                finite := cell.ratio IS NOT NULL AND cell.ratio NOT IN ('NaN', 'Infinity', '-Infinity');
                IF NOT finite THEN
                    bars := bars || format('<rect class="nodata" data-col="%s" data-slot-y="%s" data-slot-h="%s" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                           i, sy, bar_h, ref_x + 4, sy + bar_h / 2 - 1, nodata_colour);
                    texts := texts || format('<text class="nodata-text" x="%s" y="%s" font-size="11" font-style="italic" fill="%s">no data</text>',
                                             ref_x + 20, sy + bar_h / 2 + 4, nodata_colour);
                    CONTINUE;
                END IF;
                xr := px_lo + (cell.ratio - lo) / (hi - lo) * (px_hi - px_lo);
                x := least(xr, ref_x);
                bars := bars || format('<rect class="bar%s" data-col="%s" data-ratio="%s" data-colour="%s" data-tint="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s shape-rendering="crispEdges"/>',
                                       CASE WHEN cell.noise THEN ' noise' ELSE '' END, i, cell.ratio,
                                       microbench.svg_colour(i), microbench.svg_colour(i, noise_tint),
                                       microbench.svg_num(x), sy, microbench.svg_num(greatest(abs(xr - ref_x), 1)), bar_h,
                                       CASE WHEN cell.noise THEN format('url(#hatch-%s)', i) ELSE microbench.svg_colour(i) END,
                                       CASE WHEN cell.noise THEN format(' stroke="%s" stroke-width="1"', microbench.svg_colour(i)) ELSE '' END);
                texts := texts || CASE WHEN cell.ratio >= 1
                    THEN format('<text class="value" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                microbench.svg_num(greatest(xr, ref_x) + 4), sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell))
                    ELSE format('<text class="value" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                                microbench.svg_num(xr - 4), sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell)) END;
            END LOOP;
            y := y + rh;
        END LOOP;
    END LOOP;
    plot_bot := y;

    -- the axis: grid lines and tick labels above and below the plot
    FOR i IN 0 .. round((hi - lo) / step)::integer LOOP
        v := lo + i * step;
        x := round(px_lo + (v - lo) / (hi - lo) * (px_hi - px_lo));
        CONTINUE WHEN abs(x - ref_x) < 1;   -- the reference line is drawn on its own
        gridlines := gridlines || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                                         x + 0.5, plot_top - 6, x + 0.5, plot_bot + 6, grid_colour);
        CONTINUE WHEN abs(x - ref_x) < 30;  -- no label crowding the 1.0 label
        texts := texts || format('<text class="tick" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                 x, plot_top - 11, muted_colour, to_char(v, 'FM999999990' || CASE WHEN decimals > 0 THEN '.' || repeat('0', decimals) ELSE '' END))
                         || format('<text class="tick" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                   x, plot_bot + 20, muted_colour, to_char(v, 'FM999999990' || CASE WHEN decimals > 0 THEN '.' || repeat('0', decimals) ELSE '' END));
    END LOOP;
    -- the reference line at 1.0, over the bars
    bars := bars || format('<line id="ref-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>',
                           ref_x, plot_top - 6, ref_x, plot_bot + 6, ref_colour);
    texts := texts || format('<text class="tick ref" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_top - 11, ref_colour)
                   || format('<text class="tick ref" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_bot + 20, ref_colour);
    y := plot_bot + 26;
    IF repeats THEN
        y := y + 16;
        texts := texts || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                 margin, y, muted_colour,
                                 'cells: median of each label''s runs; ~ (hatched) marks a ratio within the noise (|ratio - 1| &lt;= the larger (max - min) / median of the two sides)');
    END IF;
    y := y + margin;

    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif"'
                  ' data-ref-x="%s" data-plot-top="%s" data-plot-bottom="%s" data-ref-colour="%s" data-nodata-colour="%s"'
                  ' data-columns="%s" data-axis="%s %s %s">',
                  chart_w, ceil(y), chart_w, ceil(y), ref_x, plot_top, plot_bot, ref_colour, nodata_colour,
                  ncols, lo, hi, step) || E'\n'
        || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
        || '<defs>' || array_to_string(defs, '') || '</defs>' || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', chart_w, ceil(y)) || E'\n'
        || array_to_string(header, E'\n') || E'\n'
        || array_to_string(bands, E'\n') || E'\n'
        || array_to_string(gridlines, E'\n') || E'\n'
        || array_to_string(bars, E'\n') || E'\n'
        || array_to_string(texts, E'\n') || E'\n'
        || '</svg>' || E'\n';
END
$fn$;

COMMENT ON FUNCTION microbench.report_svg(text, text[], text, text, boolean) IS
    'relative report as a standalone SVG bar chart: ratio other/base per microbenchmark and column, diverging from 1.0';
