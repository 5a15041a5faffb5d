// SPDX-License-Identifier: GPL-2.0
/*
 * Sample lines as perf script prints them: the same columns, widths and
 * separators, so that tools reading perf's text read ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/hist.h>
#include "dump.h"
#include "script.h"

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVENT }, { "ip", SF_IP }, { "sym", SF_SYM },
	{ "symoff", SF_SYMOFF }, { "dso", SF_DSO }, { "period", SF_PERIOD }, { "trace", SF_TRACE },
	{ "srcline", SF_SRCLINE }, { "iregs", SF_IREGS }, { "uregs", SF_UREGS }, { "addr", SF_ADDR },
	{ "cgroup", SF_CGROUP },
};

static const char *const type_names[SCRIPT_NR_TYPES] = {
	"hw", "sw", "trace", NULL, "raw", "break", NULL, "synth",
};
#define TYPE_TRACE 2
#define TYPE_OTHER 6

/* perf's output_type(): the attr type, other PMUs together */
static int output_type(uint32_t type)
{
	return type < TYPE_OTHER ? (int)type : TYPE_OTHER;
}

static unsigned invalid_fields(int type)
{
	return type == TYPE_TRACE || type == 7 ? 0 : SF_TRACE;
}

void script_fields_default(struct script_printer *p)
{
	for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
		p->fields[t] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT;
		p->fields[t] |= t == TYPE_TRACE ? SF_TRACE :
				SF_IP | SF_SYM | SF_SYMOFF | SF_DSO | SF_PERIOD;
		p->user_set_fields[t] = 0;
		p->user_set[t] = 0;
	}
}

int script_parse_fields(struct script_printer *p, const char *spec, const char **why)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	const char *colon = strchr(spec, ':');
	char *copy, *tok, *save, *list;
	int type = -1, ret = 0;

	copy = strdup(spec);
	if (!copy) {
		*why = "out of memory";
		return -1;
	}
	list = copy;
	if (colon) {
		copy[colon - spec] = 0;
		list = copy + (colon - spec) + 1;
		for (int t = 0; t < SCRIPT_NR_TYPES; t++)
			if (type_names[t] && !strcmp(copy, type_names[t]))
				type = t;
		if (type < 0) {
			*why = "unknown event type in -F (use hw, sw, trace, raw, break or synth)";
			free(copy);
			return -1;
		}
		/* "type:f1,f2" starts that type from nothing; +- change its defaults */
		if (!strchr(list, '+') && !strchr(list, '-')) {
			p->fields[type] = 0;
			p->user_set[type] = 1;
			p->emptied[type] = !*list;
		}
	} else if (!*spec) {
		*why = "-F cannot set no fields for all event types";
		free(copy);
		return -1;
	} else if (!strchr(list, '+') && !strchr(list, '-')) {
		for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
			p->fields[t] = 0;
			p->user_set[t] = 1;
		}
	}
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		unsigned bit;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok++ == '+' ? ADD : REMOVE;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		for (i = 0; i < sizeof(field_names) / sizeof(*field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == sizeof(field_names) / sizeof(*field_names)) {
			*why = "unknown field in -F (try comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,trace,srcline,iregs,uregs,addr)";
			ret = -1;
			break;
		}
		bit = field_names[i].bit;
		if (type < 0) {
			/* for every type it is valid for (perf warns about the others) */
			for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
				if (invalid_fields(t) & bit)
					continue;
				if (change == REMOVE) {
					p->fields[t] &= ~bit;
					p->user_set_fields[t] &= ~bit;
				} else {
					p->fields[t] |= bit;
					p->user_set_fields[t] |= bit;
				}
				p->user_set[t] = 1;
			}
		} else {
			if (invalid_fields(type) & bit) {
				*why = "-F: 'trace' is a field of tracepoint events only";
				ret = -1;
				break;
			}
			if (change == REMOVE)
				p->fields[type] &= ~bit;
			else
				p->fields[type] |= bit;
			p->user_set[type] = 1;
		}
	}
	free(copy);
	return ret;
