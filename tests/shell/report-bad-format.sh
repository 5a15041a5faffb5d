#!/usr/bin/env bash
# a tracing-data format whose field offset overflows (2147483647, and -1) is checked before libtraceevent prints a sample: script, report and script -D warn, exit 0, do not crash and print the sample's raw fields (lupe and lupe-asan; perf 6.1 dies)
. "$(dirname "$0")/lib/common.sh"
command -v python3 >/dev/null || skip "no python3 to build the file"
ASAN_BIN=${LUPE_ASAN_BIN:-$LUPE_BUILD/lupe-asan}
[ -x "$ASAN_BIN" ] || fail "no lupe-asan at $ASAN_BIN (cmake builds it unless LUPE_ASAN is on)"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1
# perf's own recording of sched:sched_switch (the reader fuzzer's seed)
tp=$LUPE_SRC/tests/fuzz/corpus/reader/perf-tp.data
"$LUPE" script -i "$tp" 2>/dev/null | grep -q "prev_comm=demo prev_pid=28643 " ||
	skip "lupe prints no tracepoint fields (built without libtraceevent?)"
for off in 2147483647 4294967295; do
	python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" bad-format "$tp" bad.data sched_switch prev_pid $off ||
		fail "cannot build the broken format"
	for bin in "$LUPE" "$ASAN_BIN"; do
		for cmd in "script" "report --stdio" "script -D"; do
			# shellcheck disable=SC2086
			"$bin" $cmd -i bad.data > out 2> err; rc=$?
			what="${bin##*/} $cmd (offset $off)"
			[ $rc = 0 ] || fail "$what exited $rc: $(head -c 2000 err)"
			grep -q "warning: the format of 'sched:sched_switch' .* field outside" err ||
				fail "$what gave no warning: $(cat err)"
			# the fields inside the record by value, the broken one as '?'
			grep -q "\[raw\] prev_comm=demo prev_pid=? prev_prio=120 prev_state=0 next_comm=rcu_preempt next_pid=15 next_prio=120" out ||
				fail "$what did not print the raw fields: $(grep -m3 sched out)"
		done
	done
	if [ -x "$PERF" ]; then
		"$PERF" script -i bad.data >/dev/null 2>&1; echo "  offset $off: perf script exits $? (lupe: 0)"
	fi
done
ok "a format with a field outside the record: a warning, the raw fields, exit 0 (script, report, script -D; lupe and lupe-asan)"
