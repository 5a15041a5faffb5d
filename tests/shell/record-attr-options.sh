#!/usr/bin/env bash
# each perf record option sets the same perf_event_attr as perf 6.1 does (perf evlist -v of both files)
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

# perf's own ksymbol/bpf_event tracking bits are not the options' business
attrs() { "$PERF" evlist -v -i "$1" 2>/dev/null | sed 's/, ksymbol: 1, bpf_event: 1//'; }

n=0
while read -r opts; do
	# shellcheck disable=SC2086
	"$PERF" record -q $opts -e cpu-clock -o perf.data true >/dev/null 2>&1 || fail "perf record $opts exited $?"
	# shellcheck disable=SC2086
	"$LUPE" record -q $opts -e cpu-clock -o lupe.data true >/dev/null || fail "lupe record $opts exited $?"
	attrs perf.data > perf.attr
	attrs lupe.data > lupe.attr
	[ -s lupe.attr ] || fail "perf evlist cannot read lupe's file for '$opts'"
	diff perf.attr lupe.attr > attr.diff || { cat attr.diff; fail "attrs differ for '$opts'"; }
	n=$((n + 1))
done <<'OPTS'
--per-thread
--per-thread -T
-T
-s
-d
--no-inherit -d -s
--switch-events
--all-user
--all-kernel
--user-regs=ax,bx,R15
--user-regs
--intr-regs=di,r8,dx,cx
-I
--clockid=monotonic_raw
-k mono
--clockid=CLOCK_BOOTTIME
--aio
--aio=4
OPTS
ok "$n option sets give perf's attrs"
