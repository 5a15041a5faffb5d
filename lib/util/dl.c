// SPDX-License-Identifier: GPL-2.0
/* Libraries loaded on first use: see dl.h. */
#include <dlfcn.h>
#include "util/dl.h"
#include "util/util.h"

int lupe_dl_bind(const char *soname, const struct lupe_dl_sym *syms, size_t n)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		return lupe_set_error(-LUPE_ERR_NOT_SUPPORTED, "cannot load '%s': %s", soname, dlerror());
	for (size_t i = 0; i < n; i++) {
		*syms[i].slot = dlsym(lib, syms[i].name);
		if (!*syms[i].slot)
			return lupe_set_error(-LUPE_ERR_NOT_SUPPORTED, "'%s' has no '%s': reinstall it",
					      soname, syms[i].name);
	}
	return 0;
}
