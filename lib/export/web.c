// SPDX-License-Identifier: GPL-2.0
/*
 * The browser view's data (lupe report --web): the profile as one JSON
 * object that the page turns into typed arrays, so that a selection of a
 * million samples is added up in the browser in a few milliseconds.
 *
 * Shape: small tables as JSON (events, threads, DSOs, functions), and the
 * big columns as base64 of little-endian arrays: the stack tree (parent,
 * func per node: a prefix tree, as the Firefox and speedscope writers
 * send it) and the samples of the main event in time order (time in ns
 * since the previous sample as uint32, thread as uint16, stack as uint32,
 * period as uint32, or once when all samples have the same).
 * Cost: 10 to 14 bytes a sample, 13 to 19 in base64: a million samples of
 * -F make a 19 MB page (the issue allows 30 MB); float64 times, uint32
 * threads and periods made 27 MB; JSON numbers would be about twice that
 * and slower to parse. Names are escaped so that the
 * JSON can sit inside an HTML <script> element ('<' as \u003c).
 */
#include <stdlib.h>
#include <string.h>
#include "export/profile.h"
#include "util/util.h"

/* A string in quotes, with '<', '>' and '&' escaped too (the page embeds the JSON). */
static void web_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* base64 (RFC 4648, with padding) of len bytes, in quotes. */
static void b64(FILE *out, const void *data, size_t len)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const uint8_t *d = data;
	char buf[4096];
	size_t n = 0, i;

	fputc('"', out);
	for (i = 0; i + 3 <= len; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];

		buf[n++] = tab[v >> 18];
		buf[n++] = tab[(v >> 12) & 63];
		buf[n++] = tab[(v >> 6) & 63];
		buf[n++] = tab[v & 63];
		if (n == sizeof(buf)) {
			fwrite(buf, 1, n, out);
			n = 0;
		}
	}
	fwrite(buf, 1, n, out);
	if (i < len) {
		uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < len ? (uint32_t)d[i + 1] << 8 : 0);

		fputc(tab[v >> 18], out);
		fputc(tab[(v >> 12) & 63], out);
		fputc(i + 1 < len ? tab[(v >> 6) & 63] : '=', out);
		fputc('=', out);
	}
	fputc('"', out);
}

/* The little-endian bytes of a value (the page reads them as typed arrays). */
static void put32(uint8_t *d, uint32_t v)
{
	d[0] = (uint8_t)v;
	d[1] = (uint8_t)(v >> 8);
	d[2] = (uint8_t)(v >> 16);
	d[3] = (uint8_t)(v >> 24);
}

static void put_f64(uint8_t *d, double x)
{
	uint64_t v;

	memcpy(&v, &x, sizeof(v));
	for (int i = 0; i < 8; i++)
		d[i] = (uint8_t)(v >> (8 * i));
}

/* ns since the profile's first sample */
static uint64_t rel_time(const struct lupe_profile *p, const struct lupe_prof_sample *s)
{
	return s->time >= p->first_time ? s->time - p->first_time : 0;
}

