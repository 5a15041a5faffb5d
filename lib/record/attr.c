// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <stdlib.h>
#include <lupe/evsel.h>
#include "counting/evsel.h"
#include "record/attr.h"
#include "util/util.h"
#include "arch/arch.h"

/* perf's names of the sampling registers, by bit. */
static const char *const reg_names[] = { LUPE_ARCH_PERF_REG_NAMES };

const char *lupe_perf_reg_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(reg_names) ? reg_names[bit] : NULL;
}

int lupe_perf_reg_bit(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(reg_names); i++)
		if (reg_names[i] && strlen(reg_names[i]) == len && !strncasecmp(reg_names[i], name, len))
			return (int)i;
	return -1;
}

uint64_t lupe_perf_regs_all(void)
{
	return LUPE_ARCH_USER_REGS_MASK;
}

/*
 * --call-graph dwarf: the user registers and a copy of the user stack
 * (8192 bytes unless said, rounded up to 8 as perf does); the kernel part
 * stays a callchain, the user part is unwound later.
 */
static void sample_user_stack(struct perf_event_attr *a, uint64_t stack_size)
{
	a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a->sample_regs_user |= LUPE_ARCH_USER_REGS_MASK;
	a->sample_stack_user = stack_size ? (stack_size + 7) & ~7ULL : 8192;
	a->exclude_callchain_user = 1;
}

void lupe_record_attr_config(struct perf_event_attr *a, const struct lupe_record_opts *o,
			int tracking, int many)
{
	int tracepoint = a->type == PERF_TYPE_TRACEPOINT;

	a->size = sizeof(*a);
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	/* perf leaves the time out per thread, unless -T asks for it */
	if (!o->per_thread || o->timestamp || o->system_wide)
		a->sample_type |= PERF_SAMPLE_TIME;
	if (o->sample_addr)
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = o->user_regs;
	}
	if (o->intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	if (o->all_kernel) {
		a->exclude_kernel = 0;
		a->exclude_user = 1;
	}
	if (o->all_user) {
		a->exclude_kernel = 1;
		a->exclude_user = 0;
	}
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	if (o->system_wide || o->sample_cpu || tracepoint)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (many)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (o->all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;

	/* A tracepoint samples every hit unless -F or -c says otherwise. */
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (tracepoint && !o->freq) {
		a->freq = 0;
		a->sample_period = a->sample_period ? a->sample_period : 1;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : LUPE_RECORD_DEFAULT_FREQ;
	}

	if (o->callgraph != LUPE_CALLGRAPH_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph == LUPE_CALLGRAPH_DWARF && LUPE_ARCH_USER_REGS_MASK)
		sample_user_stack(a, o->stack_size);

	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (o->inherit_stat) {
		/* per-task counts: the kernel writes a READ record as each task exits */
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = 1;
	}
	a->disabled = 1;
	/* system-wide events are not the workload's: they start at once */
	a->enable_on_exec = o->workload && !o->system_wide;
	a->inherit = !o->no_inherit && !o->per_thread;
	a->sample_id_all = 1;
	if (tracking) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* dwarf unwinding reads .eh_frame_hdr from the read-only maps */
		a->mmap_data = o->callgraph == LUPE_CALLGRAPH_DWARF || o->sample_addr;
		a->context_switch = !!o->context_switch;
		a->cgroup = !!o->all_cgroups;
		a->namespaces = !!o->namespaces;
		/* BPF programs loaded while recording: their symbols, as perf records them */
		a->ksymbol = !o->no_bpf_event;
		a->bpf_event = !o->no_bpf_event;
	}
}

/* Set a's callchain as -g (fp) or --call-graph dwarf,size set it. */
static void set_callchain(struct perf_event_attr *a, const char *mode, uint64_t stack_size)
{
	a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER);
	a->exclude_callchain_user = 0;
	a->sample_stack_user = 0;
	if (!strcmp(mode, "no"))
		return;
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (strcmp(mode, "dwarf") || !LUPE_ARCH_USER_REGS_MASK)
		return;
	sample_user_stack(a, stack_size);
	/* perf's per-event dwarf also samples the data address */
	a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	a->mmap_data = a->mmap;
}

