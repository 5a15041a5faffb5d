#!/usr/bin/env bash
# C++ names whose parameters cannot be demangled (a .isra.0 clone of a template with local classes as arguments, cxx-dispatch built by g++): report and script show them demangled without parameters, as perf 6.1 does (c++filt -p), where __cxa_demangle gave up
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
W=$WORKLOADS/cxx-dispatch
[ -x "$W" ] || skip "no C++ workload (no C++ compiler when lupe was built)"
command -v c++filt >/dev/null || skip "no c++filt (binutils)"

# the case: a symbol c++filt cannot demangle whole, and can without parameters
name=$(nm "$W" | awk '{ print $NF }' | grep '^_ZN3v8i.*DispatchToSpecificTypeWithoutCast.*isra') ||
	fail "no .isra clone of DispatchToSpecificTypeWithoutCast in $W (did the compiler change?)"
[ "$(echo "$name" | c++filt)" = "$name" ] || fail "c++filt now demangles $name: the case is not hit"
short=$(echo "$name" | c++filt -p)
[ "$short" != "$name" ] || fail "c++filt -p cannot demangle $name either"

"$PERF" record -q --no-bpf-event -g -o p.data "$W" >/dev/null 2>&1 || skip "perf record failed"
"$LUPE" record -g -o l.data "$W" >/dev/null 2>&1 || fail "lupe record exited $?"
# a sample in a PLT stub is named differently (lib/common.sh's plt_unknown, no_plt)
for f in p.data l.data; do
	for o in "" --no-children "--sort sym"; do
		"$PERF" report -i $f --stdio $o 2>/dev/null | grep -v '^#' | grep -v '^$' | no_plt > p.txt
		"$LUPE" report -i $f --stdio $o > l0.txt || fail "lupe report $o exited $?"
		grep -v '^#' l0.txt | grep -v '^$' | no_plt > l.txt
		grep -qF "$short" p.txt || fail "perf report $o of $f does not show '$short'"
		cmp -s p.txt l.txt || { diff p.txt l.txt | cut -c1-160 | head; fail "report $o differs from perf's on $f"; }
	done
	"$PERF" script -i $f 2>/dev/null | plt_unknown > p.txt
	"$LUPE" script -i $f > l0.txt || fail "lupe script exited $?"
	plt_unknown < l0.txt > l.txt
	cmp -s p.txt l.txt || { diff p.txt l.txt | cut -c1-160 | head; fail "script differs from perf's on $f"; }
	! grep -q '_ZN3v8i' l.txt || fail "lupe script leaves a name mangled on $f"
done
ok "names whose parameters cannot be demangled are shown as perf shows them"
