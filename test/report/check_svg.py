#!/usr/bin/env python3
"""check_svg.py — check the PICTURE of a microbench SVG chart, not just its XML.

    check_svg.py [options] CHART.svg CHART.png

CHART.svg is the output of microbench.report_svg(); CHART.png its screenshot
(test/report/render_svg.sh, one device pixel per SVG unit).  The script reads
what the SVG means to draw from its data-* attributes (column colours, bar
boxes and ratios, the 1.0 line, missing cells), decodes the PNG with zlib
and struct only, and checks that the pixels show it:

  - the picture has the SVG's size and is not blank;
  - the ratio axis is logarithmic: the SVG's mapping (data-ref-x,
    data-px-per-ln, data-axis-lo/hi) is consistent, and each tick label
    stands where its value belongs on it;
  - each column's bars appear in its colour, at the place the SVG gives,
    on the right side of the 1.0 line (right for ratio > 1, left for < 1),
    with nothing of that colour on the other side, and each painted bar is
    as long as ln(ratio) on the axis says (so 0.5 and 2.0 are equally long);
  - the 1.0 reference line is a vertical run of its colour at the
    reference x through the rows of each group;
  - each interval is a whisker painted from ci_low to ci_high on the same
    axis, with caps at its ends, and an arrow instead of a cap where the
    interval reaches past the axis end;
  - cells that are not a significant difference are drawn lighter and
    hatched (the tint and the column colour both inside the bar), and the
    caption shows the hatch and names the whiskers' confidence;
  - missing cells show the grey no-data mark and no bar of their column in
    their whole slot (a row without data: of no column);
  - group headings have their band to themselves: no bar, whisker or line
    pixel in it;
  - the legend swatches, the DBMS names and the workload names were
    painted, every text is at least 11px, and no two texts (or a text and
    a bar or whisker) overlap, by an estimate of the text widths.

Prints one TAP line per check ("ok - ..." / "not ok - ...", unnumbered) with
"# " diagnostics; exits 1 when a check failed, 2 on bad usage.
"""

import argparse
import math
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from collections import Counter

SVG_NS = "http://www.w3.org/2000/svg"

results = []


def ok(cond, desc, *diag):
    results.append(bool(cond))
    print(("ok" if cond else "not ok") + " - " + desc)
    if not cond:
        for d in diag:
            print("# " + str(d))
    sys.stdout.flush()
    return bool(cond)


# --- PNG ------------------------------------------------------------------

class Png:
    """An 8-bit RGB(A)/grey PNG, non-interlaced, pixels composited on white."""

    def __init__(self, path):
        data = open(path, "rb").read()
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("not a PNG file")
        pos, idat, ihdr = 8, [], None
        while pos + 8 <= len(data):
            n, = struct.unpack(">I", data[pos:pos + 4])
            kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
            pos += 12 + n
            if kind == b"IHDR":
                ihdr = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat.append(body)
            elif kind == b"IEND":
                break
        if ihdr is None:
            raise ValueError("no IHDR chunk")
        self.w, self.h, depth, ctype, _, _, interlace = ihdr
        if depth != 8 or interlace != 0 or ctype not in (0, 2, 4, 6):
            raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d"
                             % (depth, ctype, interlace))
        bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
        raw = zlib.decompress(b"".join(idat))
        stride = self.w * bpp
        prev = bytearray(stride)
        self.rows = []
        i = 0
        for _ in range(self.h):
            f = raw[i]
            line = bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            if f == 1:
                for x in range(bpp, stride):
                    line[x] = (line[x] + line[x - bpp]) & 255
            elif f == 2:
                for x in range(stride):
                    line[x] = (line[x] + prev[x]) & 255
            elif f == 3:
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0
                    line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
            elif f == 4:
                for x in range(stride):
                    a = line[x - bpp] if x >= bpp else 0
                    b = prev[x]
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif f != 0:
                raise ValueError("bad filter type %d" % f)
            self.rows.append(self._rgb(line, bpp))
            prev = line

    @staticmethod
    def _rgb(line, bpp):
        """The row as bytes r,g,b,r,g,b,... composited on white."""
        if bpp == 3:
            return bytes(line)
        if bpp == 1:
            return bytes(v for g in line for v in (g, g, g))
        out = bytearray()
        for p in range(0, len(line), bpp):
            px = line[p:p + bpp]
            a = px[-1]
            rgb = px[:3] if bpp == 4 else bytes((px[0],) * 3)
            out.extend((v * a + 255 * (255 - a) + 127) // 255 for v in rgb)
        return bytes(out)

    def px(self, x, y):
        x, y = int(x), int(y)
        if not (0 <= x < self.w and 0 <= y < self.h):
            return None
        r = self.rows[y]
        return (r[3 * x], r[3 * x + 1], r[3 * x + 2])

    def colours(self, x0, y0, x1, y1):
        """Counter of the colours in the box [x0, x1) x [y0, y1)."""
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(self.w, int(x1)), min(self.h, int(y1))
        cnt = Counter()
        if x1 <= x0 or y1 <= y0:
            return cnt
        for y in range(y0, y1):
            seg = self.rows[y][3 * x0:3 * x1]
            cnt.update(zip(seg[0::3], seg[1::3], seg[2::3]))
        return cnt


def hexcol(s):
    s = s.strip().lstrip("#")
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))


