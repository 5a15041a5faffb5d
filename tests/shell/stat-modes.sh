#!/usr/bin/env bash
# lupe stat's modes against perf's for the same target: -r 5, -I 100 with a 1 s workload, -a sleep 1, -p PID, -C 0 -A, --per-thread, Ctrl-C
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_perf
[ -x "$WORKLOADS/demo" ] || fail "no demo workload at $WORKLOADS/demo (build it first)"

# -r 5: the mean with +- spread on every counter and on the elapsed time
stat_same stat_norm_loose -r 5 -e task-clock,page-faults -- true
"$LUPE" stat -r 5 -e task-clock,page-faults -- true 2> r.err || fail "-r 5"
grep -q "Performance counter stats for 'true' (5 runs):" r.err || fail "-r header: $(cat r.err)"
grep -Eq 'seconds time elapsed  \( \+- +[0-9.]+% \)$' r.err || fail "-r elapsed spread: $(cat r.err)"
grep -Eq 'task-clock .*\( \+- +[0-9.]+% \)$' r.err || fail "-r task-clock spread: $(cat r.err)"

# -I 100 with a 1 s workload: ~10 intervals of the same shape as perf's
"$PERF" stat -I 100 -e task-clock,page-faults -- "$WORKLOADS/demo" -s 1 2>&1 >/dev/null | stat_norm_loose | sort -u > perf.out
"$LUPE" stat -I 100 -e task-clock,page-faults -- "$WORKLOADS/demo" -s 1 2> i.err >/dev/null || fail "-I 100"
stat_norm_loose < i.err | sort -u > lupe.out
diff -u perf.out lupe.out || fail "-I 100 lines differ from perf's in shape"
n=$(grep -c 'task-clock' i.err)
[ "$n" -ge 9 ] && [ "$n" -le 12 ] || fail "$n intervals for a 1 s workload at -I 100: $(cat i.err)"
# each interval of a busy workload counts CPU time (thresholds leave room for a loaded CI machine)
awk '/task-clock/ && $2 > 20 { busy++ } END { exit busy < 5 }' i.err || fail "intervals do not count the workload: $(cat i.err)"
stat_same stat_norm_loose -I 100 -x, -e task-clock -- sleep 0.35
stat_same stat_norm_loose -I 100 -j -e task-clock -- sleep 0.35

# -a sleep 1: every CPU counts for the whole second
stat_same stat_norm -a -e cpu-clock,page-faults,cycles sleep 1
"$LUPE" stat -a -e cpu-clock sleep 1 2> a.err || fail "-a sleep 1"
ncpu=$(nproc)
awk -v n="$ncpu" '/CPUs utilized/ { if ($5 < n - 0.1 || $5 > n + 0.1) exit 1; found=1 } END { exit !found }' a.err ||
	fail "-a does not count all $ncpu CPUs: $(cat a.err)"
stat_same stat_norm -a sleep 0.2

# -p PID: a busy process counted while a 0.5 s workload runs
"$WORKLOADS/demo" -s 8 > /dev/null &
pid=$!
stat_same stat_norm -p "$pid" -e task-clock,page-faults sleep 0.5
"$LUPE" stat -p "$pid" -e task-clock sleep 0.5 2> p.err || fail "-p"
grep -q "Performance counter stats for process id '$pid':" p.err || fail "-p header: $(cat p.err)"
awk '/task-clock/ { if ($1 < 100) exit 1; found=1 } END { exit !found }' p.err || fail "-p did not count the busy process: $(cat p.err)"
stat_same stat_norm --per-thread -p "$pid" -e task-clock sleep 0.3
"$LUPE" stat --per-thread -p "$pid" -e task-clock sleep 0.3 2> t.err
grep -Eq "^ +demo-$pid +[0-9.]+ msec task-clock" t.err || fail "--per-thread line: $(cat t.err)"
# -p until Ctrl-C: counts are printed, exit 0
"$LUPE" stat -p "$pid" -e task-clock 2> c.err &
lp=$!
sleep 0.5
kill -INT $lp
wait $lp
rc=$?
[ $rc = 0 ] || fail "lupe stat -p stopped by SIGINT exited $rc"
grep -q 'task-clock' c.err || fail "no counts after SIGINT: $(cat c.err)"
grep -q 'seconds time elapsed' c.err || fail "no elapsed time after SIGINT"
kill $pid
wait $pid 2>/dev/null
# -p ends when the process does
"$WORKLOADS/demo" -s 0.6 > /dev/null &
pid=$!
"$LUPE" stat -p "$pid" -e task-clock 2> end.err || fail "-p of a process that exits: $(cat end.err)"
grep -q 'task-clock' end.err || fail "no counts after the process exited"
wait $pid
"$LUPE" stat -p "$pid" -e task-clock 2> gone.err && fail "-p of a process that is gone succeeded"
grep -q "$pid" gone.err || fail "no sentence naming the gone pid: $(cat gone.err)"

# -C 0 -A: one line per CPU, prefixed CPU0
stat_same stat_norm -C 0 -A -e cpu-clock,page-faults,cycles sleep 0.2
stat_same stat_norm -a -A -e cpu-clock,page-faults sleep 0.2
"$LUPE" stat -C 0 -A -e cpu-clock sleep 0.2 2> cpu.err || fail "-C 0 -A"
grep -Eq "^CPU0 +[0-9.]+ msec cpu-clock" cpu.err || fail "-C 0 -A line: $(cat cpu.err)"
grep -q "Performance counter stats for 'CPU(s) 0':" cpu.err || fail "-C header: $(cat cpu.err)"
stat_same stat_norm_loose -I 100 -a -A -e cpu-clock sleep 0.25
# Ctrl-C at a terminal reaches the workload's process group: lupe prints
# what it counted and exits as the workload did (130)
(
	set -m
	"$LUPE" stat -e task-clock sleep 5 2> int.err &
	pg=$!
	sleep 0.5
	kill -INT -- -$pg
	wait $pg
	echo $? > int.rc
)
[ "$(cat int.rc)" = 130 ] || fail "Ctrl-C of the workload: exit $(cat int.rc), want 130"
grep -q 'task-clock' int.err || fail "no counts after Ctrl-C: $(cat int.err)"
ok "Ctrl-C"
ok "stat modes"
