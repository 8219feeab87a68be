#!/usr/bin/env bash
# test/report/render_svg.sh — render an SVG file to a PNG with headless Chromium.
#
#   test/report/render_svg.sh CHART.svg OUT.png [WIDTH HEIGHT]
#
# The window (and so the screenshot) is WIDTH x HEIGHT pixels; by default the
# width and height attributes of the SVG's root element, so a chart is
# captured whole at one device pixel per SVG unit.  Installs the Debian
# package chromium with apt-get if it is missing (needs root).  Chromium's
# own chatter goes to OUT.png.log; the script fails if no PNG was written.
set -euo pipefail

svg=${1:?usage: render_svg.sh CHART.svg OUT.png [WIDTH HEIGHT]}
out=${2:?usage: render_svg.sh CHART.svg OUT.png [WIDTH HEIGHT]}
[ -r "$svg" ] || { echo "render_svg.sh: cannot read $svg" >&2; exit 2; }

if ! command -v chromium >/dev/null 2>&1; then
    echo "render_svg.sh: installing chromium" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi

# width and height of the root <svg> element (px; a unit suffix is ignored)
root=$(tr '\n' ' ' <"$svg" | grep -o '<svg[^>]*>' | head -n 1 || true)
attr() { sed -n "s/.*[[:space:]]$1=\"\([0-9.]*\)[a-z]*\".*/\1/p" <<<"$root"; }
w=${3:-$(attr width)}
h=${4:-$(attr height)}
w=${w%.*}; h=${h%.*}
w=${w:-1024}; h=${h:-768}
# Chromium clips the page of a window less than about 150 px high: keep the
# window at least 240 px high (the picture is then white below the chart).
if [ "$h" -lt 240 ]; then h=240; fi

svg_abs=$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
profile=$(mktemp -d /tmp/render_svg.XXXXXX)
trap 'rm -rf "$profile"' EXIT
rm -f "$out_abs"

timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --window-size="$w,$h" \
    --screenshot="$out_abs" "file://$svg_abs" >"$out_abs.log" 2>&1 || true

if [ ! -s "$out_abs" ]; then
    echo "render_svg.sh: chromium wrote no screenshot; its output:" >&2
    cat "$out_abs.log" >&2
    exit 1
fi
