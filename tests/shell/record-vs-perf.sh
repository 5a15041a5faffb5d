#!/usr/bin/env bash
# the top symbols of lupe's recording of demo agree with perf's own recording within 3 percentage points
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

top() { # FILE -> "symbol percent" lines for the demo binary's symbols
	"$PERF" report -i "$1" --no-children --stdio --sort sym 2>/dev/null |
		awk '/^ +[0-9.]+%/ { p = $1; sub("%", "", p); print $NF, p }' | sort
}
# compare SYM: 0 when lupe's and perf's shares of SYM are within 3 points
compare() {
	local l p
	l=$(awk -v s="$1" '$1 == s { print $2 }' lupe.top)
	p=$(awk -v s="$1" '$1 == s { print $2 }' perf.top)
	[ -n "$l" ] && [ -n "$p" ] || fail "$1 missing: lupe '$l' perf '$p'"
	echo "$1: lupe $l% perf $p%"
	awk -v l="$l" -v p="$p" 'BEGIN { d = l - p; if (d < 0) d = -d; exit !(d <= 3) }'
}
# Two tries: the split is fixed work, but other tests sampling the whole
# machine at the same time can skew one run by a few points.
for try in 1 2; do
	"$LUPE" record -q -F 4000 -o lupe.data -- "$WORKLOADS/demo" -n 800 >/dev/null || fail "lupe record exited $?"
	"$PERF" record -q -F 4000 -o perf.data -- "$WORKLOADS/demo" -n 800 >/dev/null 2>&1 || fail "perf record exited $?"
	top lupe.data > lupe.top
	top perf.data > perf.top
	good=1
	for sym in spin compute_c; do
		compare $sym || good=0
	done
	[ $good = 1 ] && { ok "top symbols within 3 points"; exit 0; }
done
fail "top symbols of lupe's and perf's recordings differ by more than 3 points twice"
