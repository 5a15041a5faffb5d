#!/usr/bin/env bash
# lupe report --show-total-period prints perf report's Period column (after Overhead and Samples, the self period in children mode too), the same text as perf on the same files
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -o flat.data -- "$WORKLOADS/demo" -n 40 > /dev/null 2>&1 || skip "perf record failed"
"$PERF" record -q -g -o graph.data -- "$WORKLOADS/demo" -n 40 > /dev/null 2>&1 || skip "perf record -g failed"
"$LUPE" record -q -o lupe.data -- "$WORKLOADS/demo" -n 40 > /dev/null 2>&1 || fail "lupe record failed"
# perf's text without its random tip
text() { grep -v -e '^# (Tip:' -e '^#$' -e '^$'; }
check() {
	local f=$1
	shift
	"$PERF" report -i "$f" --stdio --show-total-period "$@" 2> /dev/null | text > perf.out
	"$LUPE" report -i "$f" --stdio --show-total-period "$@" 2> lupe.err | text > lupe.out
	grep -q '  Period  ' perf.out || fail "perf printed no Period column for $f $*"
	diff perf.out lupe.out > out.diff || fail "$f $*: lupe's report is not perf's: $(head -20 out.diff) $(cat lupe.err)"
	ok "$f --show-total-period $*: $(grep -c '%' lupe.out) lines as perf's"
}
check flat.data
check flat.data -n
check flat.data -n --sort dso,sym
check graph.data --children
check graph.data --no-children -n
check lupe.data -n
