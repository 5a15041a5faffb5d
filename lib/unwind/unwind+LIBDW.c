// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder on elfutils' libdwfl: dwfl_getthread_frames() over a Dwfl
 * that stands for one process. perf's unwind-libdw builds a Dwfl for every
 * sample (opening every ELF file and parsing its CFI again); here a Dwfl
 * lives as long as its process's maps do not change under the modules it
 * reported and the process does not exec, so each DSO's .eh_frame_hdr /
 * .eh_frame (and .debug_frame when the eh_frame has no answer) is read once
 * per process image. Modules are
 * reported lazily, when an unwound pc first falls in them.
 *
 * The thread callbacks read the sample being unwound from the unwinder:
 * the initial registers from PERF_SAMPLE_REGS_USER, memory from the stack
 * copy, else from the mapped file (read-only data such as a PLT's GOT).
 * Only x86_64 register sets are understood.
 *
 * Cost: a Dwfl with its modules is a few hundred KiB of heap; each file
 * its modules stand for is mapped whole (libelf) once for all the Dwfls
 * (struct shared_file), and the pages read count in lupe's resident
 * memory until give_back(); at most MAX_PROCS are kept, the least recently
 * used is dropped beyond, and a process's as soon as it has exited (its
 * maps say so; a Dwfl holds a reference on them). Measured on a make -j2
 * recording (394 processes, few of them alive at once): 64 kept gave a
 * 200 MB peak, 8 kept 103 MB and less CPU time, with the same output; on
 * another (685 processes, clang among them), dropping the exited ones
 * took report's peak from 79 MB to 69 MB.
 *
 * Unwound chains are cached (CHAINS entries of a few hundred bytes, WAYS
 * to a set, for the chains of the same registers through different callers):
 * the chain is a function of the Dwfl (its process's maps) and of the
 * registers and memory that the CFI rules for the CFA, the return address,
 * sp and bp read. An entry is made only when, in every frame of the chain,
 * those rules read no register but sp and bp (what compilers emit outside
 * the odd prologue); it keeps ip, sp and bp, and the addresses those rules
 * read with the bytes found there, as worked out again from the rules and
 * checked against what libdw computed (no entry when they disagree). A
 * sample hits when its ip, sp and bp agree and the same addresses hold the
 * same bytes: a thread sampled again in the same loop (the common case)
 * unwinds by a few compares instead of a CFI walk. The saved slots of
 * other registers, which change from sample to sample, are not compared.
 * Reads of the mapped files are not either: under the same maps they give
 * the same bytes. A frame whose pc is in no module (its file is gone, as
 * a binary rebuilt since the recording) is unwound by libdw by the frame
 * pointer; such frames are cached too, their rule being elfutils'
 * (fp_rules()): the bench file's demo binary is gone, and its chains,
 * never cached before, took half of a report's CPU time. Reporting a
 * module may put such a pc in it: it makes the process's chains stale.
 */
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <dwarf.h>
#include <fcntl.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include "session/machine.h"
#include "unwind/unwind.h"
#include "util/util.h"

#define MAX_PROCS 8
#define CHAINS 4096     /* cached chains */
#define WAYS 4          /* chains per set */
#define MAX_READS 512   /* memory reads one cached unwind may depend on */
#define MAX_FRAMES 256  /* longest chain cached */
#define GIVE_BACK 512  /* report_module() calls between two give_back()s */

/* perf's x86_64 register numbers, in DWARF order (rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip). */
static const int dwarf_to_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
enum { DWARF_SP = 7, DWARF_IP = 16 };
/* The DWARF registers a chain is keyed on: rbp rsp rip. */
static const int key_regs[] = { 6, 7, 16 };
#define NKEY (sizeof(key_regs) / sizeof(key_regs[0]))

struct mem_read {
	uint64_t addr, val; /* val: meaningful when in_stack */
	int in_stack;
};

struct chain {
	const struct proc *proc;
	uint64_t epoch;   /* of proc when made */
	uint64_t regs[NKEY];
	uint32_t regset;  /* which DWARF registers were given */
	int nr_ips, nr_reads;
	int truncated;    /* stopped at max: longer chains may follow */
	uint64_t *ips;
	struct mem_read reads[];
};

/*
 * One libelf handle on a file for the Dwfls of every process that maps
 * it (file_get()): libelf counts its references (elf_begin() on a handle
 * hands out the same one, libdwfl's elf_end() of a module's file drops
 * one), so the file is mapped once however many processes' modules stand
 * for it. Two clang processes unwound side by side read libLLVM's and
 * libclang-cpp's .eh_frame_hdr and .eh_frame through one mapping, not
 * two: each copy was 1.5-1.9 MB of a many-process script's 22 MB peak.
 */
struct shared_file {
	const struct lupe_dso *dso;
	Elf *elf;       /* our reference */
	int fd;
	int dyn;        /* ET_DYN: reported at the map's base, else at its own addresses */
	uint64_t vaddr, end; /* the first PT_LOAD's page-aligned p_vaddr, the last one's end */
	char *cfi;      /* its CFI's pages in the mapping of the file: give_back() */
	size_t cfi_len;
	unsigned users; /* modules reported on it */
};

struct reported {
	const struct lupe_dso *dso;
	uint64_t base, start; /* where it was reported; start: a map of it then */
	struct shared_file *file; /* NULL: reported on its own file (the vdso, or one file_get() refused) */
};

struct proc {
	struct lupe_maps *maps; /* a reference, while dwfl is */
	int exited;     /* maps->exited when the Dwfl was begun */
	uint32_t gen;
	uint32_t execs; /* of maps when the Dwfl was begun: an exec ends it */
	uint64_t epoch; /* changes whenever the chains cached for it go stale */
	uint64_t last_use;
	Dwfl *dwfl;
	int attached;
	struct reported *mods;
	size_t nr_mods, cap_mods;
};

struct lupe_unwinder {
	struct proc procs[MAX_PROCS];
	size_t nr_procs;
	uint64_t clock;
	/* the sample being unwound */
	struct proc *cur;
	struct lupe_thread *t;
	const struct lupe_sample *s;
	uint64_t sp, stack_len;
	int in_popped;  /* read_popped() is evaluating the leaf's rules */
	uint64_t *ips;
	int nr, max;
	/* its initial registers, in DWARF order */
	Dwarf_Word regs[17];
	uint32_t regset;
	/* each DWARF register's index in user_regs (-1: not sampled) under idx_mask */
	int8_t idx[17];
	uint32_t idx_regset;
	uint64_t idx_mask;
	int idx_ok;
	/* sp and bp of each frame, as libdw unwound them (bit k of known_bp: fbp[k] is) */
	uint64_t fsp[MAX_FRAMES], fbp[MAX_FRAMES];
	uint8_t known_bp[MAX_FRAMES];
	/* the memory the chain's rules read, while nr_reads <= MAX_READS */
	struct mem_read reads[MAX_READS];
	int nr_reads;
	uint64_t epochs; /* source of proc epochs */
	unsigned reports; /* report_module() calls, for give_back() */
	struct shared_file **files; /* those the procs' modules use */
	size_t nr_files;
	struct chain *chains[CHAINS];
	unsigned next_way;
};

/*
 * No separate debug info for unwinding: .eh_frame (and a file's own
 * .debug_frame) answer, as for perf's libunwind. Looking further would
 * make libdw open and decompress a library's whole DWARF (libc's is tens
 * of MiB) each time CFI runs out at the outermost frame.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

/* A module reported on a shared file (report_module()): one more reference to its handle. */
static int find_shared_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			   char **file_name, Elf **elfp)
{
	struct shared_file *f = *userdata;

	if (f) {
		*elfp = elf_begin(-1, ELF_C_READ_MMAP_PRIVATE, f->elf);
		*file_name = *elfp ? strdup(f->dso->long_name) : NULL;
	}
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = find_shared_elf,
	.find_debuginfo = find_debuginfo,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct lupe_unwinder *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->t->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

/* Read 8 bytes of the mapped file at addr, for memory outside the stack copy. */
static bool read_mapped(struct lupe_unwinder *u, uint64_t addr, Dwarf_Word *result)
{
	const struct lupe_map *map = u->t->maps ? lupe_maps_find(u->t->maps, addr) : NULL;
	int fd;
	ssize_t n;

	if (!map || !map->dso || map->dso->long_name[0] != '/' || addr + 8 > map->end)
		return false;
	fd = open(map->dso->long_name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = pread(fd, result, 8, (off_t)(addr - map->start + map->pgoff));
	close(fd);
	return n == 8;
}

static int in_stack(const struct lupe_unwinder *u, uint64_t addr)
{
	return addr + 8 >= addr && addr >= u->sp && addr + 8 <= u->sp + u->stack_len;
}

static int rule_eval(struct lupe_unwinder *u, int k, const Dwarf_Op *ops, size_t n, uint64_t cfa,
		     int have_cfa, uint64_t *out, int *is_value);

/*
 * addr lies below the sampled sp, outside the stack copy: in an epilogue,
 * the slot a register was saved in and has been popped from (glibc's CFI
 * keeps "saved at CFA-48" for rbp after its pop). When the leaf's CFI
 * says register r is saved at addr, r holds that value again: its value
 * now is the answer. Without it, the caller's rbp is lost and a caller
 * that keeps its CFA in rbp ends the chain.
 */
static bool read_popped(struct lupe_unwinder *u, uint64_t addr, Dwarf_Word *result)
{
	uint64_t pc = u->regs[DWARF_IP], cfa, at;
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	int isval, found = -1;

	if (u->in_popped || !(u->regset & (1u << DWARF_IP)) || !(mod = dwfl_addrmodule(u->cur->dwfl, pc)) ||
	    !(cfi = dwfl_module_eh_cfi(mod, &bias)) || dwarf_cfi_addrframe(cfi, pc - bias, &fr))
		return false;
	u->in_popped = 1;
	if (!dwarf_frame_cfa(fr, &ops, &nops) && nops && !rule_eval(u, 0, ops, nops, 0, 0, &cfa, &isval) &&
	    !isval) {
		for (int r = 0; r < DWARF_IP && found < 0; r++) {
			if (r != DWARF_SP && (u->regset & (1u << r)) && !dwarf_frame_register(fr, r, mem, &ops, &nops) &&
			    nops && !rule_eval(u, 0, ops, nops, cfa, 1, &at, &isval) && !isval && at == addr)
				found = r;
		}
	}
	u->in_popped = 0;
	free(fr);
	if (found < 0)
		return false;
	*result = u->regs[found];
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct lupe_unwinder *u = arg;

	if (addr + 8 < addr)
		return false;
	if (in_stack(u, addr)) {
		memcpy(result, (const char *)u->s->user_stack + (addr - u->sp), 8);
		return true;
	}
	if (addr + 8 <= u->sp)
		return read_popped(u, addr, result);
	return read_mapped(u, addr, result);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct lupe_unwinder *u = arg;

	if (u->regset == (1u << 17) - 1)
		return dwfl_thread_state_registers(thread, 0, 17, u->regs);
	for (int r = 0; r < 17; r++) {
		if ((u->regset & (1u << r)) && !dwfl_thread_state_registers(thread, r, 1, &u->regs[r]))
			return false;
	}
	return u->regset != 0;
}

/*
 * The sample's user registers in DWARF order. Where each sits in
 * user_regs is worked out once per register mask (a loop over the mask for
 * every sample was a tenth of a cached unwind's instructions).
 */
static void load_regs(struct lupe_unwinder *u, const struct lupe_sample *s)
{
	uint64_t mask = s->attr->sample_regs_user;

	if (!u->idx_ok || mask != u->idx_mask) {
		u->idx_regset = 0;
		for (int r = 0; r < 17; r++) {
			uint64_t bit = 1ULL << dwarf_to_perf[r];

			u->idx[r] = mask & bit ? (int8_t)__builtin_popcountll(mask & (bit - 1)) : -1;
			if (mask & bit)
				u->idx_regset |= 1u << r;
		}
		u->idx_mask = mask;
		u->idx_ok = 1;
	}
	u->regset = u->idx_regset;
	for (int r = 0; r < 17; r++)
		u->regs[r] = u->idx[r] >= 0 ? s->user_regs[u->idx[r]] : 0;
}

static size_t chain_slot(const struct lupe_unwinder *u)
{
	uint64_t h = (uint64_t)(uintptr_t)u->cur * 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < NKEY; i++)
		h = (h ^ u->regs[key_regs[i]]) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 32) % (CHAINS / WAYS) * WAYS;
}

