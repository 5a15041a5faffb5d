// SPDX-License-Identifier: GPL-2.0
/* The output file of convert and flamegraph. */
#include <errno.h>
#include <string.h>
#include <lupe/core.h>
#include "builtin.h"
#include "export-out.h"

FILE *export_open(const char *path)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!out)
		error("cannot write '%s': %s (check the path and its directory)", path, strerror(errno));
	return out;
}

int export_close(FILE *out, const char *path, int err)
{
	int ret = 0;

	if (fflush(out) && !err)
		err = -errno;
	if (out != stdout && fclose(out) && !err)
		err = -errno;
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		ret = 1; /* the library said why */
	else if (err) {
		error("cannot write '%s': %s", strcmp(path, "-") ? path : "stdout", lupe_strerror(err));
		ret = 1;
	}
	if (err && out != stdout)
		remove(path);
	return ret;
}
