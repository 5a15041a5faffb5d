/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf's messages, as lupe debug messages (libbpf_set_print(lupe_libbpf_log)). */
#ifndef LUPE_BPF_LIBBPF_LOG_H
#define LUPE_BPF_LIBBPF_LOG_H

#include <stdarg.h>
#include <bpf/libbpf.h>

int lupe_libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap);

#endif
