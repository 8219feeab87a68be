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
-- A standalone SVG document as an element of another, placed y pixels
-- down (its XML declaration dropped, its own coordinates kept in a nested
-- svg element), with the width and height it declares.
CREATE OR REPLACE FUNCTION microbench.svg_nest(doc text, y integer, OUT svg text, OUT width integer,
                                               OUT height integer)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT regexp_replace(regexp_replace(doc, '^<[?]xml[^>]*>\s*', ''), '^<svg ', format('<svg x="0" y="%s" ', y)),
           (regexp_match(doc, '<svg[^>]* width="([0-9]+)"'))[1]::integer,
           (regexp_match(doc, '<svg[^>]* height="([0-9]+)"'))[1]::integer
$$;

CREATE OR REPLACE FUNCTION microbench.svg_tick(v double precision)
RETURNS text LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$ SELECT trim_scale(round(v::numeric, 6))::text $$;

-- The chart's fixed layout in px and its colours, as one value: every step
-- of report_svg() below draws with the same figures, and they are set in
-- one place, svg_style().  A type is created once: a figure added later is
-- an ALTER TYPE ... ADD ATTRIBUTE beside this.
DO $type$
BEGIN
    IF to_regtype('microbench.svg_style') IS NULL THEN
        CREATE TYPE microbench.svg_style AS (
            chart_w integer, margin integer, bar_h integer, bar_gap integer, row_pad integer,
            head_h integer, side_pad integer, tick_gap integer, cap_h integer, arrow_w integer,
            char_w double precision, ref_colour text, grid_colour text, band_colour text,
            nodata_colour text, whisker_colour text, text_colour text, muted_colour text,
            noise_tint double precision);
    END IF;
END
$type$;

CREATE OR REPLACE FUNCTION microbench.svg_style()
RETURNS microbench.svg_style LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s       microbench.svg_style;
BEGIN
    s.chart_w := 960;
    s.margin := 16;
    s.bar_h := 12;              -- one bar
    s.bar_gap := 3;             -- between the bars of a row
    s.row_pad := 5;             -- above and below the bars of a row
    s.head_h := 28;             -- group heading band, nothing else drawn in it
    s.side_pad := 56;           -- room beside the axis for ratio text
    s.tick_gap := 42;           -- least distance between tick labels
    s.cap_h := 4;               -- whisker caps: cy - cap_h .. cy + cap_h
    s.arrow_w := 7;             -- the arrow of a cut whisker end
    s.char_w := 0.58;           -- estimated mean glyph width, em
    s.ref_colour := '#000000';
    s.grid_colour := '#dddddd';
    s.band_colour := '#e9edf2';
    s.nodata_colour := '#9e9e9e';
    s.whisker_colour := '#111111';
    s.text_colour := '#222222';
    s.muted_colour := '#555555';
    s.noise_tint := 0.62;
    RETURN s;
END
$$;

-- Where the ratio axis lies: its ends lo and hi, px per unit of ln(ratio),
-- the x of 1.0 and of the two ends.  A type, so that the steps drawing on
-- the axis take it as one argument.
DO $type$
BEGIN
    IF to_regtype('microbench.svg_scale') IS NULL THEN
        CREATE TYPE microbench.svg_scale AS (
            lo double precision, hi double precision, ppu double precision, ref_x double precision,
            px_lo double precision, px_hi double precision);
    END IF;
END
$type$;

-- The ratio axis of a grid whose workload names take label_w px.  It is
-- logarithmic, so that 0.5 and 2 are bars of one length and a 20x write
-- leaves room for a 0.95 read.  Each side of 1.0 reaches the farthest ratio
-- on that side, and the intervals up to 1.5 times beyond it (an interval
-- reaching farther is cut at the axis end, which then gets an arrow instead
-- of a cap), rounded up to 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 30, 50, ...
-- (1/those on the left).  1.0 falls on a whole pixel.
CREATE OR REPLACE FUNCTION microbench.svg_scale(grid microbench.report_grid_row[], label_w integer)
RETURNS microbench.svg_scale LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    -- the axis ends a side can have (the left side: 1 / these)
    ends    constant double precision[] := ARRAY[1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500,
                                                 1e3, 2e3, 3e3, 5e3, 1e4, 2e4, 3e4, 5e4, 1e5, 2e5, 3e5, 5e5, 1e6];
    need_l  double precision;         -- ln of how far the data reaches left of 1.0
    need_r  double precision;         -- and right
    ci_l    double precision;
    ci_r    double precision;
    plot_l  double precision := st.margin + label_w + st.side_pad;
    plot_r  double precision := st.chart_w - st.margin - st.side_pad;
    s       microbench.svg_scale;
