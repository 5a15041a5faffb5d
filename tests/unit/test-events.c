// SPDX-License-Identifier: GPL-2.0
/*
 * The event-spec parser, table-driven. The attrs of the first table were
 * taken from `perf stat -vv -e SPEC` (perf 6.1) on the test machine: type,
 * config, config1/bp_addr, config2/bp_len, the exclude/pinned/exclusive
 * bits, precise_ip and bp_type must come out the same. PMUs and tracepoints
 * come from the fixture trees in tests/data (sysfs/ and tracefs/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lupe/events.h>
#include "counting/evsel.h"
#include "event-list.h"
#include "parse-error.h"

struct attr_case {
	const char *spec;
	int nr, idx;
	__u32 type;
	__u64 config, config1, config2;
	const char *bits; /* u k h H G I D e: exclude_user ... pinned, exclusive */
	int precise;
	int bp_type;
};

#define ANY -1

static const struct attr_case attr_cases[] = {
	{ "cycles", 1, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "cpu-cycles", 1, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "instructions", 1, 0, 0, 0x1, 0x0, 0x0, "G", 0, 0 },
	{ "cache-references", 1, 0, 0, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "cache-misses", 1, 0, 0, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "branches", 1, 0, 0, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "branch-instructions", 1, 0, 0, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "branch-misses", 1, 0, 0, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "bus-cycles", 1, 0, 0, 0x6, 0x0, 0x0, "G", 0, 0 },
	{ "stalled-cycles-frontend", 1, 0, 0, 0x7, 0x0, 0x0, "G", 0, 0 },
	{ "idle-cycles-frontend", 1, 0, 0, 0x7, 0x0, 0x0, "G", 0, 0 },
	{ "stalled-cycles-backend", 1, 0, 0, 0x8, 0x0, 0x0, "G", 0, 0 },
	{ "idle-cycles-backend", 1, 0, 0, 0x8, 0x0, 0x0, "G", 0, 0 },
	{ "ref-cycles", 1, 0, 0, 0x9, 0x0, 0x0, "G", 0, 0 },
	{ "task-clock", 1, 0, 1, 0x1, 0x0, 0x0, "G", 0, 0 },
	{ "cpu-clock", 1, 0, 1, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "page-faults", 1, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "faults", 1, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "minor-faults", 1, 0, 1, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "major-faults", 1, 0, 1, 0x6, 0x0, 0x0, "G", 0, 0 },
	{ "context-switches", 1, 0, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "cs", 1, 0, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "cpu-migrations", 1, 0, 1, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "migrations", 1, 0, 1, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "alignment-faults", 1, 0, 1, 0x7, 0x0, 0x0, "G", 0, 0 },
	{ "emulation-faults", 1, 0, 1, 0x8, 0x0, 0x0, "G", 0, 0 },
	{ "dummy", 1, 0, 1, 0x9, 0x0, 0x0, "G", 0, 0 },
	{ "bpf-output", 1, 0, 1, 0xa, 0x0, 0x0, "G", 0, 0 },
	{ "cgroup-switches", 1, 0, 1, 0xb, 0x0, 0x0, "G", 0, 0 },
	{ "duration_time", 1, 0, 1, 0x9, 0x0, 0x0, "G", 0, 0 },
	{ "user_time", 1, 0, 1, 0x9, 0x0, 0x0, "G", 0, 0 },
	{ "system_time", 1, 0, 1, 0x9, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-load-misses", 1, 0, 3, 0x10000, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-loads", 1, 0, 3, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-stores", 1, 0, 3, 0x100, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-store-misses", 1, 0, 3, 0x10100, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-prefetches", 1, 0, 3, 0x200, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-prefetch-misses", 1, 0, 3, 0x10200, 0x0, 0x0, "G", 0, 0 },
	{ "L1-icache-load-misses", 1, 0, 3, 0x10001, 0x0, 0x0, "G", 0, 0 },
	{ "L1-icache-loads", 1, 0, 3, 0x1, 0x0, 0x0, "G", 0, 0 },
	{ "LLC-loads", 1, 0, 3, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "LLC-load-misses", 1, 0, 3, 0x10002, 0x0, 0x0, "G", 0, 0 },
	{ "LLC-stores", 1, 0, 3, 0x102, 0x0, 0x0, "G", 0, 0 },
	{ "LLC-store-misses", 1, 0, 3, 0x10102, 0x0, 0x0, "G", 0, 0 },
	{ "LLC-prefetches", 1, 0, 3, 0x202, 0x0, 0x0, "G", 0, 0 },
	{ "dTLB-load-misses", 1, 0, 3, 0x10003, 0x0, 0x0, "G", 0, 0 },
	{ "dTLB-loads", 1, 0, 3, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "dTLB-stores", 1, 0, 3, 0x103, 0x0, 0x0, "G", 0, 0 },
	{ "iTLB-load-misses", 1, 0, 3, 0x10004, 0x0, 0x0, "G", 0, 0 },
	{ "iTLB-loads", 1, 0, 3, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "branch-loads", 1, 0, 3, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "branch-load-misses", 1, 0, 3, 0x10005, 0x0, 0x0, "G", 0, 0 },
	{ "node-loads", 1, 0, 3, 0x6, 0x0, 0x0, "G", 0, 0 },
	{ "node-load-misses", 1, 0, 3, 0x10006, 0x0, 0x0, "G", 0, 0 },
	{ "node-stores", 1, 0, 3, 0x106, 0x0, 0x0, "G", 0, 0 },
	{ "node-prefetch-misses", 1, 0, 3, 0x10206, 0x0, 0x0, "G", 0, 0 },
	{ "l1-d-loads", 1, 0, 3, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "l1d-load-miss", 1, 0, 3, 0x10000, 0x0, 0x0, "G", 0, 0 },
	{ "L1-data-read-access", 1, 0, 3, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "L2-write", 1, 0, 3, 0x102, 0x0, 0x0, "G", 0, 0 },
	{ "Data-TLB-speculative-read-misses", 1, 0, 3, 0x10203, 0x0, 0x0, "G", 0, 0 },
	{ "Instruction-TLB-read", 1, 0, 3, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "bpu-loads", 1, 0, 3, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "btb-load-misses", 1, 0, 3, 0x10005, 0x0, 0x0, "G", 0, 0 },
	{ "bpc", 1, 0, 3, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache", 1, 0, 3, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "LLC", 1, 0, 3, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "branch", 1, 0, 3, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-misses", 1, 0, 3, 0x10000, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-load-store", 1, 0, 3, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "L1-dcache-misses-load", 1, 0, 3, 0x10000, 0x0, 0x0, "G", 0, 0 },
	{ "L1-instruction-prefetches", 1, 0, 3, 0x201, 0x0, 0x0, "G", 0, 0 },
	{ "d-tlb-loads", 1, 0, 3, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "i-tlb-load-misses", 1, 0, 3, 0x10004, 0x0, 0x0, "G", 0, 0 },
	{ "r1a", 1, 0, 4, 0x1a, 0x0, 0x0, "G", 0, 0 },
	{ "r0", 1, 0, 4, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "rABC", 1, 0, 4, 0xabc, 0x0, 0x0, "G", 0, 0 },
	{ "rabc", 1, 0, 4, 0xabc, 0x0, 0x0, "G", 0, 0 },
	{ "r1a:u", 1, 0, 4, 0x1a, 0x0, 0x0, "khG", 0, 0 },
	{ "r1a:pp", 1, 0, 4, 0x1a, 0x0, 0x0, "G", 2, 0 },
	{ "rffffffffffffffff", 1, 0, 4, 0xffffffffffffffff, 0x0, 0x0, "G", 0, 0 },
	{ "cycles:k", 1, 0, 0, 0x0, 0x0, 0x0, "uh", 0, 0 },
	{ "cycles:h", 1, 0, 0, 0x0, 0x0, 0x0, "uk", 0, 0 },
	{ "cycles:uk", 1, 0, 0, 0x0, 0x0, 0x0, "hG", 0, 0 },
	{ "cycles:ku", 1, 0, 0, 0x0, 0x0, 0x0, "hG", 0, 0 },
	{ "cycles:kuh", 1, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "cycles:p", 1, 0, 0, 0x0, 0x0, 0x0, "G", 1, 0 },
	{ "cycles:pp", 1, 0, 0, 0x0, 0x0, 0x0, "G", 2, 0 },
	{ "cycles:ppp", 1, 0, 0, 0x0, 0x0, 0x0, "G", 3, 0 },
	{ "cycles:P", 1, 0, 0, 0x0, 0x0, 0x0, "", 0, 0 },
	{ "cycles:G", 1, 0, 0, 0x0, 0x0, 0x0, "H", 0, 0 },
	{ "cycles:H", 1, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "cycles:GH", 1, 0, 0, 0x0, 0x0, 0x0, "", 0, 0 },
	{ "cycles:I", 1, 0, 0, 0x0, 0x0, 0x0, "I", 0, 0 },
	{ "cycles:S", 1, 0, 0, 0x0, 0x0, 0x0, "", 0, 0 },
	{ "cycles:D", 1, 0, 0, 0x0, 0x0, 0x0, "D", 0, 0 },
	{ "cycles:e", 1, 0, 0, 0x0, 0x0, 0x0, "e", 0, 0 },
	{ "cycles:W", 1, 0, 0, 0x0, 0x0, 0x0, "", 0, 0 },
	{ "cycles:b", 1, 0, 0, 0x0, 0x0, 0x0, "", 0, 0 },
	{ "cycles:upp", 1, 0, 0, 0x0, 0x0, 0x0, "khG", 2, 0 },
	{ "cycles:ppu", 1, 0, 0, 0x0, 0x0, 0x0, "khG", 2, 0 },
	{ "cycles:Gu", 1, 0, 0, 0x0, 0x0, 0x0, "khH", 0, 0 },
	{ "cycles:uG", 1, 0, 0, 0x0, 0x0, 0x0, "khH", 0, 0 },
	{ "cycles:Hk", 1, 0, 0, 0x0, 0x0, 0x0, "uhG", 0, 0 },
	{ "faults:u", 1, 0, 1, 0x2, 0x0, 0x0, "khG", 0, 0 },
	{ "faults:k", 1, 0, 1, 0x2, 0x0, 0x0, "uh", 0, 0 },
	{ "faults:h", 1, 0, 1, 0x2, 0x0, 0x0, "uk", 0, 0 },
	{ "faults:I", 1, 0, 1, 0x2, 0x0, 0x0, "I", 0, 0 },
	{ "faults:D", 1, 0, 1, 0x2, 0x0, 0x0, "D", 0, 0 },
	{ "task-clock:Ppp", 1, 0, 1, 0x1, 0x0, 0x0, "G", 2, 0 },
	{ "cs:uk", 1, 0, 1, 0x3, 0x0, 0x0, "hG", 0, 0 },
	{ "faults:", 1, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "instructions:uD", 1, 0, 0, 0x1, 0x0, 0x0, "khGD", 0, 0 },
	{ "cycles:ukhGHIpPSDWeb", 1, 0, 0, 0x0, 0x0, 0x0, "IDe", 1, 0 },
	{ "msr/tsc/", 1, 0, 9, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "msr/tsc/u", 1, 0, 9, 0x0, 0x0, 0x0, "khG", 0, 0 },
	{ "msr/event=0x5/", 1, 0, 9, 0x5, 0x0, 0x0, "G", 0, 0 },
	{ "msr/event=5,config1=3,config2=4/", 1, 0, 9, 0x5, 0x3, 0x4, "G", 0, 0 },
	{ "msr/config=7/", 1, 0, 9, 0x7, 0x0, 0x0, "G", 0, 0 },
	{ "msr/event/", 1, 0, 9, 0x1, 0x0, 0x0, "G", 0, 0 },
	{ "msr//", 1, 0, 9, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "msr/tsc,event=2/", 1, 0, 9, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "tsc", 1, 0, 9, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "tsc:k", 1, 0, 9, 0x0, 0x0, 0x0, "uh", 0, 0 },
	{ "software/config=3/", 1, 0, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "software/config=0x1/k", 1, 0, 1, 0x1, 0x0, 0x0, "uh", 0, 0 },
	{ "breakpoint//", 1, 0, 5, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "mem:0x1000", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 3 },
	{ "mem:0x1000:r", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 1 },
	{ "mem:0x1000:w", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 2 },
	{ "mem:0x1000:x", 1, 0, 5, 0x0, 0x1000, 0x8, "G", 0, 4 },
	{ "mem:0x1000:rw", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 3 },
	{ "mem:0x1000/4:rw", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 3 },
	{ "mem:0x1000/2:w", 1, 0, 5, 0x0, 0x1000, 0x2, "G", 0, 2 },
	{ "mem:0x1000:x:u", 1, 0, 5, 0x0, 0x1000, 0x8, "khG", 0, 4 },
	{ "mem:0x1000:u", 1, 0, 5, 0x0, 0x1000, 0x4, "khG", 0, 3 },
	{ "mem:4096", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 3 },
	{ "mem:0x1000/8", 1, 0, 5, 0x0, 0x1000, 0x8, "G", 0, 3 },
	{ "mem:0x1000:wx", 1, 0, 5, 0x0, 0x1000, 0x4, "G", 0, 6 },
	{ "cycles,faults", 2, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "cycles,faults", 2, 1, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "{cycles,faults}", 2, 0, 0, 0x0, 0x0, 0x0, "G", 0, 0 },
	{ "{cycles,faults}:u", 2, 0, 0, 0x0, 0x0, 0x0, "khG", 0, 0 },
	{ "{cycles:k,faults}:u", 2, 0, 0, 0x0, 0x0, 0x0, "hG", 0, 0 },
	{ "{faults,cs}:S", 2, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs}:S", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs}:D", 2, 0, 1, 0x2, 0x0, 0x0, "GD", 0, 0 },
	{ "{faults,cs}:D", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs}:e", 2, 0, 1, 0x2, 0x0, 0x0, "Ge", 0, 0 },
	{ "{faults,cs}:e", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs}:W", 2, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs}:W", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "{faults:u,cs:k}:H", 2, 0, 1, 0x2, 0x0, 0x0, "khG", 0, 0 },
	{ "{faults:u,cs:k}:H", 2, 1, 1, 0x3, 0x0, 0x0, "uhG", 0, 0 },
	{ "{faults:p,cs}:u", 2, 0, 1, 0x2, 0x0, 0x0, "khG", 1, 0 },
	{ "{faults:p,cs}:u", 2, 1, 1, 0x3, 0x0, 0x0, "khG", 0, 0 },
	{ "{faults,cs}:pp", 2, 0, 1, 0x2, 0x0, 0x0, "G", 2, 0 },
	{ "{faults,cs}:pp", 2, 1, 1, 0x3, 0x0, 0x0, "G", 2, 0 },
	{ "cs,{faults,cs},migrations", 4, 0, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "cs,{faults,cs},migrations", 4, 1, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "cs,{faults,cs},migrations", 4, 2, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "cs,{faults,cs},migrations", 4, 3, 1, 0x4, 0x0, 0x0, "G", 0, 0 },
	{ "{faults},{cs}", 2, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "{faults},{cs}", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "foo{faults,cs}:u", 2, 0, 1, 0x2, 0x0, 0x0, "khG", 0, 0 },
	{ "foo{faults,cs}:u", 2, 1, 1, 0x3, 0x0, 0x0, "khG", 0, 0 },
	{ "{faults:D,cs}", 2, 0, 1, 0x2, 0x0, 0x0, "D", 0, 0 },
	{ "{faults:D,cs}", 2, 1, 1, 0x3, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs:D}", 2, 0, 1, 0x2, 0x0, 0x0, "G", 0, 0 },
	{ "{faults,cs:D}", 2, 1, 1, 0x3, 0x0, 0x0, "D", 0, 0 },
	/* symbolic, cache and raw events with terms, as perf's grammar takes them */
	{ "cs/config=2/", 1, 0, 1, 0x2, 0, 0, "G", 0, 0 },
	{ "cs/period=10/k", 1, 0, 1, 0x3, 0, 0, "uh", 0, 0 },
	{ "faults//", 1, 0, 1, 0x2, 0, 0, "G", 0, 0 },
	{ "r1a/config1=3/u", 1, 0, 4, 0x1a, 3, 0, "khG", 0, 0 },
	{ "L1-dcache-load-misses/period=1/", 1, 0, 3, 0x10000, 0, 0, "G", 0, 0 },
	/* fixture PMUs: cpu (type 4) and uncore_imc_0/1 (20, 21) */
	{ "cpu/event=0x3c,umask=0/", 1, 0, 4, 0x3c, 0, 0, "G", 0, 0 },
	{ "cpu/event=0x3c,umask=0x1/", 1, 0, 4, 0x13c, 0, 0, "G", 0, 0 },
	{ "cpu/event=0xcd,umask=1,ldlat=3/pp", 1, 0, 4, 0x1cd, 3, 0, "G", 2, 0 },
	{ "cpu/event=0x3c,edge,inv,cmask=2/", 1, 0, 4, 0x284003c, 0, 0, "G", 0, 0 },
	{ "cpu/edge=0/", 1, 0, 4, 0, 0, 0, "G", 0, 0 },
	{ "cpu/split=0xff/", 1, 0, 4, 0xf000000f00000000ULL, 0, 0, "G", 0, 0 },
	{ "cpu/cpu-cycles/", 1, 0, 4, 0x3c, 0, 0, "G", 0, 0 },
	{ "cpu/mem-loads/u", 1, 0, 4, 0x1cd, 3, 0, "khG", 0, 0 },
	{ "cpu/mem-loads,ldlat=9/", 1, 0, 4, 0x1cd, 9, 0, "G", 0, 0 },
	{ "cpu/config=0x1234,config1=5,config2=6/", 1, 0, 4, 0x1234, 5, 6, "G", 0, 0 },
	{ "cpu/event=0x3c/,cpu/event=0x3d/k", 2, 1, 4, 0x3d, 0, 0, "uh", 0, 0 },
	{ "{cpu/event=1/,cpu/event=2/}:u", 2, 1, 4, 0x2, 0, 0, "khG", 0, 0 },
	{ "uncore_imc_0/cas_count_read/", 1, 0, 20, 0x304, 0, 0, "G", 0, 0 },
	{ "cas_count_read", 2, 1, 21, 0x304, 0, 0, "G", 0, 0 },
	/* a PMU name without its _N suffix (or uncore_ prefix) takes them all */
	{ "uncore_imc/cas_count_read/", 2, 1, 21, 0x304, 0, 0, "G", 0, 0 },
	{ "imc/event=2/k", 2, 0, 20, 0x2, 0, 0, "uh", 0, 0 },
	{ "mem-loads:k", 1, 0, 4, 0x1cd, 3, 0, "uh", 0, 0 },
	/* fixture tracefs */
	{ "sched:sched_switch", 1, 0, 2, 316, 0, 0, "G", 0, 0 },
	{ "sched:sched_switch:u", 1, 0, 2, 316, 0, 0, "khG", 0, 0 },
	/* globs expand in readdir order, as perf's do: ANY finds the event */
	{ "sched:sched_wakeup*", 2, ANY, 2, 317, 0, 0, "G", 0, 0 },
	{ "syscalls:sys_enter_*", 2, ANY, 2, 701, 0, 0, "G", 0, 0 },
	{ "syscalls:sys_e*_read:k", 2, ANY, 2, 702, 0, 0, "uh", 0, 0 },
	{ "sch?d:sched_switch", 1, 0, 2, 316, 0, 0, "G", 0, 0 },
	{ "sched*:*", 4, ANY, 2, 5, 0, 0, "G", 0, 0 },
	{ "ftrace:*", 1, 0, 2, 1, 0, 0, "G", 0, 0 },
	{ "{sched:sched_switch,syscalls:sys_enter_*}:S", 3, ANY, 2, 701, 0, 0, "G", 0, 0 },
};