/* Whether chain c holds for the current sample, for max frames. */
static int chain_holds(const struct lupe_unwinder *u, const struct chain *c, int max)
{
	if (!c || c->proc != u->cur || c->epoch != u->cur->epoch || c->regset != u->regset ||
	    (c->truncated && max > c->nr_ips))
		return 0;
	for (size_t i = 0; i < NKEY; i++) {
		if (c->regs[i] != u->regs[key_regs[i]])
			return 0;
	}
	for (int i = 0; i < c->nr_reads; i++) {
		const struct mem_read *r = &c->reads[i];

		if (r->in_stack != in_stack(u, r->addr) ||
		    (r->in_stack && memcmp(&r->val, (const char *)u->s->user_stack + (r->addr - u->sp), 8)))
			return 0;
	}
	return 1;
}

/* The cached chain of the current sample in the set at slot, else NULL. */
static const struct chain *chain_find(const struct lupe_unwinder *u, size_t slot, int max)
{
	for (size_t w = 0; w < WAYS; w++) {
		if (chain_holds(u, u->chains[slot + w], max))
			return u->chains[slot + w];
	}
	return NULL;
}

/* Read 8 bytes at addr for a rule, noting the address and what it held. */
static int rule_read(struct lupe_unwinder *u, uint64_t addr, uint64_t *val)
{
	struct mem_read *r;

	if (u->nr_reads >= MAX_READS || !memory_read(NULL, addr, val, u))
		return -1;
	r = &u->reads[u->nr_reads++];
	*r = (struct mem_read){ addr, *val, in_stack(u, addr) };
	return 0;
}