BEGIN
    SELECT coalesce(max(-ln(r.ratio)) FILTER (WHERE r.ratio > 0 AND r.ratio < 1), 0),
           coalesce(max(ln(r.ratio)) FILTER (WHERE r.ratio > 1 AND r.ratio < 'Infinity'), 0),
           coalesce(max(-ln(r.ci_low)) FILTER (WHERE r.ci_low > 0 AND r.ci_low < 1 AND r.ratio > 0), 0),
           coalesce(max(ln(r.ci_high)) FILTER (WHERE r.ci_high > 1 AND r.ci_high < 'Infinity' AND r.ratio > 0), 0)
    INTO need_l, need_r, ci_l, ci_r
    FROM unnest(grid) r;
    ci_l := least(ci_l, greatest(need_l, ln(1.1)) + ln(1.5));
    ci_r := least(ci_r, greatest(need_r, ln(1.1)) + ln(1.5));
    need_l := least(greatest(need_l, ci_l, ln(1.1)), ln(1e6));
    need_r := least(greatest(need_r, ci_r, ln(1.1)), ln(1e6));
    SELECT min(e) INTO s.hi FROM unnest(ends) e WHERE ln(e) >= need_r - 1e-9;
    SELECT 1 / min(e) INTO s.lo FROM unnest(ends) e WHERE ln(e) >= need_l - 1e-9;
    s.ppu := (plot_r - plot_l) / (ln(s.hi) - ln(s.lo));
    s.ref_x := round(plot_l - ln(s.lo) * s.ppu);
    s.px_lo := s.ref_x + ln(s.lo) * s.ppu;
    s.px_hi := s.ref_x + ln(s.hi) * s.ppu;
    RETURN s;
END
$$;

-- The ratios the axis is labelled with: from 1.0 outwards on each side,
-- each far enough from the last that their labels do not run together.
CREATE OR REPLACE FUNCTION microbench.svg_ticks(scale microbench.svg_scale)
RETURNS double precision[] LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    tick_gap  constant integer := (microbench.svg_style()).tick_gap;
    -- tick candidates, from 1.0 outwards
    ticks_r   constant double precision[] := ARRAY[1.05, 1.1, 1.25, 2, 5, 10, 20, 50, 100, 200, 500,
                                                   1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6];
    ticks_l   constant double precision[] := ARRAY[0.95, 0.9, 0.8, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002,
                                                   1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6];
    tick_v    double precision[] := '{}';
    k         integer;
    v         double precision;
    x         double precision;
    last      double precision;
BEGIN
    FOREACH k IN ARRAY ARRAY[1, -1] LOOP
        last := scale.ref_x;
        FOREACH v IN ARRAY CASE WHEN k = 1 THEN ticks_r ELSE ticks_l END LOOP
            EXIT WHEN v > scale.hi * (1 + 1e-9) OR v < scale.lo * (1 - 1e-9);
            x := round(scale.ref_x + ln(v) * scale.ppu);
            CONTINUE WHEN abs(x - last) < tick_gap;
            tick_v := tick_v || v;
            last := x;
        END LOOP;
    END LOOP;
    RETURN tick_v;
END
$$;

-- The whole document when the grid is empty: the title and a line saying
-- that no runs of the labels are in the phase.
CREATE OR REPLACE FUNCTION microbench.svg_no_data(title text, phase text)
RETURNS text LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120" viewBox="0 0 640 120"'
        || ' font-family="sans-serif" data-empty="true">' || E'\n'
        || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
        || '<rect width="640" height="120" fill="#ffffff"/>' || E'\n'
        || format('<text class="title" x="%s" y="36" font-size="16" font-weight="bold" fill="%s">%s</text>',
                  s.margin, s.text_colour, microbench.svg_escape(title)) || E'\n'
        || format('<text x="%s" y="76" font-size="14" fill="%s">no data: no runs of these labels in phase %s</text>',
                  s.margin, s.muted_colour, microbench.svg_escape(phase)) || E'\n'
        || '</svg>' || E'\n'
    FROM microbench.svg_style() s
$$;

