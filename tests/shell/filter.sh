#!/usr/bin/env bash
# --filter after a tracepoint -e keeps only matching records in record and stat (as perf counts), and a refused filter names the field and lists the event's fields
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
need_perf

# record: a sleeper with a name of its own switches out in an unfiltered
# recording and not in one filtered on its name; prev_pid > 0 drops pid 0
cp "$(command -v sleep)" lupefsleep
"$LUPE" record -q -e sched:sched_switch -a -o all.data -- ./lupefsleep 0.2 2>/dev/null || fail "record -e sched:sched_switch -a"
"$LUPE" script -i all.data > all.txt || fail "script of the unfiltered recording"
grep -q 'prev_comm=lupefsleep ' all.txt || fail "the unfiltered recording lacks the sleeper's switch"
"$LUPE" record -q -e sched:sched_switch --filter 'prev_pid > 0 && prev_comm != "lupefsleep"' -a -o f.data -- ./lupefsleep 0.2 2>/dev/null ||
	fail "record --filter exited non-zero"
"$LUPE" script -i f.data > f.txt || fail "script of the filtered recording"
[ -s f.txt ] || fail "the filtered recording is empty"
grep -q ' prev_pid=0 ' f.txt && fail "--filter 'prev_pid > 0' kept switches of pid 0: $(grep -m1 ' prev_pid=0 ' f.txt)"
grep -q 'prev_comm=lupefsleep ' f.txt && fail "--filter kept the sleeper's switches"
ok "record --filter keeps only prev_pid > 0 ($(wc -l < f.txt) records)"
# perf reads the filtered file too
"$PERF" script -i f.data 2>/dev/null | grep -q 'prev_pid=0 ' && fail "perf script sees pid 0 in the filtered file"

# stat: the filtered count equals perf's, and is below the unfiltered one
count() { awk -F, '/sys_enter_read/ { print $1 }' "$1"; }
"$PERF" stat -x, -e syscalls:sys_enter_read --filter 'fd == 0' -e syscalls:sys_enter_read -- cat /etc/hostname 2> perf.csv > /dev/null
"$LUPE" stat -x, -e syscalls:sys_enter_read --filter 'fd == 0' -e syscalls:sys_enter_read -- cat /etc/hostname 2> lupe.csv > /dev/null ||
	fail "stat --filter exited non-zero: $(cat lupe.csv)"
[ "$(count perf.csv | tr '\n' ' ')" = "$(count lupe.csv | tr '\n' ' ')" ] ||
	fail "stat --filter counts $(count lupe.csv | tr '\n' ' '), perf $(count perf.csv | tr '\n' ' ')"
set -- $(count lupe.csv)
[ "$1" -lt "$2" ] || fail "the filtered count $1 is not below the unfiltered $2"
ok "stat --filter 'fd == 0' counts $1 of $2 reads, as perf"

# a field the event lacks: named, with the event's fields, non-zero exit
"$LUPE" record -q -e sched:sched_switch --filter 'prev_pidd > 0' -a -o bad.data -- true 2> bad.err && fail "a bad filter was accepted"
grep -q "'prev_pidd' is not a field" bad.err || fail "the bad field is not named: $(cat bad.err)"
grep -q "prev_pid, prev_prio" bad.err || fail "the event's fields are not listed: $(cat bad.err)"
"$LUPE" stat -e syscalls:sys_enter_read --filter 'count >>> 3' true 2> bad2.err && fail "stat took a filter that does not parse"
grep -q "refused" bad2.err || fail "no sentence for a filter the kernel refuses: $(cat bad2.err)"
# --filter without a tracepoint before it: usage errors
expect_rc 129 "$LUPE" stat -e task-clock --filter 'x > 0' true 2>/dev/null
expect_rc 129 "$LUPE" record --filter 'x > 0' -- true 2>/dev/null
ok "bad filters are refused with the field named"
