#!/bin/bash
# stat --func across context switches, by both mechanisms (BPF in the kernel, sample records): each sleep inside is one switch, sleeping is not task-clock; --debug names the mechanism
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
W=$WORKLOADS/func-bench
N=40

mechanisms=records
"$LUPE" version --build-options | grep -q 'libbpf: \[ on' && mechanisms="bpf records"
for m in $mechanisms; do
	LUPE_FUNC_MECHANISM=$m "$LUPE" --debug stat -x, -e task-clock,page-faults,context-switches \
		--func naps -- "$W" -z $N 2>out.csv || fail "$m: stat --func failed: $(cat out.csv)"
	grep -q "counting inside functions: $m " out.csv ||
		fail "$m: --debug does not say it counted with $m: $(grep debug out.csv)"
	# function,calls,total,unit,event,mean,stddev%,min,max,unfinished
	cs=$(awk -F, '$1 == "naps" && $5 == "context-switches" { print $2, $3, $8, $9 }' out.csv)
	read -r calls total min max <<<"$cs"
	[ "$calls" = $N ] || { cat out.csv; fail "$m: $calls calls, want $N"; }
	# five sleeps a call: about five switches each (one fewer when a timer
	# fires before its thread is off the CPU, more with preemption). Counts
	# of another CPU or thread would be far off, or wrap around.
	[ "${total%.*}" -ge $((9 * N / 2)) ] && [ "${total%.*}" -le $((8 * N)) ] &&
		[ "${min%.*}" -ge 3 ] && [ "${max%.*}" -le 20 ] ||
		{ cat out.csv; fail "$m: context-switches total $total, per call $min to $max, want about 5"; }
	tc=$(awk -F, '$1 == "naps" && $5 == "task-clock" { print $6 }' out.csv)
	ti=$(awk -F, '$1 == "naps" && $5 == "time-inside" { print $6 }' out.csv)
	awk -v tc="$tc" -v ti="$ti" 'BEGIN { exit !(tc > 0 && ti >= 5000 && tc < ti / 5) }' ||
		{ cat out.csv; fail "$m: task-clock $tc us/call against $ti us/call inside: sleeping was counted"; }
	pf=$(awk -F, '$1 == "naps" && $5 == "page-faults" { print $3 }' out.csv)
	[ "${pf%.*}" -le $N ] || { cat out.csv; fail "$m: $pf page-faults in $N sleeping calls"; }
	ok "$m: $calls calls, $total switches ($min to $max a call), task-clock $tc us of $ti us inside, $pf page-faults"
done
