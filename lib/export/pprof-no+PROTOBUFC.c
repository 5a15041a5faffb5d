// SPDX-License-Identifier: GPL-2.0
/* pprof output without protobuf-c (or zlib): not built. */
#include "export/profile.h"
#include "util/util.h"

int lupe_profile_write_pprof(const struct lupe_profile *p, FILE *out)
{
	pr_err("no pprof output: this lupe was built without protobuf-c or zlib (scripts/bootstrap installs them; then rebuild)");
	return -LUPE_ERR_NOT_SUPPORTED;
}
