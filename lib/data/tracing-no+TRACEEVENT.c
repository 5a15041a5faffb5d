// SPDX-License-Identifier: GPL-2.0
/* Built without libtraceevent: tracepoints print without their fields. */
#include <lupe/perfdata.h>
#include "data/reader.h"
#include "util/util.h"

void *lupe_tracing_data_parse(const void *data, size_t size)
{
	return err_ptr(-LUPE_ERR_NOT_SUPPORTED);
}

void lupe_tracing_data_free(void *tep)
{
}

void *lupe_tracing_event(void *tep, uint64_t id, const char **sys, const char **name)
{
	return NULL;
}

int lupe_evsel_format_trace(const struct lupe_evsel *evsel, const struct lupe_sample *sample,
			    char *buf, size_t size)
{
	return -LUPE_ERR_NOT_SUPPORTED;
}
