// SPDX-License-Identifier: GPL-2.0
/*
 * The one number parser (lupe/number.h). strtol and friends accept a
 * sign, blanks and a tail, saturate silently at their type's limits and
 * wrap "-1" for unsigned; the callers then cast to int or pid_t, which
 * turned `-p 4294997141` into pid 29845. Here a number is the whole
 * string, and out of range is an error the caller can name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lupe/number.h>

static int well_formed(const char *s, int allow_minus)
{
	if (*s == '-' && allow_minus)
		s++;
	else if (*s == '+')
		s++;
	return isdigit((unsigned char)*s);
}

/*
 * s as one whole number: signed into *i (strtoll), else into *u
 * (strtoull). 0, -EINVAL (not a number, or a tail) or -ERANGE (past the
 * type's limits); the callers check their own bounds.
 */
static int parse_whole(const char *s, int base, int is_signed, unsigned long long *u, long long *i)
{
	char *end;

	if (!s || !well_formed(s, is_signed))
		return -EINVAL;
	errno = 0;
	if (is_signed)
		*i = strtoll(s, &end, base);
	else
		*u = strtoull(s, &end, base);
	if (*end)
		return -EINVAL;
	return errno == ERANGE ? -ERANGE : 0;
}

int lupe_parse_u64(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	int err = parse_whole(s, base, 0, &v, NULL);

	if (!err && (v < min || v > max))
		err = -ERANGE;
	if (!err)
		*out = v;
	return err;
}

int lupe_parse_i64(const char *s, int base, int64_t min, int64_t max, int64_t *out)
{
	long long v;
	int err = parse_whole(s, base, 1, NULL, &v);

	if (!err && (v < min || v > max))
		err = -ERANGE;
	if (!err)
		*out = v;
	return err;
}

int lupe_parse_i64n(const char *s, size_t len, int base, int64_t min, int64_t max, int64_t *out)
{
	char buf[72];

	/* 72 digits are past any 64-bit number */
	if (len >= sizeof(buf))
		return strspn(s, "0123456789") >= len ? -ERANGE : -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return lupe_parse_i64(buf, base, min, max, out);
}