static unsigned int bits_of(const struct perf_event_attr *a)
{
	return a->exclude_user | a->exclude_kernel << 1 | a->exclude_hv << 2 |
	       a->exclude_host << 3 | a->exclude_guest << 4 | a->exclude_idle << 5 |
	       a->pinned << 6 | a->exclusive << 7;
}

static unsigned int bits_want(const char *s)
{
	static const char letters[] = "ukhHGIDe";
	unsigned int b = 0;

	for (; *s; s++)
		b |= 1u << (strchr(letters, *s) - letters);
	return b;
}

static void test_attrs(void **state)
{
	for (size_t i = 0; i < sizeof(attr_cases) / sizeof(attr_cases[0]); i++) {
		const struct attr_case *c = &attr_cases[i];
		struct lupe_event_list list = { 0 };
		struct lupe_parse_error err;
		const struct perf_event_attr *a;
		int ret = lupe_events_parse(&list, c->spec, &err);

		if (ret || (int)list.nr != c->nr)
			fail_msg("'%s': ret %d nr %zu (want %d): %s at %d", c->spec, ret, list.nr,
				 c->nr, err.msg, err.pos);
		a = &list.events[c->idx == ANY ? 0 : c->idx].attr;
		for (size_t k = 0; c->idx == ANY && k < list.nr; k++)
			if (list.events[k].attr.config == c->config)
				a = &list.events[k].attr;
		if (a->type != c->type || a->config != c->config || a->config1 != c->config1 ||
		    a->config2 != c->config2 || bits_of(a) != bits_want(c->bits) ||
		    a->precise_ip != (unsigned)c->precise || a->bp_type != (unsigned)c->bp_type ||
		    a->size != sizeof(*a) || a->disabled)
			fail_msg("'%s' event %d: type %u config %#llx/%#llx/%#llx bits %#x precise %u bp %u;"
				 " want %u %#llx/%#llx/%#llx %#x %d %d", c->spec, c->idx, a->type,
				 (unsigned long long)a->config, (unsigned long long)a->config1,
				 (unsigned long long)a->config2, bits_of(a), a->precise_ip, a->bp_type,
				 c->type, (unsigned long long)c->config, (unsigned long long)c->config1,
				 (unsigned long long)c->config2, bits_want(c->bits), c->precise, c->bp_type);
		lupe_event_list_clear(&list);
	}
}

