// SPDX-License-Identifier: GPL-2.0
/*
 * TRACING_DATA: the tracefs format files perf saved at record time, handed
 * to libtraceevent so that tracepoint fields print as perf prints them.
 * Layout (perf's trace-event-read.c): magic "\027\010\104tracing", a
 * version string, endianness, long size, page size, header_page,
 * header_event, ftrace formats, event formats by system, kallsyms, printk
 * formats and (version >= 0.6) saved cmdlines.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <lupe/perfdata.h>
#include <lupe/sample.h>
#include "data/reader.h"
#include "counting/evsel.h"
#include "util/util.h"

struct tcur {
	const char *p, *end;
	int ok;
};

static const char *take(struct tcur *c, size_t n)
{
	const char *p = c->p;

	if (!c->ok || (size_t)(c->end - c->p) < n) {
		c->ok = 0;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint64_t take_u(struct tcur *c, size_t n)
{
	const char *p = take(c, n);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, n); /* little-endian host and file: NEEDSWORK swap */
	return v;
}

static const char *take_str(struct tcur *c)
{
	const char *p = c->p, *z;

	if (!c->ok)
		return NULL;
	z = memchr(p, 0, c->end - p);
	if (!z) {
		c->ok = 0;
		return NULL;
	}
	c->p = z + 1;
	return p;
}

/* libtraceevent wants NUL-terminated, writable text. */
static char *dup_n(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = 0;
	}
	return s;
}

/*
 * libtraceevent trusts these text tables and reads past a malformed line
 * (found by fuzzing): keep only the lines shaped as perf writes them.
 * kind: 'k' kallsyms "ADDR TYPE NAME", 'p' printk "ADDR : \"FMT\"", 'c' cmdlines "PID COMM".
 */
static char *clean_lines(const char *p, size_t n, int kind)
{
	char *out = malloc(n + 2), *o = out; /* a newline may be added to the last line */
	const char *end = p + n;

	if (!out)
		return NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *q;
		size_t len = (nl ? nl : end) - p;
		int ok = len > 0 && !memchr(p, 0, len);

		if (ok && kind == 'p') {
			q = memchr(p, ':', len);
			/*
			 * tep_register_print_string looks two bytes before the closing
			 * quote: a format shorter than 2 characters makes it read
			 * before its copy (found by fuzzing)
			 */
			ok = q && q + 6 <= p + len && q[1] == ' ' && q[2] == '"' && p[len - 1] == '"' &&
			     p[0] == '0' && p[1] == 'x';
		} else if (ok && kind == 'k') {
			int fields = 0;

			for (q = p; q < p + len; q++)
				fields += *q != ' ' && (q == p || q[-1] == ' ');
			ok = fields >= 3 && p[0] != ' ';
		} else if (ok && kind == 'c') {
			q = memchr(p, ' ', len);
			ok = q && q > p && q + 1 < p + len;
		}
		if (ok) {
			memcpy(o, p, len);
			o += len;
			*o++ = '\n';
		}
		p += len + 1;
	}
	*o = 0;
	return out;
}

static int parse_formats(struct tep_handle *tep, struct tcur *c, const char *sys)
{
	uint32_t n = (uint32_t)take_u(c, 4);

	for (uint32_t i = 0; i < n && c->ok; i++) {
		uint64_t size = take_u(c, 8);
		const char *p = take(c, size);

		if (!p)
			return -1;
		if (tep_parse_event(tep, p, size, sys))
			pr_debug("tracing data: cannot parse a format of '%s'", sys);
	}
	return c->ok ? 0 : -1;
}

