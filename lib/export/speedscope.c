// SPDX-License-Identifier: GPL-2.0
/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * the functions as shared frames, and a "sampled" profile per thread of the
 * main event (the first sample's), each distinct stack once with its
 * weight (the period, in nanoseconds for clock events).
 */
#include <stdlib.h>
#include <string.h>
#include "export/profile.h"
#include "util/util.h"

int lupe_profile_write_speedscope(const struct lupe_profile *p, FILE *out)
{
	uint32_t *thread_tid = NULL, *tids, *path;
	size_t nr_tids = 0;
	uint32_t ev = p->first_event != LUPE_PROF_NONE ? p->first_event : 0;
	const struct lupe_prof_event *e = p->nr_events ? &p->events[ev] : NULL;
	const char *unit = e && e->time_based ? "nanoseconds" : "none";
	char buf[64];

	if (!(tids = lupe_prof_tids(p, &nr_tids, &thread_tid)))
		return -ENOMEM;
	if (!(path = malloc((p->nr_nodes + 1) * sizeof(*path)))) {
		free(tids);
		free(thread_tid);
		return -ENOMEM;
	}
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"lupe\",\"name\":\"", out);
	lupe_json_str(out, e ? e->name : "profile");
	fputs("\",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < p->nr_funcs; i++) {
		const struct lupe_prof_func *f = &p->funcs[i];

		fputs(i ? ",\n{\"name\":\"" : "\n{\"name\":\"", out);
		lupe_json_str(out, lupe_prof_func_name(p, (uint32_t)i, buf, sizeof(buf)));
		fputc('"', out);
		if (f->dso != LUPE_PROF_NONE) {
			fputs(",\"file\":\"", out);
			lupe_json_str(out, p->dsos[f->dso].name);
			fputc('"', out);
		}
		fputc('}', out);
	}
	fputs("]},\n\"profiles\":[", out);
	for (size_t k = 0; k < nr_tids; k++) {
		const struct lupe_prof_thread *t = &p->threads[tids[k]];
		uint64_t total = 0;
		int first = 1;

		for (size_t i = 0; i < p->nr_aggs; i++)
			if (p->aggs[i].event == ev && thread_tid[p->aggs[i].thread] == k)
				total += e && e->has_period ? p->aggs[i].period : p->aggs[i].count;
		fprintf(out, "%s{\"type\":\"sampled\",\"name\":\"", k ? ",\n" : "\n");
		lupe_json_str(out, t->comm);
		fprintf(out, " (%d/%d)\",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
			t->pid, t->tid, unit, (unsigned long long)total);
		for (size_t i = 0; i < p->nr_aggs; i++) {
			const struct lupe_prof_agg *a = &p->aggs[i];
			size_t n = 0;

			if (a->event != ev || thread_tid[a->thread] != k)
				continue;
			for (uint32_t nd = a->node; nd != LUPE_PROF_NONE; nd = p->nodes[nd].parent)
				path[n++] = p->nodes[nd].func;
			fputs(first ? "[" : ",[", out);
			first = 0;
			/* outermost first */
			while (n--)
				fprintf(out, "%u%s", path[n], n ? "," : "");
			fputc(']', out);
		}
		fputs("],\"weights\":[", out);
		first = 1;
		for (size_t i = 0; i < p->nr_aggs; i++) {
			const struct lupe_prof_agg *a = &p->aggs[i];

			if (a->event != ev || thread_tid[a->thread] != k)
				continue;
			fprintf(out, "%s%llu", first ? "" : ",",
				(unsigned long long)(e && e->has_period ? a->period : a->count));
			first = 0;
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
	free(path);
	free(tids);
	free(thread_tid);
	return ferror(out) ? -EIO : 0;
}