/* Names as `perf stat -x` prints them, leaders and group sizes. */
struct name_case {
	const char *spec;
	int idx;
	const char *name, *pmu;
	int leader, group_size;
	const char *group_name;
	int tool;
};

static const struct name_case name_cases[] = {
	{ "cycles:u", 0, "cycles:u", "cpu", 0, 1, NULL, 0 },
	{ "faults", 0, "faults", "software", 0, 1, NULL, 0 },
	{ "cs", 0, "cs", "software", 0, 1, NULL, 0 },
	{ "{task-clock,page-faults}", 0, "task-clock", "software", 0, 2, NULL, 0 },
	{ "{task-clock,page-faults}", 1, "page-faults", "software", 0, 1, NULL, 0 },
	{ "{task-clock,page-faults}:u", 1, "page-faults", "software", 0, 1, NULL, 0 },
	{ "cpu-clock:Ppp", 0, "cpu-clock:Ppp", "software", 0, 1, NULL, 0 },
	{ "r1a:pp", 0, "r1a:pp", "cpu", 0, 1, NULL, 0 },
	{ "L1-dcache-refs:u", 0, "L1-dcache-refs", "cpu", 0, 1, NULL, 0 },
	{ "l1d-load-miss", 0, "l1d-load-miss", "cpu", 0, 1, NULL, 0 },
	{ "LLC", 0, "LLC", "cpu", 0, 1, NULL, 0 },
	{ "mem:0x1000/4:rw", 0, "mem:0x1000", "breakpoint", 0, 1, NULL, 0 },
	{ "mem:0x1000:x:u", 0, "mem:0x1000:x:u", "breakpoint", 0, 1, NULL, 0 },
	{ "msr/tsc/u", 0, "msr/tsc/u", "msr", 0, 1, NULL, 0 },
	{ "msr/event=5,config1=3/", 0, "msr/event=5,config1=3/", "msr", 0, 1, NULL, 0 },
	{ "msr/event=0,name=foo/", 0, "foo", "msr", 0, 1, NULL, 0 },
	{ "tsc:u", 0, "tsc:u", "msr", 0, 1, NULL, 0 },
	{ "user_time:u", 0, "user_time:u", NULL, 0, 1, NULL, 2 },
	{ "duration_time", 0, "duration_time", NULL, 0, 1, NULL, 1 },
	{ "system_time", 0, "system_time", NULL, 0, 1, NULL, 3 },
	{ "faults:", 0, "faults:", "software", 0, 1, NULL, 0 },
	{ "foo{faults,cs}:u", 0, "faults", "software", 0, 2, "foo", 0 },
	{ "foo{faults,cs}:u", 1, "cs", "software", 0, 1, NULL, 0 },
	{ "cycles:k,faults", 1, "faults", "software", 1, 1, NULL, 0 },
	{ "mem:4096", 0, "mem:4096", "breakpoint", 0, 1, NULL, 0 },
	{ "software/config=3/", 0, "software/config=3/", "software", 0, 1, NULL, 0 },
	{ "task-clock/period=100000/", 0, "task-clock/period=100000/", "software", 0, 1, NULL, 0 },
	{ "cs/name=foo/", 0, "foo", "software", 0, 1, NULL, 0 },
	{ "r1a/period=10/u", 0, "r1a/period=10/u", "cpu", 0, 1, NULL, 0 },
	{ "L1-dcache-loads/period=1/", 0, "L1-dcache-loads", "cpu", 0, 1, NULL, 0 },
	{ "duration_time//", 0, "duration_time//", NULL, 0, 1, NULL, 1 },
	{ "branch", 0, "branch", "cpu", 0, 1, NULL, 0 },
	{ "sched:sched_wakeup_new", 0, "sched:sched_wakeup_new", "tracepoint", 0, 1, NULL, 0 },
	{ "sched:sched_switch:u", 0, "sched:sched_switch", "tracepoint", 0, 1, NULL, 0 },
	{ "cs,{faults,cs,migrations}:k,dummy", 1, "faults", "software", 1, 3, NULL, 0 },
	{ "cs,{faults,cs,migrations}:k,dummy", 3, "migrations", "software", 1, 1, NULL, 0 },
	{ "cs,{faults,cs,migrations}:k,dummy", 4, "dummy", "software", 4, 1, NULL, 0 },
	{ "{syscalls:sys_enter_*,cs}", 2, "cs", "software", 0, 1, NULL, 0 },
	{ "{syscalls:sys_enter_read,cs}", 0, "syscalls:sys_enter_read", "tracepoint", 0, 2, NULL, 0 },
	{ "uncore_imc_1/event=4/", 0, "uncore_imc_1/event=4/", "uncore_imc_1", 0, 1, NULL, 0 },
};

