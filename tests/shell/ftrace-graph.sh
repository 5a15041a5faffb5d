#!/usr/bin/env bash
# lupe ftrace -G says why function_graph is unavailable when the kernel lacks it (exit 1), a bad option exits 129, and no tracefs instance is left behind
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
if grep -qw function_graph /sys/kernel/tracing/available_tracers; then
	skip "this kernel has function_graph: the unavailable case cannot be seen here"
fi
expect_rc 1 "$LUPE" ftrace -G vfs_read -- true 2> err.txt
grep -q "function_graph tracer is not available" err.txt || fail "-G: $(cat err.txt)"
grep -q "lupe ftrace -T FUNC" err.txt || fail "-G does not say what works instead: $(cat err.txt)"
expect_rc 1 "$LUPE" ftrace -- true 2> err.txt
grep -q "function_graph" err.txt || fail "no -T (perf's default tracer): $(cat err.txt)"
expect_rc 129 "$LUPE" ftrace -T vfs_read -m 12Q -- true 2> /dev/null
expect_rc 129 "$LUPE" ftrace -T vfs_read 2> err.txt
grep -q "say what to trace" err.txt || fail "nothing to trace: $(cat err.txt)"
ls /sys/kernel/tracing/instances | grep -q "^lupe-" && fail "a lupe tracefs instance was left behind"
ok "-G explains, usage errors"
