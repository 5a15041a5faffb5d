#!/usr/bin/env bash
# lupe probe --funcs [FILTER] and --filter list a binary's functions as perf probe --funcs does (default filter, globs with & | ! and parentheses, or'ed filters, PLT entries, C++ names, libc from its debug file), and refuse what perf refuses
. "$(dirname "$0")/lib/common.sh"
need_perf

libc=$(grep -w libc /proc/self/maps | head -1 | sed -r 's/.*[[:space:]](\/.*)/\1/g')
bins="$WORKLOADS/demo $WORKLOADS/parse $LUPE"
[ -x "$WORKLOADS/func-cxx" ] && bins="$bins $WORKLOADS/func-cxx"
[ -n "$libc" ] && bins="$bins $libc"

# same BINARY ARGS...: lupe and perf list the same lines
same() {
	local bin=$1
	shift
	"$PERF" probe -x "$bin" "$@" > perf.out 2> perf.err || fail "perf probe -x $bin $*: $(cat perf.err)"
	"$LUPE" probe -x "$bin" "$@" > lupe.out 2> lupe.err || fail "lupe probe -x $bin $* exited $?: $(cat lupe.err)"
	[ -s perf.out ] || fail "perf probe -x $bin $* listed nothing"
	diff -u perf.out lupe.out > d.out || fail "lupe probe -x $bin $* differs from perf: $(head -20 d.out)"
}

n=0
for bin in $bins; do
	same "$bin" --funcs
	same "$bin" --funcs='*'
	same "$bin" -F 'm*|c*|l*'
	same "$bin" --funcs '(m*|f*|p*) & !main'
	same "$bin" --funcs=main --filter='l*'
	same "$bin" --filter='_*' --funcs
	n=$((n + 1))
done
ok "--funcs on $n binaries, six filters each, as perf probe"

# without -x: the kernel's functions, from kallsyms
if [ -r /proc/kallsyms ] && [ "$(awk 'NR == 1 { print $1 }' /proc/kallsyms)" != 0000000000000000 ]; then
	for f in "" "--filter=__x64_sys_read*" "--funcs=vfs_*|ksys_*"; do
		# shellcheck disable=SC2086
		"$PERF" probe -F $f > perf.out 2> /dev/null || fail "perf probe -F $f"
		# shellcheck disable=SC2086
		"$LUPE" probe -F $f > lupe.out || fail "lupe probe -F $f exited $?"
		[ -s perf.out ] || fail "perf listed no kernel function for '$f'"
		cmp -s perf.out lupe.out || fail "the kernel's functions for '$f' differ: $(diff perf.out lupe.out | head)"
	done
	ok "the kernel's functions, as perf probe -F"
fi

# the test perf ships (test_uprobe_from_different_cu.sh) asks for one function by name
same "$WORKLOADS/demo" --funcs compute_a
[ "$(cat lupe.out)" = compute_a ] || fail "--funcs compute_a listed: $(cat lupe.out)"
# the default filter hides _names and PLT entries; '*' shows them
"$LUPE" probe -x "$WORKLOADS/demo" --funcs | grep -q '^_' && fail "the default filter let a _name through"
"$LUPE" probe -x "$WORKLOADS/demo" --funcs='*' | grep -q '@plt$' || fail "no PLT entry with '*'"
ok "--funcs NAME, the default filter"

# refused as perf refuses them: a filter that does not parse, a missing binary
for bad in '(main' 'a b' '' 'main|'; do
	"$PERF" probe -x "$WORKLOADS/demo" --funcs="$bad" > /dev/null 2>&1
	prc=$?
	[ $prc = 129 ] || fail "perf took the filter '$bad' (exit $prc)"
	expect_rc 129 "$LUPE" probe -x "$WORKLOADS/demo" --funcs="$bad" 2> e.out
	grep -q "cannot parse the filter" e.out || fail "no sentence for the filter '$bad': $(cat e.out)"
done
"$PERF" probe -x ./no-such-binary --funcs > /dev/null 2>&1
expect_rc $? "$LUPE" probe -x ./no-such-binary --funcs 2> /dev/null
ok "bad filters and a missing binary exit 129, as perf"
