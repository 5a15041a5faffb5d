// SPDX-License-Identifier: GPL-2.0
/* Arrays: the one way liblupe grows one it appends to, and a --sort list into one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

int lupe_parse_sort_keys(const char *list, const char *seps, const char *const *names,
			 size_t nr_names, int *keys, int max, const char *hint)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
		size_t i;

		for (i = 0; i < nr_names && strcmp(tok, names[i]); i++)
			;
		if (i == nr_names || n == max) {
			pr_err("unknown sort key '%s' (%s)", tok, hint);
			free(copy);
			return -EINVAL;
		}
		keys[n++] = (int)i;
	}
	free(copy);
	return n;
}
