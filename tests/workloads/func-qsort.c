// SPDX-License-Identifier: GPL-2.0
/*
 * func-qsort: calls libc's qsort -n N times (default 200) on a small array,
 * for lupe stat --func libc.so.6:qsort.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = 200, c, v[256];

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c == 'n')
			n = atoi(optarg);
		else
			return 2;
	}
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < 256; k++)
			v[k] = (k * 7919 + i) % 1009;
		qsort(v, 256, sizeof(v[0]), cmp);
	}
	return v[0] > v[255];
}
