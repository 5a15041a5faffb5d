// SPDX-License-Identifier: GPL-2.0
/*
 * Placing a probe in a binary with libelf and libdw: a function's address
 * from the symbol table, a line's from the DWARF line table, the file offset
 * from the PT_LOAD headers (uprobes take file offsets), and variables turned
 * into the tracer's fetch arguments from their DWARF locations at that
 * address. A location the tracer cannot fetch (a computed value, an entry
 * value) is refused by name: the variable is "optimized out" there, as perf
 * says.
 *
 * The DWARF register names come from lib/arch (x86-64's only so far).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lupe/probe.h>
#include "probe/probe-internal.h"
#include "util/elf-func.h"
#include "util/util.h"
#include "arch/arch.h"

/* DWARF register numbers, as the tracer spells them */
static const char *const dwarf_regs[] = { LUPE_ARCH_DWARF_REG_NAMES };

static const char *reg_name(unsigned int n)
{
	return n < sizeof(dwarf_regs) / sizeof(*dwarf_regs) ? dwarf_regs[n] : NULL;
}

struct bin {
	int fd;
	Elf *elf;
	Dwarf *dw; /* NULL without debug info */
};

static int bin_open(struct bin *b, const char *path)
{
	memset(b, 0, sizeof(*b));
	b->elf = lupe_elf_open(path, &b->fd);
	if (!b->elf)
		return -errno;
	b->dw = dwarf_begin_elf(b->elf, DWARF_C_READ, NULL);
	return 0;
}

static void bin_close(struct bin *b)
{
	if (b->dw)
		dwarf_end(b->dw);
	lupe_elf_close(b->elf, b->fd);
}

/* Through the PT_LOAD headers: an address to its file offset, or back (to_addr). */
static int translate(Elf *elf, uint64_t in, uint64_t *out, int to_addr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -LUPE_ERR_FORMAT;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (!to_addr && in >= ph.p_vaddr && in < ph.p_vaddr + ph.p_filesz) {
			*out = in - ph.p_vaddr + ph.p_offset;
			return 0;
		}
		if (to_addr && in >= ph.p_offset && in < ph.p_offset + ph.p_filesz) {
			*out = in - ph.p_offset + ph.p_vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/* asprintf() that gives NULL on failure (asprintf leaves its pointer undefined) */
static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vasprintf(&s, f, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* The DWARF scopes at addr, innermost first; *n of them. Free the array. */
static Dwarf_Die *scopes_at(Dwarf *dw, Dwarf_Addr addr, int *n)
{
	Dwarf_Die cu, *scopes = NULL;

	*n = 0;
	if (!dw || !dwarf_addrdie(dw, addr, &cu))
		return NULL;
	*n = dwarf_getscopes(&cu, addr, &scopes);
	if (*n <= 0) {
		*n = 0;
		return NULL;
	}
	return scopes;
}

static Dwarf_Die *subprogram(Dwarf_Die *scopes, int n)
{
	for (int i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			return &scopes[i];
	return NULL;
}

/* The type of die with typedefs, const and volatile peeled; 0 when it has none (void). */
static int peel_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;
	Dwarf_Die cur = *die;

	for (;;) {
		if (!dwarf_attr_integrate(&cur, DW_AT_type, &a) || !dwarf_formref_die(&a, type))
			return 0;
		switch (dwarf_tag(type)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
			cur = *type;
			continue;
		default:
			return 1;
		}
	}
}

/* How perf writes a variable's type: "long unsigned int", "char*", "struct foo". */
static void type_name(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	const char *n;
	char inner[200];

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t)) {
		snprintf(buf, size, "void");
		return;
	}
	n = dwarf_diename(&t);
	switch (dwarf_tag(&t)) {
	case DW_TAG_pointer_type:
		type_name(&t, inner, sizeof(inner));
		snprintf(buf, size, "%s*", inner);
		return;
	case DW_TAG_const_type: /* perf leaves the qualifiers out */
	case DW_TAG_volatile_type:
		type_name(&t, buf, size);
		return;
	case DW_TAG_array_type:
		type_name(&t, inner, sizeof(inner));
		snprintf(buf, size, "%s[]", inner);
		return;
	case DW_TAG_structure_type:
		snprintf(buf, size, "struct %s", n ? n : "");
		return;
	case DW_TAG_union_type:
		snprintf(buf, size, "union %s", n ? n : "");
		return;
	case DW_TAG_enumeration_type:
		snprintf(buf, size, "enum %s", n ? n : "");
		return;
	default:
		snprintf(buf, size, "%s", n ? n : "?");
	}
}

/* perf's default tracer type for a variable: sNN signed, xNN unsigned and pointers. */
static char *default_type(Dwarf_Die *var)
{
	Dwarf_Die t;
	Dwarf_Attribute a;
	Dwarf_Word enc = DW_ATE_unsigned;
	int bytes, is_signed;
	char *s;

	if (!peel_type(var, &t))
		return NULL;
	bytes = dwarf_bytesize(&t);
	if (dwarf_tag(&t) == DW_TAG_pointer_type)
		bytes = 8;
	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		return NULL;
	if (dwarf_tag(&t) == DW_TAG_base_type && dwarf_attr(&t, DW_AT_encoding, &a))
		dwarf_formudata(&a, &enc);
	is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	if (asprintf(&s, "%c%d", is_signed ? 's' : 'x', bytes * 8) < 0)
		return NULL;
	return s;
}

/* The CFA at addr as "REG" and an offset, from .eh_frame or .debug_frame. */
static int cfa_at(struct bin *b, Dwarf_Addr addr, const char **reg, Dwarf_Sword *off)
{
	Dwarf_CFI *cfis[2] = { dwarf_getcfi_elf(b->elf), b->dw ? dwarf_getcfi(b->dw) : NULL };

	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *frame = NULL;
		Dwarf_Op *ops;
		size_t nops;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], addr, &frame))
			continue;
		/* libdw gives a CFA rule "reg + offset" as DW_OP_bregx reg, offset */
		if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1 && ops[0].atom == DW_OP_bregx &&
		    (*reg = reg_name(ops[0].number))) {
			*off = (Dwarf_Sword)ops[0].number2;
			free(frame);
			return 0;
		}
		if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31 &&
		    (*reg = reg_name(ops[0].atom - DW_OP_breg0))) {
			*off = (Dwarf_Sword)ops[0].number;
			free(frame);
			return 0;
		}
		free(frame);
	}
	return -ENOENT;
}

