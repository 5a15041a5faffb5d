#!/usr/bin/env bash
# lupe record's files (-g, -a -g, a tracepoint, dwarf, -z, pipe) read by perf report and perf script with exit 0 and nothing on stderr
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
W="$WORKLOADS/demo -n 100"

# read_clean FILE WHAT: perf report and perf script exit 0 and say nothing on stderr
read_clean() {
	"$PERF" report -i "$1" --stdio >report.out 2>report.err || fail "$2: perf report exited $?: $(cat report.err)"
	[ -s report.err ] && fail "$2: perf report warned: $(cat report.err)"
	"$PERF" script -i "$1" >script.out 2>script.err || fail "$2: perf script exited $?: $(cat script.err)"
	[ -s script.err ] && fail "$2: perf script warned: $(cat script.err)"
	grep -q . script.out || fail "$2: perf script printed no samples"
	ok "$2"
}

"$LUPE" record -q -g -o g.data -- $W >/dev/null || fail "record -g exited $?"
read_clean g.data "record -g"
grep -q 'leaf_a' script.out || fail "record -g: no leaf_a frame in perf script"
grep -A3 'spin' script.out | grep -q 'leaf_a' || fail "record -g: spin is not called from leaf_a"

"$LUPE" record -q -a -g -o a.data -- sleep 1 || fail "record -a -g exited $?"
read_clean a.data "record -a -g"

need_tracefs
"$LUPE" record -q -e sched:sched_switch -a -o t.data -- sleep 1 || fail "record tracepoint exited $?"
read_clean t.data "record -e sched:sched_switch -a"
grep -q 'prev_comm=.*prev_pid=.*next_comm=' script.out || fail "perf script shows no sched_switch fields: $(head -3 script.out)"

"$LUPE" record -q --call-graph dwarf -o d.data -- $W >/dev/null || fail "record dwarf exited $?"
read_clean d.data "record --call-graph dwarf"
# perf unwound the user stacks: leaf_a's caller compute_a appears under a sample
grep -A6 ' spin+' script.out | grep -q 'compute_a' || fail "perf script did not unwind dwarf stacks"

if "$LUPE" record -q -z -g -o z.data -- $W >/dev/null; then
	read_clean z.data "record -z -g"
	"$PERF" report -i z.data --header-only | grep -q 'compressed' || fail "no COMPRESSED feature in the header"
else
	"$LUPE" record -z -o z.data -- true 2>&1 | grep -q 'not supported' || fail "record -z failed without saying why"
fi

"$LUPE" record -q -o - -g -- $W 2>/dev/null | "$PERF" report -i - --stdio >pipe.out 2>pipe.err ||
	fail "pipe: perf report exited $?: $(cat pipe.err)"
[ -s pipe.err ] && fail "pipe: perf report warned: $(cat pipe.err)"
grep -q 'spin' pipe.out || fail "pipe: no spin in perf report"
ok "record -o - | perf report -i -"
