#!/usr/bin/env bash
# lupe flamegraph: frame widths are the sample shares (perf- and lupe-recorded), the SVG renders in headless Chromium, its click zoom and search work there, --reverse, filters, and --diff colours the grown function red and the shrunk blue
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/chromium.sh"
need_root
need_perf
command -v python3 >/dev/null || skip "no python3 to read the SVG"
D=$WORKLOADS/demo
COLLAPSE=$LUPE_SRC/tests/shell/lib/stackcollapse.py

"$PERF" record -q -g -o g.data -- "$D" -n 300 >/dev/null 2>&1 || skip "perf record -g failed"
"$LUPE" record -q -g -o lg.data -- "$D" -n 300 >/dev/null 2>&1 || fail "lupe record -g failed"

# widths: each function's frames are as wide as the share of the samples
# through it, the shares taken from lupe script's text folded independently
check_widths() { # DATA SVG
	"$LUPE" script -i "$1" | python3 "$COLLAPSE" > "$1.ref" || fail "reference collapse of $1"
	python3 - "$2" "$1.ref" <<'PY' || fail "frame widths of $2 are not the sample shares"
import sys, xml.etree.ElementTree as ET
svg, ref = sys.argv[1], sys.argv[2]
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(svg).getroot()
W = float(root.get('width')) - 20
total, through = 0, {}
for line in open(ref):
    stack, n = line.rsplit(' ', 1)
    n = int(n); total += n
    for f in set(stack.split(';')):
        through[f] = through.get(f, 0) + n
width = {}
for g in root.iter('{http://www.w3.org/2000/svg}g'):
    if g.get('class') != 'f':
        continue
    r = g.find('s:rect', ns)
    width[g.get('data-n')] = width.get(g.get('data-n'), 0) + float(r.get('width'))
bad = 0
for f in ('leaf_a', 'leaf_b', 'compute_a', 'compute_b', 'compute_c', 'run', 'main'):
    share, got = through.get(f, 0) / total, width.get(f, 0) / W
    print('%-10s share %.4f width %.4f' % (f, share, got))
    if share < 0.05 or abs(share - got) > 0.0005:
        bad = 1
sys.exit(bad)
PY
}
"$LUPE" flamegraph -i g.data -o g.svg 2>/dev/null || fail "lupe flamegraph -i g.data exited $?"
check_widths g.data g.svg
"$LUPE" flamegraph -i lg.data 2>/dev/null || fail "lupe flamegraph -i lg.data exited $?"
[ -s lg.svg ] || fail "the default output is not next to the input (lg.svg)"
check_widths lg.data lg.svg
ok "frame widths equal the sample shares (perf's and lupe's recordings)"

# --reverse: roots at the top; --title; filters
"$LUPE" flamegraph -i g.data -o r.svg --reverse --title 'an icicle' --width 800 2>/dev/null || fail "--reverse"
python3 - r.svg <<'PY' || fail "--reverse does not put the root at the top"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ys = {}
for g in root.iter('{http://www.w3.org/2000/svg}g'):
    if g.get('class') == 'f':
        ys[g.get('data-n')] = float(g.find('{http://www.w3.org/2000/svg}rect').get('y'))
assert root.get('width') == '800'
assert 'an icicle' in ET.tostring(root, encoding='unicode')
assert ys['all'] < ys['main'] < ys['leaf_a'], ys
PY
"$LUPE" flamegraph -i g.data -o none.svg --comm nosuchcomm 2>err.txt && fail "an empty selection made a graph"
grep -q "no samples" err.txt || fail "no reason given for an empty graph: $(cat err.txt)"
expect_rc 129 "$LUPE" flamegraph --diff g.data 2>/dev/null
ok "--reverse, --title, --width, --comm, usage errors"

# rendered by a browser: a PNG with the frames drawn; zoom and search run
need_chromium
cat > warm.py <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, t = struct.unpack('>I4s', data[pos:pos + 8])
    if t == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', data[pos + 8:pos + 18])
    if t == b'IDAT':
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = 4 if ctype == 6 else 3
stride = w * bpp
rows, prev = [], bytearray(stride)
i = 0
while i < len(raw):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
# warm frame colours (red > 180, blue < 120): the PNG shows at least half
# the area the SVG's warm frames cover (rect widths and heights, read from
# the SVG itself, so a deep graph taller than a fixed window is no miss)
import re
warm = sum(1 for r in rows for x in range(0, stride, bpp) if r[x] > 180 and r[x + 2] < 120)
area = 0.0
for m in re.finditer(r'<rect x="[^"]*" y="([^"]*)" width="([^"]*)" height="([^"]*)" fill="rgb\((\d+),(\d+),(\d+)\)"', open(sys.argv[2]).read()):
    y, fw, fh, r, g, b = float(m[1]), float(m[2]), float(m[3]), int(m[4]), int(m[5]), int(m[6])
    if r > 180 and b < 120 and y < len(rows):
        area += fw * min(fh, len(rows) - y)
print('warm pixels', warm, 'of', w * len(rows), '; the SVG draws', int(area))
if area > 1000 and warm > 0.5 * area:
    sys.exit(0)
# what the picture holds instead: its commonest colours
from collections import Counter
c = Counter(tuple(r[x:x + 3]) for r in rows for x in range(0, stride, bpp))
print('commonest colours:', c.most_common(6))
sys.exit(1)
PY
# the window is as tall as the SVG: a graph deeper than 500 pixels of
# frames is shot whole (the frames grow from the bottom)
svg_h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' g.svg)
[ -n "$svg_h" ] || fail "no height in g.svg's <svg> element"
[ "$svg_h" -le 4000 ] || svg_h=4000
# a headless screenshot is now and then taken before the SVG is painted (a
# nearly blank PNG on a loaded machine): the same SVG is shot up to 3 times
shot=0
until [ $shot -ge 3 ]; do
	shot=$((shot + 1))
	rm -f g.png
	chromium_run --virtual-time-budget=3000 --screenshot="$TMPD/g.png" --window-size=1200,$svg_h "file://$TMPD/g.svg" >/dev/null
	[ -s g.png ] || continue
	python3 warm.py g.png g.svg && break
