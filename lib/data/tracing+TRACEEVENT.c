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

/*
 * libtraceevent also trusts a format's field offsets and sizes when it
 * prints a record: a field at offset 4294967295 (or one past the record's
 * end) makes tep_print_fields() read wherever that points (perf 6.1 dies
 * there too). Each format is checked once after parsing (every field inside
 * the largest record, 64 KiB; at most MAX_FIELDS fields) and each record
 * before printing (every field, and each __data_loc's string, inside that
 * record). What fails is never handed to libtraceevent: its fields that
 * lie inside the record print raw, the rest as "?", with one warning per
 * event. The marks live in the event's flags, in bits libtraceevent leaves
 * unused.
 */
#define EV_BAD (1 << 28)    /* the format itself is broken */
#define EV_WARNED (1 << 27) /* said once */
#define EV_WARNED_TYPE (1 << 26) /* on the first event: a record's type was unreadable, said once */
#define MAX_RAW 65535       /* a sample record's size is a u16 */
#define MAX_FIELDS 4096

static int field_fits(const struct tep_format_field *f, size_t len)
{
	return f->offset >= 0 && f->size >= 0 && (size_t)f->offset + (size_t)f->size <= len;
}

static int format_sane(const struct tep_event *e)
{
	const struct tep_format_field *f;

	if (e->format.nr_common < 0 || e->format.nr_fields < 0 ||
	    (long)e->format.nr_common + e->format.nr_fields > MAX_FIELDS)
		return 0;
	for (f = e->format.common_fields; f; f = f->next)
		if (!field_fits(f, MAX_RAW))
			return 0;
	for (f = e->format.fields; f; f = f->next)
		if (!field_fits(f, MAX_RAW))
			return 0;
	return 1;
}

/*
 * libtraceevent computes a print argument's "a / b" and "a % b" as it
 * prints, with no test of b (found by fuzzing: SIGFPE). The kernel's
 * formats divide only by constants (sizeof(u64), 1000L, 250); a divisor
 * that is not a nonzero number, or a cast of one, is the record's to
 * choose, and its event prints raw. Deeper than MAX_ARG_DEPTH is refused
 * too (libtraceevent recurses as deep to print it).
 */
#define MAX_ARG_DEPTH 256

static int nonzero_constant(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_ATOM && a->atom.atom && strtoull(a->atom.atom, NULL, 0);
}

static int divides_safely(const struct tep_print_arg *a, int depth)
{
	for (; a; a = a->next) {
		const struct tep_print_arg *sub[3] = { NULL, NULL, NULL };

		if (depth > MAX_ARG_DEPTH)
			return 0;
		switch (a->type) {
		case TEP_PRINT_OP:
			if (a->op.op && (!strcmp(a->op.op, "/") || !strcmp(a->op.op, "%")) &&
			    !nonzero_constant(a->op.right))
				return 0;
			sub[0] = a->op.left, sub[1] = a->op.right;
			break;
		case TEP_PRINT_TYPE: sub[0] = a->typecast.item; break;
		case TEP_PRINT_FLAGS: sub[0] = a->flags.field; break;
		case TEP_PRINT_SYMBOL: sub[0] = a->symbol.field; break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR: sub[0] = a->hex.field, sub[1] = a->hex.size; break;
		case TEP_PRINT_INT_ARRAY:
			sub[0] = a->int_array.field, sub[1] = a->int_array.count,
			sub[2] = a->int_array.el_size;
			break;
		case TEP_PRINT_FUNC: sub[0] = a->func.args; break;
		case TEP_PRINT_DYNAMIC_ARRAY: sub[0] = a->dynarray.index; break;
		default: break;
		}
		for (int i = 0; i < 3; i++)
			if (!divides_safely(sub[i], depth + 1))
				return 0;
	}
	return 1;
}

static void check_formats(struct tep_handle *tep)
{
	int n = tep_get_events_count(tep);

	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);

		if (!e)
			continue;
		if (!format_sane(e)) {
			e->flags |= EV_BAD;
			pr_warn("the format of '%s:%s' in the tracing data has a field outside any record (or too many fields): its samples show their raw fields",
				e->system ? e->system : "?", e->name ? e->name : "?");
		} else if (!divides_safely(e->print_fmt.args, 0)) {
			e->flags |= EV_BAD;
			pr_warn("the format of '%s:%s' in the tracing data divides by a value that is not a constant (a record could make it divide by zero): its samples show their raw fields",
				e->system ? e->system : "?", e->name ? e->name : "?");
		}
	}
}

/* Field f of a record, when it and (a __data_loc) what it points to lie inside len. */
static int field_in_record(struct tep_handle *tep, const struct tep_format_field *f,
			   const uint8_t *raw, size_t len)
{
	unsigned long long loc, off;

	if (!field_fits(f, len))
		return 0;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
		return 1;
	if (f->size != 4)
		return 0;
	loc = tep_read_number(tep, raw + f->offset, 4);
	off = loc & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned long long)f->offset + (unsigned long long)f->size;
	return off + (loc >> 16) <= len;
}

