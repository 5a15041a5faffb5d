// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data to JSON, in perf 6.1's shape (its util/data-convert-json.c):
 * see lupe/json.h. Unlike the other exports this one writes as it reads:
 * a sample is printed when the session delivers it, so memory stays flat
 * on any file and JSON Lines streams into a pipe.
 *
 * Each frame is resolved on its own (lupe_session_resolve_ip), in the
 * address space its chain's context marker names, as perf's
 * thread__find_symbol does; the session's resolve cache makes a repeated
 * address cost one hash lookup. The text layout (tabs, one key a line) is
 * perf's too, so a diff of the two files shows what differs (measured:
 * none, on a -g and a -a recording).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <lupe/evsel.h>
#include <lupe/json.h>
#include <lupe/perfdata.h>
#include <lupe/session.h>
#include "data/format.h"
#include "export/profile.h"
#include "symbols/symbols.h"
#include "util/util.h"

struct json {
	struct lupe_tool tool;
	FILE *out;
	int lines;
	uint64_t nr;
};

/*
 * A string, escaped as the other JSON exports escape it: control bytes in
 * their six-character form, where perf writes some in two (the same JSON).
 */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	lupe_json_str(out, s);
	fputc('"', out);
}

/* Between items: perf's ",\n" and tabs, or ", " on one line. */
static void sep(const struct json *j, int comma, int depth)
{
	if (comma)
		fputc(',', j->out);
	if (j->lines) {
		if (comma)
			fputc(' ', j->out);
		return;
	}
	fputc('\n', j->out);
	for (int i = 0; i < depth; i++)
		fputc('\t', j->out);
}

static void key(const struct json *j, int comma, int depth, const char *k)
{
	sep(j, comma, depth);
	json_string(j->out, k);
	fputs(": ", j->out);
}

static void frame(struct json *j, const struct lupe_frame *f, int first)
{
	const struct lupe_dso *d = f->map ? f->map->dso : NULL;

	sep(j, !first, 4);
	fputc('{', j->out);
	key(j, 0, 5, "ip");
	fprintf(j->out, "\"0x%" PRIx64 "\"", f->ip);
	if (f->sym && f->sym->name && f->sym->name[0]) {
		key(j, 1, 5, "symbol");
		json_string(j->out, f->sym->name);
		if (d && d->short_name && d->short_name[0]) {
			key(j, 1, 5, "dso");
			json_string(j->out, d->short_name);
		}
	}
	sep(j, 0, 4);
	fputc('}', j->out);
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *t,
		     const struct perf_event_header *ev)
{
	struct json *j = (struct json *)tool;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct lupe_frame f;
	int first = 1;

	if (j->lines)
		fputc('{', j->out);
	else
		fputs(j->nr ? ",\n\t\t{" : "\n\t\t{", j->out);
	j->nr++;
	key(j, 0, 3, "timestamp");
	fprintf(j->out, "%" PRIi64, (int64_t)sample->time);
	key(j, 1, 3, "pid");
	fprintf(j->out, "%d", t->pid);
	key(j, 1, 3, "tid");
	fprintf(j->out, "%d", t->tid);
	if (lupe_evsel_attr(evsel)->sample_type & PERF_SAMPLE_CPU) {
		key(j, 1, 3, "cpu");
		fprintf(j->out, "%d", (int)sample->cpu);
	}
	key(j, 1, 3, "comm");
	json_string(j->out, t->comm ? t->comm : "");
	key(j, 1, 3, "callchain");
	fputc('[', j->out);
	if (sample->callchain) {
		/* perf starts a chain in user space until a marker says otherwise */
		int kernel = 0;

		for (uint64_t i = 0; i < sample->nr_callchain; i++) {
			uint64_t ip = sample->callchain[i];

			if (ip >= PERF_CONTEXT_MAX) {
				if (ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_HV)
					kernel = 1;
				else if (ip == PERF_CONTEXT_USER || ip == LUPE_CONTEXT_USER_UNWOUND)
					kernel = 0;
				continue;
			}
			lupe_session_resolve_ip(s, t, ip, kernel, &f);
			frame(j, &f, first);
			first = 0;
		}
	} else {
		lupe_session_resolve_ip(s, t, sample->ip,
					cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_HYPERVISOR, &f);
		frame(j, &f, 1);
		first = 0;
	}
	if (!first)
		sep(j, 0, 3);
	fputc(']', j->out);
	sep(j, 0, 2);
	fputs(j->lines ? "}\n" : "}", j->out);
	return ferror(j->out) ? 1 : 0;
}

