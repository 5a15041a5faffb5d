#!/usr/bin/env bash
# record --off-cpu writes perf's offcpu-time event: one sample per sleeping stack whose period is the time asleep, which perf reads (and perf's record_offcpu.sh passes with lupe recording)
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
"$LUPE" version --build-options 2>/dev/null | grep -q 'libbpf: \[ OFF' && skip "lupe was built without BPF"

"$LUPE" record -q --off-cpu -e dummy -o off.data -- sleep 0.3 2>err.txt || {
	grep -q 'cannot load the --off-cpu BPF program' err.txt && skip "$(cat err.txt)"
	fail "lupe record --off-cpu exited: $(cat err.txt)"
}
# unprivileged: lupe's one sentence, none of libbpf's own lines on stderr
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	for c in "record -q --off-cpu -e dummy -o $TMPD/nobody.data" "lock contention -b"; do
		# shellcheck disable=SC2086
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$LUPE" $c -- true > nobody.out 2>&1 &&
			fail "an unprivileged $c succeeded: $(cat nobody.out)"
		grep -q 'BPF program: Operation not permitted (it needs root or CAP_BPF and CAP_PERFMON)' nobody.out ||
			fail "unprivileged $c: no refusal sentence: $(cat nobody.out)"
		grep -q '^libbpf:' nobody.out && fail "unprivileged $c: libbpf printed to stderr: $(cat nobody.out)"
	done
fi
"$PERF" evlist -i off.data 2>/dev/null | grep -qx 'offcpu-time' || fail "no offcpu-time event in the file"
"$PERF" evlist -v -i off.data 2>/dev/null | grep '^offcpu-time:' | grep -q 'type: 1, size: 128, config: 0xa' ||
	fail "offcpu-time is not perf's BPF output software event"
# the sleep: about 0.3 s off the CPU in clock_nanosleep's stack
"$PERF" script -i off.data -F comm,event,period 2>/dev/null | awk '$1 == "sleep" && $3 == "offcpu-time:" { s += $2 } END { print s + 0 }' >slept
awk '{ exit !($1 >= 0.28e9 && $1 < 0.6e9) }' slept || fail "sleep 0.3 was off the CPU for $(cat slept) ns"
"$PERF" script -i off.data -F comm,event,ip,sym 2>/dev/null | grep -A3 'offcpu-time' | grep -q 'nanosleep' ||
	fail "the off-cpu stack does not show nanosleep"
"$PERF" report -i off.data -q --percent-limit=90 2>/dev/null | grep -q sleep || fail "perf report shows no sleep"
ok "--off-cpu: sleep 0.3 off the CPU for $(cat slept) ns in nanosleep"

# perf's own test, lupe recording and perf reading (this perf was built
# without BPF skeletons and skips it itself)
t=/usr/lib/perf-core/tests/shell/record_offcpu.sh
[ -f $t ] || { ok "perf's record_offcpu.sh is not installed"; exit 0; }
mkdir shim
printf '#!/bin/sh\nif [ "$1" = record ]; then exec "%s" "$@"; fi\nexec "%s" "$@"\n' "$LUPE" "$PERF" >shim/perf
chmod +x shim/perf
PATH=$PWD/shim:$PATH sh $t >offcpu.out 2>&1 || { cat offcpu.out; fail "perf's record_offcpu.sh with lupe record exited $?"; }
grep -q 'Basic off-cpu test \[Success\]' offcpu.out && grep -q 'Child task off-cpu test \[Success\]' offcpu.out ||
	{ cat offcpu.out; fail "perf's record_offcpu.sh did not pass"; }
ok "perf's record_offcpu.sh passes with lupe record"
