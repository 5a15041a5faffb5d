#!/usr/bin/env bash
# record options put the records and sample fields perf 6.1 puts into perf.data (READ, SWITCH, addr, regs, clock, times, user/kernel only), and perf script prints the same shapes of lines for each option's file as for perf's
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

# rec OPTS... -- CMD: the same recording by perf (perf.data) and lupe (lupe.data)
rec() {
	local o=()
	while [ "$1" != -- ]; do o+=("$1"); shift; done
	shift
	"$PERF" record -q "${o[@]}" -o perf.data -- "$@" >/dev/null 2>&1 || fail "perf record ${o[*]} exited $?"
	"$LUPE" record -q "${o[@]}" -o lupe.data -- "$@" >/dev/null || fail "lupe record ${o[*]} exited $?"
}
count() { "$PERF" report -D -i "$1" 2>/dev/null | grep -c "$2"; }

# -s: the kernel's READ record for each task that exits, in report -T as perf's
rec -s -e cpu-clock -- sh -c '/bin/true; /bin/true; /bin/true'
p=$("$PERF" report -i perf.data -T 2>/dev/null | awk '/^# *PID/ { t = 1; next } t && NF == 3' | wc -l)
l=$("$PERF" report -i lupe.data -T 2>/dev/null | awk '/^# *PID/ { t = 1; next } t && NF == 3' | wc -l)
[ "$l" -ge 3 ] && [ "$l" = "$p" ] || fail "-s: report -T rows lupe $l perf $p (3 children at least)"
[ "$(count lupe.data PERF_RECORD_READ)" -ge 3 ] || fail "-s: no READ records in lupe's file"
ok "-s: $l tasks with counts, as perf"

# --switch-events: SWITCH records around the workload's sleep
rec --switch-events -e cpu-clock -- sleep 0.05
p=$(count perf.data 'PERF_RECORD_SWITCH')
l=$(count lupe.data 'PERF_RECORD_SWITCH')
[ "$p" -ge 2 ] && [ "$l" -ge 2 ] || fail "--switch-events: SWITCH records lupe $l perf $p"
[ "$(count lupe.data 'PERF_RECORD_SWITCH.*OUT')" -ge 1 ] || fail "--switch-events: no switch out"
ok "--switch-events: $l SWITCH records (perf $p)"

# -d: every sample has an address field (perf script -F addr reads it)
rec -d -e cpu-clock -- "$WORKLOADS/demo" -n 20
"$PERF" script -i lupe.data -F addr >addr.txt 2>&1 || fail "-d: perf script -F addr refuses lupe's file: $(head -1 addr.txt)"
[ -s addr.txt ] || fail "-d: no samples"
ok "-d: $(wc -l <addr.txt) samples with addr"

# --user-regs / --intr-regs: the registers asked for, in every sample
rec --user-regs=ax,r15 --intr-regs=di,r8 -e cpu-clock -- "$WORKLOADS/demo" -n 20
for f in perf lupe; do
	"$PERF" script -i $f.data -F uregs,iregs 2>/dev/null | head -50 >$f.regs
	[ -s $f.regs ] || fail "--user-regs/--intr-regs: no samples in $f's file"
	awk '!(/ AX:/ && / R15:/ && / DI:/ && / R8:/)' $f.regs | grep -q . && fail "--user-regs/--intr-regs: $f sample without AX R15 DI R8: $(awk '!/ AX:/' $f.regs | head -1)"
done
[ "$(awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /:/) n++; print n }' lupe.regs | sort -u)" = \
  "$(awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /:/) n++; print n }' perf.regs | sort -u)" ] ||
	fail "--user-regs/--intr-regs: lupe's samples carry other registers than perf's"
ok "--user-regs/--intr-regs: AX R15 DI R8 in every sample, as perf"

# --clockid: the clock in the header, and sample times on that clock
rec --clockid=monotonic_raw -e cpu-clock -- "$WORKLOADS/demo" -n 20
for f in perf lupe; do
	"$PERF" report --header-only -i $f.data 2>/dev/null | grep -E '^# (clockid|reference time)' | sed 's/:.*(/ (/;s/ =.*//' >$f.clock
done
diff perf.clock lupe.clock || fail "--clockid: header lines differ"
grep -q 'clockid (4)' lupe.clock || fail "--clockid: no clockid monotonic_raw (4) in lupe's header"
raw_now=$(python3 -c 'import time; print(int(time.clock_gettime(time.CLOCK_MONOTONIC_RAW)))' 2>/dev/null) ||
	raw_now=
