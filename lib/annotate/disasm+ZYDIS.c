// SPDX-License-Identifier: GPL-2.0
/*
 * Disassembly with Zydis, in-process: perf runs objdump for each symbol it
 * annotates (a fork, an exec and a text parse each time); Zydis decodes the
 * symbol's bytes read straight from the ELF section. AT&T syntax, spelled
 * the way objdump spells what it can cheaply (condition codes "je"/"ja",
 * "movzbl", operands joined by ',' with no space, unsigned immediates),
 * jump and call targets written "11fe <spin+0x35>" as perf shows them.
 *
 * Why Zydis: capstone 4.0.2, used before, cannot decode EVEX (AVX-512) and
 * stopped the listing at the first such instruction: glibc's *_evex string
 * functions, chosen on every AVX-512 machine, showed 6 of 328 instructions.
 * Zydis 4 decodes every x86 extension objdump 2.40 does that we met, and is
 * MIT licensed (binutils' libopcodes, the other candidate, is GPL-3.0-or-later,
 * which GPL-2.0-only lupe cannot link). A byte Zydis cannot decode is shown as
 * objdump shows it, "(bad)", one byte long, and the listing goes on.
 * scripts/bench/annotate measures the speed: lupe_disasm() of lupe's own
 * .text (105,000 instructions) takes 0.46x capstone's time per instruction
 * (1.8 us against 3.9 us, most of it in the symbol lookup of call targets).
 *
 * x86-64 only. NEEDSWORK: other machines need another disassembler.
 *
 * Zydis is loaded on the first disassembly (util/dl.h), as capstone was:
 * no lupe command but annotate pays for its tables.
 */
#include <Zydis/Zydis.h>
#include <errno.h>
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

static struct {
	typeof(ZydisDecoderInit) *decoder_init;
	typeof(ZydisDecoderDecodeFull) *decode;
	typeof(ZydisFormatterInit) *formatter_init;
	typeof(ZydisFormatterSetProperty) *set_property;
	typeof(ZydisFormatterFormatInstruction) *format;
	typeof(ZydisCalcAbsoluteAddress) *absolute;
	typeof(ZydisMnemonicGetString) *mnemonic;
} zy;

static int load_zydis(void)
{
	const struct lupe_dl_sym syms[] = {
		{ "ZydisDecoderInit", (void **)&zy.decoder_init },
		{ "ZydisDecoderDecodeFull", (void **)&zy.decode },
		{ "ZydisFormatterInit", (void **)&zy.formatter_init },
		{ "ZydisFormatterSetProperty", (void **)&zy.set_property },
		{ "ZydisFormatterFormatInstruction", (void **)&zy.format },
		{ "ZydisCalcAbsoluteAddress", (void **)&zy.absolute },
		{ "ZydisMnemonicGetString", (void **)&zy.mnemonic },
	};
	char soname[32];

	if (zy.absolute)
		return 0;
	/* Zydis's SONAME carries its major and minor version: libZydis.so.4.0 */
	snprintf(soname, sizeof(soname), "libZydis.so.%u.%u", ZYDIS_VERSION_MAJOR(ZYDIS_VERSION),
		 ZYDIS_VERSION_MINOR(ZYDIS_VERSION));
	return lupe_dl_bind(soname, syms, ARRAY_SIZE(syms));
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

/* objdump's names of the condition codes Zydis spells the other way */
static const char *const cond_names[][2] = {
	{ "z", "e" }, { "nz", "ne" }, { "nbe", "a" }, { "nb", "ae" }, { "nl", "ge" }, { "nle", "g" },
};

static const ZydisDecodedOperand *memory_operand(const ZydisDecodedInstruction *in,
						 const ZydisDecodedOperand *ops)
{
	for (int i = 0; i < in->operand_count_visible; i++)
		if (ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY)
			return &ops[i];
	return NULL;
}

/*
 * The mnemonic m (Zydis's last word) as objdump writes it, into out:
 * "jnz" -> "jne", "setnbe" -> "seta", "movzxb" with a 32-bit destination
 * -> "movzbl", "nop" of a memory operand -> "nopl", and no size suffix
 * where a register operand says the size ("vmovdqu64y (%rdi),%ymm19").
 */
static void objdump_mnemonic(char *out, size_t size, const char *m, const ZydisDecodedInstruction *in,
			     const ZydisDecodedOperand *ops)
{
	static const char *const cond_prefixes[] = { "j", "set", "cmov" };
	static const char sfx[] = { [1] = 'b', [2] = 'w', [4] = 'l', [8] = 'q' };
	const ZydisDecodedOperand *mem = memory_operand(in, ops);
	const char *plain = zy.mnemonic(in->mnemonic);

	if ((in->mnemonic == ZYDIS_MNEMONIC_MOVZX || in->mnemonic == ZYDIS_MNEMONIC_MOVSX ||
	     in->mnemonic == ZYDIS_MNEMONIC_MOVSXD) && in->operand_count_visible == 2 &&
	    ops[0].size / 8 <= 8 && ops[1].size / 8 <= 8 && sfx[ops[0].size / 8] && sfx[ops[1].size / 8]) {
		snprintf(out, size, "mov%c%c%c", in->mnemonic == ZYDIS_MNEMONIC_MOVZX ? 'z' : 's',
			 sfx[ops[1].size / 8], sfx[ops[0].size / 8]);
		return;
	}
	if (in->mnemonic == ZYDIS_MNEMONIC_NOP) {
		/* padding: objdump names the prefixes a long nop is made of */
		int len = 0, opsize = 0;

		for (int i = 0; i < in->raw.prefix_count; i++) {
			if (in->raw.prefixes[i].value == 0x66 && !opsize++)
				continue; /* the first one is the nop's operand size */
			len += snprintf(out + len, size - len, "%s",
					in->raw.prefixes[i].value == 0x66 ? "data16 " :
					in->raw.prefixes[i].value == 0x2e ? "cs " : "");
			if ((size_t)len >= size)
				return;
		}
		if (mem && mem->size / 8 <= 8 && sfx[mem->size / 8])
			snprintf(out + len, size - len, "nop%c", sfx[mem->size / 8]);
		else if (opsize && !mem)
			snprintf(out + len, size - len, "xchg   %%ax,%%ax"); /* 66 90 */
		else
			snprintf(out + len, size - len, "nop");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cond_prefixes); i++) {
		size_t n = strlen(cond_prefixes[i]);

		if (strncmp(m, cond_prefixes[i], n))
			continue;
		for (size_t c = 0; c < ARRAY_SIZE(cond_names); c++) {
			if (!strcmp(m + n, cond_names[c][0])) {
				snprintf(out, size, "%s%s", cond_prefixes[i], cond_names[c][1]);
				return;
			}
		}
	}
	if (mem && plain && strlen(m) == strlen(plain) + 1 && !strncmp(m, plain, strlen(plain))) {
		char last = plain[strlen(plain) - 1], suffix = m[strlen(plain)];

		/* "vmovq", "vmovd": the name says the size already */
		if (last == suffix || (last == 'd' && suffix == 'l')) {
			snprintf(out, size, "%s", plain);
			return;
		}
		for (int i = 0; i < in->operand_count_visible; i++) {
			if (ops[i].type == ZYDIS_OPERAND_TYPE_REGISTER && ops[i].size == mem->size) {
				snprintf(out, size, "%s", plain);
				return;
			}
		}
	}
	snprintf(out, size, "%s", m);
}

