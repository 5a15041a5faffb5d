#!/usr/bin/env bash
# lupe lock contention -b -a -- mutex reports the workload's pthread mutex (by address) with a count within 10% of the workload's own count of contended acquisitions, -E 1 -q prints one line, and a program that cannot run exits 127 or 126 with no table
. "$(dirname "$0")/lib/common.sh"
need_root
"$LUPE" version --build-options 2>/dev/null | grep -q 'libbpf: \[ OFF' && skip "lupe was built without BPF"
[ -d /sys/kernel/btf ] || skip "no kernel BTF for the BPF program"
need_tracefs
for tp in lock/contention_begin syscalls/sys_enter_futex; do
	[ -d /sys/kernel/tracing/events/$tp ] || skip "this kernel has no $tp tracepoint"
done

if ! "$LUPE" lock contention -b -a -- "$WORKLOADS/mutex" > out.txt 2> err.txt; then
	# a skip on the kernel's refusal of bpf() (EPERM: no privilege, locked
	# down; ENOSYS: no bpf()), not on a program its verifier rejects
	# (EACCES, EINVAL): that one is lupe's failure
	grep -Eq 'cannot load the lock contention BPF program: (Operation not permitted|Function not implemented)' err.txt &&
		skip "$(head -1 err.txt)"
	cat err.txt
	fail "lupe lock contention -b failed"
fi
read -r _ want _ addr < out.txt
[ -n "$addr" ] && [ "$want" -gt 0 ] 2>/dev/null || fail "the workload printed no count: $(cat out.txt)"
line=$(grep -E "futex +mutex\[[0-9]+\] $addr\$" err.txt) || { cat err.txt; fail "no futex line for the mutex at $addr"; }
got=$(echo "$line" | awk '{print $1}')
diff=$((got > want ? got - want : want - got))
[ $((diff * 10)) -le "$want" ] || { cat err.txt; fail "contended $got, the workload counted $want (more than 10% apart)"; }
ok "the mutex at $addr: $got contentions, the workload counted $want"

# the check can fail: a count 20% off is refused
bad=$((want * 12 / 10 + 1)); d=$((bad - want))
[ $((d * 10)) -le "$want" ] && fail "the 10% check let a 20% difference pass"

"$LUPE" lock contention -b -a -E 1 -q -- "$WORKLOADS/mutex" > /dev/null 2> one.txt || fail "-E 1 -q failed"
[ "$(wc -l < one.txt)" = 1 ] || { cat one.txt; fail "-E 1 -q printed $(wc -l < one.txt) lines, want 1"; }
expect_rc 129 "$LUPE" lock contention -b 2> err.txt
grep -q "say what to watch" err.txt || fail "-b alone: $(cat err.txt)"
ok "-E 1 -q, and -b with nothing to watch"

# a program that cannot be run: the shell's exit codes (cmd/workload.c), and no table
expect_rc 127 "$LUPE" lock contention -b -- ./no-such-program > out.txt 2> err.txt
grep -q "cannot run './no-such-program'" err.txt || fail "a missing program: $(cat err.txt)"
grep -q contended err.txt out.txt && fail "a table was printed for a program that never ran: $(cat err.txt)"
printf 'x\n' > not-executable
expect_rc 126 "$LUPE" lock contention -b -- ./not-executable 2> err.txt
grep -q "cannot run './not-executable': Permission denied" err.txt || fail "a file that cannot run: $(cat err.txt)"
ok "a program that cannot run: 127 or 126, no table"
