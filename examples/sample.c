// SPDX-License-Identifier: GPL-2.0
/*
 * sample: sample a child and print its top symbols, with lupe_sampler.
 *
 *   sample [-e EVENT] [-n TOP] -- CMD [ARGS...]
 *
 * starts CMD held before exec, samples it (default task-clock at 4000 Hz,
 * following its children) from its exec to its exit, and prints the TOP
 * (default 10) symbols by share of samples: "percent  symbol  dso".
 * Build: cc sample.c $(pkg-config --cflags --libs lupe)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/lupe.h>

struct entry {
	const char *sym, *dso; /* owned by the sampler's session: they outlive the callback */
	unsigned long n;
};

struct top {
	struct entry *e;
	size_t nr, alloc;
	unsigned long total, lost;
};

static int on_record(const struct lupe_rec *r, void *arg)
{
	struct top *t = arg;
	const char *sym, *dso;
	size_t i;

	if (r->type == PERF_RECORD_LOST || r->type == PERF_RECORD_LOST_SAMPLES)
		t->lost += r->lost.lost;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	sym = r->sym ? r->sym : "[unknown]";
	dso = r->dso ? r->dso : "[unknown]";
	t->total++;
	for (i = 0; i < t->nr; i++)
		if (t->e[i].sym == sym || (!strcmp(t->e[i].sym, sym) && !strcmp(t->e[i].dso, dso)))
			break;
	if (i == t->nr) {
		if (t->nr == t->alloc) {
			t->alloc = t->alloc ? 2 * t->alloc : 64;
			t->e = realloc(t->e, t->alloc * sizeof(*t->e));
			if (!t->e)
				return -1;
		}
		t->e[t->nr++] = (struct entry){ sym, dso, 0 };
	}
	t->e[i].n++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : strcmp(x->sym, y->sym);
}

int main(int argc, char **argv)
{
	const char *event = "task-clock";
	LUPE_OPTS(lupe_sampler_opts, o, .enable_on_exec = 1);
	struct lupe_workload wl = { .pid = -1 };
	struct lupe_sampler *s;
	struct top t = { 0 };
	int opt, ntop = 10, err;

	while ((opt = getopt(argc, argv, "e:n:")) != -1) {
		if (opt == 'e')
			event = optarg;
		else if (opt == 'n')
			ntop = atoi(optarg);
		else
			return 129;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: sample [-e EVENT] [-n TOP] -- CMD [ARGS...]\n");
		return 129;
	}
	err = lupe_workload_prepare(&wl, argv + optind);
	if (err) {
		fprintf(stderr, "sample: cannot start '%s': %s\n", argv[optind], lupe_strerror(err));
		return 1;
	}
	s = lupe_sampler_new(event, wl.pid, -1, &o);
	if (!s) {
		fprintf(stderr, "sample: %s\n", lupe_last_error());
		lupe_workload_abort(&wl);
		return 1;
	}
	err = lupe_workload_start(&wl);
	if (err) {
		fprintf(stderr, "sample: cannot run '%s': %s\n", argv[optind], lupe_strerror(err));
		lupe_sampler_delete(s);
		return 1;
	}
	err = lupe_sampler_read(s, on_record, &t);
	lupe_workload_wait(&wl);
	if (err < 0) {
		fprintf(stderr, "sample: %s\n", lupe_last_error());
		lupe_sampler_delete(s);
		return 1;
	}
	qsort(t.e, t.nr, sizeof(*t.e), by_count);
	printf("# %lu samples of %s, %lu lost\n", t.total, event, t.lost);
	for (size_t i = 0; i < t.nr && (int)i < ntop; i++) {
		const char *base = strrchr(t.e[i].dso, '/');

		printf("%6.2f%%  %-30s %s\n", 100.0 * t.e[i].n / t.total, t.e[i].sym,
		       base ? base + 1 : t.e[i].dso);
	}
	lupe_sampler_delete(s);
	free(t.e);
	return 0;
}
