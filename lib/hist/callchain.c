// SPDX-License-Identifier: GPL-2.0
/*
 * perf's --max-stack on a completed callchain (see lupe/hist.h), for
 * report's histogram and script's chains alike, and its default: the
 * sysctl kernel.perf_event_max_stack of the machine reading the file.
 */
#include <stdio.h>
#include <lupe/hist.h>
#include <lupe/session.h>

/* perf's PERF_MAX_STACK_DEPTH, its default where the sysctl cannot be read */
#define MAX_STACK_DEPTH 127

unsigned lupe_callchain_max(int max_stack)
{
	static unsigned sysctl;

	if (max_stack > 0)
		return (unsigned)max_stack;
	if (max_stack < 0)
		return 0;
	if (!sysctl) {
		FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "re");
		unsigned v = 0;

		if (!f || fscanf(f, "%u", &v) != 1 || !v)
			v = MAX_STACK_DEPTH;
		if (f)
			fclose(f);
		sysctl = v;
	}
	return sysctl;
}

/*
 * Copy ips[from, to) into out at n: every context marker, and the
 * addresses from the first-th on, max of them at most. stop: walking
 * from the innermost (callee order), perf stops once it has max
 * addresses, and a marker past them, a corrupt one too, is never looked
 * at; in caller order every marker counts (a corrupt one drops the chain).
 */
static uint32_t keep_addrs(const uint64_t *ips, uint32_t from, uint32_t to, uint32_t first,
			   uint32_t max, int stop, uint64_t *out, uint32_t n)
{
	uint32_t seen = 0, kept = 0;

	for (uint32_t i = from; i < to; i++) {
		if (stop && max && kept == max)
			break;
		if (ips[i] >= PERF_CONTEXT_MAX)
			out[n++] = ips[i];
		else if (seen++ >= first && kept < max)
			out[n++] = ips[i], kept++;
	}
	return n;
}

uint32_t lupe_callchain_cut(const uint64_t *ips, uint32_t nr, unsigned max, int caller,
			    uint64_t *out, int *lost_ip)
{
	uint32_t split = 0, rec = 0, n;

	while (split < nr && ips[split] != LUPE_CONTEXT_USER_UNWOUND)
		rec += ips[split++] < PERF_CONTEXT_MAX;
	/* perf walks the recorded chain from the caller end in caller order */
	if (caller && rec > max) {
		n = keep_addrs(ips, 0, split, rec - max, max, 0, out, 0);
		*lost_ip = 1;
	} else {
		n = keep_addrs(ips, 0, split, 0, max, !caller, out, 0);
		*lost_ip = !max;
	}
	/* perf's unwinder stops after max frames, the innermost */
	return keep_addrs(ips, split, nr, 0, max, 1, out, n);
}
