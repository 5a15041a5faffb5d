// SPDX-License-Identifier: GPL-2.0
/*
 * The Firefox Profiler's Gecko profile JSON (the "raw" format Firefox
 * itself emits and profiler.firefox.com imports): meta with categories,
 * one thread per tid named by its last comm, each with its own string,
 * frame and stack tables (tables are columns described by a schema),
 * samples as [stack, time in ms, 0] (those of the first sample's event),
 * and a marker for lost samples.
 * Each thread's tables hold only what its samples use.
 */
#include <stdlib.h>
#include <string.h>
#include "export/profile.h"
#include "util/util.h"

#define CAT_USER 0
#define CAT_KERNEL 1

struct gthread {
	int64_t *stack_of;  /* model node -> thread stack, -1 */
	int64_t *frame_of;  /* model func -> thread frame, -1 */
	uint32_t *stacks;   /* thread stack -> model node */
	uint32_t *frames;   /* thread frame -> model func */
	size_t nr_stacks, nr_frames;
};

/* The thread's stack for node, made with its callers first. */
static int64_t gstack(const struct lupe_profile *p, struct gthread *g, uint32_t node)
{
	uint32_t path[1024];
	size_t n = 0;

	if (node == LUPE_PROF_NONE)
		return -1;
	for (uint32_t nd = node; nd != LUPE_PROF_NONE && g->stack_of[nd] < 0 && n < 1024; nd = p->nodes[nd].parent)
		path[n++] = nd;
	while (n--) {
		uint32_t nd = path[n], f = p->nodes[nd].func;

		if (g->frame_of[f] < 0) {
			g->frame_of[f] = (int64_t)g->nr_frames;
			g->frames[g->nr_frames++] = f;
		}
		g->stack_of[nd] = (int64_t)g->nr_stacks;
		g->stacks[g->nr_stacks++] = nd;
	}
	return g->stack_of[node];
}

static void write_thread(const struct lupe_profile *p, struct gthread *g, uint32_t thread,
			 const uint32_t *samples, size_t nr, int first, FILE *out)
{
	const struct lupe_prof_thread *t = &p->threads[thread];
	double t0 = p->first_time / 1e6;
	char buf[64];

	fprintf(out, "%s{\"name\":\"", first ? "" : ",\n");
	lupe_json_str(out, t->comm);
	fprintf(out, "\",\"processName\":\"");
	lupe_json_str(out, t->comm);
	fprintf(out, "\",\"processType\":\"default\",\"pid\":%d,\"tid\":%d,"
		"\"registerTime\":0,\"unregisterTime\":null,\n", t->pid, t->tid);
	fputs("\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2},\"data\":[", out);
	g->nr_stacks = g->nr_frames = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct lupe_prof_sample *s = &p->samples[samples[i]];
		int64_t st = gstack(p, g, s->node);

		if (st < 0)
			fprintf(out, "%s[null,%.6f,0]", i ? "," : "", s->time / 1e6 - t0);
		else
			fprintf(out, "%s[%lld,%.6f,0]", i ? "," : "", (long long)st, s->time / 1e6 - t0);
	}
	fputs("]},\n\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,"
	      "\"category\":4,\"data\":5},\"data\":[", out);
	/* the lost samples are said once, on the first thread (string 0 below) */
	if (first && p->nr_lost)
		fprintf(out, "[0,0,%.6f,1,0,{\"type\":\"Text\",\"name\":\"lost %llu samples\"}]",
			(p->last_time - p->first_time) / 1e6, (unsigned long long)p->nr_lost);
	fputs("]},\n\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[", out);
	for (size_t i = 0; i < g->nr_stacks; i++) {
		const struct lupe_prof_node *n = &p->nodes[g->stacks[i]];

		if (n->parent == LUPE_PROF_NONE)
			fprintf(out, "%s[null,%lld]", i ? "," : "", (long long)g->frame_of[n->func]);
		else
			fprintf(out, "%s[%lld,%lld]", i ? "," : "", (long long)g->stack_of[n->parent],
				(long long)g->frame_of[n->func]);
	}
	fputs("]},\n\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,"
	      "\"implementation\":3,\"optimizations\":4,\"line\":5,\"column\":6,\"category\":7,"
	      "\"subcategory\":8},\"data\":[", out);
	/* string i + 1 is frame i's location */
	for (size_t i = 0; i < g->nr_frames; i++)
		fprintf(out, "%s[%zu,false,0,null,null,null,null,%d,0]", i ? "," : "", i + 1,
			p->funcs[g->frames[i]].kind == LUPE_PROF_KERNEL ? CAT_KERNEL : CAT_USER);
	fputs("]},\n\"stringTable\":[\"", out);
	if (first && p->nr_lost)
		fputs("lost samples", out);
	fputc('"', out);
	for (size_t i = 0; i < g->nr_frames; i++) {
		const struct lupe_prof_func *f = &p->funcs[g->frames[i]];

		fputs(",\"", out);
		lupe_json_str(out, lupe_prof_func_name(p, g->frames[i], buf, sizeof(buf)));
		if (f->dso != LUPE_PROF_NONE) {
			fputs(" (in ", out);
			lupe_json_str(out, p->dsos[f->dso].short_name);
			fputc(')', out);
		}
		fputc('"', out);
	}
	fputs("]}", out);
	for (size_t i = 0; i < g->nr_stacks; i++)
		g->stack_of[g->stacks[i]] = -1;
	for (size_t i = 0; i < g->nr_frames; i++)
		g->frame_of[g->frames[i]] = -1;
}

