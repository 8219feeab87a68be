#!/usr/bin/env python3
"""check_svg.py — check the PICTURE of a microbench SVG chart, not just its XML.

    check_svg.py [options] CHART.svg CHART.png

CHART.svg is the output of microbench.report_svg(); CHART.png its screenshot
(test/report/render_svg.sh, one device pixel per SVG unit).  The script reads
what the SVG means to draw from its data-* attributes (column colours, bar
boxes and ratios, the 1.0 line, missing cells), decodes the PNG with zlib
and struct only, and checks that the pixels show it:

  - the picture has the SVG's size and is not blank;
  - each column's bars appear in its colour, at the place the SVG gives,
    on the right side of the 1.0 line (right for ratio > 1, left for < 1),
    with nothing of that colour on the other side;
  - the 1.0 reference line is a tall vertical run of its colour at the
    reference x;
  - cells within the noise are drawn lighter and hatched (the tint and the
    column colour both inside the bar), and the legend has a hatched swatch;
  - missing cells show the grey no-data mark and no bar of their column in
    their whole slot (a row without data: of no column);
  - the legend swatches and the workload names were painted, every text is
    at least 11px, and no two texts (or a text and a bar) overlap, by an
    estimate of the text widths.

Prints one TAP line per check ("ok - ..." / "not ok - ...", unnumbered) with
"# " diagnostics; exits 1 when a check failed, 2 on bad usage.
"""

import argparse
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
    ncols = int(root.get("data-columns", "0"))
    bars = [e for e in els if tag(e) == "rect" and "bar" in classes(e)]
    marks = [e for e in els if tag(e) == "rect" and "nodata" in classes(e)]
    swatches = {int(e.get("data-col")): e for e in els if "swatch" in classes(e)}
    colour = {}
    tint = {}
    for b in bars:
        colour[int(b.get("data-col"))] = hexcol(b.get("data-colour"))
        tint[int(b.get("data-col"))] = hexcol(b.get("data-tint"))
    for i, s in swatches.items():
        colour.setdefault(i, hexcol(s.get("fill")))

    if args.expect_columns is not None:
        ok(ncols == args.expect_columns and len(swatches) == ncols,
           "%d columns, each with a legend swatch" % args.expect_columns,
           "data-columns=%d, swatches %d" % (ncols, len(swatches)))
    if args.expect_bars is not None:
        ok(len(bars) == args.expect_bars, "%d bars" % args.expect_bars, "got %d" % len(bars))
    if args.expect_noisy is not None:
        got = sum("noise" in classes(b) for b in bars)
        ok(got == args.expect_noisy, "%d bars within the noise" % args.expect_noisy, "got %d" % got)
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
        noisy = [b for b in bars if int(b.get("data-col")) == i and "noise" in classes(b)]
        if solid:
            area = sum(max(num(b, "width") - 1, 1) * num(b, "height") for b in solid)
            got = count(plot, colour[i])
            ok(got >= 0.8 * area, "column %d (%s): its bars are drawn in %s (%d px, bars %d px)"
               % (i, name, "#%02x%02x%02x" % colour[i], got, area))
        elif noisy:
            got = count(plot, tint[i])
            ok(got > 0, "column %d (%s): only noisy bars, drawn in the tint %s (%d px)"
               % (i, name, "#%02x%02x%02x" % tint[i], got))
        else:
            ok(True, "column %d (%s): no data at all, no bar to find" % (i, name))

    # every bar at its place, on its side of the 1.0 line, nothing on the other side
    wrong = []
    for b in bars:
        i = int(b.get("data-col"))
        x, y, w, h = num(b, "x"), num(b, "y"), num(b, "width"), num(b, "height")
        r = float(b.get("data-ratio"))
        want = [colour[i], tint[i]] if "noise" in classes(b) else [colour[i]]
        inner_y0, inner_y1 = y + 2, y + h - 2
        if w >= 6:
            box = (x + 2, inner_y0, x + w - 2, inner_y1)
            cnt = png.colours(*box)
            have = sum(count(cnt, c) for c in want)
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
    ok(bars and not wrong, "all %d bars are painted at their place, on their side of the 1.0 line"
       % len(bars), *wrong[:10])

    # the 1.0 line: a tall vertical run of its colour at ref_x
    need = 0.95 * (bot - top)
    tall = []
    mid = int((top + bot) / 2)
    for x in range(W):
        if not near(png.px(x, mid), ref_colour, 24):
            continue
        run = best = 0
        for y in range(int(top) - 4, int(bot) + 4):
            run = run + 1 if near(png.px(x, y), ref_colour, 24) else 0
            best = max(best, run)
        if best >= need:
            tall.append(x)
    ok(tall and all(abs(x - ref_x) <= 2 for x in tall),
       "the 1.0 line is a vertical run of %s at least %d px tall at x=%d"
       % ("#%02x%02x%02x" % ref_colour, need, ref_x), "tall runs at x=%r" % tall[:20])

    # cells within the noise: lighter and hatched, and the legend says so
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
            elif t == 0:
                bad.append("col %d ratio %s: no tint" % (i, b.get("data-ratio")))
        ok(noisy and not bad, "%d cells within the noise are drawn lighter and hatched" % len(noisy),
           *(bad or ["no cell within the noise in the SVG"]))
        legend = [e for e in els if "swatch-noise" in classes(e)]
        lg = legend and png.colours(num(legend[0], "x"), num(legend[0], "y"),
                                    num(legend[0], "x") + num(legend[0], "width"),
                                    num(legend[0], "y") + num(legend[0], "height"))
        ok(legend and count(lg, (0xdd, 0xdd, 0xdd), 4) > 10 and count(lg, (0x77, 0x77, 0x77), 8) > 10
           and any("noise" in "".join(t.itertext()) for t in texts),
           "the legend shows and names the hatched noise style")

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

    # legend swatches painted
    bad = []
    for i, s in sorted(swatches.items()):
        x, y, w, h = num(s, "x"), num(s, "y"), num(s, "width"), num(s, "height")
        got = count(png.colours(x, y, x + w, y + h), hexcol(s.get("fill")))
        if got < 0.8 * w * h:
            bad.append("swatch %d: %d of %d px" % (i, got, w * h))
    ok(swatches and not bad, "the legend has a painted swatch per column (%d)" % len(swatches), *bad)

    # texts: painted, and laid out without overlaps
    names = [e for e in texts if "workload" in classes(e)]
    unpainted = [("".join(e.itertext())) for e in names if dark(png.colours(*text_box(e))) < 15]
    ok(names and not unpainted, "all %d workload names are painted" % len(names), "blank: %r" % unpainted[:5])
    boxes = [("text %r" % "".join(e.itertext()), text_box(e)) for e in texts if "".join(e.itertext()).strip()]
    boxes += [("bar col %s ratio %s" % (b.get("data-col"), b.get("data-ratio")),
               (num(b, "x"), num(b, "y"), num(b, "x") + num(b, "width"), num(b, "y") + num(b, "height")))
              for b in bars + marks]
    clashes = []
    boxes.sort(key=lambda nb: nb[1][1])
    for k, (na, a) in enumerate(boxes):
        for nb, b in boxes[k + 1:]:
            if b[1] >= a[3]:
                break
            if overlap(a, b) and not (na.startswith("bar") and nb.startswith("bar")):
                clashes.append("%s overlaps %s" % (na, nb))
    ok(not clashes, "no two texts (or a text and a bar) overlap (estimated text widths)", *clashes[:10])
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
