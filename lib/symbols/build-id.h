/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GNU build-ids: of an ELF file (through libdw's dwelf_elf_gnu_build_id),
 * and of the running kernel (the notes in /sys/kernel/notes). Shared by
 * record (the BUILD_ID feature) and the readers (finding the right binary).
 */
#ifndef LUPE_SYMBOLS_BUILD_ID_H
#define LUPE_SYMBOLS_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_MAX 20

/*
 * The build-id of the ELF file at path into id (BUILD_ID_MAX bytes).
 * Returns its length, -ENOENT without one (or not ELF), another negative
 * errno if the file cannot be read, -ENOTSUP without libdw.
 */
int lupe_build_id_read(const char *path, uint8_t *id);

/* The build-id in a block of ELF notes (Elf64_Nhdr entries). Same returns. */
int lupe_build_id_from_notes(const void *notes, size_t len, uint8_t *id);

/* The running kernel's build-id, from /sys/kernel/notes. */
int lupe_build_id_kernel(uint8_t *id);

/*
 * This process's vdso image, which the kernel maps the same into every
 * process of its ABI (64-bit here): its address and size. 0 or -ENOENT.
 */
int lupe_vdso_image(const void **image, size_t *size);

/* The vdso's build-id (from its image's notes). Length, or -ENOENT. */
int lupe_build_id_vdso(uint8_t *id);

/*
 * lupe_buildid_cache_add() of the file name as read at from (NULL: name
 * itself): another mount namespace's file through /proc/PID/root.
 */
int lupe_buildid_cache_add_from(const char *name, const char *from, const uint8_t *id, int len);

/* mkdir -p path, as the build-id cache's folders are made (mode 0755). 0 or -errno. */
int lupe_mkdir_p(char *path);

/*
 * The path of a file of one of lupe's caches into out (PATH_MAX): name
 * in the folder the environment variable env names, else in sub of the
 * build-id cache directory (~/.debug/.lupe-image, say). 0, or -1 when the
 * cache is off (env set empty) or the path too long.
 */
int lupe_cache_path(char *out, const char *env, const char *sub, const char *name);

struct lupe_output;
/*
 * A file of one of lupe's caches (debug images, kallsyms indexes) opened
 * to be written whole at path: its folder made, a temporary file opened
 * through lupe_output_open() (mode 0600 when private, else 0644 less the
 * umask), never at a path that is not a regular file. 0, or -1 (nothing
 * to release). lupe_cache_file_close() closes it, renames it to path when
 * err is 0 and all went well (else removes it), logs which under what
 * (a "debug image" or "kallsyms index"), and releases o.
 */
int lupe_cache_file_open(struct lupe_output *o, const char *path, int private);
void lupe_cache_file_close(struct lupe_output *o, int err, const char *what);

/* id as lowercase hex into out (2 * len + 1 bytes). */
void lupe_build_id_hex(const uint8_t *id, int len, char *out);

#endif
