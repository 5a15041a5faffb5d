#!/usr/bin/env bash
# lupe report -D and lupe script -D print perf's raw dump byte for byte (offsets, bytes, fields, stats) on perf's and lupe's recordings: plain, -g, dwarf, -a, tracepoint, -z, -s (READ), pipe
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
D=$WORKLOADS/demo
rec() { "$PERF" record -q "$@" >/dev/null 2>&1 || skip "perf record $* failed"; }
lrec() { "$LUPE" record -q "$@" >/dev/null 2>&1 || fail "lupe record $* failed"; }
rec -o plain.data -- "$D" -n 100
rec -g -o g.data -- "$D" -n 100
rec --call-graph dwarf -o dw.data -- "$D" -n 30
rec -a -o a.data -- "$D" -n 50
rec --sample-cpu -o cpu.data -- "$D" -n 50
rec -z -g -o z.data -- "$D" -n 100
rec --switch-events -o sw.data -- "$D" -n 50
rec --namespaces -o ns.data -- "$D" -n 50
rec -m 1 -F 50000 -g -o lost.data -- "$D" -n 300
rec --intr-regs=di,r8 --user-regs=ax,bx -e task-clock -c 100000 -o regs.data -- "$D" -n 30
# -s: a READ record for each child that exits, two events (perf reads its fields by the event's id)
rec -s -e cpu-clock,task-clock -o s.data -- sh -c "$D -n 20; $D -n 20"
lrec -g -o lg.data -- "$D" -n 100
lrec -s -e cpu-clock,page-faults -o ls.data -- sh -c "$D -n 20; $D -n 20"
lrec -z -o lz.data -- "$D" -n 100
lrec --call-graph dwarf -o ld.data -- "$D" -n 30
tp=
if [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	rec -e sched:sched_switch -g -o tp.data -- "$D" -n 50 -t 2
	lrec -e sched:sched_switch -o lt.data -- "$D" -n 50 -t 2
	tp="tp lt"
fi

for f in plain g dw a cpu z sw ns regs lost s lg lz ld ls $tp; do
	cmds="report script"
	# -a catches other programs, whose files may be gone by now: script's symbols of them are
	# not what this compares (report -D prints no symbol)
	[ $f = a ] && cmds=report
	for cmd in $cmds; do
		"$PERF" $cmd -D -i $f.data > $f.$cmd.p 2>/dev/null || fail "perf $cmd -D -i $f.data failed"
		"$LUPE" $cmd -D -i $f.data > $f.$cmd.l || fail "lupe $cmd -D -i $f.data exited $?"
		cmp -s $f.$cmd.p $f.$cmd.l || { diff $f.$cmd.p $f.$cmd.l | head; fail "lupe $cmd -D differs from perf's on $f.data"; }
	done
	grep -q "^0x[0-9a-f]*@$f.data \[0x[0-9a-f]*\]: event: 9$" $f.report.l || fail "no sample record in the dump of $f.data"
	grep -q '^Aggregated stats:' $f.report.l || fail "no stats at the end of report -D on $f.data"
done
grep -q '^\.\.\. user regs: mask' dw.report.l || fail "dwarf samples dumped without their user registers"
grep -q '^\.\.\. intr regs: mask 0x10020 ABI 64-bit' regs.report.l || fail "interrupt registers not dumped"
grep -q '^\.\.\. FP chain: nr:' g.report.l || fail "callchains not dumped"
grep -q '^\.\.\. time enabled : [0-9]' ls.report.l || fail "READ records dumped without their fields"
grep -A5 'PERF_RECORD_READ: [0-9]' ls.script.l | grep -q '^: unhandled!$' || fail "script -D: READ records not said unhandled as perf's"
grep -q 'COMPRESSED events:' z.report.l || fail "compressed records not counted"
ok "report -D and script -D equal perf's on file-mode recordings"

"$PERF" record -q -g -o - -- "$D" -n 50 2>/dev/null > pipe.data
for cmd in report script; do
	"$PERF" $cmd -D -i - < pipe.data > pipe.$cmd.p 2>/dev/null
	"$LUPE" $cmd -D -i - < pipe.data > pipe.$cmd.l || fail "lupe $cmd -D -i - exited $?"
	cmp -s pipe.$cmd.p pipe.$cmd.l || { diff pipe.$cmd.p pipe.$cmd.l | head; fail "lupe $cmd -D differs on a pipe"; }
done
grep -q '^0@pipe \[0x[0-9a-f]*\]: event: 64$' pipe.report.l || fail "the pipe's ATTR record is not first at offset 0"
ok "report -D and script -D on a pipe"