static void *parse(const void *data, size_t size)
{
	struct tcur c = { data, (const char *)data + size, 1 };
	struct tep_handle *tep;
	const char *magic, *version, *p;
	int file_big, long_size;
	uint32_t nsys;
	uint64_t n;
	char *s;

	magic = take(&c, 10);
	if (!magic || memcmp(magic, "\027\010\104tracing", 10))
		return err_ptr(-LUPE_ERR_FORMAT);
	version = take_str(&c);
	p = take(&c, 2);
	if (!p)
		return err_ptr(-LUPE_ERR_TRUNCATED);
	file_big = p[0];
	long_size = p[1];
	tep = tep_alloc();
	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, file_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)take_u(&c, 4));
	if ((p = take(&c, 12)) && !memcmp(p, "header_page", 12)) {
		n = take_u(&c, 8);
		if ((p = take(&c, n)) && (s = dup_n(p, n))) {
			tep_parse_header_page(tep, s, n, long_size);
			free(s);
		}
	}
	if ((p = take(&c, 13)) && !memcmp(p, "header_event", 13)) {
		n = take_u(&c, 8);
		take(&c, n);
	}
	if (parse_formats(tep, &c, "ftrace"))
		goto out;
	nsys = (uint32_t)take_u(&c, 4);
	for (uint32_t i = 0; i < nsys && c.ok; i++) {
		const char *sys = take_str(&c);

		if (!sys || parse_formats(tep, &c, sys))
			goto out;
	}
	n = take_u(&c, 4);
	if ((p = take(&c, n)) && n && (s = clean_lines(p, n, 'k'))) {
		tep_parse_kallsyms(tep, s);
		free(s);
	}
	n = take_u(&c, 4);
	if ((p = take(&c, n)) && n && (s = clean_lines(p, n, 'p'))) {
		tep_parse_printk_formats(tep, s);
		free(s);
	}
	if (version && strcmp(version, "0.6") >= 0) {
		n = take_u(&c, 8);
		if ((p = take(&c, n)) && n && (s = clean_lines(p, n, 'c'))) {
			tep_parse_saved_cmdlines(tep, s);
			free(s);
		}
	}
out:
	/* What parsed before a short read is still usable. */
	return tep;
}

/*
 * libtraceevent trusts the format text it parses: a broken format can make
 * it divide by zero or follow a NULL pointer (both found by fuzzing). The
 * formats are parsed once in a child process first; if that child dies,
 * the tracing data is not used and tracepoints print without their fields.
 * One fork per file that has TRACING_DATA.
 */
static int parses_safely(const void *data, size_t size)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1; /* cannot check: trust it, as perf does */
	if (!pid) {
		/* die quietly: no sanitizer or fuzzer report for the crash we look for */
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

		for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
			signal(sigs[i], SIG_DFL);
		parse(data, size);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

void *lupe_tracing_data_parse(const void *data, size_t size)
{
	if (!parses_safely(data, size)) {
		pr_warn("the tracing data is malformed (libtraceevent cannot parse it): tracepoint fields are not shown");
		return err_ptr(-LUPE_ERR_CORRUPT);
	}
	return parse(data, size);
}

void lupe_tracing_data_free(void *tep)
{
	if (tep)
		tep_free(tep);
}

void *lupe_tracing_event(void *tep, uint64_t id, const char **sys, const char **name)
{
	struct tep_event *e = tep_find_event(tep, (int)id);

	if (!e)
		return NULL;
	*sys = e->system;
	*name = e->name;
	return e;
}

int lupe_tep_print_info(void *tep, int cpu, const void *raw, size_t len, char *buf,
			size_t size)
{
	struct tep_record rec;
	struct trace_seq s;
	int n;

	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)len;
	rec.data = (void *)raw;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	n = (int)s.len;
	if (size)
		snprintf(buf, size, "%s", s.buffer);
	trace_seq_destroy(&s);
	return n;
}

int lupe_evsel_format_trace(const struct lupe_evsel *evsel, const struct lupe_sample *sample,
			    char *buf, size_t size)
{
	struct tep_event *e = evsel->tp_format;

	if (!e || !sample->raw)
		return -ENOENT;
	return lupe_tep_print_info(e->tep, (int)sample->cpu, sample->raw, sample->raw_size, buf,
				   size);
}