/*
 * Evaluate a CFI expression of frame k that may read sp, bp, the CFA and
 * memory only: -1 for any other operation. *is_value: it ends in
 * DW_OP_stack_value (the result is the value, not where it is saved).
 */
static int rule_eval(struct lupe_unwinder *u, int k, const Dwarf_Op *ops, size_t n, uint64_t cfa,
		     int have_cfa, uint64_t *out, int *is_value)
{
	uint64_t st[8];
	size_t sp = 0;

	*is_value = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t a = ops[i].atom;
		uint64_t v;

		if (sp >= 8)
			return -1;
		if (a == DW_OP_breg7 || (a == DW_OP_bregx && ops[i].number == 7)) {
			st[sp++] = u->fsp[k] + (a == DW_OP_bregx ? ops[i].number2 : ops[i].number);
		} else if (a == DW_OP_breg6 || (a == DW_OP_bregx && ops[i].number == 6)) {
			if (!u->known_bp[k])
				return -1;
			st[sp++] = u->fbp[k] + (a == DW_OP_bregx ? ops[i].number2 : ops[i].number);
		} else if (a == DW_OP_call_frame_cfa && have_cfa) {
			st[sp++] = cfa;
		} else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			st[sp++] = a - DW_OP_lit0;
		} else if (a >= DW_OP_const1u && a <= DW_OP_consts) {
			st[sp++] = ops[i].number;
		} else if (a == DW_OP_deref && sp) {
			if (rule_read(u, st[sp - 1], &v))
				return -1;
			st[sp - 1] = v;
		} else if (a == DW_OP_plus_uconst && sp) {
			st[sp - 1] += ops[i].number;
		} else if ((a == DW_OP_plus || a == DW_OP_minus) && sp >= 2) {
			sp--;
			st[sp - 1] = a == DW_OP_plus ? st[sp - 1] + st[sp] : st[sp - 1] - st[sp];
		} else if (a == DW_OP_stack_value && i == n - 1) {
			*is_value = 1;
		} else {
			return -1;
		}
	}
	if (sp != 1)
		return -1;
	*out = st[0];
	return 0;
}

