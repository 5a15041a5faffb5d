#!/usr/bin/env bash
# lupe data convert --to-json writes JSON that python3 -m json.tool accepts, whose samples (times, pids, cpus, comms, callchains with symbols and DSOs) equal perf data convert --to-json's of the same files; --to-jsonl the same samples one a line; bad input and an existing output are errors
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v python3 >/dev/null || skip "no python3"
"$PERF" record -q --no-bpf-event -o probe.data -- true >/dev/null 2>&1 || skip "perf record cannot record here (perf_event_paranoid?)"

# compare.py PERF.json LUPE.json: the parsed objects' samples equal (key order aside)
cat >compare.py <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
sa, sb = a["samples"], b["samples"]
# a frame in a PLT stub (any process of a -a recording): lupe names it by its
# target (strcmp@plt), perf 6.1 not at all or as _init (compare-perf.known's
# [plt-named]): such frames are their ip alone on both sides
def plt(s):
    for f in s.get("callchain", []):
        if f.get("symbol", "").endswith("@plt") or f.get("symbol") == "_init":
            f.pop("symbol", None)
            f.pop("dso", None)
for s in sa + sb:
    plt(s)
if len(sa) != len(sb):
    sys.exit(f"{len(sb)} samples, perf has {len(sa)}")
for i, (x, y) in enumerate(zip(sa, sb)):
    if x != y:
        sys.exit(f"sample {i} differs:\n perf: {json.dumps(x)[:500]}\n lupe: {json.dumps(y)[:500]}")
if b.get("linux-perf-json-version") != 1:
    sys.exit("no linux-perf-json-version 1")
for k in ("hostname", "os-release", "arch", "nrcpus-online", "cmdline"):
    if a["headers"].get(k) != b["headers"].get(k):
        sys.exit(f"header {k}: perf {a['headers'].get(k)!r}, lupe {b['headers'].get(k)!r}")
chains = sum(1 for s in sb if len(s["callchain"]) > 1)
syms = sum(1 for s in sb for f in s["callchain"] if "symbol" in f)
print(f"{len(sb)} samples equal, {chains} with callchains, {syms} frames with symbols")
PY

"$LUPE" record -q -g -o lupe.data -- "$WORKLOADS/demo" >/dev/null 2>&1 || fail "lupe record -g of the demo failed"
"$PERF" record -q --no-bpf-event -g -o perf.data -- "$WORKLOADS/demo" >/dev/null 2>&1 || fail "perf record -g of the demo failed"
"$PERF" record -q --no-bpf-event -a -o all.data -- sleep 0.2 >/dev/null 2>&1 || fail "perf record -a failed"
for f in lupe perf all; do
	"$PERF" data convert --to-json "$f.perf.json" -i "$f.data" >/dev/null 2>&1 || fail "perf data convert --to-json of $f.data failed"
	"$LUPE" data convert --to-json "$f.lupe.json" -i "$f.data" || fail "lupe data convert --to-json of $f.data failed"
	python3 -m json.tool "$f.lupe.json" >/dev/null || fail "python3 -m json.tool refuses lupe's JSON of $f.data"
	out=$(python3 compare.py "$f.perf.json" "$f.lupe.json") || fail "$f.data: $out"
	ok "$f.data: $out"
done
grep -q '"cpu"' all.lupe.json || fail "a -a recording's JSON has no cpu"
grep -q '"symbol": "spin"' lupe.lupe.json || fail "the demo's JSON names no spin"

# the comparison must notice one changed time and one lost frame
python3 - lupe.lupe.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["samples"][3]["timestamp"] += 1
json.dump(d, open("time.json", "w"))
d["samples"][3]["timestamp"] -= 1
s = next(s for s in d["samples"] if len(s["callchain"]) > 1)
s["callchain"].pop()
json.dump(d, open("frame.json", "w"))
PY
for bad in time frame; do
	python3 compare.py lupe.perf.json $bad.json >/dev/null 2>&1 && fail "compare.py missed a changed $bad"
done
ok "the comparison notices a changed time and a lost frame"

# JSON Lines: the same samples, one object a line
"$LUPE" data convert --to-jsonl - -i perf.data >lines.jsonl || fail "--to-jsonl failed"
python3 - perf.lupe.json lines.jsonl <<'PY' || fail "--to-jsonl's objects are not --to-json's samples"
import json, sys
want = json.load(open(sys.argv[1]))["samples"]
got = [json.loads(l) for l in open(sys.argv[2])]
sys.exit(0 if got == want else f"{len(got)} lines against {len(want)} samples")
PY
# a pipe-mode stream reads too
"$LUPE" record -q -o - -- "$WORKLOADS/demo" 2>/dev/null | "$LUPE" data convert --to-json - -i - >pipe.json ||
	fail "data convert of a pipe-mode stream failed"
python3 -m json.tool pipe.json >/dev/null || fail "the JSON of a pipe-mode stream does not parse"
ok "--to-jsonl and pipe mode"

# errors
out=$("$LUPE" data convert --to-json x.json -i nosuch.data 2>&1); rc=$?
[ $rc = 1 ] || fail "a missing input exited $rc: $out"
[ ! -e x.json ] || fail "a missing input left x.json behind"
echo "$out" | grep -q "cannot open 'nosuch.data'" || fail "a missing input said: $out"
out=$("$LUPE" data convert --to-json perf.lupe.json -i perf.data 2>&1); rc=$?
[ $rc = 1 ] || fail "an existing output exited $rc"
echo "$out" | grep -q "use --force" || fail "an existing output said: $out"
"$LUPE" data convert -f --to-json perf.lupe.json -i perf.data || fail "-f does not overwrite"
expect_rc 129 "$LUPE" data convert -i perf.data 2>/dev/null
expect_rc 129 "$LUPE" data convert --to-json a --to-jsonl b 2>/dev/null
expect_rc 129 "$LUPE" data convert --all --to-json a 2>/dev/null
head -c 3000 perf.data >cut.data
# a cut file: the samples before the cut, said, as valid JSON
"$LUPE" data convert --to-json cut.json -i cut.data 2>cut.err || fail "a cut file failed: $(cat cut.err)"
grep -q truncated cut.err || fail "a cut file was not said to be cut: $(cat cut.err)"
python3 -m json.tool cut.json >/dev/null || fail "a cut file gave JSON that does not parse"
ok "errors"