/*
 * A variable's location at addr as a fetch argument: "%di" for a register,
 * "-8(%bp)" for memory. *in_reg says which (a string needs memory to read).
 */
static int location(struct bin *b, Dwarf_Die *func, Dwarf_Die *var, Dwarf_Addr addr,
		    char *out, size_t size, int *in_reg)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	const char *reg;

	if (!dwarf_attr_integrate(var, DW_AT_location, &a) ||
	    dwarf_getlocation_addr(&a, addr, &ops, &nops, 1) <= 0 || nops != 1)
		return -ENOENT;
	*in_reg = 0;
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31 &&
	    (reg = reg_name(ops[0].atom - DW_OP_reg0))) {
		*in_reg = 1;
		snprintf(out, size, "%s", reg);
		return 0;
	}
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31 &&
	    (reg = reg_name(ops[0].atom - DW_OP_breg0))) {
		snprintf(out, size, "%+" PRId64 "(%s)", (int64_t)ops[0].number, reg);
		return 0;
	}
	if (ops[0].atom == DW_OP_fbreg && func) {
		Dwarf_Attribute fa;
		Dwarf_Op *fops;
		size_t nfops;
		Dwarf_Sword cfa_off;

		if (!dwarf_attr_integrate(func, DW_AT_frame_base, &fa) ||
		    dwarf_getlocation_addr(&fa, addr, &fops, &nfops, 1) <= 0 || nfops != 1)
			return -ENOENT;
		if (fops[0].atom == DW_OP_call_frame_cfa) {
			if (cfa_at(b, addr, &reg, &cfa_off))
				return -ENOENT;
			snprintf(out, size, "%+" PRId64 "(%s)", (int64_t)(cfa_off + (int64_t)ops[0].number), reg);
			return 0;
		}
		if (fops[0].atom >= DW_OP_breg0 && fops[0].atom <= DW_OP_breg31 &&
		    (reg = reg_name(fops[0].atom - DW_OP_breg0))) {
			snprintf(out, size, "%+" PRId64 "(%s)",
				 (int64_t)fops[0].number + (int64_t)ops[0].number, reg);
			return 0;
		}
	}
	return -ENOENT;
}

