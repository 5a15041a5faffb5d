// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names as perf shows them, when lupe is built without libiberty
 * (demangle+LIBIBERTY.c, perf's own demangler): demangled without
 * parameters, qualifiers or return type (libiberty's DMGL_NO_OPTS), near
 * enough. The demangler is libstdc++'s __cxa_demangle, looked up at run
 * time so that lupe links no C++ runtime; without it names stay mangled.
 * Its output has the parameters, which are cut off here. NEEDSWORK: it
 * fails on names whose parameters it cannot demangle (perf shows the
 * name), and cuts a data symbol's name at "(anonymous namespace)".
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/symbols.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn demangler(void)
{
	static cxa_demangle_fn fn;
	static int tried;

	if (!tried) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		tried = 1;
		if (h)
			fn = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
	}
	return fn;
}

static const char *const keep_prefixes[] = {
	"vtable for", "VTT for", "typeinfo", "construction vtable", "guard variable",
	"non-virtual thunk", "virtual thunk", "covariant return thunk", "reference temporary",
	"TLS ", "transaction clone",
};

/* Cut "(params) const" off the end, then a template function's return type. */
static void strip(char *s)
{
	size_t n = strlen(s);
	int depth = 0;
	long i, cut = -1, space = -1;

	for (size_t k = 0; k < sizeof(keep_prefixes) / sizeof(*keep_prefixes); k++)
		if (!strncmp(s, keep_prefixes[k], strlen(keep_prefixes[k])))
			return;
	for (i = (long)n - 1; i >= 0; i--)
		if (s[i] == ')')
			break;
	if (i < 0)
		return;
	for (; i >= 0; i--) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && !--depth) {
			cut = i;
			break;
		}
	}
	if (cut <= 0)
		return;
	s[cut] = 0;
	depth = 0;
	for (i = 0; i < cut; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth)
			depth--;
		else if (s[i] == ' ' && !depth)
			space = i;
	}
	if (space > 0 && s[cut - 1] == '>' && !(space >= 8 && !strncmp(s + space - 8, "operator", 8)))
		memmove(s, s + space + 1, strlen(s + space + 1) + 1);
}

char *lupe_demangle(const char *name)
{
	cxa_demangle_fn fn;
	int status;
	char *out;

	if (strncmp(name, "_Z", 2) || !(fn = demangler()))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (!out || status) {
		free(out);
		return NULL;
	}
	strip(out);
	return out;
}
