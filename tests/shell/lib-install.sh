#!/usr/bin/env bash
# liblupe installs (exactly the headers Documentation/liblupe.md names, liblupe.so with SONAME, liblupe.a, lupe.pc, find_package(lupe)) and the examples build against it with pkg-config and CMake, and give right answers
. "$(dirname "$0")/lib/common.sh"
command -v cc >/dev/null || skip "no C compiler"
command -v pkg-config >/dev/null || skip "no pkg-config"
prefix=$TMPD/prefix
cmake --install "$LUPE_BUILD" --prefix "$prefix" >install.log 2>&1 || { cat install.log; fail "cmake --install failed"; }
libdir=$(dirname "$(find "$prefix" -name 'liblupe.so.*.*' | head -1)")
[ -d "$libdir" ] || fail "no liblupe.so installed under $prefix"
[ -f "$libdir/liblupe.a" ] || fail "no liblupe.a next to liblupe.so in $libdir"
readelf -d "$libdir/liblupe.so" | grep -q 'SONAME.*liblupe\.so\.[0-9]' || fail "liblupe.so has no versioned SONAME"
[ -f "$prefix/include/lupe/lupe.h" ] || fail "headers not installed under include/lupe/"
[ -f "$libdir/cmake/lupe/lupeConfig.cmake" ] || fail "no CMake package under $libdir/cmake/lupe"

# the installed headers are exactly those Documentation/liblupe.md names (`lupe/x.h`)
header_diff() { # DIR DOC: the headers one has and the other lacks, as "+installed" / "-documented"
	diff <(cd "$1" && ls -- *.h | sed 's|^|lupe/|' | sort) \
		<(grep -o 'lupe/[a-z0-9_-]*\.h' "$2" | sort -u) | sed -n 's/^< /+/p; s/^> /-/p'
}
doc=$LUPE_SRC/Documentation/liblupe.md
d=$(header_diff "$prefix/include/lupe" "$doc")
[ -z "$d" ] || fail "installed headers and Documentation/liblupe.md differ (+installed only, -documented only): $(echo $d)"
# the check must notice both directions: a stray installed header, a documented one missing
cp -r "$prefix/include/lupe" hdrs && touch hdrs/stray.h && rm hdrs/json.h
[ "$(header_diff hdrs "$doc" | LC_ALL=C sort | tr '\n' ' ')" = "+lupe/stray.h -lupe/json.h " ] ||
	fail "a stray and a missing header went unnoticed: $(header_diff hdrs "$doc")"
ok "the $(ls "$prefix/include/lupe" | wc -l) installed headers are those Documentation/liblupe.md names"

# 1. pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs lupe) || fail "pkg-config does not find lupe"
case $flags in *"$prefix"*) ;; *) fail "lupe.pc does not point into the prefix: $flags" ;; esac
mkdir pc
for ex in count sample read-perfdata; do
	cc -Wall -Werror -o "pc/$ex" "$LUPE_SRC/examples/$ex.c" $flags -Wl,-rpath,"$libdir" ||
		fail "examples/$ex.c does not build with pkg-config ($flags)"
done
ldd pc/count | grep -q "$libdir/liblupe.so" || fail "pc/count is not linked to the installed liblupe.so"

# 2. a CMake consumer
mkdir consumer
cat >consumer/CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(lupe 0.1 REQUIRED)
foreach(ex count sample read-perfdata)
  add_executable(\${ex} $LUPE_SRC/examples/\${ex}.c)
  target_link_libraries(\${ex} PRIVATE lupe::lupe)
endforeach()
CM
cmake -S consumer -B consumer/build -DCMAKE_PREFIX_PATH="$prefix" >cm.log 2>&1 || { cat cm.log; fail "find_package(lupe) consumer does not configure"; }
cmake --build consumer/build >>cm.log 2>&1 || { cat cm.log; fail "find_package(lupe) consumer does not build"; }

for dir in pc consumer/build; do
	# count: task-clock of a function that burns 50 ms of thread CPU time, within 5% of it
	out=$("$dir/count" task-clock,page-faults 50) || fail "$dir/count failed: $out"
	tc=$(echo "$out" | awk '$2 == "task-clock" {print $1}')
	truth=$(echo "$out" | awk '$2 == "thread-cputime-ns" {print $1}')
	[ -n "$tc" ] && [ -n "$truth" ] || fail "$dir/count printed no task-clock: $out"
	awk -v a="$tc" -v b="$truth" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.05 * b) }' ||
		fail "$dir/count: task-clock $tc not within 5% of $truth"
	# a missing PMU is a sentence, not a crash
	err=$("$dir/count" '{cycles,instructions}' 2>&1) && ! echo "$err" | grep -q 'not supported' &&
		! have_hw_pmu && fail "$dir/count counted cycles without a hardware PMU"
	# sample: demo spends ~80% in spin (under leaf_a and leaf_b), ~20% in compute_c
	out=$("$dir/sample" -n 3 -- "$WORKLOADS/demo" -n 60 2>/dev/null) || fail "$dir/sample failed: $out"
	out=$(echo "$out" | grep '^ *[0-9.]*%')
	top=$(echo "$out" | awk 'NR == 1 {print $2}')
	[ "$top" = spin ] || fail "$dir/sample: top symbol '$top', want spin: $out"
	echo "$out" | awk 'NR == 2 && $2 == "compute_c" {f = 1} END {exit !f}' ||
		fail "$dir/sample: second symbol is not compute_c: $out"
	ok "$dir: count within 5% of thread CPU time, sample's top symbols spin, compute_c"
done

# read-perfdata: the symbols above 1% and their shares are those of lupe report --stdio --sort sym
"$LUPE" record -q -o rec.data -- "$WORKLOADS/demo" -n 60 >/dev/null 2>&1 || fail "lupe record failed"
want=$("$LUPE" report -i rec.data --stdio --sort sym 2>/dev/null | awk '/^ +[0-9.]+%/ && $1 + 0 >= 1 {print $1, $2, $3}')
[ -n "$want" ] || fail "lupe report printed no symbol above 1%"
for dir in pc consumer/build; do
	got=$("$dir/read-perfdata" rec.data 100 | awk '/^ *[0-9.]+%/ && $1 + 0 >= 1 {print $1, $2, $3}')
	[ "$got" = "$want" ] || fail "$dir/read-perfdata differs from lupe report:
$got
--- want
$want"
done
ok "read-perfdata's top symbols equal lupe report's: $(echo $want)"
# and from a pipe: lupe record -o - | read-perfdata -
top=$("$LUPE" record -q -o - -- "$WORKLOADS/demo" -n 30 2>/dev/null | pc/read-perfdata - 3 | awk '/%/ {print $3; exit}')
[ "$top" = spin ] || fail "read-perfdata - (pipe mode): top symbol '$top', want spin"
ok "read-perfdata reads a pipe"
