#!/usr/bin/env bash
# lupe record -g -a killed with SIGKILL at random moments (10 runs): lupe reads each file to its last record, and after lupe inject perf reads the same samples
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
"$WORKLOADS/demo" -s 30 >/dev/null 2>&1 &
load=$!
trap 'kill $load 2>/dev/null; rm -rf "$TMPD"' EXIT
for i in $(seq 10); do
	"$LUPE" record -q -g -a -o k$i.data 2>rec.err &
	rec=$!
	sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + 2 * r / 32768 }')"
	kill -9 $rec
	wait $rec 2>/dev/null
	[ -s k$i.data ] || fail "run $i left no file: $(cat rec.err)"
	n=$("$LUPE" script -F comm,tid -i k$i.data 2>err | wc -l)
	grep -q "was not finalized: [0-9]* records recovered" err || fail "run $i: no recovery said: $(cat err)"
	if [ "$n" -gt 0 ]; then
		"$LUPE" report --stdio -i k$i.data >/dev/null 2>err || fail "lupe report on killed run $i failed: $(cat err)"
		with=$((${with:-0} + 1))
	else
		# killed before the first round reached the disk: the file says what it holds
		"$LUPE" report --stdio -i k$i.data 2>&1 >/dev/null | grep -q "holds no samples" ||
			fail "run $i with no sample: report does not say so"
	fi
	"$LUPE" inject -i k$i.data -o fixed$i.data 2>err || fail "inject on run $i failed: $(cat err)"
	pn=$("$PERF" script -F comm,tid -i fixed$i.data 2>perf.err | wc -l)
	[ "$pn" = "$n" ] || fail "run $i: perf reads $pn samples of the finalized copy, lupe $n of the cut file: $(head -3 perf.err)"
	"$PERF" report --stdio -i fixed$i.data >/dev/null 2>perf.err || fail "perf report on the copy of run $i failed: $(cat perf.err)"
	echo "  run $i: $(stat -c %s k$i.data) bytes, $n samples recovered"
	rm -f k$i.data fixed$i.data
done
[ "${with:-0}" -ge 5 ] || fail "only ${with:-0} of 10 killed runs held samples"
ok "10 killed recordings read by lupe, and by perf after inject"
