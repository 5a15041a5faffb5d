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
#include "util/elf-func.h"
#include "util/util.h"

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
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		err = -LUPE_ERR_NOT_SUPPORTED;
		goto out_code;
	}
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	/* capstone stops at bytes it cannot decode; what came before is kept */
	n = cs_disasm(cs, code, end - start, start, 0, &insn);
	out->insns = calloc(n ? n : 1, sizeof(*out->insns));
	if (!out->insns) {
		err = -ENOMEM;
		goto out_cs;
	}
	for (size_t i = 0; i < n; i++) {
		struct lupe_insn *li = &out->insns[out->nr++];
		const cs_x86 *x86 = &insn[i].detail->x86;
		bool jump = cs_insn_group(cs, &insn[i], CS_GRP_JUMP);
		bool call = cs_insn_group(cs, &insn[i], CS_GRP_CALL);

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
		cs_free(insn, n);
	cs_close(&cs);
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