/*
 * The record's event, *safe when libtraceevent may print the record:
 * its type field (read where the lowest event's format says, as
 * libtraceevent reads it) and every field inside the record.
 */
static struct tep_event *record_event(struct tep_handle *tep, const uint8_t *raw, size_t len,
				      int *safe)
{
	struct tep_event *first = tep_get_first_event(tep), *e;
	struct tep_format_field *type, *f;

	*safe = 0;
	if (!first)
		return NULL;
	/* (a broken lowest format is fine here as long as its type field is inside the record) */
	type = tep_find_common_field(first, "common_type");
	if (!type || type->size < 1 || type->size > 8 || !field_fits(type, len))
		return NULL;
	e = tep_find_event(tep, (int)tep_read_number(tep, raw + type->offset, type->size));
	if (!e) {
		/* libtraceevent says "no event found" by itself, reading the type where we did */
		*safe = !(first->flags & EV_BAD);
		return NULL;
	}
	if ((e->flags | first->flags) & EV_BAD)
		return e;
	for (f = e->format.common_fields; f; f = f->next)
		if (!field_in_record(tep, f, raw, len))
			return e;
	for (f = e->format.fields; f; f = f->next)
		if (!field_in_record(tep, f, raw, len))
			return e;
	*safe = 1;
	return e;
}

/* The raw fields of a record libtraceevent must not print: those inside it by value, "?" for the rest. */
static void print_raw(struct trace_seq *s, struct tep_handle *tep, const struct tep_event *e,
		      const uint8_t *raw, size_t len)
{
	const struct tep_format_field *f;

	trace_seq_printf(s, "[raw]");
	for (f = e ? e->format.fields : NULL; f; f = f->next) {
		trace_seq_printf(s, " %s=", f->name ? f->name : "?");
		if (!field_fits(f, len)) {
			trace_seq_puts(s, "?");
		} else if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
			   (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
			unsigned long long v = tep_read_number(tep, raw + f->offset, f->size);

			if (f->flags & TEP_FIELD_IS_SIGNED && f->size < 8 && v >> (f->size * 8 - 1))
				v |= ~0ULL << (f->size * 8);
			trace_seq_printf(s, f->flags & TEP_FIELD_IS_SIGNED ? "%lld" : "%llu", v);
		} else if (!(f->flags & TEP_FIELD_IS_DYNAMIC) && f->type && !strncmp(f->type, "char", 4) &&
			   (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))) {
			/* a char array: its text up to the first NUL, other bytes as \xNN */
			for (int i = 0; i < f->size && raw[f->offset + i]; i++) {
				uint8_t ch = raw[f->offset + i];

				if (ch >= 0x20 && ch < 0x7f && ch != '\\')
					trace_seq_putc(s, (char)ch);
				else
					trace_seq_printf(s, "\\x%02x", ch);
			}
		} else {
			trace_seq_puts(s, "0x");
			for (int i = 0; i < f->size; i++)
				trace_seq_printf(s, "%02x", raw[f->offset + i]);
		}
	}
	if (!e) {
		trace_seq_puts(s, " 0x");
		for (size_t i = 0; i < len; i++)
			trace_seq_printf(s, "%02x", raw[i]);
	}
}

void *lupe_tracing_data_parse(const void *data, size_t size)
{
	void *tep;

	if (!parses_safely(data, size)) {
		pr_warn("the tracing data is malformed (libtraceevent cannot parse it): tracepoint fields are not shown");
		return err_ptr(-LUPE_ERR_CORRUPT);
	}
	tep = parse(data, size);
	if (tep)
		check_formats(tep);
	return tep;
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
	struct tep_event *e;
	struct trace_seq s;
	int n, safe;

	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)len;
	rec.data = (void *)raw;
	trace_seq_init(&s);
	e = record_event(tep, raw, len, &safe);
	if (safe) {
		/*
		 * libtraceevent prints a string field with "%s" when its bytes
		 * up to the field's end are printable, NUL or not (found by
		 * fuzzing): a copy ending in NULs stops it at the record's end.
		 */
		uint8_t small[256 + 8], *copy = len <= 256 ? small : malloc(len + 8);

		if (copy) {
			memcpy(copy, raw, len);
			memset(copy + len, 0, 8);
			rec.data = copy;
			tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
			if (copy != small)
				free(copy);
		}
	} else {
		struct tep_event *first = tep_get_first_event(tep);

		if (e && !(e->flags & (EV_WARNED | EV_BAD)))
			pr_warn("a sample of '%s:%s' is shorter than its format says (%zu bytes): its raw fields are shown",
				e->system ? e->system : "?", e->name ? e->name : "?", len);
		else if (!e && first && !(first->flags & EV_WARNED_TYPE))
			pr_warn("a tracepoint sample's event cannot be read from its %zu bytes with the recorded formats: its raw bytes are shown",
				len);
		if (e)
			e->flags |= EV_WARNED;
		else if (first)
			first->flags |= EV_WARNED_TYPE;
		print_raw(&s, tep, e, raw, len);
	}
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
