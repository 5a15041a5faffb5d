// SPDX-License-Identifier: GPL-2.0
/* Built without libbpf, clang or bpftool: trace uses the tracepoint fallback. */
#include "trace/internal.h"
#include "util/util.h"

struct lupe_trace *lupe_trace_bpf_new(const struct lupe_trace_opts *o)
{
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}
