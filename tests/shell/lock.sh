#!/usr/bin/env bash
# lupe lock report/contention print perf 6.1's tables (same rows, numbers and order, -t, -E, -q) on perf's and on lupe's recording of the mutex workload, perf reads lupe lock record's file, and the comparison catches a planted difference
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
need_tracefs
[ -d /sys/kernel/tracing/events/lock/contention_begin ] || skip "this kernel has no lock:contention_begin tracepoint"

# perf's table on stderr, its tips and warnings left out
perf_table() { "$PERF" lock "$@" 2>&1 >/dev/null | grep -v '^# Tip'; }
lupe_table() { "$LUPE" lock "$@" 2>&1 >/dev/null; }
# same_table WANT GOT: equal, or the same rows in another order (entries
# whose sort values tie may come in another order than perf's: lupe-lock.md
# says so); a changed number is a difference
same_table() { cmp -s "$1" "$2" || cmp -s <(sort "$1") <(sort "$2"); }

# Whether a kernel lock is contended is up to the scheduler (the official
# CI once saw none in either recording): up to 4 recordings of each, until
# one of them holds a contended lock
for try in 1 2 3 4; do
	"$PERF" lock record -o perf.data -- "$WORKLOADS/mutex" > perf.out 2> perf.err ||
		{ cat perf.err; fail "perf lock record failed"; }
	"$LUPE" lock record -o lupe.data -- "$WORKLOADS/mutex" > lupe.out 2> lupe.err ||
		{ cat lupe.err; fail "lupe lock record failed"; }
	grep -q '^contended [0-9]' lupe.out || fail "the workload's own output is missing under lupe lock record"
	[ "$(cat <(perf_table contention -q -i perf.data) <(perf_table contention -q -i lupe.data) | wc -l)" -gt 0 ] && break
	echo "note: recording $try: no kernel lock contended in either file; recording again"
done

rows=0
for f in perf.data lupe.data; do
	for a in "contention" "contention -t" "contention -E 1 -q" "contention -k wait_max" \
		 "report" "report -t" "report -k wait_total"; do
		# shellcheck disable=SC2086
		perf_table $a -i $f > want.txt
		# shellcheck disable=SC2086
		lupe_table $a -i $f > got.txt
		# the same rows, moved (ties), are a note
		if ! diff want.txt got.txt > d.txt; then
			same_table want.txt got.txt || { cat d.txt; fail "lock $a -i $f differs from perf's"; }
			echo "note: lock $a -i $f: the same rows in another order (ties):"; cat d.txt
		fi
	done
	n=$(perf_table contention -q -i $f | wc -l)
	rows=$((rows + n))
	ok "$f: contention and report tables equal perf's ($n callers)"
done
# a recording in which no lock was contended holds the events and no sample:
# perf prints its empty table, and so does lupe (the official CI's perf.data
# of the mutex workload was one); a file without the events is an error
"$LUPE" lock record -o empty.data -- true > /dev/null 2>&1 || fail "lupe lock record -- true failed"
if [ "$("$PERF" script -i empty.data 2>/dev/null | wc -l)" -eq 0 ]; then
	for a in contention report; do
		perf_table $a -i empty.data > want.txt
		lupe_table $a -i empty.data > got.txt
		diff want.txt got.txt || fail "lock $a of a recording without contention differs from perf's"
	done
	ok "a recording without contention: perf's empty tables"
fi
"$LUPE" record -o other.data -- true > /dev/null 2>&1 || fail "lupe record -- true failed"
expect_rc 1 "$LUPE" lock contention -i other.data 2> err.txt
grep -q "holds no lock:contention_begin/end events" err.txt || fail "a file without lock events: $(cat err.txt)"
[ "$rows" -gt 0 ] || skip "no kernel lock was contended in 4 recordings of each (nothing compared)"
"$PERF" evlist -i lupe.data | grep -q 'lock:contention_begin' || fail "perf evlist does not read lupe's recording"

# the comparison, ties' tolerance and all, can fail: a number changed in
# lupe's table is caught
perf_table contention -i perf.data > want.txt
lupe_table contention -i perf.data | sed '3s/[0-9]\.[0-9][0-9] /9.99 /' > got.txt
if [ "$(wc -l < want.txt)" -ge 3 ]; then
	same_table want.txt got.txt && fail "a planted difference passed the comparison"
	ok "a planted difference is caught"
fi

# -q -E 1: one line, as perf's shell test lock_contention.sh wants
[ "$(lupe_table contention -i lupe.data -E 1 -q | wc -l)" -le 1 ] || fail "-E 1 -q printed more than one line"
expect_rc 129 "$LUPE" lock contention -i lupe.data -k bogus 2> err.txt
grep -q "unknown sort key 'bogus'" err.txt || fail "bad sort key message: $(cat err.txt)"
expect_rc 129 "$LUPE" lock frobnicate 2> err.txt
grep -q "unknown lock subcommand 'frobnicate'" err.txt || fail "bad subcommand message: $(cat err.txt)"
expect_rc 1 "$LUPE" lock report -i no-such.data 2> err.txt
ok "errors"