done
[ -s g.png ] || fail "chromium made no PNG of the SVG"
python3 warm.py g.png g.svg || fail "the PNG does not show the frames ($shot screenshots)"
# the SVG's own script in the browser: click compute_b, read the widths, search
sed 's|</svg>|<script><![CDATA[\
var out = [];\
function all(n) { return Array.from(document.querySelectorAll("g.f[data-n=\\"" + n + "\\"]")); }\
function a(g, k) { return +g.getAttribute("data-" + k); }\
function widest(n) { return all(n).reduce(function (m, g) { return a(g, "w") > a(m, "w") ? g : m; }); }\
function child(n, p) { return all(n).find(function (g) { return a(g, "d") == a(p, "d") + 1 \&\& a(g, "x") >= a(p, "x") \&\& a(g, "x") < a(p, "x") + a(p, "w"); }); }\
function w(g) { return g.style.display == "none" ? -1 : +g.querySelector("rect").getAttribute("width"); }\
var cb = widest("compute_b");\
out.push(w(cb));\
cb.dispatchEvent(new MouseEvent("click", {bubbles: true}));\
out.push(w(cb), w(child("leaf_b", cb)), w(widest("compute_a")), w(widest("main")));\
out.push(search("^leaf_"), document.getElementById("matched").textContent);\
var t = document.createElementNS("http://www.w3.org/2000/svg", "text"); t.setAttribute("id", "result"); t.textContent = out.join("\|"); document.documentElement.appendChild(t);\
]]></script></svg>|' g.svg > inj.svg
chromium_run --dump-dom "file://$TMPD/inj.svg" > dom.txt
res=$(grep -o '<text id="result">[^<]*' dom.txt | sed 's/.*>//')
[ -n "$res" ] || fail "the SVG's script did not run in chromium"
echo "in chromium: $res"
IFS='|' read -r before zb zl za zm pct label <<< "$res"
python3 - "$before" "$zb" "$zl" "$za" "$zm" "$pct" "$label" g.data.ref <<'PY' || fail "zoom or search misbehave in the browser: $res"
import sys
before, zb, zl, za, zm, pct = map(float, sys.argv[1:7]); label, ref = sys.argv[7], sys.argv[8]
total = leaves = 0
under = {}   # compute_b's frames by their callers: [weight, of it under leaf_b]
for line in open(ref):
    stack, n = line.rsplit(' ', 1); total += int(n)
    frames = stack.split(';')
    if any(f.startswith('leaf_') for f in frames): leaves += int(n)
    if 'compute_b' in frames:
        i = frames.index('compute_b')
        u = under.setdefault(tuple(frames[:i]), [0, 0])
        u[0] += int(n)
        u[1] += int(n) if frames[i + 1:i + 2] == ['leaf_b'] else 0
# the widest compute_b frame is the one clicked (a sample at a function's
# first instruction can put a frame of that name under another caller)
cb, lb = max(under.values())
assert before < 1180 * 0.5, before          # compute_b is about 30% before the click
# ... the whole width after it, and its child leaf_b its share of compute_b
# (a sample in compute_b's own code is not leaf_b's)
# (widths are the page's floating-point arithmetic: 1179.9999999999998 is
# the whole width, seen once in 6 runs)
assert abs(zb - 1180) < 0.01 and abs(zl - 1180.0 * lb / cb) < 2, (zb, zl, lb, cb)
assert za == -1                              # compute_a is hidden
assert abs(zm - 1180) < 0.01                 # a caller spans the width (greyed)
assert abs(pct - 100.0 * leaves / total) < 0.05, (pct, leaves / total)
assert label == 'Matched: %.1f%%' % pct, label
PY
ok "rendered by chromium; a click zooms, search matches the leaves' share"

# --diff: a split that moves work from compute_c to leaf_a
"$PERF" record -q -g -o before.data -- "$D" -n 300 -w 3,3,4 >/dev/null 2>&1 || skip "perf record failed"
"$PERF" record -q -g -o after.data -- "$D" -n 300 -w 6,3,1 >/dev/null 2>&1 || skip "perf record failed"
"$LUPE" flamegraph --diff before.data after.data -o diff.svg 2>/dev/null || fail "--diff exited $?"
python3 - diff.svg <<'PY' || fail "--diff does not colour the grown function red and the shrunk one blue"
import sys, re, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
col = {}
for g in root.iter('{http://www.w3.org/2000/svg}g'):
    if g.get('class') == 'f':
        col.setdefault(g.get('data-n'), []).append(g.find('{http://www.w3.org/2000/svg}rect').get('fill'))
def rgb(c): return tuple(map(int, re.match(r'rgb\((\d+),(\d+),(\d+)\)', c).groups()))
print('spin', col['spin'], 'compute_c', col['compute_c'])
# leaf_a's spin grew: red (r 255, g = b < 255); compute_c shrank: blue (b 255, r = g < 255)
grown = [rgb(c) for c in col['spin'] if rgb(c)[0] == 255 and rgb(c)[1] < 200]
shrunk = rgb(col['compute_c'][0])
assert grown, col['spin']
assert shrunk[2] == 255 and shrunk[0] == shrunk[1] < 200, shrunk
PY
ok "--diff: grown red, shrunk blue"
