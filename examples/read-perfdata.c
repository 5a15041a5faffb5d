// SPDX-License-Identifier: GPL-2.0
/*
 * read-perfdata: the top symbols of a perf.data, with lupe_reader.
 *
 *   read-perfdata [FILE] [TOP]
 *
 * reads FILE (default perf.data; "-" reads a pipe) and prints the TOP
 * (default 10) symbols by share of the sampled period, as
 * `lupe report --stdio --sort sym` ranks them: "percent  [k|.] symbol".
 * Build: cc read-perfdata.c $(pkg-config --cflags --libs lupe)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/lupe.h>

struct entry {
	char *sym; /* the name, or the address when unresolved */
	int kernel;
	uint64_t period;
};

struct top {
	struct entry *e;
	size_t nr, alloc;
	uint64_t total;
	unsigned long samples;
};

static int on_record(const struct lupe_rec *r, void *arg)
{
	struct top *t = arg;
	char addr[32];
	const char *sym = r->sym;
	size_t i;

	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	if (!sym) {
		snprintf(addr, sizeof(addr), "0x%016" PRIx64, r->ip);
		sym = addr;
	}
	t->total += r->period;
	t->samples++;
	for (i = 0; i < t->nr; i++)
		if (t->e[i].kernel == r->kernel && !strcmp(t->e[i].sym, sym))
			break;
	if (i == t->nr) {
		if (t->nr == t->alloc) {
			t->alloc = t->alloc ? 2 * t->alloc : 64;
			t->e = realloc(t->e, t->alloc * sizeof(*t->e));
			if (!t->e)
				return -1;
		}
		t->e[t->nr++] = (struct entry){ strdup(sym), r->kernel, 0 };
	}
	t->e[i].period += r->period;
	return 0;
}

static int by_period(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->period < y->period ? 1 : x->period > y->period ? -1 : strcmp(x->sym, y->sym);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "perf.data";
	int ntop = argc > 2 ? atoi(argv[2]) : 10;
	struct lupe_reader *r = lupe_reader_open(path);
	struct top t = { 0 };

	if (!r) {
		fprintf(stderr, "read-perfdata: %s\n", lupe_last_error());
		return 1;
	}
	if (lupe_reader_read(r, on_record, &t) < 0) {
		fprintf(stderr, "read-perfdata: %s\n", lupe_last_error());
		lupe_reader_delete(r);
		return 1;
	}
	lupe_reader_delete(r);
	qsort(t.e, t.nr, sizeof(*t.e), by_period);
	printf("# %lu samples\n", t.samples);
	for (size_t i = 0; i < t.nr; i++) {
		if ((int)i < ntop)
			printf("%6.2f%%  [%c] %s\n", t.total ? 100.0 * t.e[i].period / t.total : 0.0,
			       t.e[i].kernel ? 'k' : '.', t.e[i].sym);
		free(t.e[i].sym);
	}
	free(t.e);
	return 0;
}
