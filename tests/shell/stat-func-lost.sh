#!/usr/bin/env bash
# stat --func says the calls it could not count for want of memory (forced with LUPE_FUNC_FAULT_THREADS=1): "N calls lost" where N plus the counted calls is every call, with BPF and with records; none said in a normal run
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
