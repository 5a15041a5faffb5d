#!/bin/bash
# stat --func -p PID: attaches (with BPF where lupe has it), counts every call finished, and on Ctrl-C detaches leaving the program running with its text bytes unmodified
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/bus/event_source/devices/uprobe ] || skip "no uprobe PMU in this kernel"
B=$WORKLOADS/func-bench
"$B" -w 60 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$TMPD"' EXIT
sleep 0.3

# text bytes of tiny() in the running process, read through /proc/PID/mem
text() {
	python3 - "$pid" "$B" <<'PY'
import subprocess, sys, hashlib
pid, exe = sys.argv[1], sys.argv[2]
off = None
for l in subprocess.check_output(["readelf", "-sW", exe], text=True).splitlines():
    f = l.split()
    if len(f) > 7 and f[7] == "tiny" and f[3] == "FUNC":
        off = int(f[1], 16)
base = None
for l in open(f"/proc/{pid}/maps"):
    f = l.split()
    if len(f) > 5 and f[5].endswith("/func-bench") and int(f[2], 16) == 0:
        base = int(f[0].split("-")[0], 16)
        break
with open(f"/proc/{pid}/mem", "rb") as m:
    m.seek(base + off)
    print(m.read(64).hex())
PY
}
before=$(text) || fail "cannot read the text of $pid"
"$LUPE" --debug stat -x, -e task-clock -p $pid --func tiny 2>out.csv &
lupe=$!
sleep 1.5
during=$(text)
kill -INT $lupe
wait $lupe || fail "lupe stat -p exited $?: $(cat out.csv)"
cat out.csv
kill -0 $pid 2>/dev/null || fail "the program did not survive the detach"
after=$(text)
[ "$before" = "$after" ] || fail "text changed: before $before after $after"
[ "$during" != "$before" ] || echo "note: the probe's breakpoint was not seen in the text while attached"
# function,calls,total,unit,event,mean,stddev%,min,max,unfinished
n=$(awk -F, '$1 == "tiny" && $5 == "task-clock" { print $2 }' out.csv)
[ -n "$n" ] && [ "$n" -gt 100 ] || fail "only '$n' calls counted in 1.5 s (one a millisecond)"
u=$(awk -F, '$1 == "tiny" && $5 == "task-clock" { print $10 }' out.csv)
[ "$u" = 0 ] || fail "$u calls unfinished: attach and detach must keep every call whole"
# BPF where this lupe counts with it (the records fallback otherwise: a build without libbpf)
if LUPE_FUNC_MECHANISM= "$LUPE" --debug stat -x, -e task-clock --func tiny -- "$B" -t 10 2>&1 |
	grep -q "counting inside functions: bpf "; then
	grep -q "counting inside functions: bpf " out.csv ||
		fail "-p did not count with BPF: $(grep 'counting inside' out.csv)"
	mech=bpf
else
	mech=records
fi
# (only this lupe's: other lupes on the machine may be counting right now)
grep -q "lupe_$lupe/" /sys/kernel/tracing/uprobe_events && fail "uprobes left behind"
ok "attached ($mech), counted $n calls, none unfinished, detached; text unmodified, program running"
