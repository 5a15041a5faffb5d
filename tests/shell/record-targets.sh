#!/usr/bin/env bash
# record's targets: children followed across fork and exec, --no-inherit, -p and -t on running tasks, -C, and several events told apart
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
W=$WORKLOADS/demo

# children: sh forks and execs demo; its samples must be there, named demo
"$LUPE" record -q -o c.data -- sh -c "$W -n 100 >/dev/null; true" || fail "record sh exited $?"
"$PERF" report -i c.data --stdio --no-children --sort comm,sym 2>/dev/null | grep -q 'demo .*spin' ||
	fail "the exec'd child demo is not in the profile"
ok "children followed across fork and exec"

# --no-inherit: the child is not followed, so no demo samples
"$LUPE" record -q --no-inherit -o n.data -- sh -c "$W -n 100 >/dev/null; true" || fail "record --no-inherit exited $?"
"$PERF" report -i n.data --stdio --sort comm 2>/dev/null | grep -q ' demo' && fail "--no-inherit followed the child"
ok "--no-inherit"

# -p: an existing process with two threads, until it exits
$W -s 2 -t 2 >/dev/null &
pid=$!
sleep 0.3
"$LUPE" record -q -g -o p.data -p $pid || fail "record -p exited $?"
wait $pid
"$PERF" report -i p.data --stdio --no-children 2>/dev/null | grep -q 'spin' || fail "-p: no spin"
n=$("$PERF" script -i p.data -F tid 2>/dev/null | sort -u | wc -l)
[ "$n" -ge 2 ] || fail "-p: samples from $n threads, want 2 or more"
ok "-p $pid: $n threads"

# -t, stopped by SIGINT
$W -s 2 >/dev/null &
pid=$!
sleep 0.3
"$LUPE" record -q -o t.data -t $pid &
rec=$!
sleep 0.7
kill -INT $rec
wait $rec
wait $pid
"$PERF" report -i t.data --stdio 2>/dev/null | grep -q 'compute_c' || fail "-t: no compute_c"
ok "-t"

# -C 0: every sample on CPU 0
"$LUPE" record -q -C 0 -o c0.data -- sleep 0.3 || fail "record -C 0 exited $?"
cpus=$("$PERF" script -i c0.data -F cpu 2>/dev/null | sort -u | tr -d ' []')
[ "$cpus" = 000 ] || fail "-C 0: samples on CPUs '$cpus'"
ok "-C 0"

# two events in one file, each sample attributed to its own
"$LUPE" record -q -e cpu-clock,page-faults -o m.data -- $W -n 50 >/dev/null || fail "record two events exited $?"
"$PERF" report -i m.data --stdio 2>/dev/null | grep -q "of event 'page-faults'" || fail "no page-faults samples"
"$PERF" report -i m.data --stdio 2>/dev/null | grep -q "of event 'cpu-clock'" || fail "no cpu-clock samples"
ok "two events"
