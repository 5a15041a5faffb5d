#!/usr/bin/env bash
# the BPF path (LUPE_TRACE_NO_STRINGS=1) and the tracepoint fallback print the same text for the same program (syscalls workload, ls -l, gzip): one event, one formatter; only the pids of the two runs are mapped to PID1, PID2...; the whole execve and the process's end in both
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_tracefs
need_bpf_trace
command -v setarch >/dev/null || skip "no setarch to run both without address randomization"
setarch -R true 2>/dev/null || skip "setarch -R is refused here"
W=$WORKLOADS/syscalls

# Both runs see the same addresses (no randomization, and environments of the
# same size, lupe's arguments too: the stack's addresses depend on them). The pids differ from run to
# run: each is named by its order of appearance, where a pid is printed: the
# [pid N] prefix, and what set_tid_address, getpid, getppid, gettid and clone
# return. Only there: a pid's digits elsewhere (an mmap length of 24576 in a
# run whose pid was 24576) are left alone.
pids() {
	awk '
	function learn(n) { if (n != "" && !(n in map)) map[n] = "PID" (++k); return map[n] }
	{
		if (match($0, /^\[pid +[0-9]+\]/)) {
			s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s)
			$0 = "[pid " learn(s) "]" substr($0, RLENGTH + 1)
		}
		if ($0 ~ /(set_tid_address|getpid|getppid|gettid|clone|clone3|fork|vfork)\(/ && match($0, /= [0-9]+$/))
			$0 = substr($0, 1, RSTART + 1) learn(substr($0, RSTART + 2))
		print
	}' "$1"
}

# both NAME CMD...: trace CMD with BPF (no memory copied) and with the fallback
both() {
	local name=$1; shift
	LUPE_TRACE_NO_BPF=0 LUPE_TRACE_NO_STRINGS=1 setarch -R "$LUPE" trace -o "$name.b" -- "$@" \
		>/dev/null 2>"$name.err" || fail "BPF trace of $* failed: $(cat "$name.err")"
	grep -q "strings and buffers are not shown" "$name.err" && fail "BPF run fell back: $(cat "$name.err")"
	LUPE_TRACE_NO_BPF=1 LUPE_TRACE_NO_STRINGS=0 setarch -R "$LUPE" trace -o "$name.p" -- "$@" \
		>/dev/null 2>"$name.err" || fail "fallback trace of $* failed: $(cat "$name.err")"
	pids "$name.b" >"$name.b.n"
	pids "$name.p" >"$name.p.n"
}

same() {
	local name=$1 n
	diff "$name.b.n" "$name.p.n" >"$name.diff" ||
		fail "$name: BPF and fallback differ: $(head -20 "$name.diff")"
	n=$(wc -l <"$name.b.n")
	[ "$n" -ge "$2" ] || fail "$name: only $n lines: $(head "$name.b.n")"
	head -1 "$name.p.n" | grep -q '^execve(0x[0-9a-f]*, 0x[0-9a-f]*, 0x[0-9a-f]*) *= 0$' ||
		fail "$name: the fallback's first line is not the whole execve: $(head -1 "$name.p.n")"
	tail -1 "$name.p.n" | grep -q '^+++ exited with 0 +++$' ||
		fail "$name: the fallback does not say the end: $(tail -2 "$name.p.n")"
	echo "  $name: the same $n lines"
}

both syscalls "$W" -n 40 -c
same syscalls 90
both ls ls -l /usr
same ls 100
both gzip gzip -c "$LUPE_SRC/README.md"
same gzip 30

# the comparison sees a difference: one more getppid in the fallback's run
LUPE_TRACE_NO_BPF=1 setarch -R "$LUPE" trace -o more.perf -- "$W" -n 41 -c >/dev/null 2>more.err ||
	fail "fallback trace failed: $(cat more.err)"
pids more.perf >more.perf.n
diff -q syscalls.b.n more.perf.n >/dev/null && fail "-n 40 and -n 41 compared the same"

# with strings, the BPF path shows what the fallback shows as addresses
LUPE_TRACE_NO_BPF=0 setarch -R "$LUPE" trace -o str.bpf -- "$W" -n 40 -c >/dev/null 2>str.err ||
	fail "BPF trace failed: $(cat str.err)"
grep -q '^openat(AT_FDCWD, "/dev/null", O_RDONLY) *= [0-9]*$' str.bpf || fail "no path with strings: $(grep openat str.bpf | head -3)"
ok "BPF and the fallback print the same lines"
