#!/usr/bin/env bash
# a --filter the kernel refuses with EPERM (here an ioctl shim; an LSM or seccomp policy does it for real) is worded as perf's "failed to set filter" with the reason, by record and stat, never as a perf_event_paranoid matter (the event opened)
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
command -v cc >/dev/null || skip "no C compiler for the ioctl shim"
cat > shim.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
/* PERF_EVENT_IOC_SET_FILTER refused with EPERM, every other ioctl passed on */
int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == PERF_EVENT_IOC_SET_FILTER) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	return real(fd, req, arg);
}
C
cc -shared -fPIC -o shim.so shim.c -ldl || skip "cannot build the ioctl shim"
ev=sched:sched_switch
for c in "record -q -o f.data" stat; do
	LD_PRELOAD=$PWD/shim.so "$LUPE" $c -e $ev --filter 'prev_pid > 0' -- true > out 2>&1 &&
		fail "$c: a refused filter was not an error"
	grep -q "cannot filter '$ev': failed to set filter \"prev_pid > 0\": operation not permitted" out ||
		fail "$c: the refusal is not perf's 'failed to set filter' with its reason: $(cat out)"
	grep -q paranoid out && fail "$c: a refused filter is blamed on perf_event_paranoid: $(cat out)"
done
# the shim is what refuses: without it the same filter is set
"$LUPE" stat -e $ev --filter 'prev_pid > 0' -- true > out 2>&1 || fail "the filter fails without the shim: $(cat out)"
ok "an EPERM from SET_FILTER is 'failed to set filter' with the reason, in record and stat"
