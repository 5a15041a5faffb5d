// SPDX-License-Identifier: GPL-2.0
/* The mmap ring buffer reader; see ring.h for the ordering rules. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "sampling/ring.h"
#include "util/util.h"

int lupe_ring_mmap(struct ring *r, int fd, int cpu, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	r->base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	/* A record is at most 64 KiB (its size is a u16). */
	r->bounce = malloc(UINT16_MAX + 1);
	if (!r->bounce) {
		munmap(r->base, (pages + 1) * page);
		r->base = NULL;
		return -ENOMEM;
	}
	r->data_size = pages * page;
	r->fd = fd;
	r->cpu = cpu;
	return 0;
}

int lupe_ring_attach(struct ring *r, int fd, int cpu, size_t pages)
{
	if (!r->base)
		return lupe_ring_mmap(r, fd, cpu, pages);
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) < 0 ? -errno : 0;
}

void lupe_ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->data_size + (size_t)sysconf(_SC_PAGESIZE));
	free(r->bounce);
	r->base = NULL;
	r->bounce = NULL;
}

static struct perf_event_mmap_page *ctl(const struct ring *r)
{
	return r->base;
}

int lupe_ring_pending(const struct ring *r)
{
	if (!r->base)
		return 0;
	return __atomic_load_n(&ctl(r)->data_head, __ATOMIC_ACQUIRE) != ctl(r)->data_tail;
}

long lupe_ring_read(struct ring *r, ring_fn fn, void *arg)
{
	struct perf_event_mmap_page *pc = ctl(r);
	const char *data;
	uint64_t mask = r->data_size - 1, head, tail, start;
	int stop = 0;

	if (!r->base)
		return 0;
	data = (const char *)r->base + pc->data_offset;
	/* data_offset is 0 on kernels before 4.1: data then starts one page in. */
	if (!pc->data_offset)
		data = (const char *)r->base + sysconf(_SC_PAGESIZE);
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	start = tail = pc->data_tail;
	while (tail < head && !stop) {
		const struct perf_event_header *h = (const void *)(data + (tail & mask));
		size_t off = tail & mask, size;

		/* The header itself may straddle the edge: it is 8 bytes and
		 * records are 8-byte aligned, so it never does; the body may. */
		size = h->size;
		if (size < sizeof(*h) || tail + size > head)
			break; /* a torn record cannot happen; stop rather than loop */
		if (off + size > r->data_size) {
			size_t first = r->data_size - off;

			memcpy(r->bounce, data + off, first);
			memcpy(r->bounce + first, data, size - first);
			h = (const void *)r->bounce;
		}
		stop = fn(h, arg);
		tail += size;
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return stop ? stop : (long)(tail - start);
}
