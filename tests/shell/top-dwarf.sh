#!/usr/bin/env bash
# lupe top --call-graph dwarf --stdio shows a leaf called through its caller in a workload built without frame pointers (nofp), where top -g cannot find the caller
. "$(dirname "$0")/lib/common.sh"
need_root
[ -x "$WORKLOADS/nofp" ] || fail "workloads not built"
"$LUPE" record --call-graph dwarf -o probe.data true >/dev/null 2>probe.err ||
	fail "lupe record --call-graph dwarf exited $?: $(cat probe.err)"
grep -q 'without an unwinder' probe.err && skip "lupe was built without an unwinder (libdw)"

"$WORKLOADS/nofp" 12 & wl=$!
trap 'kill $wl 2>/dev/null' EXIT
sleep 0.3
timeout --preserve-status -s INT 4.6 "$LUPE" top --call-graph dwarf --stdio -d 1 -E 12 -p "$wl" >d.out 2>d.err ||
	fail "top --call-graph dwarf exited $?: $(cat d.err)"
timeout --preserve-status -s INT 3.6 "$LUPE" top -g --stdio -d 1 -E 5 -p "$wl" >g.out 2>g.err ||
	fail "top -g exited $?: $(cat g.err)"

# the caller's children share (entry line "CHILDREN% SELF% nofp [.] nofp_caller") in the last refresh
caller() { awk '/\[\.\] nofp_caller *$/ { v = $1 + 0 } END { print v + 0 }' "$1"; }
# without frame pointers, -g walks past nofp_caller: the check below would fail on an fp chain.
# A sample can still land in nofp_caller itself (its call, add and ret, a
# millionth of the time; seen once in a CI run, its share not kept), so "cannot find" is
# under 5%, where the dwarf check wants 50
g=$(caller g.out)
awk -v g="$g" 'BEGIN { exit !(g < 5) }' || fail "top -g found nofp_caller at $g%: nofp has frame pointers after all, the dwarf check proves nothing"
grep -q '\[\.\] nofp_leaf' g.out || fail "top -g shows no nofp_leaf: $(head -20 g.out)"
c=$(caller d.out)
awk -v c="$c" 'BEGIN { exit !(c >= 50) }' || fail "top --call-graph dwarf: nofp_caller at $c% (children), want >= 50: $(tail -30 d.out)"
# and the leaf's graph goes through it
awk -v RS= '/\[\.\] nofp_caller *\n/' d.out | grep -q '^ *nofp_leaf$' ||
	awk '/---nofp_caller/ { on = 1; next } on && /nofp_leaf/ { f = 1 } END { exit !f }' d.out ||
	fail "top --call-graph dwarf: no nofp_caller -> nofp_leaf chain: $(tail -30 d.out)"
ok "top --call-graph dwarf: nofp_caller at $c% (children) above nofp_leaf; top -g cannot see it"
