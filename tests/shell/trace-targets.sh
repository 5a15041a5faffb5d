#!/usr/bin/env bash
# lupe trace -p attaches and detaches on Ctrl-C leaving the program running; -a sees other processes; -e filters by name, glob, negation
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_bpf_trace
W=$WORKLOADS/syscalls

# -e: only the syscalls asked for, counted exactly
"$LUPE" trace -s -e getppid,close -o e0.txt -- "$W" -n 0 || fail "lupe trace -e failed"
"$LUPE" trace -s -e getppid,close -o e1.txt -- "$W" -n 500 || fail "lupe trace -e failed"
[ "$(delta e0.txt e1.txt getppid)" = 500 ] || fail "-e getppid,close: getppid $(delta e0.txt e1.txt getppid) more than -n 0, want 500"
[ -n "$(calls e1.txt close)" ] || fail "-e getppid,close: no close"
[ -z "$(calls e1.txt openat)" ] || fail "-e getppid,close still shows openat"
"$LUPE" trace -s -e '!getppid' -o e2.txt -- "$W" -n 500 || fail "lupe trace -e !getppid failed"
[ -z "$(calls e2.txt getppid)" ] || fail "-e '!getppid' still shows getppid"
[ -n "$(calls e2.txt openat)" ] || fail "-e '!getppid' lost openat"
"$LUPE" trace -e 'getpp*' -o e30.txt -- "$W" -n 0 || fail "lupe trace -e glob failed"
"$LUPE" trace -e 'getpp*' -o e3.txt -- "$W" -n 7 || fail "lupe trace -e glob failed"
[ $(( $(grep -c '^getppid() *= ' e3.txt) - $(grep -c '^getppid() *= ' e30.txt) )) = 7 ] ||
	fail "-e 'getpp*': $(grep -c getppid e3.txt) getppid lines, want 7 more than -n 0"
[ "$(grep -vc 'getppid\|+++' e3.txt)" = 0 ] || fail "-e 'getpp*' shows other calls: $(grep -v getppid e3.txt | head -3)"
expect_rc 129 "$LUPE" trace -e no_such_call -- true 2>/dev/null
# sys:name in -e interleaves a tracepoint with the calls, in time order
"$LUPE" trace -e sched:sched_process_exec,getppid -o e4.txt -- "$W" -n 3 || fail "lupe trace -e with a tracepoint failed"
first=$(grep -v '^+++' e4.txt | head -1)
echo "$first" | grep -q "^sched:sched_process_exec(filename=$W pid=[0-9]* old_pid=[0-9]*)$" || fail "the exec tracepoint is not first: $first"
grep -q '^getppid()' e4.txt || fail "-e with a tracepoint: $(cat e4.txt)"
"$LUPE" trace -e sched:no_such_tracepoint -- true 2> e5.err && fail "an unknown tracepoint was accepted"
grep -q "lupe list tracepoint" e5.err || fail "unknown tracepoint message: $(cat e5.err)"

# -p: attach to a running program, Ctrl-C detaches, the program goes on
"$W" -l &
wpid=$!
sleep 0.2
"$LUPE" trace -S -p "$wpid" -o p.txt 2> perr.txt &
lpid=$!
sleep 1
kill -INT $lpid
wait $lpid || fail "lupe trace -p exited $? on Ctrl-C: $(cat perr.txt)"
kill -0 "$wpid" 2>/dev/null || fail "the traced program died when lupe detached"
n=$(grep -c '^getppid() *= ' p.txt)
[ "$n" -ge 20 ] || fail "-p saw $n getppid calls in 1 s, want about 100"
grep -q 'Summary of events' p.txt || fail "no summary after Ctrl-C on -p"
sleep 0.2
kill "$wpid"; wait "$wpid" 2>/dev/null

"$LUPE" trace -p 2147483646 2> p2.err && fail "-p of a missing process succeeded"
grep -q "no process '2147483646'" p2.err || fail "-p of a missing process: $(cat p2.err)"

# -a: the whole machine, here a workload lupe did not start
"$LUPE" trace -a -s -e getppid -o a.txt 2> aerr.txt &
lpid=$!
sleep 1
"$W" -n 300
sleep 0.3
kill -INT $lpid
wait $lpid || fail "lupe trace -a exited $?: $(cat aerr.txt)"
n=$(calls a.txt getppid)
[ "${n:-0}" -ge 300 ] || fail "-a counted ${n:-0} getppid, want at least the workload's 300"
ok "-e filters, -p attaches and detaches, -a sees the machine"