-- The chart's columns in report order (column_order and dbms pick a
-- column's cells out of the grid), and what the legend says of their
-- DBMS: in a series of one DBMS's labels, dbms_line says it once.
CREATE OR REPLACE FUNCTION microbench.svg_columns(grid microbench.report_grid_row[], by_label boolean,
                                                  OUT col_order integer[], OUT col_name text[],
                                                  OUT col_dbms text[], OUT many_dbms boolean,
                                                  OUT dbms_line text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c       record;
BEGIN
    col_order := '{}';
    col_name := '{}';
    col_dbms := '{}';
    FOR c IN
        SELECT r.column_order, r.column_name, r.dbms
        FROM unnest(grid) r
        GROUP BY 1, 2, 3
        ORDER BY r.column_order, microbench.dbms_order(r.dbms), r.column_name
    LOOP
        col_order := col_order || c.column_order;
        col_name := col_name || c.column_name;
        col_dbms := col_dbms || c.dbms;
    END LOOP;
    SELECT count(DISTINCT d) > 1 INTO many_dbms FROM unnest(col_dbms) d;
    -- a series says what the DBMS of its labels are; of one DBMS, the labels carry none: say it once
    -- (DBMS columns say it in their own legend items)
    IF by_label AND NOT many_dbms THEN
        dbms_line := 'all columns: ' || microbench.dbms_name(col_dbms[1]);
    ELSIF by_label THEN
        SELECT string_agg(microbench.dbms_legend(d, col_dbms), ', ' ORDER BY microbench.dbms_order(d))
        INTO dbms_line FROM (SELECT DISTINCT d FROM unnest(col_dbms) d) x;
    END IF;
END
$$;

-- The title (a long one, of long labels, gets a smaller font, then is cut;
-- the document's <title> keeps it whole) and the subtitle under it, which
-- says what a bar right of 1.0 means: higher is the name of the other
-- side, lower the base's.  y: the baseline of the subtitle.
CREATE OR REPLACE FUNCTION microbench.svg_title_lines(title text, phase text, repeats boolean,
                                                      higher text, lower text,
                                                      OUT lines text[], OUT y double precision)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    font_px double precision;
BEGIN
    y := st.margin + 18;
    font_px := least(17, greatest(13, floor((st.chart_w - 2 * st.margin) / (length(title) * 0.62))));
    lines := ARRAY[format('<text class="title" x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s">%s</text>',
                          st.margin, y, font_px, st.text_colour,
                          microbench.svg_escape(microbench.svg_fit(title, (st.chart_w - 2 * st.margin) * 0.58 / 0.62,
                                                                   font_px)))];
    y := y + 20;
    lines := lines || format('<text class="subtitle" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                             st.margin, y, st.muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'phase %s; %s; log scale: bars right of 1.0: %s higher than %s, left: lower',
                                 phase, CASE WHEN repeats THEN 'geometric mean of each label''s runs' ELSE 'one run per label' END,
                                 higher, lower), st.chart_w - 2 * st.margin, 12)));
END
$$;

-- The legend, in lines that wrap at the chart's width: a swatch and name
-- per column (a DBMS: "pg: Postgres"; a label: with its DBMS when there
-- are several), in a series what the DBMS abbreviations mean, and the
-- no-data mark when some cell has none.  y: the baseline of the line
-- above it on entry, of its last line on return.
CREATE OR REPLACE FUNCTION microbench.svg_legend(col_name text[], col_dbms text[], by_label boolean,
                                                 many_dbms boolean, dbms_line text, has_gap boolean,
                                                 INOUT y double precision, OUT items text[])
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    ncols   constant integer := array_length(col_name, 1);
    item    text;
    item_w  double precision;
    lx      double precision;
    i       integer;