static void test_names(void **state)
{
	for (size_t i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
		const struct name_case *c = &name_cases[i];
		struct lupe_event_list list = { 0 };
		struct lupe_parse_error err;
		const struct lupe_event *ev;

		if (lupe_events_parse(&list, c->spec, &err) || (int)list.nr <= c->idx)
			fail_msg("'%s': %s at %d", c->spec, err.msg, err.pos);
		ev = &list.events[c->idx];
		if (strcmp(ev->name, c->name) || (c->pmu ? !ev->pmu_name || strcmp(ev->pmu_name, c->pmu) :
						  ev->pmu_name != NULL) ||
		    ev->leader != c->leader || ev->group_size != c->group_size ||
		    (c->group_name ? !ev->group_name || strcmp(ev->group_name, c->group_name) :
		     ev->group_name != NULL) || (int)ev->tool != c->tool)
			fail_msg("'%s' event %d: name '%s' pmu '%s' leader %d size %d group '%s' tool %d",
				 c->spec, c->idx, ev->name, ev->pmu_name ? ev->pmu_name : "(null)",
				 ev->leader, ev->group_size, ev->group_name ? ev->group_name : "(null)",
				 ev->tool);
		lupe_event_list_clear(&list);
	}
}

/* Bad specs: where the caret goes (perf's column where it has one) and what it says. */
struct err_case {
	const char *spec;
	int pos;
	const char *msg; /* a part of the message */
};

