#!/usr/bin/env bash
# lupe record -z ends with perf record -z's summary line, "Captured and wrote X MB FILE, compressed (original Y MB, ratio is R)", one line as perf's
. "$(dirname "$0")/lib/common.sh"
need_perf
"$LUPE" version --build-options | grep -q 'zstd: \[ on' || skip "lupe was built without zstd"
"$PERF" record -z -o perf.data -- "$WORKLOADS/demo" -n 40 2> perf.err > /dev/null || skip "perf record -z failed: $(cat perf.err)"
"$LUPE" record -z -o lupe.data -- "$WORKLOADS/demo" -n 40 2> lupe.err > /dev/null || fail "lupe record -z: $(cat lupe.err)"
# the shape of the line with the numbers and file name as words; lupe says
# its sample count where perf 6.1 leaves it out with -z
shape() { sed -E 's/[0-9]+\.[0-9]+/N/g; s/ (perf|lupe)\.data/ FILE/; s/ \([0-9]+ samples\)//' "$1" | grep -v 'Woken up'; }
shape perf.err > perf.shape
shape lupe.err > lupe.shape
grep -qx '\[ perf record: Captured and wrote N MB FILE, compressed (original N MB, ratio is N) \]' perf.shape ||
	fail "perf 6.1 words it otherwise now: $(cat perf.err)"
diff perf.shape lupe.shape > shape.diff || fail "lupe's -z summary is not perf's: $(cat shape.diff)"
ratio=$(sed -n 's/.*ratio is \([0-9.]*\)).*/\1/p' lupe.err)
awk -v r="$ratio" 'BEGIN { exit !(r > 1) }' || fail "ratio $ratio: nothing was compressed"
ok "$(grep Captured lupe.err)"
