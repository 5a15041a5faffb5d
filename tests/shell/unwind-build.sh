#!/usr/bin/env bash
# --call-graph dwarf of a many-process build (make -j2: sh, gcc, cc1, as, ld, and deeprec's 200-deep recursion with spin inlined on two paths), recorded by perf and by lupe: lupe script is perf script and both children modes of report are perf's, but for the known list's differences (scripts/compare-perf)
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3 to run scripts/compare-perf"
for p in make gcc; do
	command -v $p >/dev/null || skip "no $p for the build (scripts/bootstrap installs it)"
done
max=$(cat /proc/sys/kernel/perf_event_max_stack 2>/dev/null) || skip "no kernel.perf_event_max_stack sysctl"
[ "$max" -lt 200 ] || skip "kernel.perf_event_max_stack is $max: the 200-deep recursion is not cut"

start=$(date +%s)
python3 "$LUPE_SRC/scripts/compare-perf" --programs build --modes dwarf \
	--views script,report-children,report-self --keep --dir "$TMPD/run" \
	--lupe "$LUPE" --perf "$PERF" > out 2>&1
rc=$?
cat out
[ $rc = 2 ] && fail "compare-perf could not run"
grep -q 'FAILED to record' out && skip "perf or lupe could not record the build: $(grep -o 'FAILED.*' out)"
[ $rc = 0 ] || fail "lupe's readers differ from perf's on the build in ways the known list does not explain"
[ "$(awk '$1 == "total" {print $2}' out)" = 6 ] || fail "not 6 cases (2 recorders x 3 views) compared"

# the file is what this test says it is: many processes, the deep
# recursion cut at max-stack, spin (inlined) one children entry
f=$TMPD/run/files/build.dwarf.perf.data
"$LUPE" script -i "$f" -F comm | awk '{print $1}' | sort -u > comms || fail "lupe script -F comm failed"
for c in make gcc cc1 as deeprec; do
	grep -qx "$c" comms || fail "no sample of $c in the build recording"
done
n=$("$PERF" script -i "$f" -F pid 2>/dev/null | sort -u | wc -l)
[ "$n" -ge 6 ] || fail "only $n processes sampled in the build"
d=$("$LUPE" script -i "$f" -F ip,dso --no-inline --comm deeprec | awk -v RS= '!/kernel\.kallsyms/ { print split($0, a, "\n") }' | sort -n | tail -1)
[ "$d" = "$max" ] || fail "deeprec's deepest chain has ${d:-no} frames, not max-stack's $max"
"$LUPE" report -i "$f" --stdio --comm deeprec -g none > l.txt || fail "lupe report --comm deeprec exited $?"
[ "$(grep -c '\[\.\] spin (inlined)' l.txt)" = 1 ] || fail "spin (inlined) is not one children entry: $(grep spin l.txt)"
"$PERF" report -i "$f" --stdio --comm deeprec -g none 2>/dev/null > p.txt
[ "$(grep -c '\[\.\] spin (inlined)' p.txt)" = 1 ] || fail "perf's report has no single spin (inlined) entry either"
ok "$n processes; deeprec's chains cut at $max; lupe's readers are perf's (or known) on both recordings, in $(( $(date +%s) - start )) s"
