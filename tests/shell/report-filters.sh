#!/usr/bin/env bash
# report's --comms/--dsos/--symbols/--pid filters are perf 6.1's text: a one-value filter's column elided with its "# comm: X" line, filtered samples in the totals, children entries made by kept samples kept, nothing-matched reports; and -s sym's chains without the entry's own function
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
[ -x "$WORKLOADS/demo" ] || fail "workloads not built"

"$PERF" record -q -g -F 999 -o p.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 || skip "perf record -g failed"
"$LUPE" record -q -g -F 999 -o l.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 || fail "lupe record -g exited $?"

# perf ends its text with a random tip: not part of the comparison
strip_tip() {
	awk '{ l[NR] = $0 } END { n = NR; if (n >= 3 && l[n-1] ~ /^# \(Tip:/ && l[n] == "#" && l[n-2] == "#") n -= 3
		for (i = 1; i <= n; i++) print l[i] }'
}
n=0
same() { # ARGS...: lupe report's text is perf's
	"$PERF" report --stdio "$@" 2>/dev/null | strip_tip > p.out
	"$LUPE" report --stdio "$@" > l.out 2>l.err || fail "lupe report $* exited $?: $(cat l.err)"
	[ -s p.out ] || fail "perf report $* printed nothing"
	# children mode too: entries of equal overhead in perf's order
	if ! cmp -s p.out l.out; then
		diff p.out l.out | head -20
		fail "lupe report $* differs from perf"
	fi
	n=$((n + 1))
}

for f in p.data l.data; do
	for c in --no-children --children; do
		same -i $f $c --comm demo
		same -i $f $c --comm demo --dso demo
		same -i $f $c --dso demo -n
		same -i $f $c --dsos demo,libc.so.6
		same -i $f $c --dso libc.so.6
		same -i $f $c --symbols spin
		same -i $f $c --symbols spin,compute_c -g none
		same -i $f $c --comm nosuch
		same -i $f $c --comm demo -F overhead,comm,sym
		same -i $f $c --comm demo -s comm
		same -i $f $c --symbols spin -t ,
		same -i $f $c -q --comm demo -g none
		same -i $f $c -s sym
		same -i $f $c -s sym,dso -g caller
		same -i $f $c -s sym -F overhead,sym
	done
done

# the filters change what is shown: a check that could fail
"$LUPE" report --stdio -i l.data --no-children --dso demo > l.out 2>&1
grep -q '^# dso: demo$' l.out || fail "--dso demo printed no '# dso: demo' line"
grep -q 'Shared Object' l.out && fail "--dso demo still shows the Shared Object column"
"$LUPE" report --stdio -i l.data --children --dso demo > l.out 2>&1
grep -q '__libc_start_call_main' l.out || fail "--dso demo dropped the children entry of main's caller in libc"
echo "ok: $n filtered reports equal perf's, children ties in perf's order"
