#!/usr/bin/env bash
# lupe trace -s counts each syscall of a workload exactly (known counts, errors), loses nothing, passes the exit status
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_bpf_trace
W=$WORKLOADS/syscalls
[ -x "$W" ] || fail "no workload $W"

# calls, errors of syscall $2 in the total table of summary file $1

"$LUPE" trace -s -o base.txt -- "$W" -n 0 2> err0.txt || fail "lupe trace -s failed: $(cat err0.txt)"
"$LUPE" trace -s -o run.txt -- "$W" -n 1000 2> err1.txt || fail "lupe trace -s failed: $(cat err1.txt)"
grep -qi "lost" err0.txt err1.txt && fail "events were lost at default settings: $(cat err1.txt)"

# the difference between -n 1000 and -n 0 is the workload's own work
check() {
	local sc=$1 calls=$2 errors=$3 b r
	b=$(count base.txt "$sc"); r=$(count run.txt "$sc")
	read -r bc be <<< "${b:-0 0}"
	read -r rc re <<< "${r:-0 0}"
	[ $((rc - bc)) = "$calls" ] || fail "$sc: $((rc - bc)) calls, want $calls (run $r, base $b)"
	[ $((re - be)) = "$errors" ] || fail "$sc: $((re - be)) errors, want $errors (run $r, base $b)"
}
check getppid 1000 0
check openat 150 50
check close 150 50
check write 100 0
check read 100 0
[ "$(count run.txt pipe2)" = "1 0" ] || fail "pipe2: $(count run.txt pipe2), want 1 0"
grep -q '^ syscalls ([0-9]*), ' run.txt || fail "no per-thread table named after the command: $(head -5 run.txt)"

# the workload's exit status comes back
expect_rc 3 "$LUPE" trace -s -o /dev/null -- sh -c 'exit 3'
ok "exact counts and errors, no losses, exit status passed through"