static const struct err_case err_cases[] = {
	{ "cycles:zz", 6, "unknown modifier 'z'" },
	{ "cycles:ukz", 6, "unknown modifier 'z'" },
	{ "cycles:uu", 7, "'u' given twice" },
	{ "cpu-clock:uu", 10, "given twice" },
	{ "cycles:pppp", 7, "at most three 'p'" },
	{ "task-clock:ppppp", 11, "at most three 'p'" },
	{ "faults::u", 6, "unknown modifier ':'" },
	{ "{task-clock", 0, "not closed" },
	{ "{faults,cs", 0, "not closed" },
	{ "foo", 0, "unknown event 'foo'" },
	{ "task-clock,page-faults,foo", 23, "unknown event 'foo'" },
	{ "task-clock,foo", 11, "unknown event 'foo'" },
	{ "{cycles,foo}", 8, "unknown event 'foo'" },
	{ "cycles:u,foo:k", 9, "unknown event 'foo'" },
	{ "r1g", 0, "unknown event 'r1g'" },
	{ "r0x10", 0, "unknown event" },
	{ "r", 0, "unknown event 'r'" },
	{ "nosuch/event=1/", 0, "cannot find PMU 'nosuch'" },
	{ "cycles/", 6, "never closed" },
	{ "msr/", 3, "never closed" },
	{ "msr/foo=1/", 4, "unknown term 'foo' for pmu 'msr'" },
	{ "msr/tsc,bad=3/", 8, "unknown term 'bad' for pmu 'msr'" },
	{ "msr/tsc=3/", 4, "unknown term 'tsc'" },
	{ "msr/name=a,b/", 11, "unknown term 'b'" },
	{ "msr/tsc/zz", 7, "unknown modifier 'z'" },
	{ "msr/tsc", 3, "never closed" },
	{ "msr/,tsc/", 4, "empty term" },
	{ "cpu/event=0x100/", 10, "value too big for format 'event', maximum is 0xff" },
	{ "cpu/umask=zz/", 10, "bad value 'zz'" },
	{ "cpu/event=0x3c,umask=0,bogus=1/", 23, "unknown term 'bogus' for pmu 'cpu'" },
	{ "cpu/name=/", 4, "needs a value" },
	{ "cpu/config=99999999999999999999999/", 11, "bad value" },
	{ "uncore/event=1/", 0, "cannot find PMU 'uncore'" },
	{ "task-clock,,faults", 10, "event expected" },
	{ "faults,", 6, "event expected" },
	{ ",", 0, "event expected" },
	{ "", 0, "event expected" },
	{ "task-clock}", 10, "unexpected '}'" },
	{ "{faults,cs}}", 11, "unexpected '}'" },
	{ "{faults}{cs}", 8, "unexpected '{'" },
	{ "{faults}x", 8, "unexpected 'x'" },
	{ "{}", 0, "empty group" },
	{ "{faults,{cs}}", 8, "nested" },
	{ "task-clock foo", 10, "unexpected ' '" },
	{ "faults faults", 6, "unexpected ' '" },
	{ "{cycles,instructions}:zz", 21, "unknown modifier 'z'" },
	{ "{faults,cs}:uu", 12, "'u' given twice" },
	{ "cycles,faults,cs,migrations:zz", 27, "unknown modifier" },
	{ "sched:nosuch", 0, "unknown tracepoint 'sched:nosuch'" },
	{ "nosys:foo", 0, "unknown tracepoint 'nosys:foo'" },
	{ "foo:u", 0, "unknown event 'foo'" },
	{ "sched:sched_switch:zz", 18, "unknown modifier 'z'" },
	{ "sched:sched_switch/foo/", 19, "unknown term 'foo' for a tracepoint" },
	{ "sched:sched_switch/call-graph=fp,event=1/", 33, "unknown term 'event'" },
	{ "sched:sched_switch/stack-size/", 19, "needs a value" },
	{ "sched:sched_switch/call-graph=fp", 18, "never closed" },
	{ "sched:sched_switch/nr=1/x", 24, "unexpected 'x'" },
	{ "sched:sched_switch=1", 18, "unexpected '='" },
	{ "cpu/no-inherit=1/", 15, "takes no value" },
	{ "task-clock/bogus=1/", 11, "unknown term 'bogus'" },
	{ "faults/event=1/", 7, "unknown term 'event'" },
	{ "faults/period=1", 6, "never closed" },
	{ "faults/period=x/", 14, "bad value 'x'" },
	{ "L1-dcache-foo/period=1/", 9, "unknown cache event" },
	{ "syscalls:nosuch_*", 0, "no tracepoint matches 'syscalls:nosuch_*'" },
	{ "ftrace:bprint", 0, "unknown tracepoint" },
	{ "sched:", 0, "unknown event" },
	{ ":sched", 0, "unknown event" },
	{ "mem:xyz", 0, "address expected" },
	{ "mem:0x1000:q", 10, "unknown modifier 'q'" },
	{ "mem:0x1000:rrw", 11, "'r' given twice" },
	{ "mem:0x1000/:w", 11, "length expected" },
	{ "mem:0x1000/4x", 12, "unexpected 'x'" },
	{ "L1-dcache-foo", 9, "unknown cache event" },
	{ "L1-icache-store", 9, "cannot count 'store'" },
	{ "iTLB-stores", 4, "cannot count 'store'" },
	{ "LLC-load-miss-refs", 13, "at most three words" },
	{ "L1-dcache-load-misses:q", 21, "unknown modifier 'q'" },
	{ "l1-dcache-loads", 0, "unknown event" },
};

