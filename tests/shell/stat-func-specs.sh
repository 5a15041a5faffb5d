#!/bin/bash
# stat --func specs: several at once, recursion once per outermost call, longjmp as unfinished, libc.so.6:qsort, C++ by demangled name and glob, a source range
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/bus/event_source/devices/uprobe ] || skip "no uprobe PMU in this kernel"
R=$WORKLOADS/func-recurse

# field VALUE-NAME FUNCTION: a CSV column of out.csv
calls() { awk -F, -v f="$1" '$1 == f && $5 == "task-clock" { print $2 }' out.csv; }
unfinished() { awk -F, -v f="$1" '$1 == f && $5 == "task-clock" { print $10 }' out.csv; }

range="func-recurse.c:$(grep -n 'RANGE-BEGIN' "$LUPE_SRC/tests/workloads/func-recurse.c" | cut -d: -f1)-$(grep -n 'RANGE-END' "$LUPE_SRC/tests/workloads/func-recurse.c" | cut -d: -f1)"
"$LUPE" stat -x, -e task-clock --func rec --func escape --func "$range" -- "$R" -n 40 -j 3 2>out.csv ||
	fail "stat --func failed: $(cat out.csv)"
cat out.csv
[ "$(calls rec)" = 40 ] || fail "rec: $(calls rec) calls, want 40 (outermost only, not 400)"
[ "$(calls escape)" = 0 ] && [ "$(unfinished escape)" = 3 ] || fail "escape: want 0 calls, 3 unfinished"
[ "$(calls "$range")" = 40 ] || fail "$range: $(calls "$range") passes, want 40"
ok "several at once, recursion, longjmp, source range"

"$LUPE" stat -x, -e task-clock --func libc.so.6:qsort -- "$WORKLOADS/func-qsort" -n 77 2>out.csv || fail "qsort: $(cat out.csv)"
[ "$(calls qsort)" = 77 ] || { cat out.csv; fail "qsort: $(calls qsort) calls, want 77"; }
ok "libc.so.6:qsort"

C=$WORKLOADS/func-cxx
[ -x "$C" ] || skip "no C++ compiler: the C++ workload was not built"
"$LUPE" stat -x, -e task-clock --func Matrix::mul --func 'Matrix::a*' -- "$C" -n 7 2>out.csv || fail "C++: $(cat out.csv)"
cat out.csv
[ "$(calls Matrix::mul)" = 7 ] || fail "Matrix::mul: $(calls Matrix::mul) calls, want 7"
[ "$(calls Matrix::add)" = 14 ] || fail "Matrix::add (glob): $(calls Matrix::add) calls, want 14"
ok "C++ by demangled name and glob"
