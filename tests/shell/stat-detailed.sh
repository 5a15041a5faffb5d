#!/usr/bin/env bash
# lupe stat -d/-dd/-ddd adds perf 6.1's detailed event sets, same names, order and layout as perf stat (here <not supported> rows)
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_perf

events() { awk '!/ seconds / && /^ +([0-9.,]+( msec)?|<not supported>|<not counted>) +[A-Za-z]/ { sub(/^ +<not (supported|counted)>/, "N"); print $(NF > 1 && $2 == "msec" ? 3 : 2) }' "$1"; }
for d in -d -dd -ddd; do
	"$PERF" stat $d "$WORKLOADS/demo" -n 2 2> perf.err >/dev/null || fail "perf stat $d exited non-zero"
	"$LUPE" stat $d "$WORKLOADS/demo" -n 2 2> lupe.err >/dev/null || fail "lupe stat $d exited non-zero"
	events perf.err > perf.ev
	events lupe.err > lupe.ev
	[ "$(wc -l < perf.ev)" -gt 8 ] || fail "perf stat $d printed too few rows: $(cat perf.err)"
	diff -u perf.ev lupe.ev || fail "lupe stat $d counts other events, or in another order, than perf"
	ok "stat $d: $(wc -l < lupe.ev) events as perf"
	stat_same stat_norm $d true
done
# -d after -e: the events given, then the detailed set
"$LUPE" stat -e task-clock -d true 2> e.err || fail "lupe stat -e task-clock -d"
events e.err | tr '\n' ' ' | grep -qx 'task-clock L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses ' ||
	fail "-e task-clock -d: $(cat e.err)"
stat_same stat_norm -e task-clock -dd true
