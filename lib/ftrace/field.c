// SPDX-License-Identifier: GPL-2.0
/* A tracepoint field's offset and size from its tracefs format (field.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/events.h>
#include "ftrace/field.h"

int lupe_tp_field_find(const char *sys, const char *event, const char *name, struct tp_field *f)
{
	const char *dir = lupe_tracefs_dir();
	char path[512], line[512];
	size_t len = strlen(name);
	int err = -ENOENT;
	FILE *fp;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys, event);
	fp = fopen(path, "r");
	if (!fp)
		return -ENOENT;
	while (fgets(line, sizeof(line), fp)) {
		/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;..." */
		char *semi = strchr(line, ';'), *p, *o, *s;

		if (strncmp(line, "\tfield:", 7) || !semi)
			continue;
		*semi = 0;
		p = strchr(line, '[');
		if (p)
			*p = 0;
		p = strrchr(line, ' ');
		if (!p || strlen(p + 1) != len || memcmp(p + 1, name, len))
			continue;
		o = strstr(semi + 1, "offset:");
		s = strstr(semi + 1, "size:");
		if (!o || !s)
			continue;
		f->offset = atoi(o + 7);
		f->size = atoi(s + 5);
		err = 0;
		break;
	}
	fclose(fp);
	return err;
}
