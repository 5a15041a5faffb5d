// SPDX-License-Identifier: GPL-2.0
/*
 * perf's -D: every record as perf report -D and perf script -D print it,
 * in delivery order (the session's time order, FINISHED_ROUND before its
 * flush). The text is perf 6.1's, byte for byte where it is stable: the
 * scripts people keep around grep it. Formatting goes through snprintf:
 * a dump is a debugging aid, a few MB at most, not a hot path.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <lupe/evlist.h>
#include <lupe/perf-format.h>
#include <lupe/perfdata.h>
#include "dump.h"

const char *dump_event_name(unsigned type)
{
	const char *name = lupe_perf_record_name(type);

	/* 0 is no record type: the dump's tables count all records there */
	return !type ? "TOTAL" : name ? name : "UNKNOWN";
}

static void outf(struct obuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void outf(struct obuf *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		obuf_mem(o, buf, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);

	if (!big) {
		o->error = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	obuf_mem(o, big, (size_t)n);
	free(big);
}

/* perf's cpu_map__snprint(): "0-3,5" */
static void print_cpu_list(struct obuf *o, const uint16_t *cpus, size_t nr)
{
	for (size_t i = 0; i < nr;) {
		size_t j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		/* (u16)-1 in a list is "any CPU", as perf reads it */
		outf(o, "%s%d", i ? "," : "", cpus[i] == 0xffff ? -1 : (int)cpus[i]);
		if (j > i)
			outf(o, "-%u", cpus[j]);
		i = j + 1;
	}
}

/* A CPU map's data (CPU_MAP, EVENT_UPDATE's CPUS) as perf prints it; nothing for a broken one. */
static void print_cpu_map_data(struct obuf *o, const void *data, size_t size)
{
	uint16_t cpus[4097]; /* perf's 4096, and "any CPU" */
	int n = lupe_perf_cpu_map_decode(data, size, cpus, sizeof(cpus) / sizeof(*cpus));

	if (n >= 0)
		print_cpu_list(o, cpus, (size_t)n);
}

static void text_mmap2(struct obuf *o, const struct perf_event_header *ev,
		       const struct lupe_perf_record_fields *r)
{
	const struct perf_record_mmap2 *m = r->mmap2;
	char prot[5] = {
		m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
		m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p', 0,
	};

	outf(o, " %d/%d: [%#llx(%#llx) @ %#llx", (int)m->pid, (int)m->tid,
	     (unsigned long long)m->start, (unsigned long long)m->len, (unsigned long long)m->pgoff);
	if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		obuf_mem(o, " <", 2);
		for (int i = 0; i < m->build_id_size && i < 20; i++)
			outf(o, "%02x", m->build_id[i]);
		obuf_ch(o, '>');
	} else {
		outf(o, " %02x:%02x %llu %llu", m->maj, m->min, (unsigned long long)m->ino,
		     (unsigned long long)m->ino_generation);
	}
	outf(o, "]: %s %.*s\n", prot, r->str_len, r->str);
}

static void text_switch(struct obuf *o, const struct perf_event_header *ev,
			const struct lupe_perf_record_fields *r)
{
	int out = !!(ev->misc & PERF_RECORD_MISC_SWITCH_OUT);
	const char *in_out = !out ? "IN         " :
			     !(ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
										 "OUT preempt";

	if (!r->cpu_wide) {
		outf(o, " %s\n", in_out);
		return;
	}
	outf(o, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
	     (int)r->cpu_wide->next_prev_pid, (int)r->cpu_wide->next_prev_tid);
}

static void text_namespaces(struct obuf *o, const struct lupe_perf_record_fields *r)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	const struct perf_record_namespaces *n = r->namespaces;

	outf(o, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid,
	     (unsigned)n->nr_namespaces);
	for (uint64_t i = 0; i < r->nr; i++) {
		if (i && i % 4 == 0)
			obuf_mem(o, "\n\t\t ", 4);
		outf(o, "%u/%s: %llu/%#llx%s", (unsigned)i, i < 7 ? ns[i] : "UNKNOWN",
		     (unsigned long long)n->link_info[i].dev, (unsigned long long)n->link_info[i].ino,
		     i + 1 != r->nr ? ", " : "]\n");
	}
	if (!r->nr)
		obuf_ch(o, '\n');
}

int dump_event_text(struct obuf *o, const struct perf_event_header *ev)
{
	struct lupe_perf_record_fields r;

	if (lupe_perf_record_decode(ev, &r))
		return -1;
	switch (ev->type) {
	case PERF_RECORD_MMAP: {
		const struct perf_record_mmap *m = r.mmap;

		outf(o, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %.*s\n", (int)m->pid, (int)m->tid,
		     (unsigned long long)m->start, (unsigned long long)m->len,
		     (unsigned long long)m->pgoff,
		     (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER ? 'r' : 'x',
		     r.str_len, r.str);
		return 0;
	}
	case PERF_RECORD_MMAP2:
		text_mmap2(o, ev, &r);
		return 0;
	case PERF_RECORD_COMM:
		outf(o, "%s: %.*s:%d/%d\n", ev->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
		     r.str_len, r.str, (int)r.comm->pid, (int)r.comm->tid);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		outf(o, "(%d:%d):(%d:%d)\n", (int)r.fork->pid, (int)r.fork->tid, (int)r.fork->ppid,
		     (int)r.fork->ptid);
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		text_switch(o, ev, &r);
		return 0;
	case PERF_RECORD_NAMESPACES:
		text_namespaces(o, &r);
		return 0;
	case PERF_RECORD_KSYMBOL:
		outf(o, " addr %llx len %u type %u flags 0x%x name %.*s\n",
		     (unsigned long long)r.ksymbol->addr, r.ksymbol->len, r.ksymbol->ksym_type,
		     r.ksymbol->flags, r.str_len, r.str);
		return 0;
	case PERF_RECORD_BPF_EVENT:
		outf(o, " type %u, flags %u, id %u\n", r.bpf_event->type, r.bpf_event->flags,
		     r.bpf_event->id);
		return 0;
	case PERF_RECORD_CGROUP:
		outf(o, " cgroup: %llu %.*s\n", (unsigned long long)r.cgroup->id, r.str_len, r.str);
		return 0;
	default:
		return -1;
	}
}

/*
 * perf's binary__fprintf() with the dump's printer: 16 bytes a line, hex
 * then text. Built by hand: a dump is mostly these lines, and printf per
 * byte tripled its time.
 */
static void hexdump(struct obuf *o, const struct perf_event_header *ev)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *p = (const void *)ev;
	size_t len = ev->size;

	outf(o, ".\n. ... raw event: size %zu bytes\n", len);
	for (size_t i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;
		char line[80], *w = line;

		*w++ = '.';
		*w++ = ' ';
		*w++ = ' ';
		for (int sh = 12; sh >= 0; sh -= 4)
			*w++ = hex[(i >> sh) & 15];
		*w++ = ':';
		*w++ = ' ';
		for (size_t j = 0; j < 16; j++) {
			*w++ = ' ';
			*w++ = j < n ? hex[p[i + j] >> 4] : ' ';
			*w++ = j < n ? hex[p[i + j] & 15] : ' ';
		}
		*w++ = ' ';
		*w++ = ' ';
		for (size_t j = 0; j < 16; j++)
			*w++ = j >= n ? ' ' : isprint(p[i + j]) && isascii(p[i + j]) ? (char)p[i + j] : '.';
		*w++ = '\n';
		obuf_mem(o, line, (size_t)(w - line));
	}
	obuf_ch(o, '\n');
}

/* before: the events known before this many last ones came */
static uint64_t combined_sample_type(struct lupe_session *s, int *id_all, int before)
{
	struct lupe_evlist *el = lupe_session_evlist(s);
	uint64_t t = 0;

	*id_all = 0;
	for (int i = 0; el && i < lupe_evlist_nr(el) - before; i++) {
		const struct perf_event_attr *a = lupe_evsel_attr(lupe_evlist_evsel(el, i));

		t |= a->sample_type;
		if (!i)
			*id_all = a->sample_id_all;
	}
	return t;
}

/* x86-64's register names, perf_reg_name() there. */
const char *dump_reg_name(unsigned id)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (id < 24)
		return x86[id];
	if (id >= 32 && id < 64 && !(id & 1))
		return xmm[(id - 32) / 2];
	return "unknown";
}

