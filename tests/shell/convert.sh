#!/usr/bin/env bash
# lupe convert: --to folded equals a stackcollapse-perf.pl folding of lupe script; --to pprof read by go tool pprof agrees with lupe report --no-children; firefox and speedscope outputs pass their format checks (perf- and lupe-recorded, -a, tracepoints)
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
command -v python3 >/dev/null || skip "no python3 to check the outputs"
D=$WORKLOADS/demo
COLLAPSE=$LUPE_SRC/tests/shell/lib/stackcollapse.py

rec() { "$PERF" record -q "$@" >/dev/null 2>&1 || skip "perf record $* failed"; }
lrec() { "$LUPE" record -q "$@" >/dev/null 2>&1 || fail "lupe record $* failed"; }
rec -g -o g.data -- "$D" -n 300
rec -a -g -o ag.data -- "$D" -n 150
rec --call-graph dwarf -o dw.data -- "$D" -n 100
lrec -g -o lg.data -- "$D" -n 300 -t 2
need_tracefs
lrec -e sched:sched_switch -e task-clock -g -o lt.data -- "$D" -n 100 -t 2
files="g ag dw lg lt"

# folded: equal to the reference folding of lupe script's text
for f in $files; do
	"$LUPE" script -i $f.data | python3 "$COLLAPSE" > $f.ref || fail "reference collapse of $f.data"
	"$LUPE" convert --to folded -i $f.data > $f.folded || fail "lupe convert --to folded -i $f.data exited $?"
	[ -s $f.folded ] || fail "no folded stacks for $f.data"
	# (documented difference: a thread perf prints with tid -1, comm ":-1", is
	# named by the script after the rest of its line, by lupe after its comm)
	grep -v '^:-1' $f.ref > $f.ref1; mv $f.ref1 $f.ref
	grep -v '^:-1' $f.folded > $f.f1; mv $f.f1 $f.folded
	cmp -s $f.ref $f.folded || { diff $f.ref $f.folded | head; fail "folded stacks of $f.data differ from the stackcollapse-perf.pl rules"; }
done
# pipe mode: perf record -o - into lupe convert -i -
"$PERF" record -q -g -o - -- "$D" -n 100 2>/dev/null > pipe.data
"$LUPE" script -i - < pipe.data | python3 "$COLLAPSE" > pipe.ref
"$LUPE" convert --to folded -i - < pipe.data > pipe.folded || fail "convert from a pipe"
[ -s pipe.folded ] && cmp -s pipe.ref pipe.folded || fail "folded stacks of a pipe-mode file differ"
ok "--to folded equals the folding of lupe script on perf's and lupe's files (-g, -a -g, dwarf, tracepoints, stdin)"

# pprof: go tool pprof's top functions and flat percentages are report's
"$LUPE" convert --to pprof -i g.data -o probe.pb.gz 2>probe.err || grep -q "built without" probe.err ||
	fail "lupe convert --to pprof failed: $(cat probe.err)"
if ! [ -s probe.pb.gz ]; then
	echo "note: lupe built without protobuf-c: the pprof check is left out"
elif command -v go >/dev/null; then
	export HOME=$TMPD GOCACHE=$TMPD/gocache GOFLAGS=-mod=mod
	for f in g lg; do
		"$LUPE" convert --to pprof -i $f.data -o $f.pb.gz || fail "lupe convert --to pprof -i $f.data exited $?"
		gzip -t $f.pb.gz || fail "the pprof output of $f.data is not gzip"
		go tool pprof -symbolize=none -top -nodecount=10 $f.pb.gz > $f.top 2>$f.toperr ||
			fail "go tool pprof cannot read lupe's profile of $f.data: $(head -3 $f.toperr)"
		"$LUPE" report -i $f.data --stdio --no-children > $f.rep || fail "lupe report -i $f.data"
		python3 - $f.top $f.rep <<'PY' || { cat $f.top; head -30 $f.rep; fail "go tool pprof -top disagrees with lupe report on $f.data"; }
import re, sys
top, rep = sys.argv[1], sys.argv[2]
pp = {}
for line in open(top):
    m = re.match(r'\s*[\d.]+\w*\s+([\d.]+)%\s+[\d.]+%\s+[\d.]+\w*\s+[\d.]+%\s+(.+)$', line)
    if m:
        pp[m.group(2).strip()] = float(m.group(1))
rp, order = {}, []
for line in open(rep):
    m = re.match(r'\s+([\d.]+)%\s+.*\[[.k]\]\s+(.+?)\s*$', line)
    if m:
        name = m.group(2)
        rp[name] = rp.get(name, 0) + float(m.group(1))
        order.append(name)
assert pp, 'no pprof lines'
bad = 0
for name, pct in pp.items():
    if pct > 0 and abs(rp.get(name, -9) - pct) > 0.1:
        print('pprof %s %.2f%%, report %.2f%%' % (name, pct, rp.get(name, -9))); bad = 1
for name in order[:10]:
    if rp[name] >= 0.5 and abs(pp.get(name, -9) - rp[name]) > 0.1:
        print('report %s %.2f%%, pprof %.2f%%' % (name, rp[name], pp.get(name, -9))); bad = 1
print('compared %d pprof and %d report entries' % (len(pp), min(10, len(order))))
sys.exit(bad)
PY
	done
	ok "go tool pprof -top agrees with lupe report --stdio --no-children (perf's and lupe's recordings)"
else
	# the pprof check is the point of --to pprof: no go is a broken setup, not a pass
	fail "no go (golang-go) to read the pprof output: scripts/bootstrap installs it"
fi

