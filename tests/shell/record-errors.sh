#!/usr/bin/env bash
# record's failures are a sentence and a non-zero exit, never a file that claims to be complete (a full disk keeps what it holds); perf.data.old rotation; exit status passthrough
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

out=$("$LUPE" record -o x.data -- /no/such/program 2>&1); rc=$?
[ $rc = 127 ] || fail "missing workload exited $rc, want 127"
echo "$out" | grep -q "cannot run '/no/such/program'" || fail "missing workload message: $out"
[ -e x.data ] && fail "a failed workload left x.data"

out=$("$LUPE" record -o /no/such/dir/x.data -- true 2>&1) && fail "unwritable output succeeded"
echo "$out" | grep -q "/no/such/dir/x.data" || fail "unwritable output message: $out"

if ! have_hw_pmu; then
	out=$("$LUPE" record -e cycles -o c.data -- true 2>&1) && fail "-e cycles succeeded without a PMU"
	echo "$out" | grep -q "cannot open 'cycles'" || fail "unsupported event message: $out"
	[ -e c.data ] && fail "an unsupported event left c.data"
fi

out=$("$LUPE" record -e no-such-event -- true 2>&1); rc=$?
[ $rc = 129 ] || fail "unknown event exited $rc, want 129"

max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
out=$("$LUPE" record -F $((max + 1)) -o f.data -- true 2>&1); rc=$?
[ $rc = 129 ] || fail "-F above perf_event_max_sample_rate exited $rc, want 129"
echo "$out" | grep -q "perf_event_max_sample_rate" || fail "-F too high message: $out"

expect_rc 3 "$LUPE" record -q -o s.data -- sh -c 'exit 3'
"$PERF" report -i s.data --stdio >/dev/null 2>&1 || fail "perf cannot read the file of a failing workload"

"$LUPE" record -q -o r.data -- true && "$LUPE" record -q -o r.data -- true || fail "record -- true"
[ -s r.data.old ] || fail "no r.data.old after recording twice"
# a workload that is not found rotates nothing: the .old survives a second mistake
sum=$(cat r.data r.data.old | md5sum)
"$LUPE" record -q -o r.data -- /no/such/program 2>/dev/null
"$LUPE" record -q -o r.data -- /no/such/program 2>/dev/null
[ "$(cat r.data r.data.old | md5sum)" = "$sum" ] || fail "a record whose workload was not found rotated r.data"
[ -z "$(ls | grep 'r.data.lupe-')" ] || fail "a temporary output was left: $(ls)"
# an output that is not a regular file is written in place, never renamed over nor removed
"$LUPE" record -q -o /dev/null -- true || fail "record -o /dev/null failed"
"$LUPE" record -q -o /dev/null -- /no/such/program 2>/dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a device"
ls /dev | grep -q 'null.lupe-' && fail "a temporary output was left in /dev"
ok "missing workload, unwritable output, unknown event, exit status, .old rotation"

# ENOSPC: a 256 KiB tmpfs fills up; the file keeps what reached it, finalized (more in record-disk-full)
mkdir small
if mount -t tmpfs -o size=256k none small 2>/dev/null; then
	# one workload, not -a: a system-wide recording's synthesized maps of every
	# process alone can pass 256 KiB on a busy machine (then nothing was kept)
	out=$("$LUPE" record -g -e cpu-clock -c 20000 -o small/f.data -- "$WORKLOADS/demo" -n 3000 2>&1 >/dev/null); rc=$?
	"$PERF" report --stdio -i small/f.data >/dev/null 2>&1; perf_rc=$?
	umount small
	[ $rc != 0 ] || fail "a full disk exited 0"
	echo "$out" | grep -q "disk full after [0-9]* samples; the file holds them" || fail "full disk message: $out"
	[ $perf_rc = 0 ] || fail "perf cannot read the file of a full disk"
	ok "disk full"
fi
