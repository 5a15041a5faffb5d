#!/bin/bash
# stat --func errors: unknown function with close names, inline-only function with a source range, stripped binary, no permission, bad spec; one sentence, non-zero exit, no workload left behind
. "$(dirname "$0")/lib/common.sh"
need_root
W=$WORKLOADS/func-threads

# check WANT-RC PATTERN ARGS...: one line on stderr matching PATTERN
check() {
	local want=$1 pat=$2 rc
	shift 2
	"$LUPE" stat "$@" >out.txt 2>err.txt
	rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, want $want: $(cat err.txt)"
	grep -q -- "$pat" err.txt || fail "'$*' said '$(cat err.txt)', want /$pat/"
	[ "$(wc -l <err.txt)" = 1 ] || fail "'$*' said more than one line: $(cat err.txt)"
	ok "$(cat err.txt)"
}
check 1 "no function 'summ' in .*did you mean: sum" --func summ -- "$W" -n 1
check 1 "'squared' exists only inlined.*--func func-recurse.c:[0-9]*-[0-9]*" --func squared -- "$WORKLOADS/func-recurse" -n 1
cp "$W" stripped && strip stripped
check 1 "'.*stripped' is stripped" --func sum -- ./stripped -n 1
check 129 "cannot parse --func 'x:'" --func x: -- "$W"
check 129 "--per-call prints the calls of --func" --per-call -- "$W"
check 129 "use it with a command or -p PID" --func sum -a
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	need_tracefs
	"$LUPE" stat --func sum -- "$WORKLOADS/func-bench" -w 30 >/dev/null 2>&1 &
	sleep 0.1
	kill $! 2>/dev/null
	wait 2>/dev/null
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$LUPE" stat --func tiny -- "$WORKLOADS/func-bench" -w 30 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "no permission: exited $rc: $out"
	echo "$out" | grep -q "no permission" || fail "no permission: said '$out'"
	ok "$out"
fi
sleep 0.2
pgrep -f "func-bench -w 30" && fail "a workload was left behind"
pgrep -f "stripped -n 1" && fail "a workload was left behind"
ok "no workload left behind"
