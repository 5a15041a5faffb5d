// SPDX-License-Identifier: GPL-2.0
/* The output file of convert and flamegraph. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <lupe/core.h>
#include "builtin.h"
#include "export-out.h"

int export_open(struct export_out *out, const char *path)
{
	int err = lupe_output_open(&out->o, path, 0);

	out->path = path;
	out->f = NULL;
	if (err) {
		error("cannot write '%s': %s (check the path and its directory)", path, strerror(-err));
		return -1;
	}
	out->f = fdopen(out->o.fd, "w");
	if (!out->f) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(out->o.fd);
		lupe_output_abort(&out->o);
		lupe_output_release(&out->o);
		return -1;
	}
	return 0;
}

int export_close(struct export_out *out, int err)
{
	int ret = 0;

	if (fflush(out->f) && !err)
		err = -errno;
	if (fclose(out->f) && !err)
		err = -errno;
	if (!err)
		err = lupe_output_commit(&out->o);
	if (err == -LUPE_ERR_NOT_SUPPORTED)
		ret = 1; /* the library said why */
	else if (err) {
		error("cannot write '%s': %s", strcmp(out->path, "-") ? out->path : "stdout",
		      lupe_strerror(err));
		ret = 1;
	}
	if (err)
		lupe_output_abort(&out->o); /* a device, a FIFO, stdout: left alone */
	lupe_output_release(&out->o);
	return ret;
}

FILE *output_fopen(const char *path, int append)
{
	struct lupe_output o;
	int err = lupe_output_open(&o, path, append ? LUPE_OUTPUT_APPEND : 0);
	FILE *f = NULL;

	/* text written as it comes (stat -o, trace -o): the file takes its name at once */
	if (!err && (err = lupe_output_commit(&o))) {
		close(o.fd);
		lupe_output_abort(&o);
	}
	if (!err && !(f = fdopen(o.fd, append ? "a" : "w"))) {
		err = -errno;
		close(o.fd);
	}
	lupe_output_release(&o);
	if (err)
		error("cannot write '%s': %s", path,
		      err == -ELOOP ? "a symbolic link (lupe does not append through one)" :
				      strerror(-err));
	return f;
}
