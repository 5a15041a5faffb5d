#!/usr/bin/env bash
# lupe record into a 64 KiB tmpfs ends non-zero with "disk full after N samples"; lupe and perf both read the N samples of the file
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
mkdir full
mount -t tmpfs -o size=64k tmpfs full 2>/dev/null || skip "cannot mount a tmpfs"
trap 'umount "$TMPD/full"; rm -rf "$TMPD"' EXIT
"$LUPE" record -g -o full/p.data -- "$WORKLOADS/demo" -n 3000 >/dev/null 2>err; rc=$?
[ $rc = 1 ] || fail "record into a full disk exited $rc: $(cat err)"
grep -q "disk full after [0-9]* samples; the file holds them" err || fail "no disk-full message: $(cat err)"
n=$(sed -n 's/.*disk full after \([0-9]*\) samples.*/\1/p' err)
[ "$n" -gt 0 ] || fail "no sample kept: $(cat err)"
echo "  $(cat err)"
lupe_n=$("$LUPE" script -F comm,tid -i full/p.data 2>lupe.err | wc -l)
[ "$lupe_n" = "$n" ] || fail "lupe script reads $lupe_n samples, record said $n: $(cat lupe.err)"
perf_n=$("$PERF" script -F comm,tid -i full/p.data 2>perf.err | wc -l)
[ "$perf_n" = "$n" ] || fail "perf script reads $perf_n samples, record said $n: $(cat perf.err)"
"$LUPE" report --stdio -i full/p.data 2>&1 >/dev/null | grep -q "not finalized" && fail "the full-disk file is not finalized"
# the same into a pipe: the stream is cut, and the message does not claim a removed file
rm -f full/p.data
"$LUPE" record -o - -- "$WORKLOADS/demo" -n 3000 > full/s.data 2>err; rc=$?
[ $rc -ne 0 ] || fail "record -o - into a full disk exited 0"
grep -q "cannot write to stdout: no space left on device" err || fail "pipe into a full disk said: $(cat err)"
grep -q "removed" err && fail "pipe into a full disk claims a removed file: $(cat err)"
ok "a full disk keeps $n samples, read by lupe and perf"
