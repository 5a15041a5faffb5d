// SPDX-License-Identifier: GPL-2.0
/* lupe script: the samples of a perf.data as text, as perf script prints them. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/session.h>
#include <lupe/unwind.h>
#include <lupe/number.h>
#include <lupe/perf-format.h>
#include "builtin.h"
#include "dump.h"
#include "header.h"
#include "options.h"
#include "script.h"

struct script_opts {
	const char *input;
	int force;
	int header, no_inline, dump;
	unsigned show; /* --show-*-events: 1 << PERF_RECORD_* */
	const char *pids, *tids, *comms, *cpus, *time;
	struct script_printer *p;
};

enum { KEY_NS = 0x100, KEY_MAX_STACK };
#define BIT(type) (1u << PERF_RECORD_##type)

#define CMD_OPTS struct script_opts
static const struct cmd_option options[] = {
	OPT_INPUT(input, "input file name (default: perf.data; - reads stdin)"),
	OPT_FORCE(force, "read a file not owned by you"),
	OPT_ROW('F', "fields", "FIELDS", 0,
		"[type:]fields to print (comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,trace,srcline), or +field/-field to change the defaults; type: hw, sw, trace, raw, break"),
	OPT_BOOL('D', "dump-raw-trace", dump, "dump each record's bytes and fields too (perf's -D)"),
	OPT_STRING(0, "pid", "PIDS", pids, "only the samples of these processes"),
	OPT_STRING(0, "tid", "TIDS", tids, "only the samples of these threads"),
	OPT_STRING(0, "comms", "COMMS", comms, "only the samples of these commands"),
	OPT_CPU("CPUS", cpus, "only the samples on these CPUs (0-3,5)"),
	OPT_STRING(0, "time", "START,STOP", time,
		   "only the samples in this time span (seconds as perf script prints them; either may be left out)"),
	OPT_BIT(0, "show-task-events", show, BIT(COMM) | BIT(FORK) | BIT(EXIT), "show the COMM, FORK and EXIT records too"),
	OPT_BIT(0, "show-mmap-events", show, BIT(MMAP) | BIT(MMAP2), "show the MMAP and MMAP2 records too"),
	OPT_BIT(0, "show-switch-events", show, BIT(SWITCH) | BIT(SWITCH_CPU_WIDE), "show the context switch records too"),
	OPT_BIT(0, "show-namespace-events", show, BIT(NAMESPACES), "show the NAMESPACES records too"),
	OPT_BIT(0, "show-cgroup-events", show, BIT(CGROUP), "show the CGROUP records too"),
	OPT_BIT(0, "show-lost-events", show, BIT(LOST), "show the LOST records too"),
	OPT_ROW(KEY_NS, "ns", NULL, 0, "times in nanoseconds"),
	OPT_BOOL(0, "header", header, "show the data header first"),
	OPT_SET_INT(0, "inline", no_inline, 0, "show inlined functions in callchains (the default)"),
	OPT_BOOL(0, "no-inline", no_inline, "do not show inlined functions in callchains"),
	OPT_ROW(KEY_MAX_STACK, "max-stack", "N", 0, "show at most N callchain entries (inlined functions on top)"),
	OPT_END()
};
#undef CMD_OPTS

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct script_opts *o = state->input;
	const char *why;
	char *end;
	long n;

	switch (key) {
	case 'F':
		if (script_parse_fields(o->p, arg, &why))
			argp_error(state, "%s: '%s'", why, arg);
		return 0;
	case KEY_NS: o->p->nanosecs = 1; return 0;
	case KEY_MAX_STACK:
		n = strtol(arg, &end, 0);
		/* perf script's is unsigned (report's is not); 0: no callchain entries */
		if (end == arg || *end || n < 0)
			argp_error(state, "--max-stack wants a number of entries, not '%s'", arg);
		o->p->max_stack = n > 0 ? (n > INT_MAX ? INT_MAX : (int)n) : -1;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct cmd_argp argp = {
	.options = options,
	.parser = parse_opt,
	.doc = "Print the samples of a perf.data file as text, the way perf script does.",
};

#define MAX_CPUS 4096
#define MAX_SPANS 64

/* The sample filters: --pid, --tid, --comms, --cpu, --time. */
struct filters {
	int *pids, nr_pids, *tids, nr_tids;
	char **comms;
	int nr_comms;
	unsigned char *cpus; /* NULL: all */
	struct span {
		uint64_t start, end; /* 0: open */
	} spans[MAX_SPANS];
	int nr_spans;
};

struct script_tool {
	struct lupe_tool tool;
	struct script_printer p;
	struct filters flt;
	unsigned show;
	struct dump *dump;
	size_t nr_checked; /* events script_check_fields() saw (a pipe tells them as it goes) */
	const char *input;
	struct lupe_evsel *rec_evsel; /* the record callback's, for the next other() */
	struct lupe_sample rec_sample;
	int rec_has_sample;
};

static int in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int time_skip(const struct filters *f, uint64_t t);

static int filtered(const struct filters *f, const struct lupe_sample *s, const struct lupe_thread *t)
{
	if (f->nr_pids && !in_list(f->pids, f->nr_pids, t->pid))
		return 1;
	if (f->nr_tids && !in_list(f->tids, f->nr_tids, t->tid))
		return 1;
	if (f->nr_comms) {
		int hit = 0;

		for (int i = 0; i < f->nr_comms && !hit; i++)
			hit = t->comm && !strcmp(t->comm, f->comms[i]);
		if (!hit)
			return 1;
	}
	if (f->cpus && (s->cpu >= MAX_CPUS || !f->cpus[s->cpu]))
		return 1;
	return time_skip(f, s->time);
}

static int on_record(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev, uint64_t offset, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample)
{
	struct script_tool *st = (struct script_tool *)tool;

	st->rec_evsel = evsel;
	st->rec_has_sample = !!sample;
	if (sample)
		st->rec_sample = *sample;
	return st->dump ? dump_record(st->dump, s, ev, offset, evsel, sample) : 0;
}

/*
 * Fit -F to the events, as perf does when it reads their attributes: before
 * the first record for a file, as the attributes come for a pipe.
 */
static int check_fields(struct script_tool *st, struct lupe_session *s)
{
	size_t n = lupe_perf_file_nr_evsels(lupe_session_file(s));
	char why[256];
	const char *bad;

	if (n == st->nr_checked)
		return 0;
	st->nr_checked = n;
	bad = script_check_fields(&st->p, s, why, sizeof(why));
	if (bad)
		return error("%s", bad);
	script_printer_init(&st->p, s, st->p.out);
	return 0;
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct script_tool *st = (struct script_tool *)tool;
	uint8_t cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (check_fields(st, s))
		return -EINVAL;

	if (st->dump)
		dump_sample_thread(st->dump, s, sample, thread, cpumode);
	if (filtered(&st->flt, sample, thread))
		return 0;
	/* an event type -F left without fields is not shown */
	if (st->p.fields[lupe_evsel_attr(evsel)->type < 6 ? lupe_evsel_attr(evsel)->type : 6])
		script_print_sample(&st->p, s, evsel, sample, thread, cpumode);
	return st->p.out->error ? -EIO : 0;
}

static int on_other(struct lupe_tool *tool, struct lupe_session *s, const struct perf_event_header *ev)
{
	struct script_tool *st = (struct script_tool *)tool;
	const struct lupe_sample *smp = st->rec_has_sample ? &st->rec_sample : NULL;

	if (ev->type >= 32 || !(st->show & 1u << ev->type))
		return 0;
	if (check_fields(st, s))
		return -EINVAL;
	/* --cpu filters these too, as perf's filter_cpu() does */
	if (st->flt.cpus && smp && (smp->cpu >= MAX_CPUS || !st->flt.cpus[smp->cpu]))
		return 0;
	script_print_event(&st->p, s, ev, smp ? st->rec_evsel : NULL, smp);
	return st->p.out->error ? -EIO : 0;
}

/* "1,2,3": ints, or -1 with the word that is not one */
static int parse_ints(const char *list, int **out, const char *what)
{
	int n = 0, cap = 0, *v = NULL;
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		int64_t x;

		/* -ERANGE: 4294997141 is no pid, not 29845 */
		if (lupe_parse_i64n(p, len, 10, 0, LUPE_PID_MAX, &x) || (p[len] && !p[len + 1])) {
			free(v);
			return error("invalid %s list '%s' (want numbers from 0 to %d separated by commas)",
				     what, list, LUPE_PID_MAX);
		}
		if (n == cap) {
			int *nv = realloc(v, (size_t)(cap = cap ? cap * 2 : 8) * sizeof(*v));

			if (!nv)
				die("out of memory");
			v = nv;
		}
		v[n++] = (int)x;
		p += len + !!p[len];
	}
	*out = v;
	return n;
}

