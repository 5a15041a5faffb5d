#!/usr/bin/env bash
# a node --perf-basic-prof profile: JIT code's DSO is "[JIT] tid PID" and its symbols come from /tmp/perf-PID.map, as perf report shows them on the same file
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v node >/dev/null || skip "no node (apt-get install nodejs) to make JIT code"
cat > spin.js <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
let t = Date.now(), s = 0;
while (Date.now() - t < 1000) s += fib(20);
console.log(s > 0 ? "ok" : "no");
JS
"$LUPE" record -q -o jit.data -- node --perf-basic-prof spin.js >/dev/null 2>err || fail "record node: $(cat err)"
pid=$("$LUPE" script -F pid -i jit.data 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
[ -s "/tmp/perf-$pid.map" ] || skip "node wrote no /tmp/perf-$pid.map"
trap 'rm -rf "$TMPD" "/tmp/perf-$pid.map"' EXIT
for keys in dso dso,sym; do
	"$LUPE" report --stdio --sort $keys -i jit.data 2>&1 | grep -v '^#' | grep -v '^$' | head -20 > lupe.$keys
	"$PERF" report --stdio --sort $keys -i jit.data 2>&1 | grep -v '^#' | grep -v '^$' | head -20 > perf.$keys
	diff perf.$keys lupe.$keys > diff.$keys || fail "--sort $keys differs from perf: $(cat diff.$keys)"
done
grep -q "\[JIT\] tid $pid" lupe.dso || fail "no '[JIT] tid $pid' DSO: $(head -3 lupe.dso)"
ok "JIT DSO '$(grep -o "\[JIT\] tid $pid" lupe.dso)' and its symbols as perf shows them"