int lupe_record_attr_terms(struct perf_event_attr *a, const char *terms)
{
	char *copy, *save = NULL, *mode = NULL;
	uint64_t stack_size = 0, max_stack = 0;
	int err = 0;

	if (!terms)
		return 0;
	copy = strdup(terms);
	if (!copy)
		return -ENOMEM;
	for (char *t = strtok_r(copy, ",", &save); t && !err; t = strtok_r(NULL, ",", &save)) {
		char *val = strchr(t, '=');

		if (val)
			*val++ = '\0';
		if (!strcmp(t, "call-graph") && val &&
		    (!strcmp(val, "fp") || !strcmp(val, "dwarf") || !strcmp(val, "no")))
			mode = val;
		else if (!strcmp(t, "stack-size") && val)
			stack_size = strtoull(val, NULL, 0);
		else if (!strcmp(t, "max-stack") && val)
			max_stack = strtoull(val, NULL, 0);
		else if (!strcmp(t, "inherit") || !strcmp(t, "no-inherit"))
			a->inherit = !strcmp(t, "inherit");
		else if (!strcmp(t, "time") && val)
			a->sample_type = strtoull(val, NULL, 0) ? a->sample_type | PERF_SAMPLE_TIME
								 : a->sample_type & ~(uint64_t)PERF_SAMPLE_TIME;
		else if (strcmp(t, "no-overwrite"))
			err = lupe_set_error(-LUPE_ERR_NOT_SUPPORTED,
					     "lupe record does not take the event term '%s%s%s': leave it out",
					     t, val ? "=" : "", val ? val : "");
	}
	if (!err && max_stack) {
		a->sample_max_stack = max_stack;
		if (!mode)
			mode = "fp";
	}
	if (!err && mode)
		set_callchain(a, mode, stack_size);
	else if (!err && stack_size && (a->sample_type & PERF_SAMPLE_STACK_USER))
		sample_user_stack(a, stack_size);
	free(copy);
	return err;
}

/* perf 6.1's precise_max: the highest precision first, lowered as the PMU refuses */
#define DEFAULT_PRECISE 3

int lupe_record_default_event(struct lupe_event_list *evs)
{
	size_t at = evs ? evs->nr : 0;
	int err;

	if (!evs)
		return -EINVAL;
	err = lupe_events_parse(evs, "cycles", NULL);
	if (err)
		return err;
	/*
	 * as perf's evsel__new_cycles: precise_ip at its most, and user space
	 * only (the hypervisor not excluded) when the kernel may not be
	 * sampled: named cycles:u, then cpu-clock:uhpppH after the fallback
	 * at paranoid 2 (H: exclude_guest, set as for every event). On AMD
	 * perf 6.1 clears exclude_guest (arch_evsel__fixup_new_cycles: IBS,
	 * behind precise cycles, refuses it), and the name has no H
	 */
	if (lupe_arch_cycles_with_guest())
		evs->events[at].attr.exclude_guest = 0;
	evs->events[at].attr.precise_ip = DEFAULT_PRECISE;
	if (!lupe_can_profile_kernel()) {
		char *name = strdup("cycles:u");

		if (!name)
			return -ENOMEM;
		evs->events[at].attr.exclude_kernel = 1;
		free(evs->events[at].name);
		evs->events[at].name = name;
		lupe_say_user_only();
	}
	return 0;
}

int lupe_record_default_fallback(struct lupe_evsel *evsel, int err)
{
	struct perf_event_attr *a = &evsel->attr;
	char *name;

	if (a->type != PERF_TYPE_HARDWARE || a->config != PERF_COUNT_HW_CPU_CYCLES)
		return 0;
	if (err == -EOPNOTSUPP && a->precise_ip) {
		a->precise_ip--; /* a PMU without (that much) PEBS */
		return 1;
	}
	if (err != -ENOENT && err != -EOPNOTSUPP && err != -ENODEV)
		return 0;
	/* no hardware PMU: perf's evsel__fallback keeps the attr, the precision too */
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->precise_ip = DEFAULT_PRECISE;
	name = lupe_evsel_name_from_attr(a);
	if (!name)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = name;
	return 1;
}
