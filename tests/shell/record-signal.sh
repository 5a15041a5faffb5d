#!/usr/bin/env bash
# lupe record -a stopped by SIGINT or SIGTERM after 1 s leaves a complete file that perf reads, with the samples so far; with a workload, lupe then dies of the signal as its manual says
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
for sig in INT TERM HUP; do
	"$LUPE" record -q -a -o $sig.data &
	pid=$!
	sleep 1
	kill -$sig $pid
	wait $pid
	[ -s $sig.data ] || fail "SIG$sig: no file"
	"$PERF" report -i $sig.data --stdio >out 2>err || fail "SIG$sig: perf report exited $?: $(cat err)"
	[ -s err ] && fail "SIG$sig: perf report warned: $(cat err)"
	n=$("$PERF" script -i $sig.data 2>/dev/null | wc -l)
	[ "$n" -gt 100 ] || fail "SIG$sig: only $n samples after 1 s on every CPU"
	ok "SIG$sig: $n samples readable"
done

# with a workload: the file is complete, then lupe dies of the same signal (perf's way)
for sig in INT TERM; do
	status=$(python3 - "$LUPE" $sig <<'PY'
import signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "record", "-q", "-o", "w.data", "--", "sleep", "10"])
time.sleep(1)
p.send_signal(getattr(signal, "SIG" + sys.argv[2]))
print(p.wait())
PY
)
	[ "$status" = "-$(kill -l $sig)" ] || fail "SIG$sig with a workload: status $status, want killed by the signal"
	"$PERF" report -i w.data --stdio >/dev/null 2>&1 || fail "SIG$sig with a workload: perf cannot read the file"
	ok "SIG$sig with a workload: killed by it, file complete"
done
