// SPDX-License-Identifier: GPL-2.0
/*
 * KSYMBOL and BPF_EVENT records for the BPF programs already loaded, laid
 * out as perf 6.1 synthesizes them (perf_event__synthesize_one_bpf_prog):
 * each record ends in id_hdr_size zero bytes, the functions of a program
 * come before its PROG_LOAD event.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "data/format.h"
#include "record/bpf-synth.h"
#include "util/util.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)
#define NAME_MAX_LEN 128 /* perf's KSYM_NAME_LEN */

union bpf_buf {
	struct perf_event_header h;
	struct perf_record_ksymbol ksym;
	struct perf_record_bpf_event bpf;
	char bytes[sizeof(struct perf_record_ksymbol) + NAME_MAX_LEN + 512];
};

static int emit(const struct synth *s, union bpf_buf *b, size_t body)
{
	memset(b->bytes + body, 0, s->id_hdr_size);
	b->h.size = (uint16_t)(body + s->id_hdr_size);
	return s->fn(&b->h, s->arg);
}

/* The arrays of one program that the records need, filled by a second query. */
struct prog {
	struct bpf_prog_info info;
	uint64_t *addrs;
	uint32_t *lens;
	uint8_t (*tags)[BPF_TAG_SIZE];
	char *finfo; /* func_info_rec_size bytes a function */
};

static void prog_free(struct prog *p)
{
	free(p->addrs);
	free(p->lens);
	free(p->tags);
	free(p->finfo);
}

/* 0 with p filled; non-zero: skip this program (gone, no JITed code). */
static int prog_get(int fd, struct prog *p)
{
	struct bpf_prog_info *i = &p->info;
	uint32_t len = sizeof(*i), n, nf, rec;

	memset(p, 0, sizeof(*p));
	if (bpf_obj_get_info_by_fd(fd, i, &len))
		return -errno;
	n = i->nr_jited_ksyms;
	nf = i->nr_func_info;
	rec = i->func_info_rec_size;
	if (!n || i->nr_prog_tags != n)
		return -ENOENT;
	p->addrs = calloc(n, sizeof(*p->addrs));
	p->lens = calloc(n, sizeof(*p->lens));
	p->tags = calloc(n, sizeof(*p->tags));
	p->finfo = nf == n && rec ? calloc(nf, rec) : NULL;
	if (!p->addrs || !p->lens || !p->tags || (nf == n && rec && !p->finfo))
		return -ENOMEM;
	memset(i, 0, sizeof(*i));
	i->nr_jited_ksyms = n;
	i->jited_ksyms = (uint64_t)(uintptr_t)(p->addrs);
	i->nr_jited_func_lens = n;
	i->jited_func_lens = (uint64_t)(uintptr_t)(p->lens);
	i->nr_prog_tags = n;
	i->prog_tags = (uint64_t)(uintptr_t)(p->tags);
	if (p->finfo) {
		i->nr_func_info = nf;
		i->func_info_rec_size = rec;
		i->func_info = (uint64_t)(uintptr_t)(p->finfo);
	}
	len = sizeof(*i);
	if (bpf_obj_get_info_by_fd(fd, i, &len))
		return -errno;
	/* the program may have changed between the two queries */
	return i->nr_jited_ksyms == n && i->nr_prog_tags == n ? 0 : -EAGAIN;
}

/* perf's name: bpf_prog_<tag>, then _<BTF function name>, or the program's name when it is one function, or _F. */
static void prog_name(char *buf, size_t size, const struct prog *p, const struct btf *btf, uint32_t k)
{
	const char *name = NULL;
	size_t n = (size_t)snprintf(buf, size, "bpf_prog_");

	for (int j = 0; j < BPF_TAG_SIZE && n + 2 < size; j++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", p->tags[k][j]);
	if (btf && p->finfo) {
		const struct bpf_func_info *f = (const void *)(p->finfo + k * p->info.func_info_rec_size);
		const struct btf_type *t = btf__type_by_id(btf, f->type_id);

		name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	} else if (p->info.nr_jited_ksyms == 1) {
		name = p->info.name[0] ? p->info.name : NULL;
	} else {
		name = "F";
	}
	if (name && n < size)
		snprintf(buf + n, size - n, "_%s", name);
}

static int synth_prog(const struct synth *s, const struct prog *p)
{
	struct btf *btf = p->info.btf_id ? btf__load_from_kernel_by_id(p->info.btf_id) : NULL;
	union bpf_buf b;
	int err = 0;

	if (libbpf_get_error(btf))
		btf = NULL;
	for (uint32_t k = 0; k < p->info.nr_jited_ksyms && !err; k++) {
		char name[NAME_MAX_LEN];
		size_t n;

		prog_name(name, sizeof(name), p, btf, k);
		n = strlen(name);
		memset(&b.ksym, 0, sizeof(b.ksym));
		b.ksym.header.type = PERF_RECORD_KSYMBOL;
		b.ksym.addr = p->addrs[k];
		b.ksym.len = p->lens[k];
		b.ksym.ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
		memset(b.ksym.name, 0, ALIGN8(n + 1));
		memcpy(b.ksym.name, name, n);
		err = emit(s, &b, sizeof(b.ksym) + ALIGN8(n + 1));
	}
	btf__free(btf);
	if (err)
		return err;
	memset(&b.bpf, 0, sizeof(b.bpf));
	b.bpf.header.type = PERF_RECORD_BPF_EVENT;
	b.bpf.type = PERF_BPF_EVENT_PROG_LOAD;
	b.bpf.id = p->info.id;
	memcpy(b.bpf.tag, p->info.tag, BPF_TAG_SIZE);
	return emit(s, &b, sizeof(b.bpf));
}

int lupe_synth_bpf(const struct synth *s)
{
	uint32_t id = 0;
	int err = 0;

	while (!err && !bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);
		struct prog p;

		if (fd < 0)
			continue; /* unloaded since it was listed */
		if (!prog_get(fd, &p))
			err = synth_prog(s, &p);
		prog_free(&p);
		close(fd);
	}
	return err; /* listing stops at ENOENT (the last) or EPERM (not root): perf writes nothing then too */
}
