// SPDX-License-Identifier: GPL-2.0
/* What to say about a --filter that has no tracepoint or that the kernel refuses. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "filter-error.h"

int ui_events_set_filter(struct lupe_event_list *list, size_t from, const char *spec,
			 const char *filter)
{
	int err = lupe_events_set_filter(list, from, filter);

	if (err == -EINVAL)
		fprintf(stderr, "lupe: cannot filter '%s': --filter applies to tracepoints "
			"(give it after -e SYSTEM:EVENT)\n", spec);
	else if (err)
		fprintf(stderr, "lupe: cannot filter '%s': %s\n", spec, strerror(-err));
	return err ? -1 : 0;
}

void ui_filter_error(const char *event, const char *filter)
{
	char **fields = lupe_tracepoint_fields(event);
	char bad[128];
	int unknown = fields && lupe_filter_unknown_field(filter, fields, bad, sizeof(bad));

	/* refused for another reason than its text (EPERM, EEXIST): perf's words and the reason */
	if (!unknown && !strncmp(lupe_last_error(), "failed to set filter", 20)) {
		fprintf(stderr, "lupe: cannot filter '%s': %s\n", event, lupe_last_error());
		lupe_tracepoint_fields_delete(fields);
		return;
	}

	if (unknown)
		fprintf(stderr, "lupe: cannot filter '%s' with '%s': '%s' is not a field of the event; "
			"its fields are:", event, filter, bad);
	else
		fprintf(stderr, "lupe: cannot filter '%s' with '%s': the kernel refused it "
			"(check the operators and values against the fields:", event, filter);
	for (size_t i = 0; fields && fields[i]; i++)
		fprintf(stderr, "%s %s", i ? "," : "", fields[i]);
	fprintf(stderr, "%s\n", unknown ? "" : ")");
	lupe_tracepoint_fields_delete(fields);
}