/* A feature's string (u32 length, then the bytes, NUL-padded); NULL when absent. */
static const char *feat_string(struct lupe_perf_file *pf, int feat, const char **next,
			       const char *end)
{
	size_t size;
	const char *p = next ? *next : lupe_perf_file_feature(pf, feat, &size);
	uint32_t len;

	if (!p)
		return NULL;
	if (!next)
		end = p + size;
	if (end - p < 4)
		return NULL;
	memcpy(&len, p, 4);
	if (len == 0 || (size_t)(end - p - 4) < len || !memchr(p + 4, 0, len))
		return NULL;
	if (next)
		*next = p + 4 + len;
	return p + 4;
}

static void header_string(struct json *j, struct lupe_perf_file *pf, int feat, const char *name)
{
	const char *v = feat_string(pf, feat, NULL, NULL);

	if (v) {
		key(j, 1, 2, name);
		json_string(j->out, v);
	}
}

/* perf's "headers" object: what the file header and its features say. */
static void headers(struct json *j, struct lupe_session *s, const char *path)
{
	struct lupe_perf_file *pf = lupe_session_file(s);
	uint64_t off = 0, size = 0;
	const char *p, *end;
	size_t fsize;
	struct stat st;
	int comma = 1;

	fputs("{\n\t\"linux-perf-json-version\": 1,\n\t\"headers\": {", j->out);
	key(j, 0, 2, "header-version");
	fputs("1", j->out);
	if (strcmp(path, "-") && !stat(path, &st)) {
		char buf[64];
		struct tm tm;

		if (gmtime_r(&st.st_ctime, &tm) && strftime(buf, sizeof(buf), "%FT%TZ", &tm)) {
			key(j, comma, 2, "captured-on");
			json_string(j->out, buf);
		}
	}
	if (!lupe_perf_file_is_pipe(pf)) {
		lupe_perf_file_data_section(pf, &off, &size);
		key(j, 1, 2, "data-offset");
		fprintf(j->out, "%" PRIu64, off);
		key(j, 1, 2, "data-size");
		fprintf(j->out, "%" PRIu64, size);
		key(j, 1, 2, "feat-offset");
		fprintf(j->out, "%" PRIu64, off + size);
	}
	header_string(j, pf, HEADER_HOSTNAME, "hostname");
	header_string(j, pf, HEADER_OSRELEASE, "os-release");
	header_string(j, pf, HEADER_ARCH, "arch");
	header_string(j, pf, HEADER_CPUDESC, "cpu-desc");
	header_string(j, pf, HEADER_CPUID, "cpuid");
	if ((p = lupe_perf_file_feature(pf, HEADER_NRCPUS, &fsize)) && fsize >= 8) {
		uint32_t nr[2];

		memcpy(nr, p, sizeof(nr));
		key(j, 1, 2, "nrcpus-online");
		fprintf(j->out, "%u", nr[1]);
		key(j, 1, 2, "nrcpus-avail");
		fprintf(j->out, "%u", nr[0]);
	}
	header_string(j, pf, HEADER_VERSION, "perf-version");
	if ((p = lupe_perf_file_feature(pf, HEADER_CMDLINE, &fsize)) && fsize >= 4) {
		uint32_t nr;
		const char *arg;

		end = p + fsize;
		memcpy(&nr, p, 4);
		p += 4;
		key(j, 1, 2, "cmdline");
		fputc('[', j->out);
		for (uint32_t i = 0; i < nr && (arg = feat_string(pf, 0, &p, end)); i++) {
			sep(j, i > 0, 3);
			json_string(j->out, arg);
		}
		sep(j, 0, 2);
		fputc(']', j->out);
	}
	fputs("\n\t},\n\t\"samples\": [", j->out);
}

int lupe_json_write(const char *path, FILE *out, const struct lupe_json_opts *opts)
{
	struct json j = { .out = out };
	struct lupe_session *s;
	struct lupe_json_opts o;
	int force = 0, err;

	if (lupe_opts_load(&o, opts))
		return -EINVAL;
	force = o.force;
	j.lines = o.lines;
	j.tool.sample = on_sample;
	j.tool.ordered = 1; /* perf's converter orders its events too */
	if (!(s = lupe_session_open(path, force)))
		return -errno;
	if (!j.lines)
		headers(&j, s, path);
	err = lupe_session_process(s, &j.tool);
	if (err && err != -ENOMEM && !ferror(out)) {
		const char *why = lupe_perf_file_error(lupe_session_file(s));

		pr_warn("'%s' is broken part way (%s): the JSON holds the samples before that",
			path, why[0] ? why : lupe_strerror(err));
		err = 0;
	}
	if (!j.lines)
		fputs(j.nr ? "\n\t]\n}\n" : "\n\t]\n}\n", out);
	lupe_session_delete(s);
	if (ferror(out))
		return -EIO;
	return err;
}
