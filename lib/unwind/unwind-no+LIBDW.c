// SPDX-License-Identifier: GPL-2.0
/* Without libdw there is no unwinder: samples keep their recorded callchain. */
#include <stdlib.h>
#include "unwind/unwind.h"
#include "util/util.h"

struct lupe_unwinder {
	int unused;
};

int lupe_unwind_supported(void)
{
	return 0;
}

struct lupe_unwinder *lupe_unwinder_new(void)
{
	return calloc(1, sizeof(struct lupe_unwinder));
}

void lupe_unwinder_delete(struct lupe_unwinder *u)
{
	free(u);
}

int lupe_unwind_user(struct lupe_unwinder *u, struct lupe_thread *t, const struct lupe_sample *s,
		     uint64_t *ips, int max)
{
	return -ENOTSUP;
}
