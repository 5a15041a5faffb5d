#!/bin/bash
# stat --func with hardware events: cycles and instructions inside sum are counted where the machine has a PMU
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
need_tracefs
have_hw_pmu || skip "no hardware PMU on this machine: cycles and instructions are not supported (a VM without PMU passthrough)"
"$LUPE" stat -x, -e task-clock,cycles,instructions --func sum -- "$WORKLOADS/func-threads" -n 50 -m 8 2>out.csv ||
	fail "stat --func failed: $(cat out.csv)"
cat out.csv
for ev in cycles instructions; do
	v=$(awk -F, -v e=$ev '$5 == e { print int($3) }' out.csv)
	[ -n "$v" ] && [ "$v" -gt 0 ] || fail "$ev inside sum: '$v'"
done
ok "hardware events inside sum"