BEGIN
    items := '{}';
    y := y + 24;
    lx := st.margin;
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
        item := microbench.svg_fit(item, st.chart_w - 2 * st.margin - 22, 12);
        item_w := CASE WHEN i = ncols + 1 THEN 0 ELSE 22 END + length(item) * 12 * st.char_w + 22;
        IF lx > st.margin AND lx + item_w > st.chart_w - st.margin THEN
            lx := st.margin;
            y := y + 20;
        END IF;
        IF i <= ncols THEN
            items := items || format('<rect class="swatch" data-col="%s" data-dbms="%s" x="%s" y="%s" width="16" height="12" fill="%s" shape-rendering="crispEdges"/>',
                                     i, microbench.svg_escape(col_dbms[i]), lx, y - 10, microbench.svg_colour(i));
        ELSIF i = ncols + 2 THEN
            items := items || format('<rect class="swatch-nodata" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                                     lx + 2, y - 5, st.nodata_colour);
        END IF;
        items := items || format('<text class="%s"%s x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                 CASE WHEN i <= ncols AND NOT by_label THEN 'legend legend-dbms'
                                      WHEN i <= ncols THEN 'legend' WHEN i = ncols + 1 THEN 'legend-dbms'
                                      ELSE 'legend' END,
                                 CASE WHEN i <= ncols THEN format(' data-col="%s"', i) ELSE '' END,
                                 lx + CASE WHEN i = ncols + 1 THEN 0 ELSE 22 END, y,
                                 CASE WHEN i = ncols + 1 THEN st.muted_colour ELSE st.text_colour END,
                                 microbench.svg_escape(item));
        lx := lx + item_w;
    END LOOP;
END
$$;

-- The caption under the legend: what whiskers and hatching mean, each with
-- a sample.  pct: the confidence as a percentage.  y: the baseline of the
-- line above it on entry, of the caption on return.
CREATE OR REPLACE FUNCTION microbench.svg_caption(has_ci boolean, pct text,
                                                  INOUT y double precision, OUT items text[])
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    cy      double precision;
    item    text;
    lx      double precision;
BEGIN
    y := y + 20;
    cy := y - 4;
    items := ARRAY[format('<g class="swatch-whisker" data-cy="%s"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>'
                          '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>'
                          '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/></g>',
                          cy, st.margin + 1, cy + 0.5, st.margin + 17, cy + 0.5, st.whisker_colour,
                          st.margin + 1, cy - st.cap_h, st.margin + 1, cy + st.cap_h, st.whisker_colour,
                          st.margin + 17, cy - st.cap_h, st.margin + 17, cy + st.cap_h, st.whisker_colour)];
    item := CASE WHEN has_ci THEN format('whiskers: %s%% interval', pct)
                 ELSE format('whiskers: %s%% interval (none here: too few runs)', pct) END;
    items := items || format('<text class="caption" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                             st.margin + 24, y, st.text_colour, item);
    lx := st.margin + 24 + length(item) * 12 * st.char_w + 24;
    items := items || format('<rect class="swatch-noise" x="%s" y="%s" width="16" height="12" fill="url(#hatch-legend)" stroke="#777777" stroke-width="1" shape-rendering="crispEdges"/>',
                             lx + 0.5, y - 9.5)
                   || format('<text class="caption" x="%s" y="%s" font-size="12" fill="%s">hatched: not a difference (=: the same, ?: not decided)</text>',
                             lx + 22, y, st.text_colour);
END
$$;

-- The hatch patterns of cells that are not a difference: one for the
-- legend's sample, one per column in its colour.
CREATE OR REPLACE FUNCTION microbench.svg_hatch_patterns(ncols integer)
RETURNS text[] LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    noise_tint constant double precision := (microbench.svg_style()).noise_tint;
    defs    text[] := ARRAY['<pattern id="hatch-legend" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="#dddddd"/><rect width="2" height="6" fill="#777777"/></pattern>'];
    i       integer;
BEGIN
    FOR i IN 1 .. ncols LOOP
        defs := defs || format('<pattern id="hatch-%s" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)"><rect width="6" height="6" fill="%s"/><rect width="2" height="6" fill="%s"/></pattern>',
                               i, microbench.svg_colour(i, noise_tint), microbench.svg_colour(i));
    END LOOP;
    RETURN defs;
END
$$;

-- The grey "no data" dash and its words in a bar's slot at sy, beside 1.0
-- (ref_x): for a cell without a ratio (col: its column) or a row without
-- any (col '*').
CREATE OR REPLACE FUNCTION microbench.svg_no_data_mark(col text, sy double precision, ref_x double precision,
                                                       OUT mark text, OUT words text)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format('<rect class="nodata" data-col="%s" data-slot-y="%s" data-slot-h="%s" x="%s" y="%s" width="12" height="3" fill="%s" shape-rendering="crispEdges"/>',
                  col, sy, s.bar_h, ref_x + 4, sy + s.bar_h / 2 - 1, s.nodata_colour),
           format('<text class="nodata-text" x="%s" y="%s" font-size="11" font-style="italic" fill="%s">no data</text>',
                  ref_x + 20, sy + s.bar_h / 2 + 4, s.nodata_colour)
    FROM microbench.svg_style() s
$$;

-- One cell with a ratio, in column i, its bar's slot at sy: the bar from
-- 1.0 to the ratio on whole pixels (hatched when it is not a difference),
-- the whisker of its interval, cut at the axis ends with an arrow marking
-- a cut end (NULL when the cell has no interval), and the ratio written
-- beyond both.
CREATE OR REPLACE FUNCTION microbench.svg_cell(i integer, cell microbench.report_grid_row,
                                               scale microbench.svg_scale, sy double precision,
                                               OUT bar text, OUT whisker text, OUT value text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    noise   constant boolean := coalesce(cell.within_noise, false);
    cy      constant double precision := sy + st.bar_h / 2;
    x       double precision;
    xr      double precision;
    wl      double precision;
    wh      double precision;
    cut_l   boolean;
    cut_r   boolean;
    cap_w   integer;
    cap_dx  double precision;
BEGIN
    xr := CASE WHEN cell.ratio <= 0 THEN round(scale.px_lo)
               ELSE least(greatest(round(scale.ref_x + ln(cell.ratio) * scale.ppu), round(scale.px_lo)),
                          round(scale.px_hi)) END;
    x := least(xr, scale.ref_x);
    bar := format('<rect class="bar%s" data-col="%s" data-ratio="%s" data-colour="%s" data-tint="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s shape-rendering="crispEdges"/>',
                  CASE WHEN noise THEN ' noise' ELSE '' END, i, cell.ratio,
                  microbench.svg_colour(i), microbench.svg_colour(i, st.noise_tint),
                  x, sy, greatest(abs(xr - scale.ref_x), 1), st.bar_h,
                  CASE WHEN noise THEN format('url(#hatch-%s)', i) ELSE microbench.svg_colour(i) END,
                  CASE WHEN noise THEN format(' stroke="%s" stroke-width="1"', microbench.svg_colour(i)) ELSE '' END);
    wl := xr;
    wh := xr;
    IF cell.ci_low IS NOT NULL AND cell.ci_high IS NOT NULL AND cell.ratio > 0 THEN
        cut_l := cell.ci_low < scale.lo * (1 - 1e-9);
        cut_r := cell.ci_high > scale.hi * (1 + 1e-9);
        wl := CASE WHEN cut_l THEN round(scale.px_lo) ELSE round(scale.ref_x + ln(cell.ci_low) * scale.ppu) END;
        wh := CASE WHEN cut_r THEN round(scale.px_hi) ELSE round(scale.ref_x + ln(cell.ci_high) * scale.ppu) END;
        -- caps 2 px wide across the end; on a whisker of a few px, 1 px inside it
        cap_w := CASE WHEN wh - wl < 8 THEN 1 ELSE 2 END;
        cap_dx := CASE WHEN wh - wl < 8 THEN 0.5 ELSE 0 END;
        whisker := format('<g class="whisker" data-col="%s" data-ratio="%s" data-ci-low="%s" data-ci-high="%s" data-cut-low="%s" data-cut-high="%s" data-cy="%s">',
                          i, cell.ratio, cell.ci_low, cell.ci_high, cut_l::text, cut_r::text, cy)
            || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                      wl, cy + 0.5, wh, cy + 0.5, st.whisker_colour)
            || CASE WHEN cut_l
                   THEN format('<polygon class="arrow" points="%s,%s %s,%s %s,%s" fill="%s"/>',
                               wl, cy + 0.5, wl + st.arrow_w, cy - st.cap_h, wl + st.arrow_w, cy + st.cap_h + 1,
                               st.whisker_colour)
                   ELSE format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" shape-rendering="crispEdges"/>',
                               wl + cap_dx, cy - st.cap_h, wl + cap_dx, cy + st.cap_h, st.whisker_colour, cap_w) END
            || CASE WHEN cut_r
                   THEN format('<polygon class="arrow" points="%s,%s %s,%s %s,%s" fill="%s"/>',
                               wh, cy + 0.5, wh - st.arrow_w, cy - st.cap_h, wh - st.arrow_w, cy + st.cap_h + 1,
                               st.whisker_colour)
                   ELSE format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" shape-rendering="crispEdges"/>',
                               wh - cap_dx, cy - st.cap_h, wh - cap_dx, cy + st.cap_h, st.whisker_colour, cap_w) END
            || '</g>';
    END IF;
    value := CASE WHEN cell.ratio >= 1
        THEN format('<text class="value" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                    greatest(xr, wh, scale.ref_x) + 5, sy + st.bar_h / 2 + 4, st.text_colour,
                    microbench.svg_escape(cell.cell))
        ELSE format('<text class="value" x="%s" y="%s" font-size="11" fill="%s" text-anchor="end">%s</text>',
                    least(xr, wl) - 5, sy + st.bar_h / 2 + 4, st.text_colour,
                    microbench.svg_escape(cell.cell)) END;
