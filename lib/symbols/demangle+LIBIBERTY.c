// SPDX-License-Identifier: GPL-2.0
/*
 * C++ (and Rust) names as perf shows them: libiberty's cplus_demangle, the
 * demangler perf 6.1 is built with, in perf's mode without -v:
 * DMGL_NO_OPTS, the name without parameters, qualifiers or return type
 * (as c++filt -p). Demangling only the name also succeeds where the
 * parameters cannot be demangled: __cxa_demangle, which always demangles
 * them, fails on 155 of node's 81,101 C++ symbols (template functions'
 * local classes as template arguments, their .isra clones) that perf
 * shows demangled. It also keeps a data symbol in an anonymous namespace
 * whole, where cutting parameters off __cxa_demangle's text cut the name
 * at "(anonymous namespace)".
 */
#include <stdlib.h>
#include <libiberty/demangle.h>
#include "symbols/symbols.h"

char *lupe_demangle(const char *name)
{
	/* every name, as perf's demangle_sym: a C name comes back NULL */
	return cplus_demangle(name, DMGL_NO_OPTS);
}
