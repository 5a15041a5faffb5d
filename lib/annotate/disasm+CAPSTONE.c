// SPDX-License-Identifier: GPL-2.0
/*
 * Disassembly with capstone, in-process: perf runs objdump for each symbol
 * it annotates (a fork, an exec and a text parse each time); capstone
 * decodes the symbol's bytes read straight from the ELF section. AT&T
 * syntax, operands joined the way objdump joins them, jump and call targets
 * written "11fe <spin+0x35>" as perf shows them.
 *
 * x86-64 only. NEEDSWORK: other machines need their capstone arch and mode
 * from e_machine.
 *
 * capstone is loaded on the first disassembly (util/dl.h): linked in, its
 * tables cost every lupe process 3 MiB of memory and their relocation.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/annotate.h>
#include "util/dl.h"
#include "util/elf-func.h"
#include "util/util.h"

/* capstone's SONAME follows its API version: libcapstone.so.4 for 4.x */
#define SONAME_OF(major) "libcapstone.so." #major
#define CAPSTONE_SONAME(major) SONAME_OF(major)

static struct {
	typeof(cs_open) *open;
	typeof(cs_option) *option;
	typeof(cs_disasm) *disasm;
	typeof(cs_insn_group) *insn_group;
	typeof(cs_free) *free;
	typeof(cs_close) *close;
} cs_fn;

static int load_capstone(void)
{
	const struct lupe_dl_sym syms[] = {
		{ "cs_open", (void **)&cs_fn.open },
		{ "cs_option", (void **)&cs_fn.option },
		{ "cs_disasm", (void **)&cs_fn.disasm },
		{ "cs_insn_group", (void **)&cs_fn.insn_group },
		{ "cs_free", (void **)&cs_fn.free },
		{ "cs_close", (void **)&cs_fn.close },
	};

	return cs_fn.close ? 0 : lupe_dl_bind(CAPSTONE_SONAME(CS_API_MAJOR), syms, ARRAY_SIZE(syms));
}

/* The bytes of [start, end) from the section that holds them. */
static uint8_t *read_range(Elf *elf, int fd, uint64_t start, uint64_t end)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		uint8_t *buf;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    start < sh.sh_addr || end > sh.sh_addr + sh.sh_size)
			continue;
		buf = malloc(end - start);
		if (!buf)
			return NULL;
		if (pread(fd, buf, end - start, sh.sh_offset + (start - sh.sh_addr)) != (ssize_t)(end - start)) {
			free(buf);
			return err_ptr(-EIO);
		}
		return buf;
	}
	return err_ptr(-ENOENT);
}

/* "mov    %rsp,%rbp": objdump's padding, and its ',' with no space after */
static void format(char *out, size_t size, const char *mnemonic, const char *ops)
{
	size_t len = snprintf(out, size, "%-6s %s", mnemonic, "");

	if (!*ops) {
		/* no operands: no trailing blanks */
		snprintf(out, size, "%s", mnemonic);
		return;
	}
	for (const char *p = ops; *p && len + 1 < size; p++) {
		if (p[0] == ',' && p[1] == ' ') {
			out[len++] = ',';
			p++;
			continue;
		}
		out[len++] = *p;
	}
	out[len] = '\0';
}

static void name_target(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t target,
			char *buf, size_t size)
{
	GElf_Addr fstart;
	const char *fn;

	if (target >= start && target < end) {
		fn = name;
		fstart = start;
	} else {
		fn = lupe_elf_func_at(elf, target, &fstart);
	}
	if (!fn)
		snprintf(buf, size, "%" PRIx64, target);
	else if (target == fstart)
		snprintf(buf, size, "%" PRIx64 " <%s>", target, fn);
	else
		snprintf(buf, size, "%" PRIx64 " <%s+0x%" PRIx64 ">", target, fn, (uint64_t)(target - fstart));
}

int lupe_disasm(const char *path, const char *name, uint64_t start, uint64_t end,
		unsigned int flags, struct lupe_listing *out)
{
	csh cs;
	cs_insn *insn = NULL;
	uint8_t *code;
	Elf *elf;
	GElf_Ehdr eh;
	size_t n;
	int fd, err = 0;

	memset(out, 0, sizeof(*out));
	if (end <= start)
		return -EINVAL;
	err = load_capstone();
	if (err)
		return err;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh)) {
		err = -LUPE_ERR_FORMAT;
		goto out_elf;
	}
	if (eh.e_machine != EM_X86_64) {
		err = -LUPE_ERR_NOT_SUPPORTED;
		goto out_elf;
	}
	code = read_range(elf, fd, start, end);
	if (!code) {
		err = -errno;
		goto out_elf;
	}
	if (cs_fn.open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		err = -LUPE_ERR_NOT_SUPPORTED;
		goto out_code;
	}
	cs_fn.option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_fn.option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	/* capstone stops at bytes it cannot decode; what came before is kept */
	n = cs_fn.disasm(cs, code, end - start, start, 0, &insn);
	out->insns = calloc(n ? n : 1, sizeof(*out->insns));
	if (!out->insns) {
		err = -ENOMEM;
		goto out_cs;
	}
	for (size_t i = 0; i < n; i++) {
		struct lupe_insn *li = &out->insns[out->nr++];
		const cs_x86 *x86 = &insn[i].detail->x86;
		bool jump = cs_fn.insn_group(cs, &insn[i], CS_GRP_JUMP);
		bool call = cs_fn.insn_group(cs, &insn[i], CS_GRP_CALL);

		li->addr = insn[i].address;
		li->size = insn[i].size;
		if ((jump || call) && x86->op_count == 1 && x86->operands[0].type == X86_OP_IMM) {
			char target[160];

			li->target = x86->operands[0].imm;
			li->jump = jump && li->target >= start && li->target < end;
			name_target(elf, name, start, end, li->target, target, sizeof(target));
			format(li->text, sizeof(li->text), insn[i].mnemonic, target);
		} else {
			format(li->text, sizeof(li->text), insn[i].mnemonic, insn[i].op_str);
		}
	}
	if (!(flags & LUPE_DISASM_NO_SOURCE))
		lupe_listing_add_lines(out, path); /* without DWARF the listing has no lines */
out_cs:
	if (insn)
		cs_fn.free(insn, n);
	cs_fn.close(&cs);
out_code:
	free(code);
out_elf:
	if (elf)
		elf_end(elf);
	close(fd);
	if (err)
		lupe_listing_clear(out);
	return err;
}
