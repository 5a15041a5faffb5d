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

/* id as lowercase hex into out (2 * len + 1 bytes). */
void lupe_build_id_hex(const uint8_t *id, int len, char *out);

#endif
