// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder on elfutils' libdwfl: dwfl_getthread_frames() over a Dwfl
 * that stands for one process. perf's unwind-libdw builds a Dwfl for every
 * sample (opening every ELF file and parsing its CFI again); here a Dwfl
 * lives as long as its process's maps do not change under the modules it
 * reported, so each DSO's .eh_frame_hdr / .eh_frame (and .debug_frame when
 * the eh_frame has no answer) is read once per process. Modules are
 * reported lazily, when an unwound pc first falls in them.
 *
 * The thread callbacks read the sample being unwound from the unwinder:
 * the initial registers from PERF_SAMPLE_REGS_USER, memory from the stack
 * copy, else from the mapped file (read-only data such as a PLT's GOT).
 * Only x86_64 register sets are understood.
 *
 * Cost: a Dwfl with its modules is a few hundred KiB; at most MAX_PROCS are
 * kept, the least recently used is dropped beyond.
 */
#include <elfutils/libdwfl.h>
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

#define MAX_PROCS 64

/* perf's x86_64 register numbers, in DWARF order (rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip). */
static const int dwarf_to_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
enum { PERF_REG_SP = 7, PERF_REG_IP = 8 };

struct reported {
	const struct lupe_dso *dso;
	uint64_t base, start; /* where it was reported; start: a map of it then */
};

struct proc {
	const struct lupe_maps *maps;
	uint32_t gen;
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
	uint64_t *ips;
	int nr, max;
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

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
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

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct lupe_unwinder *u = arg;

	if (addr + 8 < addr)
		return false;
	if (addr >= u->sp && addr + 8 <= u->sp + u->stack_len) {
		memcpy(result, (const char *)u->s->user_stack + (addr - u->sp), 8);
		return true;
	}
	return read_mapped(u, addr, result);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct lupe_unwinder *u = arg;
	int set = 0;

	for (int r = 0; r < 17; r++) {
		uint64_t v;
		Dwarf_Word w;

		if (lupe_unwind_reg(u->s, dwarf_to_perf[r], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(thread, r, 1, &w))
			return false;
		set++;
	}
	return set > 0;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static void proc_clear(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
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
		proc_clear(&u->procs[i]);
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

static struct proc *proc_for(struct lupe_unwinder *u, const struct lupe_maps *maps)
{
	struct proc *p = NULL, *lru = NULL;

	for (size_t i = 0; i < u->nr_procs; i++) {
		if (u->procs[i].maps == maps) {
			p = &u->procs[i];
			break;
		}
		if (!lru || u->procs[i].last_use < lru->last_use)
			lru = &u->procs[i];
	}
	if (p && p->gen != maps->gen) {
		if (proc_still_valid(p, maps))
			p->gen = maps->gen;
		else
			proc_clear(p);
	}
	if (!p) {
		if (u->nr_procs < MAX_PROCS)
			p = &u->procs[u->nr_procs++];
		else
			proc_clear(p = lru);
	}
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&offline_callbacks);
		if (!p->dwfl)
			return NULL;
		p->maps = maps;
		p->gen = maps->gen;
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

/* Report the module that covers pc, once. */
static void report_module(struct lupe_unwinder *u, uint64_t pc)
{
	struct proc *p = u->cur;
	const struct lupe_map *m;
	Dwfl_Module *mod;
	uint64_t base;
	int fd = -1;

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
		if (p->mods[i].dso == m->dso) {
			/* reported, but not where pc is: a different mapping we leave alone */
			if (fd >= 0)
				close(fd);
			return;
		}
	}
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
	p->mods[p->nr_mods++] = (struct reported){ m->dso, base, m->start };
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, m->dso->short_name, m->dso->long_name, fd, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
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
	u->ips[u->nr++] = pc;
	return u->nr < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int lupe_unwind_user(struct lupe_unwinder *u, struct lupe_thread *t, const struct lupe_sample *s,
		     uint64_t *ips, int max)
{
	uint64_t ip;

	if (max <= 0 || !lupe_unwind_wanted(s) || s->user_abi != PERF_SAMPLE_REGS_ABI_64 ||
	    lupe_unwind_reg(s, PERF_REG_IP, &ip))
		return 0;
	ips[0] = ip;
	if (!t->maps || lupe_unwind_reg(s, PERF_REG_SP, &u->sp))
		return 1;
	u->cur = proc_for(u, t->maps);
	if (!u->cur)
		return 1;
	u->t = t;
	u->s = s;
	u->stack_len = s->user_stack_dyn < s->user_stack_size ? s->user_stack_dyn : s->user_stack_size;
	u->ips = ips;
	u->nr = 0;
	u->max = max;
	report_module(u, ip);
	if (!u->cur->attached) {
		/* no module of this process could be read: no ELF to take the machine from */
		return 1;
	}
	dwfl_getthread_frames(u->cur->dwfl, t->tid, frame_cb, u);
	u->s = NULL;
	if (!u->nr) {
		ips[0] = ip;
		return 1;
	}
	return u->nr;
}
