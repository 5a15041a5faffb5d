// SPDX-License-Identifier: GPL-2.0
/* The one way liblupe grows an array it appends to (lupe_grow in util.h). */
#include <stdint.h>
#include <stdlib.h>
#include "util/util.h"

int lupe_grow(void *v, size_t *cap, size_t n, size_t sz)
{
	void **pv = v;
	size_t c = *cap ? *cap : 64;
	void *nv;

	if (n <= *cap)
		return 0;
	while (c < n) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (sz && c > SIZE_MAX / sz)
		return -ENOMEM;
	nv = realloc(*pv, c * sz);
	if (!nv)
		return -ENOMEM;
	*pv = nv;
	*cap = c;
	return 0;
}
