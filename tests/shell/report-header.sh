#!/bin/bash
# report --header-only and --header print perf report's header lines, on perf's and lupe's files (plain, -g, -z, -k mono with an event group) and on pipes
. "$(dirname "$0")/lib/common.sh"
need_perf

ev=task-clock
for rec in perf lupe; do
	r=$PERF
	[ $rec = lupe ] && r=$LUPE
	"$r" record -q -e $ev -o $rec.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "$rec record failed"
	"$r" record -q -g -e $ev -o $rec-g.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "$rec record -g failed"
	"$r" record -q -z -e $ev -o $rec-z.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "$rec record -z failed"
	"$r" record -q -k mono -e "{$ev,page-faults}" -o $rec-k.data "$WORKLOADS/demo" > /dev/null 2>&1 ||
		fail "$rec record -k mono with a group failed"
	"$r" record -q -e $ev -o - "$WORKLOADS/demo" > $rec.pipe 2> /dev/null || fail "$rec record -o - failed"
	"$r" record -q -k mono -e "{$ev,page-faults}" -o - "$WORKLOADS/demo" > $rec-k.pipe 2> /dev/null ||
		fail "$rec record -o - -k mono with a group failed"
done
# perf ends a report with a random tip: left out with the '#' lines around it
notip() { grep -v -e '^#$' -e '^# (Tip:' -e '^# (For a higher level overview'; }
# report BIN FILE OPTIONS: a pipe through stdin (perf takes only pipe-mode data there), a file by path
report() {
	local bin=$1 f=$2
	shift 2
	case $f in
	*.pipe) "$bin" report -i - "$@" < "$f" ;;
	*) "$bin" report -i "$f" "$@" ;;
	esac
}
for f in perf.data perf-g.data perf-z.data perf-k.data lupe.data lupe-g.data lupe-z.data lupe-k.data \
	 perf.pipe perf-k.pipe lupe.pipe lupe-k.pipe; do
	report "$PERF" $f --stdio --header-only > p.out 2> /dev/null || fail "perf report --header-only failed on $f"
	report "$LUPE" $f --stdio --header-only > l.out 2> l.err || fail "lupe report --header-only on $f: $(cat l.err)"
	cmp -s p.out l.out || fail "--header-only on $f differs from perf's: $(diff p.out l.out | head -10)"
	case $f in *-g.*|*-k.*) continue ;; esac # the report after it: groups and children are other tests'
	report "$PERF" $f --stdio --header 2> /dev/null | notip > p.out
	report "$LUPE" $f --stdio --header 2> l.err | notip > l.out
	cmp -s p.out l.out || fail "--header on $f differs from perf's: $(diff p.out l.out | head -10)"
done
# a real pipe: the same lines but the captured-on one (the pipe's time, as perf's own runs differ)
# shellcheck disable=SC2002 # a pipe, not a file, on stdin
cat perf-k.pipe | "$PERF" report -i - --header-only 2> /dev/null | sed 1,2d > p.out
# shellcheck disable=SC2002
cat perf-k.pipe | "$LUPE" report -i - --header-only 2> l.err | sed 1,2d > l.out
cmp -s p.out l.out || fail "--header-only through a pipe differs from perf's: $(diff p.out l.out | head -10)"
"$LUPE" report -i perf-k.data --header-only > l.out 2> l.err || fail "lupe report -i perf-k.data --header-only: $(cat l.err)"
grep -q '^# group: {task-clock,page-faults}$' l.out || fail "no group line: $(cat l.out)"
grep -q '^# clockid: monotonic (1)$' l.out || fail "no clockid line: $(cat l.out)"
grep -q '^# missing features: .* PMU_CAPS $' <("$LUPE" report -i lupe.data --header-only) ||
	fail "PMU_CAPS is not among lupe.data's missing features"
"$LUPE" report -i - --header-only < perf-k.pipe | grep -q 'missing features' && fail "a pipe's header has a missing-features line"
ok "report --header-only and --header equal perf's on 8 files and 4 pipes"