/*
 * Frame k's pc in no module (its file is gone, as a binary rebuilt since
 * the recording; or no file at all): libdw unwinds it by the frame
 * pointer, as elfutils' x86_64_unwind does: the caller's pc at bp + 8, its
 * bp at bp, its sp bp + 16; and it stops at a bp of 0 or unknown. Worked
 * out again here, with the reads noted, and checked against frame k + 1
 * as libdw found it; a read that fails is left uncached (libdw takes 0
 * for the bp).
 */
static int fp_rules(struct lupe_unwinder *u, int k)
{
	uint64_t bp, ret;

	if (!u->known_bp[k] || !u->fbp[k])
		return k + 1 >= u->nr ? 0 : -1;
	if (rule_read(u, u->fbp[k] + 8, &ret) || rule_read(u, u->fbp[k], &bp))
		return -1;
	if (k + 1 >= u->nr)
		return 0;
	if (u->fsp[k + 1] != u->fbp[k] + 16 || !u->known_bp[k + 1] || u->fbp[k + 1] != bp ||
	    (ret != u->ips[k + 1] && ret - 1 != u->ips[k + 1]))
		return -1;
	return 0;
}

/*
 * Work out again, from the CFI at frame k's pc, the caller's CFA, return
 * address, sp and bp, noting the memory read. 0 when the rules use sp, bp,
 * the CFA and memory only, and agree with what libdw found for frame k + 1
 * (the last frame: whatever they give, the reads are what stopped it).
 */
