// SPDX-License-Identifier: GPL-2.0
/* libbpf's warnings and info go to lupe's log at debug level, one line each; its debug chatter nowhere. */
#include <stdio.h>
#include <string.h>
#include "bpf/libbpf-log.h"
#include "util/util.h"

int lupe_libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	pr_debug("libbpf: %s", msg);
	return 0;
}