static int place_arg(struct lupe_probe *p, struct bin *b, Dwarf_Die *scopes, int n,
		     struct lupe_probe_arg *arg)
{
	Dwarf_Die var, *func = subprogram(scopes, n);
	char loc[128];
	int in_reg;

	if (!scopes || dwarf_getscopevar(scopes, n, arg->var, 0, NULL, 0, 0, &var) < 0)
		return lupe_probe_fail(p, -ENOENT, "no variable '%s' at %s (see the variables there with -V)",
			    arg->var, p->where);
	if (location(b, func, &var, p->addr, loc, sizeof(loc), &in_reg))
		return lupe_probe_fail(p, -ENOENT, "variable '%s' is optimized out at %s, or lives where the "
			    "tracer cannot fetch it", arg->var, p->where);
	if (arg->type && (!strcmp(arg->type, "string") || !strcmp(arg->type, "ustring"))) {
		/* a char *: the string is where the variable points */
		if (asprintf(&arg->fetch, "+0(%s)", loc) < 0)
			arg->fetch = NULL;
	} else {
		arg->fetch = strdup(loc);
		if (!arg->type)
			arg->type = default_type(&var);
	}
	return arg->fetch ? 0 : -ENOMEM;
}

int lupe_probe_place(struct lupe_probe *p)
{
	struct bin b;
	GElf_Addr start = 0;
	GElf_Xword size = 0;
	Dwarf_Die *scopes;
	int n, err;

	if (!p->target) { /* the kernel resolves FUNC+OFF itself */
		if (!p->func)
			return lupe_probe_fail_kernel_dwarf(p, -LUPE_ERR_NOT_SUPPORTED, "line", NULL);
		for (int i = 0; i < p->nr_args; i++)
			if (p->args[i].var)
				return lupe_probe_fail_kernel_dwarf(p, -LUPE_ERR_NOT_SUPPORTED, "variable", p->args[i].var);
		if (p->off)
			p->where = fmt("%s+%" PRIu64, p->func, p->off);
		else
			p->where = strdup(p->func);
		return p->where ? 0 : -ENOMEM;
	}
	err = bin_open(&b, p->target);
	if (err)
		return lupe_probe_fail(p, err, "cannot read '%s': %s", p->target,
			    err == -LUPE_ERR_FORMAT ? "not an ELF file" : strerror(-err));
	if (p->func) {
		err = lupe_elf_find_func(b.elf, p->func, &start, &size);
		if (err) {
			lupe_probe_fail(p, err, "no function '%s' in '%s'", p->func, p->target);
			goto out;
		}
		if (p->off && size && p->off >= size) {
			err = lupe_probe_fail(p, -EINVAL, "offset %" PRIu64 " is past the end of '%s' (%" PRIu64 " bytes)",
				   p->off, p->func, (uint64_t)size);
			goto out;
		}
		p->addr = start + p->off;
		if (p->off)
			p->where = fmt("%s+%" PRIu64, p->func, p->off);
		else
			p->where = fmt("%s%s", p->func, p->retprobe ? "%return" : "");
	} else {
		Dwarf_Line **lines = NULL;
		size_t nlines = 0;
		Dwarf_Addr best = 0;
		GElf_Addr fstart;
		const char *fn;

		if (!b.dw || dwarf_getsrc_file(b.dw, p->src, p->line, 0, &lines, &nlines) || !nlines) {
			err = lupe_probe_fail(p, -ENOENT, "no code for '%s:%d' in '%s'%s", p->src, p->line, p->target,
				   b.dw ? "" : " (it has no debug info: build it with -g)");
			free(lines);
			goto out;
		}
		for (size_t i = 0; i < nlines; i++) {
			Dwarf_Addr a;
			int lineno = 0;

			if (!dwarf_lineaddr(lines[i], &a) && !dwarf_lineno(lines[i], &lineno) &&
			    lineno == p->line && (!best || a < best))
				best = a;
		}
		free(lines);
		if (!best) {
			err = lupe_probe_fail(p, -ENOENT, "line %d of '%s' has no code of its own (try the next line)",
				   p->line, p->src);
			goto out;
		}
		p->addr = best;
		fn = lupe_elf_func_at(b.elf, best, &fstart);
		if (!p->event && fn)
			p->event = strdup(fn);
		if (!p->event) {
			err = lupe_probe_fail(p, -ENOENT, "'%s:%d' is in no function", p->src, p->line);
			goto out;
		}
		p->where = fmt("@%s:%d", p->src, p->line);
	}
	if (!p->where) {
		err = -ENOMEM;
		goto out;
	}
	{
		GElf_Addr fstart;
		const char *fn = lupe_elf_func_at(b.elf, p->addr, &fstart);

		if (fn && asprintf(&p->at, "%s+%" PRIu64, fn, (uint64_t)(p->addr - fstart)) < 0)
			p->at = NULL;
	}
	if (translate(b.elf, p->addr, &p->file_off, 0)) {
		err = lupe_probe_fail(p, -ENOENT, "address 0x%" PRIx64 " of '%s' is in no executable segment",
			   p->addr, p->target);
		goto out;
	}
	scopes = scopes_at(b.dw, p->addr, &n);
	for (int i = 0; !err && i < p->nr_args; i++) {
		if (!p->args[i].var)
			continue;
		if (!b.dw)
			err = lupe_probe_fail(p, -ENOENT, "'%s' has no debug info for variable '%s' (build it with -g, "
				   "or fetch %%reg)", p->target, p->args[i].var);
		else
			err = place_arg(p, &b, scopes, n, &p->args[i]);
	}
	free(scopes);
out:
	bin_close(&b);
	return err;
}

