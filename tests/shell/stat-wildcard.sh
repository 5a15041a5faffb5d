#!/usr/bin/env bash
# lupe stat with a tracepoint glob: the counts equal perf's, and 360 syscall tracepoints start and stop in under 1 s (their slow close is left to a detached lupe-close process, which holds no output and ends on its own)
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
need_tracefs

# wait_closers: until no detached closer holds tracepoints (at most 60 s),
# so that perf opens and closes them on its own as it would alone
wait_closers() {
	for _ in $(seq 600); do
		pgrep -x lupe-close > /dev/null || return 0
		sleep 0.1
	done
	fail "a lupe-close process is still running after 60 s"
}

# the counts: a smaller glob, so that perf's own slow close stays short
wait_closers
"$LUPE" stat -x, -e 'syscalls:sys_enter_get*' "$WORKLOADS/sysload" -r 500 -s 0.2 > /dev/null 2> lupe.csv ||
	fail "lupe stat failed: $(cat lupe.csv)"
wait_closers
"$PERF" stat -x, -e 'syscalls:sys_enter_get*' "$WORKLOADS/sysload" -r 500 -s 0.2 > /dev/null 2> perf.csv ||
	fail "perf stat failed: $(cat perf.csv)"
counts() { awk -F, '$3 ~ /^syscalls:/ { print $3, $1 }' "$1" | sort; }
counts lupe.csv > lupe.counts
counts perf.csv > perf.counts
[ -s perf.counts ] || fail "perf printed no counts: $(cat perf.csv)"
diff perf.counts lupe.counts > counts.diff || fail "counts differ from perf's (< perf, > lupe): $(cat counts.diff)"
grep -q '^syscalls:sys_enter_getcpu 100$' lupe.counts || fail "want 100 getcpu calls: $(grep getcpu lupe.counts)"
ok "$(wc -l < lupe.counts) tracepoints count as perf counts them"

# every syscall tracepoint: under 1 s where perf takes about 13 s
wait_closers
t0=$(date +%s%N)
out=$("$LUPE" stat -x, -e 'syscalls:sys_enter_*' true 2>&1) || fail "lupe stat failed: $out"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
n=$(echo "$out" | grep -c ',syscalls:sys_enter_')
[ "$n" -ge 300 ] || fail "only $n tracepoints counted"
[ "$ms" -lt 1000 ] || fail "lupe stat -e 'syscalls:sys_enter_*' true took $ms ms"
ok "$n tracepoints: $ms ms"
# the closer took the last references and goes away by itself
wait_closers
ok "the detached closer finished"
