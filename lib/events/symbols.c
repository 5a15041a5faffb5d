// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolic events perf knows by name: hardware, software, tool and the
 * hardware cache table. Names, aliases and the valid cache pairs follow
 * perf 6.1 so that every spelling perf takes is taken here.
 */
#include <string.h>
#include <stdio.h>
#include "events/internal.h"
#include "util/util.h"

#define HW(n, a, c) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, LUPE_TOOL_NONE }
#define SW(n, a, c) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, LUPE_TOOL_NONE }
#define TOOL(n, t)  { n, NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, LUPE_TOOL_##t }

/* In config order, as perf lists them before sorting. */
const struct event_symbol lupe_event_symbols_hw[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
};

const struct event_symbol lupe_event_symbols_sw[] = {
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("task-clock", NULL, TASK_CLOCK),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("dummy", NULL, DUMMY),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
};

const struct event_symbol lupe_event_symbols_tool[] = {
	TOOL("duration_time", DURATION_TIME),
	TOOL("user_time", USER_TIME),
	TOOL("system_time", SYSTEM_TIME),
};

const size_t lupe_event_symbols_hw_nr = ARRAY_SIZE(lupe_event_symbols_hw);
const size_t lupe_event_symbols_sw_nr = ARRAY_SIZE(lupe_event_symbols_sw);
const size_t lupe_event_symbols_tool_nr = ARRAY_SIZE(lupe_event_symbols_tool);

static bool word_is(const char *s, size_t len, const char *word)
{
	return word && strlen(word) == len && !memcmp(s, word, len);
}

const struct event_symbol *lupe_event_symbol_find(const char *s, size_t len)
{
	static const struct {
		const struct event_symbol *tab;
		const size_t *nr;
	} tabs[] = {
		{ lupe_event_symbols_hw, &lupe_event_symbols_hw_nr },
		{ lupe_event_symbols_sw, &lupe_event_symbols_sw_nr },
		{ lupe_event_symbols_tool, &lupe_event_symbols_tool_nr },
	};

	for (size_t t = 0; t < ARRAY_SIZE(tabs); t++)
		for (size_t i = 0; i < *tabs[t].nr; i++)
			if (word_is(s, len, tabs[t].tab[i].name) ||
			    word_is(s, len, tabs[t].tab[i].alias))
				return &tabs[t].tab[i];
	return NULL;
}

/* Each row: perf's name first, then the aliases its lexer takes. */
#define MAX_ALIASES 6
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define OPS(r, w, p) ((r) << PERF_COUNT_HW_CACHE_OP_READ | (w) << PERF_COUNT_HW_CACHE_OP_WRITE | \
		      (p) << PERF_COUNT_HW_CACHE_OP_PREFETCH)
static const unsigned char cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_L1I] = OPS(1, 0, 1),
	[PERF_COUNT_HW_CACHE_LL] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_DTLB] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_ITLB] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_BPU] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_NODE] = OPS(1, 1, 1),
};

bool lupe_cache_op_valid(unsigned int type, unsigned int op)
{
	return type < PERF_COUNT_HW_CACHE_MAX && op < PERF_COUNT_HW_CACHE_OP_MAX &&
	       (cache_valid_ops[type] >> op & 1);
}

const char *lupe_cache_type_name(unsigned int type)
{
	return cache_types[type][0];
}

const char *lupe_cache_op_name(unsigned int op, bool plural)
{
	return cache_ops[op][plural];
}

const char *lupe_cache_result_name(unsigned int result)
{
	return cache_results[result][0];
}

/*
 * The longest alias in table that the bytes at s start with and that ends
 * at a '-' or at end; *row gets its row. Returns its length or 0.
 */
static size_t match_word(const char *s, size_t len, const char *const (*table)[MAX_ALIASES],
			 size_t rows, int *row)
{
	size_t best = 0;

	for (size_t r = 0; r < rows; r++)
		for (size_t a = 0; a < MAX_ALIASES && table[r][a]; a++) {
			size_t n = strlen(table[r][a]);

			if (n > best && n <= len && !memcmp(s, table[r][a], n) &&
			    (n == len || s[n] == '-')) {
				best = n;
				*row = r;
			}
		}
	return best;
}

int lupe_cache_event_parse(const char *s, size_t len, __u64 *config, size_t *bad,
		      char *msg, size_t msg_size)
{
	int type = -1, op = -1, result = -1, row = -1;
	size_t n = match_word(s, len, cache_types, PERF_COUNT_HW_CACHE_MAX, &type), off;

	if (!n)
		return 0;
	for (int words = 0; n < len; words++) {
		off = n + 1; /* past the '-' */
		if (words == 2) {
			*bad = n;
			snprintf(msg, msg_size, "a cache event has at most three words");
			return -1;
		}
		size_t w = match_word(s + off, len - off, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &row);
		/*
		 * perf takes the first operation word; a second one is looked up
		 * as a result and, not being one, ignored ("L1-dcache-load-store").
		 */
		if (w && op < 0) {
			if (!lupe_cache_op_valid(type, row)) {
				*bad = n;
				snprintf(msg, msg_size, "'%.*s' cannot count '%s' operations",
					 (int)n, s, cache_ops[row][0]);
				return -1;
			}
			op = row;
		} else if (!w) {
			w = match_word(s + off, len - off, cache_results,
				       PERF_COUNT_HW_CACHE_RESULT_MAX, &row);
			if (!w) {
				*bad = n;
				snprintf(msg, msg_size, "unknown cache event '%.*s'", (int)len, s);
				return -1;
			}
			if (result < 0)
				result = row;
		}
		n = off + w;
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = type | (__u64)op << 8 | (__u64)result << 16;
	return 1;
}