static void test_errors(void **state)
{
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct lupe_event_list list = { 0 };
		struct lupe_parse_error err;
		int ret;

		/* an earlier event stays; a failed parse adds nothing */
		assert_int_equal(lupe_events_parse(&list, "dummy", NULL), 0);
		ret = lupe_events_parse(&list, c->spec, &err);
		if (ret != -LUPE_ERR_PARSE || err.pos != c->pos || !strstr(err.msg, c->msg))
			fail_msg("'%s': ret %d pos %d msg '%s'; want pos %d and '%s'", c->spec, ret,
				 err.pos, err.msg, c->pos, c->msg);
		assert_int_equal(list.nr, 1);
		lupe_event_list_clear(&list);
	}
}

static void test_list_append(void **state)
{
	struct lupe_event_list list = { 0 };

	assert_int_equal(lupe_events_parse(&list, "faults", NULL), 0);
	assert_int_equal(lupe_events_parse(&list, "{cs,migrations}", NULL), 0);
	assert_int_equal(list.nr, 3);
	/* leaders are indexes into the whole list, not into one call's events */
	assert_int_equal(list.events[2].leader, 1);
	assert_int_equal(list.events[1].group_size, 2);
	lupe_event_list_clear(&list);
	assert_int_equal(list.nr, 0);
	lupe_event_list_clear(&list);
	lupe_event_list_clear(NULL);
}