/*
 * The operands as objdump writes them, in place: "0x0(%rax,%rax,1)" where
 * the instruction encodes a zero displacement (Zydis leaves it out), and a
 * nop's memory operand alone (Zydis writes the register of its ModRM too).
 */
static void objdump_operands(char *ops_text, size_t size, const ZydisDecodedInstruction *in,
			     const ZydisDecodedOperand *ops)
{
	const ZydisDecodedOperand *mem = memory_operand(in, ops);
	char *paren, *comma;

	if (!mem)
		return;
	if (in->mnemonic == ZYDIS_MNEMONIC_NOP && (comma = strstr(ops_text, ", ")))
		memmove(ops_text, comma + 2, strlen(comma + 2) + 1);
	if (!in->raw.disp.size || in->raw.disp.value || mem->mem.base == ZYDIS_REGISTER_RIP)
		return;
	for (paren = strchr(ops_text, '('); paren; paren = strchr(paren + 1, '(')) {
		if (paren == ops_text || paren[-1] == ' ' || paren[-1] == ':' || paren[-1] == '*') {
			if (strlen(ops_text) + 4 > size)
				return;
			memmove(paren + 3, paren, strlen(paren) + 1);
			memcpy(paren, "0x0", 3);
			return;
		}
	}
}

/* "mov    %rsp,%rbp": objdump's padding, its ',' and '{' with no space before or after */
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
		if (p[0] == ' ' && p[1] == '{')
			continue; /* "%k1{%k2}", the mask written on */
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

/*
 * Decode the instruction at li->addr into li. Zydis writes prefixes and
 * mnemonic (words that start with a letter), a space, then the operands
 * (which start with '%', '$', '(', '*', '-', '{' or a digit): the split
 * keeps "rep stos" and "bnd jmp" whole without knowing every prefix.
 */
