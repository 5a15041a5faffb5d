/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an output file the way perf opens perf.data, and the one way
 * every lupe writer opens its output (record, stat record, inject,
 * convert, flamegraph, archive, stat -o, trace -o).
 *
 * - "-" is standard output (a dup of fd 1), written in place.
 * - A path that is not a regular file (a character or block device such
 *   as /dev/null, a FIFO, a socket) is opened and written in place: never
 *   truncated, renamed over or unlinked.
 * - A symbolic link at the path is not followed: the new file replaces
 *   the link, and the link's target is left as it was, so a link planted
 *   in a shared directory cannot make a privileged writer overwrite its
 *   target. The one exception is a link owned by root or the caller to
 *   something written in place (/dev/stdout, a FIFO).
 * - Otherwise the output is a new file beside the path (PATH.lupe-XXXXXX,
 *   created with O_EXCL) that lupe_output_commit() renames to PATH; a
 *   failed write never leaves half a file under PATH, and the input may be
 *   the output (inject -i F -o F).
 *
 * Not thread-safe per object; distinct objects are independent.
 */
#ifndef LUPE_OUTPUT_H
#define LUPE_OUTPUT_H

#include <lupe/core.h>

enum lupe_output_flags {
	/* At commit, an existing non-empty PATH (or a link at PATH) becomes
	 * PATH.old, as perf keeps the previous perf.data. */
	LUPE_OUTPUT_BACKUP = 1 << 0,
	/* Mode 0600, as perf.data; else 0666 less the umask, as fopen(). */
	LUPE_OUTPUT_PRIVATE = 1 << 1,
	/* Append to PATH in place (stat --append); a link at PATH is refused. */
	LUPE_OUTPUT_APPEND = 1 << 2,
	/* A regular PATH is only ever replaced whole (the input may be the
	 * output): without it, a PATH in a directory lupe may not create
	 * files in is truncated and written in place. */
	LUPE_OUTPUT_REPLACE = 1 << 3,
};

struct lupe_output {
	int fd;       /* write here; the caller owns it and closes it */
	int in_place; /* stdout, a device, a FIFO, an append: never renamed or unlinked */
	unsigned int flags;
	char *path;   /* as given */
	char *tmp;    /* the new file until lupe_output_commit(), or NULL */
	int created;  /* PATH is a regular file this object made (after commit) */
};

/*
 * Open path for writing as above, into *out. Returns 0 or a negative
 * errno: -EISDIR for a directory, -ELOOP for a link with
 * LUPE_OUTPUT_APPEND, else what open(2) said. On failure *out holds
 * nothing to release.
 */
int lupe_output_open(struct lupe_output *out, const char *path, unsigned int flags);

/*
 * The output is whole, or the writer has started: the new file takes
 * PATH's name (PATH.old first with LUPE_OUTPUT_BACKUP). Does nothing for
 * an output written in place or already committed. Returns 0 or a
 * negative errno (the new file is then left under its temporary name, and
 * lupe_output_abort() removes it).
 */
int lupe_output_commit(struct lupe_output *out);

/*
 * The output failed: remove the file this object created (the temporary
 * one, or PATH after a commit). A path written in place is left alone.
 * The fd stays the caller's. May be called more than once.
 */
void lupe_output_abort(struct lupe_output *out);

/* Free the names; a temporary file never committed is removed. NULL is ok. */
void lupe_output_release(struct lupe_output *out);

#endif
