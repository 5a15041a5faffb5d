/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LUPE_CMD_LISTEN_H
#define LUPE_CMD_LISTEN_H

#include <stddef.h>

/*
 * A TCP socket bound to spec and listening: bound here rather than in the
 * HTTP library, so that a refusal is a sentence with its reason. spec:
 * ADDR:PORT, [IPV6]:PORT, or PORT alone on 127.0.0.1 (port 0: a free
 * one); opt: the option that gives it, named in the hints. shown gets the
 * address as served (port 0: the kernel's pick); *loopback (may be NULL)
 * whether only this machine can reach it. Returns the fd, or -1 after
 * saying why.
 */
int cmd_listen(const char *spec, const char *opt, char *shown, size_t size, int *loopback);

#endif
