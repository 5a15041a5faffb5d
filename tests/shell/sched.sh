#!/usr/bin/env bash
# lupe sched latency, map and timehist print perf 6.1's output (same lines, numbers and order; -s max, -p; -w, -V) on perf's and on lupe's recording of the pingpong workload, perf reads lupe sched record's file, and the comparison catches a planted difference
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
need_tracefs
[ -d /sys/kernel/tracing/events/sched/sched_switch ] || skip "this kernel has no sched tracepoints"

"$PERF" sched record -o perf.data -- "$WORKLOADS/pingpong" 200 > perf.out 2> perf.err ||
	{ cat perf.err; fail "perf sched record failed"; }
"$LUPE" sched record -o lupe.data -- "$WORKLOADS/pingpong" 200 > lupe.out 2> lupe.err ||
	{ cat lupe.err; fail "lupe sched record failed"; }
grep -q '^200 rounds' lupe.out || fail "the workload's own output is missing under lupe sched record"
"$PERF" evlist -i lupe.data > ev.txt 2>/dev/null || fail "perf evlist cannot read lupe's recording"
for e in sched_switch sched_stat_runtime sched_process_fork sched_wakeup_new sched_migrate_task; do
	grep -q "sched:$e\$" ev.txt || fail "lupe sched record did not record sched:$e"
done

for f in perf.data lupe.data; do
	for a in "" "-s max" "-p" "-s switch,runtime"; do
		# shellcheck disable=SC2086
		"$PERF" sched latency -i $f $a > want.txt 2>/dev/null || fail "perf sched latency -i $f $a failed"
		# shellcheck disable=SC2086
		"$LUPE" sched latency -i $f $a > got.txt 2> err.txt || { cat err.txt; fail "lupe sched latency -i $f $a failed"; }
		diff want.txt got.txt > d.txt || { head -20 d.txt; fail "sched latency $a -i $f differs from perf's"; }
	done
	grep -q '  pingpong:' got.txt || fail "no pingpong line in the latency table of $f"
	ok "$f: sched latency equals perf's ($(grep -c ' ms |' got.txt) tasks)"
	for a in "" "-w" "-V" "-V -w"; do
		# shellcheck disable=SC2086
		"$PERF" sched timehist -i $f $a > want.txt 2>/dev/null || fail "perf sched timehist -i $f $a failed"
		# shellcheck disable=SC2086
		"$LUPE" sched timehist -i $f $a > got.txt 2> err.txt || { cat err.txt; fail "lupe sched timehist -i $f $a failed"; }
		diff want.txt got.txt > d.txt || { head -20 d.txt; fail "sched timehist $a -i $f differs from perf's"; }
	done
	grep -q ' pingpong\[' got.txt || fail "no pingpong line in the timehist of $f"
	"$PERF" sched map -i $f > want.txt 2>/dev/null || fail "perf sched map -i $f failed"
	"$LUPE" sched map -i $f > got.txt 2> err.txt || { cat err.txt; fail "lupe sched map -i $f failed"; }
	diff want.txt got.txt > d.txt || { head -20 d.txt; fail "sched map -i $f differs from perf's"; }
	grep -q '=> pingpong:' got.txt || fail "no pingpong in the map of $f"
	ok "$f: sched map equals perf's ($(wc -l < got.txt) lines)"
	ok "$f: sched timehist (-w, -V) equals perf's ($(wc -l < got.txt) lines)"
done

# lost events (a one-page ring): perf's INFO line in latency and map, and
# timehist's "lost N events" lines where they came
"$PERF" sched record -m 1 -o lost.data -- "$WORKLOADS/pingpong" 20000 > /dev/null 2>&1 ||
	fail "perf sched record -m 1 failed"
if "$PERF" sched latency -i lost.data 2>/dev/null | grep -q 'lost events'; then
	for a in latency map timehist "timehist -w"; do
		# shellcheck disable=SC2086
		"$PERF" sched $a -i lost.data > want.txt 2>/dev/null
		# shellcheck disable=SC2086
		"$LUPE" sched $a -i lost.data > got.txt 2>/dev/null
		diff want.txt got.txt > d.txt || { head -20 d.txt; fail "sched $a on a file with lost events differs from perf's"; }
	done
	ok "a file with lost events: latency, map and timehist equal perf's"
else
	echo "note: a one-page ring lost no events here; that part was not exercised"
fi

# the comparison can fail: one changed delay is caught
"$PERF" sched latency -i lupe.data > want.txt 2>/dev/null
"$LUPE" sched latency -i lupe.data | sed '0,/avg: *[0-9]/s/avg: *\([0-9]\)/avg:   9/' > got.txt
diff -q want.txt got.txt > /dev/null && fail "a planted difference passed the comparison"
ok "a planted difference is caught"

"$LUPE" sched script -i lupe.data | grep -q 'sched:sched_switch' || fail "lupe sched script shows no sched_switch"
expect_rc 129 "$LUPE" sched latency -i lupe.data -s bogus 2> err.txt
grep -q "unknown sort key 'bogus'" err.txt || fail "bad sort key: $(cat err.txt)"
expect_rc 129 "$LUPE" sched frobnicate 2> err.txt
grep -q "unknown sched subcommand 'frobnicate'" err.txt || fail "bad subcommand: $(cat err.txt)"
ok "script, errors"
