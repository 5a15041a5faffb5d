// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint filters (--filter): the string rides on the event and is set on
 * every fd after open with PERF_EVENT_IOC_SET_FILTER. The kernel answers a
 * bad filter with a bare EINVAL, so the fields of the event's tracefs format
 * are read here to say which word of the filter is not a field.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <lupe/events.h>
#include "events/internal.h"
#include "util/util.h"

int lupe_events_set_filter(struct lupe_event_list *list, size_t from, const char *filter)
{
	int set = 0;

	for (size_t i = from; i < list->nr; i++) {
		struct lupe_event *ev = &list->events[i];
		char *dup;

		if (ev->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		dup = strdup(filter);
		if (!dup)
			return -ENOMEM;
		free(ev->filter);
		ev->filter = dup;
		set = 1;
	}
	return set ? 0 : -EINVAL;
}

/*
 * Any refusal is the filter's, whatever errno says: an EPERM here (an LSM,
 * a seccomp policy) is no perf_event_paranoid matter, the event is open.
 * So it is LUPE_ERR_FILTER, with the kernel's reason in lupe_last_error()
 * for what is not a bad filter (perf: "failed to set filter ... with 1").
 */
int lupe_event_fd_set_filter(int fd, const char *filter)
{
	char why[128];
	int e;

	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) == 0)
		return 0;
	e = errno;
	if (e == EINVAL)
		return lupe_set_error(-LUPE_ERR_FILTER, "the kernel refused the filter");
	snprintf(why, sizeof(why), "%s", strerror(e));
	why[0] = (char)tolower((unsigned char)why[0]);
	return lupe_set_error(-LUPE_ERR_FILTER, "failed to set filter \"%s\": %s", filter, why);
}

/* "\tfield:unsigned short common_type;\toffset:0;..." -> "common_type" */
static int field_name(const char *line, char *out, size_t size)
{
	const char *p = strstr(line, "field:"), *end, *start;

	if (!p)
		return 0;
	end = strchr(p, ';');
	if (!end)
		return 0;
	/* an array "char comm[16]" names "comm" */
	for (const char *b = p; b < end; b++)
		if (*b == '[') {
			end = b;
			break;
		}
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > p && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
		start--;
	if (start == end || (size_t)(end - start) >= size)
		return 0;
	memcpy(out, start, end - start);
	out[end - start] = '\0';
	return 1;
}

char **lupe_tracepoint_fields(const char *name)
{
	const char *tracefs = lupe_tracefs_dir(), *colon = strchr(name, ':');
	char path[PATH_MAX], line[512], field[128];
	char **v = NULL;
	size_t n = 0, cap = 0;
	FILE *f;

	if (!tracefs)
		return NULL;
	if (!colon || strchr(name, '/'))
		return err_ptr(-ENOENT);
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", tracefs, (int)(colon - name),
		 name, colon + 1);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (!field_name(line, field, sizeof(field)))
			continue;
		if (lupe_strv_push(&v, &n, &cap, field)) {
			fclose(f);
			lupe_strv_free(v, n);
			return err_ptr(-ENOMEM);
		}
	}
	fclose(f);
	if (lupe_strv_push(&v, &n, &cap, "") ) {
		lupe_strv_free(v, n);
		return err_ptr(-ENOMEM);
	}
	/* NULL-terminated: the empty last entry becomes the terminator */
	free(v[n - 1]);
	v[n - 1] = NULL;
	return v;
}

void lupe_tracepoint_fields_delete(char **fields)
{
	for (size_t i = 0; fields && fields[i]; i++)
		free(fields[i]);
	free(fields);
}

static int known(const char *word, char *const *fields)
{
	/* fields every event has in a filter, besides its format's */
	static const char *const extra[] = { "cpu", "CPU", "comm", "COMM", NULL };

	for (size_t i = 0; fields && fields[i]; i++)
		if (!strcmp(word, fields[i]))
			return 1;
	for (size_t i = 0; extra[i]; i++)
		if (!strcmp(word, extra[i]))
			return 1;
	return 0;
}

int lupe_filter_unknown_field(const char *filter, char *const *fields, char *out, size_t size)
{
	const char *p = filter;

	while (*p) {
		const char *start, *q;
		char word[128];
		size_t len;

		if (*p == '"' || *p == '\'') { /* a string operand */
			char quote = *p++;

			while (*p && *p != quote)
				p++;
			if (*p)
				p++;
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_') {
			/* numbers run through here, letters of 0x1f included */
			while (isalnum((unsigned char)*p))
				p++;
			if (*p && !isalnum((unsigned char)*p))
				p++;
			continue;
		}
		start = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		len = p - start;
		for (q = p; isspace((unsigned char)*q); q++)
			;
		/* a field is what an operator follows; other words are values */
		if (!*q || !strchr("=!<>&~", *q) || len >= sizeof(word))
			continue;
		memcpy(word, start, len);
		word[len] = '\0';
		if (!known(word, fields)) {
			snprintf(out, size, "%s", word);
			return 1;
		}
	}
	return 0;
}
