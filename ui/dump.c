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
#include <lupe/perfdata.h>
#include "dump.h"

/* perf's own record types (perf.data's user records). */
enum {
	REC_ATTR = 64, REC_EVENT_TYPE, REC_TRACING_DATA, REC_BUILD_ID, REC_FINISHED_ROUND,
	REC_ID_INDEX, REC_AUXTRACE_INFO, REC_AUXTRACE, REC_AUXTRACE_ERROR, REC_THREAD_MAP,
	REC_CPU_MAP, REC_STAT_CONFIG, REC_STAT, REC_STAT_ROUND, REC_EVENT_UPDATE, REC_TIME_CONV,
	REC_FEATURE, REC_COMPRESSED, REC_FINISHED_INIT,
};

/* Record layouts of the kernel's and perf's ABI (perf_event.h, perf.data). */
struct rec_mmap {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct rec_mmap2 {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size, reserved1;
			uint16_t reserved2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct rec_comm {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[];
};

struct rec_fork {
	struct perf_event_header h;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct rec_lost {
	struct perf_event_header h;
	uint64_t id, lost;
};

struct rec_switch {
	struct perf_event_header h;
	uint32_t next_prev_pid, next_prev_tid;
};

struct rec_namespaces {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr;
	struct {
		uint64_t dev, ino;
	} link[];
};

struct rec_ksymbol {
	struct perf_event_header h;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

struct rec_bpf {
	struct perf_event_header h;
	uint16_t type, flags;
	uint32_t id;
};

struct rec_cgroup {
	struct perf_event_header h;
	uint64_t id;
	char path[];
};

struct rec_id_index {
	struct perf_event_header h;
	uint64_t nr;
	struct {
		uint64_t id, idx, cpu, tid;
	} e[];
};

struct rec_thread_map {
	struct perf_event_header h;
	uint64_t nr;
	struct {
		uint64_t pid;
		char comm[16];
	} e[];
};

struct rec_event_update {
	struct perf_event_header h;
	uint64_t type, id;
	char data[];
};

static const char *const names[] = {
	[0] = "TOTAL", [PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2", [PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START", [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH", [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[REC_ATTR] = "ATTR", [REC_EVENT_TYPE] = "EVENT_TYPE",
	[REC_TRACING_DATA] = "TRACING_DATA",
	[REC_BUILD_ID] = "BUILD_ID", [REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[REC_ID_INDEX] = "ID_INDEX", [REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[REC_AUXTRACE] = "AUXTRACE", [REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[REC_THREAD_MAP] = "THREAD_MAP", [REC_CPU_MAP] = "CPU_MAP",
	[REC_STAT_CONFIG] = "STAT_CONFIG", [REC_STAT] = "STAT",
	[REC_STAT_ROUND] = "STAT_ROUND", [REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[REC_TIME_CONV] = "TIME_CONV", [REC_FEATURE] = "FEATURE",
	[REC_COMPRESSED] = "COMPRESSED", [REC_FINISHED_INIT] = "FINISHED_INIT",
};

const char *dump_event_name(unsigned type)
{
	return type < sizeof(names) / sizeof(*names) && names[type] ? names[type] : "UNKNOWN";
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

/* A string field of a record, cut at the record's end. */
static int str_len(const struct perf_event_header *ev, const char *s)
{
	const char *end = (const char *)ev + ev->size;

	return s >= end ? 0 : (int)strnlen(s, (size_t)(end - s));
}

#define NEED(type) if (ev->size < sizeof(type)) return -1

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

/* REC_CPU_MAP's payload (and EVENT_UPDATE's CPUS): a list, a mask or a range. */
static int print_cpu_map_data(struct obuf *o, const uint8_t *p, size_t size)
{
	uint16_t type, nr, cpus[4096];
	size_t n = 0;

	if (size < 4)
		return -1;
	memcpy(&type, p, 2);
	if (type == 0) { /* a list of u16 */
		memcpy(&nr, p + 2, 2);
		for (size_t i = 0; i < nr && 4 + 2 * i + 2 <= size && n < 4096; i++)
			memcpy(&cpus[n++], p + 4 + 2 * i, 2);
	} else if (type == 1) { /* a mask of 32- or 64-bit longs */
		uint16_t long_size;

		memcpy(&nr, p + 2, 2);
		memcpy(&long_size, p + 4, 2);
		if (long_size != 4 && long_size != 8)
			return -1;
		for (size_t w = 0; w < nr; w++) {
			size_t at = (long_size == 4 ? 8 : 8) + w * long_size;
			uint64_t v = 0;

			if (at + long_size > size)
				break;
			memcpy(&v, p + at, long_size);
			for (unsigned b = 0; b < long_size * 8u && n < 4096; b++)
				if (v >> b & 1)
					cpus[n++] = (uint16_t)(w * long_size * 8 + b);
		}
	} else if (type == 2) { /* a range: any_cpu, pad, start, end */
		uint16_t start, end;

		if (size < 8)
			return -1;
		memcpy(&start, p + 4, 2);
		memcpy(&end, p + 6, 2);
		if (p[2])
			outf(o, "-1%s", start <= end ? "," : "");
		for (unsigned c = start; c <= end && n < 4096; c++)
			cpus[n++] = (uint16_t)c;
	} else {
		return -1;
	}
	print_cpu_list(o, cpus, n);
	return 0;
}

int dump_event_text(struct obuf *o, const struct perf_event_header *ev)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP: {
		const struct rec_mmap *m = (const void *)ev;

		NEED(*m);
		outf(o, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %.*s\n", (int)m->pid, (int)m->tid,
		     (unsigned long long)m->start, (unsigned long long)m->len,
		     (unsigned long long)m->pgoff,
		     (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER ? 'r' : 'x',
		     str_len(ev, m->filename), m->filename);
		return 0;
	}
	case PERF_RECORD_MMAP2: {
		const struct rec_mmap2 *m = (const void *)ev;
		char prot[5] = {
			m->prot & PROT_READ ? 'r' : '-', m->prot & PROT_WRITE ? 'w' : '-',
			m->prot & PROT_EXEC ? 'x' : '-', m->flags & MAP_SHARED ? 's' : 'p', 0,
		};

		NEED(*m);
		outf(o, " %d/%d: [%#llx(%#llx) @ %#llx", (int)m->pid, (int)m->tid,
		     (unsigned long long)m->start, (unsigned long long)m->len,
		     (unsigned long long)m->pgoff);
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			obuf_mem(o, " <", 2);
			for (int i = 0; i < m->build_id_size && i < 20; i++)
				outf(o, "%02x", m->build_id[i]);
			obuf_ch(o, '>');
		} else {
			outf(o, " %02x:%02x %llu %llu", m->maj, m->min, (unsigned long long)m->ino,
			     (unsigned long long)m->ino_generation);
		}
		outf(o, "]: %s %.*s\n", prot, str_len(ev, m->filename), m->filename);
		return 0;
	}
	case PERF_RECORD_COMM: {
		const struct rec_comm *c = (const void *)ev;

		NEED(*c);
		outf(o, "%s: %.*s:%d/%d\n", ev->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
		     str_len(ev, c->comm), c->comm, (int)c->pid, (int)c->tid);
		return 0;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		const struct rec_fork *f = (const void *)ev;

		NEED(*f);
		outf(o, "(%d:%d):(%d:%d)\n", (int)f->pid, (int)f->tid, (int)f->ppid, (int)f->ptid);
		return 0;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		const struct rec_switch *sw = (const void *)ev;
		int out = !!(ev->misc & PERF_RECORD_MISC_SWITCH_OUT);
		const char *in_out = !out ? "IN         " :
				     !(ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
											 "OUT preempt";

		if (ev->type == PERF_RECORD_SWITCH) {
			outf(o, " %s\n", in_out);
			return 0;
		}
		NEED(*sw);
		outf(o, " %s  %s pid/tid: %5d/%-5d\n", in_out, out ? "next" : "prev",
		     (int)sw->next_prev_pid, (int)sw->next_prev_tid);
		return 0;
	}
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		const struct rec_namespaces *n = (const void *)ev;
		uint64_t nr;

		NEED(*n);
		nr = n->nr;
		if (nr > (ev->size - sizeof(*n)) / sizeof(n->link[0]))
			nr = (ev->size - sizeof(*n)) / sizeof(n->link[0]);
		outf(o, " %d/%d - nr_namespaces: %u\n\t\t[", (int)n->pid, (int)n->tid, (unsigned)n->nr);
		for (uint64_t i = 0; i < nr; i++) {
			if (i && i % 4 == 0)
				obuf_mem(o, "\n\t\t ", 4);
			outf(o, "%u/%s: %llu/%#llx%s", (unsigned)i, i < 7 ? ns[i] : "UNKNOWN",
			     (unsigned long long)n->link[i].dev, (unsigned long long)n->link[i].ino,
			     i + 1 != nr ? ", " : "]\n");
		}
		if (!nr)
			obuf_ch(o, '\n');
		return 0;
	}
	case PERF_RECORD_KSYMBOL: {
		const struct rec_ksymbol *k = (const void *)ev;

		NEED(*k);
		outf(o, " addr %llx len %u type %u flags 0x%x name %.*s\n", (unsigned long long)k->addr,
		     k->len, k->ksym_type, k->flags, str_len(ev, k->name), k->name);
		return 0;
	}
	case PERF_RECORD_BPF_EVENT: {
		const struct rec_bpf *b = (const void *)ev;

		NEED(*b);
		outf(o, " type %u, flags %u, id %u\n", b->type, b->flags, b->id);
		return 0;
	}
	case PERF_RECORD_CGROUP: {
		const struct rec_cgroup *c = (const void *)ev;

		NEED(*c);
		outf(o, " cgroup: %llu %.*s\n", (unsigned long long)c->id, str_len(ev, c->path), c->path);
		return 0;
	}
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

/* The fields perf prints for records its tools take in without a word. */
static void dump_other(struct dump *d, const struct perf_event_header *ev,
		       const struct lupe_evsel *evsel, const struct lupe_sample *sample)
{
	struct obuf *o = d->out;

	switch (ev->type) {
	case PERF_RECORD_READ: {
		/* perf reads its fixed struct {pid, tid, value, enabled, running, id, lost}, whatever read_format says */
		struct {
			uint32_t pid, tid;
			uint64_t value, enabled, running, id, lost;
		} r = { 0 };
		uint64_t rf;

		memcpy(&r, ev + 1, ev->size - sizeof(*ev) < sizeof(r) ? ev->size - sizeof(*ev) : sizeof(r));
		outf(o, ": %d %d %s %llu\n", (int)r.pid, (int)r.tid,
		     evsel && lupe_evsel_name(evsel) ? lupe_evsel_name(evsel) : "unknown",
		     (unsigned long long)r.value);
		if (evsel) {
			rf = lupe_evsel_attr(evsel)->read_format;
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				outf(o, "... time enabled : %llu\n", (unsigned long long)r.enabled);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				outf(o, "... time running : %llu\n", (unsigned long long)r.running);
			if (rf & PERF_FORMAT_ID)
				outf(o, "... id           : %llu\n", (unsigned long long)r.id);
			if (rf & PERF_FORMAT_LOST)
				outf(o, "... lost         : %llu\n", (unsigned long long)r.lost);
		}
		/* perf script takes no READ record: it says so after the fields */
		if (d->script)
			obuf_str(o, ": unhandled!\n");
		return;
	}
	case PERF_RECORD_LOST: {
		const struct rec_lost *l = (const void *)ev;

		if (ev->size >= sizeof(*l))
			outf(o, ": id:%llu: lost:%llu\n", (unsigned long long)l->id,
			     (unsigned long long)l->lost);
		return;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		const struct rec_lost *l = (const void *)ev;

		/* {lost, sample_id}: perf prints the sample id's id, -1 without one */
		uint64_t id = sample->attr && (sample->attr->sample_type &
					       (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) ? sample->id : (uint64_t)-1;

		if (ev->size >= sizeof(*l))
			outf(o, ": id:%llu: lost samples :%llu\n", (unsigned long long)id,
			     (unsigned long long)l->id);
		return;
	}
	case REC_FINISHED_ROUND:
		obuf_ch(o, '\n');
		return;
	case REC_ID_INDEX: {
		const struct rec_id_index *x = (const void *)ev;
		uint64_t nr, max;

		if (ev->size < sizeof(*x))
			return;
		max = (ev->size - sizeof(*x)) / sizeof(x->e[0]);
		nr = x->nr < max ? x->nr : max;
		outf(o, " nr: %llu\n", (unsigned long long)nr);
		for (uint64_t i = 0; i < nr; i++)
			outf(o, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			     (unsigned long long)x->e[i].id, (unsigned long long)x->e[i].idx,
			     (long long)x->e[i].cpu, (long long)x->e[i].tid);
		return;
	}
	case REC_THREAD_MAP: {
		const struct rec_thread_map *t = (const void *)ev;
		uint64_t nr, max;

		if (ev->size < sizeof(*t))
			return;
		max = (ev->size - sizeof(*t)) / sizeof(t->e[0]);
		nr = t->nr < max ? t->nr : max;
		outf(o, " nr: %d thread%s: ", (int)nr, nr > 1 ? "s" : "");
		for (uint64_t i = 0; i < nr; i++)
			outf(o, "%s%d", i ? "," : "", (int)t->e[i].pid);
		obuf_ch(o, '\n');
		if (!d->script)
			obuf_str(o, ": unhandled!\n");
		return;
	}
	case REC_CPU_MAP:
		obuf_mem(o, ": ", 2);
		print_cpu_map_data(o, (const uint8_t *)(ev + 1), ev->size - sizeof(*ev));
		obuf_ch(o, '\n');
		if (!d->script)
			obuf_str(o, ": unhandled!\n");
		return;
	case REC_EVENT_UPDATE: {
		const struct rec_event_update *u = (const void *)ev;
		int n = (int)(ev->size - sizeof(*u));

		if (ev->size < sizeof(*u))
			return;
		outf(o, "\n... id:    %llu\n", (unsigned long long)u->id);
		switch (u->type) {
		case 0: /* unit */
			outf(o, "... unit:  %.*s\n", (int)strnlen(u->data, (size_t)n), u->data);
			break;
		case 1: { /* scale */
			double scale = 0;

			if (n >= 8)
				memcpy(&scale, u->data, 8);
			outf(o, "... scale: %f\n", scale);
			break;
		}
		case 2: /* name */
			outf(o, "... name:  %.*s\n", (int)strnlen(u->data, (size_t)n), u->data);
			break;
		case 3: /* cpus */
			obuf_str(o, "... ");
			print_cpu_map_data(o, (const uint8_t *)u->data, (size_t)n);
			obuf_ch(o, '\n');
			break;
		default:
			obuf_str(o, "... unknown type\n");
			break;
		}
		return;
	}
	case REC_ATTR:
	case REC_FEATURE:
	case REC_TRACING_DATA:
	case REC_BUILD_ID:
	case REC_TIME_CONV:
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
	uint64_t st = combined_sample_type(s, &id_all, ev->type == REC_ATTR);

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
	d->nr_events[REC_COMPRESSED] += comp;
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