/* "0-3,5": a CPU bitmap */
static int parse_cpus(const char *list, unsigned char **out)
{
	unsigned char *map = calloc(MAX_CPUS, 1);
	const char *p = list;

	if (!map)
		die("out of memory");
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		if (*end && *end != ',')
			goto bad;
		if (b >= MAX_CPUS) {
			free(map);
			return error("CPU %ld in --cpu is too large (at most %d)", b, MAX_CPUS - 1);
		}
		for (long c = a; c <= b; c++)
			map[c] = 1;
		p = *end ? end + 1 : end;
	}
	*out = map;
	return 0;
bad:
	free(map);
	return error("invalid CPU list '%s' in --cpu (want 0-3,5)", list);
}

/* perf's timestamp: SECONDS[.FRACTION] (up to nanoseconds) */
static int parse_ts(const char *s, size_t len, uint64_t *out)
{
	uint64_t sec = 0, ns = 0;
	size_t i = 0;
	int digits = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (!i)
		return -1;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
			if (digits < 9)
				ns = ns * 10 + (uint64_t)(s[i] - '0');
		for (; digits < 9; digits++)
			ns *= 10;
	}
	if (i != len)
		return -1;
	*out = sec * 1000000000ULL + ns;
	return 0;
}

/* perf's parse_percent(): "10%" -> 0.1 */
static int parse_percent(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -1;
	memcpy(buf, s, len - 1);
	buf[len - 1] = 0;
	*out = strtod(buf, &end) / 100.0;
	return end == buf || *end ? -1 : 0;
}