END
$$;

-- The rows of the plot from y down, group by group: each group's heading
-- in a band of its own that no line or bar crosses, then a row per
-- workload (every other one shaded) with a slot per column, or one slot
-- with a no-data mark when the row has no data at all.  seg_top and
-- seg_bot are where each group's rows start and end, for the lines drawn
-- through them; y on return is the bottom of the plot.
CREATE OR REPLACE FUNCTION microbench.svg_rows(grid microbench.report_grid_row[], col_order integer[],
                                               col_dbms text[], scale microbench.svg_scale,
                                               INOUT y double precision,
                                               OUT bands text[], OUT bars text[], OUT whiskers text[],
                                               OUT texts text[], OUT seg_top double precision[],
                                               OUT seg_bot double precision[])
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    ncols   constant integer := array_length(col_order, 1);
    -- a row with data: a slot per column
    row_h   constant integer := ncols * st.bar_h + (ncols - 1) * st.bar_gap + 2 * st.row_pad;
    rh      integer;                  -- the current row
    row_no  integer := 0;
    g       record;
    w       record;
    cell    microbench.report_grid_row;
    nodata  record;                   -- svg_no_data_mark()'s mark and words
    drawn   record;                   -- svg_cell()'s bar, whisker and value
    sy      double precision;
    i       integer;
