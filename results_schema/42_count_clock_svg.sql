-- 42_count_clock_svg.sql — count and clock as a picture: for every cell of
-- a comparison, the QPS ratio its count implies (across) against the QPS
-- ratio measured (up), both on log axes, each with its interval as a
-- whisker, and the diagonal where the two agree.  A point above the
-- diagonal ran faster than its instructions, below it slower.
-- count_clock_report(format => 'svg') stacks one such panel per comparison
-- and metric (34_count_clock.sql).

-- Tick values for a log axis from lo to hi, px pixels long: round ratios
-- at least 28 pixels apart, 1 first when inside, then outward from it.
CREATE OR REPLACE FUNCTION microbench.cc_ticks(lo double precision, hi double precision, px double precision)
RETURNS double precision[] LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    candidates constant double precision[] := ARRAY[0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95, 0.98,
                                                    0.99, 1, 1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10,
                                                    20, 50, 100];
    per_ln     double precision := px / greatest(ln(hi) - ln(lo), 1e-9);
    kept       double precision[] := '{}';
    v          double precision;
    start      double precision := CASE WHEN lo <= 1 AND 1 <= hi THEN 1 ELSE lo END;
BEGIN
    -- upward from 1 (or lo), then downward from it, each tick far enough from the last kept
    FOREACH v IN ARRAY candidates LOOP
        CONTINUE WHEN v < start OR v > hi;
        IF cardinality(kept) = 0 OR (ln(v) - ln(kept[cardinality(kept)])) * per_ln >= 28 THEN
            kept := kept || v;
        END IF;
    END LOOP;
    FOR i IN REVERSE cardinality(candidates) .. 1 LOOP
        v := candidates[i];
        CONTINUE WHEN v < lo OR v >= start;
        IF cardinality(kept) = 0 OR (ln(kept[1]) - ln(v)) * per_ln >= 28 THEN
            kept := v || kept;
        END IF;
    END LOOP;
    RETURN kept;
END
$$;

-- Where ratio v lies along an axis side pixels long, on a log scale from
-- exp(ln_lo) over span: pixels from the axis's low end.
CREATE OR REPLACE FUNCTION microbench.cc_px(v double precision, ln_lo double precision, span double precision,
                                            side integer)
RETURNS double precision LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$ SELECT side * (ln(v) - ln_lo) / span $$;

-- The panel's frame: a square plot from (left_x, top_y), side pixels on a
-- log scale from exp(ln_lo) over span, its ticks and grid on both axes,
-- the diagonal where count and clock agree, and the axes' names.
CREATE OR REPLACE FUNCTION microbench.cc_frame(ln_lo double precision, span double precision, left_x integer,
                                               top_y integer, side integer)
RETURNS text[] LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st     constant microbench.svg_style := microbench.svg_style();
    parts  text[] := '{}';
    t      double precision;
    x      double precision;
    y      double precision;
BEGIN
    parts := parts || format('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s"/>',
                             left_x, top_y, side, side, st.grid_colour);
    FOREACH t IN ARRAY microbench.cc_ticks(exp(ln_lo), exp(ln_lo + span), side) LOOP
        x := left_x + microbench.cc_px(t, ln_lo, span, side);
        y := top_y + side - microbench.cc_px(t, ln_lo, span, side);
        parts := parts || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>', microbench.svg_num(x), top_y,
                                 microbench.svg_num(x), top_y + side, st.grid_colour)
                       || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>', left_x, microbench.svg_num(y),
                                 left_x + side, microbench.svg_num(y), st.grid_colour)
                       || format('<text x="%s" y="%s" font-size="11" text-anchor="middle" fill="%s">%s</text>',
                                 microbench.svg_num(x), top_y + side + 14, st.muted_colour, microbench.svg_tick(t))
                       || format('<text x="%s" y="%s" font-size="11" text-anchor="end" fill="%s">%s</text>',
                                 left_x - 4, microbench.svg_num(y + 4), st.muted_colour, microbench.svg_tick(t));
    END LOOP;
    parts := parts || format('<line class="diagonal" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-dasharray="4 3"/>',
                             left_x, top_y + side, left_x + side, top_y, st.ref_colour)
                   || format('<text x="%s" y="%s" font-size="12" text-anchor="middle" fill="%s">%s</text>',
                             left_x + side / 2, top_y + side + 32, st.text_colour,
                             microbench.svg_escape('QPS ratio the count implies'))
                   || format('<text x="%s" y="%s" font-size="12" text-anchor="middle" fill="%s" transform="rotate(-90 %s %s)">%s</text>',
                             left_x - 44, top_y + side / 2, st.text_colour, left_x - 44, top_y + side / 2,
                             microbench.svg_escape('QPS ratio measured'));
    RETURN parts;
END
$$;