/* perf's set_percent_time(): a share of [first, last] sample time */
static int percent_span(struct span *sp, double a, double b, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	sp->start = first + (uint64_t)llround(a * (double)total);
	sp->end = first + (uint64_t)llround(b * (double)total);
	if (sp->end > sp->start && sp->end != last)
		sp->end -= 1;
	return 0;
}

/* "10%/2" (the second tenth), "0%-10%", several with commas */
static int parse_percent_spans(const char *arg, struct filters *f, struct lupe_session *s)
{
	size_t size;
	const uint64_t *st = lupe_perf_file_feature(lupe_session_file(s), HEADER_SAMPLE_TIME, &size);
	uint64_t first = 0, last = 0;
	const char *p = arg;

	if (st && size >= 16) {
		first = st[0];
		last = st[1];
	}
	if (!first && !last)
		return error("--time '%s': the file does not say when its first and last samples were taken (record it again, or give START,STOP in seconds)",
			     arg);
	while (*p) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *slash = memchr(p, '/', (size_t)(end - p)), *dash = memchr(p, '-', (size_t)(end - p));
		struct span sp;
		double a, b;

		if (f->nr_spans == MAX_SPANS)
			return error("--time '%s': at most %d spans", arg, MAX_SPANS);
		if (slash) {
			char *e;
			long i = strtol(slash + 1, &e, 10);

			if (e != end || parse_percent(p, (size_t)(slash - p), &a) || a <= 0.0 ||
			    percent_span(&sp, a * (double)(i - 1), a * (double)i, first, last))
				goto bad;
		} else if (dash) {
			if (parse_percent(p, (size_t)(dash - p), &a) ||
			    parse_percent(dash + 1, (size_t)(end - dash - 1), &b) ||
			    percent_span(&sp, a, b, first, last))
				goto bad;
		} else {
			goto bad;
		}
		f->spans[f->nr_spans++] = sp;
		p = comma ? comma + 1 : end;
	}
	if (!f->nr_spans)
		goto bad;
	return 0;
bad:
	return error("invalid time span '%s' in --time (want START,STOP in seconds, or percent spans: 10%%/2, 0%%-10%%)", arg);
}

static int parse_time(const char *arg, struct filters *f, struct lupe_session *s)
{
	const char *comma = strchr(arg, ',');
	struct span sp = { 0, 0 };

	if (strchr(arg, '%'))
		return parse_percent_spans(arg, f, s);
	if (!comma || strchr(comma + 1, ',') ||
	    (comma > arg && parse_ts(arg, (size_t)(comma - arg), &sp.start)) ||
	    (comma[1] && parse_ts(comma + 1, strlen(comma + 1), &sp.end)) ||
	    (sp.end && sp.start > sp.end))
		return error("invalid time span '%s' in --time (want START,STOP in seconds, e.g. 1234.5,1235)", arg);
	f->spans[f->nr_spans++] = sp;
	return 0;
}

