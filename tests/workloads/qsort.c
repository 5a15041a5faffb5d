// SPDX-License-Identifier: GPL-2.0
/*
 * qsort: a hot path through libc's qsort and its comparison callback, so
 * that unwinding must go through libc frames (no frame pointers, .eh_frame
 * only) back into the program.
 *
 *   main -> sort_many -> qsort -> (libc msort frames) -> cmp_points
 *
 * Usage: qsort [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>

struct point {
	double x, y;
};

int cmp_points(const void *a, const void *b)
{
	const struct point *p = a, *q = b;
	volatile double da = p->x * p->x + p->y * p->y, db = q->x * q->x + q->y * q->y;

	return (da > db) - (da < db);
}

unsigned long sort_many(int rounds)
{
	enum { N = 20000 };
	static struct point v[N];
	unsigned long seed = 1, sum = 0;

	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i].x = (double)(seed >> 40);
			v[i].y = (double)((seed >> 20) & 0xfffff);
		}
		qsort(v, N, sizeof(*v), cmp_points);
		sum += (unsigned long)v[0].x;
	}
	return sum;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 150;

	printf("%lu\n", sort_many(rounds) & 1);
	return 0;
}
