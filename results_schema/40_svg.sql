-- 40_svg.sql — the relative-QPS report as an SVG bar chart.
--
-- microbench.report_svg() draws the grid of microbench.report_grid()
-- (31_reports.sql) as a standalone SVG document that a browser shows as is:
-- one row per microbenchmark in report order under its group heading (a
-- band of its own that no bar or line crosses), one horizontal bar per
-- column (DBMS, or label in a relative series) that diverges from a
-- vertical reference line at ratio 1.0 on a log axis — right when the other
-- label is higher, left when it is lower — with the ratio written beyond
-- it.  A cell with a confidence interval gets a whisker from ci_low to
-- ci_high over its bar, with an arrow where the interval runs past the axis
-- end.  Missing cells get a grey "no data" dash, never a bar (a row with no
-- data at all gets one dash); cells that are not a difference (the same
-- within the threshold, "=", or not decided, "?": compare()'s verdicts)
-- are drawn as a lighter hatched bar, the mark beside the ratio.  The legend says what the columns and
-- pg/pg-wire/my/ma are (dbms_legend: beside pg-wire, pg says it is
-- in-server), the caption what whiskers and hatching mean.
-- bench_report(..., 'svg') calls it.
--
-- Plain SQL and PL/pgSQL, loadable into any Postgres >= 13 without the C
-- extension; like the rest of results_schema it is also part of the
-- extension's install script, so no transaction control and no psql
-- meta-commands.
--
-- Elements carry data-* attributes (column, ratio, interval, colours, slot
-- geometry, the axis mapping x = data-ref-x + ln(ratio) * data-px-per-ln)
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

-- A ratio as a tick label: 0.05, 0.8, 1.25, 20.
CREATE OR REPLACE FUNCTION microbench.svg_tick(v double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$ SELECT trim_scale(round(v::numeric, 6))::text $$;

-- The chart.  base, others, phase, metric, confidence and threshold as for
-- report_grid(); by_label: one column per other label (per DBMS) instead of
-- one per DBMS (with no driver chosen, Postgres over the wire is a DBMS
-- column of its own, pg-wire); driver, base_driver and other_driver choose
-- the runs as for bench_report(), and the title then names each side by
-- label and driver ("QPS(gcc over pgsql) / QPS(gcc in-server)").
--
-- The ratio axis is logarithmic, so that 0.5 and 2 are bars of one length
-- and a 20x write leaves room for a 0.95 read.  Each side of 1.0 reaches the
-- farthest ratio on that side, and the intervals up to 1.5 times beyond it
-- (an interval reaching farther is cut at the axis end, which then gets an
-- arrow instead of a cap), rounded up to 1.1, 1.25, 1.5, 2, 3, 5, 10, 20,
-- 30, 50, ... (1/those on the left).
CREATE OR REPLACE FUNCTION microbench.report_svg(base text, others text[], phase text DEFAULT 'post',
                                                 metric text DEFAULT 'qps', by_label boolean DEFAULT false,
                                                 confidence double precision DEFAULT 0.95,
                                                 threshold double precision DEFAULT 0.02,
                                                 driver text DEFAULT NULL, base_driver text DEFAULT NULL,
                                                 other_driver text DEFAULT NULL)
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
    head_h    constant integer := 28;   -- group heading band, nothing else drawn in it
    side_pad  constant integer := 56;   -- room beside the axis for ratio text
    tick_gap  constant integer := 42;   -- least distance between tick labels
    cap_h     constant integer := 4;    -- whisker caps: cy - cap_h .. cy + cap_h
    arrow_w   constant integer := 7;    -- the arrow of a cut whisker end
    char_w    constant double precision := 0.58;  -- estimated mean glyph width, em
    -- the axis ends a side can have (the left side: 1 / these)
    ends      constant double precision[] := ARRAY[1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500,
                                                   1e3, 2e3, 3e3, 5e3, 1e4, 2e4, 3e4, 5e4, 1e5, 2e5, 3e5, 5e5, 1e6];
    -- tick candidates, from 1.0 outwards
    ticks_r   constant double precision[] := ARRAY[1.05, 1.1, 1.25, 2, 5, 10, 20, 50, 100, 200, 500,
                                                   1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];
    ticks_l   constant double precision[] := ARRAY[0.95, 0.9, 0.8, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002,
                                                   1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6];
    -- colours
    ref_colour     constant text := '#000000';
    grid_colour    constant text := '#dddddd';
    band_colour    constant text := '#e9edf2';
    nodata_colour  constant text := '#9e9e9e';
    whisker_colour constant text := '#111111';
    text_colour    constant text := '#222222';
    muted_colour   constant text := '#555555';
    noise_tint     constant double precision := 0.62;

    bd        text := coalesce(base_driver, driver);
    od        text := coalesce(other_driver, driver);
    panel     record;
    -- the sides by name: the label, and its driver when one was chosen
    base_name text := microbench.side_name(base, bd);
    names     text[] := ARRAY(SELECT microbench.side_name(o.label, od)
                              FROM unnest(others) WITH ORDINALITY AS o(label, ord) ORDER BY o.ord);
    grid      jsonb;
    title     text;
    item      text;
    pct       text := round((confidence * 100)::numeric, 1)::float8::text;
    ncols     integer;
    col_name  text[] := '{}';
    col_dbms  text[] := '{}';
    col_order integer[] := '{}';
    many_dbms boolean;
    dbms_line text;
    c         record;
    g         record;
    w         record;
    cell      record;
    i         integer;
    k         integer;
    need_l    double precision;         -- ln of how far the data reaches left of 1.0
    need_r    double precision;         -- and right
    ci_l      double precision;
    ci_r      double precision;
    lo        double precision;         -- the axis ends
    hi        double precision;
    ppu       double precision;         -- px per unit of ln(ratio)
    label_w   integer;
    plot_l    double precision;
    plot_r    double precision;
    px_lo     double precision;
    px_hi     double precision;
    ref_x     double precision;
    x         double precision;
    xr        double precision;
    wl        double precision;
    wh        double precision;
    cut_l     boolean;
    cut_r     boolean;
    cap_w     integer;
    cap_dx    double precision;
    y         double precision;
    sy        double precision;
    cy        double precision;
    row_h     integer;                  -- a row with data: a slot per column
    rh        integer;                  -- the current row
    plot_top  double precision;
    plot_bot  double precision;
    seg_top   double precision[] := '{}';  -- the rows of each group: lines run there only
    seg_bot   double precision[] := '{}';
    lx        double precision;
    item_w    double precision;
    v         double precision;
    last      double precision;
    tick_v    double precision[] := '{}';
    n         integer;
    row_no    integer := 0;
    repeats   boolean;
    has_gap   boolean;
    has_ci    boolean;
    finite    boolean;
    defs      text[] := '{}';
    bands     text[] := '{}';
    gridlines text[] := '{}';
    bars      text[] := '{}';
    whiskers  text[] := '{}';
    texts     text[] := '{}';
    header    text[] := '{}';
BEGIN
    IF confidence IS NULL OR confidence <= 0 OR confidence >= 1 OR threshold IS NULL OR threshold < 0 THEN
        RAISE EXCEPTION 'confidence must be between 0 and 1 and threshold at least 0, not % and %', confidence, threshold
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The defaults are confidence => 0.95 and threshold => 0.02 (a 2% change).';
    END IF;
    title := CASE WHEN coalesce(array_length(others, 1), 0) = 1
                  THEN microbench.ratio_caption(metric, names[1], base_name)
                  ELSE microbench.ratio_caption(metric, 'label', base_name) || ', label in '
                       || coalesce(array_to_string(names, ', '), '(none)') END;

    SELECT jsonb_agg(to_jsonb(r)) INTO grid
    FROM microbench.report_grid(base, others, metric, phase, by_label, confidence, threshold, bd, od) r;

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
    -- a series says what the DBMS of its labels are; of one DBMS, the labels carry none: say it once
    -- (DBMS columns say it in their own legend items)
    IF by_label AND NOT many_dbms THEN
        dbms_line := 'all columns: ' || microbench.dbms_name(col_dbms[1]);
    ELSIF by_label THEN
        SELECT string_agg(microbench.dbms_legend(d, col_dbms), ', ' ORDER BY microbench.dbms_order(d))
        INTO dbms_line FROM (SELECT DISTINCT d FROM unnest(col_dbms) d) x;
    END IF;

    -- how far the ratios reach on each side of 1.0, on the log scale, and the intervals
    SELECT coalesce(max(-ln(r.ratio)) FILTER (WHERE r.ratio > 0 AND r.ratio < 1), 0),
           coalesce(max(ln(r.ratio)) FILTER (WHERE r.ratio > 1 AND r.ratio < 'Infinity'), 0),
           coalesce(max(-ln(r.ci_low)) FILTER (WHERE r.ci_low > 0 AND r.ci_low < 1 AND r.ratio > 0), 0),
           coalesce(max(ln(r.ci_high)) FILTER (WHERE r.ci_high > 1 AND r.ci_high < 'Infinity' AND r.ratio > 0), 0),
           coalesce(bool_or(r.repeated), false),
           bool_or(r.ratio IS NULL OR r.ratio IN ('NaN', 'Infinity', '-Infinity')),
           coalesce(bool_or(r.ci_low IS NOT NULL AND r.ci_high IS NOT NULL
                            AND r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')), false),
           max(length(r.workload))
    INTO need_l, need_r, ci_l, ci_r, repeats, has_gap, has_ci, n
    FROM jsonb_to_recordset(grid) AS r(ratio double precision, repeated boolean,
                                       ci_low double precision, ci_high double precision, workload text);
    ci_l := least(ci_l, greatest(need_l, ln(1.1)) + ln(1.5));
    ci_r := least(ci_r, greatest(need_r, ln(1.1)) + ln(1.5));
    need_l := least(greatest(need_l, ci_l, ln(1.1)), ln(1e6));
    need_r := least(greatest(need_r, ci_r, ln(1.1)), ln(1e6));
    SELECT min(e) INTO hi FROM unnest(ends) e WHERE ln(e) >= need_r - 1e-9;
    SELECT 1 / min(e) INTO lo FROM unnest(ends) e WHERE ln(e) >= need_l - 1e-9;

    -- horizontal layout: workload names, then the plot between px_lo and px_hi,
    -- 1.0 on a whole pixel
    label_w := greatest(120, ceil(n * 12 * char_w)::integer + 12);
    plot_l := margin + label_w + side_pad;
    plot_r := chart_w - margin - side_pad;
    ppu := (plot_r - plot_l) / (ln(hi) - ln(lo));
    ref_x := round(plot_l - ln(lo) * ppu);
    px_lo := ref_x + ln(lo) * ppu;
    px_hi := ref_x + ln(hi) * ppu;

    -- the ticks: from 1.0 outwards, each far enough from the last
    FOREACH k IN ARRAY ARRAY[1, -1] LOOP
        last := ref_x;
        FOREACH v IN ARRAY CASE WHEN k = 1 THEN ticks_r ELSE ticks_l END LOOP
            EXIT WHEN v > hi * (1 + 1e-9) OR v < lo * (1 - 1e-9);
            x := round(ref_x + ln(v) * ppu);
            CONTINUE WHEN abs(x - last) < tick_gap;
            tick_v := tick_v || v;
            last := x;
        END LOOP;
    END LOOP;

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
                                   'phase %s; %s; log scale: bars right of 1.0: %s higher than %s, left: lower',
                                   phase, CASE WHEN repeats THEN 'geometric mean of each label''s runs' ELSE 'one run per label' END,
                                   CASE WHEN coalesce(array_length(others, 1), 0) = 1 THEN names[1] ELSE 'label' END,
                                   base_name), chart_w - 2 * margin, 12)));
    -- the columns (a DBMS: "pg: Postgres"; a label: with its DBMS when there are several),
    -- what the DBMS abbreviations mean, and the no-data mark
    y := y + 24;
    lx := margin;
    FOR i IN 1 .. ncols + 2 LOOP
        IF i <= ncols THEN
            item := CASE WHEN by_label THEN col_name[i] || CASE WHEN many_dbms THEN ' (' || coalesce(microbench.dbms_short(col_dbms[i]), col_dbms[i]) || ')' ELSE '' END
                          ELSE microbench.dbms_legend(col_dbms[i], col_dbms) END;
        ELSIF i = ncols + 1 THEN
            CONTINUE WHEN NOT by_label;
            item := dbms_line;
        ELSE
            CONTINUE WHEN NOT has_gap;
            item := 'no data (-)';
        END IF;
        item := microbench.svg_fit(item, chart_w - 2 * margin - 22, 12);
        item_w := CASE WHEN i = ncols + 1 THEN 0 ELSE 22 END + length(item) * 12 * char_w + 22;
        IF lx > margin AND lx + item_w > chart_w - margin THEN
            lx := margin;
            y := y + 20;
        END IF;
        IF i <= ncols THEN
            header := header || format('<rect class="swatch" data-col="%s" data-dbms="%s" x="%s" y="%s" width="16" height="12" fill="%s" shape-rendering="crispEdges"/>',
                                       i, microbench.svg_escape(col_dbms[i]), lx, y - 10, microbench.svg_colour(i));
        ELSIF i = ncols + 2 THEN
            header := header || format('<rect class="swatch-nodata" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                       lx + 2, y - 5, nodata_colour);
        END IF;
        header := header || format('<text class="%s"%s x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                   CASE WHEN i <= ncols AND NOT by_label THEN 'legend legend-dbms'
                                        WHEN i <= ncols THEN 'legend' WHEN i = ncols + 1 THEN 'legend-dbms'
                                        ELSE 'legend' END,
                                   CASE WHEN i <= ncols THEN format(' data-col="%s"', i) ELSE '' END,
                                   lx + CASE WHEN i = ncols + 1 THEN 0 ELSE 22 END, y,
                                   CASE WHEN i = ncols + 1 THEN muted_colour ELSE text_colour END,
                                   microbench.svg_escape(item));
        lx := lx + item_w;
    END LOOP;
    -- the caption: whiskers and hatching, each with a sample
    y := y + 20;
    cy := y - 4;
    header := header || format('<g class="swatch-whisker" data-cy="%s"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>'
                               '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>'
                               '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/></g>',
                               cy, margin + 1, cy + 0.5, margin + 17, cy + 0.5, whisker_colour,
                               margin + 1, cy - cap_h, margin + 1, cy + cap_h, whisker_colour,
                               margin + 17, cy - cap_h, margin + 17, cy + cap_h, whisker_colour);
    item := CASE WHEN has_ci THEN format('whiskers: %s%% interval', pct)
                 ELSE format('whiskers: %s%% interval (none here: too few runs)', pct) END;
    header := header || format('<text class="caption" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                               margin + 24, y, text_colour, item);
    lx := margin + 24 + length(item) * 12 * char_w + 24;
    header := header || format('<rect class="swatch-noise" x="%s" y="%s" width="16" height="12" fill="url(#hatch-legend)" stroke="#777777" stroke-width="1" shape-rendering="crispEdges"/>',
                               lx + 0.5, y - 9.5)
                     || format('<text class="caption" x="%s" y="%s" font-size="12" fill="%s">hatched: not a difference (=: the same, ?: not decided)</text>',
                               lx + 22, y, text_colour);

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
        -- the heading has its band to itself: no line or bar crosses it
        bands := bands || format('<rect class="group-band" x="%s" y="%s" width="%s" height="%s" fill="%s" shape-rendering="crispEdges"/>',
                                 margin, y, chart_w - 2 * margin, head_h, band_colour);
        texts := texts || format('<text class="group" x="%s" y="%s" font-size="13" font-weight="bold" fill="%s">%s</text>',
                                 margin + 6, y + head_h / 2 + 5, text_colour, microbench.svg_escape(g.grp));
        y := y + head_h;
        seg_top := seg_top || y;
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
                cy := sy + bar_h / 2;
                SELECT r.ratio, r.cell, coalesce(r.within_noise, false) AS noise, r.ci_low, r.ci_high INTO cell
                FROM jsonb_to_recordset(grid) AS r(column_order integer, dbms text, report_order integer,
                                                   ratio double precision, cell text, within_noise boolean,
                                                   ci_low double precision, ci_high double precision)
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
                -- the bar, from 1.0 to the ratio on the log scale, on whole pixels
                xr := CASE WHEN cell.ratio <= 0 THEN round(px_lo)
                           ELSE least(greatest(round(ref_x + ln(cell.ratio) * ppu), round(px_lo)), round(px_hi)) END;
                x := least(xr, ref_x);
                bars := bars || format('<rect class="bar%s" data-col="%s" data-ratio="%s" data-colour="%s" data-tint="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s shape-rendering="crispEdges"/>',
                                       CASE WHEN cell.noise THEN ' noise' ELSE '' END, i, cell.ratio,
                                       microbench.svg_colour(i), microbench.svg_colour(i, noise_tint),
                                       x, sy, greatest(abs(xr - ref_x), 1), bar_h,
                                       CASE WHEN cell.noise THEN format('url(#hatch-%s)', i) ELSE microbench.svg_colour(i) END,
                                       CASE WHEN cell.noise THEN format(' stroke="%s" stroke-width="1"', microbench.svg_colour(i)) ELSE '' END);
                -- the whisker: the interval, cut at the axis ends (an arrow marks a cut end)
                wl := xr;
                wh := xr;
                IF cell.ci_low IS NOT NULL AND cell.ci_high IS NOT NULL AND cell.ratio > 0 THEN
                    cut_l := cell.ci_low < lo * (1 - 1e-9);
                    cut_r := cell.ci_high > hi * (1 + 1e-9);
                    wl := CASE WHEN cut_l THEN round(px_lo) ELSE round(ref_x + ln(cell.ci_low) * ppu) END;
                    wh := CASE WHEN cut_r THEN round(px_hi) ELSE round(ref_x + ln(cell.ci_high) * ppu) END;
                    -- caps 2 px wide across the end; on a whisker of a few px, 1 px inside it
                    cap_w := CASE WHEN wh - wl < 8 THEN 1 ELSE 2 END;
                    cap_dx := CASE WHEN wh - wl < 8 THEN 0.5 ELSE 0 END;
                    whiskers := whiskers || (format('<g class="whisker" data-col="%s" data-ratio="%s" data-ci-low="%s" data-ci-high="%s" data-cut-low="%s" data-cut-high="%s" data-cy="%s">',
                                                   i, cell.ratio, cell.ci_low, cell.ci_high, cut_l::text, cut_r::text, cy)
                        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                                  wl, cy + 0.5, wh, cy + 0.5, whisker_colour)
                        || CASE WHEN cut_l
                               THEN format('<polygon class="arrow" points="%s,%s %s,%s %s,%s" fill="%s"/>',
                                           wl, cy + 0.5, wl + arrow_w, cy - cap_h, wl + arrow_w, cy + cap_h + 1, whisker_colour)
                               ELSE format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" shape-rendering="crispEdges"/>',
                                           wl + cap_dx, cy - cap_h, wl + cap_dx, cy + cap_h, whisker_colour, cap_w) END
                        || CASE WHEN cut_r
                               THEN format('<polygon class="arrow" points="%s,%s %s,%s %s,%s" fill="%s"/>',
                                           wh, cy + 0.5, wh - arrow_w, cy - cap_h, wh - arrow_w, cy + cap_h + 1, whisker_colour)
                               ELSE format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" shape-rendering="crispEdges"/>',
                                           wh - cap_dx, cy - cap_h, wh - cap_dx, cy + cap_h, whisker_colour, cap_w) END
                        || '</g>');
                END IF;
                -- the ratio, beyond the bar and its whisker
                texts := texts || CASE WHEN cell.ratio >= 1
                    THEN format('<text class="value" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                greatest(xr, wh, ref_x) + 5, sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell))
                    ELSE format('<text class="value" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                                least(xr, wl) - 5, sy + bar_h / 2 + 4, text_colour,
                                microbench.svg_escape(cell.cell)) END;
            END LOOP;
            y := y + rh;
        END LOOP;
        seg_bot := seg_bot || y;
    END LOOP;
    plot_bot := y;

    -- the axis: grid lines through the rows of each group, tick labels above and below the plot
    FOREACH v IN ARRAY tick_v LOOP
        x := round(ref_x + ln(v) * ppu);
        FOR k IN 1 .. array_length(seg_top, 1) LOOP
            gridlines := gridlines || format('<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                                             x + 0.5, seg_top[k], x + 0.5, seg_bot[k], grid_colour);
        END LOOP;
        texts := texts || format('<text class="tick" data-value="%s" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                 v, x, plot_top - 8, muted_colour, microbench.svg_tick(v))
                       || format('<text class="tick" data-value="%s" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                 v, x, plot_bot + 17, muted_colour, microbench.svg_tick(v));
    END LOOP;
    -- the reference line at 1.0, over the bars, through the rows of each group
    FOR k IN 1 .. array_length(seg_top, 1) LOOP
        bars := bars || format('<line class="ref-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>',
                               ref_x, seg_top[k], ref_x, seg_bot[k], ref_colour);
    END LOOP;
    texts := texts || format('<text class="tick ref" data-value="1" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_top - 8, ref_colour)
                   || format('<text class="tick ref" data-value="1" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                             ref_x, plot_bot + 17, ref_colour);
    y := plot_bot + 24;
    y := y + 16;
    texts := texts || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                             margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'cells: %s; whiskers: the %s%% interval of the ratio, adjusted for the cells of the comparison; log scale',
                                 CASE WHEN repeats THEN 'ratio from the runs paired round by round' ELSE 'ratio of one run per label' END,
                                 pct), chart_w - 2 * margin, 11)));
    y := y + 15;
    texts := texts || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                             margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'solid: a difference (the interval excludes 1, a change of %s%% or more); hatched "=": the same within ±%s%%; hatched "?": not decided by these runs',
                                 round((threshold * 100)::numeric, 1)::float8, round((threshold * 100)::numeric, 1)::float8),
                                 chart_w - 2 * margin, 11)));
    -- a count: what an instruction is (a REP string instruction once, or valgrind's each repetition)
    IF metric IN ('instructions', 'instructions_per_query', 'estimated_cycles')
       AND microbench.count_definition(array_prepend(base, others)) <> '' THEN
        y := y + 15;
        texts := texts || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                 margin, y, muted_colour, microbench.svg_escape(microbench.svg_fit(
                                     'counted instructions: ' || microbench.count_definition(array_prepend(base, others)),
                                     chart_w - 2 * margin, 11)));
    END IF;
    -- a count of instructions: the functions behind the cells that differ most (41_functions_svg.sql)
    IF metric IN ('instructions', 'instructions_per_query') AND NOT by_label AND cardinality(others) = 1 THEN
        SELECT p.svg, p.height INTO panel
        FROM microbench.functions_svg(base, others[1], phase, confidence, bd, od, y + 8, chart_w, margin) p;
        IF panel.svg IS NOT NULL THEN
            texts := texts || panel.svg;
            y := y + 8 + panel.height;
        END IF;
    END IF;
    y := y + margin;

    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif"'
                  ' data-ref-x="%s" data-plot-top="%s" data-plot-bottom="%s" data-ref-colour="%s" data-nodata-colour="%s"'
                  ' data-whisker-colour="%s" data-band-colour="%s" data-columns="%s" data-confidence="%s"'
                  ' data-scale="log" data-axis-lo="%s" data-axis-hi="%s" data-px-lo="%s" data-px-hi="%s" data-px-per-ln="%s">',
                  chart_w, ceil(y), chart_w, ceil(y), ref_x, plot_top, plot_bot, ref_colour, nodata_colour,
                  whisker_colour, band_colour, ncols, confidence, lo, hi, px_lo, px_hi, ppu) || E'\n'
        || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
        || '<defs>' || array_to_string(defs, '') || '</defs>' || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', chart_w, ceil(y)) || E'\n'
        || array_to_string(header, E'\n') || E'\n'
        || array_to_string(bands, E'\n') || E'\n'
        || array_to_string(gridlines, E'\n') || E'\n'
        || array_to_string(bars, E'\n') || E'\n'
        || array_to_string(whiskers, E'\n') || E'\n'
        || array_to_string(texts, E'\n') || E'\n'
        || '</svg>' || E'\n';
END
$fn$;

COMMENT ON FUNCTION microbench.report_svg(text, text[], text, text, boolean, double precision, double precision, text, text, text) IS
    'relative report as a standalone SVG bar chart: ratio other/base per microbenchmark and column on a log axis, diverging from 1.0, with interval whiskers; hatched: not a difference (= the same, ? not decided)';
