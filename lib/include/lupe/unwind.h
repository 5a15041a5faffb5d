/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of user stacks (--call-graph dwarf) for a session: once
 * installed, the session's callchain step completes every sample that
 * carries user registers and a stack copy with its unwound user frames
 * (after LUPE_CONTEXT_USER_UNWOUND, see lupe/session.h), before any tool
 * sees it.
 */
#ifndef LUPE_UNWIND_PUBLIC_H
#define LUPE_UNWIND_PUBLIC_H

#include <lupe/core.h>

struct lupe_session;

/*
 * Install the DWARF unwinder on s; the session frees it. Returns 0, or
 * -ENOTSUP when lupe was built without one (samples keep their recorded
 * callchain), -ENOMEM.
 */
LUPE_API int lupe_unwind_install(struct lupe_session *s);

#endif