int lupe_profile_write_gecko(const struct lupe_profile *p, FILE *out)
{
	struct gthread g = { 0 };
	uint32_t *thread_tid = NULL, *tids, *order = NULL;
	size_t nr_tids = 0, *start = NULL;
	/* a timeline of one event: the first sample's (not a tracepoint's) */
	uint32_t ev = p->first_event != LUPE_PROF_NONE ? p->first_event : 0;
	int err = -ENOMEM;

	if (!(tids = lupe_prof_tids(p, &nr_tids, &thread_tid)))
		return -ENOMEM;
	g.stack_of = malloc((p->nr_nodes + 1) * sizeof(*g.stack_of));
	g.frame_of = malloc((p->nr_funcs + 1) * sizeof(*g.frame_of));
	g.stacks = malloc((p->nr_nodes + 1) * sizeof(*g.stacks));
	g.frames = malloc((p->nr_funcs + 1) * sizeof(*g.frames));
	order = malloc((p->nr_samples + 1) * sizeof(*order));
	start = calloc(nr_tids + 2, sizeof(*start));
	if (!g.stack_of || !g.frame_of || !g.stacks || !g.frames || !order || !start)
		goto out;
	memset(g.stack_of, 0xff, (p->nr_nodes + 1) * sizeof(*g.stack_of));
	memset(g.frame_of, 0xff, (p->nr_funcs + 1) * sizeof(*g.frame_of));
	/* the samples of each tid, in time order: a counting sort */
	for (size_t i = 0; i < p->nr_samples; i++)
		if (p->samples[i].event == ev)
			start[thread_tid[p->samples[i].thread] + 2]++;
	for (size_t i = 2; i < nr_tids + 2; i++)
		start[i] += start[i - 1];
	for (size_t i = 0; i < p->nr_samples; i++)
		if (p->samples[i].event == ev)
			order[start[thread_tid[p->samples[i].thread] + 1]++] = (uint32_t)i;

	fprintf(out, "{\"meta\":{\"version\":24,\"interval\":%.6f,\"startTime\":%.6f,\"shutdownTime\":null,"
		"\"processType\":0,\"product\":\"lupe\",\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,"
		"\"asyncstack\":0,\"presymbolicated\":true,\"platform\":\"Linux\",\"markerSchema\":[],"
		"\"categories\":[{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
		"{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]},\n"
		"\"libs\":[],\"pausedRanges\":[],\"processes\":[],\n\"threads\":[\n",
		p->nr_samples > 1 && p->last_time > p->first_time ?
			(p->last_time - p->first_time) / 1e6 / (p->nr_samples - 1) : 1.0,
		p->first_time / 1e6);
	for (size_t k = 0; k < nr_tids; k++)
		write_thread(p, &g, tids[k], order + start[k], start[k + 1] - start[k], k == 0, out);
	fputs("\n]}\n", out);
	err = ferror(out) ? -EIO : 0;
out:
	free(g.stack_of);
	free(g.frame_of);
	free(g.stacks);
	free(g.frames);
	free(order);
	free(start);
	free(tids);
	free(thread_tid);
	return err;
}