t=$("$PERF" script -i lupe.data -F time 2>/dev/null | head -1 | tr -d ' :')
[ -n "$t" ] || fail "--clockid: no sample times"
if [ -n "$raw_now" ]; then
	awk -v t="$t" -v n="$raw_now" 'BEGIN { exit !(t <= n + 1 && t > n - 60) }' ||
		fail "--clockid: sample time $t is not on CLOCK_MONOTONIC_RAW (now $raw_now)"
fi
ok "--clockid: monotonic_raw header and times"

# --per-thread: no times (as perf), -T brings them back
rec --per-thread -e cpu-clock -- "$WORKLOADS/demo" -n 20
"$PERF" script -i lupe.data -F time >/dev/null 2>&1 && fail "--per-thread: lupe's samples have times, perf's have none"
"$PERF" script -i perf.data -F time >/dev/null 2>&1 && fail "--per-thread: perf's own samples have times here"
rec --per-thread -T -e cpu-clock -- "$WORKLOADS/demo" -n 20
"$PERF" script -i lupe.data -F time 2>/dev/null | grep -q '[0-9]\.[0-9]' || fail "--per-thread -T: no sample times"
ok "--per-thread: times only with -T"

# --all-user / --all-kernel: only user ([.]) or only kernel ([k]) samples
modes() { "$PERF" report -i "$1" --stdio --sort sym 2>/dev/null | awk '/^ +[0-9.]+%/ { print $2 }' | sort -u | tr '\n' ' '; }
rec --all-user -e cpu-clock -- "$WORKLOADS/demo" -n 20
[ "$(modes lupe.data)" = "[.] " ] || fail "--all-user: lupe's modes '$(modes lupe.data)'"
[ "$(modes perf.data)" = "[.] " ] || fail "--all-user: perf's modes '$(modes perf.data)'"
# a workload that spends its time in the kernel (copies through read/write)
rec --all-kernel -e cpu-clock -- dd if=/dev/zero of=/dev/null bs=64k count=20000
[ "$(modes lupe.data)" = "[k] " ] || fail "--all-kernel: lupe's modes '$(modes lupe.data)'"
[ "$(modes perf.data)" = "[k] " ] || fail "--all-kernel: perf's modes '$(modes perf.data)'"
ok "--all-user/--all-kernel: user only / kernel only, as perf"

# every option: perf script prints the same kinds of lines for lupe's file as for perf's
# (sample fields, the records shown), each line reduced to its shape: numbers, addresses
# and symbols out, one of each shape; lupe names its workload before exec "lupe-exec"
shape() {
	"$PERF" script -i "$1" --show-task-events --show-mmap-events --show-switch-events $2 2>/dev/null |
		sed -E 's/^[[:space:]]+[0-9a-f]+ .*/frame frame/; s/lupe-exec/perf-exec/g; s/ OUT preempt/ OUT/; s/ [0-9a-f]+ [^ ]+ \([^)]*\)/ IP SYM/g; s/0x[0-9a-f]+/H/g; s/[0-9a-f]{6,}/H/g; s/[0-9]+/N/g; s/ +/ /g' |
		awk '{ $1 = ""; print }' | sort -u
}
n=0
while IFS='|' read -r opts fields; do
	# demo spends next to no time in the kernel: whether a kernel-only file
	# has a sample at all would be chance, so that one records head copying
	# /dev/zero (not dd: a hex-looking comm reads as a callchain line below)
	work=("$WORKLOADS/demo" -n 30)
	[ "$opts" = --all-kernel ] && work=(head -c 1300M /dev/zero)
	# whether the scheduler preempts demo is chance: a shell waiting for
	# demo switches out (and in) on every run, and "OUT preempt" is an OUT
	[ "$opts" = --switch-events ] && work=(sh -c "$WORKLOADS/demo -n 30; sleep 0.01")
	# shellcheck disable=SC2086
	rec $opts -e cpu-clock -- "${work[@]}"
	shape perf.data "$fields" > perf.shape
	shape lupe.data "$fields" > lupe.shape
	grep -q 'cpu-clock:' lupe.shape || fail "no samples shown for '$opts'"
	diff perf.shape lupe.shape || fail "perf script $fields prints other lines for lupe's '$opts' file than for perf's"
	n=$((n + 1))
done <<'OPTS'
--per-thread|-F+period
--per-thread -T|-F+time
-T|-F+time
-s|-F+period
-d|-F+addr
--switch-events|-F+period
--all-user|-F+period
--all-kernel|-F+period
--user-regs=ax,bx|-F+uregs
--intr-regs=di,r8|-F+iregs
--clockid=monotonic_raw|-F+time
--aio|-F+period
-g|-F+period
OPTS
ok "$n option sets: perf script prints lupe's files in the shapes of perf's"