static int frame_rules(struct lupe_unwinder *u, int k)
{
	uint64_t pc = u->ips[k], cfa, val[17];
	Dwfl_Module *mod = dwfl_addrmodule(u->cur->dwfl, pc);
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	int isval, ok, known[17] = { 0 };
	static const int regs[] = { 16, 7, 6 };

	if (!mod)
		return fp_rules(u, k);
	if (!(cfi = dwfl_module_eh_cfi(mod, &bias)) || dwarf_cfi_addrframe(cfi, pc - bias, &fr))
		return -1;
	ok = !dwarf_frame_cfa(fr, &ops, &nops) && nops &&
	     !rule_eval(u, k, ops, nops, 0, 0, &cfa, &isval) && !isval;
	for (size_t i = 0; ok && i < sizeof(regs) / sizeof(regs[0]); i++) {
		int r = regs[i];
		uint64_t v;

		if (dwarf_frame_register(fr, r, mem, &ops, &nops)) {
			ok = 0;
		} else if (!nops && !ops) { /* same value */
			known[r] = r == 7 || (r == 6 && u->known_bp[k]);
			val[r] = r == 7 ? u->fsp[k] : u->fbp[k];
		} else if (!nops) { /* undefined; sp then is the CFA */
			known[r] = r == 7;
			val[r] = cfa;
		} else if (rule_eval(u, k, ops, nops, cfa, 1, &v, &isval) ||
			   (!isval && rule_read(u, v, &v))) {
			ok = 0;
		} else {
			known[r] = 1;
			val[r] = v;
		}
	}
	free(fr);
	if (!ok)
		return -1;
	if (k + 1 >= u->nr)
		return 0;
	/* the caller's pc, sp and bp as libdw unwound them */
	if (!known[16] || !known[7] || val[7] != u->fsp[k + 1] || known[6] != u->known_bp[k + 1] ||
	    (known[6] && val[6] != u->fbp[k + 1]) ||
	    (val[16] != u->ips[k + 1] && val[16] - 1 != u->ips[k + 1]))
		return -1;
	return 0;
}

static void chain_store(struct lupe_unwinder *u, size_t slot)
{
	struct chain *c;
	size_t w;

	if (u->nr > MAX_FRAMES)
		return;
	u->nr_reads = 0;
	for (int k = 0; k < u->nr; k++) {
		if (frame_rules(u, k))
			return;
	}
	c = malloc(sizeof(*c) + u->nr_reads * sizeof(c->reads[0]) + u->nr * sizeof(uint64_t));
	if (!c)
		return;
	c->proc = u->cur;
	c->epoch = u->cur->epoch;
	for (size_t i = 0; i < NKEY; i++)
		c->regs[i] = u->regs[key_regs[i]];
	c->regset = u->regset;
	c->nr_ips = u->nr;
	c->nr_reads = u->nr_reads;
	c->truncated = u->nr >= u->max;
	memcpy(c->reads, u->reads, u->nr_reads * sizeof(c->reads[0]));
	c->ips = (uint64_t *)&c->reads[u->nr_reads];
	memcpy(c->ips, u->ips, u->nr * sizeof(uint64_t));
	for (w = 0; w < WAYS && u->chains[slot + w]; w++)
		;
	if (w == WAYS)
		w = u->next_way++ % WAYS;
	free(u->chains[slot + w]);
	u->chains[slot + w] = c;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static void file_put(struct lupe_unwinder *u, struct shared_file *f)
{
	if (!f || --f->users)
		return;
	for (size_t i = 0; i < u->nr_files; i++) {
		if (u->files[i] == f) {
			u->files[i] = u->files[--u->nr_files];
			break;
		}
	}
	elf_end(f->elf);
	close(f->fd);
	free(f);
}

static void proc_clear(struct lupe_unwinder *u, struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	for (size_t i = 0; i < p->nr_mods; i++)
		file_put(u, p->mods[i].file);
	if (p->maps)
		lupe_maps_put(p->maps);
	free(p->mods);
	memset(p, 0, sizeof(*p));
}

int lupe_unwind_supported(void)
{
	return 1;
}

struct lupe_unwinder *lupe_unwinder_new(void)
{
	return calloc(1, sizeof(struct lupe_unwinder));
}

void lupe_unwinder_delete(struct lupe_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_procs; i++)
		proc_clear(u, &u->procs[i]);
	for (size_t i = 0; i < CHAINS; i++)
		free(u->chains[i]);
	free(u->files);
	free(u);
}

/* Do the modules p reported still sit where the maps put them? */
static int proc_still_valid(const struct proc *p, const struct lupe_maps *maps)
{
	for (size_t i = 0; i < p->nr_mods; i++) {
		const struct lupe_map *m = lupe_maps_find(maps, p->mods[i].start);

		if (!m || m->dso != p->mods[i].dso || m->start - m->pgoff != p->mods[i].base)
			return 0;
	}
	return 1;
}

static struct proc *proc_for(struct lupe_unwinder *u, struct lupe_maps *maps)
{
	struct proc *p = NULL, *lru = NULL;