-- The names of the cells that disagree, right of their points: taken top
-- to bottom, each name moved down below any already placed that it would
-- overlap, with a thin line back to its point when it moved.
CREATE OR REPLACE FUNCTION microbench.cc_labels(xs double precision[], ys double precision[], names text[])
RETURNS text[] LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st       constant microbench.svg_style := microbench.svg_style();
    line_px  constant double precision := 11;
    wide_px  constant double precision := 170;   -- about a name's width at 10 pixels
    placed_x double precision[] := '{}';
    placed_y double precision[] := '{}';
    out      text[] := '{}';
    i        integer;
    k        integer;
    ly       double precision;
    moved    boolean;
BEGIN
    FOR i IN SELECT o FROM generate_subscripts(ys, 1) o ORDER BY ys[o], o LOOP
        ly := ys[i] - 5;
        LOOP
            moved := false;
            FOR k IN 1 .. cardinality(placed_y) LOOP
                IF abs(placed_y[k] - ly) < line_px AND abs(placed_x[k] - xs[i]) < wide_px THEN
                    ly := placed_y[k] + line_px;
                    moved := true;
                END IF;
            END LOOP;
            EXIT WHEN NOT moved;
        END LOOP;
        placed_x := placed_x || xs[i];
        placed_y := placed_y || ly;
        IF ly - (ys[i] - 5) > 6 THEN
            out := out || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="0.5"/>',
                                 microbench.svg_num(xs[i] + 3), microbench.svg_num(ys[i] + 3),
                                 microbench.svg_num(xs[i] + 6), microbench.svg_num(ly - 3), st.muted_colour);
        END IF;
        out := out || format('<text x="%s" y="%s" font-size="10" fill="%s">%s</text>', microbench.svg_num(xs[i] + 6),
                             microbench.svg_num(ly), st.text_colour, microbench.svg_escape(names[i]));
    END LOOP;
    RETURN out;
END
$$;

-- One comparison's panel as a standalone SVG document.
CREATE OR REPLACE FUNCTION microbench.count_clock_svg(base text, other text, cells microbench.count_clock_cell[],
                                                      count_metric text)
RETURNS text LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    st       constant microbench.svg_style := microbench.svg_style();
    left_x   constant integer := 80;      -- the plot's left edge
    top_y    integer;                     -- the plot's top, under the legend
    side     constant integer := 420;     -- the plot is a square
    width    constant integer := 720;
    lo       double precision;
    hi       double precision;
    ln_lo    double precision;
    span     double precision;
    cols     text[];
    parts    text[] := '{}';
    c        microbench.count_clock_cell;
    x        double precision;
    y        double precision;
    colour   text;
    i        integer;
    height   integer;
    agree    integer;
    whiskers text[] := '{}';
    points   text[] := '{}';
    label_x  double precision[] := '{}';
    label_y  double precision[] := '{}';
    names    text[] := '{}';
