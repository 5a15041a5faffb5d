#!/bin/bash
# report -q (no '#' lines, no header) and --stats (the record counts) print what perf report prints, on perf's and lupe's files, compressed too
. "$(dirname "$0")/lib/common.sh"
need_perf

"$PERF" record -q -o perf.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record failed"
"$PERF" record -q -g -o perfg.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record -g failed"
"$PERF" record -q -z -o perfz.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record -z failed"
"$LUPE" record -q -o lupe.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "lupe record failed"
# the callchain file in both modes: children mode's equal entries in perf's order
for f in perf.data perfz.data lupe.data perfg.data; do
	opts=("-q" "-q --header-only" "--stats")
	[ $f = perfg.data ] && opts=("-q" "-q --no-children" "-q --no-children --header-only" "--stats")
	for o in "${opts[@]}"; do
		# shellcheck disable=SC2086 # o holds several options
		"$PERF" report -i $f --stdio $o > p.out 2> /dev/null
		# shellcheck disable=SC2086
		"$LUPE" report -i $f --stdio $o > l.out 2> l.err || fail "lupe report $o on $f: $(cat l.err)"
		cmp -s p.out l.out || fail "report $o on $f differs from perf's: $(diff p.out l.out | head -10)"
	done
done
grep -q '^#' l.out && fail "--stats printed a '#' line"
"$LUPE" report -i perf.data --stdio -q | grep -q '^#' && fail "-q printed a '#' line"
grep -q 'COMPRESSED events:' <("$LUPE" report -i perfz.data --stats) || fail "--stats counts no COMPRESSED records"
ok "report -q and --stats equal perf's on four files"