badmix:
	free(copy);
	*why = "-F cannot mix +field/-field with a list of fields";
	return -1;
}

const char *script_check_fields(struct script_printer *p, struct lupe_session *s, char *buf,
				size_t size)
{
	static const struct {
		unsigned field;
		uint64_t need;
		const char *name, *attr;
	} needs[] = {
		{ SF_IP, PERF_SAMPLE_IP, "ip", "IP" },
		{ SF_TID, PERF_SAMPLE_TID, "tid", "TID" },
		{ SF_PID, PERF_SAMPLE_TID, "pid", "TID" },
		{ SF_TIME, PERF_SAMPLE_TIME, "time", "TIME" },
		{ SF_CPU, PERF_SAMPLE_CPU, "cpu", "CPU" },
		{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "iregs", "IREGS" },
		{ SF_UREGS, PERF_SAMPLE_REGS_USER, "uregs", "UREGS" },
		{ SF_ADDR, PERF_SAMPLE_ADDR, "addr", "ADDR" },
		{ SF_CGROUP, PERF_SAMPLE_CGROUP, "cgroup", "CGROUP" },
	};
	struct lupe_perf_file *f = lupe_session_file(s);
	int callchain = 0;

	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++)
		callchain |= !!(lupe_evsel_attr(lupe_perf_file_evsel(f, i))->sample_type & PERF_SAMPLE_CALLCHAIN);
	/* tracepoints show where they fired when they carry callchains */
	for (size_t i = 0; callchain && !p->user_set[TYPE_TRACE] && i < lupe_perf_file_nr_evsels(f); i++) {
		const struct perf_event_attr *a = lupe_evsel_attr(lupe_perf_file_evsel(f, i));

		if (a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_CALLCHAIN)) {
			p->fields[TYPE_TRACE] |= SF_IP | SF_SYM | SF_SYMOFF | SF_DSO;
			break;
		}
	}
	/* "-F sw:" hides an event type: refused when there is none, as perf does */
	for (int t = 0; t < SCRIPT_NR_TYPES; t++) {
		int have = 0;

		if (!p->emptied[t] || t == 7)
			continue;
		for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++)
			have |= output_type(lupe_evsel_attr(lupe_perf_file_evsel(f, i))->type) == t;
		if (!have && lupe_perf_file_nr_evsels(f))
			return snprintf(buf, size, "-F %s: names no field, and the file has no %s events (drop it)",
					type_names[t] ? type_names[t] : "?", type_names[t] ? type_names[t] : "such"), buf;
	}
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		const struct perf_event_attr *a = lupe_evsel_attr(e);
		int t = output_type(a->type), seen = 0;

		/* as perf, judge each event type by its first event */
		for (size_t j = 0; j < i; j++)
			seen |= output_type(lupe_evsel_attr(lupe_perf_file_evsel(f, j))->type) == t;
		if (seen)
			continue;
		for (size_t k = 0; k < sizeof(needs) / sizeof(*needs); k++) {
			if (!(p->fields[t] & needs[k].field) || (a->sample_type & needs[k].need))
				continue;
			if (p->user_set_fields[t] & needs[k].field) {
				snprintf(buf, size, "samples of '%s' have no %s field: cannot print '%s' (drop it from -F)",
					 lupe_evsel_name(e) ? lupe_evsel_name(e) : "?", needs[k].attr, needs[k].name);
				return buf;
			}
			p->fields[t] &= ~needs[k].field;
			/* without the ip, nothing to find a symbol for */
			if (needs[k].field == SF_IP && !(p->user_set_fields[t] & (SF_SYM | SF_DSO | SF_SYMOFF)))
				p->fields[t] &= ~(SF_SYM | SF_SYMOFF | SF_DSO | SF_SRCLINE);
		}
		if ((p->fields[t] & SF_SYMOFF) && !(p->fields[t] & SF_SYM))
			return snprintf(buf, size, "-F symoff needs sym (add it)"), buf;
		if ((p->fields[t] & SF_SRCLINE) && !(p->fields[t] & SF_IP))
			return snprintf(buf, size, "-F srcline needs ip (add it)"), buf;
		if ((p->fields[t] & (SF_SYM | SF_DSO | SF_SRCLINE)) && !(a->sample_type & PERF_SAMPLE_IP))
			return snprintf(buf, size, "samples of '%s' have no IP field: cannot print symbols, DSOs or source lines (drop them from -F)",
					lupe_evsel_name(e) ? lupe_evsel_name(e) : "?"), buf;
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

