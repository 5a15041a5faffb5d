// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints interleaved in lupe trace: their fields printed by
 * libtraceevent from the live tracefs formats, as perf script prints them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <lupe/events.h>
#include "data/tracing-data.h"
#include "trace/internal.h"
#include "util/util.h"

static struct tep_handle *tep;

int lupe_tp_load_format(const char *sys, const char *name)
{
	const char *tracefs = lupe_tracefs_dir();
	char path[PATH_MAX], *text;
	size_t len;
	int err = 0;

	if (!tracefs)
		return -errno;
	if (!tep) {
		tep = tep_alloc();
		if (!tep)
			return -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracefs, sys, name);
	text = lupe_read_whole_file(path, &len);
	if (!text)
		return -errno;
	if (tep_parse_event(tep, text, len, sys))
		err = -LUPE_ERR_FORMAT;
	free(text);
	return err;
}

int lupe_tracepoint_format(const void *raw, size_t len, char *buf, size_t size)
{
	unsigned short id;
	struct tep_event *e;

	if (size)
		buf[0] = '\0';
	if (!tep || len < sizeof(id))
		return 0;
	memcpy(&id, raw, sizeof(id));
	e = tep_find_event(tep, id);
	if (!e)
		return 0;
	return lupe_tep_print_info(tep, 0, raw, len, buf, size);
}
