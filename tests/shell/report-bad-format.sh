#!/usr/bin/env bash
# a tracing-data format whose field offset overflows (2147483647, and -1), or that divides by a field (zero in the sample), is checked before libtraceevent prints a sample: script, report and script -D warn, exit 0, do not crash and print the sample's raw fields (lupe and lupe-asan; perf 6.1 dies)
. "$(dirname "$0")/lib/common.sh"
command -v python3 >/dev/null || skip "no python3 to build the file"
ASAN_BIN=${LUPE_ASAN_BIN:-$LUPE_BUILD/lupe-asan}
[ -x "$ASAN_BIN" ] || fail "no lupe-asan at $ASAN_BIN (cmake builds it unless LUPE_ASAN is on)"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1
# perf's own recording of sched:sched_switch (the reader fuzzer's seed)
tp=$LUPE_SRC/tests/fuzz/corpus/reader/perf-tp.data
"$LUPE" script -i "$tp" 2>/dev/null | grep -q "prev_comm=demo prev_pid=28643 " ||
	skip "lupe prints no tracepoint fields (built without libtraceevent?)"
# raw FILE WHAT WARNING FIELDS: script, report and script -D of FILE (lupe
# and lupe-asan) exit 0, warn WARNING and print the sample as "[raw] FIELDS"
raw() {
	local file=$1 why=$2 warning=$3 fields=$4 bin cmd what rc
	for bin in "$LUPE" "$ASAN_BIN"; do
		for cmd in "script" "report --stdio" "script -D"; do
			# shellcheck disable=SC2086
			"$bin" $cmd -i "$file" > out 2> err; rc=$?
			what="${bin##*/} $cmd ($why)"
			[ $rc = 0 ] || fail "$what exited $rc: $(head -c 2000 err)"
			grep -q "warning: the format of 'sched:sched_switch' .* $warning" err ||
				fail "$what gave no warning: $(cat err)"
			grep -qF "[raw] $fields" out || fail "$what did not print the raw fields: $(grep -m3 sched out)"
		done
	done
	if [ -x "$PERF" ]; then
		"$PERF" script -i "$file" >/dev/null 2>&1; echo "  $why: perf script exits $? (lupe: 0)"
	fi
}

for off in 2147483647 4294967295; do
	python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" bad-format "$tp" bad.data sched_switch prev_pid $off ||
		fail "cannot build the broken format"
	# the fields inside the record by value, the broken one as '?'
	raw bad.data "offset $off" "field outside" \
		"prev_comm=demo prev_pid=? prev_prio=120 prev_state=0 next_comm=rcu_preempt next_pid=15 next_prio=120"
done

# "prev_pid % prev_state" (0 in the sample): libtraceevent computes it with
# no test of the divisor (SIGFPE, found by fuzzing); a divisor that is a
# constant still prints as the format says
python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" format-text "$tp" div.data sched_switch \
	"REC->prev_pid," "REC->prev_pid % REC->prev_state," || fail "cannot build the dividing format"
raw div.data "a divisor from the record" "divides by a value that is not a constant" \
	"prev_comm=demo prev_pid=28643 prev_prio=120 prev_state=0 next_comm=rcu_preempt next_pid=15 next_prio=120"
python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" format-text "$tp" const.data sched_switch \
	"REC->prev_pid," "REC->prev_pid / (unsigned int)1000L," || fail "cannot build the constant divisor"
for bin in "$LUPE" "$ASAN_BIN"; do
	"$bin" script -i const.data > out 2> err || fail "${bin##*/} script of a constant divisor failed: $(cat err)"
	[ -s err ] && fail "${bin##*/} warned of a constant divisor: $(cat err)"
	grep -q "prev_comm=demo prev_pid=28 prev_prio=120 " out ||
		fail "${bin##*/} did not print 28643 / 1000 as 28: $(grep -m3 sched out)"
done
ok "a format with a field outside the record, or a divisor from the record: a warning, the raw fields, exit 0 (script, report, script -D; lupe and lupe-asan); a constant divisor prints"
