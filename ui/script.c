// SPDX-License-Identifier: GPL-2.0
/*
 * Sample lines as perf script prints them: the same columns, widths and
 * separators, so that tools reading perf's text read ours.
 */
#include <stdlib.h>
#include <string.h>
#include "script.h"

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVENT }, { "ip", SF_IP }, { "sym", SF_SYM },
	{ "symoff", SF_SYMOFF }, { "dso", SF_DSO }, { "period", SF_PERIOD }, { "trace", SF_TRACE },
	{ "srcline", SF_SRCLINE },
};

int script_parse_fields(const char *spec, unsigned *fields, const char **bad)
{
	static char badbuf[64];
	const char *colon = strchr(spec, ':');
	char *copy, *tok, *save;

	/* "sw:comm,tid" / "trace:..." apply to one event type: NEEDSWORK, taken for all */
	if (colon && !memchr(spec, ',', colon - spec))
		spec = colon + 1;
	copy = strdup(spec);
	if (!copy)
		return -1;
	*fields = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(field_names) / sizeof(*field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == sizeof(field_names) / sizeof(*field_names)) {
			snprintf(badbuf, sizeof(badbuf), "%s", tok);
			*bad = badbuf;
			free(copy);
			return -1;
		}
		*fields |= field_names[i].bit;
	}
	free(copy);
	return 0;
}

const char *script_check_fields(struct script_printer *p, struct lupe_session *s, char *buf,
				size_t size)
{
	static const struct {
		unsigned field;
		uint64_t need;
		const char *name, *attr;
	} needs[] = {
		{ SF_CPU, PERF_SAMPLE_CPU, "cpu", "CPU" },
		{ SF_TIME, PERF_SAMPLE_TIME, "time", "TIME" },
		{ SF_PERIOD, PERF_SAMPLE_PERIOD, "period", "PERIOD" },
		{ SF_IP, PERF_SAMPLE_IP, "ip", "IP" },
		{ SF_TID, PERF_SAMPLE_TID, "tid", "TID" },
		{ SF_PID, PERF_SAMPLE_TID, "pid", "TID" },
	};
	struct lupe_perf_file *f = lupe_session_file(s);

	if (!p->user_fields)
		return NULL;
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		int seen = 0;

		/* as perf, judge each event type by its first event (not -a's dummy) */
		for (size_t j = 0; j < i; j++)
			seen |= lupe_evsel_attr(lupe_perf_file_evsel(f, j))->type == lupe_evsel_attr(e)->type;
		if (seen)
			continue;
		for (size_t k = 0; k < sizeof(needs) / sizeof(*needs); k++) {
			if (!(p->user_fields & needs[k].field) || (lupe_evsel_attr(e)->sample_type & needs[k].need))
				continue;
			snprintf(buf, size, "samples of '%s' have no %s field: cannot print '%s' (drop it from -F)",
				 lupe_evsel_name(e) ? lupe_evsel_name(e) : "?", needs[k].attr, needs[k].name);
			return buf;
		}
	}
	return NULL;
}

void script_printer_init(struct script_printer *p, struct lupe_session *s, struct obuf *out)
{
	struct lupe_perf_file *f = lupe_session_file(s);

	p->out = out;
	p->name_width = 0;
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++) {
		const char *n = lupe_evsel_name(lupe_perf_file_evsel(f, i));
		int len = n ? (int)strlen(n) : 0;

		if (len > p->name_width)
			p->name_width = len;
	}
}

/* perf's defaults: what each event type shows, less what the samples lack. */
static unsigned fields_for(const struct script_printer *p, const struct lupe_evsel *evsel)
{
	uint64_t st = lupe_evsel_attr(evsel)->sample_type;
	unsigned f = p->user_fields;

	/* perf ignores 'trace' for events that are not tracepoints */
	if (f && lupe_evsel_attr(evsel)->type != PERF_TYPE_TRACEPOINT)
		f &= ~SF_TRACE;
	if (!f) {
		if (lupe_evsel_attr(evsel)->type == PERF_TYPE_TRACEPOINT) {
			f = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE;
			if (st & PERF_SAMPLE_CALLCHAIN)
				f |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
		} else {
			f = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM |
			    SF_SYMOFF | SF_DSO | SF_PERIOD;
		}
		if (!(st & PERF_SAMPLE_CPU))
			f &= ~SF_CPU;
		if (!(st & PERF_SAMPLE_TIME))
			f &= ~SF_TIME;
		if (!(st & PERF_SAMPLE_PERIOD))
			f &= ~SF_PERIOD;
		if (!(st & PERF_SAMPLE_IP))
			f &= ~(SF_IP | SF_SYM | SF_SYMOFF | SF_DSO);
	}
	return f;
}

