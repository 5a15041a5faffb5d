/* SPDX-License-Identifier: GPL-2.0 */
/* Private helpers of the export writers. */
#ifndef LUPE_EXPORT_PROFILE_H
#define LUPE_EXPORT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <lupe/export.h>

/* Write s as the inside of a JSON string (quotes not included). */
void lupe_json_str(FILE *out, const char *s);
/* Write s with XML's special characters escaped. */
void lupe_xml_str(FILE *out, const char *s, size_t len);

/* The function's name as perf report shows it: the symbol, else the address. */
const char *lupe_prof_func_name(const struct lupe_profile *p, uint32_t func, char *buf,
				size_t size);

/* For each tid (in order of first appearance): its last thread entry. */
uint32_t *lupe_prof_tids(const struct lupe_profile *p, size_t *nr, uint32_t **thread_tid);

#endif
