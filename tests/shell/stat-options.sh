#!/usr/bin/env bash
# lupe stat --no-merge, -n/--null, --timeout, --interval-count, --summary (and --no-csv-summary), --all-user/--all-kernel do what perf 6.1's do (same layout, same attrs, same counts where they are fixed), and the combinations perf refuses are refused
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_root
need_perf

# --no-merge: an event found on a PMU says its PMU ("tsc [msr]"); merged, it does not
if [ -d /sys/bus/event_source/devices/msr/events ] && [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	stat_same stat_norm -x, --no-merge -e tsc,msr/tsc/,task-clock true
	stat_same stat_norm -x, -e tsc,msr/tsc/,task-clock true
	"$LUPE" stat -x, --no-merge -e tsc true 2>&1 | grep -q ',tsc \[msr\],' || fail "--no-merge did not name the PMU"
	ok "--no-merge names the PMU as perf does"
else
	echo "no msr/tsc event here: --no-merge checked on software events only"
fi
stat_same stat_norm -x, --no-merge -e task-clock,page-faults true

# -n: no counters, the elapsed time alone (no blank line before it, as in perf)
stat_same stat_norm_loose -n true
stat_same stat_norm_loose -n -e task-clock true
stat_same stat_norm_loose -n -r 3 true
[ -z "$("$LUPE" stat -n -x, true 2>&1)" ] || fail "-n -x, printed something"
ok "-n prints what perf prints"

# --timeout: the workload is stopped after it (SIGTERM), the counts printed, exit 0
t0=$(date +%s%N)
"$LUPE" stat --timeout 200 -e task-clock sleep 5 > /dev/null 2> to.out || fail "--timeout exited $?: $(cat to.out)"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$ms" -lt 2000 ] || fail "--timeout 200 took $ms ms"
grep -q '^sleep: Terminated$' to.out || fail "perf's 'sleep: Terminated' is missing: $(cat to.out)"
awk '/seconds time elapsed/ { if ($1 < 0.19 || $1 > 1.5) exit 1 }' to.out || fail "elapsed: $(cat to.out)"
stat_same stat_norm_loose --timeout 100 -e task-clock,page-faults sleep 1
ok "--timeout 200 stopped sleep 5 after $ms ms"

# --interval-count: that many intervals; a workload still runs to its end (as perf lets it)
"$LUPE" stat -x, -I 100 --interval-count 3 -e task-clock -a 2> ic.csv || fail "--interval-count: $(cat ic.csv)"
[ "$(grep -c ',task-clock,' ic.csv)" = 3 ] || fail "want 3 intervals: $(cat ic.csv)"
t0=$(date +%s%N)
"$LUPE" stat -x, -I 100 --interval-count 2 -e task-clock sleep 0.6 2> ic2.csv || fail "--interval-count with a command"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$(grep -c ',task-clock,' ic2.csv)" = 2 ] && [ "$ms" -ge 550 ] ||
	fail "want 2 intervals and the whole 0.6 s workload: $ms ms, $(cat ic2.csv)"
stat_same stat_norm_loose -I 100 --interval-count 2 -e task-clock,page-faults sleep 0.5
ok "--interval-count stops the count, not the workload"

# --summary: after the intervals, the whole count (CSV: a "summary" column)
stat_same stat_norm_loose -x, -I 100 --summary -e task-clock,page-faults sleep 0.25
stat_same stat_norm_loose -j -I 100 --summary -e task-clock,page-faults sleep 0.25
"$LUPE" stat -x, -I 100 --summary -e page-faults "$WORKLOADS/sysload" -r 1 -s 0.25 > /dev/null 2> sum.csv ||
	fail "--summary: $(cat sum.csv)"
awk -F, '$1 ~ /summary/ { s = $2 } $1 !~ /summary/ { t += $2 } END { exit !(s == t && s > 0) }' sum.csv ||
	fail "the summary is not the sum of the intervals: $(cat sum.csv)"
# perf's CSV "summary" column comes without -I too, and with --metric-only after
# the aggregate, before each counter; the summary after -I prints no new header
for I in "" "-I 100 --interval-count 2"; do
	# two intervals: the workload outlasts them on a loaded machine too
	wl=true
	[ -n "$I" ] && wl="sleep 0.5"
	for mode in "" -A --per-core; do
		for fmt in "" -x, -j; do
			for mo in "" --metric-only; do
				# shellcheck disable=SC2086
				stat_same_retry stat_norm_loose $fmt $I $mo --summary -a $mode -e task-clock,cycles,page-faults $wl
			done
		done
	done
done
stat_same_retry stat_norm_loose -x, -I 100 --interval-count 2 --summary --no-csv-summary -a -A -e task-clock,cycles sleep 0.5
stat_same stat_norm_loose -x, --summary --no-csv-summary --metric-only -e task-clock,cycles true
"$LUPE" stat -x, -I 100 --interval-count 1 --summary --no-csv-summary -e task-clock sleep 0.15 2>&1 >/dev/null | grep -q summary &&
	fail "--no-csv-summary printed a summary column"
ok "--summary: the whole count equals the intervals' sum"

# --all-user / --all-kernel: the attrs perf opens (read back from stat record files)
attrs() { "$PERF" report --header-only -i "$1" 2>/dev/null | grep '^# event :' | sed -E 's/id = \{[^}]*\}, //'; }
for opt in --all-user --all-kernel; do
	"$PERF" stat record "$opt" -o perf.data -e task-clock,page-faults true 2> /dev/null || fail "perf stat record $opt"
	"$LUPE" stat record "$opt" -o lupe.data -e task-clock,page-faults true 2> /dev/null || fail "lupe stat record $opt"
	attrs perf.data > perf.attrs
	attrs lupe.data > lupe.attrs
	grep -q 'exclude_' perf.attrs || fail "perf's attrs: $(cat perf.attrs)"
	diff -u perf.attrs lupe.attrs > diff.out || fail "$opt attrs differ from perf's: $(cat diff.out)"
	stat_same stat_norm_loose -x, "$opt" -e task-clock,page-faults true
done
ok "--all-user and --all-kernel open perf's attrs"

# what perf refuses, lupe refuses (usage error)
refused() {
	"$PERF" stat "$@" > /dev/null 2>&1 && fail "perf took stat $*"
	"$LUPE" stat "$@" > /dev/null 2> err.out
	[ $? = 129 ] || fail "lupe took stat $*: $(cat err.out)"
}
refused --all-user --all-kernel true
refused --timeout 100 -I 100 true
refused --timeout 5 true
refused --interval-count 2 true
refused --metric-only -r 2 true
refused --metric-only --per-thread -p $$
ok "perf's refusals refused"