/* "\n  FILE:LINE": a frame's source line as perf prints it. */
static void print_srcline(struct obuf *o, struct lupe_session *s, const struct lupe_frame *fr)
{
	char buf[1024];
	int n = lupe_session_srcline_text(s, fr, buf, sizeof(buf));

	obuf_mem(o, "\n  ", 3);
	obuf_mem(o, buf, n < 0 ? 0 : n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void print_frame(struct obuf *o, struct lupe_session *s, const struct lupe_frame *fr,
			unsigned f, int in_chain)
{
	if (f & SF_IP) {
		obuf_ch(o, in_chain ? '\t' : ' ');
		obuf_hex(o, in_chain ? fr->addr : fr->ip, 16);
	}
	if (f & SF_SYM) {
		obuf_ch(o, ' ');
		if (fr->sym && fr->inlined) {
			/* perf: "NAME+0xOFF (inlined)" in place of the DSO */
			obuf_mem(o, fr->sym->name, strlen(fr->sym->name) - strlen(" (inlined)"));
			if (f & SF_SYMOFF) {
				obuf_mem(o, "+0x", 3);
				obuf_hex(o, fr->vaddr - fr->sym->start, 0);
			}
		} else if (fr->sym) {
			obuf_str(o, fr->sym->name);
			if (f & SF_SYMOFF) {
				obuf_mem(o, "+0x", 3);
				obuf_hex(o, fr->vaddr - fr->sym->start, 0);
			}
		} else {
			obuf_mem(o, "[unknown]", 9);
		}
	}
	if ((f & SF_DSO) && !(fr->sym && fr->inlined)) {
		obuf_mem(o, " (", 2);
		obuf_str(o, fr->map ? lupe_dso_long_name(fr->map->dso) : "[unknown]");
		obuf_ch(o, ')');
	}
	if (f & SF_SRCLINE)
		print_srcline(o, s, fr);
	if (fr->sym && fr->inlined && (f & (SF_DSO | SF_SRCLINE)))
		obuf_mem(o, " (inlined)", 10);
	if (in_chain)
		obuf_ch(o, '\n');
}

void script_print_sample(struct script_printer *p, struct lupe_session *s,
			 struct lupe_evsel *evsel, const struct lupe_sample *sample,
			 struct lupe_thread *thread, uint8_t cpumode)
{
	unsigned f = fields_for(p, evsel);
	struct obuf *o = p->out;
	int has_chain = sample->callchain && (f & SF_IP);

	if (f & SF_COMM) {
		if (has_chain)
			obuf_str(o, thread->comm);
		else
			obuf_pad_str(o, thread->comm, 16);
		obuf_ch(o, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		obuf_sdec(o, (int32_t)sample->pid, 5);
		obuf_ch(o, '/');
		obuf_dec(o, sample->tid, -5, ' ');
		obuf_ch(o, ' ');
	} else if (f & (SF_PID | SF_TID)) {
		obuf_sdec(o, (int32_t)((f & SF_PID) ? sample->pid : sample->tid), 5);
		obuf_ch(o, ' ');
	}
	if (f & SF_CPU) {
		obuf_ch(o, '[');
		obuf_dec(o, sample->cpu, 3, '0');
		obuf_mem(o, "] ", 2);
	}
	if (f & SF_TIME) {
		uint64_t secs = sample->time / 1000000000ULL;
		uint64_t usecs = (sample->time % 1000000000ULL) / 1000;

		obuf_dec(o, secs, 5, ' ');
		obuf_ch(o, '.');
		obuf_dec(o, usecs, 6, '0');
		obuf_mem(o, ": ", 2);
	}
	if (f & SF_PERIOD) {
		obuf_dec(o, sample->period, 10, ' ');
		obuf_ch(o, ' ');
	}
	if (f & SF_EVENT) {
		obuf_pad_str(o, lupe_evsel_name(evsel) ? lupe_evsel_name(evsel) : "[unknown]", p->name_width);
		obuf_mem(o, ": ", 2);
	}
	if ((f & SF_TRACE) && sample->raw) {
		char buf[4096];
		int n = lupe_evsel_format_trace(evsel, sample, buf, sizeof(buf));

		if (n >= (int)sizeof(buf)) {
			char *big = malloc(n + 1);

			if (big) {
				lupe_evsel_format_trace(evsel, sample, big, n + 1);
				obuf_mem(o, big, n);
				free(big);
			}
		} else if (n > 0) {
			obuf_mem(o, buf, n);
		}
	}
	if (f & (SF_IP | SF_SYM | SF_DSO | SF_SRCLINE)) {
		int n = lupe_session_resolve(s, thread, sample, cpumode, p->frames,
					     (int)(sizeof(p->frames) / sizeof(*p->frames)));

		if (has_chain) {
			obuf_ch(o, '\n');
			for (int i = 0; i < n; i++)
				print_frame(o, s, &p->frames[i], f, 1);
		} else if (n) {
			print_frame(o, s, &p->frames[0], f, 0);
		}
	}
	obuf_ch(o, '\n');
}
