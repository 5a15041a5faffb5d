#!/usr/bin/env bash
# lupe trace names signals as strace does (SIGIO, not glibc's SIGPOLL; realtime SIGRT_2, in masks RT_2) and fcntl's F_GETFD and F_GETFL returns as strace decodes them (0x1 (flags FD_CLOEXEC))
. "$(dirname "$0")/lib/common.sh"
need_root
command -v strace > /dev/null || skip "no strace to compare with (scripts/bootstrap installs it)"
W=$WORKLOADS/signals
"$LUPE" trace -e rt_sigaction,rt_sigprocmask,kill,fcntl -o lupe.txt -- "$W" > /dev/null 2> err.txt ||
	fail "lupe trace failed: $(cat err.txt)"
strace -f -e trace=rt_sigaction,rt_sigprocmask,kill,fcntl -o strace.txt "$W" > /dev/null || fail "strace failed"
# the workload's own 12 calls, its last, pids and addresses aside
norm() {
	sed -E 's/^[0-9]+ +//; s/0x[0-9a-f]{8,}/ADDR/g; s/ +=/ =/; s/^kill\([0-9]+,/kill(PID,/' "$1" |
		grep -v '^+++' | tail -n 12
}
norm strace.txt > s.norm
norm lupe.txt > l.norm
grep -q 'F_GETFD) = 0x1 (flags FD_CLOEXEC)$' s.norm || fail "strace decodes F_GETFD otherwise now: $(cat s.norm)"
grep -q '^rt_sigaction(SIGIO,' s.norm || fail "not the workload's calls: $(cat s.norm)"
diff -u s.norm l.norm > diff.txt || fail "lupe trace differs from strace: $(cat diff.txt)"
ok "$(wc -l < l.norm) lines as strace's: $(grep -c SIGRT_ l.norm) realtime signals by name, SIGIO, fcntl's flags"
