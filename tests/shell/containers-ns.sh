#!/usr/bin/env bash
# a program in its own mount namespace (run from a tmpfs path that does not exist outside it) recorded with -p and -a: lupe report names its functions (and source lines) with perf report's shares (1 point) while it runs and after it exited, from the build-id cache lupe's record filled in perf's layout, which perf report of lupe's file reads too; node in its own PID and mount namespaces with --perf-basic-prof: its JIT frames named from /proc/PID/root/tmp/perf-NSPID.map as perf names them
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
command -v unshare >/dev/null || skip "no unshare(1) to make namespaces"
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
export HOME=$TMPD/home # a build-id cache of its own: only lupe's record fills it
mkdir -p "$HOME"
export PERF_CONFIG=/dev/null # perf's buildid.dir config would send both elsewhere
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT

# shares FILE TOOL [OPTS]: "PERCENT SYMBOL" of the [.] lines of TOOL's report of FILE
shares() {
	local f=$1 tool=$2
	shift 2
	"$tool" report -i "$f" --stdio --no-children --sort sym "$@" 2> /dev/null |
		awk '!/^#/ && /\[\.\]/ { p = $1; sub("%", "", p); print p, $3 }'
}
# share SYMBOL < shares
share() { awk -v s="$1" '$2 == s { print $1; f = 1 } END { if (!f) print 0 }'; }
# close A B: within one point
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'; }

# check WHAT MIN FILE [OPTS]: lupe names spin and compute_c (MIN% each at least) with the shares
# perf's report of FILE gives
check() {
	local what=$1 min=$2 f=$3 s l p
	shift 3
	shares "$f" "$LUPE" "$@" > lupe.sh
	shares "$f" "$PERF" "$@" > perf.sh
	for s in spin compute_c; do
		l=$(share $s < lupe.sh)
		p=$(share $s < perf.sh)
		awk -v l="$l" -v m="$min" 'BEGIN { exit !(l >= m) }' ||
			fail "$what: lupe report does not name $s (share $l%): $(head -3 lupe.sh | tr '\n' ' ')"
		awk -v p="$p" -v m="$min" 'BEGIN { exit !(p >= m) }' ||
			fail "$what: perf report of lupe's file does not name $s (share $p%): $(head -3 perf.sh | tr '\n' ' ')"
		close "$l" "$p" || fail "$what: $s is $l% in lupe's report, $p% in perf's"
	done
	echo "  $what: spin $(share spin < lupe.sh)% (perf $(share spin < perf.sh)%), compute_c $(share compute_c < lupe.sh)% (perf $(share compute_c < perf.sh)%)"
}

# The workload from /opt/app, a tmpfs mounted in its own mount namespace only.
unshare -m --propagation private sh -c \
	"mount -t tmpfs none /opt && cp '$WORKLOADS/demo' /opt/app && exec /opt/app -s 8" > /dev/null &
pids=$!
pid=$pids # unshare execs sh, which execs the workload
for _ in $(seq 50); do
	[ "$(readlink /proc/"$pid"/exe 2> /dev/null)" = /opt/app ] && break
	sleep 0.1
done
[ "$(readlink /proc/"$pid"/exe 2> /dev/null)" = /opt/app ] || fail "the workload did not start in its namespace"
[ -e /opt/app ] && skip "/opt/app exists outside the namespace: the test needs a path that does not"
"$LUPE" record -o p.data -p "$pid" -- sleep 1 > /dev/null 2> err || fail "record -p: $(cat err)"
"$LUPE" record -a -o a.data -- sleep 1 > /dev/null 2> err || fail "record -a: $(cat err)"
ls "$HOME"/.debug/.build-id/*/* > /dev/null 2>&1 || fail "lupe's record filled no build-id cache at $HOME/.debug"
id=$("$LUPE" buildid-list -i p.data 2> /dev/null | awk '$2 == "/opt/app" { print $1 }')
[ -n "$id" ] || fail "the build-id of /opt/app is not in lupe's file: $("$LUPE" buildid-list -i p.data 2>&1)"
[ -f "$HOME/.debug/.build-id/${id:0:2}/${id:2}/elf" ] || fail "the cache has no /opt/app under ${id:0:2}/${id:2}"
[ -f "$HOME/.debug/opt/app/$id/elf" ] || fail "the cache has no opt/app/$id/elf (perf's layout)"
check "-p, running" 5 p.data
check "-a, running" 0.5 a.data --comm app
kill "$pid" 2> /dev/null
wait
pids=
[ -e "/proc/$pid" ] && fail "the workload $pid did not exit"
check "-p, exited" 5 p.data
check "-a, exited" 0.5 a.data --comm app
"$LUPE" report -i p.data --stdio --sort sym,srcline 2> /dev/null | grep -q 'spin  *demo.c:[0-9]' ||
	fail "after exit, no source line for spin from the cache's copy"

# node in its own PID and mount namespaces, its /tmp a tmpfs of its own
command -v node > /dev/null || { ok "mount namespace (node is missing: the PID namespace is not tried)"; exit 0; }
cat > jit.js << 'EOF'
function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i) * (i % 13); return s; }
function warm(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
const end = Date.now() + 8000; let t = 0;
while (Date.now() < end) { t += hot(200000); t += warm(100000); }
EOF
unshare -p -f -m --mount-proc sh -c \
	"mount -t tmpfs none /tmp && cat > /tmp/jit.js && exec node --perf-basic-prof /tmp/jit.js" < jit.js &
pids=$!
pid=
for _ in $(seq 100); do
	pid=$(pgrep -P "$pids" | head -1) # unshare -f forks sh, which execs node
	[ -n "$pid" ] && [ -e "/proc/$pid/root/tmp/perf-1.map" ] && break
	sleep 0.1
done
[ -n "$pid" ] && [ -e "/proc/$pid/root/tmp/perf-1.map" ] || fail "node did not start in its namespaces"
nspid=$(awk '/^NSpid:/ { print $NF }' /proc/"$pid"/status)
[ "$nspid" != "$pid" ] || fail "node's pid is the same in its namespace ($pid)"
[ -e "/tmp/perf-$nspid.map" ] && [ -e "/tmp/perf-$pid.map" ] && skip "/tmp/perf-$pid.map exists outside the namespace"
sleep 1 # the JIT has compiled hot and warm
"$LUPE" record -o jit.data -p "$pid" -- sleep 1 > /dev/null 2> err || fail "record node: $(cat err)"
"$LUPE" report -i jit.data --stdio --no-children --sort dso,sym 2> /dev/null | grep -v '^#' | grep . > lupe.jit
"$PERF" report -i jit.data --stdio --no-children --sort dso,sym 2> /dev/null | grep -v '^#' | grep . > perf.jit
grep -q "\[JIT\] tid $pid .*JS:\*hot /tmp/jit.js" lupe.jit || fail "lupe does not name node's JIT frame hot: $(head -5 lupe.jit)"
grep -q "\[JIT\] tid $pid .*JS:\*hot /tmp/jit.js" perf.jit || fail "perf does not name node's JIT frame hot: $(head -5 perf.jit)"
l=$(awk '/JS:\*hot/ { sub("%", "", $1); print $1; exit }' lupe.jit)
p=$(awk '/JS:\*hot/ { sub("%", "", $1); print $1; exit }' perf.jit)
close "$l" "$p" || fail "JS:*hot is $l% in lupe's report, $p% in perf's"
ok "mount namespace: named while running and after exit, from lupe's cache (perf reads it too); PID namespace: JS:*hot $l% (perf $p%) from /proc/$pid/root/tmp/perf-$nspid.map"
