/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files of processes in other namespaces (containers), perf's nsinfo idea:
 * a path a process mapped names a file of its mount namespace, which this
 * process reaches through /proc/PID/root while the process lives; after
 * it exits, only the build-id cache has the file. A process in its own PID
 * namespace writes /tmp/perf-NSPID.map under the pid it sees itself.
 * The one place that knows this: the DSO loader, record's build-id cache
 * and the perf-PID.map reader all ask here.
 */
#ifndef LUPE_SYMBOLS_NSINFO_H
#define LUPE_SYMBOLS_NSINFO_H

#include <stddef.h>
#include <stdint.h>

/*
 * 1 when process pid lives in a mount namespace other than ours, 0 when
 * it shares ours, -errno when it cannot be told (gone: -ENOENT).
 */
int lupe_ns_other_mnt(int pid);

/*
 * The path to open the file name of process pid by: "/proc/PID/root" name
 * while pid lives in another mount namespace, else name itself. Written to
 * out (size bytes); returns out, or name when it does not fit or pid <= 0.
 */
const char *lupe_ns_path(int pid, const char *name, char *out, size_t size);

/*
 * The pid process pid has in its innermost PID namespace (the last of
 * NSpid in /proc/PID/status), or pid itself when there is none or the
 * process is gone.
 */
int lupe_ns_pid(int pid);

/*
 * The build-id cache's copy of a file with build-id id
 * (DIR/.build-id/xx/yyyy.../elf), written to out. Returns 0 when it
 * exists, else -ENOENT (or -ENAMETOOLONG).
 */
int lupe_ns_cached(const uint8_t *id, int len, char *out, size_t size);

struct lupe_dso;

/*
 * The file to read a DSO's symbols from: through /proc/PID/root while the
 * process that mapped it lives in another mount namespace; else its own
 * path when that exists; else the build-id cache's copy (the process is
 * gone and its file with it); else its path. Returns out or the DSO's name.
 */
const char *lupe_ns_dso_path(const struct lupe_dso *dso, char *out, size_t size);

/*
 * The perf-PID.map of a DSO of JIT code: a process in its own PID and
 * mount namespaces wrote /tmp/perf-NSPID.map in its /tmp, read through
 * /proc/PID/root while it lives (as perf finds it; after it exits neither
 * finds it). Else the DSO's own name, /tmp/perf-PID.map.
 */
const char *lupe_ns_perf_map(const struct lupe_dso *dso, char *out, size_t size);

#endif