BEGIN
    bands := '{}';
    bars := '{}';
    whiskers := '{}';
    texts := '{}';
    seg_top := '{}';
    seg_bot := '{}';
    FOR g IN SELECT DISTINCT r.group_order, r.grp FROM unnest(grid) r ORDER BY 1 LOOP
        bands := bands || format('<rect class="group-band" x="%s" y="%s" width="%s" height="%s" fill="%s" shape-rendering="crispEdges"/>',
                                 st.margin, y, st.chart_w - 2 * st.margin, st.head_h, st.band_colour);
        texts := texts || format('<text class="group" x="%s" y="%s" font-size="13" font-weight="bold" fill="%s">%s</text>',
                                 st.margin + 6, y + st.head_h / 2 + 5, st.text_colour, microbench.svg_escape(g.grp));
        y := y + st.head_h;
        seg_top := seg_top || y;
        FOR w IN
            SELECT r.report_order, r.workload,
                   coalesce(bool_or(r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')), false) AS has_data
            FROM unnest(grid) r
            WHERE r.group_order = g.group_order
            GROUP BY 1, 2
            ORDER BY 1
        LOOP
            row_no := row_no + 1;
            rh := CASE WHEN w.has_data THEN row_h ELSE st.bar_h + 2 * st.row_pad END;
            IF row_no % 2 = 0 THEN
                bands := bands || format('<rect x="%s" y="%s" width="%s" height="%s" fill="#f6f6f6" shape-rendering="crispEdges"/>',
                                         st.margin, y, st.chart_w - 2 * st.margin, rh);
            END IF;
            texts := texts || format('<text class="workload" x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                     st.margin + 14, y + rh / 2.0 + 4, st.text_colour, microbench.svg_escape(w.workload));
            IF NOT w.has_data THEN
                nodata := microbench.svg_no_data_mark('*', y + st.row_pad, scale.ref_x);
                bars := bars || nodata.mark;
                texts := texts || nodata.words;
                y := y + rh;
                CONTINUE;
            END IF;
            FOR i IN 1 .. ncols LOOP
                sy := y + st.row_pad + (i - 1) * (st.bar_h + st.bar_gap);
                SELECT r.* INTO cell
                FROM unnest(grid) r
                WHERE r.column_order = col_order[i] AND r.dbms IS NOT DISTINCT FROM col_dbms[i]
                  AND r.report_order = w.report_order;
                IF cell.ratio IS NULL OR cell.ratio IN ('NaN', 'Infinity', '-Infinity') THEN
                    nodata := microbench.svg_no_data_mark(i::text, sy, scale.ref_x);
                    bars := bars || nodata.mark;
                    texts := texts || nodata.words;
                    CONTINUE;
                END IF;
                drawn := microbench.svg_cell(i, cell, scale, sy);
                bars := bars || drawn.bar;
                IF drawn.whisker IS NOT NULL THEN
                    whiskers := whiskers || drawn.whisker;
                END IF;
                texts := texts || drawn.value;
            END LOOP;
            y := y + rh;
        END LOOP;
        seg_bot := seg_bot || y;
    END LOOP;
END
$$;

-- The axis over the rows: a grid line per tick through the rows of each
-- group, the reference line at 1.0 (drawn over the bars), and the tick
-- labels above and below the plot.
CREATE OR REPLACE FUNCTION microbench.svg_axis(ticks double precision[], scale microbench.svg_scale,
                                               seg_top double precision[], seg_bot double precision[],
                                               plot_top double precision, plot_bot double precision,
                                               OUT gridlines text[], OUT ref_lines text[], OUT labels text[])
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
    v       double precision;
    x       double precision;
    k       integer;
BEGIN
    gridlines := '{}';
    ref_lines := '{}';
    labels := '{}';
    FOREACH v IN ARRAY ticks LOOP
        x := round(scale.ref_x + ln(v) * scale.ppu);
        FOR k IN 1 .. array_length(seg_top, 1) LOOP
            gridlines := gridlines || format('<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1" shape-rendering="crispEdges"/>',
                                             x + 0.5, seg_top[k], x + 0.5, seg_bot[k], st.grid_colour);
        END LOOP;
        labels := labels || format('<text class="tick" data-value="%s" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                   v, x, plot_top - 8, st.muted_colour, microbench.svg_tick(v))
                         || format('<text class="tick" data-value="%s" x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>',
                                   v, x, plot_bot + 17, st.muted_colour, microbench.svg_tick(v));
    END LOOP;
    FOR k IN 1 .. array_length(seg_top, 1) LOOP
        ref_lines := ref_lines || format('<line class="ref-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" shape-rendering="crispEdges"/>',
                                         scale.ref_x, seg_top[k], scale.ref_x, seg_bot[k], st.ref_colour);
    END LOOP;
    labels := labels || format('<text class="tick ref" data-value="1" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                               scale.ref_x, plot_top - 8, st.ref_colour)
                     || format('<text class="tick ref" data-value="1" x="%s" y="%s" font-size="12" font-weight="bold" fill="%s" text-anchor="middle">1.0</text>',
                               scale.ref_x, plot_bot + 17, st.ref_colour);
END
$$;

-- The footer under the plot, whose bottom y is on entry: what a cell and a
-- whisker are, what solid and hatched bars say, and for a count what an
-- instruction is (a REP string instruction once, or valgrind's each
-- repetition) for the runs of labels.  y on return: its last baseline.
CREATE OR REPLACE FUNCTION microbench.svg_footer(repeats boolean, pct text, threshold double precision,
                                                 metric text, labels text[],
                                                 INOUT y double precision, OUT lines text[])
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st      constant microbench.svg_style := microbench.svg_style();
BEGIN
    y := y + 24;
    y := y + 16;
    lines := ARRAY[format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                          st.margin, y, st.muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                              'cells: %s; whiskers: the %s%% interval of the ratio, adjusted for the cells of the comparison; log scale',
                              CASE WHEN repeats THEN 'ratio from the runs paired round by round' ELSE 'ratio of one run per label' END,
                              pct), st.chart_w - 2 * st.margin, 11)))];
    y := y + 15;
    lines := lines || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                             st.margin, y, st.muted_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'solid: a difference (the interval excludes 1, a change of %s%% or more); hatched "=": the same within ±%s%%; hatched "?": not decided by these runs',
                                 round((threshold * 100)::numeric, 1)::float8, round((threshold * 100)::numeric, 1)::float8),
                                 st.chart_w - 2 * st.margin, 11)));
    IF metric IN ('instructions', 'instructions_per_query', 'estimated_cycles')
       AND microbench.count_definition(labels) <> '' THEN
        y := y + 15;
        lines := lines || format('<text class="footer" x="%s" y="%s" font-size="11" fill="%s">%s</text>',
                                 st.margin, y, st.muted_colour, microbench.svg_escape(microbench.svg_fit(
                                     'counted instructions: ' || microbench.count_definition(labels),
                                     st.chart_w - 2 * st.margin, 11)));
    END IF;
