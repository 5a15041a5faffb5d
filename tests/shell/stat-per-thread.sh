#!/usr/bin/env bash
# lupe stat --per-thread -a (and --per-thread alone) counts every thread of the system as perf does: perf's comm-pid column and CSV/JSON fields, threads that counted nothing left out, the same kinds of lines as perf (std, CSV, JSON, alone too), lupe's own thread counted; --per-thread with a command is refused as perf refuses it
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

# a busy thread that runs before the count starts: it must be counted
bash -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$TMPD"' EXIT

# perf_stat OUT ARGS...: perf stat ARGS into OUT (its stderr). perf 6.1
# gives up when a thread ends between its listing and its open ("failed to
# parse CPUs map: No such file or directory"): here a third of its runs,
# quiet machine or not, so 5 tries all failed now and then (the official
# CI of 9f56743). 20 tries: 0.33^20.
perf_stat() {
	local out=$1 try
	shift
	for try in $(seq 20); do
		"$PERF" stat "$@" 2> "$out" && return 0
	done
	echo "note: perf stat $* failed 20 times: $(head -1 "$out")"
	return 1
}

# the same fields as perf: comm-pid, value, unit, event, run, %, metric, unit
perf_stat perf.csv -x, --per-thread -a -e task-clock,context-switches sleep 0.1
"$LUPE" stat -x, --per-thread -a -e task-clock,context-switches sleep 0.1 2> lupe.csv ||
	fail "lupe stat --per-thread -a: $(cat lupe.csv)"
awk -F, 'NF != 8 || $1 !~ /-[0-9]+$/ { exit 1 }' perf.csv ||
	echo "perf failed or changed its shape (perf's race with ending threads): $(head -3 perf.csv)"
awk -F, 'NF != 8 || $1 !~ /-[0-9]+$/ { print; exit 1 }' lupe.csv || fail "not perf's CSV fields: $(head -3 lupe.csv)"
# no line for a thread that counted nothing (perf's rule for a system-wide count);
# a task-clock of a few microseconds prints 0.00 msec, its run time says it ran
awk -F, '$2 == "0" || ($2 == "0.00" && $5 == "0") { exit 1 }' lupe.csv ||
	fail "a zero line: $(grep ',0,\|,0.00,' lupe.csv | head -3)"
# the busy thread ran the whole 0.1 s (at least 20 ms of it on a loaded machine); lupe itself ran
awk -F, -v p="-$busy" 'index($1, p) && $4 == "task-clock" && $2 > 20 { found = 1 } END { exit !found }' lupe.csv ||
	fail "no task-clock line for the busy thread $busy: $(head lupe.csv)"
grep -q '^lupe-[0-9]*,.*,task-clock,' lupe.csv || fail "no line for lupe's own thread"
ok "$(grep -c task-clock lupe.csv) threads counted (perf: $(grep -c task-clock perf.csv))"

# the default format's columns and the JSON keys, as perf prints them
"$LUPE" stat --per-thread -a -e task-clock sleep 0.1 2> std.out || fail "lupe stat --per-thread -a"
grep -Eq '^ {0,16}[^ ].*-[0-9]+ +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized' std.out ||
	fail "not perf's comm-pid column: $(head -5 std.out)"
"$LUPE" stat -j --per-thread -a -e task-clock sleep 0.1 2> lupe.json || fail "lupe stat -j --per-thread"
python3 -c 'import json,sys
for l in open(sys.argv[1]):
    l = l.strip()
    if l: print(",".join(json.loads(l).keys()))' lupe.json | sort -u > keys.out
[ "$(cat keys.out)" = "thread,counter-value,unit,event,event-runtime,pcnt-running,metric-value,metric-unit" ] ||
	fail "JSON keys: $(cat keys.out)"
ok "default and JSON shapes"

# every kind of line perf prints, lupe prints, and no other: the thread names out, numbers N
# (perf's warning for a thread gone before its name was read is not a line of counts)
shapes() {
	# the counting tool's own lines (perf-PID, lupe-PID) are no part of the shape
	grep -v "^Couldn't resolve comm name" | grep -vE '^ *"?(perf|lupe)-[0-9]+|"thread" : "(perf|lupe)-' | sed -E 's/^ *[^ ]+-[0-9]+ /THREAD /; s/^[^,]+-[0-9]+,/THREAD,/; s/"thread" : "[^"]*"/"thread" : T/;
		s/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]?\/sec/\/sec/g; s/ +/ /g' |
		# a thread whose task-clock read 0 gets no rate: whether one does is the race's
		awk '!(/^THREAD / && !/#/) && !(/^THREAD,/ && /,,$/) && !(/"thread"/ && !/metric-value/)' | sort -u
}
# a shell that forks all along: a thread that page-faults in every window
(while :; do /bin/true; done) > /dev/null 2>&1 &
churn=$!
trap 'kill $busy $churn 2>/dev/null; rm -rf "$TMPD"' EXIT
for fmt in "" -x, -j; do
	# shellcheck disable=SC2086
	perf_stat perf.any $fmt --per-thread -a -e task-clock,context-switches,page-faults sleep 0.1 ||
		fail "perf stat $fmt --per-thread -a failed 20 times in a row: nothing to compare with"
	shapes < perf.any > perf.shapes
	# whether any thread page-faults in the 0.1 s is the machine's race:
	# a kind of line lupe lacks in five runs is a real difference
	for _ in 1 2 3 4 5; do
		# shellcheck disable=SC2086
		"$LUPE" stat $fmt --per-thread -a -e task-clock,context-switches,page-faults sleep 0.1 2> lupe.any ||
			fail "lupe stat $fmt --per-thread -a: $(head -3 lupe.any)"
		shapes < lupe.any > lupe.shapes
		cmp -s perf.shapes lupe.shapes && break
	done
	diff perf.shapes lupe.shapes || fail "lupe stat $fmt --per-thread -a prints other lines than perf's"
done
kill $churn 2>/dev/null
ok "the same kinds of lines as perf's, std, CSV and JSON"

# --per-thread alone is the same system-wide count (perf: "or only --per-thread")
timeout 10 "$LUPE" stat -x, --per-thread -e task-clock --timeout 100 2> alone.csv ||
	fail "lupe stat --per-thread alone: $(cat alone.csv)"
[ "$(wc -l < alone.csv)" -ge 2 ] || fail "--per-thread alone counted $(wc -l < alone.csv) threads"
for fmt in "" -x,; do
	# shellcheck disable=SC2086
	perf_stat perf.any $fmt --per-thread -e task-clock --timeout 100 >/dev/null ||
		fail "perf stat $fmt --per-thread alone failed 20 times in a row: nothing to compare with"
	shapes < perf.any > perf.shapes
	# shellcheck disable=SC2086
	timeout 10 "$LUPE" stat $fmt --per-thread -e task-clock --timeout 100 2>&1 >/dev/null | shapes > lupe.shapes
	diff perf.shapes lupe.shapes || fail "lupe stat $fmt --per-thread alone prints other lines than perf's"
done
ok "--per-thread alone counts the system's threads"

# a command without -p/-t/-a: both refuse
"$PERF" stat --per-thread -e task-clock true > /dev/null 2>&1 && fail "perf took --per-thread with a command"
"$LUPE" stat --per-thread -e task-clock true > /dev/null 2> err.out
[ $? = 129 ] || fail "lupe took --per-thread with a command: $(cat err.out)"
ok "--per-thread with a command refused, as perf refuses it"
