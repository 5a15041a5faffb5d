#!/usr/bin/env bash
# an output that cannot be written for want of memory (ENOMEM from pwrite, here a shim) is worded as such by record, not as a full disk ("free the disk"); ENOSPC still is a full disk
. "$(dirname "$0")/lib/common.sh"
command -v cc >/dev/null || skip "no C compiler for the write shim"
cat > shim.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* pwrite to a file whose name holds $SHIM_NAME fails with $SHIM_ERRNO */
static int refused(int fd)
{
	char link[64], path[PATH_MAX];
	const char *name = getenv("SHIM_NAME");
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0 || !name)
		return 0;
	path[n] = 0;
	return strstr(path, name) != NULL;
}
#define SHIM(fn) \
ssize_t fn(int fd, const void *buf, size_t len, off_t off) \
{ \
	static ssize_t (*real)(int, const void *, size_t, off_t); \
	if (refused(fd)) { errno = atoi(getenv("SHIM_ERRNO")); return -1; } \
	if (!real) real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, #fn); \
	return real(fd, buf, len, off); \
}
SHIM(pwrite)
SHIM(pwrite64)
C
cc -shared -fPIC -o shim.so shim.c -ldl || skip "cannot build the write shim"
LD_PRELOAD=$PWD/shim.so SHIM_NAME=m.data SHIM_ERRNO=12 "$LUPE" record -q -e cpu-clock -o m.data -- true > out 2>&1 &&
	fail "record succeeded though every write failed"
grep -q "cannot write 'm.data': out of memory" out || fail "ENOMEM: $(cat out)"
grep -q "free the disk\|no space" out && fail "ENOMEM is worded as a full disk: $(cat out)"
LD_PRELOAD=$PWD/shim.so SHIM_NAME=s.data SHIM_ERRNO=28 "$LUPE" record -q -e cpu-clock -o s.data -- true > out 2>&1
grep -qi "no space left\|disk full" out || fail "ENOSPC: $(cat out)"
ok "ENOMEM writing the output is out of memory, ENOSPC a full disk"
