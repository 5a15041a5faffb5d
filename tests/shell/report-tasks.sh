#!/bin/bash
# report --tasks (and its prefix --task) prints perf report --tasks' thread tree byte for byte, on forking and threaded workloads recorded by perf and by lupe, files and pipes
. "$(dirname "$0")/lib/common.sh"
need_perf

for rec in perf lupe; do
	r=$PERF
	[ $rec = lupe ] && r=$LUPE
	"$r" record -q -e task-clock -o $rec-fork.data "$WORKLOADS/forkexec" 2 > /dev/null 2>&1 || fail "$rec record forkexec failed"
	"$r" record -q -g -e task-clock -o $rec-threads.data "$WORKLOADS/threads" 2 > /dev/null 2>&1 || fail "$rec record -g threads failed"
	"$r" record -q -e task-clock -o - "$WORKLOADS/forkexec" 2 > $rec-fork.pipe 2> /dev/null || fail "$rec record -o - failed"
done
for f in perf-fork.data perf-threads.data lupe-fork.data lupe-threads.data; do
	"$PERF" report -i $f --tasks > p.out 2> /dev/null || fail "perf report --tasks failed on $f"
	"$LUPE" report -i $f --tasks > l.out 2> l.err || fail "lupe report --tasks on $f: $(cat l.err)"
	cmp -s p.out l.out || fail "report --tasks on $f differs from perf's: $(diff p.out l.out | head -10)"
	"$LUPE" report -i $f --task > l2.out 2> l.err || fail "lupe report --task on $f: $(cat l.err)"
	cmp -s l.out l2.out || fail "--task is not --tasks on $f"
done
for f in perf-fork.pipe lupe-fork.pipe; do
	"$PERF" report -i - --tasks < $f > p.out 2> /dev/null || fail "perf report -i - --tasks failed on $f"
	"$LUPE" report -i - --tasks < $f > l.out 2> l.err || fail "lupe report -i - --tasks on $f: $(cat l.err)"
	cmp -s p.out l.out || fail "report -i - --tasks on $f differs from perf's: $(diff p.out l.out | head -10)"
done
# the shape, whatever perf says: the header, the idle thread, the exec'd
# child one level under the forkexec parent (its ppid the parent's pid)
head -1 l.out | grep -q '^#      pid      tid     ppid  comm$' || fail "no header line: $(head -1 l.out)"
grep -Eq '^ +0 +0 +-1 \|swapper$' l.out || fail "no swapper line"
parent=$(awk '$4 == "|forkexec" { print $2 }' l.out)
[ -n "$parent" ] || fail "no forkexec root in: $(cat l.out)"
awk -v p="$parent" '$3 == p && /\| [^ ]/ { n++ } END { exit !n }' l.out ||
	fail "no child of $parent one level down: $(cat l.out)"
grep -q 'header info' l.out && fail "--tasks printed the --header hint"
# perf refuses --tasks with --stats (an error line, no report): lupe too, as a usage error
"$PERF" report -i perf-fork.data --tasks --stats 2>&1 >/dev/null | grep -q "can't be used together with --stats" ||
	fail "perf takes --tasks --stats now: follow it"
expect_rc 129 "$LUPE" report -i perf-fork.data --tasks --stats > l.out 2> l.err
grep -q "'--tasks' cannot be used together with '--stats'" l.err || fail "no refusal of --tasks --stats: $(cat l.err)"
[ -s l.out ] && fail "--tasks --stats printed: $(cat l.out)"
ok "report --tasks equals perf's on 6 recordings (perf's and lupe's, files and pipes)"
