// SPDX-License-Identifier: GPL-2.0
/* Build-ids of ELF files through libelf and libdw. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <elfutils/libdwelf.h>
#include "symbols/build-id.h"
#include "util/util.h"

int lupe_build_id_read(const char *path, uint8_t *id)
{
	const void *bid;
	ssize_t n;
	Elf *elf;
	int fd, ret = -ENOENT;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		n = dwelf_elf_gnu_build_id(elf, &bid);
		if (n > 0) {
			ret = n > BUILD_ID_MAX ? BUILD_ID_MAX : (int)n;
			memcpy(id, bid, ret);
		}
	}
	elf_end(elf);
	close(fd);
	return ret;
}
