/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A big output buffer with the few number formats script and report need,
 * written without printf: formatting dominates the time of a large
 * `lupe script`, and these are several times faster than fprintf.
 */
#ifndef LUPE_UI_OBUF_H
#define LUPE_UI_OBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct obuf {
	FILE *fp;
	size_t len;
	int error;
	char buf[1 << 16];
};

static inline void obuf_flush(struct obuf *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->error = 1;
	o->len = 0;
}

static inline char *obuf_room(struct obuf *o, size_t n)
{
	if (o->len + n > sizeof(o->buf))
		obuf_flush(o);
	return o->buf + o->len;
}

static inline void obuf_mem(struct obuf *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) / 2) {
		obuf_flush(o);
		if (fwrite(s, 1, n, o->fp) != n)
			o->error = 1;
		return;
	}
	memcpy(obuf_room(o, n), s, n);
	o->len += n;
}

static inline void obuf_str(struct obuf *o, const char *s)
{
	obuf_mem(o, s, strlen(s));
}

static inline void obuf_ch(struct obuf *o, char c)
{
	*obuf_room(o, 1) = c;
	o->len++;
}

/* v in hex, right-aligned to width with spaces (width 0: no padding). */
static inline void obuf_hex(struct obuf *o, uint64_t v, int width)
{
	char tmp[16];
	int n = 0;
	char *p;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	p = obuf_room(o, (size_t)(width > n ? width : n));
	for (int i = n; i < width; i++)
		*p++ = ' ';
	while (n)
		*p++ = tmp[--n];
	o->len = p - o->buf;
}

/* v in decimal, right-aligned (width > 0) or left-aligned (width < 0), or zero-padded. */
static inline void obuf_dec(struct obuf *o, uint64_t v, int width, char pad)
{
	char tmp[24];
	int n = 0, w = width < 0 ? -width : width;
	char *p;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	p = obuf_room(o, (size_t)(w > n ? w : n));
	if (width > 0)
		for (int i = n; i < w; i++)
			*p++ = pad;
	for (int i = n; i; i--)
		*p++ = tmp[i - 1];
	if (width < 0)
		for (int i = n; i < w; i++)
			*p++ = ' ';
	o->len = p - o->buf;
}

static inline void obuf_sdec(struct obuf *o, int64_t v, int width)
{
	if (v < 0) {
		char tmp[32];

		snprintf(tmp, sizeof(tmp), "%*lld", width, (long long)v);
		obuf_str(o, tmp);
		return;
	}
	obuf_dec(o, (uint64_t)v, width, ' ');
}

/* The string right-aligned in width. */
static inline void obuf_pad_str(struct obuf *o, const char *s, int width)
{
	size_t n = strlen(s);

	for (int i = (int)n; i < width; i++)
		obuf_ch(o, ' ');
	obuf_mem(o, s, n);
}

#endif
