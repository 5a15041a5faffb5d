#!/bin/bash
# stat --func on the PIE 4-thread workload: calls = 4N exactly, sum's page-faults exclude the setup's, in normal, CSV and JSON output
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/bus/event_source/devices/uprobe ] || skip "no uprobe PMU in this kernel"
W=$WORKLOADS/func-threads
readelf -h "$W" | grep -q 'DYN' || fail "the workload is not built PIE"
N=300

# normal output
"$LUPE" stat -e task-clock,page-faults --func sum -- "$W" -n $N -m 32 2>out.txt || fail "stat --func failed: $(cat out.txt)"
cat out.txt
calls=$(awk '$2 == "calls" { gsub(/[,.]/, "", $1); print $1 }' out.txt)
[ "$calls" = $((4 * N)) ] || fail "calls: got '$calls', want $((4 * N))"
ok "normal: $calls calls"
func_pf=$(awk '$2 == "page-faults" { gsub(/[,.]/, "", $1); print $1 }' out.txt)

# the whole program faults once per page of the 32 MB array in its setup
"$LUPE" stat -x, -e page-faults -- "$W" -n 1 -m 32 2>whole.csv || fail "whole-program stat failed"
whole_pf=$(awk -F, '$3 == "page-faults" { print $1 }' whole.csv)
[ "$whole_pf" -gt 8000 ] || fail "whole program: only '$whole_pf' page-faults"
[ -n "$func_pf" ] && [ "$func_pf" -lt $((whole_pf / 10)) ] ||
	fail "sum's page-faults ($func_pf) do not exclude the setup's ($whole_pf)"
ok "page-faults inside sum $func_pf, whole program $whole_pf"

# CSV: function,calls,total,unit,event,mean,stddev%,min,max,unfinished
"$LUPE" stat -x, -e task-clock,page-faults --func sum -- "$W" -n $N -m 32 2>out.csv || fail "csv failed"
cat out.csv
awk -F, '$5 == "task-clock" && $1 == "sum" && $2 == '$((4 * N))' && $4 == "msec" && $3 > 0 { f = 1 } END { exit !f }' out.csv ||
	fail "CSV has no task-clock line with $((4 * N)) calls"
awk -F, '$5 == "page-faults" && $2 == '$((4 * N))' { f = 1 } END { exit !f }' out.csv || fail "CSV has no page-faults line"
ok "CSV"

# JSON: one object per line
"$LUPE" stat -j -e task-clock,page-faults --func sum -- "$W" -n $N -m 32 2>out.json || fail "json failed"
cat out.json
python3 - out.json $((4 * N)) <<'PY' || fail "JSON output is wrong"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ev = {r["event"]: r for r in rows}
assert ev["task-clock"]["calls"] == int(sys.argv[2]), ev
assert float(ev["task-clock"]["counter-value"]) > 0
assert ev["page-faults"]["function"] == "sum" and ev["page-faults"]["calls"] == int(sys.argv[2])
PY
ok "JSON"

# --per-thread: four threads, N calls each
"$LUPE" stat -x, --per-thread -e task-clock --func sum -- "$W" -n $N -m 8 2>pt.csv || fail "--per-thread failed"
n=$(awk -F, '$6 == "task-clock" && $3 == '$N' { n++ } END { print n + 0 }' pt.csv)
[ "$n" = 4 ] || { cat pt.csv; fail "--per-thread: $n threads with $N calls, want 4"; }
ok "per thread"

# --per-call -o: one line per call, to a file
"$LUPE" stat -x, -o calls.csv --per-call -e task-clock --func sum -- "$W" -n 50 -m 8 || fail "--per-call failed"
n=$(grep -c '^sum,' calls.csv)
[ "$n" -ge 200 ] || fail "--per-call wrote $n call lines, want 200 (and the summary)"
ok "per call: $n lines"

# the probes are gone: none of a lupe that has exited (other lupes on the
# machine may be counting right now)
left=$(sed -n 's/^.:lupe_\([0-9]*\)\/.*/\1/p' /sys/kernel/tracing/uprobe_events | sort -u |
	while read -r p; do kill -0 "$p" 2>/dev/null || echo "$p"; done)
[ -z "$left" ] || fail "uprobes of lupe $left left behind: $(cat /sys/kernel/tracing/uprobe_events)"
ok "no probe left"

# probes a killed lupe left behind are removed by the next one
true &
dead=$!
wait $dead
off=$(readelf -sW "$W" | awk '$8 == "sum" { print $2 }')
echo "p:lupe_$dead/f0_entry $W:0x$off" >>/sys/kernel/tracing/uprobe_events || fail "cannot make a stale probe"
"$LUPE" stat -x, -e task-clock --func sum -- "$W" -n 1 -m 1 2>/dev/null || fail "stat --func failed"
grep -q "lupe_$dead/" /sys/kernel/tracing/uprobe_events && fail "the stale probe of $dead is still there"
ok "stale probes removed"
