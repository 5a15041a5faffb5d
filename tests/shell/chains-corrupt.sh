#!/usr/bin/env bash
# a frame-pointer chain holding a corrupt context marker (0xffffffffffffffc0, the badframe workload, recorded by perf and by lupe): report and script drop the whole chain as perf 6.1 does, and keep it where --max-stack stops perf before the marker
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
[ -x "$WORKLOADS/badframe" ] || fail "workloads not built"

"$PERF" record -q --no-bpf-event -g -o p.data "$WORKLOADS/badframe" >/dev/null 2>&1 || skip "perf record -g failed"
"$LUPE" record -g -o l.data "$WORKLOADS/badframe" >/dev/null 2>&1 || fail "lupe record -g exited $?"

for f in p.data l.data; do
	# the case is there: the kernel recorded the marker after bad's frame
	"$PERF" report -D -i $f 2>/dev/null | grep -q ': ffffffffffffffc0$' ||
		fail "no 0xffffffffffffffc0 in the chains of $f"
	"$PERF" script -i $f 2>/dev/null | grep -q 'bad+' &&
		fail "perf script shows a chain through bad in $f: perf's rule has changed"
	for o in "" --no-children "-g caller" "-g callee" "--no-children -g caller"; do
		for ms in "" "--max-stack 1" "--max-stack 2" "--max-stack 3"; do
			"$PERF" report -i $f --stdio $o $ms 2>/dev/null | grep -v '^#' | grep -v '^$' > p.txt
			"$LUPE" report -i $f --stdio $o $ms | grep -v '^#' | grep -v '^$' > l.txt ||
				fail "lupe report $o $ms -i $f exited $?"
			grep -q '\[\.\] spin' p.txt || fail "perf report $o $ms shows no spin in $f"
			cmp -s p.txt l.txt || { diff p.txt l.txt | head -20; fail "report $o $ms differs from perf's on $f"; }
		done
	done
	for ms in "" 1 2 3; do
		"$PERF" script -i $f ${ms:+--max-stack $ms} > p.txt 2>/dev/null
		"$LUPE" script -i $f ${ms:+--max-stack $ms} > l.txt || fail "lupe script -i $f exited $?"
		cmp -s p.txt l.txt || { diff p.txt l.txt | head -20; fail "script ${ms:+--max-stack $ms} differs from perf's on $f"; }
	done
	# --max-stack 2 stops perf's walk at spin <- bad, before the marker
	grep -q 'bad+' l.txt && fail "lupe script --max-stack 3 keeps a chain through bad in $f (perf drops it)"
	"$LUPE" script -i $f --max-stack 2 | grep -q 'bad+' || fail "lupe script --max-stack 2 drops the chains through bad in $f"
done
ok "chains with a corrupt marker: dropped whole, or cut before it, as perf does (report in 20 modes, script)"