END
$$;

-- The chart.  base, others, phase, metric, confidence and threshold as for
-- report_grid(); by_label: one column per other label (per DBMS) instead of
-- one per DBMS (with no driver chosen, Postgres over the wire is a DBMS
-- column of its own, pg-wire); driver, base_driver and other_driver choose
-- the runs as for bench_report(), and the title then names each side by
-- label and driver ("QPS(gcc over pgsql) / QPS(gcc in-server)").  The steps
-- above draw its parts, top to bottom; this lays them out one under the
-- other and puts the document together.
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
    st        constant microbench.svg_style := microbench.svg_style();
    bd        text := coalesce(base_driver, driver);
    od        text := coalesce(other_driver, driver);
    -- the sides by name: the label, and its driver when one was chosen
    base_name text := microbench.side_name(base, bd);
    names     text[] := ARRAY(SELECT microbench.side_name(o.label, od)
                              FROM unnest(others) WITH ORDINALITY AS o(label, ord) ORDER BY o.ord);
    pct       text := round((confidence * 100)::numeric, 1)::float8::text;
    grid      microbench.report_grid_row[];
    title     text;
    cols      record;                   -- svg_columns()'s
    scale     microbench.svg_scale;
    titles    record;                   -- svg_title_lines()'s lines and y
    legend    record;                   -- svg_legend()'s y and items
    caption   record;                   -- svg_caption()'s y and items
    plot      record;                   -- svg_rows()'s y, bands, bars, whiskers, texts and segments
    axis      record;                   -- svg_axis()'s gridlines, ref_lines and labels
    footer    record;                   -- svg_footer()'s y and lines
    panel     record;
    below     text[];                   -- what is written under the plot
    longest   integer;                  -- the longest workload name, in characters
    repeats   boolean;
    has_gap   boolean;
    has_ci    boolean;
    y         double precision;
    plot_top  double precision;
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
    grid := microbench.report_grid_rows(base, others, metric, phase, by_label, confidence, threshold, bd, od);
    IF cardinality(grid) = 0 THEN
        RETURN microbench.svg_no_data(title, phase);
    END IF;
    cols := microbench.svg_columns(grid, by_label);
    SELECT coalesce(bool_or(r.repeated), false),
           bool_or(r.ratio IS NULL OR r.ratio IN ('NaN', 'Infinity', '-Infinity')),
           coalesce(bool_or(r.ci_low IS NOT NULL AND r.ci_high IS NOT NULL
                            AND r.ratio NOT IN ('NaN', 'Infinity', '-Infinity')), false),
           max(length(r.workload))
    INTO repeats, has_gap, has_ci, longest
    FROM unnest(grid) r;
    -- workload names left of the plot, then the plot
    scale := microbench.svg_scale(grid, greatest(120, ceil(longest * 12 * st.char_w)::integer + 12));

    -- title, subtitle, legend, caption, one under the other
    titles := microbench.svg_title_lines(title, phase, repeats,
                                         CASE WHEN coalesce(array_length(others, 1), 0) = 1 THEN names[1] ELSE 'label' END,
                                         base_name);
    legend := microbench.svg_legend(cols.col_name, cols.col_dbms, by_label, cols.many_dbms, cols.dbms_line,
                                    has_gap, titles.y);
    caption := microbench.svg_caption(has_ci, pct, legend.y);

    -- the rows, with room for the tick labels above them, then the axis over them
    plot_top := caption.y + 30;
    plot := microbench.svg_rows(grid, cols.col_order, cols.col_dbms, scale, plot_top);
    axis := microbench.svg_axis(microbench.svg_ticks(scale), scale, plot.seg_top, plot.seg_bot, plot_top, plot.y);
    footer := microbench.svg_footer(repeats, pct, threshold, metric, array_prepend(base, others), plot.y);
    below := footer.lines;
    y := footer.y;
    -- a count of instructions: the functions behind the cells that differ most (41_functions_svg.sql)
    IF metric IN ('instructions', 'instructions_per_query') AND NOT by_label AND cardinality(others) = 1 THEN
        SELECT p.svg, p.height INTO panel
        FROM microbench.functions_svg(base, others[1], phase, confidence, bd, od, y + 8, st.chart_w, st.margin) p;
        IF panel.svg IS NOT NULL THEN
            below := below || panel.svg;
            y := y + 8 + panel.height;
        END IF;
    END IF;
    y := y + st.margin;

    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif"'
                  ' data-ref-x="%s" data-plot-top="%s" data-plot-bottom="%s" data-ref-colour="%s" data-nodata-colour="%s"'
                  ' data-whisker-colour="%s" data-band-colour="%s" data-columns="%s" data-confidence="%s"'
                  ' data-scale="log" data-axis-lo="%s" data-axis-hi="%s" data-px-lo="%s" data-px-hi="%s" data-px-per-ln="%s">',
                  st.chart_w, ceil(y), st.chart_w, ceil(y), scale.ref_x, plot_top, plot.y, st.ref_colour,
                  st.nodata_colour, st.whisker_colour, st.band_colour, array_length(cols.col_order, 1),
                  confidence, scale.lo, scale.hi, scale.px_lo, scale.px_hi, scale.ppu) || E'\n'
        || '<title>' || microbench.svg_escape(title) || '</title>' || E'\n'
        || '<defs>' || array_to_string(microbench.svg_hatch_patterns(array_length(cols.col_order, 1)), '') || '</defs>' || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', st.chart_w, ceil(y)) || E'\n'
        || array_to_string(titles.lines || legend.items || caption.items, E'\n') || E'\n'
        || array_to_string(plot.bands, E'\n') || E'\n'
        || array_to_string(axis.gridlines, E'\n') || E'\n'
        || array_to_string(plot.bars || axis.ref_lines, E'\n') || E'\n'
        || array_to_string(plot.whiskers, E'\n') || E'\n'
        || array_to_string(plot.texts || axis.labels || below, E'\n') || E'\n'
        || '</svg>' || E'\n';
END
$fn$;

COMMENT ON FUNCTION microbench.report_svg(text, text[], text, text, boolean, double precision, double precision, text, text, text) IS
    'relative report as a standalone SVG bar chart: ratio other/base per microbenchmark and column on a log axis, diverging from 1.0, with interval whiskers; hatched: not a difference (= the same, ? not decided)';
