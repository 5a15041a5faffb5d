#!/usr/bin/env bash
# lupe stat counts software events, says <not supported> where perf does, passes the workload's exit status, and says why a workload cannot start
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_perf

# done-when 2: counts for the software events, <not supported> for cycles here
"$LUPE" stat -e task-clock,page-faults,cycles -- ls / > ls.out 2> stat.err
rc=$?
[ $rc = 0 ] || fail "lupe stat -e task-clock,page-faults,cycles -- ls / exited $rc"
grep -q "^bin$" ls.out || fail "the workload's stdout did not come through: $(cat ls.out)"
grep -Eq '^ +[0-9.,]+ msec task-clock +# +[0-9.]+ CPUs utilized' stat.err || fail "no task-clock count: $(cat stat.err)"
grep -Eq '^ +[0-9,]+ +page-faults +# ' stat.err || fail "no page-faults count: $(cat stat.err)"
if have_hw_pmu; then
	grep -Eq '^ +[0-9,]+ +cycles' stat.err || fail "cycles not counted on a machine with a PMU"
else
	grep -Eq '^ +<not supported> +cycles' stat.err || fail "cycles should be <not supported>: $(cat stat.err)"
fi
grep -q "Performance counter stats for 'ls /':" stat.err || fail "no header: $(cat stat.err)"
grep -Eq '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' stat.err || fail "no elapsed time"
grep -Eq '^ +[0-9]+\.[0-9]{9} seconds user$' stat.err || fail "no user time"
stat_same stat_norm -e task-clock,page-faults,cycles -- ls /

# the default event set, as perf's
stat_same stat_norm true
stat_same stat_norm -e '{task-clock,page-faults}' true
# tool events
"$LUPE" stat -e duration_time,task-clock -- sleep 0.1 2> tool.err || fail "duration_time"
awk '/duration_time/ { if ($1 < 90000000 || $1 > 1000000000) exit 1; found=1 } END { exit !found }' tool.err ||
	fail "duration_time of sleep 0.1 is not about 100 ms: $(cat tool.err)"

# the workload's exit status is lupe's
expect_rc 3 "$LUPE" stat -- sh -c 'exit 3' 2>/dev/null
expect_rc 0 "$LUPE" stat -e task-clock true 2>/dev/null
# killed by a signal: 128 + the signal, as a shell says
expect_rc 143 "$LUPE" stat -e task-clock -- sh -c 'kill -TERM $$' 2>/dev/null

# a workload that cannot be started
out=$("$LUPE" stat nosuch-program-xyz 2>&1); rc=$?
[ $rc = 127 ] || fail "lupe stat nosuch exited $rc, want 127"
echo "$out" | grep -q "cannot run 'nosuch-program-xyz': No such file or directory" ||
	fail "no sentence for a missing program: $out"
echo "$out" | grep -q "Performance counter stats" && fail "counts printed for a program that never ran"

# bad options and targets
expect_rc 129 "$LUPE" stat --no-such-option true 2>/dev/null
expect_rc 129 "$LUPE" stat 2>/dev/null
expect_rc 129 "$LUPE" stat -x, -j true 2>/dev/null
# as perf: -A needs CPUs to count, --per-thread threads
expect_rc 129 "$LUPE" stat -A true 2>/dev/null
expect_rc 129 "$LUPE" stat --per-thread true 2>/dev/null
out=$("$LUPE" stat -p 999999999 2>&1) && fail "-p of a missing pid succeeded"
echo "$out" | grep -q "999999999" || fail "no sentence naming the missing pid: $out"

# -o FILE and --append
"$LUPE" stat -o out.txt -e task-clock true 2>/dev/null || fail "-o"
grep -q '^# started on ' out.txt || fail "-o file has no '# started on' line"
grep -q 'task-clock' out.txt || fail "-o file has no counts"
"$LUPE" stat -o out.txt --append -x, -e task-clock true || fail "--append"
[ "$(grep -c 'task-clock' out.txt)" = 2 ] || fail "--append did not keep the first report"
expect_rc 1 "$LUPE" stat -o /nonexistent-dir/out.txt -e task-clock true 2>/dev/null
ok "stat"

# a PMU that refuses exclude_guest (msr) is retried without it, as perf does
if [ -d /sys/bus/event_source/devices/msr/events ] && [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	"$LUPE" stat -x, -e msr/tsc/ true 2> msr.err || fail "stat -e msr/tsc/"
	grep -Eq '^[0-9]+,,msr/tsc/' msr.err || fail "msr/tsc/ was not counted: $(cat msr.err)"
fi
