#!/usr/bin/env bash
# stat --func says what it could not count: calls for want of memory (forced with LUPE_FUNC_FAULT_THREADS=1), "N calls lost" where N plus the counted calls is every call, with BPF and with records, none said in a normal run; and records a full ring lost (forced with a one-page ring, LUPE_FUNC_RING_PAGES=1): with BPF, counted + unfinished + lost records is every call
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
W=$WORKLOADS/func-threads # 4 threads x -n calls of sum

for mech in default records; do
	env=()
	[ $mech = records ] && env=(LUPE_FUNC_MECHANISM=records)
	env "${env[@]}" "$LUPE" stat -e task-clock --func sum -- "$W" -n 200 -m 8 >out 2>&1 ||
		fail "$mech: stat --func failed: $(cat out)"
	grep -q "calls lost" out && fail "$mech: a normal run says calls were lost: $(cat out)"
	env "${env[@]}" LUPE_FUNC_FAULT_THREADS=1 "$LUPE" stat -e task-clock --func sum -- "$W" -n 200 -m 8 >out 2>&1 ||
		fail "$mech: stat --func with a forced allocation failure failed: $(cat out)"
	calls=$(awk '$2 == "calls" { print $1; exit }' out)
	lost=$(sed -n 's/^ *\([0-9]*\) calls lost (out of memory).*/\1/p' out)
	[ -n "$lost" ] && [ "$lost" -gt 0 ] || fail "$mech: no 'calls lost' line: $(cat out)"
	[ $((calls + lost)) = 800 ] || fail "$mech: $calls counted + $lost lost, want 800 calls: $(cat out)"
	echo "  $mech: $calls counted, $lost said lost"
done
ok "lost calls are counted and said"

# one record per call with BPF: what the rings had no room for is said, and adds up
if "$LUPE" version --build-options | grep -q 'libbpf: \[ on'; then
	N=3000
	LUPE_FUNC_RING_PAGES=1 "$LUPE" --debug stat -e task-clock --func sum -- "$W" -n $N -m 1 >out 2>&1 ||
		fail "bpf, one-page rings: stat --func failed: $(cat out)"
	grep -q 'counting inside functions: bpf' out || skip "BPF counting is refused here: $(grep debug out)"
	calls=$(awk '$2 == "calls" { print $1; exit }' out)
	unfinished=$(sed -n 's/.*calls *# \([0-9]*\) unfinished.*/\1/p' out | head -1)
	lost=$(sed -n 's/^ *\([0-9]*\) records lost (ring full).*/\1/p' out)
	[ $((calls + ${unfinished:-0} + ${lost:-0})) = $((4 * N)) ] ||
		fail "bpf, one-page rings: $calls counted + ${unfinished:-0} unfinished + ${lost:-0} lost records, want $((4 * N)) calls: $(cat out)"
	if [ -n "$lost" ]; then
		ok "bpf, one-page rings: $calls counted, $lost records said lost"
	else
		ok "bpf, one-page rings: no loss, all $calls calls"
	fi
fi
