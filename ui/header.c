// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data header as perf report --header-only prints it: the file
 * layout, then one line per feature section in feature order, then the
 * features the file lacks.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "header.h"

/* Feature ids and names, as perf.data's HEADER_* (lib/data/format.h). */
static const char *const feat_names[] = {
	NULL, "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY",
	"NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO",
	"BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};
enum { F_HOSTNAME = 3, F_OSRELEASE, F_VERSION, F_ARCH, F_NRCPUS, F_CPUDESC, F_CPUID,
       F_TOTAL_MEM, F_CMDLINE, F_EVENT_DESC, F_CPU_TOPOLOGY, F_NUMA_TOPOLOGY,
       F_PMU_MAPPINGS = 16, F_CACHE = 20, F_SAMPLE_TIME, F_MEM_TOPOLOGY, F_COMPRESSED = 27,
       F_LAST = 32 };

/* A cursor over a feature section; reads past its end yield zeros and set bad. */
struct fcur {
	const char *p, *end;
	int bad;
};

static uint64_t get(struct fcur *c, size_t n)
{
	uint64_t v = 0;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, n);
	c->p += n;
	return v;
}

/* perf's header string: u32 length (with padding), then the bytes. */
static const char *get_str(struct fcur *c, int *len)
{
	uint32_t n = (uint32_t)get(c, 4);
	const char *s = c->p;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		*len = 0;
		return "";
	}
	c->p += n;
	*len = (int)strnlen(s, n);
	return s;
}

static int feature(struct lupe_perf_file *f, int id, struct fcur *c)
{
	size_t size;
	const char *d = lupe_perf_file_feature(f, id, &size);

	if (!d)
		return 0;
	*c = (struct fcur){ d, d + size, 0 };
	return 1;
}

static void print_string(FILE *fp, struct lupe_perf_file *f, int id, const char *label)
{
	struct fcur c;
	const char *s;
	int n;

	if (!feature(f, id, &c))
		return;
	s = get_str(&c, &n);
	fprintf(fp, "# %s : %.*s\n", label, n, s);
}

static void print_flags(FILE *fp, uint64_t v, const char *const *names, int nr)
{
	int first = 1;

	for (int i = 0; i < nr; i++) {
		if (!(v & (1ULL << i)) || !names[i])
			continue;
		fprintf(fp, "%s%s", first ? "" : "|", names[i]);
		first = 0;
	}
}

/* One "name = value" of an attr: the first after first, the rest after ", ". */
static void attr_field(FILE *fp, int *n, const char *first, const char *kv, const char *name)
{
	fprintf(fp, "%s%s%s", (*n)++ ? ", " : first, name, kv);
}

void ui_attr_fprintf(FILE *fp, const struct perf_event_attr *a, const char *first, const char *kv)
{
	int n = 0;

	static const char *const st[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD",
		"STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT",
		"DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX",
		"CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	static const char *const rf[] = {
		"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	};
#define U(name, v) do { if (v) { attr_field(fp, &n, first, kv, name); fprintf(fp, "%llu", (unsigned long long)(v)); } } while (0)
#define X(name, v) do { if (v) { attr_field(fp, &n, first, kv, name); fprintf(fp, "%#llx", (unsigned long long)(v)); } } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		attr_field(fp, &n, first, kv, "sample_type");
		print_flags(fp, a->sample_type, st, (int)(sizeof(st) / sizeof(*st)));
	}
	if (a->read_format) {
		attr_field(fp, &n, first, kv, "read_format");
		print_flags(fp, a->read_format, rf, (int)(sizeof(rf) / sizeof(*rf)));
	}
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("write_backward", a->write_backward);
	U("namespaces", a->namespaces);
	U("ksymbol", a->ksymbol);
	U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output);
	U("cgroup", a->cgroup);
	U("text_poke", a->text_poke);
	U("build_id", a->build_id);
	U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec);
	U("sigtrap", a->sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	X("branch_sample_type", a->branch_sample_type);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		attr_field(fp, &n, first, kv, "clockid");
		fprintf(fp, "%d", a->clockid);
	}
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
#undef U
#undef X
}

static void print_events(FILE *fp, struct lupe_perf_file *f)
{
	for (size_t i = 0; i < lupe_perf_file_nr_evsels(f); i++) {
		const struct lupe_evsel *e = lupe_perf_file_evsel(f, i);
		const char *name = lupe_evsel_name(e);
		size_t nr_ids;
		const uint64_t *ids = lupe_evsel_ids(e, &nr_ids);

		fprintf(fp, "# event : name = %s, ", name ? name : "");
		if (nr_ids) {
			fputs(", id = {", fp);
			for (size_t j = 0; j < nr_ids; j++)
				fprintf(fp, "%s %llu", j ? "," : "", (unsigned long long)ids[j]);
			fputs(" }", fp);
		}
		ui_attr_fprintf(fp, lupe_evsel_attr(e), ", ", " = ");
		fputc('\n', fp);
	}
}

