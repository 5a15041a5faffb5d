#!/usr/bin/env bash
# as an unprivileged user: stat and record fall back to user space at paranoid 2 with one notice; paranoid 3 and another user's pid are refused naming the real cause (at 3 "only CAP_PERFMON" only where user space does not count either)
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
command -v runuser >/dev/null && command -v useradd >/dev/null || skip "no runuser or useradd"
user=lupe-test
id $user >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin $user 2>/dev/null ||
	skip "cannot add the user $user"
chmod 755 "$TMPD"
mkdir out && chown $user out
as_user() { runuser -u $user -- "$@"; }
as_user "$LUPE" --version >/dev/null 2>&1 || skip "$user cannot run $LUPE (its directory is not readable)"
level=$(cat /proc/sys/kernel/perf_event_paranoid)
restore() { echo "$level" > /proc/sys/kernel/perf_event_paranoid; }
trap 'restore; rm -rf "$TMPD"' EXIT
echo 2 > /proc/sys/kernel/perf_event_paranoid || skip "cannot set perf_event_paranoid"

# paranoid 2: as perf, user space only, one notice, the events named :u
as_user "$LUPE" stat -- true > /dev/null 2> stat.err || fail "stat -- true as $user at paranoid 2: $(cat stat.err)"
[ "$(grep -c 'counting user space only' stat.err)" = 1 ] || fail "not one notice: $(cat stat.err)"
grep -q "task-clock:u" stat.err || fail "no task-clock:u in: $(cat stat.err)"
as_user "$PERF" stat -- true 2>&1 | grep -q "task-clock:u" || echo "  (perf names it otherwise here)"
as_user "$LUPE" record -o out/u.data -- "$WORKLOADS/demo" -n 20 > /dev/null 2> rec.err ||
	fail "record as $user at paranoid 2: $(cat rec.err)"
[ "$(grep -c 'counting user space only' rec.err)" = 1 ] || fail "record: not one notice: $(cat rec.err)"
# the default event as perf 6.1 names it here: user space decided up front (cycles:u),
# the hypervisor not excluded, then the cpu-clock fallback named from its attr
"$LUPE" report --stdio -f -i out/u.data 2>/dev/null | grep -qE "of event 'cpu-clock:uhpppH?'" ||
	fail "the recorded event is not named cpu-clock:uhppp(H): $("$LUPE" report --stdio -f -i out/u.data 2>/dev/null | grep 'of event')"
as_user "$PERF" record -q -o out/perf.data -- "$WORKLOADS/demo" -n 5 >/dev/null 2>&1 &&
	{ [ "$("$PERF" evlist -f -i out/perf.data)" = "$("$PERF" evlist -f -i out/u.data)" ] ||
		fail "perf names its default event $("$PERF" evlist -f -i out/perf.data), lupe's $("$PERF" evlist -f -i out/u.data)"; }
n=$("$PERF" script -f -F ip,sym -i out/u.data 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "the user-space recording holds no samples perf reads"
"$LUPE" script -f -i out/u.data 2>/dev/null | grep -q "\[kernel" && fail "a user-space recording holds kernel samples"
echo "  paranoid 2: stat and record in user space, $n samples"

# another user's process: the ptrace check, not the CPU or the paranoid level
sleep 30 & other=$!
for cmd in "stat -p $other" "record -o out/p.data -p $other"; do
	out=$(as_user timeout 10 "$LUPE" $cmd 2>&1); rc=$?
	[ $rc -ne 0 ] || fail "$cmd as $user succeeded on root's process"
	echo "$out" | grep -q "process $other belongs to another user" || fail "$cmd: the cause is not named: $out"
done
kill $other
echo "  another user's pid: $(echo "$out" | tail -1)"

# paranoid 3: this kernel still lets users count user space (upstream); a Debian-style
# kernel refuses everything, and then the message names CAP_PERFMON
echo 3 > /proc/sys/kernel/perf_event_paranoid
out=$(as_user "$LUPE" stat -e task-clock -- true 2>&1); rc=$?
out_a=$(as_user "$LUPE" stat -a -e task-clock -- true 2>&1); rc_a=$?
out_k=$(as_user "$LUPE" stat -e task-clock:k -- true 2>&1); rc_k=$?
pout=$(as_user "$PERF" stat -e task-clock:u -- true 2>&1); prc=$?
restore
# the kernel only refused: the hint names what it refuses, not "only CAP_PERFMON", when user space counts
if [ $prc = 0 ]; then
	[ $rc_k != 0 ] || fail "task-clock:k counted as $user at paranoid 3"
	echo "$out_k" | grep -q "counting the kernel needs perf_event_paranoid <= 1 (perf_event_paranoid is 3)" &&
		! echo "$out_k" | grep -q "only CAP_PERFMON" ||
		fail "task-clock:k at paranoid 3, where user space counts: $out_k"
fi
if [ $prc = 0 ]; then
	[ $rc = 0 ] || fail "perf counts user space at paranoid 3, lupe does not: $out"
else
	[ $rc != 0 ] && echo "$out" | grep -q "CAP_PERFMON" || fail "paranoid 3 refusal does not name CAP_PERFMON: $out"
fi
[ $rc_a != 0 ] || fail "stat -a as $user at paranoid 3 succeeded"
echo "$out_a" | grep -q "counting a whole CPU needs perf_event_paranoid <= 0 (perf_event_paranoid is 3)" ||
	fail "stat -a at paranoid 3: $out_a"
echo "  paranoid 3: user space $( [ $rc = 0 ] && echo counted || echo refused), -a: $(echo "$out_a" | head -1)"
ok "non-root fallbacks and refusals"
