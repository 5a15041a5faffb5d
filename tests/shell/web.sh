#!/usr/bin/env bash
# lupe report --web: 403 without the token, loopback unless an address is given; in headless Chromium the summary's samples, the top-down entries, a time-range and a thread selection, and the source view's shares equal report's and annotate's; --html holds the same page
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/chromium.sh"
need_root
command -v python3 >/dev/null || skip "no python3 to drive the browser"
"$LUPE" report --web=127.0.0.1:99999 -i /dev/null 2>err.txt
grep -q "without libmicrohttpd" err.txt && skip "lupe was built without libmicrohttpd (--web says so: $(cat err.txt))"
D=$WORKLOADS/demo
SHOTS=${WEB_SHOTS:-$TMPD}
"$LUPE" record -q -g -o t.data -- "$D" -t 2 -n 300 >/dev/null 2>&1 || fail "lupe record -g failed"

SERVERS=""
cleanup() {
	for p in $SERVERS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap cleanup EXIT

# serve OUT ARGS...: start report --web in the background, wait for its URL in OUT
serve() {
	local out=$1
	shift
	serve_cmd "$out" report -i t.data "$@"
}
# serve_cmd OUT LUPE-ARGS...: the same for any command
serve_cmd() {
	local out=$1 i
	shift
	"$LUPE" "$@" > "$out" 2> "$out.err" &
	SERVERS="$SERVERS $!"
	for i in $(seq 600); do
		grep -q '^http://' "$out" && return 0
		kill -0 "$!" 2>/dev/null || fail "lupe $* exited: $(cat "$out.err")"
		sleep 0.1
	done
	fail "lupe $* printed no URL: $(cat "$out.err")"
}

# 1. security: the token, and where the server listens
cat > token-check.py <<'PY'
import sys, urllib.request, urllib.error
def get(u):
    try:
        return urllib.request.urlopen(u, timeout=20).status
    except urllib.error.HTTPError as e:
        return e.code
url = sys.argv[1].strip()
base, token = url.rstrip('/').rsplit('/', 1)
bad = token[:-1] + ('0' if token[-1] != '0' else '1')
got = {'page': get(url), 'data': get(url + 'data'), 'root': get(base + '/'),
       'wrong token': get(base + '/' + bad + '/data'), 'short token': get(base + '/' + token[:-1] + '/data'),
       'no token': get(base + '/data')}
print(got)
want = {'page': 200, 'data': 200, 'root': 403, 'wrong token': 403, 'short token': 403, 'no token': 403}
sys.exit(got != want)
PY
# listen.py PORT: the address a listening TCP socket of that port is bound to
cat > listen.py <<'PY'
import sys
port = int(sys.argv[1])
for f in ('/proc/net/tcp', '/proc/net/tcp6'):
    for line in open(f).readlines()[1:]:
        loc, st = line.split()[1], line.split()[3]
        addr, p = loc.split(':')
        if st == '0A' and int(p, 16) == port:
            print(addr)
PY
serve url1.txt --web
U=$(head -1 url1.txt)
case $U in http://127.0.0.1:*/????????????????????????????????/) ;; *) fail "the URL is not on 127.0.0.1 with a token: $U";; esac
python3 token-check.py "$U" || fail "the token does not guard every path"
port=$(echo "$U" | sed 's|http://[^:]*:\([0-9]*\)/.*|\1|')
[ "$(python3 listen.py "$port")" = 0100007F ] || fail "--web without an address listens on $(python3 listen.py "$port"), not 127.0.0.1 only"
serve url2.txt --web=0.0.0.0:0
U2=$(head -1 url2.txt)
port2=$(echo "$U2" | sed 's|http://[^:]*:\([0-9]*\)/.*|\1|')
[ "$(python3 listen.py "$port2")" = 00000000 ] || fail "--web=0.0.0.0:0 does not listen on every address"
python3 token-check.py "$U2" || fail "the token does not guard the non-loopback server"
# the checker fails on a server that answers without the token: /TOKEN/data with the token is such a path
python3 token-check.py "${U}data/" >/dev/null && fail "the token checker cannot fail"
"$LUPE" report -i t.data --web=nonsense 2>err.txt && fail "a bad address served"
grep -q "not an address" err.txt || fail "no reason for a bad address: $(cat err.txt)"
expect_rc 129 "$LUPE" report -i t.data --html 2>/dev/null
ok "403 without the token; 127.0.0.1 unless an address is given, 0.0.0.0 when asked"

# 2. the page in a browser against report's and annotate's numbers
need_chromium
"$LUPE" report -i t.data --stdio -n --sort tid --no-children -q -g none > tids.txt 2>/dev/null || fail "report -n --sort tid"
"$LUPE" report -i t.data --stdio --children -g none -q > children.txt 2>/dev/null || fail "report --children"
"$LUPE" script -i t.data --ns -F tid,time > times.txt 2>/dev/null || fail "script --ns"
"$LUPE" annotate -i t.data --stdio -s spin > ann.txt 2>/dev/null || fail "annotate -s spin"
tid1=$(awk 'NR == 1 {print $3}' tids.txt)
"$LUPE" report -i t.data --stdio -n --sort tid --no-children -q -g none --tid "$tid1" > tid1.txt 2>/dev/null
cat > drive.py <<'PY'
import re, sys, time, json
sys.path.insert(0, sys.argv[1])
from cdp import Browser
url, chromium, tmpd, shots = sys.argv[2:6]
bad = []
def check(what, cond, detail):
    print(('ok   ' if cond else 'FAIL ') + what + ': ' + str(detail))
    if not cond:
        bad.append(what)

b = Browser(url, chromium, tmpd)
b.wait("document.body.dataset.ready == '1'")
b.screenshot(shots + '/web-summary.png')
# the summary's samples: report's (-n per thread, added up)
want = sum(int(l.split()[1]) for l in open('tids.txt') if l.strip())
got = b.eval("document.getElementById('sum-samples').textContent")
check('summary samples', got.split()[0] == str(want), (got, want))
# top-down: the functions of report --children, in its order, to 0.01
b.eval("lupe.show('topdown')")
rows = b.eval("Array.from(document.querySelectorAll('#func-table tr[data-f]')).map(r => [r.cells[3].textContent, parseFloat(r.cells[0].textContent), parseFloat(r.cells[1].textContent)])")
ref = []
for l in open('children.txt'):
    m = re.match(r'\s*([\d.]+)%\s+([\d.]+)%\s+\S+\s+\S+\s+\[.\]\s+(\S+)', l)
    if m:
        ref.append((m.group(3), float(m.group(1)), float(m.group(2))))
top = [r for r in ref if r[1] >= 1.0]
page = {r[0]: r for r in rows}
diffs = [(n, c, s, page.get(n)) for n, c, s in top if n not in page or abs(page[n][1] - c) > 0.01 or abs(page[n][2] - s) > 0.01]
check('top-down entries equal report --children', len(top) >= 6 and not diffs, diffs or '%d entries' % len(top))
b.screenshot(shots + '/web-topdown.png')
# the second half of the timeline, dragged: the flame graph's root = the samples in that range
b.eval("lupe.show('flame')")
r = b.eval("(() => { const c = document.getElementById('timeline').getBoundingClientRect(); return [c.left, c.top, c.width, c.height]; })()")
left, top_, width, height = r
x0 = left + 170 + (width - 170 - 4) / 2
b.drag(x0, top_ + 25, left + width - 1, top_ + 25)
b.wait("document.getElementById('selinfo').dataset.t0 !== ''")
t0 = float(b.eval("document.getElementById('selinfo').dataset.t0"))
t1 = float(b.eval("document.getElementById('selinfo').dataset.t1"))
dur = b.eval("lupe.p.duration")
first = b.eval("lupe.p.d.first_time")
root = int(b.eval("document.getElementById('flame-info').dataset.samples"))
times = []
for l in open('times.txt'):
    tid, t = l.split()[:2]
    sec, ns = t.rstrip(':').split('.')
    times.append(int(sec) * 10**9 + int(ns) - first)
want = sum(1 for t in times if t0 <= t <= t1)
check('time range (%.3f-%.3f of %.3f s)' % (t0 / 1e9, t1 / 1e9, dur / 1e9), abs(t0 - dur / 2) < dur / 100 and t1 == dur and root == want and 0 < root < len(times), (root, want, len(times)))
b.screenshot(shots + '/web-flame-range.png')
b.eval("lupe.show('bottomup')")
b.screenshot(shots + '/web-bottomup.png')
b.eval("lupe.show('callers')")
b.screenshot(shots + '/web-callers.png')
b.eval("document.getElementById('clear').click()")
b.eval("lupe.show('flame')")
# a click on the first thread's lane: report --tid's samples
tid1 = sys.argv[6]
lanes = b.eval("lupe.p.lanes.map(l => l.tid)")
lane = lanes.index(int(tid1))
b.click(left + 300, top_ + 18 + lane * 16 + 8)
b.wait("lupe.sel.laneIds.length == 1")
root = int(b.eval("document.getElementById('flame-info').dataset.samples"))
want = sum(int(l.split()[1]) for l in open('tid1.txt') if l.strip())
check('thread lane %s' % tid1, root == want and root < len(times), (root, want))
b.screenshot(shots + '/web-flame-thread.png')
# the source view of the hottest function: annotate's shares per instruction and per line
b.eval("document.getElementById('clear').click()")
b.eval("lupe.show('source')")
b.wait("!!(document.getElementById('asm') || document.querySelector('#source .err'))", 60)
asm = b.eval("document.getElementById('asm') ? document.getElementById('asm').textContent : document.getElementById('source').textContent")
b.screenshot(shots + '/web-source.png')
def shares(text):
    ins, lines, cur = {}, {}, None
    for l in text.splitlines():
        m = re.match(r'\s*([\d.]+)\s*:\s+([0-9a-f]+):', l)
        if m:
            ins[m.group(2)] = float(m.group(1))
            if cur:
                lines[cur] = lines.get(cur, 0) + float(m.group(1))
            continue
        m = re.match(r'\s*:\s+(\d+)\s', l + ' ')
        if m:
            cur = m.group(1)
    return ins, lines
ann = open('ann.txt').read().split('Source code & Disassembly')[1]
ai, al = shares(ann)
pi, pl = shares(asm)
bad_i = [(k, v, pi.get(k)) for k, v in ai.items() if pi.get(k) is None or abs(pi[k] - v) > 0.1]
check('source view per instruction', len(ai) > 5 and not bad_i, bad_i or '%d instructions' % len(ai))
rows = b.eval("Array.from(document.querySelectorAll('#src-lines tr[data-line]')).map(r => [r.dataset.line, parseFloat(r.cells[0].textContent)])")
pr = dict(rows)
bad_l = [(k, v, pr.get(k)) for k, v in al.items() if abs(pr.get(k, 0) - v) > 0.1]
check('source view per line', al and not bad_l and max(al.values()) > 50, bad_l or al)
b.close()
sys.exit(1 if bad else 0)
PY
serve url3.txt --web
python3 drive.py "$LUPE_SRC/tests/shell/lib" "$(head -1 url3.txt)" "$CHROMIUM" "$TMPD" "$SHOTS" "$tid1" ||
	fail "the page's numbers differ from report's and annotate's"
ok "summary, top-down, time range, thread and source equal report, script and annotate"

# 3. --html: one file with the data in it, no server
"$LUPE" report -i t.data --html -o t.html 2>/dev/null || fail "--html -o t.html"
grep -q '"nr_samples"' t.html || fail "the --html file holds no data"
chromium_run --virtual-time-budget=5000 --dump-dom "file://$TMPD/t.html" > dom.txt
grep -q 'id="sum-samples">[0-9]* of event' dom.txt || fail "the --html page did not render its summary in chromium"
ok "--html renders on its own"

# 4. diff --web: lupe diff's rows, the grown function red and the shrunk one blue
"$LUPE" record -q -g -o before.data -- "$D" -n 300 -w 3,3,4 >/dev/null 2>&1 || fail "lupe record before.data"
"$LUPE" record -q -g -o after.data -- "$D" -n 300 -w 6,3,1 >/dev/null 2>&1 || fail "lupe record after.data"
"$LUPE" diff before.data after.data 2>/dev/null | grep -v '^#' | grep '%' > diff.txt || fail "lupe diff"
serve_cmd urld.txt diff --web before.data after.data
cat > drive-diff.py <<'PY'
import sys, re
sys.path.insert(0, sys.argv[1])
from cdp import Browser
url, chromium, tmpd, shots = sys.argv[2:6]
b = Browser(url, chromium, tmpd)
b.wait("document.body.dataset.ready == '1'")
b.screenshot(shots + '/web-diff.png')
rows = b.eval("Array.from(document.querySelectorAll('#diff-table tr[data-name]')).map(r => Array.from(r.cells).map(c => c.textContent))")
want = []
for l in open('diff.txt'):
    m = re.match(r'\s*([\d.]+%)?\s+([+-][\d.]+%)\s+(\S+)\s+(\[.\] \S+)', l)
    if m:
        want.append([m.group(1) or '', m.group(2), m.group(3), m.group(4)])
n = min(8, len(want))
print('lupe diff:', want[:3])
print('the page: ', rows[:3])
delta = {r[3]: r[1] for r in want}
ok = n >= 2 and rows[:n] == want[:n] and delta.get('[.] spin', '-').startswith('+') and \
    delta.get('[.] compute_c', '+').startswith('-')
b.eval("lupe.show('flame')")
col = b.eval("(() => { const p = lupe.p, f = n => p.name.indexOf(n); return [lupe.fdelta[f('spin')], lupe.fdelta[f('compute_c')]]; })()")
print('flame deltas spin, compute_c:', col)
ok = ok and col[0] > 20 and col[1] < -20
b.screenshot(shots + '/web-diff-flame.png')
b.close()
sys.exit(0 if ok else 1)
PY
python3 drive-diff.py "$LUPE_SRC/tests/shell/lib" "$(head -1 urld.txt)" "$CHROMIUM" "$TMPD" "$SHOTS" ||
	fail "diff --web does not show lupe diff's deltas"
ok "diff --web: lupe diff's rows, spin grew and compute_c shrank"

# 5. top --web: the page updates each refresh and keeps its selection
"$D" -s 20 >/dev/null 2>&1 &
demo=$!
SERVERS="$SERVERS $demo"
serve_cmd urlt.txt top --web -d 1 -g -p "$demo"
cat > drive-top.py <<'PY'
import sys, time
sys.path.insert(0, sys.argv[1])
from cdp import Browser
url, chromium, tmpd, shots = sys.argv[2:6]
b = Browser(url, chromium, tmpd)
b.wait("document.body.dataset.ready == '1'")
b.eval("lupe.show('flame')")
left, top, width = b.eval("(() => { const c = document.getElementById('timeline').getBoundingClientRect(); return [c.left, c.top, c.width]; })()")
b.drag(left + 170 + (width - 174) * 0.2, top + 26, left + 170 + (width - 174) * 0.7, top + 26)
b.wait("lupe.sel.t0 != null")
b.click(left + 300, top + 18 + 8)
b.wait("lupe.sel.laneIds.length == 1")
before = b.eval("[+document.getElementById('live').dataset.version, lupe.sel.t0, lupe.sel.t1, lupe.p.lanes[lupe.sel.laneIds[0]].tid, lupe.p.ns]")
b.screenshot(shots + '/web-top-1.png')
# two refreshes later (-d 1; a loaded machine may take longer)
b.wait("+document.getElementById('live').dataset.version >= %d" % (before[0] + 2), 60)
time.sleep(0.3)
after = b.eval("[+document.getElementById('live').dataset.version, lupe.sel.t0, lupe.sel.t1, lupe.p.lanes[lupe.sel.laneIds[0]].tid, lupe.p.ns]")
b.screenshot(shots + '/web-top-2.png')
b.close()
print('before', before, 'after', after)
same = open(shots + '/web-top-1.png', 'rb').read() == open(shots + '/web-top-2.png', 'rb').read()
ok = after[0] >= before[0] + 2 and after[4] > before[4] and after[1:4] == before[1:4] and not same
sys.exit(0 if ok else 1)
PY
python3 drive-top.py "$LUPE_SRC/tests/shell/lib" "$(head -1 urlt.txt)" "$CHROMIUM" "$TMPD" "$SHOTS" ||
	fail "top --web did not update, or lost the selection"
ok "top --web: two screenshots two refreshes apart differ, the time range and the thread stay selected"
