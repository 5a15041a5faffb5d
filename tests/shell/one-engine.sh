#!/usr/bin/env bash
# lib/ has one live engine's shape: PERF_EVENT_IOC_SET_OUTPUT in one function only (the ring step), the ring calls (lupe_ring_attach/read/mmap) only in the engine (record/engine.c), and no file outside lib/session sorts events by time; the check plants the three faults in a copy and must name them
. "$(dirname "$0")/lib/common.sh"
command -v python3 >/dev/null || skip "no python3 to read the sources"

# check LIBDIR: prints each breach, exits 1 if any
check() {
	python3 - "$1" <<'PY'
import os, re, sys
lib = sys.argv[1]
bad = []
set_output = []  # (file, function) holding the ioctl
for root, _, files in os.walk(lib):
    for f in sorted(files):
        if not f.endswith(".c"):
            continue
        path = os.path.join(root, f)
        rel = os.path.relpath(path, lib)
        # code only: comments may name the ioctl
        text = re.sub(r"/\*.*?\*/", lambda c: "\n" * c.group(0).count("\n"),
                      open(path, errors="replace").read(), flags=re.S)
        # the function around each SET_OUTPUT use
        for m in re.finditer(r"PERF_EVENT_IOC_SET_OUTPUT", text):
            heads = list(re.finditer(r"^[a-z].*?\b(\w+)\([^;{]*\)\s*\{", text[:m.start()], re.M | re.S))
            set_output.append((rel, heads[-1].group(1) if heads else "?"))
        # every live reader opens and drains its rings through the engine
        if rel not in ("record/engine.c", "sampling/ring.c"):
            for m in re.finditer(r"\blupe_ring_(attach|read|mmap)\s*\(", text):
                bad.append("%s: calls lupe_ring_%s(): open and drain through the live engine (record/engine.h)" % (rel, m.group(1)))
        if rel.startswith("session/"):
            continue
        # a qsort (or qsort_r) whose comparator reads a time
        for m in re.finditer(r"\bqsort(?:_r)?\s*\((.*?)\);", text, re.S):
            args = m.group(1).split(",")
            if len(args) < 4:
                continue
            cmp = args[3].strip()
            body = re.search(r"\b%s\s*\([^)]*\)\s*\{(.*?)^\}" % re.escape(cmp), text, re.M | re.S)
            if body and re.search(r"(->|\.)\s*time\b|\btime\s*[<>]", body.group(1)):
                bad.append("%s: sorts by time (qsort with %s): queue in session/ordered.c instead" % (rel, cmp))
places = sorted(set(set_output))
if len(places) != 1:
    bad.append("PERF_EVENT_IOC_SET_OUTPUT in %d functions, want one (the ring step): %s" %
               (len(places), ", ".join("%s:%s()" % p for p in places)))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

out=$(check "$LUPE_SRC/lib") || fail "lib/ breaks the one-engine rules: $out"
ok "one ring step ($(grep -rl --include="*.c" PERF_EVENT_IOC_SET_OUTPUT "$LUPE_SRC/lib" | sed "s|$LUPE_SRC/||")), rings only in the engine, no time sort outside lib/session"

# the check must see both faults
cp -r "$LUPE_SRC/lib" planted
cat >>planted/trace/source.c <<'C'
static int planted_cmp(const void *a, const void *b)
{
	const struct lupe_sc_event *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

static void planted_sort(struct lupe_sc_event *v, size_t n)
{
	qsort(v, n, sizeof(*v), planted_cmp);
}
C
cat >>planted/func/session.c <<'C'
static int planted_ring(int fd, int to)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, to);
}
C
cat >>planted/trace/perf-source.c <<'C'
static long planted_drain(struct ring *r, ring_fn fn, void *arg)
{
	return lupe_ring_read(r, fn, arg);
}
C
out=$(check planted) && fail "the check passed a copy with a time sort, a second SET_OUTPUT and a ring read outside the engine"
echo "$out" | grep -q "trace/source.c: sorts by time" || fail "the planted time sort went unnamed: $out"
echo "$out" | grep -q "func/session.c:planted_ring()" || fail "the planted SET_OUTPUT went unnamed: $out"
echo "$out" | grep -q "trace/perf-source.c: calls lupe_ring_read()" || fail "the planted ring read went unnamed: $out"
ok "the check names a planted time sort, a second SET_OUTPUT and a ring read outside the engine"
