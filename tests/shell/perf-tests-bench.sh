#!/usr/bin/env bash
# lupe bench prints perf bench's output shape (numbers and addresses aside) for the listings, sched messaging/pipe, mem memcpy/memset, syscall basic, futex hash/wake, default and -f simple; bad names and sizes are errors
. "$(dirname "$0")/lib/common.sh"
need_perf

# shape: numbers -> N, addresses -> ADDR, the tool's name -> TOOL, a rate's unit (speed decides it) -> UNIT;
# a rate of inf is a number too (perf's 64KB memset timed at 0 once: "inf GB/sec")
shape() {
	sed -E 's/\bperf\b|\blupe\b/TOOL/g; s/0x[0-9a-f]+/ADDR/g; s/ (bytes|KB|MB|GB)\/sec$/ UNIT\/sec/; s/\binf\b/N/g;
		s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}
# same NAME ARGS...: perf's and lupe's outputs have one shape
same() {
	local name=$1
	shift
	"$PERF" bench "$@" > "$name.perf" 2>&1 || fail "perf bench $* failed: $(cat "$name.perf")"
	"$LUPE" bench "$@" > "$name.lupe" 2>&1 || fail "lupe bench $* failed: $(cat "$name.lupe")"
	diff <(shape < "$name.perf") <(shape < "$name.lupe") > "$name.diff" ||
		{ cat "$name.diff"; fail "lupe bench $* differs from perf's shape"; }
}

# the checker sees a changed line (a planted fault)
"$LUPE" bench sched pipe -l 100 > p.lupe
sed 's/Total time/Total  time:/' p.lupe > p.planted
diff <(shape < p.lupe) <(shape < p.planted) > /dev/null && fail "the shape check missed a planted change"

same messaging sched messaging -g 1 -l 10
same messaging-t sched messaging -g 2 -l 5 -t -p
same messaging-simple -f simple sched messaging -g 1 -l 10
same pipe sched pipe -l 1000
same pipe-T sched pipe -T -l 1000
same pipe-simple -f simple sched pipe -l 1000
same memcpy mem memcpy -f default -s 1MB -l 2
same memcpy-simple -f simple mem memcpy -f default -s 1MB -l 2
same memset mem memset -f default -s 64KB
same syscall syscall basic -l 1000
same syscall-simple -f simple syscall basic -l 1000
same futex-wake -r 2 futex wake -t 2
same futex-wake-silent -r 2 futex wake -t 2 -s
same futex-hash futex hash -r 1 -t 2 -f 16
ok "sched, mem, syscall and futex benchmarks print perf's shape"

# the listings: the collections and benchmarks lupe has, in perf's lines
"$LUPE" bench > list.lupe || fail "lupe bench (the list) exited $?"
for c in sched syscall mem futex all; do
	want=$("$PERF" bench 2>&1 | grep -E "^ +$c: ") || fail "perf bench lists no '$c'"
	grep -qxF "$want" list.lupe || fail "lupe bench does not list '$want': $(cat list.lupe)"
done
head -3 list.lupe | shape > l1
"$PERF" bench 2>&1 | head -3 | shape > l2
diff l1 l2 || fail "lupe bench's usage lines differ from perf's"
"$LUPE" bench sched > sched.lupe
for b in messaging pipe all; do
	want=$("$PERF" bench sched 2>&1 | grep -E "^ +$b: ") || fail "perf bench sched lists no '$b'"
	grep -qxF "$want" sched.lupe || fail "lupe bench sched does not list $b"
done
ok "the listings"

# mem: -f help lists the functions, each of which runs
"$LUPE" bench mem memcpy -f help > fns || fail "-f help exited $?"
grep -q "^	default \.\.\. " fns || fail "no default function in: $(cat fns)"
for f in $(sed -n 's/^	\([^ ]*\) \.\.\. .*/\1/p' fns); do
	"$LUPE" bench mem memcpy -f "$f" -s 64KB | grep -Eq '^ +[0-9.]+ [KMG]?B(ytes)?/sec$' || fail "memcpy -f $f printed no rate"
done

# bad input: a sentence on stderr and a non-zero exit
expect_rc 1 "$LUPE" bench nosuch > /dev/null 2> e1
grep -q "unknown collection 'nosuch'" e1 || fail "unknown collection: $(cat e1)"
expect_rc 1 "$LUPE" bench sched nosuch > /dev/null 2> e2
grep -q "unknown benchmark 'nosuch'" e2 || fail "unknown benchmark: $(cat e2)"
expect_rc 129 "$LUPE" bench mem memcpy -s 12QB > /dev/null 2> e3
grep -q "invalid size '12QB'" e3 || fail "bad size: $(cat e3)"
expect_rc 1 "$LUPE" bench mem memset -f nosuch > /dev/null 2> e4
grep -q "unknown memset function 'nosuch'" e4 || fail "bad function: $(cat e4)"
expect_rc 129 "$LUPE" bench -f fancy sched pipe > /dev/null 2>&1
expect_rc 129 "$LUPE" bench sched messaging -g 0 > /dev/null 2>&1
ok "bad names, sizes and formats are refused"
