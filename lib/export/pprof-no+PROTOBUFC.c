// SPDX-License-Identifier: GPL-2.0
/* pprof output without protobuf-c (or zlib): not built. */
#include "export/profile.h"
#include "util/util.h"

int lupe_profile_write_pprof(const struct lupe_profile *p, FILE *out)
{
	pr_err("lupe was built without protobuf-c and zlib: no pprof output (scripts/bootstrap installs them)");
	return -LUPE_ERR_NOT_SUPPORTED;
}
