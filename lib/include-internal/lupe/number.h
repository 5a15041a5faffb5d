/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers from the command line and from text files, parsed whole and
 * range-checked: the one parser every numeric option uses, so that
 * `-p 4294997141` is refused rather than truncated to pid 29845 and
 * `-p 18446744073709551615` rather than wrapped to -1.
 */
#ifndef LUPE_NUMBER_H
#define LUPE_NUMBER_H

#include <stddef.h>
#include <stdint.h>
#include <lupe/core.h>

/*
 * The whole of s (no sign for the unsigned one, no blanks, nothing after)
 * as an integer in base (0: 0x.. hex, 0.. octal, else decimal), in
 * [min, max]. Returns 0 with *out set, -EINVAL when s is not such a
 * number, -ERANGE when it is one outside [min, max].
 */
int lupe_parse_u64(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out);
int lupe_parse_i64(const char *s, int base, int64_t min, int64_t max, int64_t *out);

/* The same on the first len bytes of s (a field of a list). */
int lupe_parse_i64n(const char *s, size_t len, int base, int64_t min, int64_t max,
		    int64_t *out);

/* The largest process id: pid_t's (the kernel's pid_max is at most 4194304). */
#define LUPE_PID_MAX 2147483647

#endif