	for (size_t i = 0; i < u->nr_procs; i++) {
		struct proc *q = &u->procs[i];

		/*
		 * A process that exited since its Dwfl was begun needs it no
		 * more (its threads that go on make it again, once): a build's
		 * cc1 and as come and go by the hundred
		 */
		if (q->dwfl && q->maps != maps && q->maps->exited && !q->exited)
			proc_clear(u, q);
		if (!p && q->maps == maps)
			p = q;
		if (!lru || q->last_use < lru->last_use)
			lru = q;
	}
	if (p && p->gen != maps->gen) {
		/*
		 * The old image's maps outlive an exec (as in perf), so its
		 * modules would still look valid: a libc reported at the old
		 * image's base hid the new image's libc, and chains stopped at
		 * the first frame there (__libc_start_call_main).
		 */
		if (p->execs == maps->execs && proc_still_valid(p, maps))
			p->gen = maps->gen;
		else
			proc_clear(u, p);
		/* memory outside the stack copy may read differently now */
		p->epoch = ++u->epochs;
	}
	if (!p) {
		if (u->nr_procs < MAX_PROCS)
			p = &u->procs[u->nr_procs++];
		else
			proc_clear(u, p = lru);
	}
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&offline_callbacks);
		if (!p->dwfl)
			return NULL;
		lupe_maps_get(maps);
		p->maps = maps;
		p->exited = maps->exited;
		p->gen = maps->gen;
		p->execs = maps->execs;
		p->epoch = ++u->epochs;
	}
	p->last_use = ++u->clock;
	return p;
}

/*
 * An fd on a copy of this process's vdso: the recorded one when the file
 * comes from this kernel, as lupe_elf_load_vdso() assumes for symbols.
 * Made once; each report gets its own dup (libdwfl closes what it takes).
 */
static int vdso_fd(void)
{
	static int fd = -2;
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)img;
	size_t size;

	if (fd == -2) {
		fd = -1;
		if (!img || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
			return -1;
		size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
		if (size > (1u << 20))
			return -1;
		fd = memfd_create("lupe-vdso", MFD_CLOEXEC);
		if (fd >= 0 && write(fd, img, size) != (ssize_t)size) {
			close(fd);
			fd = -1;
		}
	}
	return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/*
 * elfutils (0.188) takes a file's .eh_frame_hdr search table only when
 * the section comes before .eh_frame in the section headers, as GNU ld
 * puts them; lld puts it after (libLLVM, libclang-cpp). Without the table
 * libdw finds an FDE by parsing every FDE before it, and keeps each one it
 * parsed in its tree: 5.8 MB of heap for a lookup in the middle of
 * libLLVM-14, once per process, and the pages of the whole .eh_frame
 * resident (a make -j2 recording with clang: 35 MB of FDEs and 32 MB of
 * LLVM's pages at the peak). Such a module's .eh_frame is given no name
 * in libdwfl's copy of the section headers (libelf copies them when it
 * maps a file read-only, as libdwfl does), so that libdw takes the CFI
 * from PT_GNU_EH_FRAME instead, with the table: the same FDEs, found by a
 * binary search. Only for the unwinder's own Dwfl, which reads nothing
 * else by section name.
 */
static void use_eh_frame_hdr(Elf *elf)
{
	Elf_Scn *scn = NULL, *eh = NULL;
	GElf_Shdr shdr, eh_shdr;
	GElf_Phdr phdr;
	size_t shstrndx, phnum;
	uint64_t hdr_addr = 0;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) || !shstrndx || elf_getphdrnum(elf, &phnum))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		if (!strcmp(name, ".eh_frame_hdr")) {
			if (!eh)
				return; /* before .eh_frame: libdw takes it */
			hdr_addr = shdr.sh_addr;
			break;
		}
		if (!strcmp(name, ".eh_frame") && !eh) {
			eh = scn;
			eh_shdr = shdr;
		}
	}
	if (!eh || !hdr_addr)
		return;
	for (size_t i = 0; i < phnum; i++) {
		if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_GNU_EH_FRAME) {
			if (phdr.p_vaddr != hdr_addr)
				return;
			eh_shdr.sh_name = 0; /* "" */
			gelf_update_shdr(eh, &eh_shdr);
			return;
		}
	}
}

/*
 * Where mod's .eh_frame_hdr and .eh_frame lie in libdwfl's mapping of its
 * file, whole pages, into r; none when the file is not mapped page by
 * page or the pages would hold its headers (which libelf may write in
 * its private mapping).
 */
