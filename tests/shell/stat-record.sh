#!/usr/bin/env bash
# lupe stat record writes perf.data files of counts that perf stat report reads as lupe stat report does (file and pipe mode, -a -A, --per-core, -I), and lupe stat report prints perf stat record's files as perf stat report does
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

# both reports of one file, compared whole: the same numbers and layout
same_report() {
	local file=$1
	shift
	"$PERF" stat report -i "$file" "$@" > perf.out 2>&1 || fail "perf stat report -i $file $*: $(cat perf.out)"
	"$LUPE" stat report -i "$file" "$@" > lupe.out 2>&1 || fail "lupe stat report -i $file $*: $(cat lupe.out)"
	diff -u perf.out lupe.out > diff.out || fail "reports of $file $* differ (- perf, + lupe): $(cat diff.out)"
	grep -q 'task-clock' lupe.out || fail "no task-clock in the report of $file: $(cat lupe.out)"
}

ev=task-clock,page-faults,cycles
# lupe's files, read by perf and by lupe
"$LUPE" stat record -o l.data -e $ev true 2> rec.out || fail "lupe stat record: $(cat rec.out)"
grep -q 'page-faults' rec.out || fail "stat record prints no report: $(cat rec.out)"
same_report l.data
grep -q "Performance counter stats for '.*stat record -o l.data -e $ev true'" lupe.out ||
	fail "the report does not name the recorded command: $(head -3 lupe.out)"
"$LUPE" stat record -a -o la.data -e $ev sleep 0.1 2> /dev/null || fail "lupe stat record -a"
same_report la.data
same_report la.data -A
same_report la.data --per-core
same_report la.data --per-socket
"$LUPE" stat record -a -I 100 --interval-count 2 -o li.data -e task-clock,page-faults 2> /dev/null ||
	fail "lupe stat record -I"
same_report li.data
[ "$(grep -c ' task-clock' lupe.out)" = 2 ] || fail "want 2 intervals: $(cat lupe.out)"
# --per-thread -p: the threads' commands travel in THREAD_MAP
sleep 1 &
sp=$!
"$LUPE" stat record --per-thread -p $sp -o lt.data -e task-clock,page-faults 2> /dev/null || fail "lupe stat record --per-thread"
same_report lt.data
grep -Eq '^ +[a-z]+-'$sp' ' lupe.out || fail "no comm-pid in the per-thread report: $(cat lupe.out)"
ok "lupe's files: perf stat report reads them as lupe stat report does"

# perf's files, read by lupe
"$PERF" stat record -o p.data -e $ev true 2> /dev/null || fail "perf stat record"
same_report p.data
"$PERF" stat record -a -o pa.data -e $ev sleep 0.1 2> /dev/null || fail "perf stat record -a"
same_report pa.data -A
same_report pa.data --per-die
sleep 1 &
sp=$!
"$PERF" stat record --per-thread -p $sp -o pt.data -e task-clock,page-faults 2> /dev/null || fail "perf stat record --per-thread"
same_report pt.data
ok "perf's files: lupe stat report prints them as perf stat report does"

# the page-faults recorded are the ones lupe stat printed while counting
want=$("$LUPE" stat record -x, -o c.data -e page-faults true 2>&1 >/dev/null | cut -d, -f1)
got=$("$LUPE" stat report -i c.data 2>&1 | awk '$2 == "page-faults" { print $1 }')
[ -n "$want" ] && [ "$want" = "$got" ] || fail "recorded $want page-faults, the report says $got"
ok "the file holds the counts printed ($want page-faults)"

# pipe mode, both ways (perf's own stat.sh test)
"$LUPE" stat record -o - -e $ev true 2> /dev/null > l.pipe || fail "lupe stat record -o -"
"$PERF" stat report -i - < l.pipe > perf.out 2>&1
"$LUPE" stat report -i - < l.pipe > lupe.out 2>&1
diff -u perf.out lupe.out > diff.out || fail "pipe reports differ: $(cat diff.out)"
grep -q "Performance counter stats for 'pipe':" lupe.out || fail "pipe report: $(cat lupe.out)"
"$PERF" stat record -o - -e $ev true 2> /dev/null | "$LUPE" stat report -i - > lupe.out 2>&1
grep -q "Performance counter stats for 'pipe':" lupe.out && grep -q ' page-faults' lupe.out ||
	fail "lupe cannot read perf's pipe: $(cat lupe.out)"
ok "pipe mode, both ways"

# what perf refuses, lupe refuses: -r with stat record
"$PERF" stat record -r 2 -o r.data true > /dev/null 2>&1 && fail "perf took -r with stat record"
"$LUPE" stat record -r 2 -o r.data true > /dev/null 2> err.out
[ $? = 129 ] || fail "lupe took -r with stat record: $(cat err.out)"
ok "-r refused with stat record, as perf refuses it"

# a perf.data of samples holds no counts: said, not an empty report
"$LUPE" record -q -o samples.data -e task-clock true 2> /dev/null || fail "lupe record"
"$LUPE" stat report -i samples.data > /dev/null 2> err.out && fail "stat report of samples succeeded"
grep -q "holds no counts" err.out || fail "stat report of samples: $(cat err.out)"
ok "a file of samples is refused with a sentence"
