// SPDX-License-Identifier: GPL-2.0
/* Without libdw there are no source lines: the listing shows instructions only. */
#include <lupe/annotate.h>

int lupe_listing_add_lines(struct lupe_listing *l, const char *path)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}
