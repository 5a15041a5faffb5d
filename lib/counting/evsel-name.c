// SPDX-License-Identifier: GPL-2.0
/*
 * Event names for attrs that come without EVENT_DESC (pipe mode, old
 * files): the names perf gives them, with perf's modifier suffixes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "counting/evsel.h"

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

char *lupe_evsel_name_from_attr(const struct perf_event_attr *attr)
{
	char base[64], mod[16] = "", *out;
	const char *b = NULL;
	size_t m = 0;

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < sizeof(hw_names) / sizeof(*hw_names))
		b = hw_names[attr->config];
	else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < sizeof(sw_names) / sizeof(*sw_names))
		b = sw_names[attr->config];
	if (b)
		snprintf(base, sizeof(base), "%s", b);
	else
		snprintf(base, sizeof(base), "%s%llx", attr->type == PERF_TYPE_RAW ? "r" : "event-",
			 (unsigned long long)attr->config);
	/* perf's evsel__add_modifiers: once one level is excluded, name those counted */
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mod[m++] = 'k';
		if (!attr->exclude_user)
			mod[m++] = 'u';
		if (!attr->exclude_hv)
			mod[m++] = 'h';
	}
	for (unsigned i = 0; i < attr->precise_ip && m < sizeof(mod) - 1; i++)
		mod[m++] = 'p';
	/*
	 * H and G: perf names the host and guest counted when exclude_host is
	 * set, or exclude_guest is what it takes as the default (set once a
	 * level is excluded or precision asked, else clear): the default
	 * cycles fallen back to cpu-clock is cpu-clock:pppH (Intel: perf sets
	 * exclude_guest), cpu-clock:ppp on AMD (perf clears it)
	 */
	if (attr->exclude_host ||
	    attr->exclude_guest == (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv || attr->precise_ip)) {
		if (!attr->exclude_host)
			mod[m++] = 'H';
		if (!attr->exclude_guest)
			mod[m++] = 'G';
	}
	mod[m] = 0;
	if (asprintf(&out, "%s%s%s", base, m ? ":" : "", mod) < 0)
		return NULL;
	return out;
}