void script_printer_release(struct script_printer *p)
{
	free(p->texts);
	p->texts = NULL;
}

static unsigned fields_for(const struct script_printer *p, const struct lupe_evsel *evsel)
{
	return p->fields[output_type(lupe_evsel_attr(evsel)->type)];
}

/* "\n  FILE:LINE": a frame's source line as perf prints it. */
static void print_srcline(struct obuf *o, struct lupe_session *s, const struct lupe_frame *fr)
{
	char buf[1024], *big = NULL;
	int n = lupe_session_srcline_text(s, fr, buf, sizeof(buf));

	/* a kernel frame's is its symbol's name: whole, however long */
	if (n >= (int)sizeof(buf) && (big = malloc((size_t)n + 1)))
		lupe_session_srcline_text(s, fr, big, (size_t)n + 1);
	obuf_mem(o, "\n  ", 3);
	obuf_mem(o, big ? big : buf, n < 0 ? 0 : big || n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	free(big);
}

/*
 * A chain's line ("\t ADDR SYM+0xOFF (DSO)\n") as it was printed for the
 * same address, symbol, offset, DSO and fields: a sample's frames are
 * mostly those of the samples before it, and formatting them again (hex,
 * and the names' lengths) was a tenth of a dwarf file's `lupe script`.
 * Direct-mapped: a clash replaces the line. Lines of TEXT_MAX bytes or
 * more, and those with source lines, are formatted every time. The keys'
 * symbols and DSOs stay while the session does (a DSO that a map lookup
 * handed out is pinned, its symbols with it).
 */
#define TEXTS 4096
#define TEXT_MAX 112

struct script_frame_text {
	uint64_t addr, vaddr;
	const void *sym, *dso;
	unsigned f;
	uint8_t inlined, len; /* len 0: an empty slot */
	char text[TEXT_MAX];
};

static void print_frame(struct obuf *o, struct lupe_session *s, const struct lupe_frame *fr,
			unsigned f, int in_chain);

static void print_chain_frame(struct script_printer *p, struct lupe_session *s,
			      const struct lupe_frame *fr, unsigned f)
{
	struct obuf *o = p->out;
	const void *dso = fr->map ? (const void *)fr->map->dso : NULL;
	uint64_t h = (fr->addr ^ (uint64_t)(uintptr_t)fr->sym * 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
	struct script_frame_text *t;
	size_t bound, start;

	if ((f & SF_SRCLINE) || (!p->texts && !(p->texts = calloc(TEXTS, sizeof(*p->texts))))) {
		print_frame(o, s, fr, f, 1);
		return;
	}
	t = &p->texts[(h >> 40) % TEXTS];
	if (t->len && t->addr == fr->addr && t->vaddr == fr->vaddr && t->sym == fr->sym &&
	    t->dso == dso && t->f == f && t->inlined == fr->inlined) {
		obuf_mem(o, t->text, t->len);
		return;
	}
	/* room for the whole line first, so that no flush splits it */
	bound = 64 + (fr->sym ? strlen(fr->sym->name) : 0) + (fr->map ? strlen(lupe_dso_long_name(fr->map->dso)) : 0);
	if (bound > 4096) {
		print_frame(o, s, fr, f, 1);
		return;
	}
	obuf_room(o, bound);
	start = o->len;
	print_frame(o, s, fr, f, 1);
	if (o->len - start >= TEXT_MAX)
		return;
	*t = (struct script_frame_text){ .addr = fr->addr, .vaddr = fr->vaddr, .sym = fr->sym, .dso = dso,
					 .f = f, .inlined = fr->inlined, .len = (uint8_t)(o->len - start) };
	memcpy(t->text, o->buf + start, t->len);
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

/* perf_sample__fprintf_regs(): " ABI:2    DI:0x7ffd9c9716cc ..." */
static void print_regs(struct obuf *o, uint64_t abi, uint64_t mask, const uint64_t *regs)
{
	unsigned i = 0;

	obuf_mem(o, " ABI:", 5);
	obuf_dec(o, abi, 0, ' ');
	obuf_ch(o, ' ');
	for (unsigned b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		obuf_pad_str(o, dump_reg_name(b), 5);
		obuf_mem(o, ":0x", 3);
		obuf_hex(o, regs[i++], 0);
		obuf_ch(o, ' ');
	}
}

/* perf_sample__fprintf_start(): comm, pid/tid, cpu, time */
static void print_start(const struct script_printer *p, unsigned f, const char *comm, int whole_comm,
			const struct lupe_sample *sample)
{
	struct obuf *o = p->out;

	if (f & SF_COMM) {
		if (whole_comm)
			obuf_str(o, comm);
		else
			obuf_pad_str(o, comm, 16);
		obuf_ch(o, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		obuf_sdec(o, (int32_t)sample->pid, 5);
		obuf_ch(o, '/');
		obuf_sdec(o, (int32_t)sample->tid, -5); /* perf's %-5d: tid -1 is -1 */
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
		uint64_t ns = sample->time % 1000000000ULL;

		obuf_dec(o, secs, 5, ' ');
		obuf_ch(o, '.');
		if (p->nanosecs)
			obuf_dec(o, ns, 9, '0');
		else
			obuf_dec(o, ns / 1000, 6, '0');
		obuf_mem(o, ": ", 2);
	}
}

void script_print_event(struct script_printer *p, struct lupe_session *s,
			const struct perf_event_header *ev, struct lupe_evsel *evsel,
			const struct lupe_sample *sample)
{
	/* perf reads a record's own pid and tid after its header, whatever its type */
	const struct { struct perf_event_header h; uint32_t pid, tid; } *ids = (const void *)ev;
	struct lupe_perf_record_fields r;
	int decoded = !lupe_perf_record_decode(ev, &r);
	struct lupe_sample none = { 0 };
	struct lupe_thread *t = NULL;
	unsigned f;
	int pid = -1, tid = -1;

	int own_ids = ev->type != PERF_RECORD_SWITCH && ev->type != PERF_RECORD_SWITCH_CPU_WIDE &&
		      ev->type != PERF_RECORD_LOST;

	if (ev->size >= sizeof(*ids) && own_ids) {
		pid = (int)ids->pid;
		tid = (int)ids->tid;
		if ((ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT) && decoded)
			tid = (int)r.fork->tid;
	}
	if (!evsel) {
		/* no sample_id: perf takes the first event, the record's own pid/tid, time 0 */
		struct lupe_evlist *el = lupe_session_evlist(s);

		if (!el || !lupe_evlist_nr(el))
			return;
		evsel = lupe_evlist_evsel(el, 0);
		none.pid = (uint32_t)pid;
		none.tid = (uint32_t)tid;
		if ((ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT) && decoded)
			none.time = r.fork->time;
		sample = &none;
	}
	if (!own_ids) {
		/* the sample_id's thread */
		pid = (int)sample->pid;
		tid = (int)sample->tid;
	}
	if (tid != -1)
		t = lupe_session_thread(s, pid, tid);
	f = fields_for(p, evsel);
	print_start(p, f, t && t->comm ? t->comm : ":-1",
		    (f & SF_IP) && (lupe_evsel_attr(evsel)->sample_type & PERF_SAMPLE_CALLCHAIN), sample);
	obuf_mem(p->out, "PERF_RECORD_", 12);
	obuf_str(p->out, dump_event_name(ev->type));
	if (ev->type == PERF_RECORD_LOST && decoded) {
		obuf_mem(p->out, " lost ", 6);
		obuf_dec(p->out, r.lost->lost, 0, ' ');
		obuf_ch(p->out, '\n');
	} else if (dump_event_text(p->out, ev)) {
		obuf_ch(p->out, '\n');
	}
}

/*
 * perf_sample__fprintf_addr(): the sample's data address, and for page
 * faults (perf's sample_addr_correlates_sym) its symbol and DSO, looked
 * up in the sample's cpumode, then the other one.
 */
static void print_addr(struct script_printer *p, struct lupe_session *s, const struct lupe_evsel *evsel,
		       const struct lupe_sample *sample, struct lupe_thread *thread, uint8_t cpumode,
		       unsigned f)
{
	const struct perf_event_attr *a = lupe_evsel_attr(evsel);
	int kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct lupe_frame fr;

	{
		char hex[24];
		int n = snprintf(hex, sizeof(hex), "%16llx", (unsigned long long)sample->addr);

		obuf_mem(p->out, hex, (size_t)n);
	}
	if (a->type != PERF_TYPE_SOFTWARE || (a->config != PERF_COUNT_SW_PAGE_FAULTS &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	lupe_session_resolve_ip(s, thread, sample->addr, kernel, &fr);
	if (!fr.map)
		lupe_session_resolve_ip(s, thread, sample->addr, !kernel, &fr);
	fr.inlined = 0;
	print_frame(p->out, s, &fr, f & (SF_SYM | SF_SYMOFF | SF_DSO), 0);
}

void script_print_sample(struct script_printer *p, struct lupe_session *s,
			 struct lupe_evsel *evsel, const struct lupe_sample *sample,
			 struct lupe_thread *thread, uint8_t cpumode)
{
	unsigned f = fields_for(p, evsel);
	struct obuf *o = p->out;
	int has_chain = sample->callchain && (f & SF_IP);

	print_start(p, f, thread->comm, has_chain, sample);
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
	if (f & SF_ADDR)
		print_addr(p, s, evsel, sample, thread, cpumode, f);
	/* perf prints symbols, DSOs and source lines only with the ip */
	if (f & SF_IP) {
		struct lupe_sample cut;
		int n, lost;

		/*
		 * --max-stack (perf's default when not given: the sysctl): the
		 * first addresses, as perf script walks chains from the callee
		 */
		if (has_chain && (p->max_stack < 0 || sample->nr_callchain > lupe_callchain_max(p->max_stack)) &&
		    sample->nr_callchain <= LUPE_SESSION_MAX_CHAIN) {
			cut = *sample;
			cut.callchain = p->cut;
			cut.nr_callchain = lupe_callchain_cut(sample->callchain, (uint32_t)sample->nr_callchain,
							      lupe_callchain_max(p->max_stack), 0, p->cut, &lost);
			sample = &cut;
		}
		n = lupe_session_resolve(s, thread, sample, cpumode, p->frames,
					 (int)(sizeof(p->frames) / sizeof(*p->frames)));

		if (has_chain) {
			obuf_ch(o, '\n');
			for (int i = 0; i < n; i++)
				print_chain_frame(p, s, &p->frames[i], f);
		} else if (n) {
			print_frame(o, s, &p->frames[0], f, 0);
		}
	}
	if ((f & SF_IREGS) && sample->intr_regs)
		print_regs(o, sample->intr_abi, lupe_evsel_attr(evsel)->sample_regs_intr, sample->intr_regs);
	if ((f & SF_UREGS) && sample->user_regs)
		print_regs(o, sample->user_abi, lupe_evsel_attr(evsel)->sample_regs_user, sample->user_regs);
	/* newer perf's cgroup field (perf 6.1 has none): the path, or "unknown" */
	if (f & SF_CGROUP) {
		const char *name = sample->cgroup ? lupe_session_cgroup_name(s, sample->cgroup) : "unknown";

		obuf_ch(o, ' ');
		obuf_str(o, name);
	}
	obuf_ch(o, '\n');
}