static void test_terms(void **state)
{
	struct lupe_event_list list = { 0 };

	assert_int_equal(lupe_events_parse(&list, "cpu/event=1,period=1000/,cpu/event=2,freq=99/", NULL), 0);
	assert_int_equal(list.events[0].sample_period, 1000);
	assert_int_equal(list.events[1].sample_freq, 99);
	assert_null(list.events[0].cpus);
	lupe_event_list_clear(&list);
	assert_int_equal(lupe_events_parse(&list, "uncore_imc_0/event=1/", NULL), 0);
	assert_string_equal(list.events[0].cpus, "0");
	lupe_event_list_clear(&list);
	assert_int_equal(lupe_events_parse(&list, "{faults,cs}:SWPb,cycles:e", NULL), 0);
	assert_true(list.events[1].sample_read && list.events[1].weak_group &&
		    list.events[1].precise_max && list.events[1].bpf_counter);
	assert_false(list.events[1].attr.exclusive);
	assert_true(list.events[2].attr.exclusive);
	lupe_event_list_clear(&list);
	/* as in perf, a group's modifier overwrites S, P, W and b of its members */
	assert_int_equal(lupe_events_parse(&list, "{faults:S,cs:W}:u,{faults:S,cs}", NULL), 0);
	assert_false(list.events[0].sample_read || list.events[1].weak_group);
	assert_true(list.events[2].sample_read);
	lupe_event_list_clear(&list);
	/* config terms are kept for record, on PMU events and tracepoints */
	assert_int_equal(lupe_events_parse(&list, "cpu/event=1,call-graph=dwarf,stack-size=8192,no-inherit/,"
					   "sched:sched_switch/call-graph=fp,max-stack=3/:u,faults", NULL), 0);
	assert_int_equal(list.nr, 3);
	assert_string_equal(list.events[0].config_terms, "call-graph=dwarf,stack-size=8192,no-inherit");
	assert_string_equal(list.events[1].config_terms, "call-graph=fp,max-stack=3");
	assert_string_equal(list.events[1].name, "sched:sched_switch");
	assert_true(list.events[1].attr.exclude_kernel);
	assert_null(list.events[2].config_terms);
	lupe_event_list_clear(&list);
}

static char *caret_text(const char *spec, int width)
{
	struct lupe_event_list list = { 0 };
	struct lupe_parse_error err;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(lupe_events_parse(&list, spec, &err), -LUPE_ERR_PARSE);
	ui_print_parse_error_width(f, spec, &err, width);
	fclose(f);
	return buf;
}

static void test_printer(void **state)
{
	char *out = caret_text("cycles:zz", 80);

	/* perf: the backslash under the ':' (column 21 + 6) */
	assert_string_equal(out, "event syntax error: 'cycles:zz'\n"
			    "                           \\___ unknown modifier 'z' (known: ukhGHIpPSDWeb)\n"
			    "Run 'lupe list' for a list of valid events\n");
	free(out);
	out = caret_text("{task-clock", 80);
	assert_string_equal(out, "event syntax error: '{task-clock'\n"
			    "                     \\___ group is not closed: '}' expected\n"
			    "Run 'lupe list' for a list of valid events\n");
	free(out);
	/* past column 13 the front is cut to "..", as perf does */
	out = caret_text("sched:sched_switch:zz", 80);
	assert_non_null(strstr(out, "event syntax error: '..ched_switch:zz'\n"
				    "                                  \\___ unknown modifier"));
	free(out);
	/* a hint goes after a blank line */
	out = caret_text("msr/foo=1/", 80);
	assert_non_null(strstr(out, "\\___ unknown term 'foo' for pmu 'msr'\n\nvalid terms: event,config,"));
	free(out);
	/* too long for the terminal: cut at the end too */
	out = caret_text("nosuch,task-clock,page-faults,context-switches,cpu-migrations,minor-faults", 60);
	assert_non_null(strstr(out, "..'\n"));
	free(out);
}