BEGIN
    -- the frame holds every point and 1; a whisker longer than that is cut
    -- at the frame (its interval is in the point's title)
    SELECT least(min(least(x.implied, x.measured)), 1), greatest(max(greatest(x.implied, x.measured)), 1)
    INTO lo, hi
    FROM unnest(cells) x;
    -- a little room around the farthest point, and at least ±2% around 1
    ln_lo := least(ln(lo), -0.02) - 0.1 * greatest(ln(hi) - ln(lo), 0.04);
    span := greatest(ln(hi), 0.02) + 0.1 * greatest(ln(hi) - ln(lo), 0.04) - ln_lo;
    SELECT array_agg(d ORDER BY microbench.dbms_order(d)) INTO cols
    FROM (SELECT DISTINCT x.dbms AS d FROM unnest(cells) x) s;
    SELECT count(*) FILTER (WHERE x.consistent) INTO agree FROM unnest(cells) x;

    parts := parts || format('<text x="%s" y="24" font-size="15" font-weight="bold" fill="%s">%s</text>',
                             st.margin, st.text_colour, microbench.svg_escape(microbench.svg_fit(format(
                                 'Count and clock: QPS(%s) / QPS(%s)', other, base), width - 2 * st.margin, 15)))
                   || format('<text x="%s" y="42" font-size="12" fill="%s">%s</text>', st.margin, st.muted_colour,
                             microbench.svg_escape(format(
                                 'measured (up) and implied by %s (across): 1 / (s / r + 1 - s), r the count ratio,',
                                 replace(count_metric, '_', ' '))))
                   || format('<text x="%s" y="57" font-size="12" fill="%s">%s</text>', st.margin, st.muted_colour,
                             microbench.svg_escape(microbench.svg_fit(format(
                                 's the share of a query''s time in %s''s server user code; %s of %s cells agree',
                                 base, agree, cardinality(cells)), width - 2 * st.margin, 12)));
    -- the legend: a column's colour, a line each
    FOR i IN 1 .. cardinality(cols) LOOP
        parts := parts || format('<circle cx="%s" cy="%s" r="5" fill="%s"/><text x="%s" y="%s" font-size="12" fill="%s">%s</text>',
                                 st.margin + 6, 58 + 16 * i, microbench.svg_colour(microbench.dbms_order(cols[i])),
                                 st.margin + 16, 62 + 16 * i, st.text_colour,
                                 microbench.svg_escape(microbench.dbms_legend(cols[i], cols)));
    END LOOP;
    parts := parts || format('<text x="%s" y="%s" font-size="11" fill="%s">%s</text>', st.margin,
                             78 + 16 * cardinality(cols), st.muted_colour,
                             microbench.svg_escape('filled: count and clock agree (the intervals overlap); hollow and named:'
                                                   ' they do not; above the diagonal: faster than its count'));
    top_y := 94 + 16 * cardinality(cols);
    parts := parts || microbench.cc_frame(ln_lo, span, left_x, top_y, side);
    -- the cells: their whiskers first, the points drawn over all of them
    FOREACH c IN ARRAY cells LOOP
        colour := microbench.svg_colour(microbench.dbms_order(c.dbms));
        x := left_x + microbench.cc_px(c.implied, ln_lo, span, side);
        y := top_y + side - microbench.cc_px(c.measured, ln_lo, span, side);
        IF c.implied_low IS NOT NULL THEN
            whiskers := whiskers || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" opacity="0.6"/>',
                                           microbench.svg_num(left_x + microbench.cc_px(greatest(c.implied_low, exp(ln_lo)), ln_lo, span, side)),
                                           microbench.svg_num(y),
                                           microbench.svg_num(left_x + microbench.cc_px(least(c.implied_high, exp(ln_lo + span)), ln_lo, span, side)),
                                           microbench.svg_num(y), colour);
        END IF;
        IF c.measured_low IS NOT NULL THEN
            whiskers := whiskers || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" opacity="0.6"/>',
                                           microbench.svg_num(x),
                                           microbench.svg_num(top_y + side - microbench.cc_px(greatest(c.measured_low, exp(ln_lo)), ln_lo, span, side)),
                                           microbench.svg_num(x),
                                           microbench.svg_num(top_y + side - microbench.cc_px(least(c.measured_high, exp(ln_lo + span)), ln_lo, span, side)),
                                           colour);
        END IF;
        points := points || format('<circle class="cell" cx="%s" cy="%s" r="4" fill="%s" stroke="%s" stroke-width="1.5"'
                                   ' data-dbms="%s" data-workload="%s" data-mark="%s"><title>%s</title></circle>',
                                   microbench.svg_num(x), microbench.svg_num(y),
                                   CASE WHEN coalesce(c.consistent, false) THEN colour ELSE '#ffffff' END, colour,
                                   microbench.svg_escape(c.dbms), microbench.svg_escape(c.workload), microbench.svg_escape(c.mark),
                                   microbench.svg_escape(format('%s %s: implies %s, measured %s: %s', microbench.dbms_short(c.dbms),
                                                                c.workload, microbench.report_cell_interval(microbench.cc_num(c.implied), c.implied_low, c.implied_high),
                                                                microbench.report_cell_interval(microbench.cc_num(c.measured), c.measured_low, c.measured_high),
                                                                c.reason)));
        IF NOT coalesce(c.consistent, false) THEN
            label_x := label_x || x;
            label_y := label_y || y;
            names := names || (microbench.dbms_short(c.dbms) || ' ' || c.workload);
        END IF;
    END LOOP;
    parts := parts || whiskers || points || microbench.cc_labels(label_x, label_y, names);
    height := top_y + side + 48;
    RETURN format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif">',
                  width, height, width, height) || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', width, height) || E'\n'
        || array_to_string(parts, E'\n') || E'\n</svg>';
END
$$;

-- Standalone SVG documents one under the other, as one document: each
-- keeps its own coordinates in a nested svg element (svg_nest()).
CREATE OR REPLACE FUNCTION microbench.svg_stack(docs text[])
RETURNS text LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d      text;
    n      record;
    width  integer := 0;
    y      integer := 0;
    inner_ text := '';
BEGIN
    IF coalesce(cardinality(docs), 0) = 0 THEN
        RETURN '';
    END IF;
    FOREACH d IN ARRAY docs LOOP
        n := microbench.svg_nest(d, y);
        inner_ := inner_ || n.svg || E'\n';
        width := greatest(width, n.width);
        y := y + n.height;
    END LOOP;
    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">',
                  width, y, width, y) || E'\n' || inner_ || '</svg>' || E'\n';
END
$$;
