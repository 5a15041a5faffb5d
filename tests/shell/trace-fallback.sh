#!/usr/bin/env bash
# without BPF (forced), lupe trace says so once and still traces every syscall, with pointer arguments
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_tracefs
W=$WORKLOADS/syscalls

LUPE_TRACE_NO_BPF=1 "$LUPE" trace -s -o base.txt -- "$W" -n 0 2> err0.txt || fail "fallback trace failed: $(cat err0.txt)"
LUPE_TRACE_NO_BPF=1 "$LUPE" trace -S -o out.txt -- "$W" -n 1000 2> err.txt || fail "fallback trace failed: $(cat err.txt)"
[ "$(grep -c 'strings and buffers are not shown' err.txt)" = 1 ] || fail "want the notice once: $(cat err.txt)"
[ "$(delta base.txt out.txt getppid)" = 1000 ] || fail "getppid: $(delta base.txt out.txt getppid) more than -n 0, want 1000"
[ "$(delta base.txt out.txt close)" = 150 ] || fail "close: $(delta base.txt out.txt close) more than -n 0, want 150"
c=$(count out.txt close); set -- $c
[ "${2:-0}" = 50 ] || fail "close: $c, want 50 errors"
grep -q '^openat(AT_FDCWD, 0x[0-9a-f]*, O_RDONLY) *= -1 ENOENT' out.txt || fail "no openat with a pointer argument: $(grep openat out.txt | head -3)"
grep -q '^write([0-9]*, 0x[0-9a-f]*, 8) *= 8' out.txt || fail "no write with a pointer argument: $(grep write out.txt | head -3)"
"$LUPE" trace --no-bpf -o /dev/null -- true 2> err2.txt || fail "--no-bpf failed"
grep -q 'strings and buffers are not shown' err2.txt || fail "--no-bpf gave no notice"

# a user who may do neither says what to do, and fails
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 0 ] && su nobody -s /bin/sh -c true 2>/dev/null; then
	su nobody -s /bin/sh -c "'$LUPE' trace -- true" > nobody.out 2>&1 && fail "an unprivileged trace succeeded: $(cat nobody.out)"
	grep -q "permission denied (run as root, or set /proc/sys/kernel/perf_event_paranoid to -1)" nobody.out ||
		fail "unprivileged message: $(cat nobody.out)"
fi
ok "fallback traces every call"