static void cfi_pages(Elf *elf, struct shared_file *r)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t shstrndx, size;
	uint64_t lo = UINT64_MAX, hi = 0, page = (uint64_t)sysconf(_SC_PAGESIZE);
	char *raw = elf ? elf_rawfile(elf, &size) : NULL;

	if (!raw || (uintptr_t)raw % page || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    (strcmp(name, ".eh_frame_hdr") && strcmp(name, ".eh_frame")))
			continue;
		lo = sh.sh_offset < lo ? sh.sh_offset : lo;
		hi = sh.sh_offset + sh.sh_size > hi ? sh.sh_offset + sh.sh_size : hi;
	}
	lo = (lo + page - 1) & ~(page - 1);
	hi &= ~(page - 1);
	if (lo >= hi || lo < page || hi > size || (eh.e_shoff < hi && eh.e_shoff + eh.e_shnum * eh.e_shentsize > lo) ||
	    !lupe_file_mapped(raw + lo, hi - lo))
		return;
	r->cfi = raw + lo;
	r->cfi_len = (size_t)(hi - lo);
}

/*
 * The pages of the files' CFI that unwinding read, given back to the
 * kernel (they stay in the page cache): libdwfl reads a file through
 * libelf's mapping of it, whole and private, and the kernel maps 64 KiB
 * around each page read, so a few hundred lookups in libLLVM's
 * .eh_frame_hdr and .eh_frame held 2.5 MB of them (9.3 MB of a
 * many-process script's 29 MB peak when each process mapped its own). A
 * page read again comes back the same (nothing writes them). Only a
 * mapping of a file is touched (lib/util/pages.c), as in srcline. Not cut
 * by lupe_pages_fine() as srcline's are: cut, the CFI's pages took a
 * many-process script's peak from 26.4 to 28.1-29.1 MB (not understood).
 */
static void give_back(struct lupe_unwinder *u)
{
	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i]->cfi_len)
			lupe_pages_give_back(u->files[i]->cfi, u->files[i]->cfi_len);
}

/*
 * dso's file, opened once for all the procs (one more user): where
 * dwfl_report_elf() would put its module, its CFI's pages, and the
 * .eh_frame_hdr made usable. NULL when it is not an ELF file of program
 * headers (an ET_REL one): the caller reports it on its own.
 */
static struct shared_file *file_get(struct lupe_unwinder *u, const struct lupe_dso *dso)
{
	struct shared_file *f, **v;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t phnum;

	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i]->dso == dso)
			return u->files[i]->users++, u->files[i];
	if (!(f = calloc(1, sizeof(*f))))
		return NULL;
	f->dso = dso;
	f->fd = open(dso->long_name, O_RDONLY | O_CLOEXEC);
	/* as libdwfl opens a file */
	f->elf = f->fd < 0 ? NULL : elf_begin(f->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &eh) ||
	    (eh.e_type != ET_DYN && eh.e_type != ET_EXEC) || elf_getphdrnum(f->elf, &phnum))
		goto fail;
	/* __libdwfl_elf_address_range()'s rule, for a base and add_p_vaddr false */
	f->dyn = eh.e_type == ET_DYN;
	f->vaddr = UINT64_MAX;
	for (size_t i = 0; i < phnum; i++) {
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (f->vaddr == UINT64_MAX)
			f->vaddr = ph.p_vaddr & -ph.p_align;
		if (ph.p_vaddr + ph.p_memsz > 0)
			f->end = ph.p_vaddr + ph.p_memsz;
	}
	if (f->vaddr == UINT64_MAX || !f->end ||
	    !(v = realloc(u->files, (u->nr_files + 1) * sizeof(*v))))
		goto fail;
	u->files = v;
	cfi_pages(f->elf, f);
	use_eh_frame_hdr(f->elf);
	f->users = 1;
	return u->files[u->nr_files++] = f;
fail:
	elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f);
	return NULL;
}

