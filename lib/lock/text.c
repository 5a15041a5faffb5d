// SPDX-License-Identifier: GPL-2.0
/* The kernel's lock and scheduler text bounds, from /proc/kallsyms (text.h). */
#include <string.h>
#include "lock/text.h"
#include "symbols/symbols.h"

int lupe_lock_text_line(uint64_t addr, char type, const char *name, size_t len, void *arg)
{
	struct lock_text *t = arg;
	static const char *const names[] = { "__sched_text_start", "__sched_text_end",
					     "__lock_text_start", "__lock_text_end" };
	uint64_t *slot[] = { &t->sched_start, &t->sched_end, &t->lock_start, &t->lock_end };

	(void)type;
	for (int i = 0; i < 4; i++)
		if (len == strlen(names[i]) && !memcmp(name, names[i], len))
			*slot[i] = addr;
	return 0;
}

void lupe_lock_text_done(struct lock_text *t)
{
	if (!t->sched_end || !t->lock_end)
		memset(t, 0, sizeof(*t));
}

void lupe_lock_text_bounds(struct lock_text *t)
{
	memset(t, 0, sizeof(*t));
	if (lupe_kallsyms_foreach("/proc/kallsyms", lupe_lock_text_line, t))
		memset(t, 0, sizeof(*t));
	lupe_lock_text_done(t);
}

int lupe_lock_text_has(const struct lock_text *t, uint64_t ip)
{
	if (!t->sched_start)
		return 0;
	return (ip >= t->sched_start && ip < t->sched_end) ||
	       (ip >= t->lock_start && ip < t->lock_end);
}