# firefox: the Gecko profile's tables hold together and carry every sample
for f in g lg ag; do
	"$LUPE" convert --to firefox -i $f.data -o $f.json || fail "lupe convert --to firefox -i $f.data exited $?"
	"$LUPE" script -i $f.data -F tid > $f.tids || fail "lupe script -F tid"
	python3 - $f.json $f.tids <<'PY' || fail "the Firefox profile of $f.data is not well formed"
import json, sys, collections
p = json.load(open(sys.argv[1]))
want = collections.Counter(int(l.split()[0]) for l in open(sys.argv[2]) if l.strip())
m = p['meta']
assert isinstance(m['version'], int) and m['interval'] > 0 and isinstance(m['startTime'], (int, float))
cats = m['categories']
assert all('name' in c and 'color' in c and c['subcategories'] for c in cats)
seen = collections.Counter()
tids = set()
for t in p['threads']:
    assert t['tid'] not in tids; tids.add(t['tid'])
    assert t['name'] and t['processType'] == 'default'
    st, ft, strs = t['stackTable'], t['frameTable'], t['stringTable']
    assert st['schema'] == {'prefix': 0, 'frame': 1}
    for i, (prefix, frame) in enumerate(st['data']):
        assert prefix is None or 0 <= prefix < i
        assert 0 <= frame < len(ft['data'])
    fs = ft['schema']
    for fr in ft['data']:
        assert 0 <= fr[fs['location']] < len(strs)
        assert 0 <= fr[fs['category']] < len(cats)
    ss = t['samples']['schema']
    last = -1
    for s in t['samples']['data']:
        stack, time = s[ss['stack']], s[ss['time']]
        assert stack is None or 0 <= stack < len(st['data'])
        assert time >= last; last = time
    ms = t['markers']['schema']
    for mk in t['markers']['data']:
        assert 0 <= mk[ms['name']] < len(strs)
    seen[t['tid']] += len(t['samples']['data'])
assert seen == want, (seen, want)
print('%d threads, %d samples' % (len(tids), sum(seen.values())))
PY
done
ok "--to firefox: one thread per tid with every sample, tables consistent"

# speedscope: the schema shipped in npm's speedscope package, when npm can get it
"$LUPE" convert --to speedscope -i lg.data -o lg.speedscope.json || fail "lupe convert --to speedscope exited $?"
schema=
cache=${LUPE_BUILD}/npm
if [ -s "$cache/node_modules/speedscope/dist/release/file-format-schema.json" ] ||
   { command -v npm >/dev/null && timeout 120 npm install --silent --no-audit --no-fund --prefix "$cache" speedscope@1 >/dev/null 2>&1; }; then
	schema=$cache/node_modules/speedscope/dist/release/file-format-schema.json
fi
python3 - lg.speedscope.json lg.folded "$schema" <<'PY' || fail "the speedscope file does not pass its checks"
import json, sys
doc = json.load(open(sys.argv[1]))
schema = sys.argv[3]
if schema:
    try:
        import jsonschema
        jsonschema.validate(doc, json.load(open(schema)))
        print('valid by speedscope\'s file-format-schema.json')
    except ImportError:
        print('note: no python jsonschema: shape checks only')
frames = doc['shared']['frames']
assert doc['$schema'] == 'https://www.speedscope.app/file-format-schema.json'
total = 0
for pr in doc['profiles']:
    assert pr['type'] == 'sampled' and len(pr['samples']) == len(pr['weights'])
    assert pr['endValue'] == sum(pr['weights'])
    for s in pr['samples']:
        assert all(0 <= i < len(frames) for i in s)
    total += sum(pr['weights'])
folded = sum(int(l.rsplit(' ', 1)[1]) for l in open(sys.argv[2]))
assert total == folded, (total, folded)   # the same samples as the folded stacks
names = {f['name'] for f in frames}
assert {'leaf_a', 'leaf_b', 'compute_c'} <= names
PY
ok "--to speedscope: valid, every sample's weight"

# and speedscope itself (the npm package's web app) imports it in headless chromium,
# the way its command line tool hands it a file
. "$LUPE_SRC/tests/shell/lib/chromium.sh"
app=$cache/node_modules/speedscope/dist/release/index.html
if [ -n "$schema" ] && [ -f "$app" ] && command -v chromium >/dev/null; then
	need_chromium
	python3 - lg.speedscope.json "$TMPD/ss.js" <<'PY'
import base64, json, sys
b = base64.b64encode(open(sys.argv[1], 'rb').read()).decode()
open(sys.argv[2], 'w').write('speedscope.loadFileFromBase64(%s, %s)' % (json.dumps('lg.json'), json.dumps(b)))
PY
	chromium_run --allow-file-access-from-files --virtual-time-budget=5000 --dump-dom \
		"file://$app#localProfilePath=$TMPD/ss.js" > ss.dom
	ev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' lg.speedscope.json)
	grep -q "<title>$ev - speedscope</title>" ss.dom || fail "speedscope did not load lupe's file (no '$ev' title)"
	grep -Eq 'demo \([0-9]+/[0-9]+\)' ss.dom || fail "speedscope shows no thread profile of lupe's file"
	ok "speedscope's own importer loads it (headless chromium)"
else
	echo "note: no speedscope package or chromium here: its importer is not run"
fi

# errors
expect_rc 129 "$LUPE" convert -i g.data 2>/dev/null
expect_rc 129 "$LUPE" convert --to svg -i g.data 2>/dev/null
"$LUPE" convert --to folded -i nosuch.data 2>err.txt && fail "a missing file converted"
grep -q "nosuch.data" err.txt || fail "the error does not name the file: $(cat err.txt)"
"$LUPE" convert --to folded -i g.data -o /nonexistent/dir/x 2>err.txt && fail "an unwritable output succeeded"
grep -q "cannot write '/nonexistent/dir/x'" err.txt || fail "unwritable output: $(cat err.txt)"
ok "usage and file errors"