static void decode_one(const ZydisDecoder *dec, const ZydisFormatter *fmt, Elf *elf, const char *name,
		       uint64_t start, uint64_t end, const uint8_t *code, struct lupe_insn *li)
{
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	char text[sizeof(li->text) + 1], mnem[sizeof(text)], *opstr, *last; /* + 1: the split's NUL */
	size_t len;
	ZyanU64 target;

	if (!ZYAN_SUCCESS(zy.decode(dec, code + (li->addr - start), end - li->addr, &in, ops)) ||
	    !ZYAN_SUCCESS(zy.format(fmt, &in, ops, in.operand_count_visible, text, sizeof(li->text), li->addr, NULL))) {
		/* objdump's word for a byte it cannot decode; the next byte starts over */
		li->size = 1;
		snprintf(li->text, sizeof(li->text), "(bad)");
		return;
	}
	li->size = in.length;
	for (opstr = text; *opstr; ) {
		char *sp = strchr(opstr, ' ');

		if (!((opstr[0] >= 'a' && opstr[0] <= 'z') || (opstr[0] >= 'A' && opstr[0] <= 'Z')))
			break;
		opstr = sp ? sp + 1 : opstr + strlen(opstr);
	}
	len = opstr - text;
	while (len && text[len - 1] == ' ')
		len--;
	/* the operands move out of the way before the mnemonic is cut */
	memmove(text + len + 1, opstr, strlen(opstr) + 1);
	opstr = text + len + 1;
	text[len] = '\0';
	/* objdump's names are the last word's, the mnemonic's */
	last = strrchr(text, ' ');
	last = last ? last + 1 : text;
	snprintf(mnem, sizeof(mnem), "%.*s", (int)(last - text), text);
	objdump_mnemonic(mnem + strlen(mnem), sizeof(mnem) - strlen(mnem), last, &in, ops);
	objdump_operands(opstr, sizeof(text) - (opstr - text), &in, ops);
	if ((in.meta.category == ZYDIS_CATEGORY_COND_BR || in.meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
	     in.meta.category == ZYDIS_CATEGORY_CALL) && in.operand_count_visible == 1 &&
	    ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[0].imm.is_relative &&
	    ZYAN_SUCCESS(zy.absolute(&in, &ops[0], li->addr, &target))) {
		char where[160];

		li->target = target;
		li->jump = in.meta.category != ZYDIS_CATEGORY_CALL && target >= start && target < end;
		name_target(elf, name, start, end, target, where, sizeof(where));
		format(li->text, sizeof(li->text), mnem, where);
	} else {
		const ZydisDecodedOperand *mem = memory_operand(&in, ops);

		format(li->text, sizeof(li->text), mnem, opstr);
		if (mem && mem->mem.base == ZYDIS_REGISTER_RIP &&
		    ZYAN_SUCCESS(zy.absolute(&in, mem, li->addr, &target))) {
			/*
			 * objdump's comment, "0x2e5e(%rip),%rax        # 4010 <counter>",
			 * without the name: the target is mostly data, which
			 * lupe_elf_func_at would scan the whole symbol table not to find
			 */
			size_t at = strlen(li->text);

			snprintf(li->text + at, sizeof(li->text) - at, "        # %" PRIx64, (uint64_t)target);
		}
	}
}

int lupe_disasm(const char *path, const char *name, uint64_t start, uint64_t end,
		unsigned int flags, struct lupe_listing *out)
{
	ZydisDecoder dec;
	ZydisFormatter fmt;
	uint8_t *code;
	Elf *elf;
	GElf_Ehdr eh;
	int fd, err = 0;

	memset(out, 0, sizeof(*out));
	if (end <= start)
		return -EINVAL;
	err = load_zydis();
	if (err)
		return err;
	elf = lupe_elf_open(path, &fd);
	if (!elf)
		return -errno;
	if (!gelf_getehdr(elf, &eh)) {
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
	if (!ZYAN_SUCCESS(zy.decoder_init(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
	    !ZYAN_SUCCESS(zy.formatter_init(&fmt, ZYDIS_FORMATTER_STYLE_ATT))) {
		err = -LUPE_ERR_NOT_SUPPORTED;
		goto out_code;
	}
	/* objdump's numbers: "-0x8(%rbp)", "$0xf8000000", lowercase, no zero padding */
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_DISP_PADDING, ZYDIS_PADDING_DISABLED);
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_IMM_PADDING, ZYDIS_PADDING_DISABLED);
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE, ZYDIS_PADDING_DISABLED);
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_IMM_SIGNEDNESS, ZYDIS_SIGNEDNESS_UNSIGNED);
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
	zy.set_property(&fmt, ZYDIS_FORMATTER_PROP_FORCE_RELATIVE_RIPREL, ZYAN_TRUE);
	/* at most one instruction per byte: one allocation */
	out->insns = calloc(end - start, sizeof(*out->insns));
	if (!out->insns) {
		err = -ENOMEM;
		goto out_code;
	}
	for (uint64_t addr = start; addr < end; addr += out->insns[out->nr++].size) {
		out->insns[out->nr].addr = addr;
		decode_one(&dec, &fmt, elf, name, start, end, code, &out->insns[out->nr]);
	}
	if (!(flags & LUPE_DISASM_NO_SOURCE))
		lupe_listing_add_lines(out, path); /* without DWARF the listing has no lines */
out_code:
	free(code);
out_elf:
	lupe_elf_close(elf, fd);
	if (err)
		lupe_listing_clear(out);
	return err;
}
