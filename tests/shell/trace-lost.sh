#!/usr/bin/env bash
# lupe trace never loses events silently: with a tiny ring, losses are counted and said with the remedy, else every call is there
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_tracefs
W=$WORKLOADS/syscalls
N=200000

for mode in bpf fallback; do
	env=()
	[ $mode = fallback ] && env=(LUPE_TRACE_NO_BPF=1)
	env "${env[@]}" "$LUPE" trace -s -e getppid --buffer-size 8K -o out.txt -- "$W" -n $N 2> err.txt ||
		fail "$mode: lupe trace failed: $(cat err.txt)"
	n=$(calls out.txt getppid)
	if grep -q 'events were lost' err.txt; then
		grep -q -- '--buffer-size' err.txt || fail "$mode: the loss message says not what to do: $(cat err.txt)"
		ok "$mode: losses said: $(grep lost err.txt)"
	else
		[ "${n:-0}" = $N ] || fail "$mode: no loss reported but $n of $N getppid calls counted"
		ok "$mode: no loss, all $N calls"
	fi
done
expect_rc 129 "$LUPE" trace --buffer-size 1K -- true 2>/dev/null
