#!/usr/bin/env bash
# lupe evlist prints what perf evlist prints (names, -v attrs, -F, -g groups) for perf's and lupe's recordings, file and stream
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -g -o a.data -- "$WORKLOADS/demo" -n 20 >/dev/null 2>&1 || skip "perf record failed"
# -c 100000: at -c 10000 (a cpu-clock sample every 10 us) this machine's
# kernel (6.18.44-fc) grew its page tables by gigabytes in seconds, soft
# lockups and then the OOM killer (session 14; perf and lupe alike)
"$PERF" record -q -o b.data -e task-clock,page-faults -e '{cpu-clock,task-clock}' -c 100000 -- "$WORKLOADS/demo" -n 10 >/dev/null 2>&1 ||
	skip "perf record of a group failed"
"$LUPE" record -q -o c.data -e task-clock,page-faults -F 999 -- "$WORKLOADS/demo" -n 10 >/dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -o - -e cpu-clock -- "$WORKLOADS/demo" -n 10 2>/dev/null > d.pipe || fail "lupe record -o - failed"
for f in a.data b.data c.data d.pipe; do
	for o in "" -v -F -g; do
		"$PERF" evlist -i $f $o > want 2>/dev/null
		"$LUPE" evlist -i $f $o > got || fail "lupe evlist -i $f $o failed"
		[ -s want ] || fail "perf evlist -i $f $o printed nothing"
		diff want got || fail "evlist -i $f $o differs"
	done
done
grep -q '^{cpu-clock,task-clock}$' <("$LUPE" evlist -g -i b.data) || fail "no group line"
expect_rc 1 "$LUPE" evlist -i nosuch.data 2>/dev/null
ok "evlist: names, -v, -F, -g as perf prints them"
