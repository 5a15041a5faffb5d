// SPDX-License-Identifier: GPL-2.0
/* Without libtraceevent, a tracepoint's fields are not decoded: its size is shown. */
#include <stdio.h>
#include "trace/internal.h"

int lupe_tp_load_format(const char *sys, const char *name)
{
	return 0;
}

int lupe_tracepoint_format(const void *raw, size_t len, char *buf, size_t size)
{
	return snprintf(buf, size, "%zu bytes (lupe was built without libtraceevent)", len);
}