int lupe_profile_write_web(const struct lupe_profile *p, FILE *out)
{
	uint32_t ev = p->first_event;
	size_t n = 0, k = 0, wide = 0, wide_time = 0, same_period = 1;
	uint64_t period0 = 0, prev = 0, t;
	uint8_t *buf;
	char name[64];

	/* the main event: as the Firefox writer, the first sample's (not a tracepoint's) */
	if (ev == LUPE_PROF_NONE && p->nr_samples)
		ev = p->samples[0].event;
	for (size_t i = 0; i < p->nr_samples; i++) {
		if (p->samples[i].event != ev)
			continue;
		if (!n++)
			period0 = p->samples[i].period;
		if (p->samples[i].period > UINT32_MAX)
			wide = 1;
		if (p->samples[i].period != period0)
			same_period = 0;
		/* out of order, or a gap a uint32 of ns cannot hold */
		t = rel_time(p, &p->samples[i]);
		if (t < prev || t - prev > UINT32_MAX)
			wide_time = 1;
		prev = t;
	}
	buf = malloc((n > p->nr_nodes ? n : p->nr_nodes) * 8 + 8);
	if (!buf)
		return -ENOMEM;
	fprintf(out, "{\"event\":%ld,\"lost\":%llu,\"first_time\":%llu,\"last_time\":%llu,\"events\":[",
		ev == LUPE_PROF_NONE ? -1L : (long)ev, (unsigned long long)p->nr_lost,
		(unsigned long long)p->first_time, (unsigned long long)p->last_time);
	for (size_t i = 0; i < p->nr_events; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		web_str(out, p->events[i].name);
		fprintf(out, ",\"samples\":%llu,\"period\":%llu,\"time_based\":%d}",
			(unsigned long long)p->events[i].nr_samples,
			(unsigned long long)p->events[i].total_period, p->events[i].time_based);
	}
	fputs("],\n\"threads\":[", out);
	for (size_t i = 0; i < p->nr_threads; i++) {
		fprintf(out, "%s[%d,%d,", i ? "," : "", p->threads[i].pid, p->threads[i].tid);
		web_str(out, p->threads[i].comm);
		fputc(']', out);
	}
	fputs("],\n\"dsos\":[", out);
	for (size_t i = 0; i < p->nr_dsos; i++) {
		fputs(i ? "," : "", out);
		web_str(out, p->dsos[i].name);
	}
	fputs("],\n\"funcs\":[", out);
	for (size_t i = 0; i < p->nr_funcs; i++) {
		const struct lupe_prof_func *f = &p->funcs[i];

		fputs(i ? ",\n[" : "[", out);
		web_str(out, lupe_prof_func_name(p, (uint32_t)i, name, sizeof(name)));
		fprintf(out, ",%ld,%d]", f->dso == LUPE_PROF_NONE ? -1L : (long)f->dso, f->kind);
	}
	/* nodes: parent + 1 (0: a root) and func, interleaved */
	for (size_t i = 0; i < p->nr_nodes; i++) {
		put32(buf + 8 * i, p->nodes[i].parent == LUPE_PROF_NONE ? 0 : p->nodes[i].parent + 1);
		put32(buf + 8 * i + 4, p->nodes[i].func);
	}
	fprintf(out, "],\n\"nr_nodes\":%zu,\"nodes\":", p->nr_nodes);
	b64(out, buf, p->nr_nodes * 8);
	/*
	 * time: ns since the previous sample as uint32 (in time order: a gap
	 * of 4.29 s or more makes the column float64 ns since the first);
	 * thread: uint16 below 65536 threads; period: one number when every
	 * sample has the same (-c), else uint32 or float64.
	 */
	fprintf(out, ",\n\"nr_samples\":%zu,\"time_bytes\":%d,\"time\":", n, wide_time ? 8 : 4);
	k = 0;
	prev = 0;
	for (size_t i = 0; i < p->nr_samples; i++) {
		const struct lupe_prof_sample *s = &p->samples[i];

		if (s->event != ev)
			continue;
		t = rel_time(p, s);
		if (wide_time)
			put_f64(buf + 8 * k++, (double)t);
		else
			put32(buf + 4 * k++, (uint32_t)(t - prev));
		prev = t;
	}
	b64(out, buf, n * (wide_time ? 8 : 4));
	k = 0;
	for (size_t i = 0; i < p->nr_samples; i++) {
		const struct lupe_prof_sample *s = &p->samples[i];

		if (s->event != ev)
			continue;
		if (p->nr_threads < 65536) {
			buf[2 * k] = (uint8_t)s->thread;
			buf[2 * k++ + 1] = (uint8_t)(s->thread >> 8);
		} else {
			put32(buf + 4 * k++, s->thread);
		}
	}
	fprintf(out, ",\n\"thread_bytes\":%d,\"thread\":", p->nr_threads < 65536 ? 2 : 4);
	b64(out, buf, n * (p->nr_threads < 65536 ? 2 : 4));
	/* the stack: node + 1, 0 an empty stack */
	k = 0;
	for (size_t i = 0; i < p->nr_samples; i++)
		if (p->samples[i].event == ev)
			put32(buf + 4 * k++, p->samples[i].node == LUPE_PROF_NONE ? 0 : p->samples[i].node + 1);
	fputs(",\n\"stack\":", out);
	b64(out, buf, n * 4);
	if (same_period) {
		fprintf(out, ",\n\"period_bytes\":0,\"period\":%llu", (unsigned long long)period0);
	} else {
		k = 0;
		for (size_t i = 0; i < p->nr_samples; i++) {
			const struct lupe_prof_sample *s = &p->samples[i];

			if (s->event != ev)
				continue;
			if (wide)
				put_f64(buf + 8 * k++, (double)s->period);
			else
				put32(buf + 4 * k++, (uint32_t)s->period);
		}
		fprintf(out, ",\n\"period_bytes\":%d,\"period\":", wide ? 8 : 4);
		b64(out, buf, n * (wide ? 8 : 4));
	}
	fputs("}", out);
	free(buf);
	return ferror(out) ? -EIO : 0;
}
