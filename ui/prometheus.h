/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus text exposition format (version 0.0.4): a family's HELP
 * and TYPE lines, then its samples, each `name{label="value",...} value`.
 * Label values and HELP text are escaped as the format says; metric names
 * are made of [a-zA-Z0-9_:] (prom_metric_name() turns anything else into _).
 */
#ifndef LUPE_UI_PROMETHEUS_H
#define LUPE_UI_PROMETHEUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct prom_label {
	const char *name;
	const char *value;
};

/* "# HELP name help" and "# TYPE name type" (counter, gauge, untyped...). */
void prom_family(FILE *f, const char *name, const char *type, const char *help);

/* One sample; labels with a NULL value are left out. */
void prom_sample_u64(FILE *f, const char *name, const struct prom_label *labels, int nr,
		     uint64_t value);
void prom_sample_double(FILE *f, const char *name, const struct prom_label *labels, int nr,
			double value);

/*
 * Write prefix followed by part into out (size bytes), with every character
 * a metric name cannot hold replaced by '_' and runs of them squeezed, and
 * suffix after it: ("node_perf_", "syscalls:sys_enter_read", "") gives
 * "node_perf_syscalls_sys_enter_read". Returns out.
 */
char *prom_metric_name(char *out, size_t size, const char *prefix, const char *part,
		       const char *suffix);

#endif
