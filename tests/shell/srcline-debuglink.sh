#!/usr/bin/env bash
# script's srcline of a stripped program finds its DWARF through .gnu_debuglink in .debug/ beside it (libdwfl's search); with no debug file and DEBUGINFOD_URLS unset it loads no libdebuginfod (7 MB of libraries), with a server named it does
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v cc >/dev/null && command -v objcopy >/dev/null || skip "no C compiler or objcopy to build the test program"
cat > spin.c <<'EOF'
volatile unsigned long sink;
__attribute__((noinline)) void spin(void)
{
	for (unsigned long i = 0; i < 300000000UL; i++)
		sink += i;
}
int main(void)
{
	spin();
	return 0;
}
EOF
cc -g -O1 -Wl,--build-id -o spin spin.c || fail "cc failed"
mkdir .debug
objcopy --only-keep-debug spin .debug/spin.debug || fail "objcopy --only-keep-debug failed"
objcopy --strip-debug --add-gnu-debuglink=.debug/spin.debug spin || fail "objcopy --strip-debug failed"
"$PERF" record -q -e cpu-clock -F 500 -o s.data -- "$TMPD/spin" >/dev/null 2>&1 || skip "perf record failed"
line=$(grep -n 'sink += i' spin.c | cut -d: -f1)

# lines of spin's samples, and whether libdebuginfod was loaded (ld.so's LD_DEBUG=libs)
run() {
	LD_DEBUG=libs "$LUPE" script -i s.data -F ip,sym,srcline 2>ld.log > out.txt || fail "script failed: $(tail -3 ld.log)"
	grep -c "spin.c:$line" out.txt
}
n=$(env -u DEBUGINFOD_URLS bash -c "$(declare -f run fail); LUPE=$LUPE run")
[ "$n" -ge 5 ] || fail "only $n samples at spin.c:$line: $(grep -A1 spin out.txt | head -6)"
ok "$n samples at spin.c:$line through .debug/spin.debug"

# no debug file anywhere: libdwfl's last step would ask debuginfod servers, and none is named
mv .debug/spin.debug moved.debug
n=$(env -u DEBUGINFOD_URLS bash -c "$(declare -f run fail); LUPE=$LUPE run")
[ "$n" -eq 0 ] || fail "$n samples at spin.c:$line with the debug file gone"
! grep -q 'libdebuginfod' ld.log || fail "libdebuginfod was loaded with DEBUGINFOD_URLS unset"
ok "debug file gone: no line, no libdebuginfod"

# the check can fail: a server named loads the client
n=$(DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_CACHE_PATH=$TMPD/cache DEBUGINFOD_TIMEOUT=2 \
	bash -c "$(declare -f run fail); LUPE=$LUPE run")
grep -q 'libdebuginfod' ld.log || fail "DEBUGINFOD_URLS named a server but libdebuginfod was not loaded"
ok "a server named: libdebuginfod loaded"