def near(a, b, tol):
    return a is not None and all(abs(p - q) <= tol for p, q in zip(a, b))


def count(cnt, colour, tol=3):
    return sum(n for c, n in cnt.items() if near(c, colour, tol))


def dark(cnt, limit=130):
    return sum(n for c, n in cnt.items() if sum(c) / 3 < limit)


# --- SVG ------------------------------------------------------------------

def tag(el):
    return el.tag.split("}", 1)[-1]


def num(el, name, default=0.0):
    v = el.get(name)
    return float(v) if v not in (None, "") else default


def classes(el):
    return (el.get("class") or "").split()


def text_box(el):
    """Estimated box (x0, y0, x1, y1) of a <text>: 0.55 em per glyph (0.62 bold)."""
    fs = num(el, "font-size", 12)
    s = "".join(el.itertext())
    w = len(s) * fs * (0.62 if el.get("font-weight") == "bold" else 0.55)
    x, y = num(el, "x"), num(el, "y")
    anchor = el.get("text-anchor", "start")
    x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return (x0, y - 0.78 * fs, x0 + w, y + 0.2 * fs)


def is_mix(p, colour, tint, tol=14):
    """p lies (within tol) on the segment from colour to tint: a bar's pixel, solid or hatched."""
    if p is None:
        return False
    d = [t - c for c, t in zip(colour, tint)]
    dd = sum(v * v for v in d)
    t = 0.0 if dd == 0 else max(0.0, min(1.0, sum((q - c) * v for q, c, v in zip(p, colour, d)) / dd))
    return all(abs(q - (c + t * v)) <= tol for q, c, v in zip(p, colour, d))


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("svg")
    ap.add_argument("png")
    ap.add_argument("--expect-title", help="the exact title text (after XML unescaping)")
    ap.add_argument("--expect-group", action="append", default=None,
                    help="a group heading, in order (repeat the option)")
    ap.add_argument("--expect-columns", type=int, help="number of columns (bar colours)")
    ap.add_argument("--expect-bars", type=int, help="number of bars (cells with a ratio)")
    ap.add_argument("--expect-noisy", type=int, help="number of those within the noise")
    ap.add_argument("--expect-noise", action="store_true", help="the chart must have cells within the noise")
    ap.add_argument("--expect-nodata", action="store_true", help="the chart must have missing cells")
    ap.add_argument("--expect-empty", action="store_true", help="the chart must be the 'no data' picture")
    ap.add_argument("--expect-whiskers", type=int, help="number of whiskers (cells with an interval)")
    ap.add_argument("--expect-cut", type=int, help="number of whisker ends cut at the axis end")
    ap.add_argument("--expect-mirror", type=float, action="append", default=[],
                    help="bars of ratio R and 1/R exist and are equally long (repeat the option)")
    ap.add_argument("--expect-visible", type=float, action="append", default=[],
                    help="bars of ratio R (+-0.1%%) exist and are painted at least 4 px long (repeat the option)")
    ap.add_argument("--expect-confidence", type=float, help="the confidence the chart says, e.g. 0.95")
    args = ap.parse_args()

    try:
        root = ET.parse(args.svg).getroot()
        good = (root.tag == "{%s}svg" % SVG_NS and root.get("width") and root.get("height")
                and root.get("viewBox"))
    except (ET.ParseError, OSError) as e:
        root, good = None, False
        print("# " + str(e))
    if not ok(good, "SVG is well-formed, svg root in the SVG namespace with width, height and viewBox"):
        return 1
    W, H = int(float(root.get("width"))), int(float(root.get("height")))
    els = list(root.iter())
    texts = [e for e in els if tag(e) == "text"]

    try:
        png = Png(args.png)
        ok(png.w >= W and png.h >= H and png.w <= W + 2,
           "PNG decodes and holds the whole %dx%d chart (got %dx%d)" % (W, H, png.w, png.h))
    except (ValueError, OSError, zlib.error) as e:
        ok(False, "PNG decodes", e)
        return 1
    whole = png.colours(0, 0, W, H)
    nonwhite = W * H - count(whole, (255, 255, 255), 2)
    ok(nonwhite >= 0.005 * W * H and dark(whole) > 200,
       "picture is not blank: %.1f%% non-white pixels, %d dark text pixels, %d colours"
       % (100.0 * nonwhite / (W * H), dark(whole), len(whole)))

    if args.expect_title is not None:
        # <title> whole; the visible title whole or, when too long, cut with "..."
        whole = ["".join(e.itertext()) for e in els if tag(e) == "title"]
        shown = ["".join(e.itertext()) for e in texts if "title" in classes(e)]
        ok(whole == [args.expect_title] and len(shown) == 1
           and (shown[0] == args.expect_title
                or (shown[0].endswith("...") and args.expect_title.startswith(shown[0][:-3]))),
           "title reads %r" % args.expect_title, "got <title> %r, shown %r" % (whole, shown))

    small = [("".join(e.itertext()), num(e, "font-size", 16)) for e in texts if num(e, "font-size", 16) < 11]
    ok(not small, "every text is at least 11px", "too small: %r" % small[:5])

    if root.get("data-empty") == "true" or args.expect_empty:
        said = " ".join("".join(e.itertext()) for e in texts)
        ok(root.get("data-empty") == "true" and "no data" in said, "empty chart says 'no data'", said)
        # the 'no data' line was painted: dark-ish pixels along each text's baseline
        painted = all(dark(png.colours(*text_box(e)), 200) > 20 for e in texts)
        ok(painted, "empty chart's texts are painted")
        return 0 if all(results) else 1

    ref_x = num(root, "data-ref-x")
    top, bot = num(root, "data-plot-top"), num(root, "data-plot-bottom")
    ref_colour = hexcol(root.get("data-ref-colour", "#000000"))
    nodata_colour = hexcol(root.get("data-nodata-colour", "#9e9e9e"))
    whisker_colour = hexcol(root.get("data-whisker-colour", "#111111"))
    band_colour = hexcol(root.get("data-band-colour", "#e9edf2"))
    ncols = int(root.get("data-columns", "0"))
    bars = [e for e in els if tag(e) == "rect" and "bar" in classes(e)]
    marks = [e for e in els if tag(e) == "rect" and "nodata" in classes(e)]
    whiskers = [e for e in els if tag(e) == "g" and "whisker" in classes(e)]
    swatches = {int(e.get("data-col")): e for e in els if "swatch" in classes(e)}
    colour = {}
    tint = {}
    for b in bars:
        colour[int(b.get("data-col"))] = hexcol(b.get("data-colour"))
        tint[int(b.get("data-col"))] = hexcol(b.get("data-tint"))
    for i, s in swatches.items():
        colour.setdefault(i, hexcol(s.get("fill")))
        tint.setdefault(i, colour[i])

    # the log axis: x(r) = ref_x + ln(r) * ppu, between px_lo and px_hi
    ppu = num(root, "data-px-per-ln")
    lo, hi = num(root, "data-axis-lo"), num(root, "data-axis-hi")
    px_lo, px_hi = num(root, "data-px-lo"), num(root, "data-px-hi")
    if not ok(root.get("data-scale") == "log" and ppu > 0 and 0 < lo < 1 < hi
              and abs(ref_x - round(ref_x)) < 1e-9
              and abs(px_lo - (ref_x + math.log(lo) * ppu)) < 0.05 and abs(px_hi - (ref_x + math.log(hi) * ppu)) < 0.05
              and 0 < px_lo < ref_x < px_hi < W,
              "the ratio axis is logarithmic, %g .. %g, 1.0 at x=%d, %.1f px per unit of ln(ratio)" % (lo, hi, ref_x, ppu),
              "scale %r, lo %r, hi %r, px %r .. %r, ppu %r" % (root.get("data-scale"), lo, hi, px_lo, px_hi, ppu)):
        return 1

    def xof(r):
        """Where ratio r belongs on the axis (a whole pixel), clamped to the axis ends."""
        if r <= 0:
            return round(px_lo)
        return min(max(round(ref_x + math.log(r) * ppu), round(px_lo)), round(px_hi))

    ticks = [e for e in texts if "tick" in classes(e) and "ref" not in classes(e)]
    bad = []
    for t in ticks:
        v = float(t.get("data-value"))
        label = "".join(t.itertext())
        if not (lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)) or abs(num(t, "x") - xof(v)) > 1 \
                or abs(float(label) - v) > 1e-9 * v:
            bad.append("tick %r (value %g) at x=%s, belongs at %d" % (label, v, t.get("x"), xof(v)))
    left = {t.get("data-value") for t in ticks if float(t.get("data-value")) < 1}
    right = {t.get("data-value") for t in ticks if float(t.get("data-value")) > 1}
    ok(left and right and not bad,
       "tick labels %s | 1.0 | %s stand at their values on the log axis"
       % (", ".join(sorted(left, key=float)), ", ".join(sorted(right, key=float))),
       *(bad or ["no tick on one side of 1.0"]))

    if args.expect_columns is not None:
        ok(ncols == args.expect_columns and len(swatches) == ncols,
           "%d columns, each with a legend swatch" % args.expect_columns,
           "data-columns=%d, swatches %d" % (ncols, len(swatches)))
    if args.expect_bars is not None:
        ok(len(bars) == args.expect_bars, "%d bars" % args.expect_bars, "got %d" % len(bars))
    if args.expect_noisy is not None:
        got = sum("noise" in classes(b) for b in bars)
        ok(got == args.expect_noisy, "%d bars are not a significant difference" % args.expect_noisy,
           "got %d" % got)
    if args.expect_group is not None:
        got = ["".join(e.itertext()) for e in texts if "group" in classes(e)]
        ok(got == args.expect_group, "group headings, in order: %s" % " | ".join(args.expect_group),
           "got %r" % got)

    # every column's colour is present: the solid bars (or the tint if it has only noisy ones)
    plot = png.colours(0, top, W, bot)
    for i in sorted(set(colour) | set(swatches)):
        name = next(("".join(t.itertext()) for t in texts
                     if "legend" in classes(t) and t.get("data-col") == str(i)), str(i))
        solid = [b for b in bars if int(b.get("data-col")) == i and "noise" not in classes(b)]
        noisy = [b for b in bars if int(b.get("data-col")) == i and "noise" in classes(b)
                 and num(b, "width") >= 4]     # not hidden by the 1.0 line
        if solid:
            # a whisker covers a row and its caps of each bar
            area = sum(max(num(b, "width") - 1, 1) * (num(b, "height") - 1) for b in solid) \
                - 16 * len([w for w in whiskers if w.get("data-col") == str(i)])
            got = count(plot, colour[i])
            ok(got >= 0.8 * area, "column %d (%s): its bars are drawn in %s (%d px, bars %d px)"
               % (i, name, "#%02x%02x%02x" % colour[i], got, area))
        elif noisy:
            got = count(plot, tint[i])
            ok(got > 0, "column %d (%s): only noisy bars, drawn in the tint %s (%d px)"
               % (i, name, "#%02x%02x%02x" % tint[i], got))
        else:
            ok(True, "column %d (%s): no data at all, no bar to find" % (i, name))

    # every bar at its place, on its side of the 1.0 line, nothing on the other side,
    # as long as the log axis says: measured on its top row, which no whisker crosses
    wrong = []
    painted = {}
    for b in bars:
        i = int(b.get("data-col"))
        x, y, w, h = num(b, "x"), num(b, "y"), num(b, "width"), num(b, "height")
        r = float(b.get("data-ratio"))
        want = [colour[i], tint[i]] if "noise" in classes(b) else [colour[i]]
        inner_y0, inner_y1 = y + 2, y + h - 2
        if w >= 6:
            box = (x + 2, inner_y0, x + w - 2, inner_y1)
            cnt = png.colours(*box)
            have = sum(count(cnt, c) for c in want) + count(cnt, whisker_colour, 8)
            area = max(1, (int(box[2]) - int(box[0])) * (int(box[3]) - int(box[1])))
            if have < 0.5 * area:
                wrong.append("bar col %d ratio %.3f: %d of %d px in its colour" % (i, r, have, area))
        # the other side of the line, as wide as the bar
        span = max(w, 8)
        other = (ref_x + 3, inner_y0, ref_x + 3 + span, inner_y1) if r < 1 else \
                (ref_x - 3 - span, inner_y0, ref_x - 3, inner_y1)
        cnt = png.colours(*other)
        stray = sum(count(cnt, c) for c in [colour[i], tint[i]])
        if stray:
            wrong.append("bar col %d ratio %.3f: %d px of its colour on the wrong side" % (i, r, stray))
        if (r > 1 and x < ref_x - 2) or (r < 1 and x + w > ref_x + 2):
            wrong.append("bar col %d ratio %.3f: SVG box %.1f..%.1f on the wrong side of %.1f"
                         % (i, r, x, x + w, ref_x))
        # the painted length, from the 1.0 line (2 px wide, over the bars) outwards
        row = int(y) + 1
        step = 1 if r >= 1 else -1
        px = int(ref_x) + (1 if r >= 1 else -2)
        while is_mix(png.px(px, row), colour[i], tint[i]):
            px += step
        length = (px - ref_x) if r >= 1 else (ref_x - 1 - px)
        expect = abs(xof(r) - ref_x)
        painted[b] = length
        # (a hatched bar's outline may add a pixel)
        if not -1.5 <= length - expect <= (2.5 if "noise" in classes(b) else 1.5):
            wrong.append("bar col %d ratio %.3f: painted %d px long, ln(ratio) on the axis says %d px"
                         % (i, r, length, expect))
    ok(bars and not wrong, "all %d bars are painted at their place, on their side of the 1.0 line, "
       "as long as ln(ratio) on the axis" % len(bars), *wrong[:10])

    for m in args.expect_mirror:
        a = [b for b in bars if abs(float(b.get("data-ratio")) - m) <= 1e-9 * m]
        z = [b for b in bars if abs(float(b.get("data-ratio")) - 1 / m) <= 1e-9 / m]
        ok(a and z and abs(painted[a[0]] - painted[z[0]]) <= 1,
           "ratios %g and %g are bars of one length, on either side of 1.0 (%s and %s px)"
           % (m, 1 / m, a and painted[a[0]], z and painted[z[0]]))
    for v in args.expect_visible:
        a = [b for b in bars if abs(float(b.get("data-ratio")) / v - 1) <= 1e-3]
        ok(a and min(painted[b] for b in a) >= 4, "the bars of ratio %g are visible: %s px long"
           % (v, ", ".join("%d" % painted[b] for b in a)))

    # the 1.0 line: through the rows of each group, a vertical run of its colour at ref_x, nowhere else
    segs = [(num(e, "y1"), num(e, "y2")) for e in els if tag(e) == "line" and "ref-line" in classes(e)]
    bad = []
    for y1, y2 in segs:
        need = 0.95 * (y2 - y1)
        mid = int((y1 + y2) / 2)
        tall = []
        for x in range(W):
            if not near(png.px(x, mid), ref_colour, 10):
                continue
            run = best = 0
            for y in range(int(y1), int(y2)):
                # a whisker is drawn over the line
                p = png.px(x, y)
                run = run + 1 if near(p, ref_colour, 10) or near(p, whisker_colour, 8) else 0
                best = max(best, run)
            if best >= need:
                tall.append(x)
        if not tall or any(abs(x - ref_x) > 2 for x in tall):
            bad.append("rows %d..%d: tall runs at x=%r" % (y1, y2, tall[:20]))
    ok(segs and not bad, "the 1.0 line is a vertical run of %s at x=%d through the rows of each of %d groups"
       % ("#%02x%02x%02x" % ref_colour, ref_x, len(segs)), *bad)

    # whiskers: from ci_low to ci_high on the log axis, caps at the ends, an arrow where cut
    if whiskers or args.expect_whiskers is not None:
        bad = []
        cuts = 0
        for g in whiskers:
            cl, ch = float(g.get("data-ci-low")), float(g.get("data-ci-high"))
            cy = int(num(g, "data-cy"))
            cut_l, cut_h = cl < lo * (1 - 1e-9), ch > hi * (1 + 1e-9)
            cuts += cut_l + cut_h
            xl, xh = xof(cl), xof(ch)
            what = "whisker col %s ratio %s [%.3f, %.3f]" % (g.get("data-col"), g.get("data-ratio"), cl, ch)
            if (g.get("data-cut-low") == "true") != cut_l or (g.get("data-cut-high") == "true") != cut_h:
                bad.append("%s: SVG says cut %s/%s, the axis %g..%g says %s/%s"
                           % (what, g.get("data-cut-low"), g.get("data-cut-high"), lo, hi, cut_l, cut_h))
            on = [x for x in range(xl - 8, xh + 9) if near(png.px(x, cy), whisker_colour, 8)]
            if not on:
                bad.append("%s: nothing painted on row %d" % (what, cy))
                continue
            x0, x1 = min(on), max(on)
            gaps = (x1 - x0 + 1) - len(on)
            if abs(x0 - xl) > 2 or abs(x1 - xh) > 2 or gaps > 0:
                bad.append("%s: painted %d..%d (%d gaps), belongs at %d..%d" % (what, x0, x1, gaps, xl, xh))

            def rows(x):
                return sum(near(png.px(x, y), whisker_colour, 8) for y in range(cy - 6, cy + 7))
            for end, cut, inward in ((xl, cut_l, 1), (xh, cut_h, -1)):
                tip = end if inward == 1 else end - 1
                if cut:
                    # an arrow: narrow at the axis end, wide a few px inside
                    if not (rows(tip) <= 3 and rows(tip + 5 * inward) >= 5):
                        bad.append("%s: no arrow at the cut end x=%d (%d rows at the tip, %d inside)"
                                   % (what, end, rows(tip), rows(tip + 5 * inward)))
                elif max(rows(end - 1), rows(end)) < 7:
                    bad.append("%s: no cap at x=%d (%d rows)" % (what, end, max(rows(end - 1), rows(end))))
        ok(not bad and (args.expect_whiskers is None or len(whiskers) == args.expect_whiskers),
           "%d whiskers are painted from ci_low to ci_high on the log axis, with caps" % len(whiskers),
           "expected %s" % args.expect_whiskers, *bad[:10])
        if args.expect_cut is not None:
            ok(cuts == args.expect_cut, "%d whisker ends reach past the axis and are cut, with an arrow"
               % args.expect_cut, "got %d" % cuts)

    # cells that are not a significant difference: lighter and hatched
    noisy = [b for b in bars if "noise" in classes(b)]
    if noisy or args.expect_noise:
        bad = []
        for b in noisy:
            i = int(b.get("data-col"))
            x, y, w, h = num(b, "x"), num(b, "y"), num(b, "width"), num(b, "height")
            box = (x + 1, y + 1, x + w - 1, y + h - 1)
            cnt = png.colours(*box)
            area = max(1, (int(box[2]) - int(box[0])) * (int(box[3]) - int(box[1])))
            t, c = count(cnt, tint[i], 4), count(cnt, colour[i], 4)
            if w >= 8 and (t < 0.2 * area or c < 0.03 * area):
                bad.append("col %d ratio %s: tint %d px, stripes %d px of %d"
                           % (i, b.get("data-ratio"), t, c, area))
            elif w >= 4 and t == 0:
                bad.append("col %d ratio %s: no tint" % (i, b.get("data-ratio")))
        ok(noisy and not bad, "%d cells that are not a significant difference are drawn lighter and hatched"
           % len(noisy), *(bad or ["no such cell in the SVG"]))

    # the caption: the hatch and the whiskers, with the confidence used
    conf = float(root.get("data-confidence", "nan"))
    pct = "%g%%" % round(conf * 100, 1)
    caption = ["".join(t.itertext()) for t in texts if "caption" in classes(t)]
    legend = [e for e in els if "swatch-noise" in classes(e)]
    lg = legend and png.colours(num(legend[0], "x"), num(legend[0], "y"),
                                num(legend[0], "x") + num(legend[0], "width"),
                                num(legend[0], "y") + num(legend[0], "height"))
    sample = [e for e in els if "swatch-whisker" in classes(e)]
    ws = sample and png.colours(0, num(sample[0], "data-cy") - 6, 60, num(sample[0], "data-cy") + 7)
    ok(legend and count(lg, (0xdd, 0xdd, 0xdd), 4) > 10 and count(lg, (0x77, 0x77, 0x77), 8) > 10
       and sample and count(ws, whisker_colour, 8) >= 25
       and any(c.startswith("whiskers: %s interval" % pct) for c in caption)
       and any("hatched" in c and "not a difference" in c for c in caption)
       and (args.expect_confidence is None or abs(conf - args.expect_confidence) < 1e-9)
       and all(dark(png.colours(*text_box(t))) >= 15 for t in texts if "caption" in classes(t)),
       "the caption shows a whisker and the hatch: whiskers: %s interval; hatched: not a difference"
       % pct, "caption %r, confidence %r" % (caption, conf))

    # missing cells: the grey mark, and no bar of the column anywhere in the slot
    if marks or args.expect_nodata:
        bad = []
        for m in marks:
            col = m.get("data-col")           # "*": the whole row has no data
            cols = sorted(colour) if col == "*" else [int(col)]
            x, y, w, h = num(m, "x"), num(m, "y"), num(m, "width"), num(m, "height")
            got = count(png.colours(x, y, x + w, y + h), nodata_colour, 3)
            if got < 0.6 * w * h:
                bad.append("mark col %s at y=%s: %d grey px" % (col, y, got))
            sy, sh = num(m, "data-slot-y"), num(m, "data-slot-h")
            cnt = png.colours(0, sy, W, sy + sh)
            stray = sum(count(cnt, c) for i in cols for c in [colour.get(i), tint.get(i)] if c)
            if stray:
                bad.append("missing cell col %s at y=%s: %d px of a bar" % (col, sy, stray))
        ok(marks and not bad, "%d missing cells show the grey no-data mark and no bar" % len(marks),
           *(bad or ["no missing cell in the SVG"]))
        ok(any("no data" in "".join(t.itertext()) for t in texts), "the legend names the no-data mark")

    # group headings: a band of their own, nothing of the plot in it
    heads = [e for e in els if tag(e) == "rect" and "group-band" in classes(e)]
    titles = [e for e in texts if "group" in classes(e)]
    bad = []
    for band, title in zip(heads, titles):
        x, y, w, h = num(band, "x"), num(band, "y"), num(band, "width"), num(band, "height")
        name = "".join(title.itertext())
        tb = text_box(title)
        if not (x <= tb[0] and tb[2] <= x + w and y <= tb[1] and tb[3] <= y + h):
            bad.append("heading %r: its text %r is not inside its band %r" % (name, tb, (x, y, x + w, y + h)))
        cnt = png.colours(x, y, x + w, y + h)
        foreign = {"bar colours": sum(count(cnt, c) for i in colour for c in (colour[i], tint[i])),
                   "whisker": count(cnt, whisker_colour, 8), "1.0 line": count(cnt, ref_colour, 8)}
        foreign = {k: v for k, v in foreign.items() if v}
        if foreign:
            bad.append("heading %r: band %d..%d holds %r" % (name, y, y + h, foreign))
        # beside the text (its estimated box, with room for an underestimate), only the band
        tx1 = tb[2] + (tb[2] - tb[0]) * 0.3 + 4
        rest = png.colours(tx1, y, x + w, y + h)
        area = (int(x + w) - int(tx1)) * (int(y + h) - int(y))
        if count(rest, band_colour, 3) < area:
            bad.append("heading %r: right of its text, %d of %d px are not the band's colour: %r"
                       % (name, area - count(rest, band_colour, 3), area,
                          [c for c in rest if not near(c, band_colour, 3)][:5]))
        if dark(png.colours(*tb)) < 15:
            bad.append("heading %r is not painted" % name)
    ok(heads and len(heads) == len(titles) and not bad,
       "%d group headings have a band of their own: no bar, whisker or line pixel in it" % len(heads), *bad)

    # legend swatches painted, and what the DBMS abbreviations mean
    bad = []
    for i, s in sorted(swatches.items()):
        x, y, w, h = num(s, "x"), num(s, "y"), num(s, "width"), num(s, "height")
        got = count(png.colours(x, y, x + w, y + h), hexcol(s.get("fill")))
        if got < 0.8 * w * h:
            bad.append("swatch %d: %d of %d px" % (i, got, w * h))
    ok(swatches and not bad, "the legend has a painted swatch per column (%d)" % len(swatches), *bad)
    said = [e for e in texts if "legend-dbms" in classes(e)]
    line = " ".join("".join(e.itertext()) for e in said)
    dbms = sorted({s.get("data-dbms") for s in swatches.values()})
    # beside Postgres over the wire (pg-wire), pg says it is in-server
    names = {"postgres": ("pg", "Postgres in-server" if "postgres-wire" in dbms else "Postgres"),
             "postgres-wire": ("pg-wire", "Postgres over the wire"),
             "mysql": ("my", "MySQL"), "mariadb": ("ma", "MariaDB")}
    # a series of one DBMS says it once ("all columns: Postgres"); DBMS columns,
    # or labels of several DBMS, name each with its abbreviation ("pg: Postgres")
    single = len(dbms) == 1 and line.startswith("all columns: ")
    missing = [d for d in dbms if d in names
               and (names[d][1] if single else "%s: %s" % names[d]) not in line]
    ok(said and not missing and all(dark(png.colours(*text_box(e))) >= 15 for e in said),
       "the legend says what the DBMS of the columns are: %s" % line, "missing %r" % missing)

    # texts: painted, and laid out without overlaps
    names = [e for e in texts if "workload" in classes(e)]
    unpainted = [("".join(e.itertext())) for e in names if dark(png.colours(*text_box(e))) < 15]
    ok(names and not unpainted, "all %d workload names are painted" % len(names), "blank: %r" % unpainted[:5])
    boxes = [("text %r" % "".join(e.itertext()), text_box(e)) for e in texts if "".join(e.itertext()).strip()]
    boxes += [("bar col %s ratio %s" % (b.get("data-col"), b.get("data-ratio")),
               (num(b, "x"), num(b, "y"), num(b, "x") + num(b, "width"), num(b, "y") + num(b, "height")))
              for b in bars + marks]
    for g in whiskers:
        xs = [num(e, a) for e in g if tag(e) == "line" for a in ("x1", "x2")]
        xs += [float(p.split(",")[0]) for e in g if tag(e) == "polygon" for p in e.get("points").split()]
        cy = num(g, "data-cy")
        boxes.append(("bar whisker col %s ratio %s" % (g.get("data-col"), g.get("data-ratio")),
                      (min(xs) - 1, cy - 4, max(xs) + 1, cy + 5)))
    clashes = []
    boxes.sort(key=lambda nb: nb[1][1])
    for k, (na, a) in enumerate(boxes):
        for nb, b in boxes[k + 1:]:
            if b[1] >= a[3]:
                break
            if overlap(a, b) and not (na.startswith("bar") and nb.startswith("bar")):
                clashes.append("%s overlaps %s" % (na, nb))
    ok(not clashes, "no two texts (or a text and a bar or whisker) overlap (estimated text widths)", *clashes[:10])
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
