// SPDX-License-Identifier: GPL-2.0
/* Without libdw there are no source lines and no inlined frames. */
#include <stdlib.h>
#include "symbols/srcline.h"
#include "util/util.h"

struct lupe_srcline {
	int unused;
};

struct lupe_srcline *lupe_srcline_new(void)
{
	return calloc(1, sizeof(struct lupe_srcline));
}

void lupe_srcline_delete(struct lupe_srcline *c)
{
	free(c);
}

int lupe_srcline_inlines(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr,
			 const struct lupe_symbol *sym, const struct lupe_inline_frame **out)
{
	return 0;
}

int lupe_srcline_find(struct lupe_srcline *c, const struct lupe_dso *dso, uint64_t vaddr, int depth,
		      const char **file, unsigned *line)
{
	return -ENOENT;
}

void lupe_srcline_release(struct lupe_srcline *c)
{
}
