#!/usr/bin/env bash
# script -F pid,tid on a system-wide tracepoint file (perf's and lupe's) prints a tid of -1 as perf does, signed (an exited thread's last sched_switch), not 4294967295
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
need_tracefs
[ -x "$WORKLOADS/threads" ] || fail "workloads not built"

# the threads workload's threads exit while the process lives: the kernel
# has already released their pids when they switch out the last time
"$PERF" record -q --no-bpf-event -a -e sched:sched_switch -o p.data -- "$WORKLOADS/threads" >/dev/null 2>&1 ||
	skip "perf record -a -e sched:sched_switch failed"
"$LUPE" record -a -e sched:sched_switch -o l.data -- "$WORKLOADS/threads" >/dev/null 2>&1 ||
	fail "lupe record -a -e sched:sched_switch exited $?"
for f in p.data l.data; do
	for F in pid,tid comm,pid,tid tid pid,tid,cpu,time; do
		"$PERF" script -i $f -F $F > p.txt 2>/dev/null
		"$LUPE" script -i $f -F $F > l.txt || fail "lupe script -F $F -i $f exited $?"
		cmp -s p.txt l.txt || { diff p.txt l.txt | head; fail "script -F $F differs from perf's on $f"; }
	done
	grep -q -- '-1 *$' p.txt || grep -q -- '/-1 ' p.txt || fail "no tid -1 in perf script -F pid,tid,cpu,time of $f (the case is not hit)"
	! grep -q 4294967295 l.txt || fail "lupe script prints tid -1 as 4294967295 on $f"
done
ok "tid -1 printed signed, as perf prints it"
