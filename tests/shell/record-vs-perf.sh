#!/usr/bin/env bash
# the top symbols of lupe's recording of demo agree with perf's own recording within 3 percentage points
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

top() { # FILE -> "symbol percent" lines for the demo binary's symbols
	"$PERF" report -i "$1" --no-children --stdio --sort sym 2>/dev/null |
		awk '/^ +[0-9.]+%/ { p = $1; sub("%", "", p); print $NF, p }' | sort
}
"$LUPE" record -q -F 4000 -o lupe.data -- "$WORKLOADS/demo" -n 400 >/dev/null || fail "lupe record exited $?"
"$PERF" record -q -F 4000 -o perf.data -- "$WORKLOADS/demo" -n 400 >/dev/null 2>&1 || fail "perf record exited $?"
top lupe.data > lupe.top
top perf.data > perf.top
for sym in spin compute_c; do
	l=$(awk -v s=$sym '$1 == s { print $2 }' lupe.top)
	p=$(awk -v s=$sym '$1 == s { print $2 }' perf.top)
	[ -n "$l" ] && [ -n "$p" ] || fail "$sym missing: lupe '$l' perf '$p'"
	awk -v l="$l" -v p="$p" 'BEGIN { d = l - p; if (d < 0) d = -d; exit !(d <= 3) }' ||
		fail "$sym: lupe $l% vs perf $p%: more than 3 points apart"
	ok "$sym: lupe $l% perf $p%"
done