static void test_list(void **state)
{
	struct lupe_event_desc_list l = { 0 };
	static const char *const want[] = {
		/* tool events keep perf's order; core PMU aliases come first */
		"duration_time", "user_time", "system_time",
		"cpu-cycles", "mem-loads", "ref-cycles-alias",
		"msr/tsc/", "uncore_imc_0/cas_count_read/", "uncore_imc_1/cas_count_read/",
		"rNNN", "cpu/t1=v1[,t2=v2,t3 ...]/modifier", "mem:<addr>[/len][:access]",
		/* "sched-x" sorts before "sched:" as strcmp has it; ftrace:bprint has no id */
		"ftrace:function", "sched-x:ev", "sched:sched_switch", "sched:sched_wakeup",
		"sched:sched_wakeup_new", "syscalls:sys_enter_read", "syscalls:sys_enter_write",
		"syscalls:sys_exit_read",
	};
	unsigned int mask = LUPE_KINDS_ALL & ~(LUPE_KIND_BIT(LUPE_KIND_HARDWARE) |
					       LUPE_KIND_BIT(LUPE_KIND_SOFTWARE) |
					       LUPE_KIND_BIT(LUPE_KIND_CACHE));

	assert_int_equal(lupe_events_list(&l, mask, NULL), 0);
	assert_int_equal(l.nr, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < l.nr; i++)
		assert_string_equal(l.descs[i].name, want[i]);
	assert_string_equal(l.descs[3].alias, "cpu/cpu-cycles/");
	assert_string_equal(l.descs[3].encoding, "cpu/event=0x3c/");
	assert_string_equal(lupe_event_kind_desc(l.descs[3].kind), "Kernel PMU event");
	lupe_event_desc_list_clear(&l);

	/* "sys:glob" lists tracepoints only; a bare glob matches event names */
	assert_int_equal(lupe_events_list(&l, LUPE_KINDS_ALL, "sched:*wake*"), 0);
	assert_int_equal(l.nr, 2);
	lupe_event_desc_list_clear(&l);
	assert_int_equal(lupe_events_list(&l, LUPE_KIND_BIT(LUPE_KIND_TRACEPOINT), "*read*"), 0);
	assert_int_equal(l.nr, 2);
	lupe_event_desc_list_clear(&l);
	assert_int_equal(lupe_events_list(&l, LUPE_KINDS_ALL, "*cas*"), 0);
	assert_int_equal(l.nr, 2);
	assert_string_equal(l.descs[0].pmu, "uncore_imc_0");
	lupe_event_desc_list_clear(&l);
	/* software events are listed when the kernel opens them: all on Linux */
	assert_int_equal(lupe_events_list(&l, LUPE_KIND_BIT(LUPE_KIND_SOFTWARE), "*faults*"), 0);
	assert_true(l.nr >= 1);
	assert_string_equal(l.descs[0].name, "alignment-faults");
	lupe_event_desc_list_clear(&l);
	lupe_event_desc_list_clear(NULL);
}

static void test_list_layout(void **state)
{
	struct lupe_event_desc l0[] = {
		{ LUPE_KIND_SOFTWARE, "page-faults", "faults", "software", NULL },
		{ LUPE_KIND_RAW, "rNNN", NULL, NULL, NULL },
		{ LUPE_KIND_TRACEPOINT, "a:\"b\"", NULL, NULL, NULL },
	};
	struct lupe_event_desc_list l = { l0, 3, 3 };
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(ui_event_list_print(f, &l, false), 0);
	fclose(f);
	assert_string_equal(buf,
		"  page-faults OR faults                              [Software event]\n"
		"  rNNN                                               [Raw hardware event descriptor]\n"
		"  a:\"b\"                                              [Tracepoint event]\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(ui_event_list_print(f, &l, true), 0);
	fclose(f);
	/* under a pager perf closes each section with a blank line */
	assert_non_null(strstr(buf, "[Software event]\n\n"));
	assert_non_null(strstr(buf, "on how to encode it)\n\n"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(ui_event_list_print_json(f, &l), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"EventName\": \"a:\\\"b\\\"\""));
	assert_non_null(strstr(buf, "\"EventAlias\": \"faults\""));
	free(buf);
}

/* names made from an attr, with perf 6.1's H and G rule (evsel__add_modifiers) */
static void test_attr_names(void **state)
{
	static const struct {
		int ek, eu, eh, eH, eG, precise;
		const char *want;
	} cases[] = {
		{ 0, 0, 0, 0, 1, 3, "cpu-clock:pppH" }, /* the default event, Intel */
		{ 0, 0, 0, 0, 0, 3, "cpu-clock:ppp" },  /* AMD: exclude_guest clear */
		{ 1, 0, 0, 0, 1, 3, "cpu-clock:uhpppH" },
		{ 1, 0, 0, 0, 0, 3, "cpu-clock:uhppp" },
		{ 0, 0, 0, 0, 0, 0, "cpu-clock:HG" },  /* a file without names, perf script's */
		{ 0, 0, 0, 0, 1, 0, "cpu-clock" },
		{ 1, 0, 1, 0, 1, 0, "cpu-clock:uH" },
		{ 0, 0, 0, 1, 0, 0, "cpu-clock:G" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK };
		char *name;

		a.exclude_kernel = cases[i].ek;
		a.exclude_user = cases[i].eu;
		a.exclude_hv = cases[i].eh;
		a.exclude_host = cases[i].eH;
		a.exclude_guest = cases[i].eG;
		a.precise_ip = cases[i].precise;
		name = lupe_evsel_name_from_attr(&a);
		assert_non_null(name);
		assert_string_equal(name, cases[i].want);
		free(name);
	}
}

static int setup(void **state)
{
	lupe_events_set_sysfs(LUPE_TEST_DATA "/sysfs");
	lupe_events_set_tracefs(LUPE_TEST_DATA "/tracefs");
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_attr_names),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_list_append),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_printer),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_layout),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
