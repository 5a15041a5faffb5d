/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a perf.data (lupe record's or Linux perf's, file or pipe) one
 * typed record at a time (lupe/rec.h), in time order, each sample with its
 * thread, DSO and symbol resolved: the session report uses, behind a small
 * door.
 *
 *   r = lupe_reader_open("perf.data");
 *   lupe_reader_read(r, on_record, arg);
 *   lupe_reader_delete(r);
 *
 * Thread-safety: one reader is used by one thread; distinct readers are
 * independent.
 */
#ifndef LUPE_READER_H
#define LUPE_READER_H

#include <lupe/core.h>
#include <lupe/rec.h>

struct lupe_reader;

/*
 * Open path ("-": stdin, pipe mode). A file not owned by the caller is
 * refused with -EPERM, as perf does. NULL with errno set (a LUPE_ERR_* value
 * for a file that is not perf.data) and lupe_last_error() filled.
 */
LUPE_API struct lupe_reader *lupe_reader_open(const char *path);

/*
 * Hand every record to fn, to the end of the file or until fn returns
 * non-zero (that value is returned). Returns 0, or a negative error after
 * the records before a broken part (lupe_last_error() says where).
 */
LUPE_API int lupe_reader_read(struct lupe_reader *r, lupe_rec_fn fn, void *arg);

/* Close it; NULL is ok. */
LUPE_API void lupe_reader_delete(struct lupe_reader *r);

#endif