static void print_regs(struct obuf *o, const char *type, uint64_t abi, uint64_t mask,
		       const uint64_t *regs)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	unsigned i = 0;

	outf(o, "... %s regs: mask 0x%llx ABI %s\n", type, (unsigned long long)mask,
	     abi <= 2 ? abis[abi] : "unknown");
	for (unsigned b = 0; b < 64; b++)
		if (mask >> b & 1)
			outf(o, ".... %-5s 0x%016llx\n", dump_reg_name(b), (unsigned long long)regs[i++]);
}

static void dump_sample(struct obuf *o, const struct perf_event_header *ev,
			const struct lupe_evsel *evsel, const struct lupe_sample *smp)
{
	const struct perf_event_attr *a = lupe_evsel_attr(evsel);
	uint64_t st = a->sample_type;

	outf(o, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n", ev->misc, (int)smp->pid,
	     (int)smp->tid, (unsigned long long)smp->ip, (unsigned long long)smp->period,
	     (unsigned long long)smp->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		outf(o, "... FP chain: nr:%llu\n", (unsigned long long)smp->nr_callchain);
		for (uint64_t i = 0; i < smp->nr_callchain; i++)
			outf(o, "..... %2d: %016llx\n", (int)i, (unsigned long long)smp->callchain[i]);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		const uint64_t *b = smp->branch;

		outf(o, "%s: nr:%llu\n", "... branch stack", (unsigned long long)smp->nr_branch);
		for (uint64_t i = 0; b && i < smp->nr_branch; i++) {
			uint64_t fl = b[3 * i + 2];

			outf(o, "..... %2llu: %016llx -> %016llx %hu cycles %s%s%s%s %x\n",
			     (unsigned long long)i, (unsigned long long)b[3 * i],
			     (unsigned long long)b[3 * i + 1], (unsigned short)(fl >> 4 & 0xffff),
			     fl & 1 ? "M" : " ", fl & 2 ? "P" : " ", fl & 8 ? "A" : " ",
			     fl & 4 ? "T" : " ", (unsigned)(fl >> 24));
		}
	}
	if ((st & PERF_SAMPLE_REGS_USER) && smp->user_regs && smp->user_abi)
		print_regs(o, "user", smp->user_abi, a->sample_regs_user, smp->user_regs);
	if ((st & PERF_SAMPLE_REGS_INTR) && smp->intr_regs && smp->intr_abi)
		print_regs(o, "intr", smp->intr_abi, a->sample_regs_intr, smp->intr_regs);
	/* perf: the size the kernel filled in, the offset of the size word before the bytes */
	if (st & PERF_SAMPLE_STACK_USER)
		outf(o, "... ustack: size %llu, offset 0x%x\n",
		     (unsigned long long)(smp->user_stack ? smp->user_stack_dyn : 0),
		     smp->user_stack ? (unsigned)((const char *)smp->user_stack - 8 - (const char *)ev) : 0);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		outf(o, "... weight: %llu\n", (unsigned long long)smp->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		outf(o, " . data_src: 0x%llx\n", (unsigned long long)smp->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		outf(o, " .. phys_addr: 0x%llx\n", (unsigned long long)smp->phys_addr);
	if (st & PERF_SAMPLE_TRANSACTION)
		outf(o, "... transaction: %llx\n", (unsigned long long)smp->transaction);
	if ((st & PERF_SAMPLE_READ) && smp->read) {
		uint64_t rf = a->read_format;
		const uint64_t *v = smp->read;

		obuf_str(o, "... sample_read:\n");
		if (rf & PERF_FORMAT_GROUP) {
			uint64_t nr = *v++;

			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				outf(o, "...... time enabled %016llx\n", (unsigned long long)*v++);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				outf(o, "...... time running %016llx\n", (unsigned long long)*v++);
			outf(o, ".... group nr %llu\n", (unsigned long long)nr);
			for (uint64_t i = 0; i < nr; i++) {
				uint64_t val = *v++, id = rf & PERF_FORMAT_ID ? *v++ : 0;

				outf(o, "..... id %016llx, value %016llx", (unsigned long long)id,
				     (unsigned long long)val);
				if (rf & PERF_FORMAT_LOST)
					outf(o, ", lost %llu", (unsigned long long)*v++);
				obuf_ch(o, '\n');
			}
		} else {
			uint64_t val = *v++, id;

			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				outf(o, "...... time enabled %016llx\n", (unsigned long long)*v++);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				outf(o, "...... time running %016llx\n", (unsigned long long)*v++);
			id = rf & PERF_FORMAT_ID ? *v++ : 0;
			outf(o, "..... id %016llx, value %016llx", (unsigned long long)id,
			     (unsigned long long)val);
			if (rf & PERF_FORMAT_LOST)
				outf(o, ", lost %llu", (unsigned long long)*v);
			obuf_ch(o, '\n');
		}
	}
}

/* perf reads READ as its fixed struct, whatever read_format says */
static void other_read(struct dump *d, const struct lupe_perf_record_fields *r,
		       const struct lupe_evsel *evsel)
{
	struct obuf *o = d->out;
	const struct perf_record_read *rd = &r->read;

	outf(o, ": %d %d %s %llu\n", (int)rd->pid, (int)rd->tid,
	     evsel && lupe_evsel_name(evsel) ? lupe_evsel_name(evsel) : "unknown",
	     (unsigned long long)rd->value);
	if (evsel) {
		uint64_t rf = lupe_evsel_attr(evsel)->read_format;

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			outf(o, "... time enabled : %llu\n", (unsigned long long)rd->time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			outf(o, "... time running : %llu\n", (unsigned long long)rd->time_running);
		if (rf & PERF_FORMAT_ID)
			outf(o, "... id           : %llu\n", (unsigned long long)rd->id);
		if (rf & PERF_FORMAT_LOST)
			outf(o, "... lost         : %llu\n", (unsigned long long)rd->lost);
	}
	/* perf script takes no READ record: it says so after the fields */
	if (d->script)
		obuf_str(o, ": unhandled!\n");
}

static void other_event_update(struct obuf *o, const struct lupe_perf_record_fields *r)
{
	outf(o, "\n... id:    %llu\n", (unsigned long long)r->event_update->id);
	switch (r->event_update->type) {
	case PERF_EVENT_UPDATE__UNIT:
		outf(o, "... unit:  %.*s\n", r->str_len, r->str);
		break;
	case PERF_EVENT_UPDATE__SCALE:
		outf(o, "... scale: %f\n", r->scale);
		break;
	case PERF_EVENT_UPDATE__NAME:
		outf(o, "... name:  %.*s\n", r->str_len, r->str);
		break;
	case PERF_EVENT_UPDATE__CPUS:
		obuf_str(o, "... ");
		print_cpu_map_data(o, r->cpus, r->cpus_size);
		obuf_ch(o, '\n');
		break;
	default:
		obuf_str(o, "... unknown type\n");
		break;
	}
}

/* The fields perf prints for records its tools take in without a word. */
static void dump_other(struct dump *d, const struct perf_event_header *ev,
		       const struct lupe_evsel *evsel, const struct lupe_sample *sample)
{
	struct obuf *o = d->out;
	struct lupe_perf_record_fields r;
	int err = lupe_perf_record_decode(ev, &r);

	switch (ev->type) {
	case PERF_RECORD_READ:
		other_read(d, &r, evsel);
		return;
	case PERF_RECORD_LOST:
		if (!err)
			outf(o, ": id:%llu: lost:%llu\n", (unsigned long long)r.lost->id,
			     (unsigned long long)r.lost->lost);
		return;
	case PERF_RECORD_LOST_SAMPLES: {
		/* {lost, sample_id}: perf prints the sample id's id, -1 without one */
		uint64_t id = sample->attr && (sample->attr->sample_type &
					       (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) ? sample->id : (uint64_t)-1;

		if (!err)
			outf(o, ": id:%llu: lost samples :%llu\n", (unsigned long long)id,
			     (unsigned long long)r.lost_samples->lost);
		return;
	}
	case PERF_RECORD_FINISHED_ROUND:
		obuf_ch(o, '\n');
		return;
	case PERF_RECORD_ID_INDEX:
		if (err)
			return;
		outf(o, " nr: %llu\n", (unsigned long long)r.nr);
		for (uint64_t i = 0; i < r.nr; i++) {
			const struct perf_record_id_index_entry *e = &r.id_index->entries[i];

			outf(o, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			     (unsigned long long)e->id, (unsigned long long)e->idx, (long long)e->cpu,
			     (long long)e->tid);
		}
		return;
	case PERF_RECORD_THREAD_MAP:
		if (err)
			return;
		outf(o, " nr: %d thread%s: ", (int)r.nr, r.nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < r.nr; i++)
			outf(o, "%s%d", i ? "," : "", (int)r.thread_map->entries[i].pid);
		obuf_ch(o, '\n');
		if (!d->script)
			obuf_str(o, ": unhandled!\n");
		return;
	case PERF_RECORD_CPU_MAP:
		obuf_mem(o, ": ", 2);
		print_cpu_map_data(o, r.cpus, r.cpus_size);
		obuf_ch(o, '\n');
		if (!d->script)
			obuf_str(o, ": unhandled!\n");
		return;
	case PERF_RECORD_EVENT_UPDATE:
		if (!err)
			other_event_update(o, &r);
		return;
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_TIME_CONV:
		return;
	default:
		obuf_str(o, ": unhandled!\n");
		return;
	}
}

void dump_init(struct dump *d, struct lupe_session *s, const char *path, struct obuf *out,
	       int script)
{
	struct lupe_perf_file *f = lupe_session_file(s);

	memset(d, 0, sizeof(*d));
	d->out = out;
	d->script = script;
	d->pipe = f && lupe_perf_file_is_pipe(f);
	d->path = d->pipe ? "pipe" : path;
}

int dump_record(struct dump *d, struct lupe_session *s, const struct perf_event_header *ev,
		uint64_t offset, struct lupe_evsel *evsel, const struct lupe_sample *sample)
{
	static const struct lupe_sample none;
	struct obuf *o = d->out;
	int id_all;
	/* a pipe's ATTR record: perf prints it before it knows its event */
	uint64_t st = combined_sample_type(s, &id_all, ev->type == PERF_RECORD_HEADER_ATTR);

	/* a pipe's offsets count from the end of its 16-byte header, as perf's do */
	if (d->pipe && offset >= 16)
		offset -= 16;

	d->nr_events[0]++;
	if (ev->type < DUMP_NR_TYPES)
		d->nr_events[ev->type]++;
	outf(o, "\n%#llx@%s [%#x]: event: %u\n", (unsigned long long)offset, d->path, ev->size, ev->type);
	hexdump(o, ev);
	if (!sample)
		sample = &none;
	if (ev->type != PERF_RECORD_SAMPLE && !id_all) {
		obuf_str(o, "-1 -1 ");
	} else {
		if (st & PERF_SAMPLE_CPU)
			outf(o, "%u ", sample->cpu);
		if (st & PERF_SAMPLE_TIME)
			outf(o, "%llu ", (unsigned long long)sample->time);
	}
	outf(o, "%#llx [%#x]: PERF_RECORD_%s", (unsigned long long)offset, ev->size,
	     dump_event_name(ev->type));
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (evsel && sample != &none)
			dump_sample(o, ev, evsel, sample);
		else
			obuf_ch(o, '\n');
	} else if (dump_event_text(o, ev)) {
		dump_other(d, ev, evsel, sample);
	}
	return o->error ? -EIO : 0;
}

void dump_sample_thread(struct dump *d, struct lupe_session *s, const struct lupe_sample *sample,
			struct lupe_thread *t, uint8_t cpumode)
{
	struct lupe_frame f;
	int kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
		     cpumode == PERF_RECORD_MISC_HYPERVISOR;

	outf(d->out, " ... thread: %s:%d\n", t->comm ? t->comm : "", t->tid);
	lupe_session_resolve_ip(s, t, sample->ip, kernel, &f);
	outf(d->out, " ...... dso: %s\n",
	     f.map ? lupe_dso_long_name(f.map->dso) :
	     cpumode == PERF_RECORD_MISC_HYPERVISOR ? "[hypervisor]" : "<not found>");
}

void dump_stats(struct dump *d, struct lupe_session *s)
{
	struct lupe_perf_file *f = lupe_session_file(s);
	struct lupe_evlist *el = lupe_session_evlist(s);
	struct obuf *o = d->out;
	uint64_t comp = f ? lupe_perf_file_nr_compressed(f) : 0;

	d->nr_events[0] += comp;
	d->nr_events[PERF_RECORD_COMPRESSED] += comp;
	obuf_str(o, "\nAggregated stats:\n");
	for (unsigned i = 0; i < DUMP_NR_TYPES; i++) {
		const char *name = dump_event_name(i);

		if (!strcmp(name, "UNKNOWN") || (i && !d->nr_events[i]))
			continue;
		if (i && d->nr_events[0])
			outf(o, "%16s events: %10d  (%4.1f%%)\n", name, (int)d->nr_events[i],
			     100.0 * (double)d->nr_events[i] / (double)d->nr_events[0]);
		else
			outf(o, "%16s events: %10d\n", name, (int)d->nr_events[i]);
	}
	for (int i = 0; el && i < lupe_evlist_nr(el); i++) {
		const struct lupe_evsel *e = lupe_evlist_evsel(el, i);
		const struct lupe_evsel_stats *st = lupe_evsel_stats(e);

		/* perf -D counts no lost samples per event: they come in the table above */
		if (!st->nr_samples)
			continue;
		outf(o, "%s stats:\n", lupe_evsel_name(e) ? lupe_evsel_name(e) : "unknown");
		outf(o, "%16s events: %10d\n", "SAMPLE", (int)st->nr_samples);
	}
}

struct dump_tool {
	struct lupe_tool tool;
	struct dump d;
};

static int on_record(struct lupe_tool *tool, struct lupe_session *s,
		     const struct perf_event_header *ev, uint64_t offset, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample)
{
	return dump_record(&((struct dump_tool *)tool)->d, s, ev, offset, evsel, sample);
}

static int on_sample(struct lupe_tool *tool, struct lupe_session *s, struct lupe_evsel *evsel,
		     const struct lupe_sample *sample, struct lupe_thread *thread,
		     const struct perf_event_header *ev)
{
	struct dump *d = &((struct dump_tool *)tool)->d;

	(void)evsel;
	dump_sample_thread(d, s, sample, thread, ev->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	return d->out->error ? -EIO : 0;
}

/* report --stats: the records are counted, not printed. */
static int on_record_count(struct lupe_tool *tool, struct lupe_session *s,
			   const struct perf_event_header *ev, uint64_t offset, struct lupe_evsel *evsel,
			   const struct lupe_sample *sample)
{
	struct dump *d = &((struct dump_tool *)tool)->d;

	d->nr_events[0]++;
	if (ev->type < DUMP_NR_TYPES)
		d->nr_events[ev->type]++;
	return 0;
}

int dump_session(struct lupe_session *s, const char *path, FILE *fp, int stats_only)
{
	struct dump_tool *dt = calloc(1, sizeof(*dt));
	struct obuf *out = malloc(sizeof(*out));
	int err;

	if (!dt || !out) {
		free(dt);
		free(out);
		return -ENOMEM;
	}
	out->fp = fp;
	out->len = 0;
	out->error = 0;
	dump_init(&dt->d, s, path, out, 0);
	dt->tool.record = stats_only ? on_record_count : on_record;
	dt->tool.sample = stats_only ? NULL : on_sample;
	dt->tool.ordered = 1;
	err = lupe_session_process(s, &dt->tool);
	if (!err || err != -EIO)
		dump_stats(&dt->d, s);
	obuf_flush(out);
	if (out->error && !err)
		err = -EIO;
	free(out);
	free(dt);
	return err;
}