/* Report the module that covers pc, once. */
static void report_module(struct lupe_unwinder *u, uint64_t pc)
{
	struct proc *p = u->cur;
	const struct lupe_map *m;
	struct shared_file *f;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	void **userdata;
	uint64_t base;
	int fd = -1;

	if (++u->reports % GIVE_BACK == 0)
		give_back(u);
	if (dwfl_addrmodule(p->dwfl, pc))
		return;
	m = lupe_maps_find(u->t->maps, pc);
	if (!m || !m->dso)
		return;
	if (!strcmp(m->dso->long_name, "[vdso]"))
		fd = vdso_fd();
	else if (m->dso->long_name[0] != '/')
		return;
	base = m->start - m->pgoff;
	for (size_t i = 0; i < p->nr_mods; i++) {
		if (p->mods[i].dso == m->dso && p->mods[i].base == base) {
			/* reported here, but pc is outside its segments */
			if (fd >= 0)
				close(fd);
			return;
		}
	}
	/*
	 * The same file at another base (a library loaded again after
	 * dlclose, whose old map no record removed) is one more module:
	 * libdwfl keeps modules of one file at different addresses apart.
	 */
	if (p->nr_mods == p->cap_mods) {
		size_t cap = p->cap_mods ? p->cap_mods * 2 : 8;
		struct reported *v = realloc(p->mods, cap * sizeof(*v));

		if (!v) {
			if (fd >= 0)
				close(fd);
			return;
		}
		p->mods = v;
		p->cap_mods = cap;
	}
	f = fd < 0 ? file_get(u, m->dso) : NULL;
	p->mods[p->nr_mods++] = (struct reported){ m->dso, base, m->start, f };
	dwfl_report_begin_add(p->dwfl);
	if (f) {
		/* the range dwfl_report_elf() would give it; its file comes from find_shared_elf() */
		mod = f->dyn ? dwfl_report_module(p->dwfl, m->dso->short_name, base, base - f->vaddr + f->end)
			     : dwfl_report_module(p->dwfl, m->dso->short_name, f->vaddr, f->end);
		if (mod) {
			dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
			*userdata = f;
		}
	} else {
		mod = dwfl_report_elf(p->dwfl, m->dso->short_name, m->dso->long_name, fd, base, false);
		if (mod)
			use_eh_frame_hdr(dwfl_module_getelf(mod, &bias));
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (mod && f && !dwfl_module_getelf(mod, &bias))
		mod = NULL;
	if (mod) {
		/* a pc in no module before may be in this one: the chains unwound by bp may not hold */
		p->epoch = ++u->epochs;
	}
	if (!mod)
		pr_debug("unwind: cannot use '%s': %s", m->dso->long_name, dwfl_errmsg(-1));
	else if (!p->attached)
		p->attached = dwfl_attach_state(p->dwfl, NULL, u->t->pid, &thread_callbacks, u);
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct lupe_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	/*
	 * No user code sits there: a garbage return address (perf's trailing
	 * ffffffffffffffff [unknown] frame), which in a chain would read as a
	 * context marker and drop the whole chain.
	 */
	if (pc >= PERF_CONTEXT_MAX)
		return DWARF_CB_ABORT;
	if (u->nr < MAX_FRAMES) {
		Dwarf_Word sp = 0, bp = 0;

		u->fsp[u->nr] = dwfl_frame_reg(state, 7, &sp) ? 0 : sp;
		u->known_bp[u->nr] = !dwfl_frame_reg(state, 6, &bp);
		u->fbp[u->nr] = bp;
	}
	u->ips[u->nr++] = pc;
	return u->nr < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int lupe_unwind_user(struct lupe_unwinder *u, struct lupe_thread *t, const struct lupe_sample *s,
		     uint64_t *ips, int max)
{
	const struct chain *c;
	uint64_t ip;
	size_t slot;

	if (max <= 0 || !lupe_unwind_wanted(s) || s->user_abi != PERF_SAMPLE_REGS_ABI_64)
		return 0;
	load_regs(u, s);
	if (!(u->regset & (1u << DWARF_IP)))
		return 0;
	ips[0] = ip = u->regs[DWARF_IP];
	if (!t->maps || !(u->regset & (1u << DWARF_SP)))
		return 1;
	u->sp = u->regs[DWARF_SP];
	u->cur = proc_for(u, t->maps);
	if (!u->cur)
		return 1;
	u->t = t;
	u->s = s;
	u->stack_len = s->user_stack_dyn < s->user_stack_size ? s->user_stack_dyn : s->user_stack_size;
	u->ips = ips;
	u->nr = 0;
	/* frame 0's, as frame_cb() will find them (read_popped() may need them first) */
	u->fsp[0] = u->sp;
	u->fbp[0] = u->regs[6];
	u->known_bp[0] = !!(u->regset & (1u << 6));
	u->max = max;
	/*
	 * A chain made under this epoch had ip's module reported, and the
	 * process attached, as they are now: a hit needs neither again
	 */
	slot = chain_slot(u);
	c = chain_find(u, slot, max);
	if (c) {
		u->s = NULL;
		if (!c->nr_ips)
			return 1;
		memcpy(ips, c->ips, (size_t)(c->nr_ips < max ? c->nr_ips : max) * sizeof(*ips));
		return c->nr_ips < max ? c->nr_ips : max;
	}
	report_module(u, ip);
	if (!u->cur->attached) {
		/* no module of this process could be read: no ELF to take the machine from */
		u->s = NULL;
		return 1;
	}
	/* reporting it may have made the cached chains stale: the slot's own is made anew below */
	dwfl_getthread_frames(u->cur->dwfl, t->tid, frame_cb, u);
	chain_store(u, slot);
	u->s = NULL;
	if (!u->nr) {
		ips[0] = ip;
		return 1;
	}
	return u->nr;
}