/* perf_time__ranges_skip_sample(): time 0 is never skipped; an end of 0 is open */
static int time_skip(const struct filters *f, uint64_t t)
{
	if (!f->nr_spans || !t)
		return 0;
	if (f->nr_spans == 1)
		return (f->spans[0].start && t < f->spans[0].start) || (f->spans[0].end && t > f->spans[0].end);
	for (int i = 0; i < f->nr_spans; i++)
		if (t >= f->spans[i].start && (t <= f->spans[i].end || !f->spans[i].end))
			return 0;
	return 1;
}

static int setup_filters(struct script_opts *o, struct filters *f, struct lupe_session *s)
{
	if (o->pids && (f->nr_pids = parse_ints(o->pids, &f->pids, "--pid")) < 0)
		return -1;
	if (o->tids && (f->nr_tids = parse_ints(o->tids, &f->tids, "--tid")) < 0)
		return -1;
	if (o->comms) {
		char *copy = strdup(o->comms), *tok, *save;

		if (!copy)
			die("out of memory");
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char **nc = realloc(f->comms, (size_t)(f->nr_comms + 1) * sizeof(*nc));

			if (!nc || !(nc[f->nr_comms] = strdup(tok)))
				die("out of memory");
			f->comms = nc;
			f->nr_comms++;
		}
		free(copy);
	}
	if (o->cpus) {
		struct lupe_perf_file *pf = lupe_session_file(s);

		/* as perf: every event type must carry the CPU */
		for (size_t i = 0; i < lupe_perf_file_nr_evsels(pf); i++)
			if (!(lupe_evsel_attr(lupe_perf_file_evsel(pf, i))->sample_type & PERF_SAMPLE_CPU))
				return error("'%s' has no CPU in its samples: --cpu cannot filter them (record with -a or --sample-cpu)",
					     o->input);
		if (parse_cpus(o->cpus, &f->cpus))
			return -1;
	}
	if (o->time && parse_time(o->time, f, s))
		return -1;
	return 0;
}

static void free_filters(struct filters *f)
{
	free(f->pids);
	free(f->tids);
	for (int i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->cpus);
}

int cmd_script(int argc, char **argv)
{
	struct script_tool *st = calloc(1, sizeof(*st));
	struct script_opts o = { .input = "perf.data" };
	struct lupe_session *s = NULL;
	struct obuf *out = NULL;
	struct dump dump;
	int idx, err, ret = 1;

	if (!st)
		die("out of memory");
	st->tool.sample = on_sample;
	st->tool.ordered = 1;
	o.p = &st->p;
	script_fields_default(&st->p);
	if (cmd_parse_options(&argp, argc, argv, 0, &idx, &o)) {
		free(st);
		return EXIT_USAGE;
	}
	s = lupe_session_open(o.input, o.force);
	if (!s)
		goto out; /* the library said why */
	lupe_session_set_inline(s, !o.no_inline);
	if (lupe_unwind_install(s) == -ENOMEM)
		die("out of memory");
	if (setup_filters(&o, &st->flt, s))
		goto out;
	out = malloc(sizeof(*out));
	if (!out)
		die("out of memory");
	out->fp = stdout;
	out->len = 0;
	out->error = 0;
	script_printer_init(&st->p, s, out);
	if (check_fields(st, s))
		goto out;
	if (o.header)
		print_header(stdout, lupe_session_file(s), o.input, 1);
	st->show = o.show;
	if (o.show)
		st->tool.other = on_other;
	if (o.show || o.dump)
		st->tool.record = on_record;
	if (o.dump) {
		dump_init(&dump, s, o.input, out, 1);
		st->dump = &dump;
	}
	err = lupe_session_process(s, &st->tool);
	obuf_flush(out);
	if (err == -EIO || out->error) {
		error("cannot write the output: %s", strerror(errno));
		goto out;
	}
	if (err == -EINVAL && !lupe_perf_file_error(lupe_session_file(s))[0])
		goto out; /* check_fields() said why */
	if (err) {
		error("%s", lupe_perf_file_error(lupe_session_file(s))[0] ?
		      lupe_perf_file_error(lupe_session_file(s)) : lupe_strerror(err));
		goto out;
	}
	/* shown as records, the LOST ones need no warning (perf's rule) */
	warn_lost(lupe_session_stats(s), !(o.show & (1u << PERF_RECORD_LOST)));
	ret = 0;
out:
	free(out);
	script_printer_release(&st->p);
	free_filters(&st->flt);
	lupe_session_delete(s);
	free(st);
	return ret;
}
