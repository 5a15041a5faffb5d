#!/usr/bin/env bash
# lupe ftrace -T ksys_write -- a command that writes shows its calls (name, count > 0) through a tracefs instance that is removed afterwards, and leaves the global tracer alone
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
grep -qw function /sys/kernel/tracing/available_tracers || skip "this kernel has no function tracer"
before=$(cat /sys/kernel/tracing/current_tracer)
"$LUPE" ftrace -T ksys_write -- sh -c 'for i in 1 2 3 4 5; do echo x > /dev/null; done' > out.txt 2> err.txt
rc=$?
if [ $rc != 0 ] && grep -q "does not allow function tracing" err.txt; then
	# a skip on the kernel's word, not lupe's: an instance of our own must
	# get EPERM for the same filter too
	probe=/sys/kernel/tracing/instances/ftrace-sh-$$
	mkdir "$probe" || fail "cannot make the tracefs instance $probe"
	why=$( (LC_ALL=C; echo ksys_write > "$probe/set_ftrace_filter") 2>&1 )
	rmdir "$probe"
	case $why in
	*"Operation not permitted"*) skip "$(cat err.txt)" ;;
	esac
	fail "lupe says the kernel does not allow function tracing, but ksys_write written to $probe/set_ftrace_filter gave '${why:-no error}', not EPERM: $(cat err.txt)"
fi
[ $rc = 0 ] || { cat err.txt; fail "lupe ftrace exited $rc"; }
n=$(grep -c 'ksys_write <-' out.txt)
[ "$n" -gt 0 ] || { head out.txt; fail "no ksys_write call traced"; }
ok "$n ksys_write calls"
[ "$(cat /sys/kernel/tracing/current_tracer)" = "$before" ] || fail "the global tracer changed"
ls /sys/kernel/tracing/instances | grep -q "^lupe-" && fail "a lupe tracefs instance was left behind"
expect_rc 129 "$LUPE" ftrace -T no_such_function_lupe -- true 2> err.txt
ok "instance removed, global tracer untouched"
