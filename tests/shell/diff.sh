#!/usr/bin/env bash
# lupe diff prints what perf diff prints (rows, baseline, delta, ratio, wdiff) on two recordings of demo whose split changes, recorded by perf and by lupe, with -c, -o, --percentage, -s, -q, -p, -F, -b and three files
. "$(dirname "$0")/lib/common.sh"
need_perf

# the same work, the split moved from compute_a's leaf to compute_c
for rec in perf lupe; do
	[ $rec = perf ] && R=$PERF || R=$LUPE
	"$R" record -q -e task-clock -o $rec-a.data -- "$WORKLOADS/demo" -n 150 -w 5,3,2 > /dev/null 2>&1 ||
		fail "$rec record of demo -w 5,3,2 exited $?"
	"$R" record -q -e task-clock -o $rec-b.data -- "$WORKLOADS/demo" -n 150 -w 2,3,5 > /dev/null 2>&1 ||
		fail "$rec record of demo -w 2,3,5 exited $?"
done

# two events at a fixed period: perf writes no period in the samples, each weighs -c's
"$PERF" record -q -e task-clock -e page-faults -c 1000000 -o perf-m.data -- "$WORKLOADS/demo" -n 150 -w 5,3,2 > /dev/null 2>&1 ||
	fail "perf record of two events exited $?"

# same ARGS...: lupe diff and perf diff print the same bytes
same() {
	"$PERF" diff "$@" > perf.out 2> perf.err || fail "perf diff $* exited $?: $(cat perf.err)"
	"$LUPE" diff "$@" > lupe.out 2> lupe.err || fail "lupe diff $* exited $?: $(cat lupe.err)"
	[ -s perf.out ] || fail "perf diff $* printed nothing"
	diff -u perf.out lupe.out > d.out || fail "lupe diff $* differs from perf diff: $(head -30 d.out)"
}

# done-when 3: the two files, each computation, perf's and lupe's recordings and both mixed
for pair in "perf-a.data perf-b.data" "lupe-a.data lupe-b.data" "perf-a.data lupe-b.data" "lupe-b.data perf-a.data"; do
	for c in "" "-c delta" "-c delta-abs" "-c ratio" "-c wdiff:1,2" "-c wdiff:3,1"; do
		# shellcheck disable=SC2086
		same $c $pair
	done
done
ok "default, delta, delta-abs, ratio, wdiff: the same as perf diff"

# and the change is the one the workload made: compute_c up by tens of points
"$LUPE" diff -c delta perf-a.data perf-b.data > delta.out
awk '$NF == "compute_c" { d = $2; sub("%", "", d); exit !(d + 0 > 10) }' delta.out ||
	fail "compute_c did not gain over 10 points: $(cat delta.out)"
awk '$NF == "spin" { d = $2; sub("%", "", d); exit !(d + 0 < -10) }' delta.out ||
	fail "spin did not lose over 10 points: $(cat delta.out)"
ok "compute_c gains, spin loses: $(awk '$NF == "compute_c" || $NF == "spin" { printf "%s %s ", $NF, $2 }' delta.out)"

# three files, the order of another file, filters, percentages, keys, quiet
same perf-a.data perf-b.data lupe-b.data
same -c ratio -o 2 perf-a.data perf-b.data lupe-b.data
same -c wdiff:2,3 -o 2 lupe-a.data perf-b.data lupe-b.data
same -o 0 perf-a.data perf-b.data
same -S spin,compute_c perf-a.data perf-b.data
same --percentage relative -S spin,compute_c perf-a.data perf-b.data
same -d demo perf-a.data perf-b.data
same -s dso perf-a.data perf-b.data
same -s comm,dso lupe-a.data lupe-b.data
same -s s perf-a.data lupe-b.data
same -s sym,dso perf-a.data perf-b.data
same -q perf-b.data perf-a.data
same -p -F perf-a.data perf-b.data lupe-b.data
same -F -c ratio perf-a.data perf-b.data
same -F -c wdiff:1,2 -p lupe-a.data lupe-b.data
same -b perf-a.data perf-b.data
same -b -F -c delta perf-b.data perf-a.data
same -S spin,compute_c perf-m.data lupe-b.data
same -S spin,compute_c -c ratio lupe-a.data perf-m.data
grep -q '^# Data files:' <("$LUPE" diff perf-a.data perf-b.data lupe-b.data) || fail "no data files block for three files"
ok "three files, -o, -S, -d, --percentage relative, -s, -q, -p, -F, -b: the same as perf diff"

# perf diff's defaults: perf.data.old against perf.data
cp perf-a.data perf.data.old
cp perf-b.data perf.data
same
same perf-b.data
ok "perf.data.old and perf.data by default"

# usage errors; perf diff 6.1 has no --stdio (it prints text only) and refuses it
"$PERF" diff --stdio perf-a.data perf-b.data > /dev/null 2>&1
prc=$?
expect_rc $prc "$LUPE" diff --stdio perf-a.data perf-b.data 2> /dev/null
expect_rc 129 "$LUPE" diff -c bogus perf-a.data perf-b.data 2> e1
grep -q "'bogus' is not a computation method" e1 || fail "no sentence for -c bogus: $(cat e1)"
expect_rc 129 "$LUPE" diff -c wdiff perf-a.data perf-b.data 2> e2
grep -q "wrong weights" e2 || fail "no sentence for wdiff without weights: $(cat e2)"
expect_rc 129 "$LUPE" diff -o 2 perf-a.data perf-b.data 2> /dev/null
"$LUPE" diff perf-a.data missing.data 2> e3 && fail "a missing file was diffed"
grep -q "missing.data" e3 || fail "the missing file is not named: $(cat e3)"
ok "errors"