static void print_feature(FILE *fp, struct lupe_perf_file *f, int id)
{
	struct fcur c;

	switch (id) {
	case F_HOSTNAME: print_string(fp, f, id, "hostname"); break;
	case F_OSRELEASE: print_string(fp, f, id, "os release"); break;
	case F_VERSION: print_string(fp, f, id, "perf version"); break;
	case F_ARCH: print_string(fp, f, id, "arch"); break;
	case F_CPUDESC: print_string(fp, f, id, "cpudesc"); break;
	case F_CPUID: print_string(fp, f, id, "cpuid"); break;
	case F_NRCPUS:
		if (feature(f, id, &c)) {
			uint32_t avail = (uint32_t)get(&c, 4), online = (uint32_t)get(&c, 4);

			fprintf(fp, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
		}
		break;
	case F_TOTAL_MEM:
		if (feature(f, id, &c))
			fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)get(&c, 8));
		break;
	case F_CMDLINE:
		if (feature(f, id, &c)) {
			uint32_t n = (uint32_t)get(&c, 4);

			fputs("# cmdline : ", fp);
			for (uint32_t i = 0; i < n && !c.bad; i++) {
				int len;
				const char *s = get_str(&c, &len);

				fprintf(fp, "%.*s ", len, s);
			}
			fputc('\n', fp);
		}
		break;
	case F_EVENT_DESC:
		print_events(fp, f);
		break;
	case F_CPU_TOPOLOGY: case F_NUMA_TOPOLOGY: case F_CACHE: case F_MEM_TOPOLOGY:
		if (feature(f, id, &c))
			fprintf(fp, "# %s info available, use -I to display\n", feat_names[id]);
		break;
	case F_PMU_MAPPINGS:
		if (feature(f, id, &c)) {
			uint32_t n = (uint32_t)get(&c, 4);

			fputs("# pmu mappings:", fp);
			for (uint32_t i = 0; i < n && !c.bad; i++) {
				uint32_t type = (uint32_t)get(&c, 4);
				int len;
				const char *s = get_str(&c, &len);

				fprintf(fp, "%s %.*s = %u", i ? "," : "", len, s, type);
			}
			fputc('\n', fp);
		}
		break;
	case F_SAMPLE_TIME:
		if (feature(f, id, &c)) {
			uint64_t first = get(&c, 8), last = get(&c, 8);

			fprintf(fp, "# time of first sample : %llu.%06llu\n",
				(unsigned long long)(first / 1000000000ULL),
				(unsigned long long)(first % 1000000000ULL / 1000));
			fprintf(fp, "# time of last sample : %llu.%06llu\n",
				(unsigned long long)(last / 1000000000ULL),
				(unsigned long long)(last % 1000000000ULL / 1000));
			fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
		}
		break;
	case F_COMPRESSED:
		if (feature(f, id, &c)) {
			uint32_t ver = (uint32_t)get(&c, 4), type = (uint32_t)get(&c, 4);
			uint32_t level = (uint32_t)get(&c, 4), ratio = (uint32_t)get(&c, 4);

			(void)ver;
			fprintf(fp, "# compressed : %s, level = %u, ratio = %u\n",
				type == 1 ? "Zstd" : "Unknown", level, ratio);
		}
		break;
	default:
		break;
	}
}

void print_header(FILE *fp, struct lupe_perf_file *f, const char *path, int full)
{
	uint64_t off, size;
	struct stat st;
	size_t fsz;

	fputs("# ========\n", fp);
	if (!lupe_perf_file_is_pipe(f)) {
		if (!stat(path, &st)) {
			char when[64];
			struct tm tm;

			strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime_r(&st.st_mtime, &tm));
			fprintf(fp, "# captured on    : %s\n", when);
		}
		lupe_perf_file_data_section(f, &off, &size);
		fprintf(fp, "# header version : 1\n");
		fprintf(fp, "# data offset    : %llu\n", (unsigned long long)off);
		fprintf(fp, "# data size      : %llu\n", (unsigned long long)size);
		fprintf(fp, "# feat offset    : %llu\n", (unsigned long long)(off + size));
	}
	for (int id = 1; id < F_LAST; id++)
		print_feature(fp, f, id);
	if (full) {
		fputs("# missing features:", fp);
		for (int id = 1; id < F_LAST - 1; id++)
			if (!lupe_perf_file_feature(f, id, &fsz))
				fprintf(fp, " %s", feat_names[id]);
		fputs(" \n", fp);
	}
	fputs("# ========\n#\n", fp);
}