static int add_var(char ***v, int *n, Dwarf_Die *var)
{
	char type[256], *line, **nv;

	type_name(var, type, sizeof(type));
	if (asprintf(&line, "%s\t%s", type, dwarf_diename(var)) < 0)
		return -ENOMEM;
	nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv) {
		free(line);
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = line;
	nv[*n] = NULL;
	return 0;
}

int lupe_probe_vars(struct lupe_probe *p, char ***out)
{
	struct bin b;
	Dwarf_Die *scopes;
	char **v = NULL;
	int n, nr = 0, err;

	*out = NULL;
	if (!p->target)
		return lupe_probe_fail(p, -LUPE_ERR_NOT_SUPPORTED, "-V needs a binary with debug info (-x)");
	err = bin_open(&b, p->target);
	if (err)
		return lupe_probe_fail(p, err, "cannot read '%s'", p->target);
	scopes = scopes_at(b.dw, p->addr, &n);
	if (!scopes) {
		bin_close(&b);
		return lupe_probe_fail(p, -ENOENT, "no debug info for %s in '%s' (build it with -g)", p->where, p->target);
	}
	/* outermost scope first (the function's parameters), as perf lists them */
	for (int s = n - 1; s >= 0 && !err; s--) {
		Dwarf_Die child;
		int tag = dwarf_tag(&scopes[s]);

		if (tag == DW_TAG_compile_unit)
			continue;
		if (dwarf_child(&scopes[s], &child))
			continue;
		do {
			Dwarf_Attribute a;
			Dwarf_Op *ops;
			size_t nops;
			int t = dwarf_tag(&child);

			if ((t != DW_TAG_variable && t != DW_TAG_formal_parameter) || !dwarf_diename(&child))
				continue;
			if (!dwarf_attr_integrate(&child, DW_AT_location, &a) ||
			    dwarf_getlocation_addr(&a, p->addr, &ops, &nops, 1) <= 0)
				continue;
			err = add_var(&v, &nr, &child);
		} while (!err && !dwarf_siblingof(&child, &child));
	}
	free(scopes);
	bin_close(&b);
	if (err) {
		lupe_probe_vars_delete(v);
		return err;
	}
	*out = v;
	return nr;
}

void lupe_probe_vars_delete(char **vars)
{
	for (size_t i = 0; vars && vars[i]; i++)
		free(vars[i]);
	free(vars);
}

void lupe_probe_event_describe(struct lupe_probe_event *ev)
{
	struct bin b;
	uint64_t addr;
	GElf_Addr start;
	const char *fn;

	if (ev->kernel || !ev->target || bin_open(&b, ev->target))
		return;
	if (!translate(b.elf, ev->off, &addr, 1) && (fn = lupe_elf_func_at(b.elf, addr, &start))) {
		if (addr == start)
			ev->place = strdup(fn);
		else
			ev->place = fmt("%s+%" PRIu64, fn, (uint64_t)(addr - start));
	}
	bin_close(&b);
}
